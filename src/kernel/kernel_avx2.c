/* kernel_avx2.c - every kernel template instantiated for AVX2, 8 pairs per step. */
/* SPDX-License-Identifier: MIT */
#include "wide_avx2.h"
#if defined(SBX_BARE)
#define SBX_TABLE sbx_kernels_avx2_bare
#define SBX_TABLE2D sbx_kernels2d_avx2_bare
#elif defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_avx2_portable
#define SBX_TABLE2D sbx_kernels2d_avx2_portable
#else
#define SBX_TABLE sbx_kernels_avx2
#define SBX_TABLE2D sbx_kernels2d_avx2
#endif
#include "sources_tpl.h"
#include "sat_tpl.h"
#include "batch_tpl.h"
#include "contacts_tpl.h"
#include "sat2d_tpl.h"

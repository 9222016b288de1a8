/* kernel_avx512.c - every kernel template instantiated for AVX-512 (F, DQ, BW, VL), 16 pairs per step. */
/* SPDX-License-Identifier: MIT */
#include "wide_avx512.h"
#if defined(SBX_BARE)
#define SBX_TABLE sbx_kernels_avx512_bare
#define SBX_TABLE2D sbx_kernels2d_avx512_bare
#elif defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_avx512_portable
#define SBX_TABLE2D sbx_kernels2d_avx512_portable
#else
#define SBX_TABLE sbx_kernels_avx512
#define SBX_TABLE2D sbx_kernels2d_avx512
#endif
#include "sources_tpl.h"
#include "sat_tpl.h"
#include "batch_tpl.h"
#include "contacts_tpl.h"
#include "sat2d_tpl.h"

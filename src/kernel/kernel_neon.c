/* kernel_neon.c - every kernel template instantiated for AArch64 NEON, 4 pairs per step. */
/* SPDX-License-Identifier: MIT */
#include "wide_neon.h"
#if defined(SBX_BARE)
#define SBX_TABLE sbx_kernels_neon_bare
#define SBX_TABLE2D sbx_kernels2d_neon_bare
#elif defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_neon_portable
#define SBX_TABLE2D sbx_kernels2d_neon_portable
#else
#define SBX_TABLE sbx_kernels_neon
#define SBX_TABLE2D sbx_kernels2d_neon
#endif
#include "sources_tpl.h"
#include "sat_tpl.h"
#include "batch_tpl.h"
#include "contacts_tpl.h"
#include "sat2d_tpl.h"

/* kernel_sse41.c - every kernel template instantiated for SSE4.1, 4 pairs per step. */
/* SPDX-License-Identifier: MIT */
#include "wide_sse41.h"
#if defined(SBX_BARE)
#define SBX_TABLE sbx_kernels_sse41_bare
#define SBX_TABLE2D sbx_kernels2d_sse41_bare
#elif defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_sse41_portable
#define SBX_TABLE2D sbx_kernels2d_sse41_portable
#else
#define SBX_TABLE sbx_kernels_sse41
#define SBX_TABLE2D sbx_kernels2d_sse41
#endif
#include "sources_tpl.h"
#include "sat_tpl.h"
#include "batch_tpl.h"
#include "contacts_tpl.h"
#include "sat2d_tpl.h"

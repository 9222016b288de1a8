/* kernel_sse41.c - every kernel template instantiated for SSE4.1, 4 pairs per step. */
/* SPDX-License-Identifier: MIT */
#define SBX_ISA sse41
#include "simd/wide_sse41.h"
#include "path_tpl.h"

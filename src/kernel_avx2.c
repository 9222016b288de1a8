/* kernel_avx2.c - every kernel template instantiated for AVX2, 8 pairs per step. */
/* SPDX-License-Identifier: MIT */
#define SBX_ISA avx2
#include "simd/wide_avx2.h"
#include "path_tpl.h"

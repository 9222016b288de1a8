/* kernel_avx512.c - every kernel template instantiated for AVX-512 (F, DQ, BW, VL), 16 pairs per step. */
/* SPDX-License-Identifier: MIT */
#define SBX_ISA avx512
#include "simd/wide_avx512.h"
#include "path_tpl.h"

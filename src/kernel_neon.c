/* kernel_neon.c - every kernel template instantiated for AArch64 NEON, 4 pairs per step. */
/* SPDX-License-Identifier: MIT */
#define SBX_ISA neon
#include "simd/wide_neon.h"
#include "path_tpl.h"

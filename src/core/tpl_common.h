/* tpl_common.h - what every kernel template needs: core/internal.h, the instantiation checks, the variant switch, SBX_INLINE, SBX_UNROLL. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TPL_COMMON_H
#define SATBOX_TPL_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h"

#if !defined(SBX_W)
#error "include a wide_<isa>.h before the kernel templates"
#endif
#if !defined(SBX_ISA)
#error "define SBX_ISA (the path's name in src/core/isa.h) before the kernel templates"
#endif

/* The one variant switch: the library's kernels, or their test-only portable twin
 * (SATBOX_PORTABLE: SIMDE_NO_NATIVE, no ISA flags), or their bench-only bare twin (SBX_BARE: no
 * validity test, no near-parallel rule, no manifold). The table is sbx_path_<isa><variant>. */
#if defined(SBX_BARE)
#define SBX_VARIANT _bare
#elif defined(SATBOX_PORTABLE)
#define SBX_VARIANT _portable
#else
#define SBX_VARIANT
#endif
#define SBX_PATH SBX_CAT3(sbx_path_, SBX_ISA, SBX_VARIANT)

#define SBX_INLINE SBX_ALWAYS_INLINE

/* Fully unrolls the loop that follows (over a compile-time number of rows: each row's branches
 * and indices then fold to constants). */
#if defined(__GNUC__) || defined(__clang__)
#define SBX_UNROLL _Pragma("GCC unroll 32")
#else
#define SBX_UNROLL
#endif

#endif

/* tpl_common.h - what every kernel template needs: the internal types and the instantiation checks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TPL_COMMON_H
#define SATBOX_TPL_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#if !defined(SBX_W)
#error "include a wide_<isa>.h before the kernel templates"
#endif
#if !defined(SBX_TABLE)
#error "define SBX_TABLE (the name of this instantiation's kernel table) before the kernel templates"
#endif

#define SBX_INLINE SBX_ALWAYS_INLINE

/* Fully unrolls the loop that follows (over a compile-time number of rows: each row's branches
 * and indices then fold to constants). */
#if defined(__GNUC__) || defined(__clang__)
#define SBX_UNROLL _Pragma("GCC unroll 32")
#else
#define SBX_UNROLL
#endif

#endif

/* kernel_scalar.c - the scalar path's table: the reference kernels of every room, 1 pair per step. */
/* SPDX-License-Identifier: MIT */
#include "box3d/contacts.h"
#include "poly2d/contacts2d.h"
#include "planner/planner.h"

/* Compiled without SIMD flags, like the reference files whose kernels it lists (the _ref.c files of
 * each room); the twin of kernel_<isa>.c, which instantiates the templates instead. */
#define SBX_KERNEL_PREFIXED(name) sbx_scalar_##name
const sbx_path sbx_path_scalar = SBX_PATH_TABLE(1);
#undef SBX_KERNEL_PREFIXED

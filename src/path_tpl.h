/* path_tpl.h - every kernel template instantiated at SBX_W lanes, and the path's one table (sbx_path_<isa><variant>). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_PATH_TPL_H
#define SATBOX_PATH_TPL_H

/* Included by each kernel_<isa>.c after its wide_<isa>.h, with SBX_ISA its name in core/isa.h. */
#include "box3d/sources_tpl.h"
#include "box3d/sat_tpl.h"
#include "box3d/batch_tpl.h"
#include "box3d/contacts_tpl.h"
#include "poly2d/sat2d_tpl.h"
#include "poly2d/contacts2d_tpl.h"
#include "planner/planner_tpl.h"
#include "planner/chain_tpl.h"

_Static_assert(SBX_W == SBX_CAT(SBX_WIDTH_, SBX_ISA), "wide_<isa>.h's SBX_W is not the width in src/core/isa.h");

#define SBX_KERNEL_PREFIXED(name) kernel_##name
const sbx_path SBX_PATH = SBX_PATH_TABLE(SBX_W);
#undef SBX_KERNEL_PREFIXED

#endif

/* path_tpl.h - every kernel template instantiated at SBX_W lanes, and the path's one table (sbx_path_<isa><variant>). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_PATH_TPL_H
#define SATBOX_PATH_TPL_H

/* Included by each kernel_<isa>.c after its wide_<isa>.h, with SBX_ISA its name in src/isa.h. */
#include "sources_tpl.h"
#include "sat_tpl.h"
#include "batch_tpl.h"
#include "contacts_tpl.h"
#include "sat2d_tpl.h"
#include "contacts2d_tpl.h"

_Static_assert(SBX_W == SBX_CAT(SBX_WIDTH_, SBX_ISA), "wide_<isa>.h's SBX_W is not the width in src/isa.h");

const sbx_path SBX_PATH = {
    .overlap = kernel_overlap,
    .collide = kernel_collide,
    .aabb = kernel_aabb,
    .axes_from_quat = kernel_axes_from_quat,
    .contacts = kernel_contacts,
    .overlap2d = kernel2d_overlap,
    .collide2d = kernel2d_collide,
    .contacts2d = kernel2d_contacts,
    .width = SBX_W,
};

#endif

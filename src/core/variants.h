/* variants.h - the portable and bare twins of each path's table: for tests and bench only, never the library. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_VARIANTS_H
#define SATBOX_VARIANTS_H

#include "core/internal.h"

/* Built by src/meson.build from the same kernel_<name>.c (the SBX_VARIANT switch of
 * core/tpl_common.h): sbx_path_<name>_portable, every kernel as portable C
 * (SIMDE_NO_NATIVE, no ISA flags; linked into the tests, SATBOX_PORTABLE_<E> defined), and
 * sbx_path_<name>_bare, the kernels without the validity test, the near-parallel rule and the
 * manifold (linked into the bench, SATBOX_BARE_<E> defined). The scalar reference has neither. */
#define SBX_VARIANT_DECL(name, E, width, rank, arch, detect, flags)                                                              \
    extern const sbx_path sbx_path_##name##_portable;                                                               \
    extern const sbx_path sbx_path_##name##_bare;
SBX_ISAS(SBX_VARIANT_DECL)
#undef SBX_VARIANT_DECL

/* The twin of a path of one kind if this program links it, else NULL. */
typedef enum sbx_twin { SBX_TWIN_PORTABLE, SBX_TWIN_BARE } sbx_twin;
static inline const sbx_path *sbx_twin_for(satbox_isa isa, sbx_twin twin)
{
    static const sbx_path *const tables[2][SATBOX_ISA_COUNT] = {
#define SBX_PORTABLE_PTR(name, E, width, rank, arch, detect, flags) SBX_TABLE_IF(SATBOX_PORTABLE_##E, sbx_path_##name##_portable),
#define SBX_BARE_PTR(name, E, width, rank, arch, detect, flags) SBX_TABLE_IF(SATBOX_BARE_##E, sbx_path_##name##_bare),
        {SBX_ISAS(SBX_PORTABLE_PTR)},
        {SBX_ISAS(SBX_BARE_PTR)},
#undef SBX_PORTABLE_PTR
#undef SBX_BARE_PTR
    };
    return (unsigned)isa < (unsigned)SATBOX_ISA_COUNT ? tables[twin][isa] : NULL;
}

#endif

/* paths.h - the path tables a test can check: the native paths this CPU runs, then the portable twins linked in. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_PATHS_H
#define SATBOX_TEST_PATHS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box3d/contacts.h"
#include "box3d/box3d.h"
#include "poly2d/poly2d.h"
#include "core/variants.h"

/* One path: its name and its table (pairs, AABBs, quaternions, contact manifolds, 2D). */
typedef struct test_path {
    const char *name;
    const sbx_path *path;
} test_path;

/* Fills `out` (room for 16) and returns how many; scalar, the reference, is not listed. Every
 * compiled path has every kernel (each kernel_<isa>.c instantiates every template). */
static inline int paths_list(test_path *out)
{
    static const char *const portable_names[SATBOX_ISA_COUNT] = {
#define PORTABLE_NAME(name, E, width, rank, arch, detect, flags) #name "-portable",
        SBX_ISAS(PORTABLE_NAME)
#undef PORTABLE_NAME
    };
    int n = 0;
    unsigned sup = satbox_isa_supported();
    for (int i = 1; i < SATBOX_ISA_COUNT; i++)
        if (sup >> i & 1u)
            out[n++] = (test_path){satbox_isa_name((satbox_isa)i), sbx_path_for((satbox_isa)i)};
    for (int i = 0; i < SATBOX_ISA_COUNT; i++) {
        const sbx_path *twin = sbx_twin_for((satbox_isa)i, SBX_TWIN_PORTABLE);
        if (twin)
            out[n++] = (test_path){portable_names[i], twin};
    }
    return n;
}

/* Of the first n paths, keeps those named `only` (all of them when `only` is NULL); returns how many. */
static inline int paths_only(test_path *p, int n, const char *only)
{
    if (!only)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(p[i].name, only))
            p[kept++] = p[i];
    return kept;
}

#endif

/* paths.h - the kernel tables a test can check: the native paths this CPU runs, then the portable twins linked in. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_PATHS_H
#define SATBOX_TEST_PATHS_H

#include <string.h>

#include "contacts.h"
#include "internal.h"
#include "internal2d.h"

/* One path's tables: pairs (overlap, collide, AABBs, quaternions), contact manifolds, 2D. */
typedef struct test_path {
    const char *name;
    const sbx_kernels *k;
    const sbx_contacts_kernels *ck;
    const sbx_kernels2d *k2;
} test_path;

/* The portable twin of one ISA (tests linked with its SIMDE_NO_NATIVE library). */
#define PORTABLE_PATH(isa)                                                                                            \
    (test_path)                                                                                                       \
    {                                                                                                                 \
        #isa "-portable", &sbx_kernels_##isa##_portable, &sbx_kernels_##isa##_portable_contacts,                     \
            &sbx_kernels2d_##isa##_portable                                                                           \
    }

/* Fills `out` (room for 16) and returns how many; scalar, the reference, is not listed. Every
 * compiled path has all three tables (each kernel_<isa>.c instantiates every template). */
static inline int paths_list(test_path *out)
{
    int n = 0;
    unsigned sup = satbox_isa_supported();
    for (int i = 1; i < SATBOX_ISA_COUNT; i++)
        if (sup >> i & 1u) {
            satbox_isa isa = (satbox_isa)i;
            out[n++] = (test_path){satbox_isa_name(isa), sbx_kernels_for(isa), sbx_contacts_for(isa),
                                   sbx_kernels2d_for(isa)};
        }
#if defined(SATBOX_PORTABLE_SSE41)
    out[n++] = PORTABLE_PATH(sse41);
#endif
#if defined(SATBOX_PORTABLE_AVX2)
    out[n++] = PORTABLE_PATH(avx2);
#endif
#if defined(SATBOX_PORTABLE_AVX512)
    out[n++] = PORTABLE_PATH(avx512);
#endif
#if defined(SATBOX_PORTABLE_NEON)
    out[n++] = PORTABLE_PATH(neon);
#endif
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

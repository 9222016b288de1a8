/* paths.h - the kernel tables a test can check: the native paths this CPU runs, then the portable twins linked in. */
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

/* Which table a test needs: paths_list() leaves out the paths that lack it. */
typedef enum { PATHS_PAIRS, PATHS_CONTACTS, PATHS_2D } paths_need;

/* The portable twin of one ISA (tests linked with its SIMDE_NO_NATIVE library). */
#define PORTABLE_PATH(isa)                                                                                            \
    (test_path)                                                                                                       \
    {                                                                                                                 \
        #isa "-portable", &sbx_kernels_##isa##_portable, &sbx_kernels_##isa##_portable_contacts,                     \
            &sbx_kernels2d_##isa##_portable                                                                           \
    }

/* Fills `out` (room for 16) and returns how many; scalar, the reference, is not listed. */
static inline int paths_list(test_path *out, paths_need need)
{
    test_path all[16];
    int n = 0, kept = 0;
    unsigned sup = satbox_isa_supported();
    for (int i = 1; i < SATBOX_ISA_COUNT; i++)
        if (sup >> i & 1u) {
            satbox_isa isa = (satbox_isa)i;
            all[n++] = (test_path){satbox_isa_name(isa), sbx_kernels_for(isa), sbx_contacts_for(isa),
                                   sbx_kernels2d_for(isa)};
        }
#if defined(SATBOX_PORTABLE_SSE41)
    all[n++] = PORTABLE_PATH(sse41);
#endif
#if defined(SATBOX_PORTABLE_AVX2)
    all[n++] = PORTABLE_PATH(avx2);
#endif
#if defined(SATBOX_PORTABLE_AVX512)
    all[n++] = PORTABLE_PATH(avx512);
#endif
#if defined(SATBOX_PORTABLE_NEON)
    all[n++] = PORTABLE_PATH(neon);
#endif
    for (int i = 0; i < n; i++)
        if (need == PATHS_PAIRS ? all[i].k != NULL : need == PATHS_CONTACTS ? all[i].ck != NULL : all[i].k2 != NULL)
            out[kept++] = all[i];
    return kept;
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

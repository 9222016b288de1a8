/* paths2d.h - the 2D kernel tables a test can check: the native paths this CPU runs, then the portable twins linked in. */
#ifndef SATBOX_TEST_PATHS2D_H
#define SATBOX_TEST_PATHS2D_H

#include "internal.h"
#include "internal2d.h"

typedef struct path2d {
    const char *name;
    const sbx_kernels2d *k;
} path2d;

/* Fills `out` (room for 16) and returns how many; scalar, the reference, is not listed. */
static inline int paths2d_list(path2d *out)
{
    int n = 0;
    unsigned sup = satbox_isa_supported();
    for (int i = 1; i < SATBOX_ISA_COUNT; i++)
        if ((sup >> i & 1u) && sbx_kernels2d_for((satbox_isa)i))
            out[n++] = (path2d){satbox_isa_name((satbox_isa)i), sbx_kernels2d_for((satbox_isa)i)};
#if defined(SATBOX_PORTABLE_SSE41)
    out[n++] = (path2d){"sse41-portable", &sbx_kernels2d_sse41_portable};
#endif
#if defined(SATBOX_PORTABLE_AVX2)
    out[n++] = (path2d){"avx2-portable", &sbx_kernels2d_avx2_portable};
#endif
#if defined(SATBOX_PORTABLE_AVX512)
    out[n++] = (path2d){"avx512-portable", &sbx_kernels2d_avx512_portable};
#endif
#if defined(SATBOX_PORTABLE_NEON)
    out[n++] = (path2d){"neon-portable", &sbx_kernels2d_neon_portable};
#endif
    return n;
}

#endif

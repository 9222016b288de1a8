/* dispatch.c - path choice: the kernel table of each ISA, the one atomically published choice, query/cap/force. */
/* SPDX-License-Identifier: MIT */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

/* ---- kernel tables ------------------------------------------------------------------------ */

const sbx_kernels *sbx_kernels_for(satbox_isa isa)
{
    switch (isa) {
    case SATBOX_ISA_SCALAR: return &sbx_kernels_scalar;
#if defined(SATBOX_HAVE_SSE41)
    case SATBOX_ISA_SSE41: return &sbx_kernels_sse41;
#endif
#if defined(SATBOX_HAVE_AVX2)
    case SATBOX_ISA_AVX2: return &sbx_kernels_avx2;
#endif
#if defined(SATBOX_HAVE_AVX512)
    case SATBOX_ISA_AVX512: return &sbx_kernels_avx512;
#endif
#if defined(SATBOX_HAVE_NEON)
    case SATBOX_ISA_NEON: return &sbx_kernels_neon;
#endif
    default: return NULL;
    }
}

/* Paths in order of preference, widest first. NEON ranks with SSE4.1 (4 lanes). */
static const satbox_isa ladder[] = {SATBOX_ISA_AVX512, SATBOX_ISA_AVX2, SATBOX_ISA_NEON, SATBOX_ISA_SSE41,
                                    SATBOX_ISA_SCALAR};

static int rank(satbox_isa isa)
{
    switch (isa) {
    case SATBOX_ISA_SCALAR: return 0;
    case SATBOX_ISA_SSE41:
    case SATBOX_ISA_NEON: return 1;
    case SATBOX_ISA_AVX2: return 2;
    case SATBOX_ISA_AVX512: return 3;
    default: return -1;
    }
}

unsigned satbox_isa_supported(void)
{
    unsigned cpu = sbx_cpu_paths(), mask = 0;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if ((cpu >> i & 1u) && sbx_kernels_for((satbox_isa)i))
            mask |= 1u << i;
    return mask;
}

static satbox_isa widest_upto(int max_rank)
{
    unsigned sup = satbox_isa_supported();
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++)
        if ((sup >> ladder[i] & 1u) && rank(ladder[i]) <= max_rank)
            return ladder[i];
    return SATBOX_ISA_SCALAR;
}

/* The one piece of global state: the active path, published atomically. -1 = not chosen yet.
 * Racing first calls compute the same default and only the first store wins. */
static _Atomic int active_isa = -1;

static satbox_isa choose_default(void)
{
    int max_rank = 3;
    const char *env = getenv("SATBOX_ISA");
    if (env && *env) {
        int want = satbox_isa_from_name(env);
        if (want >= 0)
            max_rank = rank((satbox_isa)want);
    }
    return widest_upto(max_rank);
}

satbox_isa satbox_isa_active(void)
{
    int cur = atomic_load_explicit(&active_isa, memory_order_acquire);
    if (cur < 0) {
        int expected = -1, def = (int)choose_default();
        if (atomic_compare_exchange_strong(&active_isa, &expected, def))
            cur = def;
        else
            cur = expected;
    }
    return (satbox_isa)cur;
}

const sbx_kernels *sbx_active(void) { return sbx_kernels_for(satbox_isa_active()); }

int satbox_isa_force(satbox_isa isa)
{
    if (rank(isa) < 0)
        return SATBOX_ERR_ARG;
    if (!(satbox_isa_supported() >> isa & 1u))
        return SATBOX_ERR_UNSUPPORTED;
    atomic_store_explicit(&active_isa, (int)isa, memory_order_release);
    return SATBOX_OK;
}

int satbox_isa_cap(satbox_isa isa)
{
    int r = rank(isa);
    if (r < 0)
        return SATBOX_ERR_ARG;
    satbox_isa pick = widest_upto(r);
    atomic_store_explicit(&active_isa, (int)pick, memory_order_release);
    return (int)pick;
}

static const char *const isa_names[SATBOX_ISA_COUNT] = {"scalar", "sse41", "avx2", "avx512", "neon"};

const char *satbox_isa_name(satbox_isa isa) { return rank(isa) < 0 ? NULL : isa_names[isa]; }

/* ASCII case-insensitive equality (strcasecmp is POSIX, not C11, and would follow the locale). */
static int same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        if (x != *b)
            return 0;
        if (!x)
            return 1;
    }
}

/* Any case ("AVX512", "Avx2"): the name often comes from a user's environment (SATBOX_ISA). */
int satbox_isa_from_name(const char *name)
{
    if (!name)
        return SATBOX_ERR_ARG;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if (same_name(name, isa_names[i]))
            return i;
    return SATBOX_ERR_ARG;
}

int satbox_isa_width(satbox_isa isa)
{
    static const int widths[SATBOX_ISA_COUNT] = {1, 4, 8, 16, 4};
    return rank(isa) < 0 ? 0 : widths[isa];
}

/* dispatch.c - path choice: the table of each path (core/isa.h), the one atomically published choice, query/cap/force. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/internal.h"

/* ---- the registry's columns (core/isa.h), by satbox_isa ----------------------------------- */

/* The rows are in the order of the public enum: row k is satbox_isa k. */
enum registry_row {
#define ROW(name, E, width, rank, arch, detect, flags) ROW_##name,
    SBX_ISAS(ROW)
#undef ROW
    ROW_COUNT
};
_Static_assert((int)ROW_COUNT == (int)SATBOX_ISA_COUNT, "src/core/isa.h has one row per satbox_isa");
#define ROW_AT_ENUM(name, E, width, rank, arch, detect, flags)                                                                 \
    _Static_assert((int)ROW_##name == (int)SATBOX_ISA_##E, "src/core/isa.h's rows are in the order of satbox_isa");
SBX_ISAS(ROW_AT_ENUM)
#undef ROW_AT_ENUM

/* Each path's table, NULL when the build left it out (no SATBOX_HAVE_<E> from src/meson.build). */
static const sbx_path *const tables[SATBOX_ISA_COUNT] = {
#define TABLE(name, E, width, rank, arch, detect, flags) SBX_TABLE_IF(SATBOX_HAVE_##E, sbx_path_##name),
    SBX_ISAS(TABLE)
#undef TABLE
};
static const char *const names[SATBOX_ISA_COUNT] = {
#define NAME(name, E, width, rank, arch, detect, flags) #name,
    SBX_ISAS(NAME)
#undef NAME
};
static const int widths[SATBOX_ISA_COUNT] = {
#define WIDTH(name, E, width, rank, arch, detect, flags) width,
    SBX_ISAS(WIDTH)
#undef WIDTH
};
static const int ranks[SATBOX_ISA_COUNT] = {
#define RANK(name, E, width, rank, arch, detect, flags) rank,
    SBX_ISAS(RANK)
#undef RANK
};
static int known(satbox_isa isa) { return (unsigned)isa < (unsigned)SATBOX_ISA_COUNT; }

static int rank(satbox_isa isa) { return known(isa) ? ranks[isa] : -1; }

const sbx_path *sbx_path_for(satbox_isa isa) { return known(isa) ? tables[isa] : NULL; }

unsigned satbox_isa_supported(void)
{
    unsigned cpu = sbx_cpu_paths(), mask = 0;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if ((cpu >> i & 1u) && tables[i])
            mask |= 1u << i;
    return mask;
}

/* The supported path of the highest rank not above max_rank (scalar, rank 0, always qualifies). */
static satbox_isa widest_upto(int max_rank)
{
    unsigned sup = satbox_isa_supported();
    int best = SATBOX_ISA_SCALAR;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if ((sup >> i & 1u) && ranks[i] <= max_rank && ranks[i] >= ranks[best])
            best = i;
    return (satbox_isa)best;
}

/* The one piece of global state: the active path, published atomically. -1 = not chosen yet.
 * Racing first calls compute the same default and only the first store wins. */
static _Atomic int active_isa = -1;

static satbox_isa choose_default(void)
{
    int max_rank = INT_MAX;
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

/* What every entry point calls: one atomic load and one table pointer once the path is chosen
 * (satbox_isa_active() is exported, hence called through the PLT: only the first call takes it).
 * Every path that can be active is compiled in: its table is never NULL. */
const sbx_path *sbx_active(void)
{
    int cur = atomic_load_explicit(&active_isa, memory_order_acquire);
    return tables[cur >= 0 ? cur : (int)satbox_isa_active()];
}

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

const char *satbox_isa_name(satbox_isa isa) { return known(isa) ? names[isa] : NULL; }

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
        if (same_name(name, names[i]))
            return i;
    return SATBOX_ERR_ARG;
}

int satbox_isa_width(satbox_isa isa) { return known(isa) ? widths[isa] : 0; }

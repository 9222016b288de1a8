/* args.c - the argument checks every room shares: spans and aliasing, batch / pool / index checks, the
 * outputs' rule, and the public result structs checked against SBX_OUTPUTS. The entry files of box3d/ and
 * poly2d/ (with box3d/args3d.c for the 3D inputs) check their arguments with these. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "core/internal.h"
#include "satbox/satbox2d.h"

void sbx_add_in(sbx_spans *s, const void *p, size_t bytes)
{
    if (p && bytes)
        s->in[s->nin++] = (sbx_span){(uintptr_t)p, (uintptr_t)p + bytes};
}

void sbx_add_out(sbx_spans *s, const void *p, size_t bytes)
{
    if (p && bytes)
        s->out[s->nout++] = (sbx_span){(uintptr_t)p, (uintptr_t)p + bytes};
}

static int meets(sbx_span a, sbx_span b) { return a.lo < b.hi && b.lo < a.hi; }

int sbx_aliased(const sbx_spans *s)
{
    for (int o = 0; o < s->nout; o++) {
        for (int i = 0; i < s->nin; i++)
            if (meets(s->out[o], s->in[i]))
                return 1;
        for (int p = o + 1; p < s->nout; p++)
            if (meets(s->out[o], s->out[p]))
                return 1;
    }
    return 0;
}

int sbx_add_arrays(sbx_spans *s, int output, const void *const *arrays, int na, size_t bytes)
{
    for (int k = 0; k < na; k++) {
        if (!arrays[k])
            return SATBOX_ERR_NULL;
        if (output)
            sbx_add_out(s, arrays[k], bytes);
        else
            sbx_add_in(s, arrays[k], bytes);
    }
    return SATBOX_OK;
}

/* The public result structs hold exactly the outputs of SBX_OUTPUTS that their form carries: each
 * entry a field of its name, type and shape, and nothing else (the structs are pointers only, so
 * their sizes are the sums). A field added to a struct and not to the list, or the other way
 * round, stops the build here. */
#define SBX_OUT_TYPE(dims, type, rows, vec) type *(*)rows SBX_IF(vec)([dims], )
#define SBX_OUT_SIZE(dims, type, rows, vec) sizeof(type *rows SBX_IF(vec)([dims], ))
#define SBX_OUT_IN(T, dims, col, name, type, rows, vec)                                               \
    SBX_WHEN_##col(_Static_assert(_Generic(&((T *)0)->name, SBX_OUT_TYPE(dims, type, rows, vec): 1, default: 0), \
                                  #T " ." #name ": not as SBX_OUTPUTS has it");)
#define SBX_OUT_SUM(col, dims, type, rows, vec) +(col) * SBX_OUT_SIZE(dims, type, rows, vec)
#define SBX_OUT_CHECK_RESULT(name, type, rows, vec, ov, co, ct, flagged) SBX_OUT_IN(satbox_result, 3, co, name, type, rows, vec)
#define SBX_OUT_CHECK_CONTACTS(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_OUT_IN(satbox_contacts_out, 3, ct, name, type, rows, vec)
#define SBX_OUT_CHECK_RESULT2D(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_OUT_IN(satbox2d_result, 2, co, name, type, rows, vec)
#define SBX_OUT_SIZE_RESULT(name, type, rows, vec, ov, co, ct, flagged) SBX_OUT_SUM(co, 3, type, rows, vec)
#define SBX_OUT_SIZE_CONTACTS(name, type, rows, vec, ov, co, ct, flagged) SBX_OUT_SUM(ct, 3, type, rows, vec)
#define SBX_OUT_SIZE_RESULT2D(name, type, rows, vec, ov, co, ct, flagged) SBX_OUT_SUM(co, 2, type, rows, vec)
SBX_OUTPUTS(SBX_OUT_CHECK_RESULT)
SBX_OUTPUTS(SBX_OUT_CHECK_CONTACTS)
SBX_OUTPUTS(SBX_OUT_CHECK_RESULT2D)
_Static_assert(sizeof(satbox_result) == 0 SBX_OUTPUTS(SBX_OUT_SIZE_RESULT),
               "satbox_result has a field that SBX_OUTPUTS lacks");
_Static_assert(sizeof(satbox_contacts_out) == 0 SBX_OUTPUTS(SBX_OUT_SIZE_CONTACTS),
               "satbox_contacts_out has a field that SBX_OUTPUTS lacks");
_Static_assert(sizeof(satbox2d_result) == 0 SBX_OUTPUTS(SBX_OUT_SIZE_RESULT2D),
               "satbox2d_result has a field that SBX_OUTPUTS lacks");
_Static_assert(SBX_MAX_OUT_SPANS >= 9, "satbox_axes_from_quat records 9 outputs");

int sbx_check_batch(size_t n, size_t pool_n, int takes_margin, float margin)
{
    if (n == 0)
        return 1;
    if (n > SATBOX_MAX_COUNT || pool_n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (takes_margin && !isfinite(margin))
        return SATBOX_ERR_ARG;
    return SATBOX_OK;
}

int sbx_check_pool(const satbox_pair *pairs, size_t pool_n)
{
    if (pool_n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!pairs)
        return SATBOX_ERR_NULL;
    if (pool_n == 0)
        return SATBOX_ERR_INDEX; /* n > 0 pairs cannot index an empty pool */
    return SATBOX_OK;
}

int sbx_check_indices(const satbox_pair *pairs, size_t n, size_t pool_n, sbx_spans *s)
{
    sbx_add_in(s, pairs, n * sizeof *pairs);
    for (size_t i = 0; i < n; i++)
        if (pairs[i].a >= pool_n || pairs[i].b >= pool_n)
            return SATBOX_ERR_INDEX;
    return SATBOX_OK;
}

int sbx_pair_outputs(sbx_spans *s, int collide, int bound, int pool, const uint8_t *hit, const uint8_t *bad,
                     const uint32_t *compact, size_t n)
{
    if (!bound) {
        if (!pool && (collide || !hit))
            return SATBOX_ERR_NULL;
        sbx_add_out(s, hit, n);
        sbx_add_out(s, bad, n);
    }
    sbx_add_out(s, compact, n * sizeof(uint32_t));
    return sbx_aliased(s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

/* api_contacts2d.c - the 2D contact-manifold entry points: api2d.c's argument checks plus the records, then the active path's kernel. */
/* SPDX-License-Identifier: MIT */
#include "contacts2d.h"

/* Checks every argument as the other 2D entry points do (api2d.c's input check; margin finite;
 * the n records must not overlap an input), then runs the active path. Nothing is written unless
 * every check passes. Out of line, so that its spans are off the stack while the kernel runs. */
SBX_NOINLINE int contacts_check2d(const sbx_cjob2d *job, size_t pool_n)
{
    size_t n = job->pair.n;
    int e = sbx_check_batch(n, 0, 1, job->pair.margin);
    if (e)
        return e;
    sbx_spans s = {.nin = 0};
    e = sbx_check_inputs2d(&job->pair, pool_n, &s);
    if (e)
        return e;
    if (!job->out)
        return SATBOX_ERR_NULL;
    sbx_add_out(&s, job->out, n * sizeof(satbox2d_manifold));
    return sbx_aliased(&s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

static ptrdiff_t contacts_call2d(const sbx_cjob2d *job, size_t pool_n)
{
    int e = contacts_check2d(job, pool_n);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_active()->contacts2d(job);
}

/* Each source's satbox2d_<pre>contacts<suf> (declared in satbox2d.h), as api2d.c's entry points. */
#define SBX_CONTACTS2D_EACH(pre, NAME, TA, fa, TB, fb)                                                       \
    ptrdiff_t satbox2d_##pre##contacts(const TA *a, const TB *b, size_t n, float margin, satbox2d_manifold *out) \
    {                                                                                                        \
        return contacts_call2d(                                                                              \
            &(sbx_cjob2d){.pair = {.src = SBX2D_##NAME, .n = n, .fa = a, .fb = b, .margin = margin}, .out = out}, 0); \
    }
#define SBX_CONTACTS2D_POOL(pre, NAME, T, f)                                                                 \
    ptrdiff_t satbox2d_##pre##contacts_pairs(const T *pool, size_t pool_n, const satbox_pair *pairs, size_t n, \
                                             float margin, satbox2d_manifold *out)                           \
    {                                                                                                        \
        return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_##NAME, .n = n, .f = pool, .pairs = pairs, \
                                                      .margin = margin},                                     \
                                             .out = out},                                                    \
                               pool_n);                                                                      \
    }
SBX_CONTACTS2D_EACH(, RECT, satbox2d_rects, ra, satbox2d_rects, rb)
SBX_CONTACTS2D_POOL(, RECT_POOL, satbox2d_rects, ra)
SBX_CONTACTS2D_EACH(poly_, POLY, satbox2d_polys, pa, satbox2d_polys, pb)
SBX_CONTACTS2D_POOL(poly_, POLY_POOL, satbox2d_polys, pa)
SBX_CONTACTS2D_EACH(rect_poly_, RECT_POLY, satbox2d_rects, ra, satbox2d_polys, pb)
#undef SBX_CONTACTS2D_EACH
#undef SBX_CONTACTS2D_POOL

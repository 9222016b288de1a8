/* api_contacts2d.c - the 2D contact-manifold entry points: api2d.c's argument checks plus the records, then the active path's kernel. */
/* SPDX-License-Identifier: MIT */
#include "poly2d/contacts2d.h"

/* Checks every argument as the other 2D entry points do (api2d.c's input check; margin finite;
 * the n records must not overlap an input), then runs the active path. Nothing is written unless
 * every check passes. Out of line, so that its spans are off the stack while the kernel runs. */
static SBX_NOINLINE int contacts_check2d(const sbx_cjob2d *job, size_t pool_n)
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

/* Each function builds the job of its 2D source (poly2d/poly2d.h) and makes the shared call. */

ptrdiff_t satbox2d_contacts(const satbox2d_rects *a, const satbox2d_rects *b, size_t n, float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_RECT, .n = n, .ra = a, .rb = b, .margin = margin}, .out = out}, 0);
}

ptrdiff_t satbox2d_contacts_pairs(const satbox2d_rects *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                  float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_RECT_POOL, .n = n, .ra = pool, .pairs = pairs, .margin = margin}, .out = out}, pool_n);
}

ptrdiff_t satbox2d_poly_contacts(const satbox2d_polys *a, const satbox2d_polys *b, size_t n, float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_POLY, .n = n, .pa = a, .pb = b, .margin = margin}, .out = out}, 0);
}

ptrdiff_t satbox2d_poly_contacts_pairs(const satbox2d_polys *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                       float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_POLY_POOL, .n = n, .pa = pool, .pairs = pairs, .margin = margin}, .out = out}, pool_n);
}

ptrdiff_t satbox2d_rect_poly_contacts(const satbox2d_rects *a, const satbox2d_polys *b, size_t n, float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_RECT_POLY, .n = n, .ra = a, .pb = b, .margin = margin}, .out = out}, 0);
}

ptrdiff_t satbox2d_prep_contacts_pairs(const satbox2d_prepared *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                       float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_PREP_POOL, .n = n, .pp = pool, .pairs = pairs, .margin = margin}, .out = out}, pool_n);
}

ptrdiff_t satbox2d_body_contacts_pairs(const satbox2d_bodies *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                       float margin, satbox2d_manifold *out)
{
    return contacts_call2d(&(sbx_cjob2d){.pair = {.src = SBX2D_BODY_POOL, .n = n, .bodies = pool, .pairs = pairs, .margin = margin}, .out = out}, pool_n);
}

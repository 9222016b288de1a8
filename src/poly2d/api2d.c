/* api2d.c - the 2D pair entry points and the 2D input checks: one argument check per call, then the active path's 2D kernel. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "core/internal.h"
#include "poly2d/poly2d.h"
#include "poly2d/contacts2d.h"

/* ---- argument checks ---------------------------------------------------------------------- */

static int check_rects(const satbox2d_rects *r, size_t count, sbx_spans *s)
{
    if (!r)
        return SATBOX_ERR_NULL;
    const void *const arrays[] = {r->center[0], r->center[1], r->half[0], r->half[1], r->axis[0], r->axis[1]};
    return sbx_add_arrays(s, 0, arrays, 6, count * sizeof(float));
}

static int check_polys(const satbox2d_polys *p, size_t count, sbx_spans *s)
{
    if (!p || !p->count)
        return SATBOX_ERR_NULL;
    const void *arrays[2 * SATBOX2D_MAX_VERTS];
    for (int k = 0; k < SATBOX2D_MAX_VERTS; k++) {
        arrays[2 * k] = p->x[k];
        arrays[2 * k + 1] = p->y[k];
    }
    int e = sbx_add_arrays(s, 0, arrays, 2 * SATBOX2D_MAX_VERTS, count * sizeof(float));
    if (!e)
        sbx_add_in(s, p->count, count);
    return e;
}

/* A pool of `count` prepared polygons (one array of records). */
static int check_prepared(const satbox2d_prepared *p, size_t count, sbx_spans *s)
{
    if (!p)
        return SATBOX_ERR_NULL;
    sbx_add_in(s, p, count * sizeof *p);
    return SATBOX_OK;
}

/* A pool of bodies: the prepared shapes and the transforms. */
static int check_bodies(const satbox2d_bodies *b, size_t count, sbx_spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    int e = check_prepared(b->shape, count, s);
    const void *const arrays[4] = {b->position[0], b->position[1], b->rotation[0], b->rotation[1]};
    return e ? e : sbx_add_arrays(s, 0, arrays, 4, count * sizeof(float));
}

/* One side of a job: `count` rectangles or polygons, by the source's column (SBX_SOURCES2D). */
static int check_side(int rect, const satbox2d_rects *r, const satbox2d_polys *p, size_t count, sbx_spans *s)
{
    return rect ? check_rects(r, count, s) : check_polys(p, count, s);
}

/* The inputs of a job: both sides, or the pool and its pairs (every index checked first). */
static int check_inputs(const sbx_job2d *job, size_t pool_n, sbx_spans *s)
{
    size_t n = job->n;
    int e;
    if (!sbx_src2d_is_pool(job->src))
        return (e = check_side(sbx_src2d_a_rect(job->src), job->ra, job->pa, n, s))
                   ? e
                   : check_side(sbx_src2d_b_rect(job->src), job->rb, job->pb, n, s);
    if ((e = sbx_check_pool(job->pairs, pool_n)))
        return e;
    if (sbx_src2d_is_body(job->src))
        e = check_bodies(job->bodies, pool_n, s);
    else if (sbx_src2d_is_prep(job->src))
        e = check_prepared(job->pp, pool_n, s);
    else
        e = check_side(sbx_src2d_a_rect(job->src), job->ra, job->pa, pool_n, s);
    return e ? e : sbx_check_indices(job->pairs, n, pool_n, s);
}

/* The same check for api_contacts2d.c (contacts2d.h). */
int sbx_check_inputs2d(const sbx_job2d *job, size_t pool_n, sbx_spans *s) { return check_inputs(job, pool_n, s); }

/* Every 2D pair entry point: checks all arguments in one place (as api.c pair_call), then runs
 * the active path. `res` is the collide output (NULL for overlap); nothing is written unless
 * every check passes. pair_check2d returns 0 when the job may run, 1 when there is nothing to do
 * (n = 0), else the error; out of line, so that its spans are off the stack while the kernel runs. */
static SBX_NOINLINE int pair_check2d(sbx_job2d *job, const satbox2d_result *res, int collide, size_t pool_n)
{
    size_t n = job->n;
    int e = sbx_check_batch(n, 0, collide, job->margin);
    if (e)
        return e;
    sbx_spans s = {.nin = 0};
    e = check_inputs(job, pool_n, &s);
    if (e)
        return e;
    if (collide && res) { /* every output of res (the collide entries of SBX_OUTPUTS) */
#define SBX_BIND_RESULT2D(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(SBX_BIND_OUT(&s, job, res, name, type, n);)
        SBX_OUTPUTS(SBX_BIND_RESULT2D)
#undef SBX_BIND_RESULT2D
    }
    return sbx_pair_outputs(&s, collide, collide && res, sbx_src2d_is_pool(job->src), job->hit, job->bad, job->compact,
                            n);
}

static ptrdiff_t pair_call2d(sbx_job2d *job, const satbox2d_result *res, int collide, size_t pool_n)
{
    int e = pair_check2d(job, res, collide, pool_n);
    if (e)
        return e > 0 ? 0 : e;
    const sbx_path *k = sbx_active();
    return collide ? k->collide2d(job) : k->overlap2d(job);
}

/* ---- entry points ------------------------------------------------------------------------- */

/* Each function builds the job of its 2D source (SBX2D_<NAME>, poly2d/poly2d.h) and makes the shared call. */

ptrdiff_t satbox2d_overlap(const satbox2d_rects *a, const satbox2d_rects *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT, .n = n, .ra = a, .rb = b, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox2d_collide(const satbox2d_rects *a, const satbox2d_rects *b, size_t n, float margin, const satbox2d_result *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT, .n = n, .ra = a, .rb = b, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox2d_overlap_pairs(const satbox2d_rects *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                 uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT_POOL, .n = n, .ra = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox2d_collide_pairs(const satbox2d_rects *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                 float margin, const satbox2d_result *res, uint32_t *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT_POOL, .n = n, .ra = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

ptrdiff_t satbox2d_poly_overlap(const satbox2d_polys *a, const satbox2d_polys *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_POLY, .n = n, .pa = a, .pb = b, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox2d_poly_collide(const satbox2d_polys *a, const satbox2d_polys *b, size_t n, float margin, const satbox2d_result *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_POLY, .n = n, .pa = a, .pb = b, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox2d_poly_overlap_pairs(const satbox2d_polys *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_POLY_POOL, .n = n, .pa = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox2d_poly_collide_pairs(const satbox2d_polys *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      float margin, const satbox2d_result *res, uint32_t *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_POLY_POOL, .n = n, .pa = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

ptrdiff_t satbox2d_rect_poly_overlap(const satbox2d_rects *a, const satbox2d_polys *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT_POLY, .n = n, .ra = a, .pb = b, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox2d_rect_poly_collide(const satbox2d_rects *a, const satbox2d_polys *b, size_t n, float margin, const satbox2d_result *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_RECT_POLY, .n = n, .ra = a, .pb = b, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox2d_prep_overlap_pairs(const satbox2d_prepared *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_PREP_POOL, .n = n, .pp = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox2d_prep_collide_pairs(const satbox2d_prepared *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      float margin, const satbox2d_result *res, uint32_t *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_PREP_POOL, .n = n, .pp = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

ptrdiff_t satbox2d_body_overlap_pairs(const satbox2d_bodies *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_BODY_POOL, .n = n, .bodies = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox2d_body_collide_pairs(const satbox2d_bodies *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                      float margin, const satbox2d_result *res, uint32_t *out)
{
    return pair_call2d(&(sbx_job2d){.src = SBX2D_BODY_POOL, .n = n, .bodies = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

/* ---- prepared polygons -------------------------------------------------------------------- */

/* The polygons' arrays, then the records (an output that must not meet them), checked before
 * anything is written (out of line, as pair_check2d). */
static SBX_NOINLINE int prepare_check2d(const satbox2d_polys *polys, size_t n, const satbox2d_prepared *out)
{
    int e = sbx_check_batch(n, 0, 0, 0.0f);
    if (e)
        return e;
    sbx_spans s = {.nin = 0};
    if ((e = check_polys(polys, n, &s)))
        return e;
    if (!out)
        return SATBOX_ERR_NULL;
    sbx_add_out(&s, out, n * sizeof *out);
    return sbx_aliased(&s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

ptrdiff_t satbox2d_poly_prepare(const satbox2d_polys *polys, size_t n, satbox2d_prepared *out)
{
    int e = prepare_check2d(polys, n, out);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_prepare2d(polys, n, out);
}

/* api.c - the public entry points: one argument check for every call, then the active path. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "internal.h"

_Static_assert(sizeof(satbox_rec) == 64, "satbox_rec must be one 64-byte cache line");

/* ---- argument checks ---------------------------------------------------------------------- */

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

/* The 15 arrays of a matrix batch: NULL check, and recorded as inputs of `count` floats. */
int sbx_check_boxes(const satbox_boxes *b, size_t count, sbx_spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!b->center[c] || !b->half[c])
            return SATBOX_ERR_NULL;
        sbx_add_in(s, b->center[c], count * sizeof(float));
        sbx_add_in(s, b->half[c], count * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            if (!b->axis[k][c])
                return SATBOX_ERR_NULL;
            sbx_add_in(s, b->axis[k][c], count * sizeof(float));
        }
    return SATBOX_OK;
}

int sbx_check_qboxes(const satbox_qboxes *b, size_t count, sbx_spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!b->center[c] || !b->half[c])
            return SATBOX_ERR_NULL;
        sbx_add_in(s, b->center[c], count * sizeof(float));
        sbx_add_in(s, b->half[c], count * sizeof(float));
    }
    for (int c = 0; c < 4; c++) {
        if (!b->quat[c])
            return SATBOX_ERR_NULL;
        sbx_add_in(s, b->quat[c], count * sizeof(float));
    }
    return SATBOX_OK;
}

static void add_result(sbx_spans *s, sbx_job *job, const satbox_result *res, size_t n)
{
    job->hit = res->hit;
    job->separation = res->separation;
    job->axis = res->axis;
    job->bad = res->bad;
    sbx_add_out(s, res->bad, n);
    sbx_add_out(s, res->hit, n);
    sbx_add_out(s, res->separation, n * sizeof(float));
    sbx_add_out(s, res->axis, n);
    for (int c = 0; c < 3; c++) {
        job->normal[c] = res->normal[c];
        sbx_add_out(s, res->normal[c], n * sizeof(float));
    }
}

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

/* Pool + pairs (SoA pool, or records of rec_size bytes when `rec` is set): every index is
 * checked before anything is written. */
static int check_pool(const satbox_boxes *pool, const void *rec, size_t rec_size, size_t pool_n,
                      const satbox_pair *pairs, size_t n, sbx_spans *s)
{
    int e = sbx_check_pool(pairs, pool_n);
    if (e)
        return e;
    if (rec)
        sbx_add_in(s, rec, pool_n * rec_size);
    else if ((e = sbx_check_boxes(pool, pool_n, s)))
        return e;
    return sbx_check_indices(pairs, n, pool_n, s);
}

int sbx_check_sources(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    size_t n = job->n;
    int e = SATBOX_OK;
    switch (job->src) {
    case SBX_SRC_MAT:
        if (!(e = sbx_check_boxes(job->ma, n, s)))
            e = sbx_check_boxes(job->mb, n, s);
        break;
    case SBX_SRC_QUAT:
        if (!(e = sbx_check_qboxes(job->qa, n, s)))
            e = sbx_check_qboxes(job->qb, n, s);
        break;
    case SBX_SRC_ONE:
        e = job->one ? sbx_check_boxes(job->mb, n, s) : SATBOX_ERR_NULL;
        sbx_add_in(s, job->one, sizeof *job->one);
        break;
    case SBX_SRC_POOL:
        e = check_pool(job->pool, NULL, 0, pool_n, job->pairs, n, s);
        break;
    case SBX_SRC_REC:
        e = job->rec ? check_pool(NULL, job->rec, sizeof *job->rec, pool_n, job->pairs, n, s) : SATBOX_ERR_NULL;
        break;
    case SBX_SRC_QREC:
        e = job->qrec ? check_pool(NULL, job->qrec, sizeof *job->qrec, pool_n, job->pairs, n, s) : SATBOX_ERR_NULL;
        break;
    default:
        e = SATBOX_ERR_ARG;
    }
    return e;
}

/* Every pair entry point: fills `job` (source and inputs already set), checks all arguments in
 * one place, then runs the active path. `res` is the collide output (NULL for overlap);
 * `pool_n` is used by the pool source only. Nothing is written unless every check passes.
 * pair_check returns 0 when the job may run, 1 when there is nothing to do (n = 0), else the
 * error; out of line, so that its spans (1.2 KB) are off the stack while the kernel runs. */
SBX_NOINLINE int pair_check(sbx_job *job, const satbox_result *res, int collide, size_t pool_n)
{
    job->pool_n = pool_n;
    size_t n = job->n;
    int e = sbx_check_batch(n, 0, collide, job->margin);
    if (e)
        return e;
    sbx_spans s = {.nin = 0};
    e = sbx_check_sources(job, pool_n, &s);
    if (e)
        return e;
    /* The per-pair outputs are required, except for the pool form, whose list may be enough. */
    if (collide) {
        if (res)
            add_result(&s, job, res, n);
        else if (!sbx_src_is_pool(job->src))
            return SATBOX_ERR_NULL;
    } else {
        if (!job->hit && !sbx_src_is_pool(job->src))
            return SATBOX_ERR_NULL;
        sbx_add_out(&s, job->hit, n);
        sbx_add_out(&s, job->bad, n);
    }
    sbx_add_out(&s, job->compact, n * sizeof(uint32_t));
    return sbx_aliased(&s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

static ptrdiff_t pair_call(sbx_job *job, const satbox_result *res, int collide, size_t pool_n)
{
    int e = pair_check(job, res, collide, pool_n);
    if (e)
        return e > 0 ? 0 : e;
    const sbx_path *k = sbx_active();
    ptrdiff_t count = collide ? k->collide(job) : k->overlap(job);
    return satbox_checked_active() ? sbx_checked_pairs(job, count) : count;
}

/* ---- pair entry points -------------------------------------------------------------------- */

ptrdiff_t satbox_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .hit = hit, .bad = bad};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin,
                         const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .hit = hit, .bad = bad};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin,
                           const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_one(const satbox_box *box, const satbox_boxes *many, size_t n, uint8_t *hit, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .hit = hit, .bad = bad};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide_one(const satbox_box *box, const satbox_boxes *many, size_t n, float margin,
                             const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                               uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out};
    return pair_call(&job, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                               float margin, const satbox_result *res, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .margin = margin, .compact = out};
    return pair_call(&job, res, 1, pool_n);
}

ptrdiff_t satbox_overlap_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                   uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out};
    return pair_call(&job, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                   float margin, const satbox_result *res, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .margin = margin, .compact = out};
    return pair_call(&job, res, 1, pool_n);
}

ptrdiff_t satbox_overlap_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                    uint8_t *hit, uint32_t *out, uint8_t *bad)
{
    sbx_job job = {.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out};
    return pair_call(&job, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                    float margin, const satbox_result *res, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .margin = margin, .compact = out};
    return pair_call(&job, res, 1, pool_n);
}

/* ---- box helpers -------------------------------------------------------------------------- */

static int check_minmax(float *min[3], float *max[3], size_t n, sbx_spans *s)
{
    if (!min || !max)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!min[c] || !max[c])
            return SATBOX_ERR_NULL;
        sbx_add_out(s, min[c], n * sizeof(float));
        sbx_add_out(s, max[c], n * sizeof(float));
    }
    return SATBOX_OK;
}

ptrdiff_t satbox_aabb(const satbox_boxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!isfinite(margin) || margin < 0.0f) /* a negative margin would turn boxes inside out */
        return SATBOX_ERR_ARG;
    sbx_spans s = {.nin = 0};
    int e;
    if ((e = sbx_check_boxes(boxes, n, &s)) || (e = check_minmax(min, max, n, &s)))
        return e;
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    sbx_box_job job = {.n = n, .m = boxes, .margin = margin};
    memcpy(job.min, min, sizeof job.min);
    memcpy(job.max, max, sizeof job.max);
    return sbx_active()->aabb(&job);
}

ptrdiff_t satbox_aabb_q(const satbox_qboxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!isfinite(margin) || margin < 0.0f)
        return SATBOX_ERR_ARG;
    sbx_spans s = {.nin = 0};
    int e;
    if ((e = sbx_check_qboxes(boxes, n, &s)) || (e = check_minmax(min, max, n, &s)))
        return e;
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    sbx_box_job job = {.n = n, .q = boxes, .margin = margin};
    memcpy(job.min, min, sizeof job.min);
    memcpy(job.max, max, sizeof job.max);
    return sbx_active()->aabb(&job);
}

ptrdiff_t satbox_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!quat || !axis)
        return SATBOX_ERR_NULL;
    sbx_spans s = {.nin = 0};
    for (int c = 0; c < 4; c++) {
        if (!quat[c])
            return SATBOX_ERR_NULL;
        sbx_add_in(&s, quat[c], n * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            if (!axis[k][c])
                return SATBOX_ERR_NULL;
            sbx_add_out(&s, axis[k][c], n * sizeof(float));
        }
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    return sbx_active()->axes_from_quat(quat, n, axis);
}

/* ---- misc --------------------------------------------------------------------------------- */

const char *satbox_version(void) { return SATBOX_VERSION_STRING; }

const char *satbox_strerror(int code)
{
    switch (code) {
    case SATBOX_OK: return "success";
    case SATBOX_ERR_NULL: return "a required pointer is NULL";
    case SATBOX_ERR_COUNT: return "count exceeds SATBOX_MAX_COUNT";
    case SATBOX_ERR_INDEX: return "a pair index is outside the pool";
    case SATBOX_ERR_ARG: return "invalid argument";
    case SATBOX_ERR_ALIAS: return "an output array overlaps an input or another output";
    case SATBOX_ERR_UNSUPPORTED: return "ISA path not available on this build or CPU";
    default: return code >= 0 ? "success" : "unknown error";
    }
}

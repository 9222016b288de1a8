/* api.c - the 3D pair entry points, AABBs, axes from quaternions, version and strerror: one argument check per call, then the active path. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "box3d/box3d.h"

_Static_assert(sizeof(satbox_rec) == 64, "satbox_rec must be one 64-byte cache line");

/* Binds every output of `res` (the collide entries of SBX_OUTPUTS) to the job, each recorded as an
 * output span of n elements. */
static void add_result(sbx_spans *s, sbx_job *job, const satbox_result *res, size_t n)
{
#define SBX_BIND_RESULT(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(SBX_BIND_OUT(s, job, res, name, type, n);)
    SBX_OUTPUTS(SBX_BIND_RESULT)
#undef SBX_BIND_RESULT
}

/* Every pair entry point: fills `job` (source and inputs already set), checks all arguments in
 * one place, then runs the active path. `res` is the collide output (NULL for overlap);
 * `pool_n` is used by the pool source only. Nothing is written unless every check passes.
 * pair_check returns 0 when the job may run, 1 when there is nothing to do (n = 0), else the
 * error; out of line, so that its spans (1.2 KB) are off the stack while the kernel runs. */
static SBX_NOINLINE int pair_check(sbx_job *job, const satbox_result *res, int collide, size_t pool_n)
{
    job->pool_n = pool_n;
    size_t n = job->n;
    sbx_spans s = {.nin = 0};
    int e = sbx_check_pair_job(job, pool_n, collide, &s);
    if (e)
        return e;
    if (collide && res)
        add_result(&s, job, res, n);
    return sbx_pair_outputs(&s, collide, collide && res, sbx_src_is_pool(job->src), job->hit, job->bad, job->compact, n);
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

/* Each function builds the job of its pair source (SBX_SRC_<NAME>, box3d/sources.h) and makes the
 * shared call. */
ptrdiff_t satbox_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox_collide(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin, const satbox_result *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox_overlap_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox_collide_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin, const satbox_result *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox_overlap_one(const satbox_box *box, const satbox_boxes *many, size_t n, uint8_t *hit, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .hit = hit, .bad = bad}, NULL, 0, 0);
}

ptrdiff_t satbox_collide_one(const satbox_box *box, const satbox_boxes *many, size_t n, float margin, const satbox_result *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .margin = margin}, out, 1, 0);
}

ptrdiff_t satbox_overlap_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n, uint8_t *hit,
                               uint32_t *out, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                               const satbox_result *res, uint32_t *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

ptrdiff_t satbox_overlap_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, uint8_t *hit,
                                   uint32_t *out, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                   const satbox_result *res, uint32_t *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

ptrdiff_t satbox_overlap_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, uint8_t *hit,
                                    uint32_t *out, uint8_t *bad)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .hit = hit, .bad = bad, .compact = out}, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                    const satbox_result *res, uint32_t *out)
{
    return pair_call(&(sbx_job){.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .margin = margin, .compact = out}, res, 1, pool_n);
}

/* ---- box helpers -------------------------------------------------------------------------- */

/* satbox_aabb and satbox_aabb_q: the boxes are `m` or, with `quat`, `q`. */
static ptrdiff_t aabb_call(size_t n, float margin, const satbox_boxes *m, const satbox_qboxes *q, int quat,
                           float *min[3], float *max[3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!isfinite(margin) || margin < 0.0f) /* a negative margin would turn boxes inside out */
        return SATBOX_ERR_ARG;
    sbx_spans s = {.nin = 0};
    int e = quat ? sbx_check_qboxes(q, n, &s) : sbx_check_boxes(m, n, &s);
    if (e)
        return e;
    if (!min || !max)
        return SATBOX_ERR_NULL;
    const void *arrays[6] = {min[0], min[1], min[2], max[0], max[1], max[2]};
    if ((e = sbx_add_arrays(&s, 1, arrays, 6, n * sizeof(float))))
        return e;
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    sbx_box_job job = {.n = n, .m = quat ? NULL : m, .q = quat ? q : NULL, .margin = margin};
    memcpy(job.min, min, sizeof job.min);
    memcpy(job.max, max, sizeof job.max);
    return sbx_active()->aabb(&job);
}

ptrdiff_t satbox_aabb(const satbox_boxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    return aabb_call(n, margin, boxes, NULL, 0, min, max);
}

ptrdiff_t satbox_aabb_q(const satbox_qboxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    return aabb_call(n, margin, NULL, boxes, 1, min, max);
}

ptrdiff_t satbox_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    int e = sbx_check_batch(n, 0, 0, 0.0f);
    if (e)
        return e > 0 ? 0 : e;
    if (!quat || !axis)
        return SATBOX_ERR_NULL;
    sbx_spans s = {.nin = 0};
    const void *in[4] = {quat[0], quat[1], quat[2], quat[3]}, *out[9];
    for (int k = 0; k < 9; k++)
        out[k] = axis[k / 3][k % 3];
    if ((e = sbx_add_arrays(&s, 0, in, 4, n * sizeof(float))) || (e = sbx_add_arrays(&s, 1, out, 9, n * sizeof(float))))
        return e;
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

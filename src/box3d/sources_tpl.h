/* sources_tpl.h - the template of sources_ref.h: the SBX_W boxes of a step, loaded from each pair source. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SOURCES_TPL_H
#define SATBOX_SOURCES_TPL_H

#include "core/tpl_common.h"
#include "box3d/box3d.h"

/* SBX_W boxes, one per lane: center, half extents, u[k][c] = component c of axis k. */
typedef struct oboxw {
    wf c[3], h[3], u[3][3];
} oboxw;

/* ---- box sources -------------------------------------------------------------------------- */

/* Below this many pairs the batch is assumed to be in cache and nothing is prefetched. */
#ifndef SBX_PREFETCH_MIN_N
#define SBX_PREFETCH_MIN_N 32768
#endif
/* Software prefetch distance, in elements, for batches streamed from memory. The 30 input
 * arrays of a pair batch are more streams than the hardware prefetcher follows at once. */
#ifndef SBX_PREFETCH_AHEAD
#define SBX_PREFETCH_AHEAD 512
#endif

SBX_INLINE void prefetch_mat(const satbox_boxes *s, size_t i)
{
    for (int c = 0; c < 3; c++) {
        __builtin_prefetch(s->center[c] + i + SBX_PREFETCH_AHEAD);
        __builtin_prefetch(s->half[c] + i + SBX_PREFETCH_AHEAD);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            __builtin_prefetch(s->axis[a][c] + i + SBX_PREFETCH_AHEAD);
}

SBX_INLINE void prefetch_quat(const satbox_qboxes *s, size_t i)
{
    for (int c = 0; c < 3; c++) {
        __builtin_prefetch(s->center[c] + i + SBX_PREFETCH_AHEAD);
        __builtin_prefetch(s->half[c] + i + SBX_PREFETCH_AHEAD);
    }
    for (int c = 0; c < 4; c++)
        __builtin_prefetch(s->quat[c] + i + SBX_PREFETCH_AHEAD);
}

/* Lanes [i, i + k) of a matrix SoA batch; k == SBX_W uses full loads. */
SBX_INLINE void load_mat_w(const satbox_boxes *s, size_t i, int k, oboxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = k == SBX_W ? wf_loadu(s->center[c] + i) : wf_load_part(s->center[c] + i, k);
        b->h[c] = k == SBX_W ? wf_loadu(s->half[c] + i) : wf_load_part(s->half[c] + i, k);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            b->u[a][c] = k == SBX_W ? wf_loadu(s->axis[a][c] + i) : wf_load_part(s->axis[a][c] + i, k);
}

/* Quaternion -> axes, as sources_ref.h quat_axes(): s = 2 / |q|^2; invalid length -> NaN axes. */
SBX_INLINE void quat_axes_w(wf x, wf y, wf z, wf w, wf u[3][3])
{
    wf n2 = wf_add(wf_add(wf_add(wf_mul(x, x), wf_mul(y, y)), wf_mul(z, z)), wf_mul(w, w));
    wm ok = wm_and(wm_ge(n2, wf_set1(SATBOX_QUAT_MIN_NORM2)), wm_le(n2, wf_set1(SATBOX_QUAT_MAX_NORM2)));
    wf s = wf_div(wf_set1(2.0f), n2);
    wf xs = wf_mul(x, s), ys = wf_mul(y, s), zs = wf_mul(z, s);
    wf wx = wf_mul(w, xs), wy = wf_mul(w, ys), wz = wf_mul(w, zs);
    wf xx = wf_mul(x, xs), xy = wf_mul(x, ys), xz = wf_mul(x, zs);
    wf yy = wf_mul(y, ys), yz = wf_mul(y, zs), zz = wf_mul(z, zs);
    wf one = wf_set1(1.0f), nan = wf_set1(NAN);
    u[0][0] = wf_select(ok, wf_sub(one, wf_add(yy, zz)), nan);
    u[0][1] = wf_select(ok, wf_add(xy, wz), nan);
    u[0][2] = wf_select(ok, wf_sub(xz, wy), nan);
    u[1][0] = wf_select(ok, wf_sub(xy, wz), nan);
    u[1][1] = wf_select(ok, wf_sub(one, wf_add(xx, zz)), nan);
    u[1][2] = wf_select(ok, wf_add(yz, wx), nan);
    u[2][0] = wf_select(ok, wf_add(xz, wy), nan);
    u[2][1] = wf_select(ok, wf_sub(yz, wx), nan);
    u[2][2] = wf_select(ok, wf_sub(one, wf_add(xx, yy)), nan);
}

SBX_INLINE wf ld(const float *p, size_t i, int k) { return k == SBX_W ? wf_loadu(p + i) : wf_load_part(p + i, k); }

SBX_INLINE void load_quat_w(const satbox_qboxes *s, size_t i, int k, oboxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = ld(s->center[c], i, k);
        b->h[c] = ld(s->half[c], i, k);
    }
    quat_axes_w(ld(s->quat[0], i, k), ld(s->quat[1], i, k), ld(s->quat[2], i, k), ld(s->quat[3], i, k), b->u);
}

SBX_INLINE void load_one_w(const satbox_box *s, oboxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_set1(s->center[c]);
        b->h[c] = wf_set1(s->half[c]);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            b->u[a][c] = wf_set1(s->axis[a][c]);
}

/* Pool boxes by index: each of the 15 fields gathered for the SBX_W lanes' indices, lane by lane
 * (as wf_gather) into one buffer: with a wf_gather per field GCC gives each of the 30 inlined
 * buffers of a pair its own stack slot. (Lanes past k use box 0 of the pool; their results are
 * discarded.) */
SBX_INLINE void load_pool_box_w(const satbox_boxes *pool, const int32_t *idx, oboxw *b)
{
    float buf[15][SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        for (int c = 0; c < 3; c++) {
            buf[c][l] = pool->center[c][idx[l]];
            buf[3 + c][l] = pool->half[c][idx[l]];
        }
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 3; c++)
                buf[6 + 3 * x + c][l] = pool->axis[x][c][idx[l]];
    }
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_loadu(buf[c]);
        b->h[c] = wf_loadu(buf[3 + c]);
    }
    for (int x = 0; x < 3; x++)
        for (int c = 0; c < 3; c++)
            b->u[x][c] = wf_loadu(buf[6 + 3 * x + c]);
}

/* Quaternion batch boxes by index, as load_pool_box_w (the 10 fields gathered lane by lane), then
 * the axes built as load_quat_w builds them. */
SBX_INLINE void load_qpool_box_w(const satbox_qboxes *pool, const int32_t *idx, oboxw *b)
{
    float buf[10][SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        for (int c = 0; c < 3; c++) {
            buf[c][l] = pool->center[c][idx[l]];
            buf[3 + c][l] = pool->half[c][idx[l]];
        }
        for (int c = 0; c < 4; c++)
            buf[6 + c][l] = pool->quat[c][idx[l]];
    }
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_loadu(buf[c]);
        b->h[c] = wf_loadu(buf[3 + c]);
    }
    quat_axes_w(wf_loadu(buf[6]), wf_loadu(buf[7]), wf_loadu(buf[8]), wf_loadu(buf[9]), b->u);
}

SBX_INLINE void load_pool_w(const satbox_boxes *pool, const satbox_pair *pairs, size_t i, int k,
                            oboxw *a, oboxw *b)
{
    int32_t ia[SBX_W], ib[SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        ia[l] = l < k ? (int32_t)pairs[i + (size_t)l].a : 0;
        ib[l] = l < k ? (int32_t)pairs[i + (size_t)l].b : 0;
    }
    load_pool_box_w(pool, ia, a);
    load_pool_box_w(pool, ib, b);
}

/* Pool of 64-byte records: one cache line per box (wf_load_records loads and transposes them). */
SBX_INLINE void load_rec_box_w(const float *const *rec, oboxw *b)
{
    wf f[15];
    wf_load_records(rec, f);
    for (int c = 0; c < 3; c++) {
        b->c[c] = f[c];
        b->h[c] = f[3 + c];
    }
    for (int x = 0; x < 3; x++)
        for (int c = 0; c < 3; c++)
            b->u[x][c] = f[6 + 3 * x + c];
}

SBX_INLINE void load_rec_w(const satbox_rec *pool, const satbox_pair *pairs, size_t i, int k, oboxw *a, oboxw *b)
{
    const float *ra[SBX_W], *rb[SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        const satbox_pair p = l < k ? pairs[i + (size_t)l] : pairs[i];
        ra[l] = &pool[p.a].center[0];
        rb[l] = &pool[p.b].center[0];
    }
    load_rec_box_w(ra, a);
    load_rec_box_w(rb, b);
}

/* Pool of 48-byte quaternion records: the 10 fields of each lane's record gathered lane by lane
 * (a record is read only within its 40 used bytes: the pool's last record may end the
 * allocation), then the axes built as load_quat_w builds them. */
SBX_INLINE void load_qrec_box_w(const satbox_qrec *const *rec, oboxw *b)
{
    float buf[10][SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        const float *r = rec[l]->center;
        for (int q = 0; q < 10; q++)
            buf[q][l] = r[q];
    }
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_loadu(buf[c]);
        b->h[c] = wf_loadu(buf[3 + c]);
    }
    quat_axes_w(wf_loadu(buf[6]), wf_loadu(buf[7]), wf_loadu(buf[8]), wf_loadu(buf[9]), b->u);
}

SBX_INLINE void load_qrec_w(const satbox_qrec *pool, const satbox_pair *pairs, size_t i, int k, oboxw *a, oboxw *b)
{
    const satbox_qrec *ra[SBX_W], *rb[SBX_W];
    for (int l = 0; l < SBX_W; l++) {
        const satbox_pair p = l < k ? pairs[i + (size_t)l] : pairs[i];
        ra[l] = &pool[p.a];
        rb[l] = &pool[p.b];
    }
    load_qrec_box_w(ra, a);
    load_qrec_box_w(rb, b);
}

/* ---- the sources of SBX_SOURCES (sources.h): for each NAME, the W pairs at [i, i + k) of a job
 * (load_pair_NAME_w; `one` is box A already broadcast, for the one-vs-many kind) and its
 * prefetch (prefetch_NAME, called once per cache line of the streams or per step for records). */

/* The two sources of a[i] vs b[i] from two batches of one layout (`form`: mat or quat). */
#define SBX_EACH_SOURCE_W(NAME, form, fa, fb)                                                                   \
    SBX_INLINE void load_pair_##NAME##_w(const sbx_job *job, size_t i, int k, const oboxw *one, oboxw *a, oboxw *b) \
    {                                                                                                           \
        (void)one;                                                                                              \
        load_##form##_w(job->fa, i, k, a);                                                                      \
        load_##form##_w(job->fb, i, k, b);                                                                      \
    }                                                                                                           \
    SBX_INLINE void prefetch_##NAME(const sbx_job *job, size_t i)                                               \
    {                                                                                                           \
        prefetch_##form(job->fa, i);                                                                            \
        prefetch_##form(job->fb, i);                                                                            \
    }
SBX_EACH_SOURCE_W(MAT, mat, ma, mb)
SBX_EACH_SOURCE_W(QUAT, quat, qa, qb)
#undef SBX_EACH_SOURCE_W

SBX_INLINE void load_pair_ONE_w(const sbx_job *job, size_t i, int k, const oboxw *one, oboxw *a, oboxw *b)
{
    *a = *one;
    load_mat_w(job->mb, i, k, b);
}

SBX_INLINE void prefetch_ONE(const sbx_job *job, size_t i) { prefetch_mat(job->mb, i); }

SBX_INLINE void load_pair_POOL_w(const sbx_job *job, size_t i, int k, const oboxw *one, oboxw *a, oboxw *b)
{
    (void)one;
    load_pool_w(job->pool, job->pairs, i, k, a, b);
}

SBX_INLINE void prefetch_POOL(const sbx_job *job, size_t i) { (void)job, (void)i; }

/* The record sources: index pairs into a pool of records (the job's field `field`, loaded by
 * load_<form>_w). prefetch_<NAME> touches the records of the pairs SBX_REC_AHEAD ahead of the step
 * at their first byte and, where the bytes read can straddle two cache lines, at byte `tail` too
 * (the last float read; 0: one line, as a 64-byte satbox_rec is; a 48-byte satbox_qrec straddles
 * two lines half of the time). */
#define SBX_RECORD_SOURCE_W(NAME, form, field, tail)                                                            \
    SBX_INLINE void load_pair_##NAME##_w(const sbx_job *job, size_t i, int k, const oboxw *one, oboxw *a, oboxw *b) \
    {                                                                                                           \
        (void)one;                                                                                              \
        load_##form##_w(job->field, job->pairs, i, k, a, b);                                                    \
    }                                                                                                           \
    SBX_INLINE void prefetch_##NAME(const sbx_job *job, size_t i)                                               \
    {                                                                                                           \
        size_t lo = i + SBX_REC_AHEAD, hi = lo + SBX_W < job->n ? lo + SBX_W : job->n;                          \
        for (size_t q = lo; q < hi; q++) {                                                                      \
            const char *ra = (const char *)&job->field[job->pairs[q].a];                                        \
            const char *rb = (const char *)&job->field[job->pairs[q].b];                                        \
            SBX_PREFETCH(ra);                                                                                   \
            if (tail)                                                                                           \
                SBX_PREFETCH(ra + (tail));                                                                      \
            SBX_PREFETCH(rb);                                                                                   \
            if (tail)                                                                                           \
                SBX_PREFETCH(rb + (tail));                                                                      \
        }                                                                                                       \
    }
SBX_RECORD_SOURCE_W(REC, rec, rec, 0)
SBX_RECORD_SOURCE_W(QREC, qrec, qrec, offsetof(satbox_qrec, quat[3]))
#undef SBX_RECORD_SOURCE_W

#endif

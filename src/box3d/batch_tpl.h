/* batch_tpl.h - the template of batch_ref.c: the overlap / collide / AABB / quaternion kernels over a job (loops, tails, outputs). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BATCH_TPL_H
#define SATBOX_BATCH_TPL_H

#include "core/tpl_common.h"
#include "box3d/box3d.h"

/* ---- outputs ------------------------------------------------------------------------------ */

/* Appends i + l for each set bit l of `hit` (ascending) to the compacted list. */
SBX_INLINE size_t push_compact(uint32_t *out, size_t count, size_t i, unsigned hit)
{
    while (hit) {
        out[count++] = (uint32_t)(i + (size_t)__builtin_ctz(hit));
        hit &= hit - 1u;
    }
    return count;
}

SBX_INLINE void store_w(float *p, size_t i, wf v, int k)
{
    if (k == SBX_W)
        wf_storeu(p + i, v);
    else
        wf_store_part(p + i, v, k);
}

/* The outputs of every pair kernel (3D and 2D) for the k lanes at pair i: the hit and bad bytes
 * (each array may be NULL), then the compacted list when asked for; returns the new hit count. */
SBX_INLINE size_t put_hits_w(uint8_t *hitp, uint8_t *badp, uint32_t *compact, size_t i, int k, unsigned hit,
                           unsigned inv, size_t count)
{
    if (hitp)
        wm_store_bits(hitp + i, hit, k);
    if (badp)
        wm_store_bits(badp + i, inv, k);
    if (compact)
        return push_compact(compact, count, i, hit);
    return count + (size_t)wm_count(hit);
}

/* The collide outputs (3D: nc = 3, 2D: nc = 2), each array may be NULL: separation, normal,
 * axis id. */
SBX_INLINE void put_collide_w(float *sep, float *const *normal, int nc, uint8_t *axis, size_t i, int k, wf s,
                            const wf *n, wf id)
{
    if (sep)
        store_w(sep, i, s, k);
    for (int c = 0; c < nc; c++)
        if (normal[c])
            store_w(normal[c], i, n[c], k);
    if (axis)
        wf_store_u8(axis + i, id, k);
}

/* ---- drivers ------------------------------------------------------------------------------ */

/* Software prefetch, decided once per call from the source's kind (SBX_SOURCES): streamed
 * batches of >= SBX_PREFETCH_MIN_N pairs fetch SBX_PREFETCH_AHEAD elements ahead, one prefetch
 * per cache line of each stream (SBX_W floats are 16 to 64 bytes); record pools of
 * >= SBX_REC_PREFETCH_MIN_POOL boxes fetch the two records of the pairs SBX_REC_AHEAD ahead.
 * The SoA pool is not prefetched: 30 lines per pair. */
SBX_INLINE int prefetch_wanted(const sbx_job *job, sbx_src src)
{
    if (sbx_src_is_rec(src))
        return job->pool_n >= SBX_REC_PREFETCH_MIN_POOL;
    if (sbx_src_is_pool(src))
        return 0;
    return job->n >= SBX_PREFETCH_MIN_N;
}

/* The source's prefetch_<NAME> and load_pair_<NAME>_w (sources_tpl.h); `src` is a constant at
 * every call site, so each expands to one call. */
SBX_INLINE void prefetch_job(const sbx_job *job, sbx_src src, size_t i)
{
    if (!sbx_src_is_rec(src) && (i * sizeof(float)) % 64 != 0 && SBX_W < 16)
        return; /* streams: once per cache line */
    switch (src) {
#define SBX_PF(name, ...) case SBX_SRC_##name: prefetch_##name(job, i); break;
        SBX_SOURCES(SBX_PF)
#undef SBX_PF
    default: break;
    }
}

SBX_INLINE void load_job_w(const sbx_job *job, sbx_src src, size_t i, int k, const oboxw *one, oboxw *a, oboxw *b)
{
    switch (src) {
#define SBX_LOAD(name, ...) case SBX_SRC_##name: load_pair_##name##_w(job, i, k, one, a, b); break;
        SBX_SOURCES(SBX_LOAD)
#undef SBX_LOAD
    default: /* not reached: src is one of the list's constants at every call site (kernel_<kind>) */
        __builtin_unreachable();
    }
}

/* One collide step of k lanes at pair i; returns the new count. Called with the constant SBX_W in
 * the main loop (no per-load tail test) and once more for the remainder. The vector outputs are
 * stored before put_hits_w, so that no vector is live across its count (the compaction loop of the
 * pool forms): kept across it, sep, normal and id are spilled and reloaded every step. */
SBX_INLINE size_t collide_step(const sbx_job *job, sbx_src src, const oboxw *one, wf margin, int pf, size_t i, int k,
                               size_t count)
{
    oboxw a, b;
    collide_outw o;
    if (pf)
        prefetch_job(job, src, i);
    load_job_w(job, src, i, k, one, &a, &b);
    collide_w(&a, &b, margin, &o);
    unsigned hit = o.hit & ((1u << k) - 1u);
    put_collide_w(job->separation, job->normal, 3, job->axis, i, k, o.sep, o.n, o.id);
    return put_hits_w(job->hit, job->bad, job->compact, i, k, hit, o.inv, count);
}

/* The broadcast box A of the one-vs-many kind, loaded once per call; for the other kinds never
 * read (a dead store once src is a constant). */
SBX_INLINE void load_one_if_w(const sbx_job *job, sbx_src src, oboxw *one)
{
    if (sbx_src_is_one(src))
        load_one_w(job->one, one);
    else
        memset(one, 0, sizeof *one);
}

/* `src` is a constant at every call site, so each source gets its own specialised loop. */
SBX_INLINE ptrdiff_t run_overlap(const sbx_job *job, sbx_src src)
{
    oboxw one;
    load_one_if_w(job, src, &one);
    size_t count = 0, n = job->n;
    const int pf = prefetch_wanted(job, src);
    /* One loop with the tail inside: here (unlike collide) splitting off the tail is slower, the
     * two inlined copies costing registers. */
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        oboxw a, b;
        unsigned hit, inv;
        if (pf)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, &one, &a, &b);
        overlap_w(&a, &b, &hit, &inv);
        hit &= (1u << k) - 1u;
        count = put_hits_w(job->hit, job->bad, job->compact, i, k, hit, inv, count);
    }
    return (ptrdiff_t)count;
}

SBX_INLINE ptrdiff_t run_collide(const sbx_job *job, sbx_src src)
{
    oboxw one;
    load_one_if_w(job, src, &one);
    wf margin = wf_set1(job->margin);
    size_t count = 0, n = job->n, i = 0;
    const int pf = prefetch_wanted(job, src);
    for (; n - i >= (size_t)SBX_W; i += SBX_W)
        count = collide_step(job, src, &one, margin, pf, i, SBX_W, count);
    if (i < n)
        count = collide_step(job, src, &one, margin, pf, i, (int)(n - i), count);
    return (ptrdiff_t)count;
}

/* kernel_overlap and kernel_collide: one specialised loop per source (SBX_SOURCES), `src` a
 * constant in each. */
#define SBX_KERNEL_BY_SOURCE(kind)                                                        \
    static ptrdiff_t kernel_##kind(const sbx_job *job)                                    \
    {                                                                                     \
        switch (job->src) {                                                               \
            SBX_SOURCES(SBX_RUN_##kind)                                                   \
        default: return SATBOX_ERR_ARG;                                                   \
        }                                                                                 \
    }
#define SBX_RUN_overlap(name, ...) case SBX_SRC_##name: return run_overlap(job, SBX_SRC_##name);
#define SBX_RUN_collide(name, ...) case SBX_SRC_##name: return run_collide(job, SBX_SRC_##name);
SBX_KERNEL_BY_SOURCE(overlap)
SBX_KERNEL_BY_SOURCE(collide)
#undef SBX_KERNEL_BY_SOURCE
#undef SBX_RUN_overlap
#undef SBX_RUN_collide

/* batch_ref.c sbx_scalar_aabb(). */
static ptrdiff_t kernel_aabb(const sbx_box_job *job)
{
    size_t valid = 0, n = job->n;
    wf margin = wf_set1(job->margin), inf = wf_set1(INFINITY), ninf = wf_set1(-INFINITY);
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        oboxw b;
        if (job->m)
            load_mat_w(job->m, i, k, &b);
        else
            load_quat_w(job->q, i, k, &b);
        wm ok = box_valid_w(&b);
        for (int c = 0; c < 3; c++) {
            wf e = wf_add(wf_add(wf_mul(wf_abs(b.u[0][c]), b.h[0]), wf_mul(wf_abs(b.u[1][c]), b.h[1])),
                          wf_mul(wf_abs(b.u[2][c]), b.h[2]));
            wf lo = wf_sub(wf_sub(b.c[c], e), margin), hi = wf_add(wf_add(b.c[c], e), margin);
            store_w(job->min[c], i, wf_select(ok, lo, inf), k);
            store_w(job->max[c], i, wf_select(ok, hi, ninf), k);
        }
        valid += (size_t)wm_count(wm_bits(ok) & ((1u << k) - 1u));
    }
    return (ptrdiff_t)valid;
}

/* batch_ref.c sbx_scalar_axes_from_quat(). */
static ptrdiff_t kernel_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        wf u[3][3];
        quat_axes_w(ld(quat[0], i, k), ld(quat[1], i, k), ld(quat[2], i, k), ld(quat[3], i, k), u);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                store_w(axis[a][c], i, u[a][c], k);
        /* Invalid rows are the NaN ones (a valid quaternion gives finite axes). */
        bad += (size_t)wm_count(wm_bits(wm_not(wm_eq(u[0][0], u[0][0]))) & ((1u << k) - 1u));
    }
    return (ptrdiff_t)bad;
}

#endif

/* planner_tpl.h - the template of planner_ref.c: SBX_W robot configurations per step (lanes over configurations), the obstacles culled in lanes. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_PLANNER_TPL_H
#define SATBOX_PLANNER_TPL_H

#include "core/tpl_common.h"
#include "planner/planner.h"

/* Included after sat_tpl.h and sources_tpl.h (pair_setup_w, max_gap_w, the loaders). A step holds
 * SBX_W configurations, one a lane; per link, its lanes' AABBs and scales (bounds_w, planner_ref.c
 * bounds()); then, per link:
 *   1. the link's box over the lanes still to check (the union of their AABBs, the largest
 *      scale) against SBX_W obstacles at a time (lanes over obstacles, from the world's rows):
 *      a filter whose tolerance is at least every lane's, so it drops only pairs the lane test
 *      drops (planner_ref.c meet());
 *   2. each obstacle left, broadcast, against the lanes' AABBs (meet_w), exactly the scalar test;
 *   3. the 15-axis test (max_gap_w against 0, or tol in the conservative mode) on the lanes left.
 * A lane that hits leaves the step's lanes to check; the step ends when none is left. The self
 * pairs come last, both links in lanes. Verdicts are planner_ref.c's on every path: the same
 * operations in the same order decide each (lane, pair), and the filters only skip work. */

/* planner_ref.c bounds(). */
SBX_INLINE void bounds_w(const oboxw *b, wf mn[3], wf mx[3], wf *s)
{
    for (int c = 0; c < 3; c++) {
        wf e = wf_add(wf_add(wf_mul(wf_abs(b->u[0][c]), b->h[0]), wf_mul(wf_abs(b->u[1][c]), b->h[1])),
                      wf_mul(wf_abs(b->u[2][c]), b->h[2]));
        mn[c] = wf_sub(b->c[c], e);
        mx[c] = wf_add(b->c[c], e);
    }
    *s = wf_add(wf_add(wf_add(wf_add(wf_add(wf_abs(b->c[0]), wf_abs(b->c[1])), wf_abs(b->c[2])), b->h[0]), b->h[1]),
                b->h[2]);
}

/* planner_ref.c meet(). */
SBX_INLINE wm meet_w(const wf amn[3], const wf amx[3], const wf bmn[3], const wf bmx[3], wf tol)
{
    wm m = wm_and(wm_le(amn[0], wf_add(bmx[0], tol)), wm_le(bmn[0], wf_add(amx[0], tol)));
    for (int c = 1; c < 3; c++)
        m = wm_and(m, wm_and(wm_le(amn[c], wf_add(bmx[c], tol)), wm_le(bmn[c], wf_add(amx[c], tol))));
    return m;
}

/* planner_ref.c tolerance(): the tolerance of scales sa and sb. */
SBX_INLINE wf tol_w(const sbx_pjob *job, wf sa, wf sb)
{
    return wf_add(wf_mul(wf_set1(job->tol_rel), wf_add(sa, sb)), wf_set1(job->tol_abs));
}

/* planner_ref.c pair_hits() in two halves: the lanes of `lanes` whose AABBs meet, with their
 * tolerance; then those of them whose 15-axis test hits. */
SBX_INLINE unsigned pair_meet_w(const sbx_pjob *job, const wf amn[3], const wf amx[3], wf sa, const wf bmn[3],
                                const wf bmx[3], wf sb, unsigned lanes, wf *tol)
{
    *tol = tol_w(job, sa, sb);
    return lanes & wm_bits(meet_w(amn, amx, bmn, bmx, *tol));
}
SBX_INLINE unsigned pair_sat_w(const oboxw *A, const oboxw *B, wf tol, int cons, unsigned lanes)
{
    wm valid;
    wf g = max_gap_w(A, B, &valid);
    return wm_bits(wm_and(valid, wm_le(g, cons ? tol : wf_zero()))) & lanes;
}
SBX_INLINE unsigned pair_hits_w(const sbx_pjob *job, const oboxw *A, const wf amn[3], const wf amx[3], wf sa,
                                const oboxw *B, const wf bmn[3], const wf bmx[3], wf sb, int cons, unsigned lanes)
{
    wf tol;
    lanes = pair_meet_w(job, amn, amx, sa, bmn, bmx, sb, lanes, &tol);
    return lanes ? pair_sat_w(A, B, tol, cons, lanes) : 0;
}

/* The links' lanes: configurations [i, i + k) or, for a motion, the states idx[]. */
SBX_INLINE void load_link_w(const sbx_pjob *job, size_t l, const int32_t *idx, size_t i, int k, oboxw *b)
{
    if (idx)
        load_pool_box_w(&job->links[l], idx, b);
    else
        load_mat_w(&job->links[l], i, job->whole ? SBX_W : k, b);
}

/* Obstacle m of the world, broadcast to every lane (its bounds: from the near_rows table). */
SBX_INLINE void world_box_w(const satbox_world *w, size_t m, oboxw *b)
{
    const float *r = w->rows;
    size_t st = w->stride;
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_set1(r[(SBX_WR_C + c) * st + m]);
        b->h[c] = wf_set1(r[(SBX_WR_H + c) * st + m]);
        for (int k = 0; k < 3; k++)
            b->u[k][c] = wf_set1(r[(SBX_WR_U + 3 * k + c) * st + m]);
    }
}

/* Obstacles m0 .. m0 + SBX_W - 1 of the world as lanes (whole rows: the stride is a multiple of
 * 16): their bounds, and their boxes (loaded only where a bound test passed). */
SBX_INLINE void world_bounds_w(const satbox_world *w, size_t m0, wf mn[3], wf mx[3], wf *s)
{
    const float *r = w->rows + m0;
    size_t st = w->stride;
    for (int c = 0; c < 3; c++) {
        mn[c] = wf_loadu(r + (SBX_WR_MIN + c) * st);
        mx[c] = wf_loadu(r + (SBX_WR_MAX + c) * st);
    }
    *s = wf_loadu(r + SBX_WR_S * st);
}
SBX_INLINE void world_lanes_w(const satbox_world *w, size_t m0, oboxw *b)
{
    const float *r = w->rows + m0;
    size_t st = w->stride;
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_loadu(r + (SBX_WR_C + c) * st);
        b->h[c] = wf_loadu(r + (SBX_WR_H + c) * st);
        for (int k = 0; k < 3; k++)
            b->u[k][c] = wf_loadu(r + (SBX_WR_U + 3 * k + c) * st);
    }
}

/* The union of the lanes' AABBs over the lanes `todo`, and their largest scale. */
SBX_INLINE void lanes_union(const wf mn[3], const wf mx[3], wf s, unsigned todo, float umn[3], float umx[3], float *us)
{
    float lmn[3][SBX_W], lmx[3][SBX_W], ls[SBX_W];
    for (int c = 0; c < 3; c++) {
        wf_storeu(lmn[c], mn[c]);
        wf_storeu(lmx[c], mx[c]);
    }
    wf_storeu(ls, s);
    for (unsigned t = todo; t; t &= t - 1u) {
        int l = __builtin_ctz(t);
        for (int c = 0; c < 3; c++) {
            umn[c] = lmn[c][l] < umn[c] ? lmn[c][l] : umn[c];
            umx[c] = lmx[c][l] > umx[c] ? lmx[c][l] : umx[c];
        }
        *us = ls[l] > *us ? ls[l] : *us;
    }
}

/* The obstacles a step may reach, held at once (their bounds as rows, their indices). */
#define SBX_PLAN_CAP 64
typedef struct near_rows {
    float mn[3][SBX_PLAN_CAP], mx[3][SBX_PLAN_CAP], s[SBX_PLAN_CAP];
    uint32_t m[SBX_PLAN_CAP];
    size_t n; /* entries; the table is padded with empty AABBs to a multiple of SBX_W */
} near_rows;

/* Step 1: the obstacles from *m0 on, SBX_W at a time, whose AABBs meet the box (umn, umx) grown by
 * the tolerance of scale us (at least every lane's: the filter drops only pairs the lane test
 * drops), appended to T until it is full; *m0 moves past the last vector read. */
SBX_INLINE void near_obstacles_w(const sbx_pjob *job, const float umn[3], const float umx[3], float us, size_t *m0,
                                 near_rows *T)
{
    const satbox_world *w = job->world;
    wf bmn[3], bmx[3], bs = wf_set1(us);
    for (int c = 0; c < 3; c++) {
        bmn[c] = wf_set1(umn[c]);
        bmx[c] = wf_set1(umx[c]);
    }
    const float *r = w->rows;
    size_t st = w->stride, m = *m0;
    T->n = 0;
    for (; m < w->n && T->n + SBX_W <= SBX_PLAN_CAP; m += SBX_W) {
        wf omn[3], omx[3], os;
        world_bounds_w(w, m, omn, omx, &os);
        for (unsigned hit = wm_bits(meet_w(bmn, bmx, omn, omx, tol_w(job, bs, os))); hit; hit &= hit - 1u) {
            size_t o = m + (size_t)__builtin_ctz(hit), t = T->n++;
            for (int c = 0; c < 3; c++) {
                T->mn[c][t] = r[(SBX_WR_MIN + c) * st + o];
                T->mx[c][t] = r[(SBX_WR_MAX + c) * st + o];
            }
            T->s[t] = r[SBX_WR_S * st + o];
            T->m[t] = (uint32_t)o;
        }
    }
    *m0 = m;
    for (size_t t = T->n; t % SBX_W; t++) {
        for (int c = 0; c < 3; c++) {
            T->mn[c][t] = INFINITY;
            T->mx[c][t] = -INFINITY;
        }
        T->s[t] = 0.0f;
    }
}

/* The lanes of `todo` that hit: configurations [i, i + k), or the states idx[]; the lanes whose
 * link boxes break the per-box rule in *bad (they are not checked). The obstacles near the step
 * (the union of every link's lanes) are found once (step 1), then each link's lanes' union is
 * tested against them, SBX_W at a time, and each obstacle left against the lanes. */
static SBX_NOINLINE unsigned step_hits_w(const sbx_pjob *job, const int32_t *idx, size_t i, int k, unsigned todo,
                                         unsigned *bad)
{
    const satbox_world *w = job->world;
    int cons = (job->flags & SATBOX_PLAN_CONSERVATIVE) != 0;
    unsigned hit = 0;
    wf vmn[3], vmx[3], vs = wf_zero(); /* the union over the links, lane by lane */
    for (int c = 0; c < 3; c++) {
        vmn[c] = wf_set1(INFINITY);
        vmx[c] = wf_set1(-INFINITY);
    }
    *bad = 0;
    for (size_t l = 0; l < job->nlinks; l++) {
        oboxw A;
        wf amn[3], amx[3], sa;
        load_link_w(job, l, idx, i, k, &A);
        *bad |= wm_bits(wm_not(box_valid_w(&A)));
        bounds_w(&A, amn, amx, &sa);
        for (int c = 0; c < 3; c++) { /* NaN of a bad lane: the lane is left out below */
            vmn[c] = wf_min(amn[c], vmn[c]);
            vmx[c] = wf_max(amx[c], vmx[c]);
        }
        vs = wf_max(sa, vs);
    }
    *bad &= todo;
    todo &= ~*bad;
    if (todo && w && w->n) {
        float smn[3] = {INFINITY, INFINITY, INFINITY}, smx[3] = {-INFINITY, -INFINITY, -INFINITY}, ss = 0.0f;
        lanes_union(vmn, vmx, vs, todo, smn, smx, &ss);
        for (size_t m0 = 0; todo && m0 < w->n;) {
            near_rows T;
            near_obstacles_w(job, smn, smx, ss, &m0, &T);
            for (size_t l = 0; l < job->nlinks && todo && T.n; l++) {
                oboxw A, B;
                wf amn[3], amx[3], sa, bmn[3], bmx[3];
                load_link_w(job, l, idx, i, k, &A);
                bounds_w(&A, amn, amx, &sa);
                float umn[3] = {INFINITY, INFINITY, INFINITY}, umx[3] = {-INFINITY, -INFINITY, -INFINITY}, us = 0.0f;
                lanes_union(amn, amx, sa, todo, umn, umx, &us);
                wf lmn[3], lmx[3], ls = wf_set1(us);
                for (int c = 0; c < 3; c++) {
                    lmn[c] = wf_set1(umn[c]);
                    lmx[c] = wf_set1(umx[c]);
                }
                for (size_t t0 = 0; t0 < T.n && todo; t0 += SBX_W) {
                    wf tmn[3], tmx[3];
                    for (int c = 0; c < 3; c++) {
                        tmn[c] = wf_loadu(T.mn[c] + t0);
                        tmx[c] = wf_loadu(T.mx[c] + t0);
                    }
                    wf tol = tol_w(job, ls, wf_loadu(T.s + t0));
                    for (unsigned near = wm_bits(meet_w(lmn, lmx, tmn, tmx, tol)); near && todo; near &= near - 1u) {
                        size_t t = t0 + (size_t)__builtin_ctz(near);
                        for (int c = 0; c < 3; c++) {
                            bmn[c] = wf_set1(T.mn[c][t]);
                            bmx[c] = wf_set1(T.mx[c][t]);
                        }
                        wf ptol;
                        unsigned lanes = pair_meet_w(job, amn, amx, sa, bmn, bmx, wf_set1(T.s[t]), todo, &ptol);
                        if (!lanes)
                            continue;
                        world_box_w(w, T.m[t], &B);
                        unsigned h = pair_sat_w(&A, &B, ptol, cons, lanes);
                        hit |= h;
                        todo &= ~h;
                    }
                }
            }
        }
    }
    for (size_t p = 0; p < job->nself && todo; p++) {
        oboxw A, B;
        wf amn[3], amx[3], sa, bmn[3], bmx[3], sb;
        load_link_w(job, job->self[p].a, idx, i, k, &A);
        load_link_w(job, job->self[p].b, idx, i, k, &B);
        bounds_w(&A, amn, amx, &sa);
        bounds_w(&B, bmn, bmx, &sb);
        unsigned h = pair_hits_w(job, &A, amn, amx, sa, &B, bmn, bmx, sb, cons, todo);
        hit |= h;
        todo &= ~h;
    }
    return hit;
}

/* planner_ref.c motion(): a round of SATBOX_PLAN_ROUND states is SATBOX_PLAN_ROUND / SBX_W steps. */
static ptrdiff_t motion_w(const sbx_pjob *job)
{
    _Static_assert(SATBOX_PLAN_ROUND % SBX_W == 0, "a motion round is whole steps");
    size_t K = job->k, V = (K + SATBOX_PLAN_ROUND - 1) / SATBOX_PLAN_ROUND, best = K;
    for (size_t v = 0; v < V; v++) {
        for (size_t j0 = 0; j0 < SATBOX_PLAN_ROUND; j0 += SBX_W) {
            int32_t idx[SBX_W];
            unsigned live = 0;
            for (int l = 0; l < SBX_W; l++) {
                size_t q = sbx_motion_state(v, j0 + (size_t)l, V);
                live |= (unsigned)(q < best) << l;
                idx[l] = q < best ? (int32_t)q : 0;
            }
            if (!live)
                continue;
            unsigned bad, stop = step_hits_w(job, idx, 0, SBX_W, live, &bad);
            stop |= bad;
            for (; stop; stop &= stop - 1u) {
                size_t q = (size_t)idx[__builtin_ctz(stop)];
                best = q < best ? q : best;
            }
        }
        if ((job->flags & SATBOX_PLAN_ANY) && best < K)
            break;
    }
    return (ptrdiff_t)best;
}

/* Link l of configuration q, broadcast to every lane. */
SBX_INLINE void link_one_w(const sbx_pjob *job, size_t l, size_t q, oboxw *b)
{
    const satbox_boxes *s = &job->links[l];
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_set1(s->center[c][q]);
        b->h[c] = wf_set1(s->half[c][q]);
        for (int k = 0; k < 3; k++)
            b->u[k][c] = wf_set1(s->axis[k][c][q]);
    }
}

/* The verdict of configuration q alone, the obstacles in lanes (calls with fewer configurations
 * than lanes): SBX_W obstacles at a time against the union of the configuration's link AABBs
 * grown by the largest link tolerance (a filter, as in step_hits_w), then each link's AABB test on
 * the lanes left, then the 15-axis test where some lane passed: per (link, obstacle) the
 * expressions of step_hits_w, lane for lane. */
static SBX_NOINLINE uint8_t config_alone_w(const sbx_pjob *job, size_t q)
{
    const satbox_world *w = job->world;
    int cons = (job->flags & SATBOX_PLAN_CONSERVATIVE) != 0;
    wf umn[3], umx[3], us = wf_zero();
    for (int c = 0; c < 3; c++) {
        umn[c] = wf_set1(INFINITY);
        umx[c] = wf_set1(-INFINITY);
    }
    /* the links' bounds (every lane the same), kept as floats for the first SBX_ALONE_CACHE links */
    enum { SBX_ALONE_CACHE = 32 };
    float lb[SBX_ALONE_CACHE][7];
    for (size_t l = 0; l < job->nlinks; l++) {
        oboxw A;
        wf amn[3], amx[3], sa;
        link_one_w(job, l, q, &A);
        if (!(wm_bits(box_valid_w(&A)) & 1u))
            return SATBOX_CONFIG_BAD;
        bounds_w(&A, amn, amx, &sa);
        for (int c = 0; c < 3; c++) {
            umn[c] = wf_min(amn[c], umn[c]);
            umx[c] = wf_max(amx[c], umx[c]);
        }
        us = wf_max(sa, us);
        if (l < SBX_ALONE_CACHE) {
            float t[SBX_W];
            for (int c = 0; c < 3; c++) {
                wf_storeu(t, amn[c]);
                lb[l][c] = t[0];
                wf_storeu(t, amx[c]);
                lb[l][3 + c] = t[0];
            }
            wf_storeu(t, sa);
            lb[l][6] = t[0];
        }
    }
    for (size_t m0 = 0; w && m0 < w->n; m0 += SBX_W) {
        wf bmn[3], bmx[3], sb;
        world_bounds_w(w, m0, bmn, bmx, &sb);
        unsigned near = wm_bits(meet_w(umn, umx, bmn, bmx, tol_w(job, us, sb)));
        if (!near)
            continue;
        oboxw B;
        int loaded = 0;
        for (size_t l = 0; l < job->nlinks; l++) {
            oboxw A;
            wf amn[3], amx[3], sa, tol;
            if (l < SBX_ALONE_CACHE) { /* the bounds first, the box only for a link that meets */
                for (int c = 0; c < 3; c++) {
                    amn[c] = wf_set1(lb[l][c]);
                    amx[c] = wf_set1(lb[l][3 + c]);
                }
                sa = wf_set1(lb[l][6]);
            } else {
                link_one_w(job, l, q, &A);
                bounds_w(&A, amn, amx, &sa);
            }
            unsigned lanes = pair_meet_w(job, amn, amx, sa, bmn, bmx, sb, near, &tol);
            if (!lanes)
                continue;
            if (l < SBX_ALONE_CACHE)
                link_one_w(job, l, q, &A);
            if (!loaded)
                world_lanes_w(w, m0, &B);
            loaded = 1;
            if (pair_sat_w(&A, &B, tol, cons, lanes))
                return SATBOX_COLLIDES;
        }
    }
    for (size_t p = 0; p < job->nself; p++) {
        oboxw A, B;
        wf amn[3], amx[3], sa, bmn[3], bmx[3], sb;
        link_one_w(job, job->self[p].a, q, &A);
        link_one_w(job, job->self[p].b, q, &B);
        bounds_w(&A, amn, amx, &sa);
        bounds_w(&B, bmn, bmx, &sb);
        if (pair_hits_w(job, &A, amn, amx, sa, &B, bmn, bmx, sb, cons, 1u))
            return SATBOX_COLLIDES;
    }
    return SATBOX_FREE;
}

static ptrdiff_t kernel_configs(const sbx_pjob *job)
{
    if (!job->out)
        return motion_w(job);
    size_t count = 0;
    if (job->k < (size_t)SBX_W) {
        for (size_t q = 0; q < job->k; q++) {
            job->out[q] = config_alone_w(job, q);
            count += job->out[q] != SATBOX_FREE;
        }
        return (ptrdiff_t)count;
    }
    for (size_t i = 0; i < job->k; i += SBX_W) {
        int k = job->k - i >= (size_t)SBX_W ? SBX_W : (int)(job->k - i);
        unsigned live = (1u << k) - 1u;
        unsigned bad, hit = step_hits_w(job, NULL, i, k, live, &bad);
        for (int l = 0; l < k; l++)
            job->out[i + (size_t)l] = (bad >> l & 1u) ? SATBOX_CONFIG_BAD : (uint8_t)(hit >> l & 1u);
        count += (size_t)wm_count((bad | hit) & live);
    }
    return (ptrdiff_t)count;
}

#endif

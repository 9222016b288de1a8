/* planner_ref.c - the reference of planner_tpl.h: robot configurations against an obstacle world, one configuration at a time. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "planner/planner.h"
#include "box3d/sat_ref.h"

/* Compiled like the other _ref files (no SIMD flags, -ffp-contract=off); every expression in the
 * order planner_tpl.h evaluates it, so that both give the same verdicts.
 *
 * The tolerance `tol = SATBOX_PLAN_REL (s_A + s_B)` (satbox_planner.h, "Verdicts"), with
 * s = |c0| + |c1| + |c2| + h0 + h1 + h2 for each box and S' = s_A + s_B:
 *  - the computed gaps are within 2^-19 S of the exact gaps of the float input (satbox.h), and
 *    S = |d|_1 + sum h <= S' since |d|_1 <= |cA|_1 + |cB|_1;
 *  - rounding a double input to float moves each number by at most 2^-24 of itself. A face gap
 *    |d . u| - h - sum_j h_j |u . v_j| then moves by at most 2^-24 (|cA|_1 + |cB|_1) (d) +
 *    2^-24 |d|_1 (u) + 2^-24 h + 3 2^-24 sum_j h_j (the dot products u . v_j: 2^-23, and h_j),
 *    which is below 3 2^-24 S'. An edge gap |t_i2 R_i1j - t_i1 R_i2j| - r_A - r_B: each t moves by at
 *    most 2^-24 (|cA|_1 + |cB|_1 + |d|_1) <= 2^-23 S', each R by 2^-23; the projection by at most
 *    2 2^-23 S' + 2^-23 (|t_i1| + |t_i2|) <= 2^-21 S', the radii by 2^-23 sum h: below 2^-20 S'
 *    in all;
 *  so a computed gap above 2^-19 S' + 2^-20 S' proves the exact gap of the double input positive,
 *  and tol = 2^-18 S' leaves room for the rounding of tol itself (9 additions: 2^-20 relative).
 *  The AABBs: e_c = sum_k |u_kc| h_k is computed within 3 2^-24 e_c and moved by the input's
 *  rounding by 2^-23 sum h; min and max round once more (2^-24 (|c| + e)): each bound is within
 *  2^-21 s of the exact one, so AABBs apart by more than tol are apart exactly. */

/* A box's AABB and scale, in the order of planner_tpl.h bounds_w(). */
static void bounds(const obox *b, float mn[3], float mx[3], float *s)
{
    for (int c = 0; c < 3; c++) {
        float e = (fabsf(b->u[0][c]) * b->h[0] + fabsf(b->u[1][c]) * b->h[1]) + fabsf(b->u[2][c]) * b->h[2];
        mn[c] = b->c[c] - e;
        mx[c] = b->c[c] + e;
    }
    *s = ((((fabsf(b->c[0]) + fabsf(b->c[1])) + fabsf(b->c[2])) + b->h[0]) + b->h[1]) + b->h[2];
}

/* The AABBs of A and B meet when grown by tol. */
static int meet(const float amn[3], const float amx[3], const float bmn[3], const float bmx[3], float tol)
{
    for (int c = 0; c < 3; c++)
        if (!(amn[c] <= bmx[c] + tol && bmn[c] <= amx[c] + tol))
            return 0;
    return 1;
}

/* The tolerance of a pair of scales sa and sb: SATBOX_PLAN_REL (sa + sb) + 0 for satbox_configs(),
 * with the chain's tol_rel and tol_abs for the chain queries (chain_ref.c derives them). */
static float tolerance(const sbx_pjob *job, float sa, float sb) { return job->tol_rel * (sa + sb) + job->tol_abs; }

/* One tested pair: A (a link) against B, with their bounds. */
static int pair_hits(const sbx_pjob *job, const obox *A, const float amn[3], const float amx[3], float sa,
                     const obox *B, const float bmn[3], const float bmx[3], float sb, int conservative)
{
    float tol = tolerance(job, sa, sb);
    uint8_t bad;
    float thr = conservative ? tol : 0.0f;
    return meet(amn, amx, bmn, bmx, tol) && overlap_within(A, B, thr, thr, &bad);
}

/* Obstacle m of the world. */
static void world_box(const satbox_world *w, size_t m, obox *b, float mn[3], float mx[3], float *s)
{
    const float *r = w->rows;
    size_t st = w->stride;
    for (int c = 0; c < 3; c++) {
        b->c[c] = r[(SBX_WR_C + c) * st + m];
        b->h[c] = r[(SBX_WR_H + c) * st + m];
        mn[c] = r[(SBX_WR_MIN + c) * st + m];
        mx[c] = r[(SBX_WR_MAX + c) * st + m];
        for (int k = 0; k < 3; k++)
            b->u[k][c] = r[(SBX_WR_U + 3 * k + c) * st + m];
    }
    *s = r[SBX_WR_S * st + m];
}

/* The verdict of configuration q: SATBOX_CONFIG_BAD when a link box breaks the per-box rule, else
 * SATBOX_COLLIDES at the first tested pair that hits (links in order, each against the obstacles
 * in order, then the self pairs), else SATBOX_FREE. */
static uint8_t verdict(const sbx_pjob *job, size_t q)
{
    obox A, B;
    float amn[3], amx[3], sa, bmn[3], bmx[3], sb;
    int cons = (job->flags & SATBOX_PLAN_CONSERVATIVE) != 0;
    for (size_t l = 0; l < job->nlinks; l++) {
        load_mat(&job->links[l], q, &A);
        if (!box_valid(&A))
            return SATBOX_CONFIG_BAD;
    }
    size_t nw = job->world ? job->world->n : 0;
    for (size_t l = 0; l < job->nlinks; l++) {
        load_mat(&job->links[l], q, &A);
        bounds(&A, amn, amx, &sa);
        for (size_t m = 0; m < nw; m++) {
            world_box(job->world, m, &B, bmn, bmx, &sb);
            if (pair_hits(job, &A, amn, amx, sa, &B, bmn, bmx, sb, cons))
                return SATBOX_COLLIDES;
        }
    }
    for (size_t p = 0; p < job->nself; p++) {
        load_mat(&job->links[job->self[p].a], q, &A);
        load_mat(&job->links[job->self[p].b], q, &B);
        bounds(&A, amn, amx, &sa);
        bounds(&B, bmn, bmx, &sb);
        if (pair_hits(job, &A, amn, amx, sa, &B, bmn, bmx, sb, cons))
            return SATBOX_COLLIDES;
    }
    return SATBOX_FREE;
}

/* satbox_motion(): rounds of SATBOX_PLAN_ROUND states, coarse to fine (planner.h sbx_motion_state);
 * the states at or past the best found so far are not checked. */
static ptrdiff_t motion(const sbx_pjob *job)
{
    size_t K = job->k, V = (K + SATBOX_PLAN_ROUND - 1) / SATBOX_PLAN_ROUND, best = K;
    for (size_t v = 0; v < V; v++) {
        for (size_t j = 0; j < SATBOX_PLAN_ROUND; j++) {
            size_t q = sbx_motion_state(v, j, V);
            if (q < best && verdict(job, q) != SATBOX_FREE)
                best = q;
        }
        if ((job->flags & SATBOX_PLAN_ANY) && best < K)
            break;
    }
    return (ptrdiff_t)best;
}

static ptrdiff_t configs(const sbx_pjob *job)
{
    if (!job->out)
        return motion(job);
    size_t count = 0;
    for (size_t q = 0; q < job->k; q++) {
        job->out[q] = verdict(job, q);
        count += job->out[q] != SATBOX_FREE;
    }
    return (ptrdiff_t)count;
}

/* The configs of the scalar path's table (kernel_scalar.c). */
ptrdiff_t sbx_scalar_configs(const sbx_pjob *job) { return configs(job); }

/* The world's rows from m boxes (api_planner.c, after the checks): boxes, AABBs (bounds()), scales;
 * the rows past m up to the stride meet nothing. */
void sbx_world_rows(float *rows, size_t stride, const satbox_boxes *boxes, size_t m)
{
    for (size_t i = 0; i < stride; i++) {
        obox b = {{0}, {0}, {{0}}};
        float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY}, s = 0.0f;
        if (i < m) {
            load_mat(boxes, i, &b);
            bounds(&b, mn, mx, &s);
        }
        for (int c = 0; c < 3; c++) {
            rows[(SBX_WR_C + c) * stride + i] = b.c[c];
            rows[(SBX_WR_H + c) * stride + i] = b.h[c];
            rows[(SBX_WR_MIN + c) * stride + i] = mn[c];
            rows[(SBX_WR_MAX + c) * stride + i] = mx[c];
            for (int k = 0; k < 3; k++)
                rows[(SBX_WR_U + 3 * k + c) * stride + i] = b.u[k][c];
        }
        rows[SBX_WR_S * stride + i] = s;
    }
}

/* 1 when box i of `boxes` passes the per-box rule (api_planner.c: a world takes valid boxes only). */
int sbx_box_ok(const satbox_boxes *boxes, size_t i)
{
    obox b;
    load_mat(boxes, i, &b);
    return box_valid(&b);
}

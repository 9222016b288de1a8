/* sat_ref.h - the reference of sat_tpl.h: one pair's SAT (set-up, the 15 gaps, an axis's normal, overlap, collide) and its outputs. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SAT_REF_H
#define SATBOX_SAT_REF_H

/* Included only by the scalar reference files, which are compiled without SIMD headers or flags.
 * Every expression is written in the order the wide kernel (sat_tpl.h) evaluates it:
 * sums left to right, no fused multiply-add (-ffp-contract=off), IEEE sqrt and division.
 * Changing an expression here means changing it there too; the checkers compare the two bit
 * for bit. */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "box3d/sources_ref.h"

/* ---- outputs: the scalar twins of batch_tpl.h's put_hits_w and put_collide_w ---- */

/* Pair i's hit and bad bytes (each array may be NULL), appended to the compacted list when it is
 * a hit and the list is asked for; returns the new hit count. */
static inline size_t put_hits(const sbx_job *job, size_t i, uint8_t hit, uint8_t bad, size_t count)
{
    if (job->hit)
        job->hit[i] = hit;
    if (job->bad)
        job->bad[i] = bad;
    if (hit != 1)
        return count;
    if (job->compact)
        job->compact[count] = (uint32_t)i;
    return count + 1;
}

/* Pair i's collide outputs, each array may be NULL: separation, normal, axis. */
static inline void put_collide(const sbx_job *job, size_t i, float sep, const float normal[3], uint8_t axis)
{
    if (job->separation)
        job->separation[i] = sep;
    for (int c = 0; c < 3; c++)
        if (job->normal[c])
            job->normal[c][i] = normal[c];
    if (job->axis)
        job->axis[i] = axis;
}

/* ---- the pair test ---------------------------------------------------------------------------
 *
 * Everything the 15 axes share, computed once per pair in A's frame (operation order fixed here
 * and reproduced by sat_tpl.h):
 *   d_c   = cB_c - cA_c
 *   R_ij  = (uA_i0 uB_j0 + uA_i1 uB_j1) + uA_i2 uB_j2        AR_ij = |R_ij|
 *   t_i   = (d_0 uA_i0 + d_1 uA_i1) + d_2 uA_i2
 * and the gap of each axis k, unnormalised (axis L_k = uA_i, uB_j or uA_i x uB_j in A's frame):
 *   face A i:   g = |t_i| - (hA_i + ((hB_0 AR_i0 + hB_1 AR_i1) + hB_2 AR_i2))
 *   face B j:   g = |p| - (((hA_0 AR_0j + hA_1 AR_1j) + hA_2 AR_2j) + hB_j),
 *               p = (t_0 R_0j + t_1 R_1j) + t_2 R_2j
 *   edge i, j:  g = |p| - ((hA_i1 AR_i2j + hA_i2 AR_i1j) + (hB_j1 AR_ij2 + hB_j2 AR_ij1)),
 *               p = t_i2 R_i1j - t_i1 R_i2j,   |L|^2 = R_i1j R_i1j + R_i2j R_i2j
 *   (i1 = i+1, i2 = i+2, j1 = j+1, j2 = j+2, mod 3).
 * An axis separates the pair when g > 0. Near-parallel rule: the edge axis (i, j) is skipped when
 * AR_ij >= SATBOX_PARALLEL_ABS_COS (the edges are within ~1e-3 rad of parallel; |L|^2 = 1 - R_ij^2
 * for orthonormal axes, so the rule reads the |R| already computed). The pair overlaps when it is
 * valid and no axis that is not skipped separates.
 *
 * The error bound (certified answers). With u = 2^-24, fl(a op b) = (a op b)(1 + e), |e| <= u,
 * and unit axes (|uA_ic|, |uB_jc| <= 1, each row and column of R a unit vector), let
 *   S = |d|_1 + ΣhA + ΣhB   (the pair's scale).
 *   |d~_c - d_c| <= u |d_c|;  |R~_ij - R_ij| <= 3u (dot product of two unit vectors);
 *   |t~_i - t_i| <= 3u |d|_1 + u |d|_1 = 4u |d|_1.
 * Face A: the radius sum loses <= 3u ΣhB through R~ and 3u ΣhB in its two additions, then
 * u(hA_i + ΣhB) and u(|t_i| + hA_i + ΣhB) in the last two operations:
 *   |g~ - g| <= 4u|d|_1 + 6u ΣhB + 2u(ΣhA + ΣhB) + u|d|_1 <= 8u S.
 * Face B: p loses 4u|d|_1 Σ|R_ij| + 3u Σ|t_i| + 3u Σ|t_i R_ij| <= (4√3 + 3√3 + 3)u |d|_1 < 16u|d|_1;
 * the radius 6u ΣhA + u(ΣhA + hB_j); the subtraction u(|p| + r):  |g~ - g| <= 18u S.
 * Edge: p loses 4u|d|_1 (|R_i1j| + |R_i2j|) + 3u(|t_i1| + |t_i2|) + 2u(|t_i2 R_i1j| + |t_i1 R_i2j|)
 * <= 18u |d|_1; each radius 5u Σh; their sum and the subtraction u(|p| + r):
 *   |g~ - g| <= 20u|d|_1 + 7u(ΣhA + ΣhB) <= 20u S.
 * Second-order terms and axes that are unit only to a few ulps add well under 1u S, so every
 * axis obeys |g~ - g| <= e = 2^-19 S (= 32u S, SATBOX_BOUND_REL). Normalised by the axis length,
 * the decision g~ > 0 is therefore right whenever the exact normalised gap is outside
 * +-B_k = +-e / |L_k| (|L_k| = 1 for face axes): beyond B it says "separated" for a truly
 * separated pair and "overlapping" for a truly penetrating one. The axes the rule skips have
 * |L| < ~1e-3; a pair whose exact separation shows only on such an axis is reported overlapping
 * (test_oracle.c measures how far).
 * Why no guard (g > e instead of g > 0): it would never call an overlapping pair separated, but it
 * reports as overlapping every pair within 2e of touching: with e = 32 ulps of the pair's scale,
 * thousands of resting (stacked) pairs in a million. The errors are a few ulps in practice, so
 * the unguarded decision errs only within B, in both directions.
 *
 * Validity (the pair): extents >= 0 and check = ((|t_0| + |t_1| + |t_2|) + max AR) + Σh <=
 * SATBOX_PAIR_LIMIT (Σh = hA_0 + hA_1 + hA_2 + hB_0 + hB_1 + hB_2 left to right; max AR taken on
 * the bit patterns, so that a NaN or infinite |R| makes it NaN or infinite).
 * NaN or infinity anywhere in the input makes `check` NaN or infinite (an infinite axis
 * component makes a whole row or column of R non-finite), so it fails; below the limit every
 * product of the kernel is finite, so every gap is finite and the max over the gaps is well
 * defined. Two boxes that each pass the per-box rule (satbox_validate) always form a valid pair. */

typedef struct sat_pair {
    float R[3][3], AR[3][3], t[3];
    int valid;
} sat_pair;

SBX_ALWAYS_INLINE void pair_setup(const obox *A, const obox *B, sat_pair *P)
{
    float d[3];
    for (int c = 0; c < 3; c++)
        d[c] = B->c[c] - A->c[c];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            P->R[i][j] = (A->u[i][0] * B->u[j][0] + A->u[i][1] * B->u[j][1]) + A->u[i][2] * B->u[j][2];
            P->AR[i][j] = fabsf(P->R[i][j]);
        }
    for (int i = 0; i < 3; i++)
        P->t[i] = (d[0] * A->u[i][0] + d[1] * A->u[i][1]) + d[2] * A->u[i][2];
    /* max |R| on the bit patterns (|R| >= 0 orders like its bits): NaN and infinity always win. */
    uint32_t max_bits = 0;
    for (int q = 0; q < 9; q++) {
        uint32_t b;
        memcpy(&b, &P->AR[q / 3][q % 3], sizeof b);
        max_bits = b > max_bits ? b : max_bits;
    }
    float max_ar;
    memcpy(&max_ar, &max_bits, sizeof max_ar);
    float sum_h = ((((A->h[0] + A->h[1]) + A->h[2]) + B->h[0]) + B->h[1]) + B->h[2];
    float check = (((fabsf(P->t[0]) + fabsf(P->t[1])) + fabsf(P->t[2])) + max_ar) + sum_h;
    P->valid = check <= SATBOX_PAIR_LIMIT && A->h[0] >= 0.0f && A->h[1] >= 0.0f && A->h[2] >= 0.0f &&
               B->h[0] >= 0.0f && B->h[1] >= 0.0f && B->h[2] >= 0.0f;
}

/* The gap of each kind of axis (unnormalised) and its signed projection of d; sat_tpl.h has the
 * same three functions over wide floats. */
static inline float gap_face_a(const obox *A, const obox *B, const sat_pair *P, int i)
{
    float rb = (B->h[0] * P->AR[i][0] + B->h[1] * P->AR[i][1]) + B->h[2] * P->AR[i][2];
    return fabsf(P->t[i]) - (A->h[i] + rb);
}

static inline float gap_face_b(const obox *A, const obox *B, const sat_pair *P, int j, float *proj)
{
    float ra = (A->h[0] * P->AR[0][j] + A->h[1] * P->AR[1][j]) + A->h[2] * P->AR[2][j];
    float p = (P->t[0] * P->R[0][j] + P->t[1] * P->R[1][j]) + P->t[2] * P->R[2][j];
    *proj = p;
    return fabsf(p) - (ra + B->h[j]);
}

static inline float gap_edge(const obox *A, const obox *B, const sat_pair *P, int i, int j, float *proj)
{
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    float ra = A->h[i1] * P->AR[i2][j] + A->h[i2] * P->AR[i1][j];
    float rb = B->h[j1] * P->AR[i][j2] + B->h[j2] * P->AR[i][j1];
    float p = P->t[i2] * P->R[i1][j] - P->t[i1] * P->R[i2][j];
    *proj = p;
    return fabsf(p) - (ra + rb);
}

/* The near-parallel rule: edge axis (i, j) is used when |R_ij| < SATBOX_PARALLEL_ABS_COS. */
static inline int usable_edge(const sat_pair *P, int i, int j) { return P->AR[i][j] < SATBOX_PARALLEL_ABS_COS; }

static inline float len2_edge(const sat_pair *P, int i, int j)
{
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    return P->R[i1][j] * P->R[i1][j] + P->R[i2][j] * P->R[i2][j];
}

/* The unit world normal of axis k, from A towards B (flipped when the projection of d on the
 * axis, proj, is negative): uA_i, uB_j, or uA_i x uB_j normalised in world space, (0, 0, 0)
 * when that cross product has zero length (only with axes that break the orthonormal
 * precondition). sat_tpl.h collide_w() computes the same. */
static inline void axis_normal(const obox *A, const obox *B, int k, float proj, float n[3])
{
    if (k < 3) {
        memcpy(n, A->u[k], 3 * sizeof(float));
    } else if (k < 6) {
        memcpy(n, B->u[k - 3], 3 * sizeof(float));
    } else {
        const float *a = A->u[(k - 6) / 3], *b = B->u[(k - 6) % 3];
        float cx = a[1] * b[2] - a[2] * b[1];
        float cy = a[2] * b[0] - a[0] * b[2];
        float cz = a[0] * b[1] - a[1] * b[0];
        float len = sqrtf((cx * cx + cy * cy) + cz * cz);
        n[0] = cx / len;
        n[1] = cy / len;
        n[2] = cz / len;
        if (!(len > 0.0f && len < INFINITY)) /* axes breaking the precondition (sat_tpl.h) */
            n[0] = n[1] = n[2] = 0.0f;
    }
    if (proj < 0.0f) {
        n[0] = -n[0];
        n[1] = -n[1];
        n[2] = -n[2];
    }
}

/* Box validity (see satbox.h "Bad data"); sums in a fixed order; NaN fails every comparison. */
static inline int box_valid(const obox *b)
{
    float size = ((((fabsf(b->c[0]) + fabsf(b->c[1])) + fabsf(b->c[2])) + b->h[0]) + b->h[1]) + b->h[2];
    float asum = 0.0f;
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = asum + fabsf(b->u[k][c]);
    return b->h[0] >= 0.0f && b->h[1] >= 0.0f && b->h[2] >= 0.0f && size <= SATBOX_COORD_LIMIT &&
           asum <= SATBOX_AXIS_SUM_LIMIT;
}

/* 1 when no face axis has a computed gap above thr and no used edge axis one above thr_edge (0 for
 * bad data, which sets *bad). The first axis above its threshold ends the test (in id order): the
 * answer is the same as testing all 15. overlap() is 0, 0; the planner's conservative mode raises
 * both (planner/planner_ref.c); the contact stream's filter (contacts_ref.c may_touch) takes the
 * margin and max(margin, 0). */
SBX_ALWAYS_INLINE uint8_t overlap_within(const obox *A, const obox *B, float thr, float thr_edge, uint8_t *bad)
{
    sat_pair P;
    float proj;
    pair_setup(A, B, &P);
    *bad = !P.valid;
    if (!P.valid)
        return 0;
    for (int i = 0; i < 3; i++)
        if (gap_face_a(A, B, &P, i) > thr)
            return 0;
    for (int j = 0; j < 3; j++)
        if (gap_face_b(A, B, &P, j, &proj) > thr)
            return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (usable_edge(&P, i, j) && gap_edge(A, B, &P, i, j, &proj) > thr_edge)
                return 0;
    return 1;
}

/* Overlap bit of one pair (0 for bad data, which sets *bad). */
static inline uint8_t overlap(const obox *A, const obox *B, uint8_t *bad) { return overlap_within(A, B, 0.0f, 0.0f, bad); }

typedef struct collide_out {
    uint8_t hit, axis, bad;
    float separation, normal[3];
} collide_out;

/* Collide one pair: the largest normalised gap s_k = g_k / min(|L_k|, 1) over the usable axes.
 * The min with 1 only matters for axes that break the unit precondition: it keeps |s_k| >= |g_k|,
 * so the sign of s_k is that of g_k and separation <= 0 exactly when no usable axis separates,
 * as in overlap(). A usable edge pair with |L| = 0 (only with non-orthonormal axes) has
 * g <= 0 and gives -inf or NaN: never chosen. Ties go to the lowest id (strict >). */
static inline void collide(const obox *A, const obox *B, float margin, collide_out *o)
{
    sat_pair P;
    pair_setup(A, B, &P);
    o->bad = !P.valid;
    if (!P.valid) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->separation = NAN;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    /* Running argmax in id order, as sat_tpl.h collide_w(). */
    int best = 0;
    float proj, bs = gap_face_a(A, B, &P, 0), bp = P.t[0];
    for (int i = 1; i < 3; i++) {
        float g = gap_face_a(A, B, &P, i);
        if (g > bs) {
            best = i;
            bs = g;
            bp = P.t[i];
        }
    }
    for (int j = 0; j < 3; j++) {
        float g = gap_face_b(A, B, &P, j, &proj);
        if (g > bs) {
            best = 3 + j;
            bs = g;
            bp = proj;
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float g = gap_edge(A, B, &P, i, j, &proj), len = sqrtf(len2_edge(&P, i, j));
            float s = g / (len < 1.0f ? len : 1.0f);
            if (usable_edge(&P, i, j) && s > bs) {
                best = 6 + 3 * i + j;
                bs = s;
                bp = proj;
            }
        }
    float n[3];
    axis_normal(A, B, best, bp, n);
    o->hit = bs <= margin ? 1 : 0;
    o->axis = (uint8_t)best;
    o->separation = bs;
    memcpy(o->normal, n, sizeof n);
}

#endif

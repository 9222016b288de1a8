/* sat_tpl.h - the template of sat_ref.h: the 15-axis separating axis math of one step of SBX_W pairs (overlap, collide). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SAT_TPL_H
#define SATBOX_SAT_TPL_H

#include "core/tpl_common.h"
#include "box3d/box3d.h"

/* ---- the math ----------------------------------------------------------------------------- */

/* sat_ref.h box_valid(): the per-box rule (AABBs). */
SBX_INLINE wm box_valid_w(const oboxw *b)
{
    wf size = wf_add(wf_add(wf_add(wf_add(wf_add(wf_abs(b->c[0]), wf_abs(b->c[1])), wf_abs(b->c[2])), b->h[0]),
                            b->h[1]),
                     b->h[2]);
    wf asum = wf_zero();
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = wf_add(asum, wf_abs(b->u[k][c]));
    wf zero = wf_zero();
    wm ok = wm_and(wm_and(wm_ge(b->h[0], zero), wm_ge(b->h[1], zero)), wm_ge(b->h[2], zero));
    ok = wm_and(ok, wm_le(size, wf_set1(SATBOX_COORD_LIMIT)));
    return wm_and(ok, wm_le(asum, wf_set1(SATBOX_AXIS_SUM_LIMIT)));
}

/* What the 15 axes of SBX_W pairs share: sat_ref.h pair_setup(). */
typedef struct sat_pairw {
    wf R[3][3], AR[3][3], t[3], at[3];
    wm valid;
    int near_par; /* some lane has an edge pair at or above SATBOX_PARALLEL_ABS_COS */
} sat_pairw;

/* SBX_BARE (benchmarks only, never in the library): the same formulas with no validity test
 * and no near-parallel rule, to measure what the safety costs. */
SBX_INLINE void pair_setup_w(const oboxw *A, const oboxw *B, sat_pairw *P)
{
    wf d[3];
    for (int c = 0; c < 3; c++)
        d[c] = wf_sub(B->c[c], A->c[c]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            P->R[i][j] = wf_add(wf_add(wf_mul(A->u[i][0], B->u[j][0]), wf_mul(A->u[i][1], B->u[j][1])),
                                wf_mul(A->u[i][2], B->u[j][2]));
            P->AR[i][j] = wf_abs(P->R[i][j]);
        }
    for (int i = 0; i < 3; i++) {
        P->t[i] = wf_add(wf_add(wf_mul(d[0], A->u[i][0]), wf_mul(d[1], A->u[i][1])), wf_mul(d[2], A->u[i][2]));
        P->at[i] = wf_abs(P->t[i]);
    }
    /* max |R| bounds R for the validity check and tells whether any lane has near-parallel
     * edges. Taken on the bit patterns (|R| >= 0), so that NaN and infinity always win. */
    wf max_ar = P->AR[0][0];
    for (int q = 1; q < 9; q++)
        max_ar = wf_max_nonneg(max_ar, P->AR[q / 3][q % 3]);
#if defined(SBX_BARE)
    (void)max_ar;
    P->valid = wm_eq(wf_zero(), wf_zero());
    P->near_par = 0;
#else
    wf sum_h = wf_add(wf_add(wf_add(wf_add(wf_add(A->h[0], A->h[1]), A->h[2]), B->h[0]), B->h[1]), B->h[2]);
    wf check = wf_add(wf_add(wf_add(wf_add(P->at[0], P->at[1]), P->at[2]), max_ar), sum_h);
    /* NaN cannot reach the min: a NaN extent makes `check` NaN, which fails on its own. */
    wf hmin = wf_min(wf_min(wf_min(A->h[0], A->h[1]), A->h[2]), wf_min(wf_min(B->h[0], B->h[1]), B->h[2]));
    P->valid = wm_and(wm_le(check, wf_set1(SATBOX_PAIR_LIMIT)), wm_ge(hmin, wf_zero()));
    P->near_par = wm_bits(wm_ge(max_ar, wf_set1(SATBOX_PARALLEL_ABS_COS))) != 0;
#endif
}

/* sat_ref.h gap_face_a(), gap_face_b() and gap_edge(): the face axes of A (i), of B (j) and the
 * edge axes (i, j). */
SBX_INLINE wf gap_face_a_w(const oboxw *A, const oboxw *B, const sat_pairw *P, int i)
{
    wf rb = wf_add(wf_add(wf_mul(B->h[0], P->AR[i][0]), wf_mul(B->h[1], P->AR[i][1])), wf_mul(B->h[2], P->AR[i][2]));
    return wf_sub(P->at[i], wf_add(A->h[i], rb));
}

SBX_INLINE wf gap_face_b_w(const oboxw *A, const oboxw *B, const sat_pairw *P, int j, wf *proj)
{
    wf ra = wf_add(wf_add(wf_mul(A->h[0], P->AR[0][j]), wf_mul(A->h[1], P->AR[1][j])), wf_mul(A->h[2], P->AR[2][j]));
    wf p = wf_add(wf_add(wf_mul(P->t[0], P->R[0][j]), wf_mul(P->t[1], P->R[1][j])), wf_mul(P->t[2], P->R[2][j]));
    *proj = p;
    return wf_sub(wf_abs(p), wf_add(ra, B->h[j]));
}

SBX_INLINE wf gap_edge_w(const oboxw *A, const oboxw *B, const sat_pairw *P, int i, int j, wf *proj)
{
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    wf ra = wf_add(wf_mul(A->h[i1], P->AR[i2][j]), wf_mul(A->h[i2], P->AR[i1][j]));
    wf rb = wf_add(wf_mul(B->h[j1], P->AR[i][j2]), wf_mul(B->h[j2], P->AR[i][j1]));
    wf p = wf_sub(wf_mul(P->t[i2], P->R[i1][j]), wf_mul(P->t[i1], P->R[i2][j]));
    *proj = p;
    return wf_sub(wf_abs(p), wf_add(ra, rb));
}

/* The near-parallel rule: edge axis (i, j) is used when |R_ij| < SATBOX_PARALLEL_ABS_COS,
 * evaluated where it is needed (nine masks held from the setup would not fit the registers), and
 * only when some lane has a near-parallel edge pair (`masked`; otherwise every axis is used and
 * the masks change nothing).
 * used_gap_edge(): the gap of a used axis, 0 (cannot separate) for a skipped one.
 * used_and(): mask m restricted to the lanes where the axis is used. */
SBX_INLINE wf used_gap_edge(const oboxw *A, const oboxw *B, const sat_pairw *P, int i, int j, wf *proj, int masked)
{
    wf g = gap_edge_w(A, B, P, i, j, proj);
    return masked ? wf_keep(wm_lt(P->AR[i][j], wf_set1(SATBOX_PARALLEL_ABS_COS)), g) : g;
}
SBX_INLINE wm used_and(const sat_pairw *P, int i, int j, wm m, int masked)
{
    return masked ? wm_and(wm_lt(P->AR[i][j], wf_set1(SATBOX_PARALLEL_ABS_COS)), m) : m;
}

SBX_INLINE wf len2_edge_w(const sat_pairw *P, int i, int j)
{
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    return wf_add(wf_mul(P->R[i1][j], P->R[i1][j]), wf_mul(P->R[i2][j], P->R[i2][j]));
}

/* The largest gap over the used edge axes, folded into m. */
SBX_INLINE wf max_edges(const oboxw *A, const oboxw *B, const sat_pairw *P, wf m, int masked)
{
    wf proj;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m = wf_max(m, used_gap_edge(A, B, P, i, j, &proj, masked));
    return m;
}

/* The largest gap over the 6 face axes (max_face_gap_w), over the used axes of SBX_W pairs with
 * their validity (max_gap_w; sat_ref.h overlap_within() with one threshold is max <= thr). For a valid pair every gap is finite (see sat_ref.h,
 * "Validity"), so the max may be taken in any order; a skipped edge axis enters as 0, which
 * cannot exceed a threshold >= 0. */
SBX_INLINE wf max_face_gap_w(const oboxw *A, const oboxw *B, const sat_pairw *P)
{
    wf proj, m = gap_face_a_w(A, B, P, 0);
    for (int i = 1; i < 3; i++)
        m = wf_max(m, gap_face_a_w(A, B, P, i));
    for (int j = 0; j < 3; j++)
        m = wf_max(m, gap_face_b_w(A, B, P, j, &proj));
    return m;
}
SBX_INLINE wf max_gap_w(const oboxw *A, const oboxw *B, wm *valid)
{
    sat_pairw P;
    pair_setup_w(A, B, &P);
    wf m = max_face_gap_w(A, B, &P);
    *valid = P.valid;
    return P.near_par ? max_edges(A, B, &P, m, 1) : max_edges(A, B, &P, m, 0);
}

/* sat_ref.h overlap(): hit = valid and no used axis with g > 0. */
SBX_INLINE void overlap_w(const oboxw *A, const oboxw *B, unsigned *hit, unsigned *inv)
{
    wm valid;
    wf m = max_gap_w(A, B, &valid);
    *hit = wm_bits(wm_and(valid, wm_le(m, wf_zero())));
    *inv = wm_bits(wm_not(valid));
}

typedef struct collide_outw {
    wf sep, n[3], id;
    unsigned hit, inv;
} collide_outw;

/* One step of the running argmax of sat_ref.h collide(): strict >, so ties keep the lower id. */
SBX_INLINE void take(wm better, wf s, wf proj, float id, wf *bs, wf *bp, wf *bid)
{
    *bs = wf_select(better, s, *bs);
    *bp = wf_select(better, proj, *bp);
    *bid = wf_select(better, wf_set1(id), *bid);
}

/* The running argmax over the used edge axes: s = g / min(|L|, 1). */
SBX_INLINE void best_edges(const oboxw *A, const oboxw *B, const sat_pairw *P, int masked, wf *bs, wf *bp, wf *bid)
{
    wf one = wf_set1(1.0f), proj;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            wf g = gap_edge_w(A, B, P, i, j, &proj);
            wf s = wf_div(g, wf_min(wf_sqrt(len2_edge_w(P, i, j)), one));
            take(used_and(P, i, j, wm_gt(s, *bs), masked), s, proj, (float)(6 + 3 * i + j), bs, bp, bid);
        }
}

/* sat_ref.h axis_normal(): the unit world normal of axis `id` per lane, from A towards B
 * (flipped where proj < 0): the axis of A (face or edge factor) and of B chosen by id, their
 * cross product normalised for edge axes, (0, 0, 0) where its length is 0 or overflows. */
SBX_INLINE void axis_normal_w(const oboxw *A, const oboxw *B, wf bid, wf proj, wf n[3])
{
    wf zero = wf_zero(), one = wf_set1(1.0f);
    wm a0 = wm_or(wm_eq(bid, zero), wm_and(wm_ge(bid, wf_set1(6.0f)), wm_lt(bid, wf_set1(9.0f))));
    wm a1 = wm_or(wm_eq(bid, one), wm_and(wm_ge(bid, wf_set1(9.0f)), wm_lt(bid, wf_set1(12.0f))));
    wm b0 = wm_or(wm_or(wm_eq(bid, wf_set1(3.0f)), wm_eq(bid, wf_set1(6.0f))),
                  wm_or(wm_eq(bid, wf_set1(9.0f)), wm_eq(bid, wf_set1(12.0f))));
    wm b1 = wm_or(wm_or(wm_eq(bid, wf_set1(4.0f)), wm_eq(bid, wf_set1(7.0f))),
                  wm_or(wm_eq(bid, wf_set1(10.0f)), wm_eq(bid, wf_set1(13.0f))));
    wf a[3], b[3];
    for (int c = 0; c < 3; c++) {
        a[c] = wf_select(a0, A->u[0][c], wf_select(a1, A->u[1][c], A->u[2][c]));
        b[c] = wf_select(b0, B->u[0][c], wf_select(b1, B->u[1][c], B->u[2][c]));
    }
    wf cx = wf_sub(wf_mul(a[1], b[2]), wf_mul(a[2], b[1]));
    wf cy = wf_sub(wf_mul(a[2], b[0]), wf_mul(a[0], b[2]));
    wf cz = wf_sub(wf_mul(a[0], b[1]), wf_mul(a[1], b[0]));
    wf len = wf_sqrt(wf_add(wf_add(wf_mul(cx, cx), wf_mul(cy, cy)), wf_mul(cz, cz)));
    /* false only with axes that break the orthonormal precondition (length 0 or overflowing:
     * the pair rule bounds |R|, not the axes' cross products) */
    wm len_ok = wm_and(wm_gt(len, zero), wm_lt(len, wf_set1(INFINITY)));
    wf e[3] = {wf_select(len_ok, wf_div(cx, len), zero), wf_select(len_ok, wf_div(cy, len), zero),
               wf_select(len_ok, wf_div(cz, len), zero)};
    wm face_a = wm_lt(bid, wf_set1(3.0f)), face_b = wm_lt(bid, wf_set1(6.0f));
    wm flip = wm_lt(proj, zero);
    for (int c = 0; c < 3; c++) {
        wf v = wf_select(face_a, a[c], wf_select(face_b, b[c], e[c]));
        n[c] = wf_select(flip, wf_neg(v), v);
    }
}

/* sat_ref.h collide(). */
SBX_INLINE void collide_w(const oboxw *A, const oboxw *B, wf margin, collide_outw *o)
{
    sat_pairw P;
    pair_setup_w(A, B, &P);
    wf zero = wf_zero(), proj;
    wf bs = gap_face_a_w(A, B, &P, 0), bp = P.t[0], bid = zero;
    for (int i = 1; i < 3; i++) {
        wf g = gap_face_a_w(A, B, &P, i);
        take(wm_gt(g, bs), g, P.t[i], (float)i, &bs, &bp, &bid);
    }
    for (int j = 0; j < 3; j++) {
        wf g = gap_face_b_w(A, B, &P, j, &proj);
        take(wm_gt(g, bs), g, proj, (float)(3 + j), &bs, &bp, &bid);
    }
    if (P.near_par)
        best_edges(A, B, &P, 1, &bs, &bp, &bid);
    else
        best_edges(A, B, &P, 0, &bs, &bp, &bid);

    wf n[3];
    axis_normal_w(A, B, bid, bp, n);
    for (int c = 0; c < 3; c++)
        o->n[c] = wf_select(P.valid, n[c], zero);
    o->sep = wf_select(P.valid, bs, wf_set1(NAN));
    o->id = wf_select(P.valid, bid, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(wm_and(P.valid, wm_le(bs, margin)));
    o->inv = wm_bits(wm_not(P.valid));
}

#endif

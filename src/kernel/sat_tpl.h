/* sat_tpl.h - the 15-axis separating axis math of one step of W pairs (overlap, collide). */
#ifndef SATBOX_SAT_TPL_H
#define SATBOX_SAT_TPL_H

#include "tpl_common.h"

/* ---- the math ----------------------------------------------------------------------------- */

/* scalar.c box_valid(). */
SBX_INLINE wm box_valid_w(const boxw *b)
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

typedef struct axesw {
    wf g[15], proj[15], len2[15];
    wm usable[15]; /* only edge entries [6, 15) are set */
} axesw;

/* scalar.c sat_axes(). */
SBX_INLINE void sat_axes_w(const boxw *A, const boxw *B, axesw *o)
{
    wf R[3][3], AR[3][3], AE[3][3], t[3], d[3];
    wf eps = wf_set1(SATBOX_EPS);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = wf_add(wf_add(wf_mul(A->u[i][0], B->u[j][0]), wf_mul(A->u[i][1], B->u[j][1])),
                             wf_mul(A->u[i][2], B->u[j][2]));
            AR[i][j] = wf_abs(R[i][j]);
            AE[i][j] = wf_add(AR[i][j], eps);
        }
    for (int c = 0; c < 3; c++)
        d[c] = wf_sub(B->c[c], A->c[c]);
    for (int i = 0; i < 3; i++)
        t[i] = wf_add(wf_add(wf_mul(d[0], A->u[i][0]), wf_mul(d[1], A->u[i][1])), wf_mul(d[2], A->u[i][2]));

    for (int i = 0; i < 3; i++) {
        wf rb = wf_add(wf_add(wf_mul(B->h[0], AR[i][0]), wf_mul(B->h[1], AR[i][1])), wf_mul(B->h[2], AR[i][2]));
        o->proj[i] = t[i];
        o->g[i] = wf_sub(wf_abs(t[i]), wf_add(A->h[i], rb));
        o->len2[i] = wf_set1(1.0f);
    }
    for (int j = 0; j < 3; j++) {
        wf ra = wf_add(wf_add(wf_mul(A->h[0], AR[0][j]), wf_mul(A->h[1], AR[1][j])), wf_mul(A->h[2], AR[2][j]));
        wf p = wf_add(wf_add(wf_mul(t[0], R[0][j]), wf_mul(t[1], R[1][j])), wf_mul(t[2], R[2][j]));
        o->proj[3 + j] = p;
        o->g[3 + j] = wf_sub(wf_abs(p), wf_add(ra, B->h[j]));
        o->len2[3 + j] = wf_set1(1.0f);
    }
    wf minlen2 = wf_set1(SATBOX_EDGE_MIN_LEN2);
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, id = 6 + 3 * i + j;
            wf ra = wf_add(wf_mul(A->h[i1], AE[i2][j]), wf_mul(A->h[i2], AE[i1][j]));
            wf rb = wf_add(wf_mul(B->h[j1], AE[i][j2]), wf_mul(B->h[j2], AE[i][j1]));
            wf p = wf_sub(wf_mul(t[i2], R[i1][j]), wf_mul(t[i1], R[i2][j]));
            wf l2 = wf_add(wf_mul(R[i1][j], R[i1][j]), wf_mul(R[i2][j], R[i2][j]));
            o->proj[id] = p;
            o->g[id] = wf_sub(wf_abs(p), wf_add(ra, rb));
            o->len2[id] = l2;
            o->usable[id] = wm_ge(l2, minlen2);
        }
    }
}

/* scalar.c ref_overlap(): *hit = valid & no usable axis with g > 0; *inv = !valid. */
SBX_INLINE void overlap_w(const boxw *A, const boxw *B, unsigned *hit, unsigned *inv)
{
    wm valid = wm_and(box_valid_w(A), box_valid_w(B));
    axesw ax;
    sat_axes_w(A, B, &ax);
    wf zero = wf_zero();
    wm sep = wm_gt(ax.g[0], zero);
    for (int k = 1; k < 6; k++)
        sep = wm_or(sep, wm_gt(ax.g[k], zero));
    for (int k = 6; k < 15; k++)
        sep = wm_or(sep, wm_and(ax.usable[k], wm_gt(ax.g[k], zero)));
    *hit = wm_bits(wm_andnot(valid, sep));
    *inv = wm_bits(wm_not(valid));
}

typedef struct collidew {
    wf sep, n[3], id;
    unsigned hit, inv;
} collidew;

/* scalar.c ref_collide(). */
SBX_INLINE void collide_w(const boxw *A, const boxw *B, wf margin, collidew *o)
{
    wm valid = wm_and(box_valid_w(A), box_valid_w(B));
    axesw ax;
    sat_axes_w(A, B, &ax);
    wf zero = wf_zero();
    wf bg = ax.g[0], bl = ax.len2[0], bs = wf_mul(ax.g[0], wf_abs(ax.g[0])), bp = ax.proj[0];
    wf bid = zero;
    for (int k = 1; k < 15; k++) {
        wf g = ax.g[k], l = ax.len2[k], s = wf_mul(g, wf_abs(g));
        wm pos = wm_gt(g, zero), bpos = wm_gt(bg, zero);
        wm gt = wm_gt(wf_mul(s, bl), wf_mul(bs, l));
        wm better = wm_or(wm_andnot(pos, bpos), wm_andnot(gt, wm_andnot(bpos, pos)));
        if (k >= 6)
            better = wm_and(better, ax.usable[k]);
        bg = wf_select(better, g, bg);
        bl = wf_select(better, l, bl);
        bs = wf_select(better, s, bs);
        bp = wf_select(better, ax.proj[k], bp);
        bid = wf_select(better, wf_set1((float)k), bid);
    }
    wf sep = wf_div(bg, wf_sqrt(bl));
    sep = wf_select(wm_eq(sep, zero), bg, sep);

    /* Normal: the axis of A (face or edge factor) and of B (face or edge factor) chosen by id. */
    wm a0 = wm_or(wm_eq(bid, zero), wm_and(wm_ge(bid, wf_set1(6.0f)), wm_lt(bid, wf_set1(9.0f))));
    wm a1 = wm_or(wm_eq(bid, wf_set1(1.0f)), wm_and(wm_ge(bid, wf_set1(9.0f)), wm_lt(bid, wf_set1(12.0f))));
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
    wm len_ok = wm_gt(len, zero); /* false only with axes that break the orthonormal precondition */
    wf e[3] = {wf_select(len_ok, wf_div(cx, len), zero), wf_select(len_ok, wf_div(cy, len), zero),
               wf_select(len_ok, wf_div(cz, len), zero)};
    wm face_a = wm_lt(bid, wf_set1(3.0f)), face_b = wm_lt(bid, wf_set1(6.0f));
    wm flip = wm_lt(bp, zero);
    for (int c = 0; c < 3; c++) {
        wf n = wf_select(face_a, a[c], wf_select(face_b, b[c], e[c]));
        n = wf_select(flip, wf_neg(n), n);
        o->n[c] = wf_select(valid, n, zero);
    }
    o->sep = wf_select(valid, sep, wf_set1(NAN));
    o->id = wf_select(valid, bid, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(wm_and(valid, wm_le(sep, margin)));
    o->inv = wm_bits(wm_not(valid));
}

#endif

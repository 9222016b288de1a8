/* contacts2d_tpl.h - the template of contacts2d_ref.c: the 2D contact manifolds of SBX_W pairs a step, and their drivers. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS2D_TPL_H
#define SATBOX_CONTACTS2D_TPL_H

#include "core/tpl_common.h"
#include "poly2d/contacts2d.h"

/* Every function mirrors the one of the same name without _w in contacts2d_ref.c,
 * operation for operation (`c ? a : b` there is wf_select here). The SAT comes from
 * sat2d_tpl.h (rect_pair_w, load_polys_w, pair_gap_w, next_axis_w), included before this file,
 * so the separation is collide's bit for bit. */

#define NV2C SATBOX2D_MAX_VERTS

typedef struct pair2dw {
    const cpolyw *a, *b;
    wf sat_sep, sat_nx, sat_ny, sat_id;
    wf ref_nx, ref_ny;
    wm ref_b;
    wf ref_edge, axis;
    wf scale, ox, oy;
    int body; /* a constant per source: the frame of the work is A's body frame */
    wf rc, rs;
    const wf *nxa, *nya, *nxb, *nyb; /* prepared sources: the unit edge normals, else NULL */
    wm valid;
    int nm; /* vertex slots worth visiting: max of both shapes' nmax */
} pair2dw;

/* ---- choose the axis: rectangles ----------------------------------------------------------- */

SBX_INLINE void rect_axis_normal_w(const orectw *a, const orectw *b, const wf p[4], wf id, wf *nx, wf *ny)
{
    wm of_a = wm_lt(id, wf_set1(2.0f));
    wm even = wm_or(wm_eq(id, wf_zero()), wm_eq(id, wf_set1(2.0f)));
    wf c = wf_select(of_a, a->u[0], b->u[0]), s = wf_select(of_a, a->u[1], b->u[1]);
    wf x = wf_select(even, c, wf_neg(s)), y = wf_select(even, s, c);
    wf pid = p[0];
    for (int e = 1; e < 4; e++)
        pid = wf_select(wm_eq(id, wf_set1((float)e)), p[e], pid);
    wm neg = wm_lt(pid, wf_zero());
    *nx = wf_select(neg, wf_neg(x), x);
    *ny = wf_select(neg, wf_neg(y), y);
}

SBX_INLINE void rect_corners_w(const orectw *r, wf ox, wf oy, cpolyw *p)
{
    wf a0x = wf_mul(r->h[0], r->u[0]), a0y = wf_mul(r->h[0], r->u[1]);
    wf a1x = wf_neg(wf_mul(r->h[1], r->u[1])), a1y = wf_mul(r->h[1], r->u[0]);
    p->x[0] = wf_add(ox, wf_sub(wf_neg(a0x), a1x));
    p->y[0] = wf_add(oy, wf_sub(wf_neg(a0y), a1y));
    p->x[1] = wf_add(ox, wf_sub(a0x, a1x));
    p->y[1] = wf_add(oy, wf_sub(a0y, a1y));
    p->x[2] = wf_add(ox, wf_add(a0x, a1x));
    p->y[2] = wf_add(oy, wf_add(a0y, a1y));
    p->x[3] = wf_add(ox, wf_add(wf_neg(a0x), a1x));
    p->y[3] = wf_add(oy, wf_add(wf_neg(a0y), a1y));
    p->nmax = 4;
    rewrap_w(p);
}

SBX_INLINE void rect_pair2d_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, cpolyw *pa, cpolyw *pb, pair2dw *q)
{
    orectw a, b;
    wf g[4], p[4];
    q->valid = rect_pair_w(job, src, i, k, &a, &b, g, p);
    wm a1 = wm_gt(g[1], g[0]), b3 = wm_gt(g[3], g[2]);
    wf ida = wf_select(a1, wf_set1(1.0f), wf_zero()), idb = wf_select(b3, wf_set1(3.0f), wf_set1(2.0f));
    wf sa = wf_select(a1, g[1], g[0]), sb = wf_select(b3, g[3], g[2]);
    wm pick_b = wm_gt(sb, sa);
    q->sat_id = wf_select(pick_b, idb, ida);
    q->sat_sep = wf_select(pick_b, sb, sa);
    rect_axis_normal_w(&a, &b, p, q->sat_id, &q->sat_nx, &q->sat_ny);
    wf la = wf_select(a1, wf_add(a.h[0], a.h[0]), wf_add(a.h[1], a.h[1]));
    wf lb = wf_select(b3, wf_add(b.h[0], b.h[0]), wf_add(b.h[1], b.h[1]));
    wf l = wf_select(wm_lt(lb, la), lb, la);
    q->ref_b = wm_gt(wf_sub(sb, sa), wf_mul(wf_set1(SATBOX2D_FLIP_TOL), l));
    q->axis = wf_select(q->ref_b, idb, ida);
    wf nx, ny;
    rect_axis_normal_w(&a, &b, p, q->axis, &nx, &ny);
    q->ref_nx = wf_select(q->ref_b, wf_neg(nx), nx);
    q->ref_ny = wf_select(q->ref_b, wf_neg(ny), ny);
    wf pax = p[0];
    for (int e = 1; e < 4; e++)
        pax = wf_select(wm_eq(q->axis, wf_set1((float)e)), p[e], pax);
    wm neg = wm_lt(pax, wf_zero());
    wf ea = wf_select(a1, wf_select(neg, wf_zero(), wf_set1(2.0f)), wf_select(neg, wf_set1(3.0f), wf_set1(1.0f)));
    wf eb = wf_select(b3, wf_select(neg, wf_set1(2.0f), wf_zero()), wf_select(neg, wf_set1(1.0f), wf_set1(3.0f)));
    q->ref_edge = wf_select(q->ref_b, eb, ea);
    wf dx = wf_sub(b.c[0], a.c[0]), dy = wf_sub(b.c[1], a.c[1]);
    rect_corners_w(&a, wf_zero(), wf_zero(), pa);
    rect_corners_w(&b, dx, dy, pb);
    q->a = pa;
    q->b = pb;
    q->scale = wf_set1(1.0f);
    q->ox = a.c[0];
    q->oy = a.c[1];
    q->body = 0;
    q->rc = q->rs = wf_zero();
    q->nxa = q->nya = q->nxb = q->nyb = NULL;
    q->nm = 4;
}

/* ---- choose the axis: polygons --------------------------------------------------------------- */

typedef struct best2dw {
    wf sep, nx, ny, len, l1, id;
} best2dw;

/* `scaled` as in sat2d_tpl.h's edge_gap_w(): a constant at each call site. */
SBX_INLINE void poly_bests_w(const cpolyw *a, const cpolyw *b, const cpolyw *bp, int scaled, best2dw best[2])
{
    for (int side = 0; side < 2; side++) {
        best[side].sep = wf_set1(-INFINITY);
        best[side].nx = best[side].ny = best[side].l1 = best[side].id = wf_zero();
        best[side].len = wf_set1(1.0f);
    }
    wf zero = wf_zero();
    for (int e = 0; e < 2 * NV2C; e = next_axis_w(a, b, e)) {
        wf enx, eny, l2, len;
        wf s = unit_gap_w(a, b, bp, e, scaled, &enx, &eny, &l2, &len);
        best2dw *o = &best[e >= NV2C];
        const cpolyw *E = e < NV2C ? a : b;
        int k = e % NV2C;
        wf l1 = wf_add(wf_abs(wf_sub(E->x[(k + 1) % NV2C], E->x[k])), wf_abs(wf_sub(E->y[(k + 1) % NV2C], E->y[k])));
        wm better = wm_and(wm_gt(l2, zero), wm_gt(s, o->sep));
        o->sep = wf_select(better, s, o->sep);
        o->nx = wf_select(better, enx, o->nx);
        o->ny = wf_select(better, eny, o->ny);
        o->len = wf_select(better, len, o->len);
        o->l1 = wf_select(better, l1, o->l1);
        o->id = wf_select(better, wf_set1((float)e), o->id);
    }
}

SBX_INLINE void poly_pair2d_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, cpolyw *a, cpolyw *b, cpolyw *bt,
                              pair2dw *q)
{
    const cpolyw *bp;
    q->scale = load_polys_w(job, src, i, k, a, b, bt, &bp);
    q->valid = wm_and(a->valid, b->valid);
    best2dw best[2];
    if (a->scaled || b->scaled)
        poly_bests_w(a, b, bp, 1, best);
    else
        poly_bests_w(a, b, bp, 0, best);
    wm pick_b = wm_gt(best[1].sep, best[0].sep);
    q->sat_id = wf_select(pick_b, best[1].id, best[0].id);
    q->sat_sep = wf_select(pick_b, best[1].sep, best[0].sep);
    wf nx = wf_div(wf_select(pick_b, best[1].nx, best[0].nx), wf_select(pick_b, best[1].len, best[0].len));
    wf ny = wf_div(wf_select(pick_b, best[1].ny, best[0].ny), wf_select(pick_b, best[1].len, best[0].len));
    q->sat_nx = wf_select(pick_b, wf_neg(nx), nx);
    q->sat_ny = wf_select(pick_b, wf_neg(ny), ny);
    wf l = wf_select(wm_lt(best[1].l1, best[0].l1), best[1].l1, best[0].l1);
    q->ref_b = wm_gt(wf_sub(best[1].sep, best[0].sep), wf_mul(wf_set1(SATBOX2D_FLIP_TOL), l));
    q->axis = wf_select(q->ref_b, best[1].id, best[0].id);
    q->ref_nx = wf_div(wf_select(q->ref_b, best[1].nx, best[0].nx), wf_select(q->ref_b, best[1].len, best[0].len));
    q->ref_ny = wf_div(wf_select(q->ref_b, best[1].ny, best[0].ny), wf_select(q->ref_b, best[1].len, best[0].len));
    q->ref_edge = wf_select(q->ref_b, wf_sub(q->axis, wf_set1((float)NV2C)), q->axis);
    q->a = a;
    q->b = bp;
    q->ox = q->oy = wf_zero();
    if (sbx_src2d_a_rect(src)) { /* the pair worked relative to the rectangle's center */
        q->ox = ld(job->ra->center[0], i, k);
        q->oy = ld(job->ra->center[1], i, k);
    }
    q->nm = a->nmax > bp->nmax ? a->nmax : bp->nmax;
    q->body = 0;
    q->rc = q->rs = wf_zero();
    q->nxa = q->nya = q->nxb = q->nyb = NULL;
}

/* ---- choose the axis: prepared polygons ------------------------------------------------------ */

/* Each side's best axis over the pair's class n (a constant: poly2d.h SBX_BY_COUNT2D). */
SBX_INLINE void prep_best2_w(const ppairw *pp, best2dw best[2], const int n)
{
    for (int t = 0; t < 2 * n; t++) {
        int e = PREP_AXIS(t, n);
        wf g = prep_gap_w(pp, e, n);
        best2dw *o = &best[e >= NV2C];
        const ppolyw *E = e < NV2C ? &pp->a : &pp->b;
        int kk = e % NV2C;
        wf l1 = wf_add(wf_abs(wf_sub(E->p.x[(kk + 1) % NV2C], E->p.x[kk])),
                       wf_abs(wf_sub(E->p.y[(kk + 1) % NV2C], E->p.y[kk])));
        wm better = wm_gt(g, o->sep);
        o->sep = wf_select(better, g, o->sep);
        o->nx = wf_select(better, E->nx[kk], o->nx);
        o->ny = wf_select(better, E->ny[kk], o->ny);
        o->l1 = wf_select(better, l1, o->l1);
        o->id = wf_select(better, wf_set1((float)e), o->id);
    }
}

SBX_INLINE void prep_pair2d_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, ppairw *pp, pair2dw *q)
{
    load_prep_pair_w(job, src, i, k, pp);
    q->scale = pp->scale;
    q->valid = pp->valid;
    best2dw best[2];
    for (int side = 0; side < 2; side++) {
        best[side].sep = wf_set1(-INFINITY);
        best[side].nx = best[side].ny = best[side].l1 = best[side].id = wf_zero();
        best[side].len = wf_set1(1.0f);
    }
    SBX_BY_COUNT2D(pp->n, prep_best2_w, pp, best);
    wm pick_b = wm_gt(best[1].sep, best[0].sep);
    q->sat_id = wf_select(pick_b, best[1].id, best[0].id);
    q->sat_sep = wf_select(pick_b, best[1].sep, best[0].sep);
    q->sat_nx = wf_select(pick_b, wf_neg(best[1].nx), best[0].nx);
    q->sat_ny = wf_select(pick_b, wf_neg(best[1].ny), best[0].ny);
    wf l = wf_select(wm_lt(best[1].l1, best[0].l1), best[1].l1, best[0].l1);
    q->ref_b = wm_gt(wf_sub(best[1].sep, best[0].sep), wf_mul(wf_set1(SATBOX2D_FLIP_TOL), l));
    q->axis = wf_select(q->ref_b, best[1].id, best[0].id);
    q->ref_nx = wf_select(q->ref_b, best[1].nx, best[0].nx);
    q->ref_ny = wf_select(q->ref_b, best[1].ny, best[0].ny);
    q->ref_edge = wf_select(q->ref_b, wf_sub(q->axis, wf_set1((float)NV2C)), q->axis);
    q->a = &pp->a.p;
    q->b = &pp->b.p;
    q->ox = pp->ox;
    q->oy = pp->oy;
    q->body = sbx_src2d_is_body(src);
    q->rc = pp->rc;
    q->rs = pp->rs;
    q->nxa = pp->a.nx;
    q->nya = pp->a.ny;
    q->nxb = pp->b.nx;
    q->nyb = pp->b.ny;
    q->nm = pp->a.p.nmax > pp->b.p.nmax ? pp->a.p.nmax : pp->b.p.nmax;
}

/* ---- the manifold: incident edge, clipping, kept points ------------------------------------- */

typedef struct man2dw {
    wf normal[2], sep, axis, flags, bad;
    wm keep[2];
    wf px[2], py[2], psep[2], id[2];
} man2dw;

SBX_INLINE void manifold2d_w(const pair2dw *q, wf margin, man2dw *o)
{
    wf zero = wf_zero(), one = wf_set1(1.0f);
    wm rb = q->ref_b;
    wf kr = q->ref_edge;
    wf nox = q->ref_nx, noy = q->ref_ny, tx = wf_neg(noy), ty = nox;
    /* The reference edge's ends: per lane, A's or B's vertex slots. */
    wf r1x = zero, r1y = zero, r2x = zero, r2y = zero;
    for (int k = 0; k < q->nm; k++) {
        int k1 = (k + 1) % NV2C;
        wm is_kr = wm_eq(kr, wf_set1((float)k));
        r1x = wf_select(is_kr, wf_select(rb, q->b->x[k], q->a->x[k]), r1x);
        r1y = wf_select(is_kr, wf_select(rb, q->b->y[k], q->a->y[k]), r1y);
        r2x = wf_select(is_kr, wf_select(rb, q->b->x[k1], q->a->x[k1]), r2x);
        r2y = wf_select(is_kr, wf_select(rb, q->b->y[k1], q->a->y[k1]), r2y);
    }
    /* The incident shape's vertex slots and their depths below the reference line (slot nm, when
     * below 8, holds vertex 0 in every lane: the end of edge nm - 1); the deepest (ties: lowest slot). */
    wf dv[NV2C]; /* the vertices themselves are selected again where used (a smaller frame) */
    int ns = q->nm < NV2C ? q->nm + 1 : NV2C;
    wf dmin = wf_set1(INFINITY), kv = zero, fx = zero, fy = zero;
    for (int k = 0; k < ns; k++) {
        wf ix = wf_select(rb, q->a->x[k], q->b->x[k]), iy = wf_select(rb, q->a->y[k], q->b->y[k]);
        dv[k] = wf_add(wf_mul(nox, wf_sub(ix, r1x)), wf_mul(noy, wf_sub(iy, r1y)));
        if (k < q->nm) {
            wm deeper = wm_lt(dv[k], dmin);
            dmin = wf_select(deeper, dv[k], dmin);
            kv = wf_select(deeper, wf_set1((float)k), kv);
            fx = wf_select(deeper, ix, fx);
            fy = wf_select(deeper, iy, fy);
        }
    }
    /* The incident edge: of the edges holding a vertex that deep, the most anti-parallel. */
    wf best = wf_set1(INFINITY), ki = zero;
    wf v1x = wf_select(rb, q->a->x[0], q->b->x[0]), v1y = wf_select(rb, q->a->y[0], q->b->y[0]);
    wf v2x = v1x, v2y = v1y;
    for (int k = 0; k < q->nm; k++) {
        int k1 = (k + 1) % NV2C;
        wf ix0 = wf_select(rb, q->a->x[k], q->b->x[k]), iy0 = wf_select(rb, q->a->y[k], q->b->y[k]);
        wf ix1 = wf_select(rb, q->a->x[k1], q->b->x[k1]), iy1 = wf_select(rb, q->a->y[k1], q->b->y[k1]);
        wf ex = wf_sub(ix1, ix0), ey = wf_sub(iy1, iy0);
        wf l2 = wf_add(wf_mul(ex, ex), wf_mul(ey, ey));
        wf d;
        if (q->nxa) {
            wf inx = wf_select(rb, q->nxa[k], q->nxb[k]), iny = wf_select(rb, q->nya[k], q->nyb[k]);
            d = wf_add(wf_mul(inx, nox), wf_mul(iny, noy));
        } else {
            d = wf_div(wf_sub(wf_mul(ey, nox), wf_mul(ex, noy)), wf_sqrt(l2));
        }
        wm holds = wm_or(wm_eq(dv[k], dmin), wm_eq(dv[k1], dmin));
        wm better = wm_and(wm_and(wm_gt(l2, zero), holds), wm_lt(d, best));
        best = wf_select(better, d, best);
        ki = wf_select(better, wf_set1((float)k), ki);
        v1x = wf_select(better, ix0, v1x);
        v1y = wf_select(better, iy0, v1y);
        v2x = wf_select(better, ix1, v2x);
        v2y = wf_select(better, iy1, v2y);
    }
    /* Clip to the reference edge's side planes: along t, relative to r1, [0, hi]. */
    wf erx = wf_sub(r2x, r1x), ery = wf_sub(r2y, r1y);
    wf hi = wf_add(wf_mul(tx, erx), wf_mul(ty, ery));
    wf vx[2] = {v1x, v2x}, vy[2] = {v1y, v2y}, s[2], d[2];
    for (int j = 0; j < 2; j++) {
        wf wx = wf_sub(vx[j], r1x), wy = wf_sub(vy[j], r1y);
        s[j] = wf_add(wf_mul(tx, wx), wf_mul(ty, wy));
        d[j] = wf_add(wf_mul(nox, wx), wf_mul(noy, wy));
    }
    wf px[2], py[2], sep[2];
    for (int j = 0; j < 2; j++) {
        int oj = 1 - j;
        wf u = wf_select(wm_lt(s[j], zero), zero, s[j]);
        u = wf_select(wm_gt(u, hi), hi, u);
        wf den = wf_sub(s[oj], s[j]);
        wf mu = wf_select(wm_not(wm_eq(den, zero)), wf_div(wf_sub(u, s[j]), den), zero);
        mu = wf_select(wm_lt(mu, zero), zero, mu);
        mu = wf_select(wm_gt(mu, one), one, mu);
        px[j] = wf_add(vx[j], wf_mul(wf_sub(vx[oj], vx[j]), mu));
        py[j] = wf_add(vy[j], wf_mul(wf_sub(vy[oj], vy[j]), mu));
        sep[j] = wf_add(d[j], wf_mul(wf_sub(d[oj], d[j]), mu));
    }
    /* Kept points: within the margin (at the pair's scale); two points too close merge into end 0. */
    wf ms = wf_mul(margin, q->scale);
    wm beyond = wm_or(wm_and(wm_lt(s[0], zero), wm_lt(s[1], zero)), wm_and(wm_gt(s[0], hi), wm_gt(s[1], hi)));
    wm go = wm_andnot(wm_and(q->valid, wm_le(q->sat_sep, ms)), beyond);
    wm keep0 = wm_and(go, wm_le(sep[0], ms)), keep1 = wm_and(go, wm_le(sep[1], ms));
    wf gap = wf_add(wf_abs(wf_sub(px[0], px[1])), wf_abs(wf_sub(py[0], py[1])));
    wf lref = wf_add(wf_abs(erx), wf_abs(ery));
    keep1 = wm_andnot(keep1, wm_and(keep0, wm_le(gap, wf_mul(wf_set1(SATBOX2D_MERGE_TOL), lref))));
    /* The fallback: one point at the deepest vertex (its own feature, end 2). */
    wm fallback = wm_and(wm_and(q->valid, wm_le(q->sat_sep, ms)), wm_le(dmin, ms));
    fallback = wm_andnot(fallback, wm_or(keep0, keep1));
    px[0] = wf_select(fallback, fx, px[0]);
    py[0] = wf_select(fallback, fy, py[0]);
    sep[0] = wf_select(fallback, dmin, sep[0]);
    keep0 = wm_or(keep0, fallback);
    /* Back to the world. */
    wf inv = wf_div(one, q->scale);
    wf fbase = wf_add(wf_select(rb, wf_set1(4096.0f), zero), wf_mul(kr, wf_set1(256.0f)));
    wf fid = wf_add(fbase, wf_mul(ki, wf_set1(16.0f)));
    wf fid0 = wf_select(fallback, wf_add(fbase, wf_add(wf_mul(kv, wf_set1(16.0f)), wf_set1((float)SATBOX2D_FEATURE_VERTEX))), fid);
    for (int j = 0; j < 2; j++) {
        wf lx = wf_mul(px[j], inv), ly = wf_mul(py[j], inv);
        if (q->body) {
            o->px[j] = wf_add(q->ox, wf_sub(wf_mul(q->rc, lx), wf_mul(q->rs, ly)));
            o->py[j] = wf_add(q->oy, wf_add(wf_mul(q->rs, lx), wf_mul(q->rc, ly)));
        } else {
            o->px[j] = wf_add(lx, q->ox);
            o->py[j] = wf_add(ly, q->oy);
        }
        o->psep[j] = wf_add(wf_mul(sep[j], inv), zero);
        o->id[j] = j == 0 ? fid0 : wf_add(fid, wf_set1(1.0f));
    }
    o->keep[0] = keep0;
    o->keep[1] = keep1;
    wf out_sep = wf_add(wf_mul(q->sat_sep, inv), zero);
    out_sep = wf_select(wm_and(wm_eq(out_sep, zero), wm_gt(q->sat_sep, zero)), wf_set1(0x1p-149f), out_sep);
    wf flags = wf_add(wf_select(rb, wf_set1((float)SATBOX2D_MANIFOLD_REF_B), zero),
                      wf_select(wm_not(wm_eq(q->sat_id, q->axis)), wf_set1((float)SATBOX2D_MANIFOLD_KEPT_A), zero));
    wm v = q->valid;
    wf wnx, wny;
    to_world_dir_w(q->body, q->rc, q->rs, wf_select(rb, wf_neg(nox), nox), wf_select(rb, wf_neg(noy), noy), &wnx, &wny);
    o->normal[0] = wf_select(v, wnx, zero);
    o->normal[1] = wf_select(v, wny, zero);
    o->sep = wf_select(v, out_sep, wf_set1(NAN));
    o->flags = wf_select(v, flags, zero);
    o->axis = wf_select(v, q->axis, wf_set1((float)SATBOX_AXIS_INVALID));
    o->bad = wf_select(v, zero, one);
}

/* ---- driver ------------------------------------------------------------------------------- */

/* The records of a step's k lanes: lane l to out[l] (ord NULL) or out[ord[l]]; returns how many
 * have points (hits[], when given, gets 1 for those). */
SBX_INLINE size_t put_manifolds2d(const man2dw *o, int k, satbox2d_manifold *out, const uint8_t *ord)
{
    float nx[SBX_W], ny[SBX_W], sep[SBX_W], axis[SBX_W], flags[SBX_W], bad[SBX_W];
    float px[2][SBX_W], py[2][SBX_W], ps[2][SBX_W], id[2][SBX_W];
    wf_storeu(nx, o->normal[0]);
    wf_storeu(ny, o->normal[1]);
    wf_storeu(sep, o->sep);
    wf_storeu(axis, o->axis);
    wf_storeu(flags, o->flags);
    wf_storeu(bad, o->bad);
    for (int j = 0; j < 2; j++) {
        wf_storeu(px[j], o->px[j]);
        wf_storeu(py[j], o->py[j]);
        wf_storeu(ps[j], o->psep[j]);
        wf_storeu(id[j], o->id[j]);
    }
    unsigned keep[2] = {wm_bits(o->keep[0]), wm_bits(o->keep[1])};
    size_t count = 0;
    for (int l = 0; l < k; l++) {
        float qx[2] = {0.0f, 0.0f}, qy[2] = {0.0f, 0.0f}, qs[2] = {0.0f, 0.0f};
        uint32_t qid[2] = {0, 0};
        unsigned c = 0;
        for (int j = 0; j < 2; j++) {
            if (!(keep[j] >> l & 1u))
                continue;
            qx[c] = px[j][l];
            qy[c] = py[j][l];
            qs[c] = ps[j][l];
            qid[c] = (uint32_t)id[j][l];
            c++;
        }
        float normal[2] = {nx[l], ny[l]};
        sbx_put_manifold2d(&out[ord ? ord[l] : l], normal, sep[l], c, (unsigned)axis[l], (unsigned)bad[l],
                           (unsigned)flags[l], qx, qy, qs, qid);
        count += c > 0;
    }
    return count;
}

/* One step: the manifolds of lanes [i, i + k) of the job. */
SBX_INLINE void contacts2d_step_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, wf margin, man2dw *o)
{
    cpolyw a, b, bt;
    ppairw pp;
    pair2dw q;
    if (sbx_src2d_is_rects(src))
        rect_pair2d_w(job, src, i, k, &a, &b, &q);
    else if (sbx_src2d_is_prep(src))
        prep_pair2d_w(job, src, i, k, &pp, &q);
    else
        poly_pair2d_w(job, src, i, k, &a, &b, &bt, &q);
    manifold2d_w(&q, margin, o);
}

SBX_INLINE ptrdiff_t run2d_contacts(const sbx_cjob2d *cj, sbx_src2d src)
{
    const sbx_job2d *job = &cj->pair;
    wf margin = wf_set1(job->margin);
    size_t count = 0, n = job->n;
    if (sbx_src2d_is_prep(src)) { /* in the order of their classes (sat2d_tpl.h run2d_prep) */
        for (size_t i0 = 0; i0 < n; i0 += SBX_BLOCK2D) {
            int m = n - i0 >= SBX_BLOCK2D ? SBX_BLOCK2D : (int)(n - i0);
            sbx_plan2d plan;
            prep_plan_w(job, src, i0, m, &plan);
            const uint8_t *ord = plan.ord;
            sbx_job2d js = *job;
            js.pairs = job->pairs + i0;
            js.plan = &plan;
            for (int s = 0; s < m; s += SBX_W) {
                int k = m - s >= SBX_W ? SBX_W : m - s;
                man2dw o;
                contacts2d_step_w(&js, src, (size_t)s, k, margin, &o);
                count += put_manifolds2d(&o, k, cj->out + i0, ord + s);
            }
        }
        return (ptrdiff_t)count;
    }
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        man2dw o;
        contacts2d_step_w(job, src, i, k, margin, &o);
        count += put_manifolds2d(&o, k, cj->out + i, NULL);
    }
    return (ptrdiff_t)count;
}

/* One function per source, contacts2d_<NAME> from SBX_SOURCES2D (SBX_NOINLINE, as sat2d_tpl.h's). */
#define SBX_RUN2DC(name, ...) \
    static SBX_NOINLINE ptrdiff_t contacts2d_##name(const sbx_cjob2d *job) { return run2d_contacts(job, SBX2D_##name); }
SBX_SOURCES2D(SBX_RUN2DC)
#undef SBX_RUN2DC

static ptrdiff_t kernel_contacts2d(const sbx_cjob2d *job)
{
    switch (job->pair.src) {
#define SBX_CASE2D(name, ...) case SBX2D_##name: return contacts2d_##name(job);
        SBX_SOURCES2D(SBX_CASE2D)
#undef SBX_CASE2D
    default: return SATBOX_ERR_ARG;
    }
}

#undef NV2C

#endif

/* sat2d_tpl.h - the template of sat2d_ref.c: the 2D SAT (rectangles, convex polygons) of SBX_W pairs a step, and its drivers. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SAT2D_TPL_H
#define SATBOX_SAT2D_TPL_H

#include "core/tpl_common.h"
#include "poly2d/poly2d.h"

/* Every function mirrors the one of the same name without _w in sat2d_ref.c, operation for
 * operation; `c ? a : b` there is wf_select here. Uses ld() (sources_tpl.h) and wm_store_bits(),
 * push_compact(), store_w() (batch_tpl.h), included before this file. */

#define NV2 SATBOX2D_MAX_VERTS

typedef struct orectw {
    wf c[2], h[2], u[2];
} orectw;

typedef struct cpolyw {
    wf x[NV2], y[NV2]; /* wrapped: slots at or past the count hold vertex 0; times `scale` (sat2d_ref.c) */
    wf scale;          /* the own prescale, then (pair_scale_w) the edge factor own / pair */
    int scaled;        /* some lane's `scale` is not 1 (else the multiplies by it are skipped: same bits) */
    wm valid;
    int checked; /* `valid` holds the polygon rule (else poly_check_w() computes it from cnt, size) */
    int nmax; /* the largest count (clamped to 1..8) of the step's live lanes: slots and edges from
                 nmax on repeat vertex 0 in every lane, so loops stop there with the same bits */
    wf cnt, size; /* the count and the size (poly_wrap_w()), for a poly_check_w() after the load */
} cpolyw;

/* ---- validity ----------------------------------------------------------------------------- */

SBX_INLINE wf rect_size_w(const orectw *r)
{
    return wf_add(wf_add(wf_add(wf_abs(r->c[0]), wf_abs(r->c[1])), r->h[0]), r->h[1]);
}

SBX_INLINE wm rect_valid_w(const orectw *r)
{
    wf size = rect_size_w(r);
    wf du = wf_abs(wf_sub(wf_add(wf_mul(r->u[0], r->u[0]), wf_mul(r->u[1], r->u[1])), wf_set1(1.0f)));
    wf zero = wf_zero();
    wm ok = wm_and(wm_ge(r->h[0], zero), wm_ge(r->h[1], zero));
    ok = wm_and(ok, wm_le(size, wf_set1(SATBOX2D_COORD_LIMIT)));
    return wm_and(ok, wm_le(du, wf_set1(SATBOX2D_UNIT_TOL)));
}

/* sat2d_ref.c turn_ok(), with the L1 lengths la = |ax| + |ay|, lb = |bx| + |by| passed in (each
 * vector takes part in two tests: computed once, the same bits). */
SBX_INLINE wm turn_ok_w(wf ax, wf ay, wf la, wf bx, wf by, wf lb)
{
    wf cr = wf_sub(wf_mul(ax, by), wf_mul(ay, bx));
    return wm_ge(cr, wf_neg(wf_mul(wf_set1(SATBOX2D_CONVEX_TOL), wf_mul(la, lb))));
}

SBX_INLINE wf l1_w(wf x, wf y) { return wf_add(wf_abs(x), wf_abs(y)); }

/* Edges, turns and fan vectors from p->nmax on are zero in every lane, and a zero vector passes
 * every test: the loops stop there (same bits). */
SBX_INLINE wm poly_convex_w(const cpolyw *p, wf cnt, wm *any_edge)
{
    wf ex[NV2], ey[NV2], le[NV2], zero = wf_zero();
    int nm = p->nmax;
    *any_edge = wm_lt(zero, zero);
    for (int k = 0; k < nm; k++) {
        ex[k] = wf_sub(p->x[(k + 1) % NV2], p->x[k]);
        ey[k] = wf_sub(p->y[(k + 1) % NV2], p->y[k]);
        le[k] = l1_w(ex[k], ey[k]);
        *any_edge = wm_or(*any_edge, wm_gt(wf_add(wf_mul(ex[k], ex[k]), wf_mul(ey[k], ey[k])), zero));
    }
    wf lx = p->x[2], ly = p->y[2];
    for (int k = 3; k < nm; k++) {
        wm used = wm_lt(wf_set1((float)k), cnt);
        lx = wf_select(used, p->x[k], lx);
        ly = wf_select(used, p->y[k], ly);
    }
    wf cx = wf_sub(p->x[0], lx), cy = wf_sub(p->y[0], ly);
    wm convex = turn_ok_w(cx, cy, l1_w(cx, cy), ex[0], ey[0], le[0]);
    for (int k = 0; k < nm - 1; k++)
        convex = wm_and(convex, turn_ok_w(ex[k], ey[k], le[k], ex[k + 1], ey[k + 1], le[k + 1]));
    /* The fan from vertex 0: r_k = v[k] - v[0]. */
    wf rx[NV2], ry[NV2], lr[NV2];
    for (int k = 1; k < nm; k++) {
        rx[k] = wf_sub(p->x[k], p->x[0]);
        ry[k] = wf_sub(p->y[k], p->y[0]);
        lr[k] = l1_w(rx[k], ry[k]);
    }
    for (int k = 1; k < nm - 1; k++)
        convex = wm_and(convex, turn_ok_w(rx[k], ry[k], lr[k], rx[k + 1], ry[k + 1], lr[k + 1]));
    return convex;
}

SBX_INLINE wf prescale_w(wf size)
{
    wf big = wf_select(wm_lt(size, wf_set1(0x1p-80f)), wf_set1(0x1p120f), wf_set1(0x1p60f));
    return wf_select(wm_lt(size, wf_set1(0x1p-20f)), big, wf_set1(1.0f));
}

SBX_INLINE int any_not_one_w(wf f) { return wm_bits(wm_not(wm_eq(f, wf_set1(1.0f)))) != 0; }

/* Slots from p->nmax on repeat vertex 0 in every lane: after a change of vertices 0..nmax-1 they
 * are copied again, which gives the bits of sat2d_ref.c changing all 8 the same way. */
SBX_INLINE void rewrap_w(cpolyw *p)
{
    for (int k = p->nmax; k < NV2; k++) {
        p->x[k] = p->x[0];
        p->y[k] = p->y[0];
    }
}

SBX_INLINE void poly_mul_w(cpolyw *p, wf f)
{
    for (int k = 0; k < p->nmax; k++) {
        p->x[k] = wf_mul(p->x[k], f);
        p->y[k] = wf_mul(p->y[k], f);
    }
    rewrap_w(p);
}

/* p->nmax must be set: slots from it on are unused in every lane (they add +0 to the size). */
SBX_INLINE wf poly_wrap_w(const wf x[NV2], const wf y[NV2], wf cnt, cpolyw *p)
{
    wf size = wf_zero(), zero = wf_zero();
    for (int k = 0; k < NV2; k++) {
        wm used = wm_lt(wf_set1((float)k), cnt);
        p->x[k] = wf_select(used, x[k], x[0]);
        p->y[k] = wf_select(used, y[k], y[0]);
        if (k < p->nmax)
            size = wf_add(size, wf_select(used, wf_add(wf_abs(p->x[k]), wf_abs(p->y[k])), zero));
    }
    p->scale = prescale_w(size);
    p->scaled = any_not_one_w(p->scale);
    if (p->scaled)
        poly_mul_w(p, p->scale);
    return size;
}

/* sat2d_ref.c poly_check(): the polygon rule on p's own prescaled vertices, once (before
 * pair_scale_w() changes them, or after it when it changed nothing: no lane prescaled). */
SBX_INLINE void poly_check_w(cpolyw *p)
{
    if (p->checked)
        return;
    wm any_edge, convex = poly_convex_w(p, p->cnt, &any_edge);
    wm ok = wm_and(wm_ge(p->cnt, wf_set1(3.0f)), wm_le(p->cnt, wf_set1(8.0f)));
    ok = wm_and(ok, wm_le(p->size, wf_set1(SATBOX2D_COORD_LIMIT)));
    p->valid = wm_and(wm_and(ok, convex), any_edge);
    p->checked = 1;
}

/* Raw slots, count -> prescaled wrapped vertices, not checked yet (sat2d_ref.c poly_make()). */
SBX_INLINE void poly_make_w(const wf x[NV2], const wf y[NV2], wf cnt, cpolyw *p)
{
    p->size = poly_wrap_w(x, y, cnt, p);
    p->cnt = cnt;
    p->checked = 0;
    p->valid = wm_lt(cnt, cnt); /* none, until poly_check_w() (set here so that no path reads it unset) */
}

SBX_INLINE void poly_from_rect_w(const orectw *r, cpolyw *p)
{
    wf a0x = wf_mul(r->h[0], r->u[0]), a0y = wf_mul(r->h[0], r->u[1]);
    wf a1x = wf_neg(wf_mul(r->h[1], r->u[1])), a1y = wf_mul(r->h[1], r->u[0]);
    wf x[NV2], y[NV2];
    x[0] = wf_sub(wf_neg(a0x), a1x);
    y[0] = wf_sub(wf_neg(a0y), a1y);
    x[1] = wf_sub(a0x, a1x);
    y[1] = wf_sub(a0y, a1y);
    x[2] = wf_add(a0x, a1x);
    y[2] = wf_add(a0y, a1y);
    x[3] = wf_add(wf_neg(a0x), a1x);
    y[3] = wf_add(wf_neg(a0y), a1y);
    for (int k = 4; k < NV2; k++)
        x[k] = y[k] = wf_zero(); /* unused */
    wm any_edge;
    p->nmax = 4;
    p->cnt = wf_set1(4.0f);
    p->size = poly_wrap_w(x, y, p->cnt, p);
    p->valid = wm_and(rect_valid_w(r), poly_convex_w(p, p->cnt, &any_edge));
    p->checked = 1;
}

/* sat2d_ref.c pair_scale(): the multiplies by 1 skipped when no lane needs them (same bits). */
SBX_INLINE wf pair_scale_w(cpolyw *a, cpolyw *b, wf limit)
{
    wf s = wf_min(a->scale, b->scale);
    s = wf_min(limit, s);
    if (a->scaled || b->scaled || any_not_one_w(s)) {
        poly_mul_w(a, wf_div(s, a->scale));
        poly_mul_w(b, wf_div(s, b->scale));
        a->scale = wf_div(a->scale, s);
        b->scale = wf_div(b->scale, s);
        a->scaled = any_not_one_w(a->scale);
        b->scaled = any_not_one_w(b->scale);
    }
    return s;
}

/* ---- loading ------------------------------------------------------------------------------ */

/* Lanes [i, i + k) (idx == NULL) or pool entries idx[l] (lanes past k use entry 0). */
SBX_INLINE wf ld2d(const float *p, const int32_t *idx, size_t i, int k)
{
    return idx ? wf_gather(p, idx) : ld(p, i, k);
}

SBX_INLINE void load_rect_w(const satbox2d_rects *s, const int32_t *idx, size_t i, int k, orectw *r)
{
    for (int c = 0; c < 2; c++) {
        r->c[c] = ld2d(s->center[c], idx, i, k);
        r->h[c] = ld2d(s->half[c], idx, i, k);
        r->u[c] = ld2d(s->axis[c], idx, i, k);
    }
}

/* Polygon lanes as ld2d() reads them, prescaled and wrapped; the rule not checked yet. */
SBX_INLINE void load_poly_raw_w(const satbox2d_polys *s, const int32_t *idx, size_t i, int k, cpolyw *p)
{
    wf x[NV2], y[NV2];
    for (int v = 0; v < NV2; v++) {
        x[v] = ld2d(s->x[v], idx, i, k);
        y[v] = ld2d(s->y[v], idx, i, k);
    }
    float cnt[SBX_W];
    int nmax = 1;
    for (int l = 0; l < SBX_W; l++) {
        int c = l >= k ? 0 : idx ? s->count[idx[l]] : s->count[i + (size_t)l];
        cnt[l] = (float)c;
        nmax = c > nmax ? c : nmax;
    }
    p->nmax = nmax < NV2 ? nmax : NV2;
    poly_make_w(x, y, wf_loadu(cnt), p);
}

/* load_poly_raw_w() and the polygon rule. */
SBX_INLINE void load_poly_w(const satbox2d_polys *s, const int32_t *idx, size_t i, int k, cpolyw *p)
{
    load_poly_raw_w(s, idx, i, k, p);
    poly_check_w(p);
}

SBX_INLINE void pool_idx(const satbox_pair *pairs, size_t i, int k, int32_t *ia, int32_t *ib)
{
    for (int l = 0; l < SBX_W; l++) {
        ia[l] = l < k ? (int32_t)pairs[i + (size_t)l].a : 0;
        ib[l] = l < k ? (int32_t)pairs[i + (size_t)l].b : 0;
    }
}

/* The sources of SBX_SOURCES2D read by their columns (`src` is a constant at every call site):
 * lanes [i, i + k) of side A and B, by index pairs into A's array for a pool source. */
SBX_INLINE void side_idx(const sbx_job2d *job, sbx_src2d src, size_t i, int k, int32_t *ia, int32_t *ib,
                         const int32_t **pa, const int32_t **pb)
{
    *pa = *pb = NULL;
    if (sbx_src2d_is_pool(src)) {
        pool_idx(job->pairs, i, k, ia, ib);
        *pa = ia;
        *pb = ib;
    }
}

SBX_INLINE void load_rects_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, orectw *a, orectw *b)
{
    int32_t ia[SBX_W], ib[SBX_W];
    const int32_t *pa, *pb;
    side_idx(job, src, i, k, ia, ib, &pa, &pb);
    load_rect_w(job->ra, pa, i, k, a);
    load_rect_w(sbx_src2d_is_pool(src) ? job->ra : job->rb, pb, i, k, b);
}

/* sat2d_ref.c load_pair(): with `lazy` (a constant at each call site), the polygon rule is left to
 * a later poly_check_w() when pair_scale_w() changes no vertex (no lane prescaled). */
SBX_INLINE wf load_pair_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, cpolyw *a, cpolyw *b, cpolyw *bt,
                          const cpolyw **bp, int lazy)
{
    *bp = b;
    wf limit = wf_set1(0x1p120f); /* no limit: the largest prescale */
    int32_t ia[SBX_W], ib[SBX_W];
    const int32_t *pa, *pb;
    side_idx(job, src, i, k, ia, ib, &pa, &pb);
    orectw r;
    if (sbx_src2d_a_rect(src)) { /* a rectangle as a 4-vertex polygon, limiting the prescale */
        load_rect_w(job->ra, pa, i, k, &r);
        poly_from_rect_w(&r, a);
        limit = prescale_w(rect_size_w(&r));
    } else {
        load_poly_raw_w(job->pa, pa, i, k, a);
    }
    load_poly_raw_w(sbx_src2d_is_pool(src) ? job->pa : job->pb, pb, i, k, b);
    if (!lazy || a->scaled || b->scaled) {
        poly_check_w(a);
        poly_check_w(b);
    }
    wf s = pair_scale_w(a, b, limit);
    if (sbx_src2d_a_rect(src)) { /* relative to the rectangle's center */
        wf cx = wf_mul(r.c[0], s), cy = wf_mul(r.c[1], s);
        bt->nmax = b->nmax;
        for (int v = 0; v < b->nmax; v++) {
            bt->x[v] = wf_sub(b->x[v], cx);
            bt->y[v] = wf_sub(b->y[v], cy);
        }
        rewrap_w(bt);
        *bp = bt;
    }
    return s;
}

/* sat2d_ref.c load_polys(): load_pair_w() with both polygons checked. */
SBX_INLINE wf load_polys_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, cpolyw *a, cpolyw *b, cpolyw *bt,
                           const cpolyw **bp)
{
    return load_pair_w(job, src, i, k, a, b, bt, bp, 0);
}

/* ---- the math ----------------------------------------------------------------------------- */

SBX_INLINE void rect_axes_w(const orectw *A, const orectw *B, wf g[4], wf p[4])
{
    wf ca = A->u[0], sa = A->u[1], cb = B->u[0], sb = B->u[1];
    wf c = wf_add(wf_mul(ca, cb), wf_mul(sa, sb)), s = wf_sub(wf_mul(sa, cb), wf_mul(ca, sb));
    wf ac = wf_abs(c), as = wf_abs(s);
    wf dx = wf_sub(B->c[0], A->c[0]), dy = wf_sub(B->c[1], A->c[1]);
    p[0] = wf_add(wf_mul(dx, ca), wf_mul(dy, sa));
    p[1] = wf_sub(wf_mul(dy, ca), wf_mul(dx, sa));
    p[2] = wf_add(wf_mul(dx, cb), wf_mul(dy, sb));
    p[3] = wf_sub(wf_mul(dy, cb), wf_mul(dx, sb));
    g[0] = wf_sub(wf_abs(p[0]), wf_add(A->h[0], wf_add(wf_mul(B->h[0], ac), wf_mul(B->h[1], as))));
    g[1] = wf_sub(wf_abs(p[1]), wf_add(A->h[1], wf_add(wf_mul(B->h[0], as), wf_mul(B->h[1], ac))));
    g[2] = wf_sub(wf_abs(p[2]), wf_add(wf_add(wf_mul(A->h[0], ac), wf_mul(A->h[1], as)), B->h[0]));
    g[3] = wf_sub(wf_abs(p[3]), wf_add(wf_add(wf_mul(A->h[0], as), wf_mul(A->h[1], ac)), B->h[1]));
}

/* The smallest n . (w - v) over Q's first `nq` vertex slots w (v = (px, py)), in slot order; `nq` is
 * a constant at each call site (edge_gap_w()). */
SBX_INLINE wf edge_min_w(const cpolyw *Q, wf px, wf py, wf nx, wf ny, const int nq)
{
    wf m = wf_add(wf_mul(nx, wf_sub(Q->x[0], px)), wf_mul(ny, wf_sub(Q->y[0], py)));
    for (int j = 1; j < nq; j++) {
        wf v = wf_add(wf_mul(nx, wf_sub(Q->x[j], px)), wf_mul(ny, wf_sub(Q->y[j], py)));
        m = wf_min(v, m);
    }
    return m;
}

/* `scaled` is a constant at each call site (poly_sep_w, poly_best_w): 0 when no lane of the pair
 * is prescaled, and the edge factors are all 1 (the multiplies skipped give the same bits). */
SBX_INLINE wf edge_gap_w(const cpolyw *E, const cpolyw *P, int k, const cpolyw *Q, int scaled, wf *nx, wf *ny, wf *l2)
{
    wf ex = wf_sub(E->x[(k + 1) % NV2], E->x[k]), ey = wf_sub(E->y[(k + 1) % NV2], E->y[k]);
    if (scaled) {
        ex = wf_mul(ex, E->scale);
        ey = wf_mul(ey, E->scale);
    }
    *nx = ey;
    *ny = wf_neg(ex);
    *l2 = wf_add(wf_mul(ex, ex), wf_mul(ey, ey));
    wf px = P->x[k], py = P->y[k];
    switch (Q->nmax) { /* a constant trip count per case: unrolled, no loop control per vertex */
    case 1: return edge_min_w(Q, px, py, *nx, *ny, 1);
    case 2: return edge_min_w(Q, px, py, *nx, *ny, 2);
    case 3: return edge_min_w(Q, px, py, *nx, *ny, 3);
    case 4: return edge_min_w(Q, px, py, *nx, *ny, 4);
    case 5: return edge_min_w(Q, px, py, *nx, *ny, 5);
    case 6: return edge_min_w(Q, px, py, *nx, *ny, 6);
    case 7: return edge_min_w(Q, px, py, *nx, *ny, 7);
    default: return edge_min_w(Q, px, py, *nx, *ny, NV2);
    }
}

SBX_INLINE wf pair_gap_w(const cpolyw *a, const cpolyw *b, const cpolyw *bp, int e, int scaled, wf *nx, wf *ny, wf *l2)
{
    return e < NV2 ? edge_gap_w(a, a, e, bp, scaled, nx, ny, l2) : edge_gap_w(b, bp, e - NV2, a, scaled, nx, ny, l2);
}

/* pair_gap_w() along the unit normal: divided by the edge length (returned in *len); where the
 * quotient underflows to zero the raw gap is kept (its sign matters), and -0 becomes +0. */
SBX_INLINE wf unit_gap_w(const cpolyw *a, const cpolyw *b, const cpolyw *bp, int e, int scaled, wf *nx, wf *ny,
                         wf *l2, wf *len)
{
    wf zero = wf_zero();
    wf m = pair_gap_w(a, b, bp, e, scaled, nx, ny, l2);
    *len = wf_sqrt(*l2);
    wf s = wf_div(m, *len);
    return wf_add(wf_select(wm_eq(s, zero), m, s), zero);
}

/* The next axis id after e worth testing: edges at or past a polygon's nmax have length 0. */
SBX_INLINE int next_axis_w(const cpolyw *a, const cpolyw *b, int e)
{
    e++;
    if (e < NV2 && e >= a->nmax)
        e = NV2;
    return e < NV2 + b->nmax ? e : 2 * NV2;
}

/* ---- prepared polygons ---------------------------------------------------------------------- */

typedef struct ppolyw {
    cpolyw p; /* p.nmax: the largest count of the step's live lanes; slots from it on are vertex 0,
                 normal 0, offset +inf in every lane (as satbox2d_poly_prepare() wrote them) */
    wf nx[NV2], ny[NV2], d[NV2];
} ppolyw;

typedef struct ppairw {
    ppolyw a, b;
    int n; /* the step's class: vertex slots (and edges of each side) worth visiting, the larger nmax */
    wf scale;
    wf ox, oy, rc, rs;
    wm valid;
} ppairw;

/* Pool records idx[l] (lanes from k on read record 0 and are not counted in nmax; their values
 * never reach a live lane): every slot is loaded, each lane's from its record (3 cache lines).
 * `cls` the step's class (prep_plan_w()): below SBX_CLASS_SLOW every live record is valid with
 * scale 1 and count <= cls, so that verdict, scale and nmax need no look at the lanes. */
SBX_INLINE void load_prep_w(const satbox2d_prepared *pp, const int32_t *idx, int k, int cls, ppolyw *q)
{
    if (cls < SBX_CLASS_SLOW) {
        q->p.nmax = cls;
        q->p.scale = wf_set1(1.0f);
        q->p.scaled = 0;
        q->p.valid = wm_eq(q->p.scale, q->p.scale);
    } else {
        float valid[SBX_W], scale[SBX_W];
        int nmax = 1;
        for (int l = 0; l < SBX_W; l++) {
            const satbox2d_prepared *r = &pp[idx[l]];
            int c = l < k ? r->count : 0;
            c = c < 1 ? 1 : c > NV2 ? NV2 : c;
            nmax = c > nmax ? c : nmax;
            valid[l] = (float)r->valid;
            scale[l] = r->scale;
        }
        q->p.nmax = nmax;
        q->p.scale = wf_loadu(scale);
        q->p.scaled = any_not_one_w(q->p.scale);
        q->p.valid = wm_eq(wf_loadu(valid), wf_set1(1.0f));
    }
    /* Each field's 8 slots of the lanes' records, transposed (wf_load_rows8). The slots past a live
     * lane's count hold vertex 0, normal 0, offset +inf (satbox2d_poly_prepare()). */
    const float *rows[SBX_W];
    for (int l = 0; l < SBX_W; l++)
        rows[l] = pp[idx[l]].x;
    wf_load_rows8(rows, q->p.x);
    for (int l = 0; l < SBX_W; l++)
        rows[l] = pp[idx[l]].y;
    wf_load_rows8(rows, q->p.y);
    for (int l = 0; l < SBX_W; l++)
        rows[l] = pp[idx[l]].nx;
    wf_load_rows8(rows, q->nx);
    for (int l = 0; l < SBX_W; l++)
        rows[l] = pp[idx[l]].ny;
    wf_load_rows8(rows, q->ny);
    for (int l = 0; l < SBX_W; l++)
        rows[l] = pp[idx[l]].d;
    wf_load_rows8(rows, q->d);
    rewrap_w(&q->p);
    q->p.checked = 1;
}

SBX_INLINE void prep_mul_w(ppolyw *q, wf f)
{
    for (int k = 0; k < q->p.nmax; k++) {
        q->p.x[k] = wf_mul(q->p.x[k], f);
        q->p.y[k] = wf_mul(q->p.y[k], f);
        q->d[k] = wf_mul(q->d[k], f);
    }
    rewrap_w(&q->p);
}

SBX_INLINE wm xform_valid_w(wf px, wf py, wf c, wf s)
{
    wf du = wf_abs(wf_sub(wf_add(wf_mul(c, c), wf_mul(s, s)), wf_set1(1.0f)));
    wm ok = wm_le(wf_add(wf_abs(px), wf_abs(py)), wf_set1(SATBOX2D_COORD_LIMIT));
    return wm_and(ok, wm_le(du, wf_set1(SATBOX2D_UNIT_TOL)));
}

/* sat2d_ref.c load_prep_pair(): sorted pairs [i, i + k) of job->plan, job->pairs the block's;
 * `src` a constant at every call site. */
SBX_INLINE void load_prep_pair_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, ppairw *q)
{
    const int body = sbx_src2d_is_body(src);
    int32_t ia[SBX_W], ib[SBX_W];
    for (int l = 0; l < SBX_W; l++) { /* lanes past k read a pair of the block again (never counted) */
        satbox_pair p = job->pairs[job->plan->ord[i + (size_t)l]];
        ia[l] = (int32_t)p.a;
        ib[l] = (int32_t)p.b;
    }
    int cls = job->plan->cls[i + (size_t)k - 1]; /* the largest of the step (ascending) */
    const satbox2d_prepared *pool = body ? job->bodies->shape : job->pp;
    load_prep_w(pool, ia, k, cls, &q->a);
    load_prep_w(pool, ib, k, cls, &q->b);
    q->n = q->a.p.nmax > q->b.p.nmax ? q->a.p.nmax : q->b.p.nmax;
    if (cls < SBX_CLASS_SLOW) /* both sides to the class: the same bits (slots past a count add nothing) */
        q->a.p.nmax = q->b.p.nmax = q->n;
    q->valid = wm_and(q->a.p.valid, q->b.p.valid);
    wf zero = wf_zero();
    q->ox = q->oy = zero;
    q->rc = wf_set1(1.0f);
    q->rs = zero;
    wf limit = wf_set1(0x1p120f), c = wf_set1(1.0f), s = zero, tx = zero, ty = zero;
    if (body) {
        const satbox2d_bodies *bd = job->bodies;
        wf pax = wf_gather(bd->position[0], ia), pay = wf_gather(bd->position[1], ia);
        wf ca = wf_gather(bd->rotation[0], ia), sa = wf_gather(bd->rotation[1], ia);
        wf pbx = wf_gather(bd->position[0], ib), pby = wf_gather(bd->position[1], ib);
        wf cb = wf_gather(bd->rotation[0], ib), sb = wf_gather(bd->rotation[1], ib);
        q->valid = wm_and(q->valid, wm_and(xform_valid_w(pax, pay, ca, sa), xform_valid_w(pbx, pby, cb, sb)));
        c = wf_add(wf_mul(ca, cb), wf_mul(sa, sb));
        s = wf_sub(wf_mul(ca, sb), wf_mul(sa, cb));
        wf dx = wf_sub(pbx, pax), dy = wf_sub(pby, pay);
        tx = wf_add(wf_mul(ca, dx), wf_mul(sa, dy));
        ty = wf_sub(wf_mul(ca, dy), wf_mul(sa, dx));
        limit = prescale_w(wf_add(wf_abs(tx), wf_abs(ty)));
        q->ox = pax;
        q->oy = pay;
        q->rc = ca;
        q->rs = sa;
    }
    wf sc = wf_min(q->a.p.scale, q->b.p.scale);
    sc = wf_min(limit, sc);
    if (q->a.p.scaled || q->b.p.scaled || any_not_one_w(sc)) { /* else every factor is 1: same bits */
        prep_mul_w(&q->a, wf_div(sc, q->a.p.scale));
        prep_mul_w(&q->b, wf_div(sc, q->b.p.scale));
    }
    q->scale = sc;
    if (body) {
        wf sx = wf_mul(tx, sc), sy = wf_mul(ty, sc), inf = wf_set1(INFINITY);
        ppolyw *b = &q->b;
        for (int v = 0; v < b->p.nmax; v++) {
            wf x = b->p.x[v], y = b->p.y[v], nx = b->nx[v], ny = b->ny[v];
            b->p.x[v] = wf_add(wf_sub(wf_mul(c, x), wf_mul(s, y)), sx);
            b->p.y[v] = wf_add(wf_add(wf_mul(s, x), wf_mul(c, y)), sy);
            b->nx[v] = wf_sub(wf_mul(c, nx), wf_mul(s, ny));
            b->ny[v] = wf_add(wf_mul(s, nx), wf_mul(c, ny));
            wf d = wf_add(wf_mul(b->nx[v], b->p.x[v]), wf_mul(b->ny[v], b->p.y[v]));
            b->d[v] = wf_select(wm_lt(b->d[v], inf), d, inf);
        }
        rewrap_w(&b->p);
    }
}

SBX_INLINE wf prep_min_w(const cpolyw *Q, wf nx, wf ny, const int nq)
{
    wf m = wf_add(wf_mul(nx, Q->x[0]), wf_mul(ny, Q->y[0]));
    for (int j = 1; j < nq; j++) {
        wf v = wf_add(wf_mul(nx, Q->x[j]), wf_mul(ny, Q->y[j]));
        m = wf_min(v, m);
    }
    return m;
}

/* The gap on axis e (edge e % NV2 of A below NV2, else of B) over the other side's first `nq`
 * slots (a constant at each call site: the pair's class q->n, poly2d.h SBX_BY_COUNT2D). */
SBX_INLINE wf prep_gap_w(const ppairw *q, int e, const int nq)
{
    const ppolyw *E = e < NV2 ? &q->a : &q->b, *Q = e < NV2 ? &q->b : &q->a;
    int k = e % NV2;
    return wf_sub(prep_min_w(&Q->p, E->nx[k], E->ny[k], nq), E->d[k]);
}

/* The axis ids of a pair of class n in their order: A's edges 0..n-1, then B's NV2..NV2+n-1 (the
 * edges from a side's nmax on have normal 0 and offset +inf: their gap is -inf, so that visiting
 * them changes no bit). */
#define PREP_AXIS(t, n) ((t) < (n) ? (t) : SATBOX2D_MAX_VERTS + (t) - (n))

/* Overlap: the separating-axis mask, stopping when every live lane is separated. */
SBX_INLINE void prep_sep_w(const ppairw *q, unsigned live, wm *sep, const int n)
{
    wf zero = wf_zero();
    *sep = wm_lt(zero, zero);
    for (int t = 0; t < 2 * n; t++) {
        *sep = wm_or(*sep, wm_gt(prep_gap_w(q, PREP_AXIS(t, n), n), zero));
        if ((wm_bits(*sep) & live) == live)
            break; /* every live lane is separated */
    }
}

/* Collide: the largest gap, its id and its unit normal (of the edge's side). */
SBX_INLINE void prep_best_w(const ppairw *q, wf *best, wf *id, wf *ux, wf *uy, const int n)
{
    wf zero = wf_zero();
    *best = wf_set1(-INFINITY);
    *id = *ux = *uy = zero;
    for (int t = 0; t < 2 * n; t++) {
        int e = PREP_AXIS(t, n);
        wf g = prep_gap_w(q, e, n);
        wm better = wm_gt(g, *best);
        const ppolyw *E = e < NV2 ? &q->a : &q->b;
        *best = wf_select(better, g, *best);
        *id = wf_select(better, wf_set1((float)e), *id);
        *ux = wf_select(better, E->nx[e % NV2], *ux);
        *uy = wf_select(better, E->ny[e % NV2], *uy);
    }
}

/* `body` a constant at each call site. */
SBX_INLINE void to_world_dir_w(int body, wf rc, wf rs, wf x, wf y, wf *wx, wf *wy)
{
    *wx = body ? wf_sub(wf_mul(rc, x), wf_mul(rs, y)) : x;
    *wy = body ? wf_add(wf_mul(rs, x), wf_mul(rc, y)) : y;
}

SBX_INLINE wm rect_pair_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, orectw *a, orectw *b, wf g[4], wf p[4])
{
    load_rects_w(job, src, i, k, a, b);
    rect_axes_w(a, b, g, p);
    return wm_and(rect_valid_w(a), rect_valid_w(b));
}

/* The separating-axis mask of a polygon pair (overlap); `scaled` as in edge_gap_w(). */
SBX_INLINE wm poly_sep_w(const cpolyw *a, const cpolyw *b, const cpolyw *bp, unsigned live, int scaled)
{
    wf zero = wf_zero();
    wm sep = wm_lt(zero, zero);
    for (int e = 0; e < 2 * NV2; e = next_axis_w(a, b, e)) {
        wf nx, ny, l2;
        wf m = pair_gap_w(a, b, bp, e, scaled, &nx, &ny, &l2);
        sep = wm_or(sep, wm_and(wm_gt(l2, zero), wm_gt(m, zero)));
        if ((wm_bits(sep) & live) == live)
            break; /* every live lane is separated: the other axes cannot change a bit */
    }
    return sep;
}

/* The best axis of a polygon pair (collide): largest normalised gap, its id, edge normal and length. */
typedef struct bestw {
    wf sep, id, nx, ny, len;
} bestw;

SBX_INLINE void poly_best_w(const cpolyw *a, const cpolyw *b, const cpolyw *bp, int scaled, bestw *o)
{
    wf zero = wf_zero();
    o->nx = o->ny = zero;
    o->len = wf_set1(1.0f);
    o->sep = wf_set1(-INFINITY);
    o->id = zero;
    for (int e = 0; e < 2 * NV2; e = next_axis_w(a, b, e)) {
        wf enx, eny, l2, len;
        wf s = unit_gap_w(a, b, bp, e, scaled, &enx, &eny, &l2, &len);
        wm better = wm_and(wm_gt(l2, zero), wm_gt(s, o->sep));
        o->sep = wf_select(better, s, o->sep);
        o->id = wf_select(better, wf_set1((float)e), o->id);
        o->nx = wf_select(better, enx, o->nx);
        o->ny = wf_select(better, eny, o->ny);
        o->len = wf_select(better, len, o->len);
    }
}

/* One step of overlap: *hit = valid & no separating axis, *inv = !valid (lane bits). */
SBX_INLINE void overlap2d_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, unsigned *hit, unsigned *inv)
{
    wf zero = wf_zero();
    wm valid, sep;
    if (sbx_src2d_is_rects(src)) {
        orectw a, b;
        wf g[4], p[4];
        valid = rect_pair_w(job, src, i, k, &a, &b, g, p);
        sep = wm_or(wm_or(wm_gt(g[0], zero), wm_gt(g[1], zero)), wm_or(wm_gt(g[2], zero), wm_gt(g[3], zero)));
    } else if (sbx_src2d_is_prep(src)) {
        ppairw q;
        load_prep_pair_w(job, src, i, k, &q);
        unsigned live = (1u << k) - 1u;
        SBX_BY_COUNT2D(q.n, prep_sep_w, &q, live, &sep);
        valid = q.valid;
    } else {
        cpolyw a, b, bt;
        const cpolyw *bp;
        /* The sign of a gap does not depend on the scale. The polygon rule is checked only where
         * it can change an output: separated lanes read hit 0 either way (bad ones too). */
        (void)load_pair_w(job, src, i, k, &a, &b, &bt, &bp, 1);
        unsigned live = (1u << k) - 1u;
        sep = a.scaled || b.scaled ? poly_sep_w(&a, &b, bp, live, 1) : poly_sep_w(&a, &b, bp, live, 0);
        if ((wm_bits(sep) & live) != live || job->bad) {
            poly_check_w(&a);
            poly_check_w(&b);
            valid = wm_and(a.valid, b.valid);
        } else {
            valid = wm_eq(zero, zero); /* every live lane separated, `bad` not asked for */
        }
    }
    *hit = wm_bits(wm_andnot(valid, sep));
    *inv = wm_bits(wm_not(valid));
}

typedef struct collide2dw {
    wf sep, n[2], id;
    unsigned hit, inv;
} collide2dw;

SBX_INLINE void collide2d_w(const sbx_job2d *job, sbx_src2d src, size_t i, int k, wf margin, collide2dw *o)
{
    wf zero = wf_zero();
    wm valid, hit;
    wf best, id, nx, ny;
    if (sbx_src2d_is_rects(src)) {
        orectw a, b;
        wf g[4], p[4];
        valid = rect_pair_w(job, src, i, k, &a, &b, g, p);
        best = g[0];
        id = zero;
        wf bp = p[0];
        for (int e = 1; e < 4; e++) {
            wm better = wm_gt(g[e], best);
            best = wf_select(better, g[e], best);
            id = wf_select(better, wf_set1((float)e), id);
            bp = wf_select(better, p[e], bp);
        }
        wm of_a = wm_lt(id, wf_set1(2.0f));
        wm even = wm_or(wm_eq(id, zero), wm_eq(id, wf_set1(2.0f)));
        wf c = wf_select(of_a, a.u[0], b.u[0]), s = wf_select(of_a, a.u[1], b.u[1]);
        nx = wf_select(even, c, wf_neg(s));
        ny = wf_select(even, s, c);
        wm flip = wm_lt(bp, zero);
        nx = wf_select(flip, wf_neg(nx), nx);
        ny = wf_select(flip, wf_neg(ny), ny);
        hit = wm_le(best, margin);
    } else if (sbx_src2d_is_prep(src)) {
        ppairw q;
        load_prep_pair_w(job, src, i, k, &q);
        valid = q.valid;
        wf ux, uy;
        SBX_BY_COUNT2D(q.n, prep_best_w, &q, &best, &id, &ux, &uy);
        wm of_b = wm_ge(id, wf_set1((float)NV2));
        ux = wf_select(of_b, wf_neg(ux), ux);
        uy = wf_select(of_b, wf_neg(uy), uy);
        to_world_dir_w(sbx_src2d_is_body(src), q.rc, q.rs, ux, uy, &nx, &ny);
        hit = wm_le(best, wf_mul(margin, q.scale));
        wf out = wf_add(wf_mul(best, wf_div(wf_set1(1.0f), q.scale)), zero);
        best = wf_select(wm_and(wm_eq(out, zero), wm_gt(best, zero)), wf_set1(0x1p-149f), out);
    } else {
        cpolyw a, b, bt;
        const cpolyw *bp;
        wf scale = load_polys_w(job, src, i, k, &a, &b, &bt, &bp);
        valid = wm_and(a.valid, b.valid);
        bestw bw;
        if (a.scaled || b.scaled)
            poly_best_w(&a, &b, bp, 1, &bw);
        else
            poly_best_w(&a, &b, bp, 0, &bw);
        best = bw.sep;
        id = bw.id;
        nx = wf_div(bw.nx, bw.len);
        ny = wf_div(bw.ny, bw.len);
        wm of_b = wm_ge(id, wf_set1((float)NV2));
        nx = wf_select(of_b, wf_neg(nx), nx);
        ny = wf_select(of_b, wf_neg(ny), ny);
        hit = wm_le(best, wf_mul(margin, scale));
        wf out = wf_add(wf_mul(best, wf_div(wf_set1(1.0f), scale)), zero);
        best = wf_select(wm_and(wm_eq(out, zero), wm_gt(best, zero)), wf_set1(0x1p-149f), out);
    }
    o->sep = wf_select(valid, best, wf_set1(NAN));
    o->n[0] = wf_select(valid, nx, zero);
    o->n[1] = wf_select(valid, ny, zero);
    o->id = wf_select(valid, id, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(wm_and(valid, hit));
    o->inv = wm_bits(wm_not(valid));
}

/* ---- lanes that run to their own counts (prepared sources) ------------------------------------ */

/* A step runs every lane to its largest vertex count. The pairs of a block of SBX_BLOCK2D are taken
 * in the order of their class (poly2d.h sbx_plan2d: the larger count of the pair's two records, a
 * stable counting sort; a pair with a bad or prescaled record last, in SBX_CLASS_SLOW), so that a
 * step's lanes mostly share a count and triangles do not wait for octagons, and a step below
 * SBX_CLASS_SLOW knows its verdict, scale and nmax without a look at its lanes (load_prep_w()). A
 * lane's bits do not depend on the other lanes (slots past its count hold vertex 0, normal 0,
 * offset +inf; loops past it change nothing), so the order changes no output; the outputs go back
 * to the pairs' places and the compacted list stays ascending. SBX_PREP_GROUP 0 puts every pair in
 * SBX_CLASS_SLOW, in the pairs' order (for measuring: no grouping, lanes loaded one by one). */
#ifndef SBX_PREP_GROUP
#define SBX_PREP_GROUP 1
#endif

_Static_assert(SBX_W <= SBX_PLAN_PAD, "a step past a block's end reads the plan's padding");

/* The plan of the block of pairs [i0, i0 + m): classes and places, sorted. */
SBX_INLINE void prep_plan_w(const sbx_job2d *job, sbx_src2d src, size_t i0, int m, sbx_plan2d *plan)
{
    const satbox2d_prepared *pool = sbx_src2d_is_body(src) ? job->bodies->shape : job->pp;
    const satbox_pair *pairs = job->pairs + i0;
    uint8_t cls[SBX_BLOCK2D];
    int start[SBX_CLASS_SLOW + 2];
    for (int c = 0; c < SBX_CLASS_SLOW + 2; c++)
        start[c] = 0;
    for (int j = 0; j < m; j++) {
        const satbox2d_prepared *ra = &pool[pairs[j].a], *rb = &pool[pairs[j].b];
        int a = ra->count, b = rb->count, c = a > b ? a : b;
        int fast = (ra->valid == 1) & (rb->valid == 1) & (ra->scale == 1.0f) & (rb->scale == 1.0f); /* no branches */
        c = !fast ? SBX_CLASS_SLOW : c < 1 ? 1 : c > NV2 ? NV2 : c;
        c = SBX_PREP_GROUP ? c : SBX_CLASS_SLOW;
        cls[j] = (uint8_t)c;
        start[c + 1]++;
    }
    for (int c = 1; c <= SBX_CLASS_SLOW; c++)
        start[c + 1] += start[c];
    for (int j = 0; j < m; j++) {
        int t = start[cls[j]]++;
        plan->ord[t] = (uint8_t)j;
        plan->cls[t] = cls[j];
    }
    for (int t = m; t < m + SBX_W; t++)
        plan->ord[t] = plan->ord[0];
}

/* The compacted list of a block from its hit bytes, in the pairs' order. */
SBX_INLINE size_t prep_compact(uint32_t *compact, size_t i0, int m, const uint8_t *hits, size_t count)
{
    for (int j = 0; j < m; j++)
        if (hits[j]) {
            if (compact)
                compact[count] = (uint32_t)(i0 + (size_t)j);
            count++;
        }
    return count;
}

SBX_INLINE ptrdiff_t run2d_prep(const sbx_job2d *job, sbx_src2d src, int collide)
{
    wf margin = wf_set1(job->margin);
    size_t count = 0, n = job->n;
    for (size_t i0 = 0; i0 < n; i0 += SBX_BLOCK2D) {
        int m = n - i0 >= SBX_BLOCK2D ? SBX_BLOCK2D : (int)(n - i0);
        uint8_t hits[SBX_BLOCK2D];
        sbx_plan2d plan;
        prep_plan_w(job, src, i0, m, &plan);
        const uint8_t *ord = plan.ord;
        sbx_job2d js = *job;
        js.pairs = job->pairs + i0;
        js.plan = &plan;
        /* The block's outputs in locals: a store through a byte pointer could change *job (the
         * compiler would load the pointers again after each). */
        uint8_t *ohit = job->hit ? job->hit + i0 : NULL, *obad = job->bad ? job->bad + i0 : NULL;
        uint8_t *oaxis = job->axis ? job->axis + i0 : NULL;
        float *osep = job->separation ? job->separation + i0 : NULL;
        float *onx = job->normal[0] ? job->normal[0] + i0 : NULL, *ony = job->normal[1] ? job->normal[1] + i0 : NULL;
        for (int s = 0; s < m; s += SBX_W) {
            int k = m - s >= SBX_W ? SBX_W : m - s;
            unsigned hit, inv;
            float sep[SBX_W], nx[SBX_W], ny[SBX_W], id[SBX_W];
            if (collide) {
                collide2dw o;
                collide2d_w(&js, src, (size_t)s, k, margin, &o);
                hit = o.hit;
                inv = o.inv;
                wf_storeu(sep, o.sep);
                wf_storeu(nx, o.n[0]);
                wf_storeu(ny, o.n[1]);
                wf_storeu(id, o.id);
            } else {
                overlap2d_w(&js, src, (size_t)s, k, &hit, &inv);
            }
            for (int l = 0; l < k; l++) {
                int j = ord[s + l];
                uint8_t h = (uint8_t)(hit >> l & 1u);
                hits[j] = h;
                if (ohit)
                    ohit[j] = h;
                if (obad)
                    obad[j] = (uint8_t)(inv >> l & 1u);
                if (!collide)
                    continue;
                if (osep)
                    osep[j] = sep[l];
                if (onx)
                    onx[j] = nx[l];
                if (ony)
                    ony[j] = ny[l];
                if (oaxis)
                    oaxis[j] = (uint8_t)id[l];
            }
        }
        count = prep_compact(job->compact, i0, m, hits, count);
    }
    return (ptrdiff_t)count;
}

/* ---- drivers ------------------------------------------------------------------------------ */

/* `src` is a constant at every call site: each source gets its own specialised loop. */
SBX_INLINE ptrdiff_t run2d_overlap(const sbx_job2d *job, sbx_src2d src)
{
    if (sbx_src2d_is_prep(src))
        return run2d_prep(job, src, 0);
    size_t count = 0, n = job->n;
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        unsigned hit, inv, live = (1u << k) - 1u;
        overlap2d_w(job, src, i, k, &hit, &inv);
        hit &= live;
        count = put_hits_w(job->hit, job->bad, job->compact, i, k, hit, inv, count);
    }
    return (ptrdiff_t)count;
}

SBX_INLINE ptrdiff_t run2d_collide(const sbx_job2d *job, sbx_src2d src)
{
    if (sbx_src2d_is_prep(src))
        return run2d_prep(job, src, 1);
    wf margin = wf_set1(job->margin);
    size_t count = 0, n = job->n;
    for (size_t i = 0; i < n; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        collide2dw o;
        collide2d_w(job, src, i, k, margin, &o);
        unsigned hit = o.hit & ((1u << k) - 1u);
        /* the vector outputs first, as in batch_tpl.h collide_step */
        put_collide_w(job->separation, job->normal, 2, job->axis, i, k, o.sep, o.n, o.id);
        count = put_hits_w(job->hit, job->bad, job->compact, i, k, hit, o.inv, count);
    }
    return (ptrdiff_t)count;
}

/* One function per source and kind (SBX_NOINLINE), overlap2d_<NAME> and collide2d_<NAME> from
 * SBX_SOURCES2D: inlined into one switch, the five loops' frames would add up; a thread with a
 * 16 KiB stack must hold the deepest of them (satbox.h). */
#define SBX_RUN2D(name, ...)                                                                                \
    static SBX_NOINLINE ptrdiff_t overlap2d_##name(const sbx_job2d *job) { return run2d_overlap(job, SBX2D_##name); } \
    static SBX_NOINLINE ptrdiff_t collide2d_##name(const sbx_job2d *job) { return run2d_collide(job, SBX2D_##name); }
SBX_SOURCES2D(SBX_RUN2D)
#undef SBX_RUN2D

/* kernel_overlap2d and kernel_collide2d: the source's function. */
#define SBX_KERNEL2D_BY_SOURCE(kind)                                                      \
    static ptrdiff_t kernel_##kind##2d(const sbx_job2d *job)                              \
    {                                                                                     \
        switch (job->src) {                                                               \
            SBX_SOURCES2D(SBX_CASE2D_##kind)                                              \
        default: return SATBOX_ERR_ARG;                                                   \
        }                                                                                 \
    }
#define SBX_CASE2D_overlap(name, ...) case SBX2D_##name: return overlap2d_##name(job);
#define SBX_CASE2D_collide(name, ...) case SBX2D_##name: return collide2d_##name(job);
SBX_KERNEL2D_BY_SOURCE(overlap)
SBX_KERNEL2D_BY_SOURCE(collide)
#undef SBX_KERNEL2D_BY_SOURCE
#undef SBX_CASE2D_overlap
#undef SBX_CASE2D_collide

#undef NV2

#endif

/* contacts2d_ref.c - the reference of contacts2d_tpl.h: the 2D contact manifolds, in the operation order every path reproduces. */
/* SPDX-License-Identifier: MIT */

/* The SAT of the pair comes from sat2d_ref.c's own helpers (load_polys, pair_gap, rect_axes, ...),
 * compiled here once more without its entry points, so the manifold's separation is collide's by
 * construction. Every expression below is written in the order contacts2d_tpl.h evaluates it. */
#define SBX_SCALAR2D_SAT_ONLY
#include "poly2d/sat2d_ref.c"

#include "poly2d/contacts2d.h"

/* The pair in its local frame: the two shapes as wrapped polygons (`a`, and `b` at B's place for
 * the differences), the reference choice and the SAT answer. */
typedef struct pair2d {
    const cpoly *a, *b;   /* geometry, pair-local and at the pair's scale */
    float sat_sep;         /* collide's separation at the pair's scale */
    float sat_nx, sat_ny;  /* collide's unit normal (A to B) */
    int sat_id;            /* collide's axis */
    float ref_nx, ref_ny;  /* the reference edge's outward unit normal */
    int ref_b, ref_edge;   /* reference on B?, its edge index */
    int axis;              /* the reference edge's axis id */
    float scale, ox, oy;   /* world = local * (1 / scale) + origin (bodies: origin + R(rc, rs) local * (1 / scale)) */
    int body;              /* the frame of the work is A's body frame: rotate by (rc, rs) */
    float rc, rs;
    const float *nxa, *nya, *nxb, *nyb; /* prepared sources: the unit edge normals of A and B (the frame
                                           of the work), else NULL */
    int valid;
} pair2d;

/* ---- choose the axis: rectangles ----------------------------------------------------------- */

/* collide's normal of rectangle axis id (sat2d_ref.c collide2d, the same operations). */
static void rect_axis_normal(const orect *a, const orect *b, const float p[4], int id, float *nx, float *ny)
{
    const orect *r = id < 2 ? a : b;
    float c = r->u[0], s = r->u[1];
    float x = id % 2 == 0 ? c : -s, y = id % 2 == 0 ? s : c;
    *nx = p[id] < 0.0f ? -x : x;
    *ny = p[id] < 0.0f ? -y : y;
}

/* The corner polygon of r (satbox2d.h's order) at (ox, oy) + corner, wrapped, 4 vertices. */
static void rect_corners(const orect *r, float ox, float oy, cpoly *p)
{
    float a0x = r->h[0] * r->u[0], a0y = r->h[0] * r->u[1];
    float a1x = -(r->h[1] * r->u[1]), a1y = r->h[1] * r->u[0];
    p->x[0] = ox + (-a0x - a1x);
    p->y[0] = oy + (-a0y - a1y);
    p->x[1] = ox + (a0x - a1x);
    p->y[1] = oy + (a0y - a1y);
    p->x[2] = ox + (a0x + a1x);
    p->y[2] = oy + (a0y + a1y);
    p->x[3] = ox + (-a0x + a1x);
    p->y[3] = oy + (-a0y + a1y);
    for (int k = 4; k < NV; k++) {
        p->x[k] = p->x[0];
        p->y[k] = p->y[0];
    }
    p->n = 4;
    p->scale = 1.0f;
    p->valid = 1;
}

static void rect_pair2d(const sbx_job2d *job, size_t i, cpoly *pa, cpoly *pb, pair2d *q)
{
    orect a, b;
    float g[4], p[4];
    q->valid = rect_pair(job, i, &a, &b, g, p);
    /* The best face of each shape (ties: the lower id), and collide's axis. */
    int ida = g[1] > g[0] ? 1 : 0, idb = g[3] > g[2] ? 3 : 2;
    float sa = g[ida], sb = g[idb];
    int pick_b = sb > sa;
    q->sat_id = pick_b ? idb : ida;
    q->sat_sep = pick_b ? sb : sa;
    rect_axis_normal(&a, &b, p, q->sat_id, &q->sat_nx, &q->sat_ny);
    /* Hysteresis: B's face only when it beats A's by more than FLIP_TOL times the shorter face. */
    float la = ida == 0 ? a.h[1] + a.h[1] : a.h[0] + a.h[0];
    float lb = idb == 2 ? b.h[1] + b.h[1] : b.h[0] + b.h[0];
    float l = lb < la ? lb : la;
    q->ref_b = sb - sa > SATBOX2D_FLIP_TOL * l;
    q->axis = q->ref_b ? idb : ida;
    float nx, ny;
    rect_axis_normal(&a, &b, p, q->axis, &nx, &ny);
    q->ref_nx = q->ref_b ? -nx : nx;
    q->ref_ny = q->ref_b ? -ny : ny;
    /* The face's edge of the corner polygon: A's normal +u0 is edge 1, -u0 edge 3, +u1 edge 2,
     * -u1 edge 0; B's face is the one whose outward normal is minus the normal A to B. */
    int neg = p[q->axis] < 0.0f;
    int ea = ida == 0 ? (neg ? 3 : 1) : (neg ? 0 : 2);
    int eb = idb == 2 ? (neg ? 1 : 3) : (neg ? 2 : 0);
    q->ref_edge = q->ref_b ? eb : ea;
    /* The frame: A's center. */
    float dx = b.c[0] - a.c[0], dy = b.c[1] - a.c[1];
    rect_corners(&a, 0.0f, 0.0f, pa);
    rect_corners(&b, dx, dy, pb);
    q->a = pa;
    q->b = pb;
    q->scale = 1.0f;
    q->ox = a.c[0];
    q->oy = a.c[1];
    q->body = 0;
    q->nxa = q->nya = q->nxb = q->nyb = NULL;
}

/* ---- choose the axis: polygons --------------------------------------------------------------- */

/* The best axis among A's edges (e < 8) or B's, as collide2d's loop computes it. */
typedef struct best2d {
    float sep, nx, ny, len, l1;
    int id;
} best2d;

static void poly_pair2d(const sbx_job2d *job, size_t i, cpoly *a, cpoly *b, cpoly *bt, pair2d *q)
{
    const cpoly *bp;
    q->scale = load_polys(job, i, a, b, bt, &bp);
    q->valid = a->valid && b->valid;
    best2d best[2];
    for (int side = 0; side < 2; side++)
        best[side] = (best2d){.sep = -INFINITY, .nx = 0.0f, .ny = 0.0f, .len = 1.0f, .l1 = 0.0f, .id = 0};
    for (int e = 0; e < 2 * NV; e = next_axis(a, b, e)) {
        float enx, eny, l2;
        float m = pair_gap(a, b, bp, e, &enx, &eny, &l2);
        float len = sqrtf(l2);
        float s = m / len;
        s = (s == 0.0f ? m : s) + 0.0f; /* as collide2d */
        best2d *o = &best[e >= NV];
        const cpoly *E = e < NV ? a : b;
        int k = e % NV;
        float l1 = fabsf(E->x[(k + 1) % NV] - E->x[k]) + fabsf(E->y[(k + 1) % NV] - E->y[k]);
        if (l2 > 0.0f && s > o->sep)
            *o = (best2d){.sep = s, .nx = enx, .ny = eny, .len = len, .l1 = l1, .id = e};
    }
    int pick_b = best[1].sep > best[0].sep;
    const best2d *w = &best[pick_b];
    q->sat_id = w->id;
    q->sat_sep = w->sep;
    float nx = w->nx / w->len, ny = w->ny / w->len;
    q->sat_nx = pick_b ? -nx : nx;
    q->sat_ny = pick_b ? -ny : ny;
    /* Hysteresis: B's face only when it beats A's by more than FLIP_TOL times the shorter edge. */
    float l = best[1].l1 < best[0].l1 ? best[1].l1 : best[0].l1;
    q->ref_b = best[1].sep - best[0].sep > SATBOX2D_FLIP_TOL * l;
    const best2d *r = &best[q->ref_b];
    q->axis = r->id;
    q->ref_nx = r->nx / r->len;
    q->ref_ny = r->ny / r->len;
    q->ref_edge = q->axis % NV;
    q->a = a;
    q->b = bp;
    q->ox = 0.0f;
    q->oy = 0.0f;
    if (sbx_src2d_a_rect(job->src)) { /* the pair worked relative to the rectangle's center */
        q->ox = job->ra->center[0][i];
        q->oy = job->ra->center[1][i];
    }
    q->body = 0;
    q->nxa = q->nya = q->nxb = q->nyb = NULL;
}

/* ---- choose the axis: prepared polygons ------------------------------------------------------ */

/* E's n edges (axis ids id0 + k) against Q's first nq slots (a constant: poly2d.h SBX_BY_COUNT2D),
 * into E's side's best (strictly larger: ties to the lower id). */
SBX_ALWAYS_INLINE void prep_side_best2(const ppoly *E, const ppoly *Q, int id0, best2d *o, const int nq)
{
    for (int k = 0; k < E->p.n; k++) {
        float g = prep_gap(E, k, Q, nq);
        float l1 = fabsf(E->p.x[(k + 1) % NV] - E->p.x[k]) + fabsf(E->p.y[(k + 1) % NV] - E->p.y[k]);
        if (g > o->sep)
            *o = (best2d){.sep = g, .nx = E->nx[k], .ny = E->ny[k], .len = 1.0f, .l1 = l1, .id = id0 + k};
    }
}

/* As poly_pair2d, the gaps along the prepared unit normals (prep_gap): no length, no division. */
static void prep_pair2d(const sbx_job2d *job, size_t i, ppair *pp, pair2d *q)
{
    load_prep_pair(job, i, pp);
    q->scale = pp->scale;
    q->valid = pp->valid;
    best2d best[2];
    for (int side = 0; side < 2; side++)
        best[side] = (best2d){.sep = -INFINITY, .nx = 0.0f, .ny = 0.0f, .len = 1.0f, .l1 = 0.0f, .id = 0};
    SBX_BY_COUNT2D(pp->b.p.n, prep_side_best2, &pp->a, &pp->b, 0, &best[0]);
    SBX_BY_COUNT2D(pp->a.p.n, prep_side_best2, &pp->b, &pp->a, NV, &best[1]);
    int pick_b = best[1].sep > best[0].sep;
    const best2d *w = &best[pick_b];
    q->sat_id = w->id;
    q->sat_sep = w->sep;
    q->sat_nx = pick_b ? -w->nx : w->nx;
    q->sat_ny = pick_b ? -w->ny : w->ny;
    float l = best[1].l1 < best[0].l1 ? best[1].l1 : best[0].l1;
    q->ref_b = best[1].sep - best[0].sep > SATBOX2D_FLIP_TOL * l;
    const best2d *r = &best[q->ref_b];
    q->axis = r->id;
    q->ref_nx = r->nx;
    q->ref_ny = r->ny;
    q->ref_edge = q->axis % NV;
    q->a = &pp->a.p;
    q->b = &pp->b.p;
    q->ox = pp->ox;
    q->oy = pp->oy;
    q->body = sbx_src2d_is_body(job->src);
    q->rc = pp->rc;
    q->rs = pp->rs;
    q->nxa = pp->a.nx;
    q->nya = pp->a.ny;
    q->nxb = pp->b.nx;
    q->nyb = pp->b.ny;
}

/* ---- the manifold: incident edge, clipping, kept points ------------------------------------- */

/* The pair's manifold into *r; returns its point count. */
static unsigned manifold2d(const pair2d *q, float margin, satbox2d_manifold *r)
{
    const cpoly *R = q->ref_b ? q->b : q->a, *I = q->ref_b ? q->a : q->b;
    int kr = q->ref_edge;
    float nox = q->ref_nx, noy = q->ref_ny, tx = -noy, ty = nox;
    float r1x = R->x[kr], r1y = R->y[kr], r2x = R->x[(kr + 1) % NV], r2y = R->y[(kr + 1) % NV];
    /* The incident shape's deepest vertex: the smallest depth n . (v - r1) below the reference
     * edge's line (ties: the lowest slot). */
    float dmin = INFINITY;
    int kv = 0;
    for (int k = 0; k < I->n; k++) {
        float dv = nox * (I->x[k] - r1x) + noy * (I->y[k] - r1y);
        if (dv < dmin) {
            dmin = dv;
            kv = k;
        }
    }
    /* The incident edge: of the edges that hold a vertex that deep, the one whose unit outward
     * normal has the smallest dot product with the reference's (the most anti-parallel; ties: the
     * lowest index). So two nearly parallel edges whose dot products tie or swap in float cannot
     * hand the choice to an edge away from the deepest vertex. */
    const float *inx = q->ref_b ? q->nxa : q->nxb, *iny = q->ref_b ? q->nya : q->nyb;
    float best = INFINITY, v1x = I->x[0], v1y = I->y[0], v2x = I->x[0], v2y = I->y[0];
    int ki = 0;
    for (int k = 0; k < I->n; k++) {
        int k1 = (k + 1) % NV;
        float ex = I->x[k1] - I->x[k], ey = I->y[k1] - I->y[k];
        float l2 = ex * ex + ey * ey;
        float d = inx ? inx[k] * nox + iny[k] * noy : (ey * nox - ex * noy) / sqrtf(l2);
        float d0 = nox * (I->x[k] - r1x) + noy * (I->y[k] - r1y);
        float d1 = nox * (I->x[k1] - r1x) + noy * (I->y[k1] - r1y);
        int holds = d0 == dmin || d1 == dmin;
        if (l2 > 0.0f && holds && d < best) {
            best = d;
            ki = k;
            v1x = I->x[k];
            v1y = I->y[k];
            v2x = I->x[k1];
            v2y = I->y[k1];
        }
    }
    /* Clip to the reference edge's side planes: along t, relative to r1, [0, hi]. */
    float erx = r2x - r1x, ery = r2y - r1y;
    float hi = tx * erx + ty * ery;
    float s[2], d[2], vx[2] = {v1x, v2x}, vy[2] = {v1y, v2y};
    for (int j = 0; j < 2; j++) {
        float wx = vx[j] - r1x, wy = vy[j] - r1y;
        s[j] = tx * wx + ty * wy;
        d[j] = nox * wx + noy * wy;
    }
    float px[2], py[2], sep[2];
    for (int j = 0; j < 2; j++) {
        int o = 1 - j;
        float u = s[j] < 0.0f ? 0.0f : s[j];
        u = u > hi ? hi : u;
        float den = s[o] - s[j];
        float mu = den != 0.0f ? (u - s[j]) / den : 0.0f;
        mu = mu < 0.0f ? 0.0f : mu;
        mu = mu > 1.0f ? 1.0f : mu;
        px[j] = vx[j] + (vx[o] - vx[j]) * mu;
        py[j] = vy[j] + (vy[o] - vy[j]) * mu;
        sep[j] = d[j] + (d[o] - d[j]) * mu;
    }
    /* Kept points: within the margin (at the pair's scale); two points too close merge into end 0. */
    int beyond = (s[0] < 0.0f && s[1] < 0.0f) || (s[0] > hi && s[1] > hi);
    int go = q->valid && q->sat_sep <= margin * q->scale && !beyond;
    int keep0 = go && sep[0] <= margin * q->scale, keep1 = go && sep[1] <= margin * q->scale;
    float gap = fabsf(px[0] - px[1]) + fabsf(py[0] - py[1]);
    float lref = fabsf(erx) + fabsf(ery);
    keep1 = keep1 && !(keep0 && gap <= SATBOX2D_MERGE_TOL * lref);
    /* The fallback: overlapping (within the margin) and no clipped point kept (a zero-area shape, an
     * incident edge beyond a side plane: corner to corner, a kept face, a reference edge nearly
     * collinear with its neighbour): one point at the deepest vertex, as its own feature (end 2). */
    int fallback = q->valid && q->sat_sep <= margin * q->scale && !keep0 && !keep1 && dmin <= margin * q->scale;
    px[0] = fallback ? I->x[kv] : px[0];
    py[0] = fallback ? I->y[kv] : py[0];
    sep[0] = fallback ? dmin : sep[0];
    keep0 = keep0 || fallback;
    int end0 = fallback ? SATBOX2D_FEATURE_VERTEX : 0, feat0 = fallback ? kv : ki;
    /* Back to the world, and into the record in the order of the ends. */
    float inv = 1.0f / q->scale;
    float ox[2] = {0.0f, 0.0f}, oy[2] = {0.0f, 0.0f}, os[2] = {0.0f, 0.0f};
    uint32_t oid[2] = {0, 0};
    unsigned count = 0;
    for (int j = 0; j < 2; j++) {
        if (!(j == 0 ? keep0 : keep1))
            continue;
        float lx = px[j] * inv, ly = py[j] * inv;
        if (q->body) {
            ox[count] = q->ox + (q->rc * lx - q->rs * ly);
            oy[count] = q->oy + (q->rs * lx + q->rc * ly);
        } else {
            ox[count] = lx + q->ox;
            oy[count] = ly + q->oy;
        }
        os[count] = sep[j] * inv + 0.0f;
        oid[count] = j == 0 ? SATBOX2D_FEATURE_ID(q->ref_b, kr, feat0, end0) : SATBOX2D_FEATURE_ID(q->ref_b, kr, ki, 1);
        count++;
    }
    float normal[2];
    to_world_dir(q->body, q->rc, q->rs, q->ref_b ? -nox : nox, q->ref_b ? -noy : noy, &normal[0], &normal[1]);
    float out_sep = q->sat_sep * inv + 0.0f;
    out_sep = out_sep == 0.0f && q->sat_sep > 0.0f ? 0x1p-149f : out_sep; /* as collide2d */
    unsigned flags = (unsigned)q->ref_b * SATBOX2D_MANIFOLD_REF_B;
    flags |= (q->sat_id != q->axis) ? SATBOX2D_MANIFOLD_KEPT_A : 0u;
    if (!q->valid) {
        normal[0] = normal[1] = 0.0f;
        out_sep = NAN;
        flags = 0;
    }
    sbx_put_manifold2d(r, normal, out_sep, count, q->valid ? (unsigned)q->axis : SATBOX_AXIS_INVALID,
                       (unsigned)!q->valid, flags, ox, oy, os, oid);
    return count;
}

ptrdiff_t sbx_scalar_contacts2d(const sbx_cjob2d *job)
{
    size_t count = 0;
    for (size_t i = 0; i < job->pair.n; i++) {
        cpoly a, b, bt;
        ppair pp;
        pair2d q;
        if (sbx_src2d_is_rects(job->pair.src))
            rect_pair2d(&job->pair, i, &a, &b, &q);
        else if (sbx_src2d_is_prep(job->pair.src))
            prep_pair2d(&job->pair, i, &pp, &q);
        else
            poly_pair2d(&job->pair, i, &a, &b, &bt, &q);
        count += manifold2d(&q, job->pair.margin, &job->out[i]) > 0;
    }
    return (ptrdiff_t)count;
}

/* sat2d_ref.c - the reference of sat2d_tpl.h: the 2D SAT of rectangles and convex polygons, in the operation order every path reproduces. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "core/internal.h" /* SBX_ALWAYS_INLINE */
#include "poly2d/poly2d.h"

/* Compiled without SIMD flags. Every expression is written in the order the wide kernel
 * evaluates it (sums left to right, no fused multiply-add, IEEE sqrt and division, minima as
 * `v < m ? v : m`); the 2D checker compares the two bit for bit. */

#define NV SATBOX2D_MAX_VERTS

typedef struct orect {
    float c[2], h[2], u[2]; /* center, half extents, (cos, sin) of local x */
} orect;

/* A polygon with its unused slots filled by vertex 0 ("wrapped"): then edge k is always
 * w[(k + 1) % 8] - w[k], and the padding edges have length 0. Its vertices are held multiplied by
 * a power of two (exact): its own prescale after poly_make(), the pair's after pair_scale(). */
typedef struct cpoly {
    float x[NV], y[NV];
    float scale; /* poly_make(): the own prescale; pair_scale(): own / pair, the factor of the edges */
    int valid;   /* the polygon rule; -1: not checked yet (poly_check()) */
    int n; /* count clamped to 1..8: slots and edges from n on repeat vertex 0, loops stop there */
    float cnt, size; /* the count and the size (poly_wrap()), kept for a poly_check() after the load */
} cpoly;

/* The prescale of a polygon whose sum of |x| + |y| is `size` (satbox2d.h "Polygons"): a power of
 * two that brings a small polygon to size >= 2^-29 (2^-20 unless subnormal), so that no product of
 * two differences of its vertices is subnormal (underflow would break the bound, issue 24). 1 from
 * size 2^-20 on: no large value is scaled, nothing can overflow. NaN gives 1. */
static float prescale(float size)
{
    return size < 0x1p-80f ? 0x1p120f : size < 0x1p-20f ? 0x1p60f : 1.0f;
}

/* Multiplies the vertices by f (a power of two: exact, since the result is never below what
 * the caller's vertices were multiplied by before). Only the used slots are multiplied and the
 * slots from p->n on get vertex 0 again: the bits of multiplying all 8, since they hold vertex 0.
 * f == 1 changes no bit (x * 1 == x; a NaN stays a NaN, and NaN data makes the pair bad). */
static void poly_mul(cpoly *p, float f)
{
    if (f == 1.0f)
        return;
    for (int k = 0; k < p->n; k++) {
        p->x[k] = p->x[k] * f;
        p->y[k] = p->y[k] * f;
    }
    for (int k = p->n; k < NV; k++) {
        p->x[k] = p->x[0];
        p->y[k] = p->y[0];
    }
}

/* ---- validity ----------------------------------------------------------------------------- */

static float rect_size(const orect *r) { return ((fabsf(r->c[0]) + fabsf(r->c[1])) + r->h[0]) + r->h[1]; }

static int rect_valid(const orect *r)
{
    float size = rect_size(r);
    float du = fabsf((r->u[0] * r->u[0] + r->u[1] * r->u[1]) - 1.0f);
    return r->h[0] >= 0.0f && r->h[1] >= 0.0f && size <= SATBOX2D_COORD_LIMIT && du <= SATBOX2D_UNIT_TOL;
}

/* L1(a) = |ax| + |ay|. */
static float l1(float x, float y) { return fabsf(x) + fabsf(y); }

/* cross(a, b) >= -TOL * L1(a) * L1(b): a left turn (or straight, within the tolerance). The L1
 * lengths la, lb are passed in: each vector takes part in two tests (computed once, same bits). */
static int turn_ok(float ax, float ay, float la, float bx, float by, float lb)
{
    float cr = ax * by - ay * bx;
    float lim = SATBOX2D_CONVEX_TOL * (la * lb);
    return cr >= -lim;
}

/* The shape part of the polygon rule: left turns, once round vertex 0, and (*any_edge) an edge
 * of nonzero length. `cnt` is the vertex count; the slots past it hold vertex 0. Edges, turns and
 * fan vectors from p->n on are zero vectors, which pass every test (a vertex 0 that is not finite
 * makes them NaN, but then the size test has already failed): the loops stop at p->n, as the
 * wide kernel's stop at the step's largest count. */
static int poly_convex(const cpoly *p, float cnt, int *any_edge)
{
    float ex[NV], ey[NV], le[NV];
    int n = p->n;
    *any_edge = 0;
    for (int k = 0; k < n; k++) {
        ex[k] = p->x[(k + 1) % NV] - p->x[k];
        ey[k] = p->y[(k + 1) % NV] - p->y[k];
        le[k] = l1(ex[k], ey[k]);
        *any_edge |= ex[k] * ex[k] + ey[k] * ey[k] > 0.0f;
    }
    /* The last used vertex, for the turn at vertex 0. */
    float lx = p->x[2], ly = p->y[2];
    for (int k = 3; k < n; k++) {
        int used = (float)k < cnt;
        lx = used ? p->x[k] : lx;
        ly = used ? p->y[k] : ly;
    }
    float cx = p->x[0] - lx, cy = p->y[0] - ly;
    int convex = turn_ok(cx, cy, l1(cx, cy), ex[0], ey[0], le[0]);
    for (int k = 0; k < n - 1; k++)
        convex &= turn_ok(ex[k], ey[k], le[k], ex[k + 1], ey[k + 1], le[k + 1]);
    /* The fan from vertex 0: r_k = v[k] - v[0]. */
    float rx[NV], ry[NV], lr[NV];
    for (int k = 1; k < n; k++) {
        rx[k] = p->x[k] - p->x[0];
        ry[k] = p->y[k] - p->y[0];
        lr[k] = l1(rx[k], ry[k]);
    }
    for (int k = 1; k < n - 1; k++)
        convex &= turn_ok(rx[k], ry[k], lr[k], rx[k + 1], ry[k + 1], lr[k + 1]);
    return convex;
}

/* Raw slots x, y and count -> wrapped vertices times their prescale; returns the size. */
static float poly_wrap(const float x[NV], const float y[NV], float cnt, cpoly *p)
{
    float size = 0.0f;
    p->n = cnt < 1.0f ? 1 : cnt > 8.0f ? NV : (int)cnt;
    for (int k = 0; k < NV; k++) {
        int used = (float)k < cnt;
        p->x[k] = used ? x[k] : x[0];
        p->y[k] = used ? y[k] : y[0];
        if (k < p->n) /* the slots past n are unused: + 0 */
            size = size + (used ? fabsf(p->x[k]) + fabsf(p->y[k]) : 0.0f);
    }
    p->scale = prescale(size);
    poly_mul(p, p->scale);
    return size;
}

/* The polygon validity rule of satbox2d.h on p's own prescaled vertices (the shape tests), once:
 * before pair_scale() changes them, or after it when it changed nothing (both prescales 1). */
static void poly_check(cpoly *p)
{
    if (p->valid >= 0)
        return;
    int any_edge, convex = poly_convex(p, p->cnt, &any_edge);
    p->valid = p->cnt >= 3.0f && p->cnt <= 8.0f && p->size <= SATBOX2D_COORD_LIMIT && convex && any_edge;
}

/* Raw slots x, y and count -> prescaled wrapped vertices, validity not checked yet. */
static void poly_make(const float x[NV], const float y[NV], float cnt, cpoly *p)
{
    p->size = poly_wrap(x, y, cnt, p);
    p->cnt = cnt;
    p->valid = -1;
}

/* The pair's scale s: the smaller prescale of the two (and `limit`: a rectangle's, from its
 * distance to the origin); both polygons' vertices go to s times their own, their edge factor
 * to prescale / s. Returns s. */
static float pair_scale(cpoly *a, cpoly *b, float limit)
{
    float s = a->scale < b->scale ? a->scale : b->scale;
    s = limit < s ? limit : s;
    poly_mul(a, s / a->scale);
    poly_mul(b, s / b->scale);
    a->scale = a->scale / s;
    b->scale = b->scale / s;
    return s;
}

/* The rectangle as the polygon -a0 - a1, a0 - a1, a0 + a1, -a0 + a1 relative to its center
 * (issue 24: world corners rounded at the distance from the origin, not at the pair's size). */
static void poly_from_rect(const orect *r, cpoly *p)
{
    float a0x = r->h[0] * r->u[0], a0y = r->h[0] * r->u[1];
    float a1x = -(r->h[1] * r->u[1]), a1y = r->h[1] * r->u[0];
    float x[NV], y[NV];
    x[0] = -a0x - a1x;
    y[0] = -a0y - a1y;
    x[1] = a0x - a1x;
    y[1] = a0y - a1y;
    x[2] = a0x + a1x;
    y[2] = a0y + a1y;
    x[3] = -a0x + a1x;
    y[3] = -a0y + a1y;
    for (int k = 4; k < NV; k++)
        x[k] = y[k] = 0.0f; /* unused */
    p->size = poly_wrap(x, y, 4.0f, p);
    p->cnt = 4.0f;
    int any_edge; /* not required: a rectangle of zero extents is a point, B's edges test it */
    p->valid = rect_valid(r) && poly_convex(p, 4.0f, &any_edge);
}

/* ---- loading ------------------------------------------------------------------------------ */

static void load_rect(const satbox2d_rects *s, size_t i, orect *r)
{
    for (int c = 0; c < 2; c++) {
        r->c[c] = s->center[c][i];
        r->h[c] = s->half[c][i];
        r->u[c] = s->axis[c][i];
    }
}

/* Polygon i, prescaled and wrapped; the rule not checked yet (valid == -1: poly_check()). */
static void load_poly_raw(const satbox2d_polys *s, size_t i, cpoly *p)
{
    float x[NV], y[NV];
    for (int k = 0; k < NV; k++) {
        x[k] = s->x[k][i];
        y[k] = s->y[k][i];
    }
    poly_make(x, y, (float)s->count[i], p);
}

/* Pair i's polygons at the pair's scale; returns the scale, and in *bp where B's vertices are
 * for the differences w - v: B itself, or (rectangle vs polygon, which works relative to the
 * rectangle's center) *bt, B's vertices minus the center. B's edges stay those of its own
 * vertices: a translated copy would round them at the pair's size, not at B's. With `lazy`, a
 * polygon's validity may be left to a later poly_check() (valid == -1): when pair_scale() leaves
 * both polygons as they are (both prescales 1), the check after it sees the same bits. */
static float load_pair(const sbx_job2d *job, size_t i, cpoly *a, cpoly *b, cpoly *bt, const cpoly **bp, int lazy)
{
    *bp = b;
    float limit = 0x1p120f; /* no limit: the largest prescale */
    const sbx_src2d src = job->src;
    const int pool = sbx_src2d_is_pool(src);
    const size_t ia = pool ? job->pairs[i].a : i, ib = pool ? job->pairs[i].b : i; /* SBX_SOURCES2D's columns */
    orect r = {.c = {0.0f, 0.0f}}; /* read only when A is a rectangle, which sets it (GCC cannot tell once inlined) */
    if (sbx_src2d_a_rect(src)) { /* a rectangle as a 4-vertex polygon, limiting the prescale */
        load_rect(job->ra, ia, &r);
        poly_from_rect(&r, a);
        limit = prescale(rect_size(&r));
    } else {
        load_poly_raw(job->pa, ia, a);
    }
    load_poly_raw(pool ? job->pa : job->pb, ib, b);
    if (!lazy || a->scale != 1.0f || b->scale != 1.0f) {
        poly_check(a);
        poly_check(b);
    }
    float s = pair_scale(a, b, limit);
    if (sbx_src2d_a_rect(src)) { /* relative to the rectangle's center */
        float cx = r.c[0] * s, cy = r.c[1] * s;
        *bt = *b;
        for (int k = 0; k < NV; k++) {
            bt->x[k] = b->x[k] - cx;
            bt->y[k] = b->y[k] - cy;
        }
        *bp = bt;
    }
    return s;
}

/* load_pair() with both polygons checked. */
static float load_polys(const sbx_job2d *job, size_t i, cpoly *a, cpoly *b, cpoly *bt, const cpoly **bp)
{
    return load_pair(job, i, a, b, bt, bp, 0);
}

static void load_rects(const sbx_job2d *job, size_t i, orect *a, orect *b)
{
    if (sbx_src2d_is_pool(job->src)) {
        load_rect(job->ra, job->pairs[i].a, a);
        load_rect(job->ra, job->pairs[i].b, b);
    } else {
        load_rect(job->ra, i, a);
        load_rect(job->rb, i, b);
    }
}

/* ---- rectangles --------------------------------------------------------------------------- */

/* The 4 gaps g (axis order 0..3) and the signed projections p of cB - cA on the axes. */
static void rect_axes(const orect *A, const orect *B, float g[4], float p[4])
{
    float ca = A->u[0], sa = A->u[1], cb = B->u[0], sb = B->u[1];
    float c = ca * cb + sa * sb, s = sa * cb - ca * sb;
    float ac = fabsf(c), as = fabsf(s);
    float dx = B->c[0] - A->c[0], dy = B->c[1] - A->c[1];
    p[0] = dx * ca + dy * sa;
    p[1] = dy * ca - dx * sa;
    p[2] = dx * cb + dy * sb;
    p[3] = dy * cb - dx * sb;
    g[0] = fabsf(p[0]) - (A->h[0] + (B->h[0] * ac + B->h[1] * as));
    g[1] = fabsf(p[1]) - (A->h[1] + (B->h[0] * as + B->h[1] * ac));
    g[2] = fabsf(p[2]) - ((A->h[0] * ac + A->h[1] * as) + B->h[0]);
    g[3] = fabsf(p[3]) - ((A->h[0] * as + A->h[1] * ac) + B->h[1]);
}

/* ---- polygons ----------------------------------------------------------------------------- */

/* The smallest n . (w - v) over Q's first `nq` vertex slots w (v = (px, py)), in slot order; `nq` is
 * a constant at each call site (edge_gap()), as in sat2d_tpl.h's edge_min_w(). */
SBX_ALWAYS_INLINE float edge_min(const cpoly *Q, float px, float py, float nx, float ny, const int nq)
{
    float m = nx * (Q->x[0] - px) + ny * (Q->y[0] - py);
    for (int j = 1; j < nq; j++) {
        float v = nx * (Q->x[j] - px) + ny * (Q->y[j] - py);
        m = v < m ? v : m;
    }
    return m;
}

/* Edge k of E (the polygon P at P's place, or P itself) against Q: unnormalised outward normal
 * n, squared length, and the smallest n . (w - v_k) over Q's vertex slots w (v_k of P). The edge
 * is taken at E's own prescale (E->scale times the pair's: exact), the differences at the pair's. */
static float edge_gap(const cpoly *E, const cpoly *P, int k, const cpoly *Q, float *nx, float *ny, float *l2)
{
    float ex = (E->x[(k + 1) % NV] - E->x[k]) * E->scale, ey = (E->y[(k + 1) % NV] - E->y[k]) * E->scale;
    *nx = ey;
    *ny = -ex;
    *l2 = ex * ex + ey * ey;
    float px = P->x[k], py = P->y[k];
    switch (Q->n) { /* a constant trip count per case: unrolled, no loop control per vertex */
    case 1: return edge_min(Q, px, py, *nx, *ny, 1);
    case 2: return edge_min(Q, px, py, *nx, *ny, 2);
    case 3: return edge_min(Q, px, py, *nx, *ny, 3);
    case 4: return edge_min(Q, px, py, *nx, *ny, 4);
    case 5: return edge_min(Q, px, py, *nx, *ny, 5);
    case 6: return edge_min(Q, px, py, *nx, *ny, 6);
    case 7: return edge_min(Q, px, py, *nx, *ny, 7);
    default: return edge_min(Q, px, py, *nx, *ny, NV);
    }
}

/* Axis e (0..15) of the pair: edges of A against B, then edges of B against A (bp: B's vertices
 * for the differences, load_polys()). */
static float pair_gap(const cpoly *a, const cpoly *b, const cpoly *bp, int e, float *nx, float *ny, float *l2)
{
    return e < NV ? edge_gap(a, a, e, bp, nx, ny, l2) : edge_gap(b, bp, e - NV, a, nx, ny, l2);
}

/* The next axis id after e worth testing (edges from a polygon's n on have length 0). */
static int next_axis(const cpoly *a, const cpoly *b, int e)
{
    e++;
    if (e < NV && e >= a->n)
        e = NV;
    return e < NV + b->n ? e : 2 * NV;
}

/* ---- prepared polygons ---------------------------------------------------------------------- */

/* A prepared polygon (satbox2d_prepared) in the frame of the work and at the pair's scale: its
 * vertices (p, wrapped; p.scale its own prescale until load_prep_pair() changes it), the unit
 * outward normal and offset of each edge (an edge of length 0: normal 0, offset +inf, so that its
 * gap is -inf: it can neither separate nor be reported). */
typedef struct ppoly {
    cpoly p;
    float nx[NV], ny[NV], d[NV];
} ppoly;

/* A prepared pair: world polygons (SBX2D_PREP_POOL) are worked in the world, bodies (SBX2D_BODY_POOL)
 * in A's body frame, B's vertices and normals rotated and moved there (its offsets computed again
 * from them); both at the pair's scale s. world = origin + R(rc, rs) (local * (1 / s)). */
typedef struct ppair {
    ppoly a, b;
    float scale;
    float ox, oy, rc, rs;
    int valid;
} ppair;

static void load_prep(const satbox2d_prepared *pp, size_t i, ppoly *q)
{
    const satbox2d_prepared *r = &pp[i];
    memcpy(q->p.x, r->x, sizeof q->p.x);
    memcpy(q->p.y, r->y, sizeof q->p.y);
    memcpy(q->nx, r->nx, sizeof q->nx);
    memcpy(q->ny, r->ny, sizeof q->ny);
    memcpy(q->d, r->d, sizeof q->d);
    int c = r->count;
    q->p.n = c < 1 ? 1 : c > NV ? NV : c;
    q->p.scale = r->scale;
    q->p.valid = r->valid == 1;
}

/* Vertices and offsets times f (a power of two <= 1 that brings the own prescale to the pair's:
 * exact, as poly_mul()); f == 1 changes no bit. */
static void prep_mul(ppoly *q, float f)
{
    if (f == 1.0f)
        return;
    for (int k = 0; k < NV; k++) {
        q->p.x[k] = q->p.x[k] * f;
        q->p.y[k] = q->p.y[k] * f;
        q->d[k] = q->d[k] * f;
    }
}

/* A body's transform: finite, its position within SATBOX2D_COORD_LIMIT, its rotation unit within
 * SATBOX2D_UNIT_TOL (a rectangle's rule). */
static int xform_valid(float px, float py, float c, float s)
{
    float du = fabsf((c * c + s * s) - 1.0f);
    return fabsf(px) + fabsf(py) <= SATBOX2D_COORD_LIMIT && du <= SATBOX2D_UNIT_TOL;
}

/* Pair i of a prepared source, at the pair's scale s = the smaller prescale (bodies: and the
 * prescale of B's position in A's frame, so that it cannot overflow), in the frame of the work. */
static void load_prep_pair(const sbx_job2d *job, size_t i, ppair *q)
{
    const int body = sbx_src2d_is_body(job->src);
    const size_t ia = job->pairs[i].a, ib = job->pairs[i].b;
    load_prep(body ? job->bodies->shape : job->pp, ia, &q->a);
    load_prep(body ? job->bodies->shape : job->pp, ib, &q->b);
    q->valid = q->a.p.valid && q->b.p.valid;
    q->ox = q->oy = 0.0f;
    q->rc = 1.0f;
    q->rs = 0.0f;
    float limit = 0x1p120f, c = 1.0f, s = 0.0f, tx = 0.0f, ty = 0.0f;
    if (body) {
        const satbox2d_bodies *bd = job->bodies;
        float pax = bd->position[0][ia], pay = bd->position[1][ia], ca = bd->rotation[0][ia], sa = bd->rotation[1][ia];
        float pbx = bd->position[0][ib], pby = bd->position[1][ib], cb = bd->rotation[0][ib], sb = bd->rotation[1][ib];
        q->valid = q->valid && xform_valid(pax, pay, ca, sa) && xform_valid(pbx, pby, cb, sb);
        /* B's frame in A's: R = RA^T RB, t = RA^T (pB - pA). */
        c = ca * cb + sa * sb;
        s = ca * sb - sa * cb;
        float dx = pbx - pax, dy = pby - pay;
        tx = ca * dx + sa * dy;
        ty = ca * dy - sa * dx;
        limit = prescale(fabsf(tx) + fabsf(ty));
        q->ox = pax;
        q->oy = pay;
        q->rc = ca;
        q->rs = sa;
    }
    float sc = q->a.p.scale < q->b.p.scale ? q->a.p.scale : q->b.p.scale;
    sc = limit < sc ? limit : sc;
    prep_mul(&q->a, sc / q->a.p.scale);
    prep_mul(&q->b, sc / q->b.p.scale);
    q->scale = sc;
    if (body) { /* B into A's frame: its n slots; the wrapped ones (vertex 0 in the record) copies of
                   vertex 0's result; their normals and offsets are never read (edges past n) */
        float sx = tx * sc, sy = ty * sc;
        ppoly *b = &q->b;
        for (int k = 0; k < b->p.n; k++) {
            float x = b->p.x[k], y = b->p.y[k], nx = b->nx[k], ny = b->ny[k];
            b->p.x[k] = (c * x - s * y) + sx;
            b->p.y[k] = (s * x + c * y) + sy;
            b->nx[k] = c * nx - s * ny;
            b->ny[k] = s * nx + c * ny;
            float d = b->nx[k] * b->p.x[k] + b->ny[k] * b->p.y[k];
            b->d[k] = b->d[k] < INFINITY ? d : INFINITY;
        }
        for (int k = b->p.n; k < NV; k++) {
            b->p.x[k] = b->p.x[0];
            b->p.y[k] = b->p.y[0];
        }
    }
}

/* The smallest n . w over Q's first `nq` vertex slots w, in slot order (`nq` a constant at each
 * call site, as edge_min()). */
SBX_ALWAYS_INLINE float prep_min(const cpoly *Q, float nx, float ny, const int nq)
{
    float m = nx * Q->x[0] + ny * Q->y[0];
    for (int j = 1; j < nq; j++) {
        float v = nx * Q->x[j] + ny * Q->y[j];
        m = v < m ? v : m;
    }
    return m;
}

/* The gap of edge k of E against Q's first `nq` slots (a constant at each call site:
 * SBX_BY_COUNT2D): min over w of n . w, minus the edge's offset. Subtracting d after the minimum
 * gives the bits of the minimum of n . w - d (rounding is monotonic). Already along a unit normal. */
SBX_ALWAYS_INLINE float prep_gap(const ppoly *E, int k, const ppoly *Q, const int nq)
{
    return prep_min(&Q->p, E->nx[k], E->ny[k], nq) - E->d[k];
}

/* Overlap: *sep = 1 when an edge of E separates (E's n edges against Q's first nq slots). */
SBX_ALWAYS_INLINE void prep_side_sep(const ppoly *E, const ppoly *Q, int *sep, const int nq)
{
    for (int k = 0; k < E->p.n && !*sep; k++)
        *sep = prep_gap(E, k, Q, nq) > 0.0f;
}

/* Collide: E's n edges (axis ids id0 + k) against Q's first nq slots, into the best gap so far
 * (strictly larger: ties to the lower id; an edge of length 0 has -inf). */
SBX_ALWAYS_INLINE void prep_side_best(const ppoly *E, const ppoly *Q, int id0, float *best, int *id, const int nq)
{
    for (int k = 0; k < E->p.n; k++) {
        float g = prep_gap(E, k, Q, nq);
        if (g > *best) {
            *best = g;
            *id = id0 + k;
        }
    }
}

/* A vector of the frame of the work in the world (bodies: rotated by A's rotation; else as it is). */
static void to_world_dir(int body, float rc, float rs, float x, float y, float *wx, float *wy)
{
    *wx = body ? rc * x - rs * y : x;
    *wy = body ? rs * x + rc * y : y;
}

/* Rectangle pair i: gaps and projections; returns the validity of the pair. */
static int rect_pair(const sbx_job2d *job, size_t i, orect *a, orect *b, float g[4], float p[4])
{
    load_rects(job, i, a, b);
    rect_axes(a, b, g, p);
    return rect_valid(a) && rect_valid(b);
}

/* contacts2d_ref.c includes this file for the helpers above (SBX_SCALAR2D_SAT_ONLY). */
#ifndef SBX_SCALAR2D_SAT_ONLY
/* ---- the reference entry points ------------------------------------------------------------ */

static ptrdiff_t finish(const sbx_job2d *job, size_t i, int hit, int valid, size_t count)
{
    if (job->hit)
        job->hit[i] = (uint8_t)hit;
    if (job->bad)
        job->bad[i] = (uint8_t)!valid;
    if (hit && job->compact)
        job->compact[count] = (uint32_t)i;
    return hit;
}

static ptrdiff_t overlap2d(const sbx_job2d *job)
{
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        int valid, sep = 0;
        if (sbx_src2d_is_rects(job->src)) {
            orect a, b;
            float g[4], p[4];
            valid = rect_pair(job, i, &a, &b, g, p);
            sep = (g[0] > 0.0f || g[1] > 0.0f) || (g[2] > 0.0f || g[3] > 0.0f);
        } else if (sbx_src2d_is_prep(job->src)) {
            ppair q;
            load_prep_pair(job, i, &q); /* A's edges, then B's (the axis order of next_axis()) */
            SBX_BY_COUNT2D(q.b.p.n, prep_side_sep, &q.a, &q.b, &sep);
            if (!sep)
                SBX_BY_COUNT2D(q.a.p.n, prep_side_sep, &q.b, &q.a, &sep);
            valid = q.valid;
        } else {
            cpoly a, b, bt;
            const cpoly *bp;
            /* The sign of a gap does not depend on the scale. The validity is checked only where
             * it can change an output: a separated pair reads hit 0 either way (a bad pair too). */
            (void)load_pair(job, i, &a, &b, &bt, &bp, 1);
            for (int k = 0; k < 2 * NV && !sep; k = next_axis(&a, &b, k)) {
                float nx, ny, l2;
                float m = pair_gap(&a, &b, bp, k, &nx, &ny, &l2);
                sep |= l2 > 0.0f && m > 0.0f;
            }
            if (!sep || job->bad) {
                poly_check(&a);
                poly_check(&b);
            }
            valid = sep && !job->bad ? 1 : a.valid && b.valid;
        }
        count += (size_t)finish(job, i, valid && !sep, valid, count);
    }
    return (ptrdiff_t)count;
}

static void write_collide(const sbx_job2d *job, size_t i, int valid, float sep, float nx, float ny, int id)
{
    if (job->separation)
        job->separation[i] = valid ? sep : NAN;
    if (job->normal[0])
        job->normal[0][i] = valid ? nx : 0.0f;
    if (job->normal[1])
        job->normal[1][i] = valid ? ny : 0.0f;
    if (job->axis)
        job->axis[i] = (uint8_t)(valid ? id : (int)SATBOX_AXIS_INVALID);
}

static ptrdiff_t collide2d(const sbx_job2d *job)
{
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        int valid, id = 0, hit;
        float best, nx, ny;
        if (sbx_src2d_is_rects(job->src)) {
            orect a, b;
            float g[4], p[4];
            valid = rect_pair(job, i, &a, &b, g, p);
            best = g[0];
            for (int k = 1; k < 4; k++)
                if (g[k] > best) {
                    best = g[k];
                    id = k;
                }
            const orect *r = id < 2 ? &a : &b;
            float c = r->u[0], s = r->u[1];
            nx = id % 2 == 0 ? c : -s;
            ny = id % 2 == 0 ? s : c;
            if (p[id] < 0.0f) {
                nx = -nx;
                ny = -ny;
            }
            hit = best <= job->margin;
        } else if (sbx_src2d_is_prep(job->src)) {
            ppair q;
            load_prep_pair(job, i, &q);
            valid = q.valid;
            best = -INFINITY;
            SBX_BY_COUNT2D(q.b.p.n, prep_side_best, &q.a, &q.b, 0, &best, &id);
            SBX_BY_COUNT2D(q.a.p.n, prep_side_best, &q.b, &q.a, NV, &best, &id);
            const ppoly *E = id < NV ? &q.a : &q.b;
            float ux = E->nx[id % NV], uy = E->ny[id % NV];
            if (id >= NV) {
                ux = -ux;
                uy = -uy;
            }
            to_world_dir(sbx_src2d_is_body(job->src), q.rc, q.rs, ux, uy, &nx, &ny);
            hit = best <= job->margin * q.scale;
            float out = best * (1.0f / q.scale) + 0.0f;
            best = out == 0.0f && best > 0.0f ? 0x1p-149f : out;
        } else {
            cpoly a, b, bt;
            const cpoly *bp;
            float scale = load_polys(job, i, &a, &b, &bt, &bp);
            valid = a.valid && b.valid;
            float bnx = 0.0f, bny = 0.0f, blen = 1.0f;
            best = -INFINITY;
            for (int k = 0; k < 2 * NV; k = next_axis(&a, &b, k)) {
                float enx, eny, l2;
                float m = pair_gap(&a, &b, bp, k, &enx, &eny, &l2);
                float len = sqrtf(l2);
                float s = m / len;
                s = (s == 0.0f ? m : s) + 0.0f; /* keeps the sign of m (an underflowed quotient); -0 -> +0 */
                if (l2 > 0.0f && s > best) {
                    best = s;
                    id = k;
                    bnx = enx;
                    bny = eny;
                    blen = len;
                }
            }
            nx = bnx / blen;
            ny = bny / blen;
            if (id >= NV) {
                nx = -nx;
                ny = -ny;
            }
            /* Back to length units: hit from the scaled values (margin * scale is exact, or +-inf
             * where the true comparison is certain); a positive separation that underflows
             * becomes the smallest positive float, keeping its sign. */
            hit = best <= job->margin * scale;
            float out = best * (1.0f / scale) + 0.0f;
            best = out == 0.0f && best > 0.0f ? 0x1p-149f : out;
        }
        write_collide(job, i, valid, best, nx, ny, id);
        count += (size_t)finish(job, i, valid && hit, valid, count);
    }
    return (ptrdiff_t)count;
}

/* ---- satbox2d_poly_prepare() ---------------------------------------------------------------- */

/* Polygon i as satbox2d_prepared holds it: the wrapped vertices at its own prescale (load_poly_raw),
 * the rule (poly_check), and per edge its unit outward normal (the edge vector at the prescale,
 * divided by its IEEE length) and offset n . v[k]. */
static int prepare_one(const satbox2d_polys *in, size_t i, satbox2d_prepared *out)
{
    cpoly p;
    load_poly_raw(in, i, &p);
    poly_check(&p);
    for (int k = 0; k < NV; k++) {
        float ex = p.x[(k + 1) % NV] - p.x[k], ey = p.y[(k + 1) % NV] - p.y[k];
        float l2 = ex * ex + ey * ey;
        float len = sqrtf(l2);
        float nx = l2 > 0.0f ? ey / len : 0.0f, ny = l2 > 0.0f ? -ex / len : 0.0f;
        out->x[k] = p.x[k];
        out->y[k] = p.y[k];
        out->nx[k] = nx;
        out->ny[k] = ny;
        out->d[k] = l2 > 0.0f ? nx * p.x[k] + ny * p.y[k] : INFINITY;
    }
    out->scale = p.scale;
    out->count = in->count[i];
    out->valid = (uint8_t)(p.valid != 0);
    out->pad[0] = out->pad[1] = 0;
    return p.valid != 0;
}

ptrdiff_t sbx_prepare2d(const satbox2d_polys *in, size_t n, satbox2d_prepared *out)
{
    ptrdiff_t valid = 0;
    for (size_t i = 0; i < n; i++)
        valid += prepare_one(in, i, &out[i]);
    return valid;
}

/* The 2D kernels of the scalar path's table (kernel_scalar.c). */
ptrdiff_t sbx_scalar_overlap2d(const sbx_job2d *job) { return overlap2d(job); }
ptrdiff_t sbx_scalar_collide2d(const sbx_job2d *job) { return collide2d(job); }
#endif /* SBX_SCALAR2D_SAT_ONLY */

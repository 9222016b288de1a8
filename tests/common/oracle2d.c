/* oracle2d.c - independent 2D references in long double: the classic vertex-projection SAT and a SAT-free intersection test. */
/* SPDX-License-Identifier: MIT */
#include "oracle2d.h"

#include <math.h>

void or2_from_poly(const tb_poly *p, or2_poly *o)
{
    o->n = p->n;
    for (int k = 0; k < p->n; k++) {
        o->x[k] = p->x[k];
        o->y[k] = p->y[k];
    }
}

void or2_from_rect(const tb_rect *r, or2_poly *o)
{
    /* In long double directly (the double corners of support2d would round). */
    long double a0x = (long double)r->h[0] * r->u[0], a0y = (long double)r->h[0] * r->u[1];
    long double a1x = -(long double)r->h[1] * r->u[1], a1y = (long double)r->h[1] * r->u[0];
    static const int s0[4] = {-1, 1, 1, -1}, s1[4] = {-1, -1, 1, 1};
    o->n = 4;
    for (int k = 0; k < 4; k++) {
        o->x[k] = r->c[0] + s0[k] * a0x + s1[k] * a1x;
        o->y[k] = r->c[1] + s0[k] * a0y + s1[k] * a1y;
    }
}

/* Interval of a polygon's vertices projected on (nx, ny). */
static void project(const or2_poly *p, long double nx, long double ny, long double *lo, long double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int k = 0; k < p->n; k++) {
        long double v = nx * p->x[k] + ny * p->y[k];
        *lo = v < *lo ? v : *lo;
        *hi = v > *hi ? v : *hi;
    }
}

long double or2_axis_gap(const or2_poly *a, const or2_poly *b, int axis, long double normal[2])
{
    const or2_poly *p = axis < SATBOX2D_MAX_VERTS ? a : b;
    int k = axis % SATBOX2D_MAX_VERTS;
    if (k >= p->n)
        return NAN;
    int k1 = (k + 1) % p->n;
    long double ex = p->x[k1] - p->x[k], ey = p->y[k1] - p->y[k], len = sqrtl(ex * ex + ey * ey);
    if (!(len > 0))
        return NAN;
    long double nx = ey / len, ny = -ex / len; /* outward for counter-clockwise */
    if (p == b) {
        nx = -nx; /* from A towards B */
        ny = -ny;
    }
    long double alo, ahi, blo, bhi;
    project(a, nx, ny, &alo, &ahi);
    project(b, nx, ny, &blo, &bhi);
    normal[0] = nx;
    normal[1] = ny;
    return blo - ahi; /* one-sided: B beyond A along the normal */
}

/* The SAT's reduction step: axis id (gap g, normal n) becomes the answer when its gap is larger
 * than the best so far; of equal gaps the first stays, and a NaN gap never wins. */
static void keep_largest(long double g, const long double n[2], int id, long double *best, int *axis,
                         long double normal[2])
{
    if (g > *best) {
        *best = g;
        *axis = id;
        normal[0] = n[0];
        normal[1] = n[1];
    }
}

long double or2_sat(const or2_poly *a, const or2_poly *b, int *axis, long double normal[2])
{
    long double best = -INFINITY;
    *axis = -1;
    for (int id = 0; id < 2 * SATBOX2D_MAX_VERTS; id++) {
        long double n[2], g = or2_axis_gap(a, b, id, n);
        keep_largest(g, n, id, &best, axis, normal);
    }
    return best;
}

long double or2_rect_axis_gap(const tb_rect *a, const tb_rect *b, int axis, long double normal[2])
{
    const tb_rect *r = axis < 2 ? a : b;
    long double c = r->u[0], s = r->u[1], len = sqrtl(c * c + s * s);
    long double ux = axis % 2 == 0 ? c / len : -s / len, uy = axis % 2 == 0 ? s / len : c / len;
    or2_poly pa, pb;
    or2_from_rect(a, &pa);
    or2_from_rect(b, &pb);
    long double alo, ahi, blo, bhi;
    project(&pa, ux, uy, &alo, &ahi);
    project(&pb, ux, uy, &blo, &bhi);
    /* Two-sided on a rectangle axis: the normal points the way B lies. */
    long double d = ((long double)b->c[0] - a->c[0]) * ux + ((long double)b->c[1] - a->c[1]) * uy;
    if (d < 0) {
        ux = -ux;
        uy = -uy;
    }
    normal[0] = ux;
    normal[1] = uy;
    long double g1 = blo - ahi, g2 = alo - bhi;
    return g1 > g2 ? g1 : g2;
}

long double or2_rect_sat(const tb_rect *a, const tb_rect *b, int *axis, long double normal[2])
{
    long double best = -INFINITY;
    for (int id = 0; id < 4; id++) {
        long double n[2], g = or2_rect_axis_gap(a, b, id, n);
        keep_largest(g, n, id, &best, axis, normal);
    }
    return best;
}

/* ---- SAT-free ----------------------------------------------------------------------------- */

static int orient(long double ax, long double ay, long double bx, long double by, long double cx, long double cy)
{
    long double d = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (d > 0) - (d < 0);
}

static int on_segment(long double ax, long double ay, long double bx, long double by, long double px, long double py)
{
    return fminl(ax, bx) <= px && px <= fmaxl(ax, bx) && fminl(ay, by) <= py && py <= fmaxl(ay, by);
}

static int segments_meet(const or2_poly *p, int i, const or2_poly *q, int j)
{
    long double ax = p->x[i], ay = p->y[i], bx = p->x[(i + 1) % p->n], by = p->y[(i + 1) % p->n];
    long double cx = q->x[j], cy = q->y[j], dx = q->x[(j + 1) % q->n], dy = q->y[(j + 1) % q->n];
    int o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
    int o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return 1;
    return (o1 == 0 && on_segment(ax, ay, bx, by, cx, cy)) || (o2 == 0 && on_segment(ax, ay, bx, by, dx, dy)) ||
           (o3 == 0 && on_segment(cx, cy, dx, dy, ax, ay)) || (o4 == 0 && on_segment(cx, cy, dx, dy, bx, by));
}

/* Point inside or on a convex polygon of nonzero area: never right of any edge (counter-clockwise).
 * A zero-area polygon contains nothing beyond its edges, which segments_meet() covers. */
static int inside(const or2_poly *p, long double x, long double y)
{
    int pos = 0;
    for (int k = 0; k < p->n; k++) {
        int o = orient(p->x[k], p->y[k], p->x[(k + 1) % p->n], p->y[(k + 1) % p->n], x, y);
        if (o < 0)
            return 0;
        pos |= o > 0;
    }
    return pos;
}

int or2_intersect(const or2_poly *a, const or2_poly *b)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            if (segments_meet(a, i, b, j))
                return 1;
    return inside(b, a->x[0], a->y[0]) || inside(a, b->x[0], b->y[0]);
}

long double or2_scale(const or2_poly *a, const or2_poly *b)
{
    long double lox = INFINITY, hix = -INFINITY, loy = INFINITY, hiy = -INFINITY;
    const or2_poly *ps[2] = {a, b};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < ps[s]->n; k++) {
            lox = fminl(lox, ps[s]->x[k]);
            hix = fmaxl(hix, ps[s]->x[k]);
            loy = fminl(loy, ps[s]->y[k]);
            hiy = fmaxl(hiy, ps[s]->y[k]);
        }
    return (hix - lox) + (hiy - loy);
}

long double or2_edge_dist(const or2_poly *p, int k, long double x, long double y)
{
    int k1 = (k + 1) % p->n;
    long double ex = p->x[k1] - p->x[k], ey = p->y[k1] - p->y[k];
    long double len = sqrtl(ex * ex + ey * ey);
    if (!(len > 0))
        return NAN;
    return (ey * (x - p->x[k]) - ex * (y - p->y[k])) / len;
}

long double or2_outside(const or2_poly *p, long double x, long double y)
{
    long double worst = -INFINITY;
    for (int k = 0; k < p->n; k++) {
        long double d = or2_edge_dist(p, k, x, y);
        if (d == d && d > worst)
            worst = d;
    }
    return worst;
}

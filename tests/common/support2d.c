/* support2d.c - 2D test/bench support: random rectangle and polygon families, owning SoA arrays. */
/* SPDX-License-Identifier: MIT */
#include "support2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NV SATBOX2D_MAX_VERTS
#define TAU 6.283185307179586

const char *tb2_family_name(tb2_family f)
{
    static const char *names[TB2_FAMILY_COUNT] = {"uniform", "touching",  "grid", "identical", "scales", "thin",
                                                  "contained", "tiny", "far",  "dent",      "bad"};
    return (unsigned)f < TB2_FAMILY_COUNT ? names[f] : "?";
}

/* ---- maps (TB2_TINY, TB2_FAR) ----------------------------------------------------------- */

tb2_family tb2_family_map(tb_rng *r, tb2_family f, tb2_map *m)
{
    m->s = 1;
    m->ox = m->oy = 0;
    if (f != TB2_TINY && f != TB2_FAR)
        return f;
    tb2_family base = tb_next(r) % 2 ? TB2_TOUCHING : TB2_UNIFORM;
    if (f == TB2_TINY) {
        m->s = ldexp(1.0, -56 - (int)(tb_next(r) % 75)); /* 2^-56 .. 2^-130 */
    } else {
        double d = pow(10.0, tb_range(r, 3, 5)), t = tb_range(r, 0, TAU);
        m->ox = (float)(d * cos(t));
        m->oy = (float)(d * sin(t));
    }
    return base;
}

void tb2_map_rect(const tb2_map *m, tb_rect *q)
{
    q->c[0] = (float)(m->s * q->c[0] + m->ox);
    q->c[1] = (float)(m->s * q->c[1] + m->oy);
    q->h[0] = (float)(m->s * q->h[0]);
    q->h[1] = (float)(m->s * q->h[1]);
}

void tb2_map_poly(const tb2_map *m, tb_poly *p)
{
    for (int k = 0; k < p->n && k < NV; k++) {
        p->x[k] = (float)(m->s * p->x[k] + m->ox);
        p->y[k] = (float)(m->s * p->y[k] + m->oy);
    }
}

/* ---- rectangles --------------------------------------------------------------------------- */

static void random_rect(tb_rng *r, double cx, double cy, double lo, double hi, tb_rect *q)
{
    double t = tb_range(r, 0, TAU);
    q->c[0] = (float)cx;
    q->c[1] = (float)cy;
    q->h[0] = (float)tb_range(r, lo, hi);
    q->h[1] = (float)tb_range(r, lo, hi);
    q->u[0] = (float)cos(t);
    q->u[1] = (float)sin(t);
}

/* Gap of the pair on unit axis (ux, uy), and the sign of (cB - cA) . u, in double. */
static double rect_gap(const tb_rect *a, const tb_rect *b, double ux, double uy, double *sign)
{
    double d = ((double)b->c[0] - a->c[0]) * ux + ((double)b->c[1] - a->c[1]) * uy;
    double ra = a->h[0] * fabs(a->u[0] * ux + a->u[1] * uy) + a->h[1] * fabs(-a->u[1] * ux + a->u[0] * uy);
    double rb = b->h[0] * fabs(b->u[0] * ux + b->u[1] * uy) + b->h[1] * fabs(-b->u[1] * ux + b->u[0] * uy);
    *sign = d < 0 ? -1.0 : 1.0;
    return fabs(d) - (ra + rb);
}

static void bad_rect(tb_rng *r, tb_rect *q)
{
    switch (tb_next(r) % 7) {
    case 0: q->c[tb_next(r) % 2] = NAN; break;
    case 1: q->h[tb_next(r) % 2] = INFINITY; break;
    case 2: q->h[tb_next(r) % 2] = -0.25f; break;
    case 3: q->u[0] *= 1.01f; break; /* not unit */
    case 4: q->u[tb_next(r) % 2] = NAN; break;
    case 5: q->c[0] = 2e15f; break;
    default: q->u[0] = q->u[1] = 0.0f; break;
    }
}

void tb2_rect_pair(tb_rng *r, tb2_family f, tb_rect *a, tb_rect *b)
{
    if (f == TB2_TINY || f == TB2_FAR) {
        tb2_map m;
        tb2_rect_pair(r, tb2_family_map(r, f, &m), a, b);
        tb2_map_rect(&m, a);
        tb2_map_rect(&m, b);
        return;
    }
    switch (f) {
    case TB2_DENT:
        tb2_rect_pair(r, TB2_UNIFORM, a, b);
        return;
    case TB2_GRID:
        for (int s = 0; s < 2; s++) {
            tb_rect *q = s ? b : a;
            q->c[0] = (float)((double)(tb_next(r) % 17) / 4 - 2);
            q->c[1] = (float)((double)(tb_next(r) % 17) / 4 - 2);
            q->h[0] = (float)((double)(tb_next(r) % 7) / 4);
            q->h[1] = (float)((double)(tb_next(r) % 7) / 4);
            int quarter = (int)(tb_next(r) % 4); /* 0, 90, 180, 270 degrees: exact cos and sin */
            q->u[0] = (float)(quarter == 0 ? 1 : quarter == 2 ? -1 : 0);
            q->u[1] = (float)(quarter == 1 ? 1 : quarter == 3 ? -1 : 0);
        }
        return;
    case TB2_IDENTICAL:
        random_rect(r, tb_range(r, -2, 2), tb_range(r, -2, 2), 0.1, 1.5, a);
        *b = *a;
        return;
    case TB2_CONTAINED: {
        random_rect(r, tb_range(r, -2, 2), tb_range(r, -2, 2), 0.5, 1.5, a);
        double m = fmin(a->h[0], a->h[1]);
        random_rect(r, 0, 0, 0.01 * m, 0.3 * m, b);
        double rb = hypot(b->h[0], b->h[1]), s0 = tb_range(r, -1, 1) * (a->h[0] - rb),
               s1 = tb_range(r, -1, 1) * (a->h[1] - rb);
        b->c[0] = (float)(a->c[0] + s0 * a->u[0] - s1 * a->u[1]);
        b->c[1] = (float)(a->c[1] + s0 * a->u[1] + s1 * a->u[0]);
        return;
    }
    default:
        break;
    }
    double scale = f == TB2_SCALES ? pow(10.0, tb_range(r, -3, 4)) : 1.0;
    double ox = f == TB2_SCALES ? scale * tb_range(r, -1e3, 1e3) : 0, oy = f == TB2_SCALES ? scale * tb_range(r, -1e3, 1e3) : 0;
    double cx = ox + scale * tb_range(r, -1, 1), cy = oy + scale * tb_range(r, -1, 1);
    random_rect(r, cx, cy, 0.1 * scale, 1.5 * scale, a);
    random_rect(r, cx + scale * tb_range(r, -2.5, 2.5), cy + scale * tb_range(r, -2.5, 2.5), 0.1 * scale,
                1.5 * scale, b);
    if (f == TB2_THIN) {
        a->h[tb_next(r) % 2] = 0.0f;
        if (tb_next(r) % 2)
            b->h[tb_next(r) % 2] = 0.0f;
    } else if (f == TB2_TOUCHING) {
        int k = (int)(tb_next(r) % 4);
        const tb_rect *o = k < 2 ? a : b;
        double ux = k % 2 == 0 ? o->u[0] : -o->u[1], uy = k % 2 == 0 ? o->u[1] : o->u[0], sign;
        double g = rect_gap(a, b, ux, uy, &sign), delta = tb_range(r, -1e-5, 1e-5);
        b->c[0] = (float)(b->c[0] + sign * (delta - g) * ux);
        b->c[1] = (float)(b->c[1] + sign * (delta - g) * uy);
    } else if (f == TB2_BAD) {
        bad_rect(r, tb_next(r) % 2 ? a : b);
    }
}

void tb2_rect_corners(const tb_rect *q, double x[4], double y[4])
{
    double a0x = (double)q->h[0] * q->u[0], a0y = (double)q->h[0] * q->u[1];
    double a1x = -(double)q->h[1] * q->u[1], a1y = (double)q->h[1] * q->u[0];
    static const int s0[4] = {-1, 1, 1, -1}, s1[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) {
        x[k] = q->c[0] + s0[k] * a0x + s1[k] * a1x;
        y[k] = q->c[1] + s0[k] * a0y + s1[k] * a1y;
    }
}

void tb2_rect_as_poly(const tb_rect *q, tb_poly *p)
{
    float a0x = q->h[0] * q->u[0], a0y = q->h[0] * q->u[1];
    float a1x = -(q->h[1] * q->u[1]), a1y = q->h[1] * q->u[0];
    p->n = 4;
    p->x[0] = (q->c[0] - a0x) - a1x;
    p->y[0] = (q->c[1] - a0y) - a1y;
    p->x[1] = (q->c[0] + a0x) - a1x;
    p->y[1] = (q->c[1] + a0y) - a1y;
    p->x[2] = (q->c[0] + a0x) + a1x;
    p->y[2] = (q->c[1] + a0y) + a1y;
    p->x[3] = (q->c[0] - a0x) + a1x;
    p->y[3] = (q->c[1] - a0y) + a1y;
    for (int k = 4; k < NV; k++)
        p->x[k] = p->y[k] = 0.0f;
}

/* ---- polygons ----------------------------------------------------------------------------- */

static void garbage_slots(tb_rng *r, tb_poly *p)
{
    static const float junk[4] = {NAN, INFINITY, -1e30f, 12345.0f};
    for (int k = p->n; k < NV; k++) {
        p->x[k] = junk[tb_next(r) % 4];
        p->y[k] = junk[tb_next(r) % 4];
    }
}

void tb2_random_poly(tb_rng *r, int n, double cx, double cy, double scale, tb_poly *p)
{
    double ra = scale * tb_range(r, 0.5, 1.0), rb = scale * tb_range(r, 0.5, 1.0), phi = tb_range(r, 0, TAU);
    double t0 = tb_range(r, 0, TAU), cp = cos(phi), sp = sin(phi);
    p->n = (uint8_t)n;
    for (int k = 0; k < n; k++) {
        double t = t0 + TAU * (k + tb_range(r, 0.1, 0.9)) / n;
        double lx = ra * cos(t), ly = rb * sin(t);
        p->x[k] = (float)(cx + cp * lx - sp * ly);
        p->y[k] = (float)(cy + sp * lx + cp * ly);
    }
    garbage_slots(r, p);
}

void tb2_push_touch(tb_rng *r, const tb_poly *a, tb_poly *b)
{
    int na = a->n, k = (int)(tb_next(r) % (uint64_t)na), k1 = (k + 1) % na;
    double ex = (double)a->x[k1] - a->x[k], ey = (double)a->y[k1] - a->y[k], len = hypot(ex, ey);
    if (!(len > 0))
        return;
    double nx = ey / len, ny = -ex / len, m = INFINITY;
    for (int j = 0; j < b->n; j++) {
        /* a plain compare, not fmin(): aarch64 gcc 12 crashed vectorising the fmin reduction */
        double v = nx * ((double)b->x[j] - a->x[k]) + ny * ((double)b->y[j] - a->y[k]);
        m = v < m ? v : m;
    }
    double shift = tb_range(r, -1e-5, 1e-5) - m;
    for (int j = 0; j < b->n; j++) {
        b->x[j] = (float)(b->x[j] + shift * nx);
        b->y[j] = (float)(b->y[j] + shift * ny);
    }
}

static int rand_count(tb_rng *r, int nmin, int nmax) { return nmin + (int)(tb_next(r) % (uint64_t)(nmax - nmin + 1)); }

static void bad_poly(tb_rng *r, tb_poly *p)
{
    int n = p->n;
    switch (tb_next(r) % 9) {
    case 0: p->n = (uint8_t)(tb_next(r) % 3); break;          /* 0, 1 or 2 vertices */
    case 1: p->n = (uint8_t)(9 + tb_next(r) % 247); break;    /* 9..255 */
    case 2: p->x[tb_next(r) % (uint64_t)n] = NAN; break;
    case 3: p->y[tb_next(r) % (uint64_t)n] = -INFINITY; break;
    case 4: /* clockwise */
        for (int k = 0; k < n / 2; k++) {
            float tx = p->x[k], ty = p->y[k];
            p->x[k] = p->x[n - 1 - k];
            p->y[k] = p->y[n - 1 - k];
            p->x[n - 1 - k] = tx;
            p->y[n - 1 - k] = ty;
        }
        break;
    case 5: { /* one vertex pulled past the centroid: reflex (n >= 4) or clockwise (n == 3) */
        double mx = 0, my = 0;
        for (int k = 0; k < n; k++)
            mx += p->x[k] / n, my += p->y[k] / n;
        int k = (int)(tb_next(r) % (uint64_t)n);
        p->x[k] = (float)(mx + 0.5 * (mx - p->x[k]));
        p->y[k] = (float)(my + 0.5 * (my - p->y[k]));
        break;
    }
    case 6: { /* a star: vertices 0, 2, 4, ... then 1, 3, ... of a convex polygon with n >= 5 */
        tb2_random_poly(r, n < 5 ? 5 : n, p->x[0], p->y[0], 1.0, p);
        tb_poly q = *p;
        int m = 0, step = p->n % 2 ? 2 : 3;
        for (int k = 0; k < p->n; k++, m = (m + step) % p->n) {
            p->x[k] = q.x[m];
            p->y[k] = q.y[m];
        }
        if (p->n == 6) /* 6 and step 3 repeats: make it 6-gon order 0 2 4 1 3 5 (two triangles) */
            for (int k = 0; k < 6; k++) {
                int src = (2 * k) % 6 + (k >= 3);
                p->x[k] = q.x[src];
                p->y[k] = q.y[src];
            }
        break;
    }
    case 7: /* all vertices equal */
        for (int k = 1; k < n; k++)
            p->x[k] = p->x[0], p->y[k] = p->y[0];
        break;
    default: p->x[0] = 2e15f; break;
    }
}

/* Centroid of the vertices (double). */
static void vcenter(const tb_poly *p, double *mx, double *my)
{
    *mx = *my = 0;
    for (int k = 0; k < p->n; k++)
        *mx += p->x[k] / p->n, *my += p->y[k] / p->n;
}

/* TB2_DENT. In a local frame: A = p0 (0,0), p1 (a, d), p2 (1, 0), p3 (1, h), p4 (0, h), counter-clockwise,
 * p1 a reflex vertex d inside the chord p0 p2, d the deepest the turn test admits at 45 degrees
 * (cross(e0, e1) = -2d there against TOL * L1(e0) * L1(e1) = 4 TOL a (1 - a)). The line of edge 0
 * passes d' = d / a above p2, so edge 0's gap ignores the sliver of A beyond it; B, a triangle right
 * of that line, pokes 0.85 d' into the sliver. Turned 45 degrees by (x, y) -> (x - y, x + y), exact
 * for A (a < 1/16 and d a multiple of 2^-28 fit in 24 bits), then by a multiple of 90 degrees and a
 * power-of-two scale (exact); A and B swap roles half the time. */
static void dent_pair(tb_rng *r, tb_poly *a, tb_poly *b)
{
    double ea = ldexp((double)(32 + tb_next(r) % 32), -10); /* 1/32 .. 1/16 */
    double dmax = 2.0 * (double)SATBOX2D_CONVEX_TOL * ea * (1 - ea);
    double d = ldexp(floor(0.95 * dmax * 0x1p28), -28), h = ldexp((double)(1 + tb_next(r) % 16), -6);
    double dp = d / ea;
    double ax[5] = {0, ea, 1, 1, 0}, ay[5] = {0, d, 0, h, h};
    double bx[3] = {1 - dp, 1 + 2 * dp, 1 + 2 * dp}, by[3] = {0.85 * dp * (1 - dp), -2 * dp, 0.85 * dp * (1 - dp)};
    int quarter = (int)(tb_next(r) % 4), swap = (int)(tb_next(r) % 2);
    double s = ldexp(1.0, (int)(tb_next(r) % 17) - 8);
    tb_poly *pa = swap ? b : a, *pb = swap ? a : b;
    for (int q = 0; q < 2; q++) {
        tb_poly *p = q ? pb : pa;
        const double *xs = q ? bx : ax, *ys = q ? by : ay;
        p->n = (uint8_t)(q ? 3 : 5);
        for (int k = 0; k < p->n; k++) {
            double x = xs[k] - ys[k], y = xs[k] + ys[k];
            for (int t = 0; t < quarter; t++) {
                double tx = -y;
                y = x;
                x = tx;
            }
            p->x[k] = (float)(s * x);
            p->y[k] = (float)(s * y);
        }
        garbage_slots(r, p);
    }
}

void tb2_poly_pair(tb_rng *r, tb2_family f, int na, int nb, tb_poly *a, tb_poly *b)
{
    if (f == TB2_TINY || f == TB2_FAR) {
        tb2_map m;
        tb2_poly_pair(r, tb2_family_map(r, f, &m), na, nb, a, b);
        tb2_map_poly(&m, a);
        tb2_map_poly(&m, b);
        return;
    }
    if (f == TB2_DENT) {
        dent_pair(r, a, b);
        return;
    }
    na = na ? na : rand_count(r, 3, 8);
    nb = nb ? nb : rand_count(r, 3, 8);
    double scale = f == TB2_SCALES ? pow(10.0, tb_range(r, -3, 4)) : 1.0;
    double ox = f == TB2_SCALES ? scale * tb_range(r, -1e3, 1e3) : 0, oy = f == TB2_SCALES ? scale * tb_range(r, -1e3, 1e3) : 0;
    double cx = ox + scale * tb_range(r, -1, 1), cy = oy + scale * tb_range(r, -1, 1);
    switch (f) {
    case TB2_GRID: /* axis-aligned rectangles and right triangles with quarter-unit coordinates */
        for (int s = 0; s < 2; s++) {
            tb_poly *p = s ? b : a;
            float x0 = (float)((double)(tb_next(r) % 17) / 4 - 2), y0 = (float)((double)(tb_next(r) % 17) / 4 - 2);
            float w = (float)((double)(1 + tb_next(r) % 6) / 4), h = (float)((double)(1 + tb_next(r) % 6) / 4);
            float xs[4] = {x0, x0 + w, x0 + w, x0}, ys[4] = {y0, y0, y0 + h, y0 + h};
            int tri = (int)(tb_next(r) % 2);
            p->n = (uint8_t)(tri ? 3 : 4);
            for (int k = 0, m = 0; k < 4; k++) {
                if (tri && k == 2)
                    continue;
                p->x[m] = xs[k];
                p->y[m++] = ys[k];
            }
            garbage_slots(r, p);
        }
        return;
    case TB2_CONTAINED: {
        /* B: a random polygon inside the largest circle around A's vertex centroid that A contains. */
        tb2_random_poly(r, na, cx, cy, scale * tb_range(r, 0.5, 1.5), a);
        double mx, my, rin = INFINITY;
        vcenter(a, &mx, &my);
        for (int k = 0; k < na; k++) {
            int k1 = (k + 1) % na;
            double ex = (double)a->x[k1] - a->x[k], ey = (double)a->y[k1] - a->y[k];
            rin = fmin(rin, fabs(ex * (my - a->y[k]) - ey * (mx - a->x[k])) / hypot(ex, ey));
        }
        tb2_random_poly(r, nb, mx, my, rin * tb_range(r, 0.05, 0.9), b);
        return;
    }
    default:
        break;
    }
    tb2_random_poly(r, na, cx, cy, scale * tb_range(r, 0.2, 1.5), a);
    if (f == TB2_IDENTICAL) {
        *b = *a;
        return;
    }
    tb2_random_poly(r, nb, cx + scale * tb_range(r, -2.5, 2.5), cy + scale * tb_range(r, -2.5, 2.5),
                    scale * tb_range(r, 0.2, 1.5), b);
    if (f == TB2_THIN) {
        /* A collapses to a segment (vertices on one line, repeated) or gets a repeated vertex. */
        int k = (int)(tb_next(r) % (uint64_t)na);
        if (tb_next(r) % 2) {
            /* Out and back along a line through dyadic points (exactly collinear in float). */
            static const double dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
            const double *d = dirs[tb_next(r) % 4];
            double x0 = floor(a->x[0] * 64) / 64, y0 = floor(a->y[0] * 64) / 64, q = 0.0625 * (double)(1 + tb_next(r) % 8);
            for (int j = 0; j < na; j++) {
                double t = j < (na + 1) / 2 ? j : (double)(na - j) - 0.5; /* out, then back */
                a->x[j] = (float)(x0 + t * q * d[0]);
                a->y[j] = (float)(y0 + t * q * d[1]);
            }
        } else {
            a->x[k] = a->x[(k + 1) % na];
            a->y[k] = a->y[(k + 1) % na];
        }
    } else if (f == TB2_TOUCHING) {
        tb2_push_touch(r, a, b);
    } else if (f == TB2_BAD) {
        bad_poly(r, tb_next(r) % 2 ? a : b);
    }
}

/* ---- SoA storage -------------------------------------------------------------------------- */

int tb2_rects_alloc(tb2_rects *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int q = 0; q < 6; q++)
        if (n && !(s->f[q] = (float *)malloc(n * sizeof(float))))
            return -1;
    for (int c = 0; c < 2; c++) {
        s->view.center[c] = s->f[c];
        s->view.half[c] = s->f[2 + c];
        s->view.axis[c] = s->f[4 + c];
    }
    return 0;
}

void tb2_rects_free(tb2_rects *s)
{
    for (int q = 0; q < 6; q++)
        free(s->f[q]);
    memset(s, 0, sizeof *s);
}

void tb2_rects_set(tb2_rects *s, size_t i, const tb_rect *r)
{
    for (int c = 0; c < 2; c++) {
        s->f[c][i] = r->c[c];
        s->f[2 + c][i] = r->h[c];
        s->f[4 + c][i] = r->u[c];
    }
}

int tb2_polys_alloc(tb2_polys *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n && !(s->count = (uint8_t *)malloc(n)))
        return -1;
    for (int k = 0; k < NV; k++) {
        if (n && (!(s->x[k] = (float *)malloc(n * sizeof(float))) || !(s->y[k] = (float *)malloc(n * sizeof(float)))))
            return -1;
        s->view.x[k] = s->x[k];
        s->view.y[k] = s->y[k];
    }
    s->view.count = s->count;
    return 0;
}

void tb2_polys_free(tb2_polys *s)
{
    for (int k = 0; k < NV; k++) {
        free(s->x[k]);
        free(s->y[k]);
    }
    free(s->count);
    memset(s, 0, sizeof *s);
}

void tb2_polys_set(tb2_polys *s, size_t i, const tb_poly *p)
{
    for (int k = 0; k < NV; k++) {
        s->x[k][i] = p->x[k];
        s->y[k][i] = p->y[k];
    }
    s->count[i] = p->n;
}

int tb2_prepared_make(tb2_prepared *p, const satbox2d_polys *polys, size_t n)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->rec = (satbox2d_prepared *)malloc((n ? n : 1) * sizeof *p->rec);
    if (!p->rec)
        return -1;
    return n && satbox2d_poly_prepare(polys, n, p->rec) < 0 ? -1 : 0;
}

void tb2_prepared_free(tb2_prepared *p)
{
    free(p->rec);
    memset(p, 0, sizeof *p);
}

int tb2_bodies_make(tb2_bodies *b, tb_rng *r, const tb_poly *world, size_t n, int bad_xforms)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    if (tb2_polys_alloc(&b->local, n))
        return -1;
    for (int q = 0; q < 4; q++)
        if (!(b->f[q] = (float *)malloc((n ? n : 1) * sizeof(float))))
            return -1;
    for (size_t i = 0; i < n; i++) {
        const tb_poly *w = &world[i];
        double th = tb_range(r, -3.14159265358979, 3.14159265358979);
        float c = (float)cos(th), s = (float)sin(th);
        int cnt = w->n >= 1 && w->n <= NV ? w->n : 1;
        double cx = 0, cy = 0;
        for (int k = 0; k < cnt; k++) {
            cx += w->x[k];
            cy += w->y[k];
        }
        float px = (float)(cx / cnt), py = (float)(cy / cnt);
        tb_poly l = *w;
        for (int k = 0; k < cnt; k++) {
            double dx = (double)w->x[k] - px, dy = (double)w->y[k] - py;
            l.x[k] = (float)(c * dx + s * dy);
            l.y[k] = (float)(-(double)s * dx + c * dy);
        }
        if (bad_xforms && tb_next(r) % 64 == 0) {
            switch (tb_next(r) % 4) {
            case 0: px = NAN; break;
            case 1: c = c * 1.01f; break;
            case 2: s = INFINITY; break;
            default: py = 2e15f; break;
            }
        }
        tb2_polys_set(&b->local, i, &l);
        b->f[0][i] = px;
        b->f[1][i] = py;
        b->f[2][i] = c;
        b->f[3][i] = s;
    }
    if (tb2_prepared_make(&b->shape, &b->local.view, n))
        return -1;
    b->view.shape = b->shape.rec;
    b->view.position[0] = b->f[0];
    b->view.position[1] = b->f[1];
    b->view.rotation[0] = b->f[2];
    b->view.rotation[1] = b->f[3];
    return 0;
}

void tb2_bodies_free(tb2_bodies *b)
{
    tb2_polys_free(&b->local);
    tb2_prepared_free(&b->shape);
    for (int q = 0; q < 4; q++)
        free(b->f[q]);
    memset(b, 0, sizeof *b);
}

void tb2_body_get(const tb2_bodies *b, size_t i, tb_poly *local, float xf[4])
{
    for (int k = 0; k < NV; k++) {
        local->x[k] = b->local.x[k][i];
        local->y[k] = b->local.y[k][i];
    }
    local->n = b->local.count[i];
    for (int q = 0; q < 4; q++)
        xf[q] = b->f[q][i];
}

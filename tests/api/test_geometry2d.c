/* test_geometry2d.c - satbox2d on hand-made cases with known answers, and invariance under swap, translation and rotation. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oracle2d.h"
#include "scale.h"

static int failures = 0;

#define TOL 1e-6f

typedef struct answer {
    uint8_t hit, axis, bad;
    float sep, n[2];
} answer;

static answer rect_pair(const tb_rect *a, const tb_rect *b)
{
    tb2_rects sa, sb;
    answer r;
    tb2_rects_alloc(&sa, 1);
    tb2_rects_alloc(&sb, 1);
    tb2_rects_set(&sa, 0, a);
    tb2_rects_set(&sb, 0, b);
    uint8_t ohit = 9;
    satbox2d_result res = {&r.hit, &r.sep, {&r.n[0], &r.n[1]}, &r.axis, &r.bad};
    ptrdiff_t c = satbox2d_collide(&sa.view, &sb.view, 1, 0.0f, &res);
    CHECK(c == r.hit, "count %td, hit %u", c, r.hit);
    CHECK(satbox2d_overlap(&sa.view, &sb.view, 1, &ohit, NULL) == ohit && ohit == r.hit, "overlap %u", ohit);
    tb2_rects_free(&sa);
    tb2_rects_free(&sb);
    return r;
}

/* Polygon pair (a_rect != NULL: rectangle a_rect vs polygon b). */
static answer poly_pair(const tb_poly *a, const tb_rect *a_rect, const tb_poly *b)
{
    tb2_polys pa, pb;
    tb2_rects ra;
    answer r;
    tb2_polys_alloc(&pa, 1);
    tb2_polys_alloc(&pb, 1);
    tb2_rects_alloc(&ra, 1);
    if (a)
        tb2_polys_set(&pa, 0, a);
    if (a_rect)
        tb2_rects_set(&ra, 0, a_rect);
    tb2_polys_set(&pb, 0, b);
    uint8_t ohit = 9;
    satbox2d_result res = {&r.hit, &r.sep, {&r.n[0], &r.n[1]}, &r.axis, &r.bad};
    ptrdiff_t c = a_rect ? satbox2d_rect_poly_collide(&ra.view, &pb.view, 1, 0.0f, &res)
                         : satbox2d_poly_collide(&pa.view, &pb.view, 1, 0.0f, &res);
    ptrdiff_t o = a_rect ? satbox2d_rect_poly_overlap(&ra.view, &pb.view, 1, &ohit, NULL)
                         : satbox2d_poly_overlap(&pa.view, &pb.view, 1, &ohit, NULL);
    CHECK(c == r.hit && o == ohit && ohit == r.hit, "counts %td %td, hits %u %u", c, o, r.hit, ohit);
    tb2_polys_free(&pa);
    tb2_polys_free(&pb);
    tb2_rects_free(&ra);
    return r;
}

static void expect(const char *what, answer r, int hit, float sep, int axis, float nx, float ny)
{
    CHECK(r.bad == 0 && r.hit == hit, "%s: hit %u (want %d), bad %u", what, r.hit, hit, r.bad);
    CHECK(fabsf(r.sep - sep) <= TOL * (1 + fabsf(sep)), "%s: separation %.9g, want %.9g", what, r.sep, sep);
    CHECK(axis < 0 || r.axis == axis, "%s: axis %u, want %d", what, r.axis, axis);
    CHECK(axis < 0 || (fabsf(r.n[0] - nx) <= TOL && fabsf(r.n[1] - ny) <= TOL), "%s: normal (%g, %g), want (%g, %g)",
          what, r.n[0], r.n[1], nx, ny);
}

static tb_rect rect(float cx, float cy, float h0, float h1, double angle)
{
    tb_rect q = {{cx, cy}, {h0, h1}, {(float)cos(angle), (float)sin(angle)}};
    return q;
}

static tb_poly poly(int n, const float *xy)
{
    tb_poly p;
    memset(&p, 0, sizeof p);
    p.n = (uint8_t)n;
    for (int k = 0; k < n; k++) {
        p.x[k] = xy[2 * k];
        p.y[k] = xy[2 * k + 1];
    }
    for (int k = n; k < SATBOX2D_MAX_VERTS; k++)
        p.x[k] = p.y[k] = NAN; /* unused slots: never matter */
    return p;
}

/* The address of a polygon built in place (a block-scope compound literal). */
#define PP(n, xy) (&(tb_poly[1]){poly(n, xy)}[0])

static const double PI = 3.14159265358979323846;

static void hand_rects(void)
{
    /* A axis-aligned square of half 1 at the origin; B the same square turned 45 degrees, its
     * center 0.1 beyond touching along A's x (projected radius sqrt 2): only axis 0 separates. */
    double reach = 1 + sqrt(2.0) + 0.1;
    tb_rect sq = rect(0, 0, 1, 1, 0), turned = rect(0, 0, 1, 1, PI / 4);
    struct {
        float dx, dy;
        int turned_is_b, axis;
        float nx, ny;
    } cases[] = {
        {(float)reach, 0, 1, 0, 1, 0},  {(float)-reach, 0, 1, 0, -1, 0}, {0, (float)reach, 1, 1, 0, 1},
        {0, (float)-reach, 1, 1, 0, -1}, {(float)reach, 0, 0, 2, 1, 0},  {0, (float)reach, 0, 3, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tb_rect a = cases[i].turned_is_b ? sq : turned, b = cases[i].turned_is_b ? turned : sq;
        b.c[0] = cases[i].dx;
        b.c[1] = cases[i].dy;
        char what[64];
        snprintf(what, sizeof what, "rect only axis %d (case %zu)", cases[i].axis, i);
        expect(what, rect_pair(&a, &b), 0, 0.1f, cases[i].axis, cases[i].nx, cases[i].ny);
    }
    /* Touching faces: gap exactly 0 on axes 0 and 2; the tie goes to axis 0. */
    expect("rect touching", rect_pair(&sq, &(tb_rect){{2, 0}, {1, 1}, {1, 0}}), 1, 0, 0, 1, 0);
    /* Containment: B (half 0.5) at (0.5, 0) inside A (half 2): best gap -2 on axis 0 (tie with 2). */
    expect("rect contained", rect_pair(&(tb_rect){{0, 0}, {2, 2}, {1, 0}}, &(tb_rect){{0.5f, 0}, {0.5f, 0.5f}, {1, 0}}), 1,
           -2, 0, 1, 0);
    /* Identical rectangles (half 1 x 0.5): the thin direction wins, gap -1 on axis 1. */
    tb_rect id = rect(3, -2, 1, 0.5f, 0);
    expect("rect identical", rect_pair(&id, &id), 1, -1, 1, 0, 1);
    /* Zero-area rectangles: a segment along x and one along y crossing it; then apart by 0.5. */
    tb_rect sx = {{0, 0}, {1, 0}, {1, 0}}, sy = {{0.5f, 0}, {0, 1}, {1, 0}};
    expect("rect segments crossing", rect_pair(&sx, &sy), 1, -0.5f, 0, 1, 0);
    sy.c[0] = 1.5f;
    expect("rect segments apart", rect_pair(&sx, &sy), 0, 0.5f, 0, 1, 0);
    tb_rect p0 = {{0, 0}, {0, 0}, {1, 0}}, p1 = {{0, 0}, {0, 0}, {0, 1}};
    expect("rect points same place", rect_pair(&p0, &p1), 1, 0, 0, 1, 0);
    p1.c[0] = -1;
    expect("rect points apart", rect_pair(&p0, &p1), 0, 1, 0, -1, 0);
}

static void hand_polys(void)
{
    /* Each edge k of an octagon as the only separating axis: a small triangle whose apex points
     * at edge k's midpoint from 0.1 outside. Then the roles swapped (axis 8 + k). */
    float oct[16];
    for (int k = 0; k < 8; k++) {
        oct[2 * k] = (float)(2 * cos(PI / 8 + k * PI / 4));
        oct[2 * k + 1] = (float)(2 * sin(PI / 8 + k * PI / 4));
    }
    tb_poly o = poly(8, oct);
    for (int k = 0; k < 8; k++) {
        int k1 = (k + 1) % 8;
        double mx = (o.x[k] + o.x[k1]) / 2.0, my = (o.y[k] + o.y[k1]) / 2.0;
        double ex = (double)o.x[k1] - o.x[k], ey = (double)o.y[k1] - o.y[k], len = hypot(ex, ey);
        double nx = ey / len, ny = -ex / len, tx = -ny, ty = nx;
        double ax = mx + 0.1 * nx, ay = my + 0.1 * ny; /* apex */
        float tri[6] = {(float)ax, (float)ay, (float)(ax + 0.3 * nx + 0.1 * tx), (float)(ay + 0.3 * ny + 0.1 * ty),
                        (float)(ax + 0.3 * nx - 0.1 * tx), (float)(ay + 0.3 * ny - 0.1 * ty)};
        tb_poly t = poly(3, tri);
        /* the triangle must be counter-clockwise: swap its last two vertices if it is not */
        if ((t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) - (t.y[1] - t.y[0]) * (t.x[2] - t.x[0]) < 0) {
            float x = t.x[1], y = t.y[1];
            t.x[1] = t.x[2], t.y[1] = t.y[2], t.x[2] = x, t.y[2] = y;
        }
        char what[64];
        snprintf(what, sizeof what, "octagon edge %d vs triangle", k);
        expect(what, poly_pair(&o, NULL, &t), 0, 0.1f, k, (float)nx, (float)ny);
        snprintf(what, sizeof what, "triangle vs octagon edge %d", k);
        expect(what, poly_pair(&t, NULL, &o), 0, 0.1f, 8 + k, (float)-nx, (float)-ny);
    }
    /* Two unit squares sharing an edge: touching, separation 0 (A's edge 1 and B's edge 3 tie: 1). */
    const float s1[8] = {0, 0, 1, 0, 1, 1, 0, 1}, s2[8] = {1, 0, 2, 0, 2, 1, 1, 1};
    expect("squares touching", poly_pair(PP(4, s1), NULL, PP(4, s2)), 1, 0, 1, 1, 0);
    /* Containment: [1,2]^2 inside [0,4]^2: best gap -2, first reached by A's edge 0 (normal -y). */
    const float big[8] = {0, 0, 4, 0, 4, 4, 0, 4}, small[8] = {1, 1, 2, 1, 2, 2, 1, 2};
    expect("square contained", poly_pair(PP(4, big), NULL, PP(4, small)), 1, -2, 0, 0, -1);
    /* Identical triangles: -sqrt 2 on the hypotenuse (edge 1; B's edge 9 ties exactly). */
    const float tri[6] = {0, 0, 2, 0, 0, 2};
    expect("identical triangles", poly_pair(PP(3, tri), NULL, PP(3, tri)), 1, (float)-sqrt(2.0), 1,
           (float)sqrt(0.5), (float)sqrt(0.5));
    /* Triangle vs octagon with parallel faces 1/sqrt 2 apart (hypotenuse vs the cut corner). */
    const float cut[16] = {2, 1, 3, 1, 4, 2, 4, 3, 3, 4, 2, 4, 1, 3, 1, 2};
    expect("triangle vs cut square", poly_pair(PP(3, tri), NULL, PP(8, cut)), 0, (float)sqrt(0.5), -1,
           (float)sqrt(0.5), (float)sqrt(0.5));
    /* A zero-area polygon (a segment, out and back) across the unit square, then 0.5 above it. */
    const float seg_in[6] = {-1, 0.5f, 2, 0.5f, 0.5f, 0.5f}, seg_out[6] = {-1, 1.5f, 2, 1.5f, 0.5f, 1.5f};
    expect("segment across square", poly_pair(PP(3, seg_in), NULL, PP(4, s1)), 1, -0.5f, -1, 0, 0);
    answer r = poly_pair(PP(3, seg_out), NULL, PP(4, s1));
    /* The segment's edge 0 (rightwards, outward normal -y) ties with the square's top edge (10). */
    expect("segment above square", r, 0, 0.5f, 0, 0, -1);
    /* Rectangle vs polygon: a point rectangle inside / beside the unit square; and the unit
     * square as a rectangle against itself as a polygon. */
    expect("point rect in square", poly_pair(NULL, &(tb_rect){{0.5f, 0.5f}, {0, 0}, {1, 0}}, PP(4, s1)), 1, -0.5f, -1,
           0, 0);
    expect("point rect beside square", poly_pair(NULL, &(tb_rect){{1.5f, 0.5f}, {0, 0}, {1, 0}}, PP(4, s1)), 0, 0.5f,
           9, -1, 0);
    expect("rect vs same square", poly_pair(NULL, &(tb_rect){{0.5f, 0.5f}, {0.5f, 0.5f}, {1, 0}}, PP(4, s1)), 1, -1,
           0, 0, -1);
    /* Issue 24's pair of size 6.6e-21, apart by 1.6873e-26 (long double): without the prescale
     * its gaps underflowed (hit 1, separation 0, |normal|^2 = 1.00014). */
    const float ta[6] = {-0x1.b574eep-70f, 0x1.0b4436p-72f, 0x1.171458p-72f, 0x1.11cad2p-74f, 0x1.aaba9p-70f,
                         0x1.c814bap-71f};
    const float tb[12] = {-0x1.98ca5ap-71f, 0x1.5fc8f2p-73f,  -0x1.e00e0ap-71f, 0x1.778692p-73f,
                          -0x1.4fe914p-69f, -0x1.212c78p-70f, -0x1.71680cp-69f, -0x1.13bbcep-69f,
                          -0x1.6b38bcp-69f, -0x1.25ebeap-69f, -0x1.52a72p-70f,  -0x1.fc1a2ap-70f};
    r = poly_pair(PP(3, ta), NULL, PP(6, tb));
    CHECK(r.bad == 0 && r.hit == 0 && r.axis == 0, "issue 24 tiny pair: hit %u bad %u axis %u", r.hit, r.bad, r.axis);
    CHECK(fabs(r.sep - 1.6873e-26) <= 8 * 0x1p-24 * 6.556e-21, "issue 24 tiny pair: separation %g, want 1.6873e-26",
          r.sep);
    CHECK(fabs((double)r.n[0] * r.n[0] + (double)r.n[1] * r.n[1] - 1) <= 1e-6, "issue 24 tiny pair: normal (%g, %g)",
          r.n[0], r.n[1]);
}

/* Thin rectangles against a polygon, at the origin and 1e4 from it: satbox2d.h says no rectangle
 * was found whose corner polygon fails the turn tests (it is worked on relative to its center). */
static void thin_rects(void)
{
    static const double ratios[] = {1e-2, 1e-4, 1e-6, 1e-7, 1e-8, 0};
    tb_rng r;
    tb_seed(&r, 24);
    for (int far = 0; far < 2; far++)
        for (size_t q = 0; q < sizeof ratios / sizeof ratios[0]; q++)
            for (int i = 0; i < 200; i++) {
                double t = tb_range(&r, 0, 2 * PI), off = far ? 1e4 : 0;
                tb_rect a = rect((float)(off + tb_range(&r, -1, 1)), (float)(off + tb_range(&r, -1, 1)),
                                 (float)tb_range(&r, 0.5, 2), 0, t);
                a.h[1] = (float)(a.h[0] * ratios[q]);
                tb_poly b;
                tb2_random_poly(&r, 5, off, off, 1, &b);
                answer x = poly_pair(NULL, &a, &b);
                CHECK(x.bad == 0, "thin rect h1/h0 %g at %g: bad", ratios[q], off);
            }
}

/* ---- invariance --------------------------------------------------------------------------- */

static void rot90_rect(tb_rect *q)
{
    float x = q->c[0], c = q->u[0];
    q->c[0] = -q->c[1];
    q->c[1] = x;
    q->u[0] = -q->u[1];
    q->u[1] = c;
}

static void rot90_poly(tb_poly *p)
{
    for (int k = 0; k < SATBOX2D_MAX_VERTS; k++) {
        float x = p->x[k];
        p->x[k] = -p->y[k];
        p->y[k] = x;
    }
}

static void same_bits(const char *what, answer x, answer y, float nx, float ny)
{
    CHECK(x.hit == y.hit && memcmp(&x.sep, &y.sep, 4) == 0, "%s: hit %u/%u separation %a/%a", what, x.hit, y.hit,
          (double)x.sep, (double)y.sep);
    CHECK(nx == y.n[0] && ny == y.n[1], "%s: normal (%g, %g), want (%g, %g)", what, y.n[0], y.n[1], nx, ny);
}

static void invariance(void)
{
    tb_rng r;
    tb_seed(&r, 77);
    int swaps = 0, rots = 0, moved = 0, moved_band = 0;
    int count = test_short() ? 2000 : 20000; /* scale.h */
    for (int i = 0; i < count; i++) {
        tb2_family f = (tb2_family)(i % TB2_BAD);
        tb_rect a, b;
        tb_poly pa, pb;
        tb2_rect_pair(&r, f, &a, &b);
        tb2_poly_pair(&r, f, 0, 0, &pa, &pb);
        answer x = rect_pair(&a, &b), y = rect_pair(&b, &a);
        /* Swap: same bits; rectangle axis ids 0,1 <-> 2,3 and the normal reversed (unless two
         * axes tie exactly, as they do for identical shapes and on the grid). */
        CHECK(x.hit == y.hit && memcmp(&x.sep, &y.sep, 4) == 0, "rect swap: %u/%u %a/%a", x.hit, y.hit, (double)x.sep,
              (double)y.sep);
        if (f != TB2_IDENTICAL && f != TB2_GRID) {
            same_bits("rect swap", x, y, -x.n[0], -x.n[1]);
            CHECK(y.axis == (x.axis ^ 2u), "rect swap: axis %u -> %u (%s)", x.axis, y.axis, tb2_family_name(f));
        }
        x = poly_pair(&pa, NULL, &pb);
        y = poly_pair(&pb, NULL, &pa);
        CHECK(x.hit == y.hit && memcmp(&x.sep, &y.sep, 4) == 0, "poly swap: %u/%u %a/%a", x.hit, y.hit, (double)x.sep,
              (double)y.sep);
        if (y.axis == (x.axis + 8u) % 16u)
            same_bits("poly swap", x, y, -x.n[0], -x.n[1]);
        swaps += 2;
        /* Rotation by 90 degrees is exact in float: the same bits, the normal turned. */
        tb_rect ra = a, rb = b;
        tb_poly qa = pa, qb = pb;
        rot90_rect(&ra);
        rot90_rect(&rb);
        rot90_poly(&qa);
        rot90_poly(&qb);
        x = rect_pair(&a, &b);
        y = rect_pair(&ra, &rb);
        same_bits("rect rot90", x, y, -x.n[1], x.n[0]);
        x = poly_pair(&pa, NULL, &pb);
        y = poly_pair(&qa, NULL, &qb);
        same_bits("poly rot90", x, y, -x.n[1], x.n[0]);
        CHECK(x.axis == y.axis, "poly rot90: axis %u -> %u", x.axis, y.axis);
        rots += 2;
        /* Translation by quarter units on the grid family is exact: the same bits. */
        if (f == TB2_GRID) {
            tb_poly ga = pa, gb = pb;
            float gx = (float)(tb_next(&r) % 64) / 4 - 8, gy = (float)(tb_next(&r) % 64) / 4 - 8;
            for (int k = 0; k < SATBOX2D_MAX_VERTS; k++) {
                ga.x[k] += gx, ga.y[k] += gy;
                gb.x[k] += gx, gb.y[k] += gy;
            }
            y = poly_pair(&ga, NULL, &gb);
            same_bits("poly grid translation", x, y, x.n[0], x.n[1]);
        }
        /* Translation and a general rotation (rounded): the same answer outside the band that the
         * rounding of the moved vertices allows, 16 * 2^-24 * (S + M) * (1 + S / shortest edge). */
        if (x.bad)
            continue;
        double ang = tb_range(&r, 0, 2 * PI), cs = cos(ang), sn = sin(ang), tx = tb_range(&r, -100, 100),
               ty = tb_range(&r, -100, 100);
        tb_poly ma = pa, mb = pb;
        for (int s = 0; s < 2; s++) {
            tb_poly *p = s ? &mb : &ma;
            for (int k = 0; k < p->n; k++) {
                double px = p->x[k], py = p->y[k];
                p->x[k] = (float)(cs * px - sn * py + tx);
                p->y[k] = (float)(sn * px + cs * py + ty);
            }
        }
        answer z = poly_pair(&ma, NULL, &mb);
        or2_poly oa, ob;
        or2_from_poly(&pa, &oa);
        or2_from_poly(&pb, &ob);
        int id;
        long double n[2], s = or2_sat(&oa, &ob, &id, n);
        long double lmin = INFINITY, big = 0, S = or2_scale(&oa, &ob);
        for (int s2 = 0; s2 < 2; s2++) {
            const or2_poly *p = s2 ? &ob : &oa;
            for (int k = 0; k < p->n; k++) {
                long double len = hypotl(p->x[(k + 1) % p->n] - p->x[k], p->y[(k + 1) % p->n] - p->y[k]);
                if (len > 0)
                    lmin = fminl(lmin, len);
                big = fmaxl(big, fabsl(p->x[k]) + fabsl(p->y[k]));
            }
        }
        long double band = 16 * ldexpl(1.0L, -24) * (S + big + fabsl(tx) + fabsl(ty)) * (1 + S / lmin);
        moved++;
        if (z.bad || fabsl(s) <= band) {
            moved_band++;
            continue;
        }
        CHECK(z.hit == x.hit && fabsl((long double)z.sep - x.sep) <= 2 * band, "moved: hit %u/%u sep %g/%g (family %s)",
              x.hit, z.hit, x.sep, z.sep, tb2_family_name(f));
    }
    printf("invariance: %d swaps, %d 90-degree rotations bit for bit; %d translated+rotated pairs (%d in the band or bad)\n",
           swaps, rots, moved, moved_band);
}

/* Issue 34's pair: A with vertex 0 repeated three times, B a sliver triangle whose edges 1 and 2
 * have dot products with A's face normal that tie in float (-0x1.7b4c2ep-1); edge 2 holds B's
 * deepest vertex. The manifold's deepest point must be as deep as collide's separation (it was
 * -0.237 against -0.478: the tie went to edge 1). The same pair through the prepared forms (world
 * polygons, and bodies at the identity) gives the same kind of answer. */
static void incident_tie(void)
{
    const float ax = -0x1.2b58fp-2f, ay = 0x1.ddc1cep+0f;
    const float a_xy[16] = {ax, ay, ax, ay, ax, ay, -0x1.903558p+0f, 0x1.e11b26p-2f, -0x1.d37be2p+0f, -0x1.3a0f1ap-2f,
                            -0x1.dd0ae8p+0f, -0x1.31ff6cp-1f, -0x1.36a1bep+0f, -0x1.c6bd72p+0f, 0x1.feaa06p-1f, -0x1.d7ab52p-7f};
    const float b_xy[6] = {-0x1.ee3f7ap-3f, -0x1.8f54p-2f, 0x1.24681ap-1f, -0x1.c4548p-2f, 0x1.e12fa6p-4f, -0x1.a6bc74p-2f};
    tb_poly a = poly(8, a_xy), b = poly(3, b_xy);
    tb2_polys pa, pb, pool;
    tb2_polys_alloc(&pa, 1);
    tb2_polys_alloc(&pb, 1);
    tb2_polys_alloc(&pool, 2);
    tb2_polys_set(&pa, 0, &a);
    tb2_polys_set(&pb, 0, &b);
    tb2_polys_set(&pool, 0, &a);
    tb2_polys_set(&pool, 1, &b);
    or2_poly oa, ob;
    or2_from_poly(&a, &oa);
    or2_from_poly(&b, &ob);
    const float tol = 8 * 0x1p-24f * (float)or2_scale(&oa, &ob);
    tb2_prepared prep;
    CHECK(tb2_prepared_make(&prep, &pool.view, 2) == 0, "prepare");
    /* Bodies at the identity: the shapes are the world polygons. */
    float zero[2] = {0, 0}, one[2] = {1, 1};
    satbox2d_bodies bodies = {prep.rec, {zero, zero}, {one, zero}};
    const satbox_pair pair = {0, 1};
    for (int form = 0; form < 3; form++) {
        satbox2d_manifold m;
        float sep;
        satbox2d_result res = {NULL, &sep, {NULL, NULL}, NULL, NULL};
        ptrdiff_t c = form == 0   ? satbox2d_poly_contacts(&pa.view, &pb.view, 1, 0.0f, &m)
                      : form == 1 ? satbox2d_prep_contacts_pairs(prep.rec, 2, &pair, 1, 0.0f, &m)
                                  : satbox2d_body_contacts_pairs(&bodies, 2, &pair, 1, 0.0f, &m);
        ptrdiff_t c2 = form == 0   ? satbox2d_poly_collide(&pa.view, &pb.view, 1, 0.0f, &res)
                       : form == 1 ? satbox2d_prep_collide_pairs(prep.rec, 2, &pair, 1, 0.0f, &res, NULL)
                                   : satbox2d_body_collide_pairs(&bodies, 2, &pair, 1, 0.0f, &res, NULL);
        float deepest = INFINITY;
        for (int j = 0; j < m.count; j++)
            deepest = fminf(deepest, m.point[j].separation);
        CHECK(c == 1 && c2 == 1 && m.count > 0, "incident tie, form %d: %td manifolds, %td hits, %u points", form, c, c2,
              m.count);
        CHECK(fabsf(sep - -0.478f) < 1e-3f, "incident tie, form %d: collide separation %g, want -0.478", form, sep);
        CHECK(deepest <= sep + tol, "incident tie, form %d: deepest point %g, collide %g (id 0x%x)", form, deepest, sep,
              m.point[0].id);
    }
    printf("incident tie (issue 34): the deepest point is as deep as collide's separation, 3 forms\n");
    tb2_prepared_free(&prep);
    tb2_polys_free(&pa);
    tb2_polys_free(&pb);
    tb2_polys_free(&pool);
}

int main(void)
{
    tb_require_isa(); /* exit 77 when SATBOX_ISA names a path this machine lacks */
    printf("test_geometry2d: path %s\n", satbox_isa_name(satbox_isa_active()));
    hand_rects();
    hand_polys();
    thin_rects();
    invariance();
    incident_tie();
    return check_report(failures);
}

/* test_geometry.c - hand-made box pairs whose answers follow from geometry: every axis, contact, depth. */
/* SPDX-License-Identifier: MIT */
/* Each case is built so that its expected separation, axis id and normal are known by
 * construction (the placement puts B at gap g from A along one chosen direction); the
 * independent oracle (oracle.c) only checks the premise of the construction (that the chosen axis
 * is the unique largest gap, so no other axis can be the answer). Then satbox must return that
 * answer, in one batch with all the other cases and alone, with overlap == collide(0).hit,
 * hit == (separation <= margin) for several margins, and "moving B by -separation * normal
 * makes the boxes touch" for overlapping pairs.
 * What satbox returns for exact contact (checked here): separation exactly 0 => hit = 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "support.h"
#include "check.h"

#define MAX_CASES 128
#define SQ2 1.41421356237309504880
#define PI 3.14159265358979323846

enum { NORMAL_ANY = 0, NORMAL_EXACT = 1, NORMAL_SIGNLESS = 2 };

typedef struct gcase {
    char name[64];
    satbox_box a, b;
    int hit;           /* expected hit at margin 0: 1, 0, or -1 = only consistent with the separation */
    double sep;        /* expected separation */
    int ids[2], nids;  /* accepted axis ids (nids = 0: not checked) */
    double normal[3];  /* expected normal */
    int normal_check;  /* NORMAL_* */
    int premise;       /* 1: the oracle must find ids[0] as the unique largest gap (by premise_by) */
    double premise_by; /* how much larger than every other gap (0.01 unless set) */
    int exact;         /* 1: the separation must be exactly `sep` (all inputs and steps exact) */
} gcase;

static gcase cases[MAX_CASES];
static int ncases = 0;
static int failures = 0;

/* ---- building boxes ------------------------------------------------------------------------ */

static void box_set(satbox_box *b, double cx, double cy, double cz, double hx, double hy, double hz)
{
    memset(b, 0, sizeof *b);
    b->center[0] = (float)cx;
    b->center[1] = (float)cy;
    b->center[2] = (float)cz;
    b->half[0] = (float)hx;
    b->half[1] = (float)hy;
    b->half[2] = (float)hz;
    for (int k = 0; k < 3; k++)
        b->axis[k][k] = 1.0f;
}

/* Rotation (axes m[k][c]) of the quaternion (x, y, z, w), normalised, in double. */
static void rot_quat(double x, double y, double z, double w, double m[3][3])
{
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y + w * z), m[0][2] = 2 * (x * z - w * y);
    m[1][0] = 2 * (x * y - w * z), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z + w * x);
    m[2][0] = 2 * (x * z + w * y), m[2][1] = 2 * (y * z - w * x), m[2][2] = 1 - 2 * (x * x + y * y);
}

/* Rotation by `angle` about the unit vector (x, y, z). */
static void rot_axis_angle(double x, double y, double z, double angle, double m[3][3])
{
    double n = sqrt(x * x + y * y + z * z), s = sin(angle / 2) / n;
    rot_quat(x * s, y * s, z * s, cos(angle / 2), m);
}

/* m <- q applied to each axis of m (q given as axes too: q[k] = image of e_k). */
static void rot_apply(double q[3][3], double m[3][3])
{
    double o[3][3];
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            o[k][r] = q[0][r] * m[k][0] + q[1][r] * m[k][1] + q[2][r] * m[k][2];
    memcpy(m, o, sizeof o);
}

/* A rotation whose three axes all have component 1/sqrt3 along e_i: it turns the body diagonal
 * (1,1,1)/sqrt3 onto e_i, then twists about e_i. A box with these axes shows a corner to a face
 * with normal e_i and has no axis (and no cross with e_i's neighbours) close to e_i's plane. */
static void diag_frame(int i, double twist, double m[3][3])
{
    double d = 1 / sqrt(3.0), ax[3] = {0, 0, 0}, t[3][3];
    /* d x e_i */
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    ax[i1] = d; /* (d,d,d) x e_i: component i1 = d_i2 * 1 ... = d, component i2 = -d */
    ax[i2] = -d;
    rot_axis_angle(ax[0], ax[1], ax[2], acos(d), m);
    double e[3] = {0, 0, 0};
    e[i] = 1;
    rot_axis_angle(e[0], e[1], e[2], twist, t);
    rot_apply(t, m);
}

static void box_axes(satbox_box *b, double m[3][3])
{
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->axis[k][c] = (float)m[k][c];
}

/* Extent of box b along the unit world direction v: sum_k h_k |u_k . v| (u, h as stored). */
static double extent(const satbox_box *b, const double v[3])
{
    double r = 0;
    for (int k = 0; k < 3; k++)
        r += b->half[k] * fabs(b->axis[k][0] * v[0] + b->axis[k][1] * v[1] + b->axis[k][2] * v[2]);
    return r;
}

static gcase *add_case(const char *name, const satbox_box *a, const satbox_box *b, int hit, double sep)
{
    if (ncases == MAX_CASES) {
        fprintf(stderr, "too many cases\n");
        exit(2);
    }
    gcase *g = &cases[ncases++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->a = *a;
    g->b = *b;
    g->hit = hit;
    g->sep = sep;
    g->premise_by = 0.01;
    return g;
}

static void expect_axis(gcase *g, int id, const double n[3], int normal_check)
{
    g->ids[0] = id;
    g->nids = 1;
    memcpy(g->normal, n, sizeof g->normal);
    g->normal_check = normal_check;
}

/* ---- the 15 "only this axis separates" constructions ---------------------------------------- */

static const double CA[3] = {0.5, -1.0, 2.0};

/* A's face axis i (A axis-aligned, big), B small and generically rotated, placed on the side
 * sign of A's face i at gap g: B's extent along e_i is sum_j hB_j |uB_j . e_i|. */
static void make_face_a(int i, double sign, double g)
{
    satbox_box a, b;
    double m[3][3], e[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    box_set(&a, CA[0], CA[1], CA[2], 0.9, 1.1, 1.3);
    box_set(&b, 0, 0, 0, 0.3, 0.4, 0.5);
    diag_frame(i, 0.3 + i, m);
    box_axes(&b, m);
    e[i] = 1;
    n[i] = sign;
    double dist = a.half[i] + extent(&b, e) + g;
    for (int c = 0; c < 3; c++)
        b.center[c] = (float)(CA[c] + sign * dist * e[c]);
    char name[64];
    snprintf(name, sizeof name, "face A%d %s g=%g", i, sign > 0 ? "+" : "-", g);
    gcase *gc = add_case(name, &a, &b, g <= 0, g);
    expect_axis(gc, i, n, NORMAL_EXACT);
    gc->premise = 1;
}

/* B's face axis j: B big and rotated, A small with another rotation; B placed along sign * uB_j. */
static void make_face_b(int j, double sign, double g)
{
    satbox_box a, b;
    double ma[3][3], mb[3][3], n[3], v[3];
    box_set(&a, CA[0], CA[1], CA[2], 0.3, 0.4, 0.5);
    box_set(&b, 0, 0, 0, 0.9, 1.1, 1.3);
    rot_quat(0.7, 0.2, -0.4, 0.5, mb);
    box_axes(&b, mb);
    diag_frame(j, 0.5 + j, ma); /* A's axes in B's frame, then to world */
    rot_apply(mb, ma);
    box_axes(&a, ma);
    for (int c = 0; c < 3; c++)
        v[c] = b.axis[j][c]; /* the float axis is the geometry */
    double dist = b.half[j] + extent(&a, v) + g;
    for (int c = 0; c < 3; c++) {
        n[c] = sign * v[c];
        b.center[c] = (float)(CA[c] + sign * dist * v[c]);
    }
    char name[64];
    snprintf(name, sizeof name, "face B%d %s g=%g", j, sign > 0 ? "+" : "-", g);
    gcase *gc = add_case(name, &a, &b, g <= 0, g);
    expect_axis(gc, 3 + j, n, NORMAL_EXACT);
    gc->premise = 1;
}

/* Edge axis uA_i x uB_j: A axis-aligned; its ridge along e_i at (+hA_i1, +hA_i2) has the outward
 * bisector n = (e_i1 + e_i2)/sqrt2. B's axis j = (e_i1 - e_i2)/sqrt2 crosses that ridge at a right
 * angle, and B's other axes j1 = (e_i - n)/sqrt2, j2 = (-e_i - n)/sqrt2 (a right-handed frame)
 * make B's ridge (+hB_j1, +hB_j2) point at A along -n. The ridges' midpoints are placed g apart
 * along n, so uA_i x uB_j = e_i x (e_i1 - e_i2)/sqrt2 = n is the separating axis with gap g. */
static void make_edge(int i, int j, double g)
{
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    static const double ha[3] = {0.9, 1.1, 1.3}, hb[3] = {0.6, 0.7, 0.8};
    satbox_box a, b;
    box_set(&a, CA[0], CA[1], CA[2], ha[0], ha[1], ha[2]);
    box_set(&b, 0, 0, 0, hb[0], hb[1], hb[2]);
    double ei[3] = {0, 0, 0}, n[3] = {0, 0, 0}, uj[3] = {0, 0, 0}, u1[3], u2[3];
    ei[i] = 1;
    n[i1] = n[i2] = 1 / SQ2;
    uj[i1] = 1 / SQ2;
    uj[i2] = -1 / SQ2;
    for (int c = 0; c < 3; c++) {
        u1[c] = (ei[c] - n[c]) / SQ2;
        u2[c] = (-ei[c] - n[c]) / SQ2;
        b.axis[j][c] = (float)uj[c];
        b.axis[j1][c] = (float)u1[c];
        b.axis[j2][c] = (float)u2[c];
    }
    /* pB = cB + hB_j1 u1 + hB_j2 u2 = pA + g n, pA = cA + hA_i1 e_i1 + hA_i2 e_i2. */
    for (int c = 0; c < 3; c++) {
        double pa = CA[c] + (c == i1 ? ha[i1] : 0) + (c == i2 ? ha[i2] : 0);
        b.center[c] = (float)(pa + g * n[c] - hb[j1] * u1[c] - hb[j2] * u2[c]);
    }
    char name[64];
    snprintf(name, sizeof name, "edge A%d x B%d g=%g", i, j, g);
    gcase *gc = add_case(name, &a, &b, g <= 0, g);
    expect_axis(gc, 6 + 3 * i + j, n, NORMAL_EXACT);
    gc->premise = 1;
}

/* ---- contact, depth, degenerate and near-degenerate cases ----------------------------------- */

/* An axis-aligned case whose every number is exact in float, so that the separation must come
 * out exactly `sep`: A and B as center x, y, z then half extents x, y, z; the expected hit at
 * margin 0, separation, axis id (-1: not checked) and normal. */
typedef struct exact_case {
    const char *name;
    double a[6], b[6];
    int hit;
    double sep;
    int id;
    double n[3];
    int normal_check;
} exact_case;

/* Exact face contact: unit cubes (h = 0.5) one unit apart; every number is exact in float:
 * t = 1, radii 0.5 + 0.5, gap 0 on x for A (id 0) and B (id 3): tie -> id 0. Contact is a hit.
 * Edge contact and corner contact of axis-aligned cubes: gaps 0 on x and y (and z): id 0.
 * Tiny gaps between parallel faces: 1.0001f - 1 is exact, so the separation is exactly it. */
static const exact_case contacts_exact[] = {
    {"face contact +x (exact)", {0, 0, 0, 0.5, 0.5, 0.5}, {1, 0, 0, 0.5, 0.5, 0.5}, 1, 0.0, 0, {1, 0, 0}, NORMAL_EXACT},
    {"face contact -y (exact)", {0, 0, 0, 0.5, 0.5, 0.5}, {0, -1, 0, 0.5, 0.5, 0.5}, 1, 0.0, 1, {0, -1, 0}, NORMAL_EXACT},
    {"face contact +z, different sizes (exact)", {3, 4, 5, 1, 2, 3}, {3, 4, 9.5, 2, 2, 1.5}, 1, 0.0, 2, {0, 0, 1},
     NORMAL_EXACT},
    {"edge contact, axis-aligned (exact)", {0, 0, 0, 0.5, 0.5, 0.5}, {1, 1, 0, 0.5, 0.5, 0.5}, 1, 0.0, 0, {1, 0, 0},
     NORMAL_EXACT},
    {"corner contact (exact)", {0, 0, 0, 0.5, 0.5, 0.5}, {1, 1, 1, 0.5, 0.5, 0.5}, 1, 0.0, 0, {1, 0, 0}, NORMAL_EXACT},
    {"parallel faces 1e-4 apart", {0, 0, 0, 0.5, 0.5, 0.5}, {1.0001, 0, 0, 0.5, 0.5, 0.5}, 0, (double)1.0001f - 1.0, 0,
     {1, 0, 0}, NORMAL_EXACT},
    {"parallel faces 1e-4 overlap", {0, 0, 0, 0.5, 0.5, 0.5}, {-0.9999, 0, 0, 0.5, 0.5, 0.5}, 1, 0.9999f - 1.0, 0,
     {-1, 0, 0}, NORMAL_EXACT},
};

/* Box inside box: A (2, 3, 4), B (0.5) at x = 0.5: gaps x 0.5-2.5 = -2, y -3.5, z -4.5;
 * depth 2 along +x (moving B by +2 along x makes it touch A's face x = 2). */
static const exact_case inside_exact[] = {
    {"small box inside big box", {0, 0, 0, 2, 3, 4}, {0.5, 0, 0, 0.5, 0.5, 0.5}, 1, -2.0, 0, {1, 0, 0}, NORMAL_EXACT},
};

/* Identical boxes: every face gap is -2 h_k, the largest -2 * 0.5 = -1 on axis 0 (A's, id 0, and
 * B's, id 3: the same axis). The direction A -> B is undefined: the sign is not checked. */
static const exact_case identical_exact[] = {
    {"identical axis-aligned boxes", {0, 0, 0, 0.5, 1, 1.5}, {0, 0, 0, 0.5, 1, 1.5}, 1, -1.0, 0, {1, 0, 0},
     NORMAL_SIGNLESS},
};

/* Flat boxes (zero extents). Square A (1, 1, 0) in the plane z = 0, cube B (0.5) at height z:
 * gap on z = z - 0.5. Coplanar overlapping squares: gap on z is 0 - 0 = 0 (the largest): contact,
 * hit. A point (all extents 0) outside and inside a cube (1). Two needles (segments) crossing at
 * right angles, 0.5 apart along z, then touching: gap 0.5 on A's z (id 2) and on the edge axis
 * x cross y (no guard: its extents are 0). */
static const exact_case degenerate_exact[] = {
    {"flat square through cube", {0, 0, 0, 1, 1, 0}, {0, 0, 0.3, 0.5, 0.5, 0.5}, 1, 0.3f - 0.5, 2, {0, 0, 1},
     NORMAL_EXACT},
    {"cube under flat square", {0, 0, 0, 1, 1, 0}, {0, 0, -0.6, 0.5, 0.5, 0.5}, 0, 0.6f - 0.5, 2, {0, 0, -1},
     NORMAL_EXACT},
    {"coplanar overlapping squares", {0, 0, 0, 1, 1, 0}, {1.5, 0, 0, 1, 1, 0}, 1, 0.0, 2, {0, 0, 1}, NORMAL_ANY},
    {"coplanar squares 0.5 apart", {0, 0, 0, 1, 1, 0}, {2.5, 0, 0, 1, 1, 0}, 0, 0.5, 0, {1, 0, 0}, NORMAL_EXACT},
    {"point outside cube", {0, 0, 0, 1, 1, 1}, {2, 0.5, 0, 0, 0, 0}, 0, 1.0, 0, {1, 0, 0}, NORMAL_EXACT},
    {"point inside cube", {0, 0, 0, 1, 1, 1}, {0.25, 0, 0, 0, 0, 0}, 1, -0.75, 0, {1, 0, 0}, NORMAL_EXACT},
    {"crossing needles 0.5 apart", {0, 0, 0, 1, 0, 0}, {0, 0, 0.5, 0, 1, 0}, 0, 0.5, 2, {0, 0, 1}, NORMAL_EXACT},
    {"crossing needles touching", {0, 0, 0, 1, 0, 0}, {0, 0, 0, 0, 1, 0}, 1, 0.0, -1, {0, 0, 0}, NORMAL_ANY},
};

static void add_exact(const exact_case *t, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        satbox_box a, b;
        box_set(&a, t[k].a[0], t[k].a[1], t[k].a[2], t[k].a[3], t[k].a[4], t[k].a[5]);
        box_set(&b, t[k].b[0], t[k].b[1], t[k].b[2], t[k].b[3], t[k].b[4], t[k].b[5]);
        gcase *g = add_case(t[k].name, &a, &b, t[k].hit, t[k].sep);
        if (t[k].id >= 0)
            expect_axis(g, t[k].id, t[k].n, t[k].normal_check);
        g->exact = 1;
    }
}

static void make_specials(void)
{
    satbox_box a, b;
    gcase *g;
    static const double ex[3] = {1, 0, 0}, ez[3] = {0, 0, 1};

    add_exact(contacts_exact, sizeof contacts_exact / sizeof contacts_exact[0]);
    /* contacts_exact's parallel faces, both boxes in one rotated frame: B = A + (1 +- 1e-4) uA_0
     * (rounded to float). */
    {
        double m[3][3];
        rot_quat(0.2, 0.3, -0.6, 0.7, m);
        for (int s = -1; s <= 1; s += 2) {
            box_set(&a, 1, 2, 3, 0.5, 0.7, 0.9);
            box_axes(&a, m);
            box_set(&b, 0, 0, 0, 0.5, 0.3, 0.2);
            box_axes(&b, m);
            double d = 1.0 + s * 1e-4, n[3];
            for (int c = 0; c < 3; c++) {
                n[c] = a.axis[0][c];
                b.center[c] = (float)(a.center[c] + d * a.axis[0][c]);
            }
            g = add_case(s > 0 ? "rotated parallel faces 1e-4 apart" : "rotated parallel faces 1e-4 overlap", &a, &b,
                         s < 0, s * 1e-4);
            expect_axis(g, 0, n, NORMAL_EXACT);
            g->ids[1] = 3; /* uA_0 and uB_0 are the same float vector: either id, same gap */
            g->nids = 2;
        }
    }

    add_exact(inside_exact, 1);
    /* inside_exact's small box turned 45 deg about z: extent along x 0.5 * sqrt2. */
    box_set(&a, 0, 0, 0, 2, 3, 4);
    box_set(&b, 0.5, 0, 0, 0.5, 0.5, 0.5);
    {
        double m[3][3];
        rot_axis_angle(0, 0, 1, PI / 4, m);
        box_axes(&b, m);
        g = add_case("45 deg box inside big box", &a, &b, 1, 0.5 - 2 - 0.5 * SQ2);
        expect_axis(g, 0, ex, NORMAL_EXACT);
    }
    /* Identical boxes: axis-aligned (identical_exact), then rotated. */
    add_exact(identical_exact, 1);
    {
        double m[3][3];
        rot_quat(-0.4, 0.1, 0.5, 0.6, m);
        box_set(&a, 1, 2, 3, 0.5, 1, 1.5);
        box_axes(&a, m);
        double n[3] = {a.axis[0][0], a.axis[0][1], a.axis[0][2]};
        g = add_case("identical rotated boxes", &a, &a, 1, -1.0);
        expect_axis(g, 0, n, NORMAL_SIGNLESS);
        g->ids[1] = 3;
        g->nids = 2;
    }

    add_exact(degenerate_exact, sizeof degenerate_exact / sizeof degenerate_exact[0]);

    /* Stacked: slab A (2, 2, 0.5); cube B (0.5) tilted by 1e-3 rad about a horizontal axis, resting
     * on A's top face at gap g: B's extent along z is 0.5 sum_k |uB_k . z|. */
    for (int s = -1; s <= 1; s += 2) {
        double m[3][3], g0 = s * 1e-4;
        box_set(&a, 0, 0, 0, 2, 2, 0.5);
        box_set(&b, 0, 0, 0, 0.5, 0.5, 0.5);
        rot_axis_angle(1, 2, 0, 1e-3, m);
        box_axes(&b, m);
        b.center[0] = 0.3f;
        b.center[1] = -0.2f;
        b.center[2] = (float)(0.5 + extent(&b, ez) + g0);
        g = add_case(s > 0 ? "stacked, tilt 1e-3, gap 1e-4" : "stacked, tilt 1e-3, overlap 1e-4", &a, &b, s < 0, g0);
        expect_axis(g, 2, ez, NORMAL_EXACT);
        g->premise = 1;
        g->premise_by = 5e-4;
    }
}

/* ---- checking -------------------------------------------------------------------------------- */

typedef struct out1 {
    uint8_t hit, ovl, axis;
    float sep, n[3];
} out1;

/* Runs collide (margin) and overlap on `n` cases starting at `first`, as one batch. */
static void run_batch(int first, int n, float margin, out1 *o)
{
    tb_soa A, B;
    if (tb_soa_alloc(&A, (size_t)n) || tb_soa_alloc(&B, (size_t)n)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        tb_soa_set(&A, (size_t)i, &cases[first + i].a);
        tb_soa_set(&B, (size_t)i, &cases[first + i].b);
    }
    uint8_t hit[MAX_CASES], ovl[MAX_CASES], axis[MAX_CASES];
    float sep[MAX_CASES], nn[3][MAX_CASES];
    satbox_result res = {hit, sep, {nn[0], nn[1], nn[2]}, axis, NULL};
    ptrdiff_t c1 = satbox_collide(&A.view, &B.view, (size_t)n, margin, &res);
    ptrdiff_t c2 = satbox_overlap(&A.view, &B.view, (size_t)n, ovl, NULL);
    ptrdiff_t k1 = 0, k2 = 0;
    for (int i = 0; i < n; i++) {
        o[i].hit = hit[i];
        o[i].ovl = ovl[i];
        o[i].axis = axis[i];
        o[i].sep = sep[i];
        for (int c = 0; c < 3; c++)
            o[i].n[c] = nn[c][i];
        k1 += hit[i] == 1;
        k2 += ovl[i] == 1;
    }
    CHECK(c1 == k1 && c2 == k2, "batch of %d from %d: collide returned %td (hits %td), overlap %td (hits %td)", n,
          first, c1, k1, c2, k2);
    tb_soa_free(&A);
    tb_soa_free(&B);
}

static int same_out(const out1 *x, const out1 *y)
{
    return x->hit == y->hit && x->ovl == y->ovl && x->axis == y->axis && memcmp(&x->sep, &y->sep, sizeof x->sep) == 0 &&
           memcmp(x->n, y->n, sizeof x->n) == 0;
}

static double pair_scale(const gcase *g) { return (double)orc_scale(&g->a, &g->b); }

static void check_premise(const gcase *g)
{
    orc_result r;
    orc_sat(&g->a, &g->b, &r);
    int id = g->ids[0];
    double S = pair_scale(g);
    if (fabsl(r.gap[id] - g->sep) > 1e-6 * S)
        CHECK(0, "%s: construction: oracle gap on axis %d is %.9Lg, not %.9g", g->name, id, r.gap[id], g->sep);
    for (int k = 0; k < 15; k++) {
        if (k == id || (g->nids > 1 && k == g->ids[1]))
            continue;
        if (!(r.gap[k] < g->sep - g->premise_by) || (g->sep > 0 && !(r.gap[k] < 0)))
            CHECK(0, "%s: construction: axis %d has gap %.9Lg, too close to the chosen axis %d (%.9g)", g->name, k,
                 r.gap[k], id, g->sep);
    }
}

static void check_case(const gcase *g, const out1 *o, const char *how)
{
    double S = pair_scale(g), tol = 1e-5 * (S > 1 ? S : 1);
    if (o->ovl != o->hit)
        CHECK(0, "%s (%s): overlap %u != collide(0).hit %u", g->name, how, o->ovl, o->hit);
    int want_hit = g->hit >= 0 ? g->hit : (o->sep <= 0.0f);
    if (o->hit != want_hit)
        CHECK(0, "%s (%s): hit %u, expected %d (separation %.9g)", g->name, how, o->hit, want_hit, (double)o->sep);
    if (g->exact ? (double)o->sep != g->sep : !(fabs(o->sep - g->sep) <= tol))
        CHECK(0, "%s (%s): separation %.9g, expected %.9g (%s)", g->name, how, (double)o->sep, g->sep,
             g->exact ? "exactly" : "within 1e-5 S");
    if (g->nids) {
        int ok = 0;
        for (int k = 0; k < g->nids; k++)
            ok |= o->axis == g->ids[k];
        if (!ok)
            CHECK(0, "%s (%s): axis %u, expected %d%s", g->name, how, o->axis, g->ids[0],
                 g->nids > 1 ? " (or its twin)" : "");
    }
    double len = sqrt((double)o->n[0] * o->n[0] + (double)o->n[1] * o->n[1] + (double)o->n[2] * o->n[2]);
    if (fabs(len - 1) > 1e-6)
        CHECK(0, "%s (%s): normal (%g, %g, %g) is not unit", g->name, how, (double)o->n[0], (double)o->n[1],
             (double)o->n[2]);
    if (g->normal_check != NORMAL_ANY) {
        double dp = 0, dm = 0;
        for (int c = 0; c < 3; c++) {
            dp = fmax(dp, fabs(o->n[c] - g->normal[c]));
            dm = fmax(dm, fabs(o->n[c] + g->normal[c]));
        }
        if ((g->normal_check == NORMAL_EXACT ? dp : fmin(dp, dm)) > 1e-5)
            CHECK(0, "%s (%s): normal (%.7f, %.7f, %.7f), expected %s(%.7f, %.7f, %.7f)", g->name, how, (double)o->n[0],
                 (double)o->n[1], (double)o->n[2], g->normal_check == NORMAL_EXACT ? "" : "+-", g->normal[0],
                 g->normal[1], g->normal[2]);
    }
}

/* hit = separation <= margin, at margins around the separation. */
static void check_margins(int idx, const out1 *o0)
{
    const gcase *g = &cases[idx];
    float s = o0->sep;
    const float margins[] = {
        s, nextafterf(s, INFINITY), nextafterf(s, -INFINITY), s + 0.25f, s - 0.25f, 1e-3f, -1e-3f, 10.0f, -10.0f};
    for (size_t m = 0; m < sizeof margins / sizeof margins[0]; m++) {
        out1 o;
        run_batch(idx, 1, margins[m], &o);
        int want = s <= margins[m];
        if (o.hit != want || o.sep != s || o.axis != o0->axis || memcmp(o.n, o0->n, sizeof o.n) != 0)
            CHECK(0, "%s: margin %.9g: hit %u (expected %d), separation %.9g (at margin 0: %.9g), axis %u/%u", g->name,
                 (double)margins[m], o.hit, want, (double)o.sep, (double)s, o.axis, o0->axis);
        if (o.ovl != o0->ovl)
            CHECK(0, "%s: overlap bit changed with the margin argument of collide", g->name);
    }
}

/* Overlapping pairs: moving B by -separation * normal makes the boxes touch (separation ~ 0). */
static void check_resolve(int idx, const out1 *o0)
{
    const gcase *g = &cases[idx];
    if (!(o0->sep < 0) || g->normal_check == NORMAL_ANY)
        return;
    gcase save = cases[idx];
    for (int c = 0; c < 3; c++)
        cases[idx].b.center[c] = (float)((double)g->b.center[c] - (double)o0->sep * o0->n[c]);
    out1 o;
    run_batch(idx, 1, 0.0f, &o);
    double tol = 1e-5 * fmax(1.0, pair_scale(&cases[idx]));
    if (!(fabs(o.sep) <= tol))
        CHECK(0, "%s: after moving B by -separation * normal, separation is %.9g, not ~0", save.name, (double)o.sep);
    cases[idx] = save;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    tb_require_isa();
    printf("test_geometry: satbox path %s\n", satbox_isa_name(satbox_isa_active()));

    for (int i = 0; i < 3; i++)
        for (int s = -1; s <= 1; s += 2) {
            make_face_a(i, s, 0.1);
            make_face_b(i, s, 0.1);
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            make_edge(i, j, 0.1);
    int nsep = ncases;
    /* The same constructions moved into overlap: the chosen axis stays the largest gap. */
    for (int i = 0; i < 3; i++) {
        make_face_a(i, 1, -0.05);
        make_face_b(i, -1, -0.05);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            make_edge(i, j, -0.05);
    /* Edge-to-edge contact: the separation is 0 up to the rounding of sqrt2 in the axes. */
    for (int i = 0; i < 3; i++)
        make_edge(i, (i + 1) % 3, 0.0);
    for (int k = ncases - 3; k < ncases; k++)
        cases[k].hit = -1;
    make_specials();
    printf("%d cases (%d with one separating axis, covering every id 0..14)\n", ncases, nsep);

    int covered[15] = {0};
    for (int k = 0; k < nsep; k++)
        covered[cases[k].ids[0]]++;
    for (int id = 0; id < 15; id++)
        if (!covered[id])
            CHECK(0, "no case for axis %d", id);

    for (int k = 0; k < ncases; k++)
        if (cases[k].premise)
            check_premise(&cases[k]);

    out1 all[MAX_CASES], one;
    run_batch(0, ncases, 0.0f, all);
    for (int k = 0; k < ncases; k++) {
        check_case(&cases[k], &all[k], "batch");
        run_batch(k, 1, 0.0f, &one);
        check_case(&cases[k], &one, "alone");
        if (!same_out(&one, &all[k]))
            CHECK(0, "%s: alone and in a batch give different outputs", cases[k].name);
        check_margins(k, &all[k]);
        check_resolve(k, &all[k]);
    }
    /* Swapping A and B of an exact case gives the same contact (normal reversed). */
    {
        satbox_box a, b;
        box_set(&a, 0, 0, 0, 0.5, 0.5, 0.5);
        box_set(&b, 1, 0, 0, 0.5, 0.5, 0.5);
        add_case("face contact swapped", &b, &a, 1, 0.0);
        expect_axis(&cases[ncases - 1], 0, (const double[3]){-1, 0, 0}, NORMAL_EXACT);
        cases[ncases - 1].exact = 1;
        run_batch(ncases - 1, 1, 0.0f, &one);
        check_case(&cases[ncases - 1], &one, "alone");
    }

    return check_report(failures);
}

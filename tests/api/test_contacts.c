/* test_contacts.c - contact manifolds: hand-made cases, invariants on >= 1M pairs, frame-to-frame coherence. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_contacts [--seed N] [--pairs N]
 *  - hand-made geometry with answers worked out by hand (dyadic inputs, so most are exact);
 *  - invariants over the random, stacked, touching, edge-edge, flat, scale and parallel families,
 *    and issue 24's zero-extent, speculative-edge and far-edge families (the rules they hold
 *    the manifolds to: the comment above TOL_REL);
 *  - coherence: 1e-5 perturbations of resting boxes keep the feature ids, points move continuously. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_util.h"
#include "support.h"

static int failures = 0;

#include "check.h"
#include "scale.h"

#define M_PI 3.14159265358979323846
#define M_SQRT1_2 0.70710678118654752440

/* ---- one pair through the public API ------------------------------------------------------- */

static void run_one(const satbox_box *a, const satbox_box *b, float margin, tc_pair *p)
{
    tb_soa sa, sb;
    tb_soa_alloc(&sa, 1);
    tb_soa_alloc(&sb, 1);
    tb_soa_set(&sa, 0, a);
    tb_soa_set(&sb, 0, b);
    tc_out o;
    tc_alloc(&o, 1);
    ptrdiff_t r = satbox_contacts(&sa.view, &sb.view, 1, margin, &o.view);
    CHECK(r == o.hit[0], "return %td vs hit %u", r, o.hit[0]);
    tc_get(&o, 0, p);
    tc_free(&o);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
}

/* An axis-aligned box. */
static satbox_box box_aligned(float cx, float cy, float cz, float hx, float hy, float hz)
{
    satbox_box b;
    memset(&b, 0, sizeof b);
    b.center[0] = cx, b.center[1] = cy, b.center[2] = cz;
    b.half[0] = hx, b.half[1] = hy, b.half[2] = hz;
    for (int k = 0; k < 3; k++)
        b.axis[k][k] = 1.0f;
    return b;
}

/* A cube of half extent h centred at c, turned by `angle` about (ux, uy, uz). */
static satbox_box cube_turned(float cx, float cy, float cz, float h, double ux, double uy, double uz, double angle)
{
    satbox_box b = box_aligned(cx, cy, cz, h, h, h);
    tb_rotate(b.axis, ux, uy, uz, angle);
    return b;
}

/* 1 if point p equals one of the m points want (within tol per coordinate). */
static int among(const float p[3], const float want[][3], int m, float tol)
{
    for (int i = 0; i < m; i++)
        if (fabsf(p[0] - want[i][0]) <= tol && fabsf(p[1] - want[i][1]) <= tol && fabsf(p[2] - want[i][2]) <= tol)
            return 1;
    return 0;
}

static int all_distinct(const tc_pair *p)
{
    for (int i = 0; i < p->count; i++)
        for (int j = i + 1; j < p->count; j++)
            if (memcmp(p->point[i], p->point[j], sizeof p->point[i]) == 0)
                return 0;
    return 1;
}

/* ---- hand-made cases ------------------------------------------------------------------------ */

#define EDGE_AXIS (-1) /* expect_manifold(): any of the 9 edge axes (ids 6..14) */

/* A hand-made overlapping case's manifold: a hit with `count` points, won by axis id `axis`. */
static void expect_manifold(const char *name, const tc_pair *p, int count, int axis)
{
    CHECK(p->hit == 1 && p->count == count && (axis == EDGE_AXIS ? p->axis >= 6 : p->axis == axis),
          "%s: hit %d count %d axis %d", name, p->hit, p->count, p->axis);
}

/* Every point of the manifold is one of want[0..m-1] (within tol per coordinate), at depth
 * `depth` (within dtol; 0: exactly), and no two points are the same. */
static void expect_points(const char *name, const tc_pair *p, const float want[][3], int m, float tol, float depth,
                          float dtol)
{
    for (int k = 0; k < p->count; k++) {
        CHECK(among(p->point[k], want, m, tol), "%s: point %d (%.7g %.7g %.7g) not an expected one", name, k,
              p->point[k][0], p->point[k][1], p->point[k][2]);
        CHECK(fabsf(p->depth[k] - depth) <= dtol, "%s: depth %d = %.9g, want %.9g", name, k, p->depth[k], depth);
    }
    CHECK(all_distinct(p), "%s: repeated point", name);
}

static void test_resting(void)
{
    /* A 4 x 4 x 1 slab at the origin; a unit cube sunk 1/16 into its top face at (1/4, -1/8). */
    satbox_box a = box_aligned(0, 0, 0, 2, 2, 0.5f), b = box_aligned(0.25f, -0.125f, 0.9375f, 0.5f, 0.5f, 0.5f);
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    const float want[4][3] = {{-0.25f, -0.625f, 0.4375f}, {0.75f, -0.625f, 0.4375f},
                              {0.75f, 0.375f, 0.4375f}, {-0.25f, 0.375f, 0.4375f}};
    expect_manifold("resting", &p, 4, 2);
    CHECK(p.normal[0] == 0 && p.normal[1] == 0 && p.normal[2] == 1, "resting: normal (%g %g %g)", p.normal[0],
          p.normal[1], p.normal[2]);
    expect_points("resting", &p, want, 4, 0.0f, 0.0625f, 0.0f); /* the corners of the overlap */
    for (int k = 0; k < p.count; k++) {
        /* reference face: A's +z (2*2 + 0 = 4); incident: B's -z (2*2 + 1 = 5); candidates 0-3. */
        CHECK((p.feature[k] & 0xFFFFu) == 0x0504u && (p.feature[k] >> 16) < 4, "resting: feature %08x", p.feature[k]);
    }
    CHECK(p.feature[3] != SATBOX_FEATURE_NONE, "resting: slot 3 unused");

    /* The cube overhangs the slab's +x edge: overlap rectangle x in [1.5, 2], y in [-0.625, 0.375]. */
    b = box_aligned(2.0f, -0.125f, 0.9375f, 0.5f, 0.5f, 0.5f);
    run_one(&a, &b, 0.0f, &p);
    const float want2[4][3] = {{1.5f, -0.625f, 0.4375f}, {2.0f, -0.625f, 0.4375f},
                               {2.0f, 0.375f, 0.4375f}, {1.5f, 0.375f, 0.4375f}};
    expect_manifold("overhang", &p, 4, 2);
    expect_points("overhang", &p, want2, 4, 0.0f, 0.0625f, 0.0f);
}

static void test_turned45(void)
{
    /* Two unit cubes, B turned 45 degrees about z and sunk 1/16 into A's top: the square and the
     * diamond clip to an octagon of 8 vertices, reduced to 4 of them. */
    satbox_box a = box_aligned(0, 0, 0, 0.5f, 0.5f, 0.5f), b = cube_turned(0, 0, 0.9375f, 0.5f, 0, 0, 1, M_PI / 4);
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    const float d = (float)(M_SQRT1_2 - 0.5); /* the octagon: |x|, |y| <= 0.5 and |x| + |y| <= sqrt(1/2) */
    const float oct[8][3] = {{0.5f, d, 0.4375f},  {0.5f, -d, 0.4375f},  {-0.5f, d, 0.4375f}, {-0.5f, -d, 0.4375f},
                             {d, 0.5f, 0.4375f},  {-d, 0.5f, 0.4375f},  {d, -0.5f, 0.4375f}, {-d, -0.5f, 0.4375f}};
    expect_manifold("turned", &p, 4, 2);
    expect_points("turned", &p, oct, 8, 1e-6f, 0.0625f, 1e-7f); /* octagon vertices */
    for (int k = 0; k < p.count; k++) {
        unsigned cand = p.feature[k] >> 16 & 0xFF;
        CHECK(cand >= 4 && cand < 20, "turned: candidate %u is not an edge crossing", cand);
    }
    /* The 4 kept vertices, in the order written (around the polygon, rule 4), span a quadrilateral
     * of area >= 0.5 (any 4 non-adjacent ones: 0.5 + ...); out of order, the loop crosses itself. */
    if (p.count == 4) {
        double area = 0;
        for (int i = 0; i < 4; i++) {
            const float *u = p.point[i], *v = p.point[(i + 1) % 4];
            area += 0.5 * ((double)u[0] * v[1] - (double)v[0] * u[1]);
        }
        CHECK(fabs(area) >= 0.5, "turned: quadrilateral area %g < 0.5", fabs(area));
    }
}

static void test_edge_on_face(void)
{
    /* A unit cube turned 45 degrees about x, its lowest edge (along x) sunk 1/64 into a slab. */
    satbox_box a = box_aligned(0, 0, 0, 2, 2, 0.5f),
               b = cube_turned(0.25f, 0, (float)(0.5 + M_SQRT1_2 - 1.0 / 64), 0.5f, 1, 0, 0, M_PI / 4);
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    expect_manifold("edge on face", &p, 2, 2);
    const float want[2][3] = {{-0.25f, 0, 0.5f - 1.0f / 64}, {0.75f, 0, 0.5f - 1.0f / 64}};
    expect_points("edge on face", &p, want, 2, 1e-6f, 1.0f / 64, 1e-6f);
}

static void test_corner_on_face(void)
{
    /* A unit cube with its diagonal (1,1,1) turned onto -z: one corner sunk 1/64 into the slab. */
    /* rotate (1,1,1)/sqrt3 onto (0,0,-1): axis (1,1,1) x (0,0,-1) = (-1, 1, 0), angle acos(-1/sqrt3). */
    double half_diag = 0.5 * sqrt(3.0);
    satbox_box a = box_aligned(0, 0, 0, 2, 2, 0.5f),
               b = cube_turned(0.5f, -0.25f, (float)(0.5 + half_diag - 1.0 / 64), 0.5f, -M_SQRT1_2, M_SQRT1_2, 0,
                               acos(-1.0 / sqrt(3.0)));
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    expect_manifold("corner", &p, 1, 2);
    const float want[1][3] = {{0.5f, -0.25f, 0.5f - 1.0f / 64}};
    expect_points("corner", &p, want, 1, 2e-6f, 1.0f / 64, 2e-6f);
    CHECK(p.feature[1] == SATBOX_FEATURE_NONE && p.depth[1] == 0, "corner: slot 1 not cleared");
}

static void test_crossing_edges(void)
{
    /* A: unit cube turned 45 degrees about x (top edge along x at z = sqrt(1/2)); B: unit cube
     * turned 45 degrees about y (bottom edge along y), its edge sunk 1/64 into A's edge. */
    satbox_box a = cube_turned(0, 0, 0, 0.5f, 1, 0, 0, M_PI / 4),
               b = cube_turned(0, 0, (float)(2 * M_SQRT1_2 - 1.0 / 64), 0.5f, 0, 1, 0, M_PI / 4);
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    expect_manifold("crossing", &p, 1, EDGE_AXIS);
    const float want[1][3] = {{0, 0, (float)(M_SQRT1_2 - 1.0 / 128)}};
    /* the depth is the SAT gap: within SATBOX_BOUND_REL * S (S ~ 4.3 here, 8.2e-6) of the exact one */
    expect_points("crossing", &p, want, 1, 2e-6f, 1.0f / 64, 3e-6f);
    CHECK(fabsf(p.normal[2] - 1.0f) <= 1e-6f, "crossing: normal (%g %g %g)", p.normal[0], p.normal[1], p.normal[2]);
    CHECK((p.feature[0] >> 16 & 0xFF) == SATBOX_FEATURE_EDGE, "crossing: feature %08x", p.feature[0]);
}

static void test_inside(void)
{
    /* A small turned cube well inside a big box: contacts on the small box's face, all deep. */
    satbox_box a = box_aligned(0, 0, 0, 2, 2, 2), b = cube_turned(0.25f, 0.5f, 0.75f, 0.25f, 1, 2, 3, 0.3);
    tc_pair p;
    run_one(&a, &b, 0.0f, &p);
    CHECK(p.hit == 1 && p.count >= 1, "inside: hit %d count %d", p.hit, p.count);
    for (int k = 0; k < p.count; k++) {
        CHECK(tc_outside(&a, p.point[k]) <= 0 && tc_outside(&b, p.point[k]) <= 1e-6, "inside: point %d outside", k);
        CHECK(p.depth[k] > 0.5f, "inside: depth %d = %g", k, p.depth[k]);
    }
    /* B = A exactly: 4 points on the incident face, depth = full height. */
    run_one(&a, &a, 0.0f, &p);
    CHECK(p.hit == 1 && p.count == 4, "identical: hit %d count %d", p.hit, p.count);
    for (int k = 0; k < p.count; k++)
        CHECK(p.depth[k] == 4.0f, "identical: depth %d = %g", k, p.depth[k]);
}

static void test_speculative(void)
{
    /* The resting cube lifted 1/64 above the slab: margin 1/32 gives 4 points of depth -1/64;
     * margin 1/128 gives no hit and no points. */
    satbox_box a = box_aligned(0, 0, 0, 2, 2, 0.5f), b = box_aligned(0.25f, -0.125f, 1.015625f, 0.5f, 0.5f, 0.5f);
    tc_pair p;
    run_one(&a, &b, 1.0f / 32, &p);
    CHECK(p.hit == 1 && p.count == 4, "speculative: hit %d count %d", p.hit, p.count);
    for (int k = 0; k < p.count; k++)
        CHECK(p.depth[k] == -0.015625f, "speculative: depth %d = %.9g", k, p.depth[k]);
    run_one(&a, &b, 1.0f / 128, &p);
    CHECK(p.hit == 0 && p.count == 0 && p.feature[0] == SATBOX_FEATURE_NONE, "beyond margin: hit %d count %d",
          p.hit, p.count);
    CHECK(p.axis == 2 && p.normal[2] == 1.0f, "beyond margin: axis %d", p.axis);
    /* Bad data: count 0, hit 0, bad 1. */
    b.half[1] = NAN;
    run_one(&a, &b, 1.0f, &p);
    CHECK(p.hit == 0 && p.count == 0 && p.bad == 1 && p.axis == SATBOX_AXIS_INVALID, "bad: hit %d count %d bad %d",
          p.hit, p.count, p.bad);
}

/* ---- bad arguments and bad data through every entry point ------------------------------------ */

/* Bad arguments return the error and write nothing; a bad pair marks only itself (count 0, hit 0,
 * bad 1) and the other pairs are byte-identical to a batch without it. */
static void test_bad_input(void)
{
    enum { N = 37 };
    tb_rng r;
    tb_seed(&r, 77);
    tb_soa sa, sb, pool;
    tb_soa_alloc(&sa, N);
    tb_soa_alloc(&sb, N);
    tb_soa_alloc(&pool, 2 * N);
    satbox_pair pairs[N];
    satbox_rec recs[2 * N];
    for (int i = 0; i < N; i++) {
        satbox_box a, b;
        tb_make_pair(&r, TB_STACKED, &a, &b);
        tb_soa_set(&sa, (size_t)i, &a);
        tb_soa_set(&sb, (size_t)i, &b);
        tb_soa_set(&pool, 2 * (size_t)i, &a);
        tb_soa_set(&pool, 2 * (size_t)i + 1, &b);
        pairs[i] = (satbox_pair){(uint32_t)(2 * i), (uint32_t)(2 * i + 1)};
    }
    satbox_pack_rec(&pool.view, 2 * N, recs);
    tc_out o;
    tc_alloc(&o, N);
    uint32_t list[N];
    memset(o.count, 0xA5, N);
    memset(o.hit, 0xA5, N);
    satbox_contacts_out none = {0};
    /* errors: nothing written */
    CHECK(satbox_contacts(&sa.view, &sb.view, N, 0.0f, NULL) == SATBOX_ERR_NULL, "NULL out");
    CHECK(satbox_contacts(NULL, &sb.view, N, 0.0f, &o.view) == SATBOX_ERR_NULL, "NULL a");
    CHECK(satbox_contacts(&sa.view, &sb.view, N, NAN, &o.view) == SATBOX_ERR_ARG, "NaN margin");
    CHECK(satbox_contacts(&sa.view, &sb.view, N, INFINITY, &o.view) == SATBOX_ERR_ARG, "inf margin");
    CHECK(satbox_contacts(&sa.view, &sb.view, (size_t)UINT32_MAX + 1, 0.0f, &o.view) == SATBOX_ERR_COUNT, "count");
    pairs[N - 1].b = 2 * N;
    CHECK(satbox_contacts_pairs(&pool.view, 2 * N, pairs, N, 0.0f, &o.view, list) == SATBOX_ERR_INDEX, "index");
    CHECK(satbox_contacts_pairs_rec(recs, 2 * N, pairs, N, 0.0f, &o.view, list) == SATBOX_ERR_INDEX, "index rec");
    pairs[N - 1].b = 2 * N - 1;
    satbox_contacts_out alias = o.view;
    alias.depth[2] = (float *)sa.view.center[1]; /* an output over an input */
    CHECK(satbox_contacts(&sa.view, &sb.view, N, 0.0f, &alias) == SATBOX_ERR_ALIAS, "alias input");
    alias = o.view;
    alias.feature[3] = (uint32_t *)o.view.point[1][2]; /* two outputs on each other */
    CHECK(satbox_contacts(&sa.view, &sb.view, N, 0.0f, &alias) == SATBOX_ERR_ALIAS, "alias outputs");
    int untouched = 1;
    for (int i = 0; i < N; i++)
        untouched &= o.count[i] == 0xA5 && o.hit[i] == 0xA5;
    CHECK(untouched, "an error call wrote outputs");
    CHECK(satbox_contacts(NULL, NULL, 0, NAN, NULL) == 0, "n = 0");
    CHECK(satbox_contacts(&sa.view, &sb.view, N, 0.0f, &none) >= 0, "all outputs NULL");

    /* bad data: the clean batch, then the same with pairs 3 and 20 poisoned */
    tc_out clean;
    tc_alloc(&clean, N);
    ptrdiff_t h0 = satbox_contacts(&sa.view, &sb.view, N, 1e-3f, &clean.view);
    satbox_box a3, b20;
    tb_soa_get(&sa, 3, &a3);
    tb_soa_get(&sb, 20, &b20);
    satbox_box bad3 = a3, bad20 = b20;
    bad3.half[1] = NAN;
    bad20.center[2] = INFINITY;
    tb_soa_set(&sa, 3, &bad3);
    tb_soa_set(&sb, 20, &bad20);
    const uint8_t *bad = o.bad;
    ptrdiff_t h1 = satbox_contacts(&sa.view, &sb.view, N, 1e-3f, &o.view);
    CHECK(h1 == h0 - clean.hit[3] - clean.hit[20], "bad pairs counted: %td vs %td", h1, h0);
    for (int i = 0; i < N; i++) {
        tc_pair p, q;
        tc_get(&o, (size_t)i, &p);
        tc_get(&clean, (size_t)i, &q);
        if (i == 3 || i == 20) {
            CHECK(p.count == 0 && p.hit == 0 && bad[i] == 1 && p.axis == SATBOX_AXIS_INVALID &&
                      p.feature[0] == SATBOX_FEATURE_NONE && p.normal[0] == 0,
                  "bad pair %d: count %d hit %d bad %d", i, p.count, p.hit, bad[i]);
        } else {
            CHECK(bad[i] == 0 && memcmp(&p, &q, sizeof p) == 0, "pair %d changed by its neighbours' bad data", i);
        }
    }
    tb_soa_set(&sa, 3, &a3);
    tb_soa_set(&sb, 20, &b20);
    tc_free(&clean);
    tc_free(&o);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
    tb_soa_free(&pool);
}

/* ---- engine forms: quaternion record pools and the contact stream --------------------------- */

/* Random quaternion (not unit: the forms normalise) for box i; every 11th is zero (invalid box). */
static void draw_quat(tb_rng *r, int i, float q[4])
{
    for (int c = 0; c < 4; c++)
        q[c] = i % 11 == 5 ? 0.0f : (float)tb_normal(r);
}

/* The record the stream must hold for pair i, from the SoA outputs (satbox.h's field list). */
static satbox_manifold record_of(const tc_out *o, size_t i)
{
    satbox_manifold m;
    memset(&m, 0, sizeof m);
    m.pair = (uint32_t)i;
    for (int c = 0; c < 3; c++)
        m.normal[c] = o->normal[c][i];
    m.axis = o->axis[i];
    m.count = o->count[i];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            m.point[k].position[c] = o->point[k][c][i];
        m.point[k].depth = o->depth[k][i];
        m.point[k].feature = o->feature[k][i];
    }
    return m;
}

/* `got` (cnt records, bad bytes) is the stream of the SoA outputs `o`: one record per hit pair,
 * ascending, byte for byte. */
static void check_stream_of(const char *what, const tc_out *o, size_t n, ptrdiff_t hits, const satbox_manifold *got,
                            ptrdiff_t cnt, const uint8_t *bad)
{
    CHECK(cnt == hits, "%s: %td records, %td hits", what, cnt, hits);
    ptrdiff_t k = 0;
    for (size_t i = 0; i < n && k <= cnt; i++) {
        CHECK(bad[i] == o->bad[i], "%s: bad[%zu] %u vs %u", what, i, bad[i], o->bad[i]);
        if (o->hit[i] != 1)
            continue;
        satbox_manifold want = record_of(o, i);
        CHECK(k < cnt && memcmp(&want, &got[k], sizeof want) == 0, "%s: record %td (pair %zu) differs", what, k, i);
        k++;
    }
}

static void test_engine_forms(void)
{
    enum { NB = 301, N = 997 };
    tb_rng r;
    tb_seed(&r, 4242);
    /* a pool of boxes given by quaternion: records, and the SoA conversion a user would do first */
    satbox_qrec *qrec = malloc(NB * sizeof *qrec);
    float *qf[4], *cf[3], *hf[3], *axis_mem = malloc(9 * NB * sizeof(float));
    float *axis[3][3];
    for (int c = 0; c < 4; c++)
        qf[c] = malloc(NB * sizeof(float));
    for (int c = 0; c < 3; c++) {
        cf[c] = malloc(NB * sizeof(float));
        hf[c] = malloc(NB * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = axis_mem + (3 * k + c) * NB;
    for (int i = 0; i < NB; i++) {
        satbox_box a, b;
        tb_make_pair(&r, TB_STACKED, &a, &b);
        const satbox_box *x = i % 2 ? &b : &a;
        float q[4];
        draw_quat(&r, i, q);
        for (int c = 0; c < 3; c++) {
            qrec[i].center[c] = cf[c][i] = x->center[c];
            qrec[i].half[c] = hf[c][i] = x->half[c];
        }
        if (i % 13 == 7)
            qrec[i].half[1] = hf[1][i] = -1.0f; /* bad data */
        for (int c = 0; c < 4; c++)
            qrec[i].quat[c] = qf[c][i] = q[c];
        qrec[i].pad[0] = qrec[i].pad[1] = NAN; /* not read */
    }
    CHECK(satbox_axes_from_quat((const float *const *)qf, NB, axis) >= 1, "zero quaternions are invalid");
    satbox_boxes pool = {{cf[0], cf[1], cf[2]}, {hf[0], hf[1], hf[2]},
                         {{axis[0][0], axis[0][1], axis[0][2]}, {axis[1][0], axis[1][1], axis[1][2]},
                          {axis[2][0], axis[2][1], axis[2][2]}}};
    satbox_pair *pairs = malloc(N * sizeof *pairs);
    for (int i = 0; i < N; i++) /* neighbours (mostly stacked pairs: touching) and random ones */
        pairs[i] = i % 3 ? (satbox_pair){(uint32_t)(i % NB), (uint32_t)((i + 1) % NB)}
                         : (satbox_pair){(uint32_t)(tb_next(&r) % NB), (uint32_t)(tb_next(&r) % NB)};
    float margin = 0.01f;

    /* overlap, collide, contacts over quaternion records == over the converted SoA pool */
    uint8_t h1[N], h2[N], b1[N], b2[N];
    uint32_t l1[N], l2[N];
    ptrdiff_t c1 = satbox_overlap_pairs(&pool, NB, pairs, N, h1, l1, b1);
    ptrdiff_t c2 = satbox_overlap_pairs_qrec(qrec, NB, pairs, N, h2, l2, b2);
    CHECK(c1 == c2 && c1 > 0 && !memcmp(h1, h2, N) && !memcmp(b1, b2, N) && !memcmp(l1, l2, (size_t)c1 * 4),
          "overlap_pairs_qrec differs from the converted pool (%td vs %td)", c2, c1);
    float s1[N], s2[N], n1[3][N], n2[3][N];
    uint8_t a1[N], a2[N];
    satbox_result r1 = {h1, s1, {n1[0], n1[1], n1[2]}, a1, b1}, r2 = {h2, s2, {n2[0], n2[1], n2[2]}, a2, b2};
    c1 = satbox_collide_pairs(&pool, NB, pairs, N, margin, &r1, l1);
    c2 = satbox_collide_pairs_qrec(qrec, NB, pairs, N, margin, &r2, l2);
    CHECK(c1 == c2 && !memcmp(h1, h2, N) && !memcmp(s1, s2, sizeof s1) && !memcmp(n1, n2, sizeof n1) &&
              !memcmp(a1, a2, N) && !memcmp(b1, b2, N),
          "collide_pairs_qrec differs from the converted pool");
    tc_out o1, o2;
    tc_alloc(&o1, N);
    tc_alloc(&o2, N);
    ptrdiff_t hits = satbox_contacts_pairs(&pool, NB, pairs, N, margin, &o1.view, l1);
    c2 = satbox_contacts_pairs_qrec(qrec, NB, pairs, N, margin, &o2.view, l2);
    int same = hits == c2;
    for (size_t i = 0; i < N && same; i++) {
        tc_pair p, q;
        tc_get(&o1, i, &p);
        tc_get(&o2, i, &q);
        same = memcmp(&p, &q, sizeof p) == 0;
    }
    CHECK(same && hits > 0, "contacts_pairs_qrec differs from the converted pool");

    /* the stream of every form == the SoA outputs of the same form */
    satbox_manifold *rec = malloc(N * sizeof *rec);
    uint8_t bad[N];
    satbox_rec *mrec = malloc(NB * sizeof *mrec);
    satbox_pack_rec(&pool, NB, mrec);
    check_stream_of("stream_pairs", &o1, N, hits, rec, satbox_contacts_stream_pairs(&pool, NB, pairs, N, margin, rec, bad), bad);
    check_stream_of("stream_pairs_rec", &o1, N, hits, rec,
                    satbox_contacts_stream_pairs_rec(mrec, NB, pairs, N, margin, rec, bad), bad);
    check_stream_of("stream_pairs_qrec", &o1, N, hits, rec,
                    satbox_contacts_stream_pairs_qrec(qrec, NB, pairs, N, margin, rec, bad), bad);
    /* plain and quaternion SoA forms: A = pool[pairs[i].a] ... gathered into batches */
    {
        tb_soa sa, sb;
        tb_soa_alloc(&sa, N);
        tb_soa_alloc(&sb, N);
        float *qa[10], *qb[10];
        for (int f = 0; f < 10; f++) {
            qa[f] = malloc(N * sizeof(float));
            qb[f] = malloc(N * sizeof(float));
        }
        for (size_t i = 0; i < N; i++) {
            satbox_box a, b;
            tb_box_from(&pool, pairs[i].a, &a);
            tb_box_from(&pool, pairs[i].b, &b);
            tb_soa_set(&sa, i, &a);
            tb_soa_set(&sb, i, &b);
            const satbox_qrec *x = &qrec[pairs[i].a], *y = &qrec[pairs[i].b];
            for (int c = 0; c < 3; c++) {
                qa[c][i] = x->center[c];
                qa[3 + c][i] = x->half[c];
                qb[c][i] = y->center[c];
                qb[3 + c][i] = y->half[c];
            }
            for (int c = 0; c < 4; c++) {
                qa[6 + c][i] = x->quat[c];
                qb[6 + c][i] = y->quat[c];
            }
        }
        ptrdiff_t hm = satbox_contacts(&sa.view, &sb.view, N, margin, &o2.view);
        check_stream_of("stream", &o2, N, hm, rec, satbox_contacts_stream(&sa.view, &sb.view, N, margin, rec, bad), bad);
        satbox_qboxes qva = {{qa[0], qa[1], qa[2]}, {qa[3], qa[4], qa[5]}, {qa[6], qa[7], qa[8], qa[9]}};
        satbox_qboxes qvb = {{qb[0], qb[1], qb[2]}, {qb[3], qb[4], qb[5]}, {qb[6], qb[7], qb[8], qb[9]}};
        ptrdiff_t hq = satbox_contacts_q(&qva, &qvb, N, margin, &o2.view);
        CHECK(hq == hits, "contacts_q of the gathered pairs: %td hits vs %td", hq, hits);
        check_stream_of("stream_q", &o2, N, hq, rec, satbox_contacts_stream_q(&qva, &qvb, N, margin, rec, bad), bad);

        /* bad arguments: an error code and nothing written */
        memset(rec, 0xA5, N * sizeof *rec);
        memset(bad, 0xA5, N);
        CHECK(satbox_contacts_stream(&sa.view, &sb.view, N, margin, NULL, bad) == SATBOX_ERR_NULL, "NULL records");
        CHECK(satbox_contacts_stream(&sa.view, &sb.view, N, NAN, rec, bad) == SATBOX_ERR_ARG, "NaN margin");
        CHECK(satbox_contacts_stream(&sa.view, &sb.view, N, margin, rec, (uint8_t *)rec + 5) == SATBOX_ERR_ALIAS,
              "bad bytes inside the records");
        CHECK(satbox_contacts_stream(&sa.view, &sb.view, N, margin, (satbox_manifold *)(void *)sa.view.half[2], bad) ==
                  SATBOX_ERR_ALIAS, "records over an input");
        CHECK(satbox_contacts_stream_pairs_qrec(NULL, NB, pairs, N, margin, rec, bad) == SATBOX_ERR_NULL, "NULL pool");
        CHECK(satbox_contacts_stream_pairs_qrec((const satbox_qrec *)(const void *)rec, NB, pairs, N, margin, rec,
                                                bad) == SATBOX_ERR_ALIAS, "records over the pool");
        pairs[N - 1].a = NB;
        CHECK(satbox_contacts_stream_pairs_qrec(qrec, NB, pairs, N, margin, rec, bad) == SATBOX_ERR_INDEX, "index");
        CHECK(satbox_overlap_pairs_qrec(qrec, NB, pairs, N, h2, l2, b2) == SATBOX_ERR_INDEX, "index overlap");
        pairs[N - 1].a = 0;
        int untouched = 1;
        for (size_t i = 0; i < N * sizeof *rec; i++)
            untouched &= ((const unsigned char *)rec)[i] == 0xA5;
        for (size_t i = 0; i < N; i++)
            untouched &= bad[i] == 0xA5;
        CHECK(untouched, "an error call of the stream wrote outputs");
        CHECK(satbox_contacts_stream(NULL, NULL, 0, NAN, NULL, NULL) == 0, "n = 0");
        CHECK(satbox_contacts_stream(&sa.view, &sb.view, N, margin, rec, NULL) == hm, "bad may be NULL");
        for (int f = 0; f < 10; f++) {
            free(qa[f]);
            free(qb[f]);
        }
        tb_soa_free(&sa);
        tb_soa_free(&sb);
    }
    free(mrec);
    free(rec);
    tc_free(&o1);
    tc_free(&o2);
    free(pairs);
    for (int c = 0; c < 4; c++)
        free(qf[c]);
    for (int c = 0; c < 3; c++) {
        free(cf[c]);
        free(hf[c]);
    }
    free(axis_mem);
    free(qrec);
}

/* ---- invariants ----------------------------------------------------------------------------- */

/* How make_edge_pair places its crossing edges (the edge-edge family: all zero but pen):
 *  - pen_lo, pen_hi: the penetration along the edges' common normal, uniform (negative: a gap);
 *  - end_frac: the probability, per edge, that the crossing lies near an end of the edge, |s| in
 *    [0.85, 1.1] of the half extent (beyond the end: the lines' closest points are off the segment);
 *  - near_par: the probability of near-parallel edges, |uA_i x uB_j|^2 = 10^U(-2, -0.5);
 *  - far: centers at 10^U(4, 6) per coordinate with random signs (float spacing 1e-3..6e-2). */
typedef struct edge_opts {
    double pen_lo, pen_hi, end_frac, near_par;
    int far;
} edge_opts;

/* Rotates the three axes of b about the unit vector k by angle phi (Rodrigues, in double). */
static void rotate_about(satbox_box *b, const double k[3], double phi)
{
    double cs = cos(phi), sn = sin(phi);
    for (int m = 0; m < 3; m++) {
        double x[3] = {b->axis[m][0], b->axis[m][1], b->axis[m][2]};
        double kx = k[0] * x[0] + k[1] * x[1] + k[2] * x[2];
        double cr[3] = {k[1] * x[2] - k[2] * x[1], k[2] * x[0] - k[0] * x[2], k[0] * x[1] - k[1] * x[0]};
        for (int c = 0; c < 3; c++)
            b->axis[m][c] = (float)(x[c] * cs + cr[c] * sn + k[c] * kx * (1 - cs));
    }
}

/* The position along an edge of half extent h where the other edge crosses it. */
static double crossing_at(tb_rng *r, double h, double end_frac)
{
    if (end_frac > 0 && tb_unit(r) < end_frac) {
        double side = (tb_next(r) & 1) ? 1.0 : -1.0;
        return side * tb_range(r, 0.85, 1.1) * h;
    }
    return tb_range(r, -0.8, 0.8) * h;
}

/* Both boxes zeroed, then half extents uniform in [0.1, 1.5), drawn A's and B's in turn per axis. */
static void clear_with_halves(tb_rng *r, satbox_box *a, satbox_box *b)
{
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    for (int k = 0; k < 3; k++) {
        a->half[k] = (float)tb_range(r, 0.1, 1.5);
        b->half[k] = (float)tb_range(r, 0.1, 1.5);
    }
}

/* Crossing edges: an edge of A and an edge of B, placed along their common normal at the
 * penetration drawn from o (by default sunk into each other by up to 1e-2), at random places
 * along both edges. (With o's defaults the draws are those of the edge-edge family before
 * issue 24's options, so that family keeps its pairs.) */
static void make_edge_pair(tb_rng *r, const edge_opts *o, satbox_box *a, satbox_box *b)
{
    clear_with_halves(r, a, b);
    tb_random_rotation(r, a->axis);
    tb_random_rotation(r, b->axis);
    int i = (int)(tb_next(r) % 3), j = (int)(tb_next(r) % 3);
    if (o->near_par > 0 && tb_unit(r) < o->near_par) {
        /* turn B so that uB_j lies at angle th from +-uA_i, with sin^2 th = 10^U(-2, -0.5) */
        double l2 = pow(10.0, tb_range(r, -2, -0.5)), w[3], v[3], k[3];
        const float *u = a->axis[i], *uj = b->axis[j];
        double g[3], gu = 0, wl = 0;
        for (int c = 0; c < 3; c++) /* one draw per statement: an initializer list's order is unspecified */
            g[c] = tb_normal(r);
        double sg = (tb_next(r) & 1) ? 1.0 : -1.0;
        for (int c = 0; c < 3; c++)
            gu += g[c] * u[c];
        for (int c = 0; c < 3; c++) {
            w[c] = g[c] - gu * u[c];
            wl += w[c] * w[c];
        }
        double kl = 0, vu = 0;
        for (int c = 0; c < 3; c++)
            v[c] = sg * sqrt(1 - l2) * u[c] + sqrt(l2) * w[c] / sqrt(wl);
        k[0] = (double)uj[1] * v[2] - (double)uj[2] * v[1];
        k[1] = (double)uj[2] * v[0] - (double)uj[0] * v[2];
        k[2] = (double)uj[0] * v[1] - (double)uj[1] * v[0];
        for (int c = 0; c < 3; c++) {
            kl += k[c] * k[c];
            vu += v[c] * uj[c];
        }
        if (kl > 1e-20) {
            for (int c = 0; c < 3; c++)
                k[c] /= sqrt(kl);
            rotate_about(b, k, atan2(sqrt(kl), vu));
        }
    }
    double n[3], len = 0;
    const float *u = a->axis[i], *v = b->axis[j];
    n[0] = (double)u[1] * v[2] - (double)u[2] * v[1];
    n[1] = (double)u[2] * v[0] - (double)u[0] * v[2];
    n[2] = (double)u[0] * v[1] - (double)u[1] * v[0];
    for (int c = 0; c < 3; c++)
        len += n[c] * n[c];
    len = sqrt(len);
    for (int c = 0; c < 3; c++)
        n[c] /= len;
    double pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0}, da[3], db[3];
    double s = crossing_at(r, a->half[i], o->end_frac), t = crossing_at(r, b->half[j], o->end_frac);
    double pen = tb_range(r, o->pen_lo, o->pen_hi);
    for (int k = 0; k < 3; k++) {
        da[k] = db[k] = 0;
        for (int c = 0; c < 3; c++) {
            da[k] += a->axis[k][c] * n[c];
            db[k] += b->axis[k][c] * n[c];
        }
        for (int c = 0; c < 3; c++) {
            pa[c] += (k == i ? s : (da[k] < 0 ? -1 : 1) * (double)a->half[k]) * a->axis[k][c];
            pb[c] += (k == j ? t : (db[k] < 0 ? 1 : -1) * (double)b->half[k]) * b->axis[k][c];
        }
    }
    for (int c = 0; c < 3; c++) {
        if (o->far) {
            double sign = (tb_next(r) & 1) ? 1.0 : -1.0;
            a->center[c] = (float)(sign * pow(10.0, tb_range(r, 4, 6)));
        } else {
            a->center[c] = (float)tb_range(r, -5, 5);
        }
        b->center[c] = (float)(a->center[c] + pa[c] - pen * n[c] - pb[c]);
    }
    if (o->far) {
        /* B's center rounded to the coarse float grid moves the edges along n by up to ~0.05: put
         * the penetration back through an extent of A not along its edge (which moves A's edge
         * along n by |uA_k . n| per unit), so that the pair still touches as drawn. */
        double got = 0;
        for (int c = 0; c < 3; c++)
            got += ((double)a->center[c] + pa[c] - b->center[c] - pb[c]) * n[c];
        int k = (i + 1) % 3;
        if (fabs(da[(i + 2) % 3]) > fabs(da[k]))
            k = (i + 2) % 3;
        double h = a->half[k] + (pen - got) / fabs(da[k]);
        if (h > 0.02)
            a->half[k] = (float)h;
    }
}

/* A zero half extent on `count` (0..2) axes of x, the first one on axis `first`. */
static void zero_extents(tb_rng *r, satbox_box *x, int count, int first)
{
    if (count >= 1)
        x->half[first] = 0.0f;
    if (count == 2) {
        int second = (first + 1 + (int)(tb_next(r) % 2)) % 3;
        x->half[second] = 0.0f;
    }
}

/* Zero extents (issue 24): plates (one zero half extent, e.g. a zero-thickness ground box) and
 * sticks (two) against boxes, plates or sticks, at least one zero in each pair: B resting on a
 * face of A (A's zero, if any, often across that face: a ground plate), aligned with it or tilted
 * by <= 1e-3 rad, sunk by up to 1e-2 of its size or lifted by up to 1e-3, sometimes flush with
 * A's side (coincident edges); or B turned at random and sunk into A; or B near A at random. */
static void make_zero_pair(tb_rng *r, satbox_box *a, satbox_box *b)
{
    clear_with_halves(r, a, b);
    tb_random_rotation(r, a->axis);
    for (int c = 0; c < 3; c++)
        a->center[c] = (float)tb_range(r, -10, 10);
    int kind = (int)(tb_next(r) % 3), k = (int)(tb_next(r) % 3);
    int za = (int)(tb_next(r) % 3), zb = (int)(tb_next(r) % 3);
    if (za + zb == 0) {
        if (tb_next(r) & 1)
            za = 1;
        else
            zb = 1;
    }
    int first_a = (int)(tb_next(r) % 3), first_b = (int)(tb_next(r) % 3);
    if (tb_next(r) & 1)
        first_a = k;
    zero_extents(r, a, za, first_a);
    zero_extents(r, b, zb, first_b);
    double hb = fmax(fmax(b->half[0], b->half[1]), b->half[2]);
    if (kind == 0) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        memcpy(b->axis, a->axis, sizeof b->axis);
        if (tb_next(r) % 4) {
            double ax = tb_normal(r), ay = tb_normal(r), az = tb_normal(r); /* one draw per statement */
            tb_rotate(b->axis, ax, ay, az, tb_range(r, 0, 1e-3));
        }
        double rb = 0;
        for (int j = 0; j < 3; j++) {
            double d = 0;
            for (int c = 0; c < 3; c++)
                d += (double)a->axis[k][c] * b->axis[j][c];
            rb += b->half[j] * fabs(d);
        }
        double sgn = (tb_next(r) & 1) ? 1.0 : -1.0;
        double dist = sgn * (a->half[k] + rb - tb_range(r, -1e-3, 1e-2) * hb);
        double off1 = tb_range(r, -1, 1) * a->half[k1], off2 = tb_range(r, -1, 1) * a->half[k2];
        if (tb_next(r) % 4 == 0) { /* flush with A's side along k1: B's edge on A's edge */
            double side = (tb_next(r) & 1) ? 1.0 : -1.0;
            off1 = side * ((double)a->half[k1] - b->half[k1]);
        }
        for (int c = 0; c < 3; c++)
            b->center[c] = (float)(a->center[c] + dist * a->axis[k][c] + off1 * a->axis[k1][c] + off2 * a->axis[k2][c]);
    } else {
        tb_random_rotation(r, b->axis);
        for (int c = 0; c < 3; c++) {
            double off = kind == 1 ? tb_range(r, -1, 1) * a->half[c] : tb_range(r, -1.5, 1.5);
            b->center[c] = (float)(a->center[c] + off);
        }
    }
}

/* The families of the invariants after tb_family's: crossing edges, then issue 24's three. */
enum { FAM_EDGE = TB_FAMILY_COUNT, FAM_ZERO, FAM_SPEC_EDGE, FAM_FAR_EDGE };

/* Issue 24's speculative margin (0.02 as a float) and the gaps of the speculative-edge family. */
#define SPEC_MARGIN 0x1.47ae14p-6f

static const char *fam_name(int f)
{
    switch (f) {
    case FAM_EDGE: return "edge-edge";
    case FAM_ZERO: return "zero-ext";
    case FAM_SPEC_EDGE: return "spec-edge";
    case FAM_FAR_EDGE: return "far-edge";
    default: return tb_family_name((tb_family)f);
    }
}

static void make_pair_of(tb_rng *r, int f, satbox_box *a, satbox_box *b)
{
    /* spec-edge: apart by a gap in (0, m], crossing near an edge end half the time; far-edge:
     * the edge-edge family far from the origin, half of it with near-parallel edges */
    static const edge_opts plain = {-1e-3, 1e-2, 0, 0, 0};
    static const edge_opts spec = {-(double)SPEC_MARGIN, -1e-6, 0.5, 0.25, 0};
    static const edge_opts far = {-1e-3, 1e-2, 0, 0.5, 1};
    if (f == FAM_EDGE)
        make_edge_pair(r, &plain, a, b);
    else if (f == FAM_SPEC_EDGE)
        make_edge_pair(r, &spec, a, b);
    else if (f == FAM_FAR_EDGE)
        make_edge_pair(r, &far, a, b);
    else if (f == FAM_ZERO)
        make_zero_pair(r, a, b);
    else
        tb_make_pair(r, (tb_family)f, a, b);
}

typedef struct stats {
    size_t pairs, hits, points, same_axis, edge_axis, clamped, fallback, close;
    double worst_in_q, worst_in_p, worst_depth, worst_mid;
    /* failed checks of issue 24's rules: repeated points, points closer than dt, edge points
     * off the true midpoint, edge points outside a box (the rest: failures - these) */
    size_t f_ident, f_close, f_mid, f_edge_out;
} stats;

/* Tolerances of the invariants, relative to the pair's scale s = the larger of max |center
 * coordinate| and the largest half extent (float rounding of the inputs, ~6e-8 s, times the few
 * dozen operations of a point):
 *  - a face point lies inside the incident box grown by 4e-6 s and inside the side slabs of the
 *    reference face (its clip planes) grown by 4e-6 s + the snapping distance ct of rule 3; along
 *    the normal its depth is >= -margin (it may lie beyond the reference box's far face when the
 *    penetration exceeds that box's thickness); a fallback point (an unclipped incident corner)
 *    |depth| + margin outside the incident box and no bound for the side slabs;
 *  - rule 4 (no duplicate points, issue 24): with dt = SATBOX_CONTACT_ABS_TOL * (hA0 + ... + hB2),
 *    p1 is kept only if farther than dt from p0 in the reference face's 2D coordinates, p2 only if
 *    farther than dt from the line p0 p1, p3 likewise on the other side; so any two points of a
 *    manifold are more than dt apart in the face's plane, hence in 3D: checked as a 3D distance
 *    >= dt - 4e-6 s (the rounding of the world placement), and no two points bit-identical;
 *  - rule 5 (issue 24): an edge-axis point is the midpoint of the TRUE closest points of the two
 *    supporting edge segments (s = the line solution clamped, t = clamp(ee + bb s), and if t was
 *    clamped s = clamp(bb t - dd): the segment-segment closest points), computed relative to A's
 *    center from the center difference and then placed in the world. It equals that midpoint
 *    (recomputed here in double as the exact minimum over both segments) within
 *        4 * 2^-24 * max |center coordinate|  (the final rounding into world coordinates)
 *      + 4e-6 * p / |uA_i x uB_j|^2           (p = |cB - cA|_inf + the largest half extent;
 *                                              the line parameters divide by |L|^2)
 *    so the error follows the pair's size, not its distance from the origin; the point lies
 *    within half the distance g of those closest points (+ the same tolerance) of both boxes
 *    (with margin m and 0 < g <= m, a speculative point lies between the boxes);
 *  - each depth equals the point's penetration along the normal (distance below the reference
 *    face's plane; for an edge point, the boxes' penetration along the normal) within 4e-6 s,
 *    plus for an edge point twice the SAT gap's error bound: 2 SATBOX_BOUND_REL S / |uA_i x uB_j|. */
#define TOL_REL 4e-6

/* The midpoint of the closest points of the supporting edges of edge axis `axis` (A's edge
 * farthest along n, B's farthest against n), in double: the exact minimum of the distance over
 * both segments. *dist = the distance of those points, *len2 = |uA_i x uB_j|^2, *clamped = 1 when
 * the minimum lies at an end of a segment (not at the lines' closest points). */
static void edge_midpoint(const satbox_box *A, const satbox_box *B, int axis, const float n[3], double mid[3],
                          double *dist, double *len2, int *clamped)
{
    int i = (axis - 6) / 3, j = (axis - 6) % 3;
    double pa[3], pb[3]; /* points of the two edge lines, relative to A's center */
    for (int c = 0; c < 3; c++) {
        pa[c] = 0;
        pb[c] = (double)B->center[c] - A->center[c];
    }
    for (int k = 0; k < 3; k++) {
        double da = 0, db = 0;
        for (int c = 0; c < 3; c++) {
            da += (double)A->axis[k][c] * n[c];
            db += (double)B->axis[k][c] * n[c];
        }
        for (int c = 0; c < 3; c++) {
            if (k != i)
                pa[c] += (da < 0 ? -1 : 1) * (double)A->half[k] * A->axis[k][c];
            if (k != j)
                pb[c] += (db < 0 ? 1 : -1) * (double)B->half[k] * B->axis[k][c];
        }
    }
    /* f(s, t) = |w + s u - t v|^2 over |s| <= ha, |t| <= hb is a convex quadratic on a rectangle:
     * its minimum is the stationary point if that lies inside, else on one of the four sides,
     * where it is the side's own stationary point clamped to the side; the least of those four. */
    const float *u = A->axis[i], *v = B->axis[j];
    double w[3], uu = 0, vv = 0, b = 0, d = 0, e = 0;
    for (int c = 0; c < 3; c++) {
        w[c] = pa[c] - pb[c];
        uu += (double)u[c] * u[c];
        vv += (double)v[c] * v[c];
        b += (double)u[c] * v[c];
        d += (double)u[c] * w[c];
        e += (double)v[c] * w[c];
    }
    double ha = A->half[i], hb = B->half[j], den = uu * vv - b * b;
    double s = (b * e - vv * d) / den, t = (uu * e - b * d) / den;
    *clamped = !(fabs(s) <= ha && fabs(t) <= hb);
    if (*clamped) {
        double best = INFINITY;
        for (int side = 0; side < 4; side++) {
            double ss, tt;
            if (side < 2) {
                ss = side ? ha : -ha;
                tt = fmin(fmax((e + b * ss) / vv, -hb), hb);
            } else {
                tt = side == 3 ? hb : -hb;
                ss = fmin(fmax((b * tt - d) / uu, -ha), ha);
            }
            double f = 0;
            for (int c = 0; c < 3; c++) {
                double x = w[c] + ss * u[c] - tt * v[c];
                f += x * x;
            }
            if (f < best) {
                best = f;
                s = ss;
                t = tt;
            }
        }
    }
    double dd = 0;
    for (int c = 0; c < 3; c++) {
        double xa = pa[c] + s * u[c], xb = pb[c] + t * v[c];
        mid[c] = A->center[c] + 0.5 * (xa + xb);
        dd += (xa - xb) * (xa - xb);
    }
    *dist = sqrt(dd);
    double cx = (double)u[1] * v[2] - (double)u[2] * v[1], cy = (double)u[2] * v[0] - (double)u[0] * v[2],
           cz = (double)u[0] * v[1] - (double)u[1] * v[0];
    *len2 = cx * cx + cy * cy + cz * cz;
}

/* How far p lies outside the side slabs of the reference face of box b with local axis k (the
 * slabs of the two other axes): the clip planes. Along the normal the depth check applies. */
static double side_excess(const satbox_box *b, int k, const float p[3])
{
    double q[3] = {p[0], p[1], p[2]}, l[3];
    tc_local(b, q, l);
    return fmax(fabs(l[(k + 1) % 3]) - b->half[(k + 1) % 3], fabs(l[(k + 2) % 3]) - b->half[(k + 2) % 3]);
}

static void check_pair(const satbox_box *A, const satbox_box *B, float margin, const tc_pair *p, int hit_c,
                       const float nc[3], int axis_c, stats *st)
{
    double s = 0, maxc = 0, hmax = 0, dinf = 0;
    for (int c = 0; c < 3; c++) {
        maxc = fmax(maxc, fmax(fabs(A->center[c]), fabs(B->center[c])));
        hmax = fmax(hmax, fmax(A->half[c], B->half[c]));
        dinf = fmax(dinf, fabs((double)B->center[c] - A->center[c]));
    }
    s = fmax(maxc, hmax);
    double tol = TOL_REL * s, hsum = 0;
    for (int c = 0; c < 3; c++)
        hsum += (double)A->half[c] + B->half[c];
    st->pairs++;
    st->hits += (size_t)p->hit;
    CHECK(p->hit == hit_c, "hit %d vs collide %d", p->hit, hit_c);
    CHECK((p->count >= 1) == (p->hit == 1) && p->count <= 4, "count %d with hit %d", p->count, p->hit);
    if (p->axis == axis_c) {
        st->same_axis++;
        CHECK(memcmp(p->normal, nc, sizeof p->normal) == 0, "axis %d: normal differs from collide's", p->axis);
    }
    double nl = sqrt((double)p->normal[0] * p->normal[0] + (double)p->normal[1] * p->normal[1] +
                     (double)p->normal[2] * p->normal[2]);
    if (p->hit)
        CHECK(fabs(nl - 1) < 1e-5, "normal length %g", nl);
    st->edge_axis += p->hit && p->axis >= 6;
    /* rule 4: any two points more than dt apart (less the world placement's rounding), none
     * repeated. Where the rounding allowance reaches dt (coordinates ~1e4 times the extents, as
     * in the far-edge family's face manifolds) nothing keeps two points from rounding to the same
     * floats: neither check applies there. */
    double dt = (double)SATBOX_CONTACT_ABS_TOL * hsum;
    int close = 0;
    for (int k = 0; k < p->count; k++)
        for (int l = k + 1; l < p->count; l++) {
            double dl = 0;
            for (int c = 0; c < 3; c++)
                dl += ((double)p->point[k][c] - p->point[l][c]) * ((double)p->point[k][c] - p->point[l][c]);
            dl = sqrt(dl);
            if (dt <= tol)
                continue;
            int same = memcmp(p->point[k], p->point[l], sizeof p->point[k]) == 0;
            st->f_ident += (size_t)same;
            st->f_close += dl < dt - tol;
            CHECK(!same,
                  "points %d and %d identical (%.9g %.9g %.9g), depths %.9g %.9g, features %08x %08x", k, l,
                  p->point[k][0], p->point[k][1], p->point[k][2], p->depth[k], p->depth[l], p->feature[k],
                  p->feature[l]);
            CHECK(dl >= dt - tol, "points %d and %d %.3g apart, dt %.3g (features %08x %08x)", k, l, dl, dt,
                  p->feature[k], p->feature[l]);
            close |= dl < dt - tol;
        }
    st->close += (size_t)close;
    float neg[3] = {-p->normal[0], -p->normal[1], -p->normal[2]};
    double supa = tc_support(A, p->normal), supb = tc_support(B, neg);
    for (int k = 0; k < p->count; k++) {
        st->points++;
        const float *x = p->point[k];
        uint32_t f = p->feature[k];
        unsigned ref = f & 0xFF, cand = f >> 16 & 0xFF;
        double pn = (double)x[0] * p->normal[0] + (double)x[1] * p->normal[1] + (double)x[2] * p->normal[2];
        double want, slack = tol, in_q, in_p;
        double dslack = tol;
        if (cand == SATBOX_FEATURE_EDGE) {
            want = supa + supb;
            double mid[3], gapd, len2;
            int clamped;
            edge_midpoint(A, B, p->axis, p->normal, mid, &gapd, &len2, &clamped);
            st->clamped += (size_t)clamped;
            /* rule 5's bound: the final rounding into the world + the pair's size over |L|^2 */
            double mtol = 4 * 0x1p-24 * maxc + 4e-6 * (dinf + hmax) / len2;
            double md = 0;
            for (int c = 0; c < 3; c++)
                md += (mid[c] - x[c]) * (mid[c] - x[c]);
            md = sqrt(md);
            st->worst_mid = fmax(st->worst_mid, md / mtol);
            st->f_mid += md > mtol;
            st->f_edge_out += tc_outside(A, x) > mtol + 0.5 * gapd;
            st->f_edge_out += tc_outside(B, x) > mtol + 0.5 * gapd;
            CHECK(md <= mtol,
                  "edge point %.3g off the midpoint of the closest edge points (bound %.3g, |L|^2 %.3g, %s, "
                  "gap %.3g)",
                  md, mtol, len2, clamped ? "clamped" : "inside", gapd);
            slack = mtol + 0.5 * gapd;
            /* the depth is the SAT gap, within SATBOX_BOUND_REL * S of the exact one (S = |d|_1 +
             * the six extents), divided by the axis length |uA_i x uB_j| */
            double hs = 0;
            for (int c = 0; c < 3; c++)
                hs += A->half[c] + B->half[c] + fabs((double)B->center[c] - A->center[c]);
            dslack += 2 * SATBOX_BOUND_REL * hs / sqrt(len2);
            in_q = tc_outside(B, x);
            in_p = tc_outside(A, x);
        } else {
            int ref_a = ref < 6;
            want = ref_a ? supa - pn : pn + supb;
            in_q = tc_outside(ref_a ? B : A, x);
            /* incident corners count as inside up to ct outside a side plane (rule 3) */
            in_p = side_excess(ref_a ? A : B, ref % 6 / 2, x) - SATBOX_CONTACT_ABS_TOL * hsum;
            if (cand < SATBOX_FEATURE_FALLBACK)
                CHECK(p->depth[k] >= -margin - tol, "depth %g below -margin", p->depth[k]);
            if (cand >= SATBOX_FEATURE_FALLBACK) {
                in_p = 0; /* an unclipped corner: no bound on its distance to the side slabs */
                if (getenv("TC_DEBUG") && st->fallback < 3) {
                    printf("fallback: margin %g axis %d collide axis %d depth %g\n", margin, p->axis, axis_c, p->depth[k]);
                    for (int q = 0; q < 2; q++) {
                        const satbox_box *X = q ? B : A;
                        printf("  c %g %g %g h %g %g %g u0 %g %g %g u1 %g %g %g\n", X->center[0], X->center[1],
                               X->center[2], X->half[0], X->half[1], X->half[2], X->axis[0][0], X->axis[0][1],
                               X->axis[0][2], X->axis[1][0], X->axis[1][1], X->axis[1][2]);
                    }
                }
                st->fallback++;
                slack += fabs(p->depth[k]) + fmax(margin, 0);
            }
        }
        double dd = fabs(p->depth[k] - want);
        st->worst_in_q = fmax(st->worst_in_q, in_q / s);
        st->worst_in_p = fmax(st->worst_in_p, in_p / s);
        st->worst_depth = fmax(st->worst_depth, (dd - (dslack - tol)) / s);
        CHECK(in_q <= slack, "point %d outside box Q by %g (tol %g) feature %08x", k, in_q, slack, f);
        CHECK(in_p <= slack, "point %d outside box P by %g (tol %g) feature %08x", k, in_p, slack, f);
        CHECK(dd <= dslack, "depth %d = %.9g, penetration along n %.9g (feature %08x)", k, p->depth[k], want, f);
    }
    for (int k = p->count; k < 4; k++)
        CHECK(p->feature[k] == SATBOX_FEATURE_NONE && p->depth[k] == 0, "slot %d not cleared", k);
}

/* One pair through satbox_contacts() and satbox_collide(), then check_pair's invariants. */
static void check_one(const satbox_box *a, const satbox_box *b, float margin, tc_pair *p, stats *st)
{
    run_one(a, b, margin, p);
    tb_soa sa, sb;
    tb_soa_alloc(&sa, 1);
    tb_soa_alloc(&sb, 1);
    tb_soa_set(&sa, 0, a);
    tb_soa_set(&sb, 0, b);
    uint8_t hit_c, axis_c;
    float nc[3];
    satbox_result res = {.hit = &hit_c, .normal = {&nc[0], &nc[1], &nc[2]}, .axis = &axis_c};
    satbox_collide(&sa.view, &sb.view, 1, margin, &res);
    check_pair(a, b, margin, p, hit_c, nc, axis_c, st);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
}

/* Issue 24's two reported pairs (hex floats as reported: center, half extents, axes row by row). */
static void test_issue24(void)
{
    stats st = {0};
    tc_pair p;
    /* A stick (two zero extents) through a plate (one): count 2 with p0 == p1, depth included. */
    const satbox_box za = {{0x1.9787bap+3f, 0x1.4b2f36p+3f, 0x1.505decp+3f},
                           {0, 0, 0x1.57cab6p-1f},
                           {{0x1.45c092p-1f, -0x1.6e848p-1f, 0x1.26947ep-2f},
                            {-0x1.12d02p-3f, -0x1.e12756p-2f, -0x1.beb4dap-1f},
                            {0x1.84fc2cp-1f, 0x1.087228p-1f, -0x1.947d62p-2f}}};
    const satbox_box zb = {{0x1.98b81p+3f, 0x1.4ac3b8p+3f, 0x1.56d894p+3f},
                           {0x1.0dec9cp-2f, 0x1.58e93ap-2f, 0},
                           {{0x1.39fbb6p-2f, -0x1.c06c58p-3f, 0x1.da448cp-1f},
                            {0x1.e2d2a6p-1f, 0x1.9dc5fep-3f, -0x1.0ebe6ep-2f},
                            {-0x1.08b7bcp-3f, 0x1.e8bfcap-1f, 0x1.12defcp-2f}}};
    int before = failures;
    check_one(&za, &zb, 0.0f, &p, &st);
    CHECK(p.hit == 1 && p.count >= 1, "issue 24 zero extents: hit %d count %d", p.hit, p.count);
    CHECK(all_distinct(&p), "issue 24 zero extents: repeated point (count %d)", p.count);
    printf("issue 24, zero extents: count %d, %d failures\n", p.count, failures - before);

    /* Speculative crossing edges 0.0187 apart, the line closest point beyond the end of A's
     * edge: the point must be the midpoint of the segments' closest points, between the boxes. */
    const satbox_box sa = {{0x1.8d7d04p+4f, -0x1.e335eep+4f, -0x1.494fcp+5f},
                           {0x1.693938p-1f, 0x1.989f8ep-2f, 0x1.64dc5ep-2f},
                           {{-0x1.8e1f4cp-3f, 0x1.0aa91ep-2f, -0x1.e4362p-1f},
                            {0x1.22f132p-3f, 0x1.ec4034p-1f, 0x1.e25f4cp-3f},
                            {0x1.f0f016p-1f, -0x1.6ac2bep-4f, -0x1.ca87b4p-3f}}};
    const satbox_box sb = {{0x1.930c68p+4f, -0x1.f58bfep+4f, -0x1.54323cp+5f},
                           {0x1.c8944p-1f, 0x1.a26498p-2f, 0x1.edc8eap-1f},
                           {{0x1.2f6714p-1f, -0x1.cd6372p-3f, 0x1.8bf644p-1f},
                            {0x1.99a30cp-1f, 0x1.b43fe6p-5f, -0x1.31f03p-1f},
                            {0x1.7eb3dp-4f, 0x1.f2178cp-1f, 0x1.b1c5c8p-3f}}};
    before = failures;
    check_one(&sa, &sb, SPEC_MARGIN, &p, &st);
    CHECK(p.hit == 1 && p.count == 1 && p.axis == 6, "issue 24 speculative edge: hit %d count %d axis %d", p.hit,
          p.count, p.axis);
    if (p.count == 1 && p.axis == 6) {
        double mid[3], gap, len2;
        int clamped;
        edge_midpoint(&sa, &sb, p.axis, p.normal, mid, &gap, &len2, &clamped);
        double out_a = tc_outside(&sa, p.point[0]), out_b = tc_outside(&sb, p.point[0]);
        /* the SAT gap along axis 6 is 0.0187 (-depth); the segments' closest points are farther
         * apart (0.0241: A's edge ends before the lines' closest point) */
        CHECK(clamped && p.depth[0] < -0.0186f && p.depth[0] > -0.0188f && gap > 0.024 && gap < 0.0242,
              "issue 24 speculative edge: depth %.4g, closest edge points %.4g apart (%s)", p.depth[0], gap,
              clamped ? "clamped" : "not clamped");
        CHECK(out_a <= 0.5 * gap + 1e-5 && out_b <= 0.5 * gap + 1e-5,
              "issue 24 speculative edge: point %.4g outside A, %.4g outside B, closest edge points %.4g apart",
              out_a, out_b, gap);
        printf("issue 24, speculative edge: depth %.4f, closest edge points %.4f apart, point %.4f outside A, %.4f "
               "outside B, %d failures\n",
               p.depth[0], gap, out_a, out_b, failures - before);
    }
}

static void test_invariants(uint64_t seed, size_t total)
{
    enum { B = 4096 };
    /* tb_family's and the edge-edge family: total / 7 pairs each; issue 24's three: total / 10 */
    int fams[] = {TB_UNIFORM, TB_STACKED, TB_TOUCHING, FAM_EDGE, TB_FLAT, TB_SCALES, TB_PARALLEL,
                  FAM_ZERO,   FAM_SPEC_EDGE, FAM_FAR_EDGE};
    int nf = (int)(sizeof fams / sizeof fams[0]);
    tb_soa sa, sb;
    tb_soa_alloc(&sa, B);
    tb_soa_alloc(&sb, B);
    tc_out o;
    tc_alloc(&o, B);
    uint8_t hit_c[B], axis_c[B];
    float nc[3][B];
    satbox_box as[B], bs[B];
    satbox_result res = {.hit = hit_c, .normal = {nc[0], nc[1], nc[2]}, .axis = axis_c};
    printf("invariants, seed %llu (close: manifolds with two points closer than dt; mid/tol: an edge point's worst "
           "distance from the true midpoint over its bound):\n",
           (unsigned long long)seed);
    printf("  %-10s %8s %7s %8s %6s %6s %6s %6s %6s %11s %11s %11s %9s %6s\n", "family", "pairs", "hits", "points",
           "same", "edge", "clamp", "fallbk", "close", "out-of-Q/s", "out-of-P/s", "depth err/s", "mid/tol", "fails");
    for (int fi = 0; fi < nf; fi++) {
        tb_rng r;
        tb_seed(&r, seed + 1000u * (uint64_t)fi);
        stats st = {0};
        int before = failures;
        size_t per = fams[fi] < FAM_ZERO ? total / 7 : total / 10;
        for (size_t done = 0; done < per; done += B) {
            size_t n = per - done < B ? per - done : B;
            float margin = (done / B) % 3 == 0 ? 0.0f : (done / B) % 3 == 1 ? 1e-3f : 2e-2f;
            if (fams[fi] == FAM_SPEC_EDGE)
                margin = SPEC_MARGIN;
            for (size_t i = 0; i < n; i++) {
                make_pair_of(&r, fams[fi], &as[i], &bs[i]);
                tb_soa_set(&sa, i, &as[i]);
                tb_soa_set(&sb, i, &bs[i]);
            }
            satbox_collide(&sa.view, &sb.view, n, margin, &res);
            ptrdiff_t hits = satbox_contacts(&sa.view, &sb.view, n, margin, &o.view);
            ptrdiff_t want = 0;
            for (size_t i = 0; i < n; i++) {
                tc_pair p;
                tc_get(&o, i, &p);
                float ni[3] = {nc[0][i], nc[1][i], nc[2][i]};
                check_pair(&as[i], &bs[i], margin, &p, hit_c[i], ni, axis_c[i], &st);
                want += hit_c[i];
            }
            CHECK(hits == want, "%s: returned %td hits, collide %td", fam_name(fams[fi]), hits, want);
        }
        printf("  %-10s %8zu %7zu %8zu %6zu %6zu %6zu %6zu %6zu %11.2e %11.2e %11.2e %9.2e %6d\n", fam_name(fams[fi]),
               st.pairs, st.hits, st.points, st.same_axis, st.edge_axis, st.clamped, st.fallback, st.close,
               st.worst_in_q, st.worst_in_p, st.worst_depth, st.worst_mid, failures - before);
        if (failures > before)
            printf("  %-10s failed: %zu repeated points, %zu pairs of points closer than dt, %zu edge points off "
                   "the midpoint, %zu edge points outside a box by more than gap/2; %zu other\n",
                   "", st.f_ident, st.f_close, st.f_mid, st.f_edge_out,
                   (size_t)(failures - before) - st.f_ident - st.f_close - st.f_mid - st.f_edge_out);
    }
    tc_free(&o);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
}

/* ---- coherence ------------------------------------------------------------------------------ */

/* 1 if a corner of b lies within tol of one of the 4 side planes of a's faces normal to axis k. */
static int near_side_plane(const satbox_box *a, const satbox_box *b, int k, double tol)
{
    for (int q = 0; q < 8; q++) {
        double p[3], l[3];
        for (int c = 0; c < 3; c++) {
            p[c] = b->center[c];
            for (int j = 0; j < 3; j++)
                p[c] += ((q >> j & 1) ? 1 : -1) * (double)b->half[j] * b->axis[j][c];
        }
        tc_local(a, p, l);
        for (int side = 1; side < 3; side++) {
            int m = (k + side) % 3;
            if (fabs(fabs(l[m]) - a->half[m]) < tol)
                return 1;
        }
    }
    return 0;
}

/* Resting boxes (like the stacked family, sunk a little, and the hand-made turned cube) perturbed by 1e-5 of their
 * size in position and angle: the same count and feature ids, points moving by O(1e-5). */
static void test_coherence(uint64_t seed)
{
    tb_rng r;
    tb_seed(&r, seed ^ 0xC0FFEEu);
    size_t configs = 0, changed = 0, skipped = 0;
    double worst_move = 0;
    for (int it = 0; it < 2000; it++) {
        satbox_box a, b;
        if (it == 0) {
            a = box_aligned(0, 0, 0, 0.5f, 0.5f, 0.5f);
            b = cube_turned(0.1f, 0.05f, 0.99f, 0.5f, 0, 0, 1, M_PI / 4);
        } else {
            /* B resting on a face of A, tilted by <= 1e-4 rad, sunk by 2e-3..1e-2 of its size, so
             * that no candidate sits on the keep threshold and the face gaps of A and B differ by
             * less than the hysteresis (decision thresholds are not stable states) */
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            for (int k = 0; k < 3; k++) {
                a.half[k] = (float)tb_range(&r, 0.2, 1.5);
                b.half[k] = (float)tb_range(&r, 0.2, 1.5);
            }
            tb_random_rotation(&r, a.axis);
            memcpy(b.axis, a.axis, sizeof b.axis);
            double ax = tb_normal(&r), ay = tb_normal(&r), az = tb_normal(&r);
            tb_rotate(b.axis, ax, ay, az, tb_range(&r, 0, 1e-4));
            int k = (int)(tb_next(&r) % 3);
            double rb = 0, hb = fmax(fmax(b.half[0], b.half[1]), b.half[2]);
            for (int j = 0; j < 3; j++) {
                double dj = 0;
                for (int c = 0; c < 3; c++)
                    dj += (double)a.axis[k][c] * b.axis[j][c];
                rb += b.half[j] * fabs(dj);
            }
            double dist = a.half[k] + rb - tb_range(&r, 2e-3, 1e-2) * hb;
            double off1 = tb_range(&r, -0.5, 0.5) * a.half[(k + 1) % 3];
            double off2 = tb_range(&r, -0.5, 0.5) * a.half[(k + 2) % 3];
            for (int c = 0; c < 3; c++)
                b.center[c] = (float)(dist * a.axis[k][c] + off1 * a.axis[(k + 1) % 3][c] +
                                      off2 * a.axis[(k + 2) % 3][c]);
            /* Not a stable configuration: an edge of B within 2e-3 of the size of a side plane
             * of A's face (then clipped points jump along the nearly coincident edges). */
            if (near_side_plane(&a, &b, k, 2e-3 * hb)) {
                skipped++;
                continue;
            }
        }
        double size = fmax(fmax(b.half[0], b.half[1]), b.half[2]);
        tc_pair p0;
        run_one(&a, &b, 0.0f, &p0);
        if (p0.count == 0)
            continue;
        configs++;
        for (int rep = 0; rep < 8; rep++) {
            satbox_box b2 = b;
            for (int c = 0; c < 3; c++)
                b2.center[c] = (float)(b.center[c] + tb_range(&r, -1e-5, 1e-5) * size);
            tb_rotate(b2.axis, tb_normal(&r), tb_normal(&r), tb_normal(&r), 1e-5);
            tc_pair p1;
            run_one(&a, &b2, 0.0f, &p1);
            int same = p1.count == p0.count && p1.axis == p0.axis;
            if (!same && getenv("TC_DEBUG")) {
                printf("changed (%s): count %d axis %d:", it == 0 ? "turned cube" : "stacked", p0.count, p0.axis);
                for (int l = 0; l < p0.count; l++)
                    printf(" %08x(%g)", p0.feature[l], p0.depth[l]);
                for (int q = 0; q < 2; q++) {
                    const satbox_box *X = q ? &b : &a;
                    printf("\n  %c c %.9g %.9g %.9g h %.9g %.9g %.9g u %.9g %.9g %.9g | %.9g %.9g %.9g | %.9g %.9g %.9g",
                           'A' + q, X->center[0], X->center[1], X->center[2], X->half[0], X->half[1], X->half[2],
                           X->axis[0][0], X->axis[0][1], X->axis[0][2], X->axis[1][0], X->axis[1][1], X->axis[1][2],
                           X->axis[2][0], X->axis[2][1], X->axis[2][2]);
                }
                printf("\n  -> count %d axis %d:", p1.count, p1.axis);
                for (int l = 0; l < p1.count; l++)
                    printf(" %08x(%g)", p1.feature[l], p1.depth[l]);
                printf("\n");
            }
            for (int k = 0; same && k < p0.count; k++) {
                int found = -1;
                for (int l = 0; l < p1.count; l++)
                    if (p1.feature[l] == p0.feature[k])
                        found = l;
                if (found < 0) {
                    if (getenv("TC_DEBUG")) {
                        printf("changed: count %d axis %d ->", p0.count, p0.axis);
                        for (int l = 0; l < p0.count; l++)
                            printf(" %08x(%g)", p0.feature[l], p0.depth[l]);
                        printf("\n  now count %d axis %d ->", p1.count, p1.axis);
                        for (int l = 0; l < p1.count; l++)
                            printf(" %08x(%g)", p1.feature[l], p1.depth[l]);
                        printf("\n");
                    }
                    same = 0;
                    break;
                }
                for (int c = 0; c < 3; c++) {
                    double mv = fabs((double)p1.point[found][c] - p0.point[k][c]) / size;
                    worst_move = fmax(worst_move, mv);
                    CHECK(mv <= 1e-4, "coherence: point moved by %g of the size", mv);
                }
            }
            changed += !same;
        }
    }
    printf("coherence: %zu resting configurations x 8 perturbations (%zu with coincident edges skipped), %zu changed "
           "ids, largest move %.2e of the size\n",
           configs, skipped, changed, worst_move);
    CHECK(configs > 900, "too few resting configurations: %zu", configs);
    CHECK(changed == 0, "coherence: %zu perturbations changed the feature ids", changed);
}

int main(int argc, char **argv)
{
    tb_require_isa(); /* exit 77 when SATBOX_ISA names a path this machine lacks */
    uint64_t seed = 20261123;
    size_t pairs = test_short() ? 210000 : 1050000; /* short: sanitizer, qemu and valgrind stages (scale.h) */
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--pairs"))
            pairs = strtoull(argv[++i], NULL, 10);
    }
    printf("path: %s\n", satbox_isa_name(satbox_isa_active()));
    test_resting();
    test_turned45();
    test_edge_on_face();
    test_corner_on_face();
    test_crossing_edges();
    test_inside();
    test_speculative();
    test_issue24();
    printf("hand-made cases: %d failures\n", failures);
    test_bad_input();
    printf("bad arguments and bad data: %d failures so far\n", failures);
    test_engine_forms();
    printf("engine forms (quaternion records, stream): %d failures so far\n", failures);
    test_invariants(seed, pairs);
    test_coherence(seed);
    printf("%s: %d failures\n", failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

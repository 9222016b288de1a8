/* test_badinput2d.c - satbox2d on bad data (every kind, per pair: never an overlap, the batch unaffected) and bad arguments. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "scale.h"
#include "support2d.h"

static int failures = 0;

#define N 37
#define BADI 13 /* the pair that gets the bad data */

/* Every entry point on one batch: hit and bad bytes and all collide outputs, flattened. */
typedef struct run {
    ptrdiff_t counts[6];
    uint8_t hit[6][N], bad[6][N], axis[3][N];
    float sep[3][N], nrm[3][2][N];
} run;

static void run_all(const tb2_rects *ra, const tb2_rects *rb, const tb2_polys *pa, const tb2_polys *pb, run *o)
{
    memset(o, 0xA5, sizeof *o);
    o->counts[0] = satbox2d_overlap(&ra->view, &rb->view, N, o->hit[0], o->bad[0]);
    o->counts[1] = satbox2d_poly_overlap(&pa->view, &pb->view, N, o->hit[1], o->bad[1]);
    o->counts[2] = satbox2d_rect_poly_overlap(&ra->view, &pb->view, N, o->hit[2], o->bad[2]);
    satbox2d_result r0 = {o->hit[3], o->sep[0], {o->nrm[0][0], o->nrm[0][1]}, o->axis[0], o->bad[3]};
    satbox2d_result r1 = {o->hit[4], o->sep[1], {o->nrm[1][0], o->nrm[1][1]}, o->axis[1], o->bad[4]};
    satbox2d_result r2 = {o->hit[5], o->sep[2], {o->nrm[2][0], o->nrm[2][1]}, o->axis[2], o->bad[5]};
    o->counts[3] = satbox2d_collide(&ra->view, &rb->view, N, 0.0f, &r0);
    o->counts[4] = satbox2d_poly_collide(&pa->view, &pb->view, N, 0.0f, &r1);
    o->counts[5] = satbox2d_rect_poly_collide(&ra->view, &pb->view, N, 0.0f, &r2);
}

/* The run with pair BADI bad on the rectangle (e = 0) or the polygon (e = 1) side against the clean run. */
static void compare(const char *what, const run *clean, const run *got, int rect_bad)
{
    /* entry points that see the bad shape: rect: 0, 2, 3, 5; poly (on B): 1, 2, 4, 5 */
    for (int e = 0; e < 6; e++) {
        int sees = rect_bad ? (e == 0 || e == 2 || e == 3 || e == 5) : (e == 1 || e == 2 || e == 4 || e == 5);
        int col = e >= 3, kind = e % 3;
        for (int i = 0; i < N; i++) {
            if (sees && i == BADI) {
                CHECK(got->hit[e][i] == 0 && got->bad[e][i] == 1, "%s: entry %d: hit %u bad %u", what, e, got->hit[e][i],
                      got->bad[e][i]);
                if (col)
                    CHECK(isnan(got->sep[kind][i]) && got->nrm[kind][0][i] == 0 && got->nrm[kind][1][i] == 0 &&
                              got->axis[kind][i] == SATBOX_AXIS_INVALID,
                          "%s: entry %d: separation %g axis %u", what, e, got->sep[kind][i], got->axis[kind][i]);
                continue;
            }
            CHECK(got->hit[e][i] == clean->hit[e][i] && got->bad[e][i] == clean->bad[e][i], "%s: entry %d pair %d changed",
                  what, e, i);
            if (col)
                CHECK(memcmp(&got->sep[kind][i], &clean->sep[kind][i], 4) == 0 && got->axis[kind][i] == clean->axis[kind][i] &&
                          memcmp(&got->nrm[kind][0][i], &clean->nrm[kind][0][i], 4) == 0 &&
                          memcmp(&got->nrm[kind][1][i], &clean->nrm[kind][1][i], 4) == 0,
                      "%s: entry %d pair %d collide outputs changed", what, e, i);
        }
        ptrdiff_t want = clean->counts[e] - (sees ? clean->hit[e][BADI] : 0);
        CHECK(got->counts[e] == want, "%s: entry %d: count %td, want %td", what, e, got->counts[e], want);
    }
}

static void bad_data(void)
{
    tb2_rects ra, rb;
    tb2_polys pa, pb;
    tb2_rects_alloc(&ra, N);
    tb2_rects_alloc(&rb, N);
    tb2_polys_alloc(&pa, N);
    tb2_polys_alloc(&pb, N);
    tb_rng r;
    tb_seed(&r, 5);
    tb_rect keep_r;
    tb_poly keep_p;
    for (int i = 0; i < N; i++) {
        tb_rect a, b;
        tb_poly p, q;
        tb2_rect_pair(&r, TB2_UNIFORM, &a, &b);
        tb2_poly_pair(&r, TB2_UNIFORM, 0, 0, &p, &q);
        if (i == BADI) { /* an overlapping pair, so that bad data visibly turns a 1 into a 0 */
            b = a;
            tb2_rect_as_poly(&a, &q);
            keep_r = a;
            keep_p = q;
        }
        tb2_rects_set(&ra, i, &a);
        tb2_rects_set(&rb, i, &b);
        tb2_polys_set(&pa, i, &p);
        tb2_polys_set(&pb, i, &q);
    }
    run clean, got;
    run_all(&ra, &rb, &pa, &pb, &clean);
    CHECK(clean.hit[0][BADI] == 1 && clean.hit[1][BADI] <= 1 && clean.hit[2][BADI] == 1, "the clean pair overlaps");

    /* Rectangles: the rule of satbox2d.h, one field at a time (A side: every entry with rects). */
    struct {
        const char *name;
        int field; /* 0..5: cx cy h0 h1 cos sin */
        float value;
    } rbad[] = {{"NaN center", 0, NAN},         {"inf center", 1, INFINITY},   {"negative half", 2, -1e-30f},
                {"inf half", 3, INFINITY},      {"NaN half", 2, NAN},          {"NaN axis", 4, NAN},
                {"not unit axis", 4, 1.001f},   {"zero axis", 5, 0.0f},        {"huge center", 0, 2e15f}};
    for (size_t t = 0; t < sizeof rbad / sizeof rbad[0]; t++) {
        tb_rect q = keep_r;
        float *f[6] = {&q.c[0], &q.c[1], &q.h[0], &q.h[1], &q.u[0], &q.u[1]};
        *f[rbad[t].field] = rbad[t].value;
        if (rbad[t].field == 5)
            q.u[0] = 0.0f; /* zero axis: both components */
        tb2_rects_set(&ra, BADI, &q);
        run_all(&ra, &rb, &pa, &pb, &got);
        compare(rbad[t].name, &clean, &got, 1);
    }
    tb2_rects_set(&ra, BADI, &keep_r);
    /* -0.0 is a zero extent (valid), not a negative one. */
    {
        tb_rect q = keep_r;
        q.h[1] = -0.0f;
        tb2_rects_set(&ra, BADI, &q);
        run_all(&ra, &rb, &pa, &pb, &got);
        CHECK(got.bad[0][BADI] == 0 && got.bad[3][BADI] == 0, "-0.0 half extent reported bad");
        tb2_rects_set(&ra, BADI, &keep_r);
    }

    /* Polygons (B side of poly and rect-poly). */
    for (int t = 0; t < 12; t++) {
        tb_poly q = keep_p;
        const char *name = "?";
        switch (t) {
        case 0: q.n = 0, name = "0 vertices"; break;
        case 1: q.n = 2, name = "2 vertices"; break;
        case 2: q.n = 9, name = "9 vertices"; break;
        case 3: q.n = 255, name = "255 vertices"; break;
        case 4: q.x[1] = NAN, name = "NaN vertex"; break;
        case 5: q.y[3] = -INFINITY, name = "inf vertex"; break;
        case 6: /* clockwise: reverse */
            for (int k = 0; k < 4; k++)
                q.x[k] = keep_p.x[3 - k], q.y[k] = keep_p.y[3 - k];
            name = "clockwise";
            break;
        case 7: /* reflex: vertex 2 pulled inside past the diagonal 1-3 */
            q.x[2] = (keep_p.x[0] + keep_p.x[2]) / 2 * 0.9f + keep_p.x[0] * 0.1f;
            q.y[2] = (keep_p.y[0] + keep_p.y[2]) / 2 * 0.9f + keep_p.y[0] * 0.1f;
            name = "reflex vertex";
            break;
        case 8: { /* pentagram: every turn is left, it goes round twice */
            static const int order[5] = {0, 2, 4, 1, 3};
            q.n = 5;
            for (int k = 0; k < 5; k++) {
                double ang = 6.283185307179586 * order[k] / 5;
                q.x[k] = (float)(keep_p.x[0] + cos(ang));
                q.y[k] = (float)(keep_p.y[0] + sin(ang));
            }
            name = "pentagram";
            break;
        }
        case 9:
            for (int k = 1; k < 4; k++)
                q.x[k] = q.x[0], q.y[k] = q.y[0];
            name = "all vertices equal";
            break;
        case 10: q.x[0] = 2e15f, name = "huge vertex"; break;
        default: /* a bow tie: vertices 0 1 3 2 of a square */
            q.x[2] = keep_p.x[3], q.y[2] = keep_p.y[3], q.x[3] = keep_p.x[2], q.y[3] = keep_p.y[2];
            name = "bow tie";
            break;
        }
        tb2_polys_set(&pb, BADI, &q);
        run_all(&ra, &rb, &pa, &pb, &got);
        compare(name, &clean, &got, 0);
    }
    /* Garbage in the unused slots is not bad data. */
    {
        tb_poly q = keep_p;
        for (int k = q.n; k < SATBOX2D_MAX_VERTS; k++)
            q.x[k] = NAN, q.y[k] = -INFINITY;
        tb2_polys_set(&pb, BADI, &q);
        run_all(&ra, &rb, &pa, &pb, &got);
        CHECK(memcmp(&got, &clean, sizeof got) == 0, "NaN in unused slots changed the outputs");
    }
    tb2_rects_free(&ra);
    tb2_rects_free(&rb);
    tb2_polys_free(&pa);
    tb2_polys_free(&pb);
}

/* ---- the turn tests accept convex polygons only ------------------------------------------ */

/* Convex and counter-clockwise, going round once, in long double: every vertex left of (or within
 * a relative 1e-5 of) every edge line, and the edge directions turning by 2 pi in total. */
static int convex_ld(const tb_poly *p)
{
    int n = p->n;
    long double turn = 0;
    for (int k = 0; k < n; k++) {
        long double ax = p->x[k], ay = p->y[k], bx = p->x[(k + 1) % n], by = p->y[(k + 1) % n];
        long double ex = bx - ax, ey = by - ay, len = hypotl(ex, ey);
        for (int j = 0; j < n; j++) {
            long double d = ex * (p->y[j] - ay) - ey * (p->x[j] - ax);
            long double reach = hypotl(p->x[j] - ax, p->y[j] - ay);
            if (d < -1e-5L * len * reach)
                return 0;
        }
        long double fx = (long double)p->x[(k + 2) % n] - bx, fy = (long double)p->y[(k + 2) % n] - by;
        if (len > 0 && hypotl(fx, fy) > 0)
            turn += atan2l(ex * fy - ey * fx, ex * fx + ey * fy);
    }
    return fabsl(turn - 6.283185307179586L) < 1e-3L;
}

static void turn_tests(void)
{
    enum { M = 4096 };
    tb2_polys pa;
    tb2_polys_alloc(&pa, M);
    static tb_poly polys[M];
    static uint8_t hit[M], bad[M];
    tb_rng r;
    tb_seed(&r, 11);
    long long accepted = 0, wrong = 0, total = 0;
    int rounds = test_short() ? 5 : 50; /* scale.h */
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < M; i++) {
            tb_poly *p = &polys[i];
            int n = 3 + (int)(tb_next(&r) % 6);
            tb2_random_poly(&r, n, 0, 0, 1, p);
            switch (tb_next(&r) % 5) {
            case 0: break; /* convex */
            case 1: { /* two vertices swapped */
                int a = (int)(tb_next(&r) % (uint64_t)n), b = (int)(tb_next(&r) % (uint64_t)n);
                float x = p->x[a], y = p->y[a];
                p->x[a] = p->x[b], p->y[a] = p->y[b], p->x[b] = x, p->y[b] = y;
                break;
            }
            case 2: /* every vertex in random order (stars, bow ties, ...) */
                for (int k = n - 1; k > 0; k--) {
                    int j = (int)(tb_next(&r) % (uint64_t)(k + 1));
                    float x = p->x[k], y = p->y[k];
                    p->x[k] = p->x[j], p->y[k] = p->y[j], p->x[j] = x, p->y[j] = y;
                }
                break;
            case 3: { /* one vertex moved anywhere */
                int a = (int)(tb_next(&r) % (uint64_t)n);
                p->x[a] = (float)tb_range(&r, -1.5, 1.5);
                p->y[a] = (float)tb_range(&r, -1.5, 1.5);
                break;
            }
            default: { /* a star: every second (or third) vertex */
                tb_poly q = *p;
                int step = n % 2 ? 2 : n % 3 ? 3 : 1;
                for (int k = 0, m = 0; k < n; k++, m = (m + step) % n)
                    p->x[k] = q.x[m], p->y[k] = q.y[m];
                break;
            }
            }
            tb2_polys_set(&pa, (size_t)i, p);
        }
        satbox2d_poly_overlap(&pa.view, &pa.view, M, hit, bad);
        for (int i = 0; i < M; i++) {
            total++;
            if (!bad[i]) {
                accepted++;
                wrong += !convex_ld(&polys[i]);
            }
        }
    }
    printf("turn tests: %lld random polygons, %lld accepted, %lld of those not convex\n", total, accepted, wrong);
    CHECK(wrong == 0, "%lld non-convex polygons accepted", wrong);
    CHECK(accepted > total / 4 && accepted < total, "accepted %lld of %lld", accepted, total);
    tb2_polys_free(&pa);
}

/* ---- bad arguments: an error code and nothing written ------------------------------------- */

static void bad_args(void)
{
    tb2_rects ra;
    tb2_polys pa;
    tb2_rects_alloc(&ra, 4);
    tb2_polys_alloc(&pa, 4);
    tb_rng r;
    tb_seed(&r, 9);
    for (int i = 0; i < 4; i++) {
        tb_rect a, b;
        tb_poly p, q;
        tb2_rect_pair(&r, TB2_UNIFORM, &a, &b);
        tb2_poly_pair(&r, TB2_UNIFORM, 0, 0, &p, &q);
        tb2_rects_set(&ra, i, &a);
        tb2_polys_set(&pa, i, &p);
    }
    uint8_t hit[8], bad[8];
    uint32_t list[8];
    float sep[8];
    memset(hit, 7, sizeof hit);
    memset(bad, 7, sizeof bad);
    satbox2d_result res = {hit, sep, {NULL, NULL}, NULL, bad};
    satbox2d_rects nr = ra.view;
    nr.axis[1] = NULL;
    satbox2d_polys np = pa.view;
    np.y[7] = NULL;
    satbox2d_polys nc = pa.view;
    nc.count = NULL;
    satbox_pair pairs[4] = {{0, 1}, {2, 3}, {3, 3}, {0, 4}}; /* the last is outside a pool of 4 */
    struct {
        const char *what;
        ptrdiff_t got, want;
    } c[] = {
        {"NULL a", satbox2d_overlap(NULL, &ra.view, 4, hit, bad), SATBOX_ERR_NULL},
        {"NULL array", satbox2d_overlap(&ra.view, &nr, 4, hit, bad), SATBOX_ERR_NULL},
        {"NULL hit", satbox2d_overlap(&ra.view, &ra.view, 4, NULL, bad), SATBOX_ERR_NULL},
        {"NULL vertex slot", satbox2d_poly_overlap(&pa.view, &np, 4, hit, bad), SATBOX_ERR_NULL},
        {"NULL count", satbox2d_poly_collide(&nc, &pa.view, 4, 0.0f, &res), SATBOX_ERR_NULL},
        {"NULL result", satbox2d_poly_collide(&pa.view, &pa.view, 4, 0.0f, NULL), SATBOX_ERR_NULL},
        {"NaN margin", satbox2d_collide(&ra.view, &ra.view, 4, NAN, &res), SATBOX_ERR_ARG},
        {"inf margin", satbox2d_rect_poly_collide(&ra.view, &pa.view, 4, INFINITY, &res), SATBOX_ERR_ARG},
        {"n too large", satbox2d_overlap(&ra.view, &ra.view, (size_t)SATBOX_MAX_COUNT + 1, hit, bad), SATBOX_ERR_COUNT},
        {"index outside pool", satbox2d_overlap_pairs(&ra.view, 4, pairs, 4, hit, list, bad), SATBOX_ERR_INDEX},
        {"index outside poly pool", satbox2d_poly_collide_pairs(&pa.view, 4, pairs, 4, 0.0f, &res, list), SATBOX_ERR_INDEX},
        {"empty pool", satbox2d_poly_overlap_pairs(&pa.view, 0, pairs, 1, hit, list, bad), SATBOX_ERR_INDEX},
        {"NULL pairs", satbox2d_collide_pairs(&ra.view, 4, NULL, 1, 0.0f, &res, list), SATBOX_ERR_NULL},
        {"output over input", satbox2d_overlap(&ra.view, &ra.view, 4, (uint8_t *)(void *)ra.f[2], bad), SATBOX_ERR_ALIAS},
        {"output over count", satbox2d_poly_overlap(&pa.view, &pa.view, 4, pa.count, bad), SATBOX_ERR_ALIAS},
        {"outputs overlap", satbox2d_overlap(&ra.view, &ra.view, 4, hit, hit + 2), SATBOX_ERR_ALIAS},
        {"n = 0 with NULLs", satbox2d_poly_overlap(NULL, NULL, 0, NULL, NULL), 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        CHECK(c[i].got == c[i].want, "%s: returned %td, want %td", c[i].what, c[i].got, c[i].want);
    for (int i = 0; i < 8; i++)
        CHECK(hit[i] == 7 && bad[i] == 7, "something was written on error (byte %d: %u %u)", i, hit[i], bad[i]);
    /* The pool forms may go without per-pair outputs; a == b and duplicates are fine. */
    pairs[3] = (satbox_pair){1, 1};
    CHECK(satbox2d_poly_overlap_pairs(&pa.view, 4, pairs, 4, NULL, list, NULL) >= 2, "pool without per-pair outputs");
    CHECK(satbox2d_collide_pairs(&ra.view, 4, pairs, 4, 0.0f, NULL, NULL) >= 2, "collide pool without outputs");
    tb2_rects_free(&ra);
    tb2_polys_free(&pa);
}

/* ---- the prepared forms: bad polygons and transforms per pair, bad arguments ------------------ */

/* Pool: A's at i, B's at N + i; pairs (i, N + i). Outputs of the four prepared pair functions. */
typedef struct prun {
    ptrdiff_t counts[4];
    uint8_t hit[4][N], bad[4][N], axis[2][N];
    float sep[2][N];
} prun;

static void prep_run(const tb2_polys *pool, const tb2_bodies *bodies_in, tb2_bodies *bodies, const float *xf_over,
                     const satbox_pair *pairs, prun *o)
{
    memset(o, 0xA5, sizeof *o);
    tb2_prepared prep;
    CHECK(tb2_prepared_make(&prep, &pool->view, 2 * N) == 0, "prepare");
    /* The bodies: the given transforms (xf_over: one pair's transform replaced), on the shapes prepared above. */
    satbox2d_bodies bv = bodies_in->view;
    bv.shape = prep.rec;
    (void)bodies;
    float *f[4];
    for (int q = 0; q < 4; q++) {
        f[q] = malloc(2 * N * sizeof(float));
        memcpy(f[q], bodies_in->f[q], 2 * N * sizeof(float));
        if (xf_over)
            f[q][N + BADI] = xf_over[q];
    }
    bv.position[0] = f[0], bv.position[1] = f[1], bv.rotation[0] = f[2], bv.rotation[1] = f[3];
    o->counts[0] = satbox2d_prep_overlap_pairs(prep.rec, 2 * N, pairs, N, o->hit[0], NULL, o->bad[0]);
    o->counts[1] = satbox2d_body_overlap_pairs(&bv, 2 * N, pairs, N, o->hit[1], NULL, o->bad[1]);
    satbox2d_result r0 = {o->hit[2], o->sep[0], {NULL, NULL}, o->axis[0], o->bad[2]};
    satbox2d_result r1 = {o->hit[3], o->sep[1], {NULL, NULL}, o->axis[1], o->bad[3]};
    o->counts[2] = satbox2d_prep_collide_pairs(prep.rec, 2 * N, pairs, N, 0.0f, &r0, NULL);
    o->counts[3] = satbox2d_body_collide_pairs(&bv, 2 * N, pairs, N, 0.0f, &r1, NULL);
    for (int q = 0; q < 4; q++)
        free(f[q]);
    tb2_prepared_free(&prep);
}

/* Pair BADI bad in the entries `sees` (bit e), the others unchanged. */
static void prep_compare(const char *what, const prun *clean, const prun *got, unsigned sees)
{
    for (int e = 0; e < 4; e++) {
        int col = e >= 2;
        for (int i = 0; i < N; i++) {
            if ((sees >> e & 1u) && i == BADI) {
                CHECK(got->hit[e][i] == 0 && got->bad[e][i] == 1, "prepared %s: entry %d: hit %u bad %u", what, e,
                      got->hit[e][i], got->bad[e][i]);
                if (col)
                    CHECK(isnan(got->sep[e - 2][i]) && got->axis[e - 2][i] == SATBOX_AXIS_INVALID,
                          "prepared %s: entry %d: separation %g axis %u", what, e, got->sep[e - 2][i], got->axis[e - 2][i]);
                continue;
            }
            CHECK(got->hit[e][i] == clean->hit[e][i] && got->bad[e][i] == clean->bad[e][i],
                  "prepared %s: entry %d pair %d changed", what, e, i);
            if (col)
                CHECK(memcmp(&got->sep[e - 2][i], &clean->sep[e - 2][i], 4) == 0 && got->axis[e - 2][i] == clean->axis[e - 2][i],
                      "prepared %s: entry %d pair %d collide outputs changed", what, e, i);
        }
        ptrdiff_t want = clean->counts[e] - ((sees >> e & 1u) ? clean->hit[e][BADI] : 0);
        CHECK(got->counts[e] == want, "prepared %s: entry %d: count %td, want %td", what, e, got->counts[e], want);
    }
}

static void bad_prepared(void)
{
    tb2_polys pool;
    tb2_polys_alloc(&pool, 2 * N);
    tb_poly polys[2 * N];
    tb_rng r;
    tb_seed(&r, 34);
    for (int i = 0; i < N; i++) {
        tb2_poly_pair(&r, TB2_UNIFORM, 0, 0, &polys[i], &polys[N + i]);
        if (i == BADI) /* an overlapping pair */
            polys[N + i] = polys[i];
    }
    for (int i = 0; i < 2 * N; i++)
        tb2_polys_set(&pool, i, &polys[i]);
    tb2_bodies bodies;
    CHECK(tb2_bodies_make(&bodies, &r, polys, 2 * N, 0) == 0, "bodies");
    /* The bodies' shapes are their local polygons: the pool the prepared runs use for bodies is the
     * bodies' own local pool (a bad polygon there is bad in both forms). */
    satbox_pair pairs[N];
    for (int i = 0; i < N; i++)
        pairs[i] = (satbox_pair){(uint32_t)i, (uint32_t)(N + i)};
    prun clean, got;
    prep_run(&bodies.local, &bodies, &bodies, NULL, pairs, &clean);
    CHECK(clean.hit[0][BADI] == 1 && clean.hit[1][BADI] == 1 && clean.bad[0][BADI] == 0, "the clean prepared pair overlaps");
    /* Bad polygons, prepared: every prepared entry sees them. */
    tb_poly keep;
    for (int k = 0; k < SATBOX2D_MAX_VERTS; k++)
        keep.x[k] = bodies.local.x[k][N + BADI], keep.y[k] = bodies.local.y[k][N + BADI];
    keep.n = bodies.local.count[N + BADI];
    for (int t = 0; t < 6; t++) {
        tb_poly q = keep;
        const char *name = "?";
        switch (t) {
        case 0: q.n = 2, name = "2 vertices"; break;
        case 1: q.n = 9, name = "9 vertices"; break;
        case 2: q.x[1] = NAN, name = "NaN vertex"; break;
        case 3: q.y[0] = INFINITY, name = "inf vertex"; break;
        case 4:
            for (int k = 0; k < q.n; k++)
                q.x[k] = keep.x[q.n - 1 - k], q.y[k] = keep.y[q.n - 1 - k];
            name = "clockwise";
            break;
        default: q.x[0] = 2e15f, name = "huge vertex"; break;
        }
        tb2_polys_set(&bodies.local, N + BADI, &q);
        prep_run(&bodies.local, &bodies, &bodies, NULL, pairs, &got);
        prep_compare(name, &clean, &got, 15u);
    }
    tb2_polys_set(&bodies.local, N + BADI, &keep);
    /* Bad transforms: only the body entries see them. */
    float xf0[4] = {bodies.f[0][N + BADI], bodies.f[1][N + BADI], bodies.f[2][N + BADI], bodies.f[3][N + BADI]};
    struct {
        const char *name;
        int field;
        float value;
    } xb[] = {{"NaN position", 0, NAN}, {"inf position", 1, -INFINITY}, {"huge position", 0, 2e15f},
              {"NaN rotation", 2, NAN}, {"inf rotation", 3, INFINITY}, {"rotation off unit", 2, 1.01f}};
    for (size_t t = 0; t < sizeof xb / sizeof xb[0]; t++) {
        float xf[4] = {xf0[0], xf0[1], xf0[2], xf0[3]};
        xf[xb[t].field] = xb[t].value;
        prep_run(&bodies.local, &bodies, &bodies, xf, pairs, &got);
        prep_compare(xb[t].name, &clean, &got, 2u | 8u);
    }
    /* Bad arguments: an error, nothing written. */
    tb2_prepared prep;
    CHECK(tb2_prepared_make(&prep, &pool.view, 2 * N) == 0, "prepare");
    uint8_t hit[N], bad[N];
    memset(hit, 7, sizeof hit);
    memset(bad, 7, sizeof bad);
    satbox2d_bodies nb = bodies.view;
    nb.rotation[1] = NULL;
    satbox2d_bodies ns = bodies.view;
    ns.shape = NULL;
    satbox_pair out_of[1] = {{0, 2 * N}};
    satbox2d_result res = {hit, NULL, {NULL, NULL}, NULL, bad};
    satbox2d_prepared *over = malloc(2 * N * sizeof *over);
    struct {
        const char *what;
        ptrdiff_t got, want;
    } c[] = {
        {"prep NULL pool", satbox2d_prep_overlap_pairs(NULL, 2 * N, pairs, N, hit, NULL, bad), SATBOX_ERR_NULL},
        {"prep NULL pairs", satbox2d_prep_collide_pairs(prep.rec, 2 * N, NULL, N, 0.0f, &res, NULL), SATBOX_ERR_NULL},
        {"prep index", satbox2d_prep_overlap_pairs(prep.rec, 2 * N, out_of, 1, hit, NULL, bad), SATBOX_ERR_INDEX},
        {"prep output over input", satbox2d_prep_overlap_pairs(prep.rec, 2 * N, pairs, N, &prep.rec[3].valid, NULL, bad),
         SATBOX_ERR_ALIAS},
        {"body NULL rotation", satbox2d_body_overlap_pairs(&nb, 2 * N, pairs, N, hit, NULL, bad), SATBOX_ERR_NULL},
        {"body NULL shape", satbox2d_body_collide_pairs(&ns, 2 * N, pairs, N, 0.0f, &res, NULL), SATBOX_ERR_NULL},
        {"body NaN margin", satbox2d_body_collide_pairs(&bodies.view, 2 * N, pairs, N, NAN, &res, NULL), SATBOX_ERR_ARG},
        {"body contacts NULL", satbox2d_body_contacts_pairs(&bodies.view, 2 * N, pairs, N, 0.0f, NULL), SATBOX_ERR_NULL},
        {"prep contacts index", satbox2d_prep_contacts_pairs(prep.rec, 2 * N, out_of, 1, 0.0f,
                                                             (satbox2d_manifold *)(void *)hit), SATBOX_ERR_INDEX},
        {"prepare NULL polys", satbox2d_poly_prepare(NULL, 2 * N, over), SATBOX_ERR_NULL},
        {"prepare NULL out", satbox2d_poly_prepare(&pool.view, 2 * N, NULL), SATBOX_ERR_NULL},
        {"prepare output over input", satbox2d_poly_prepare(&pool.view, 2 * N, (satbox2d_prepared *)(void *)pool.x[3]),
         SATBOX_ERR_ALIAS},
        {"prepare n = 0", satbox2d_poly_prepare(NULL, 0, NULL), 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        CHECK(c[i].got == c[i].want, "%s: returned %td, want %td", c[i].what, c[i].got, c[i].want);
    for (int i = 0; i < N; i++)
        CHECK(hit[i] == 7 && bad[i] == 7, "prepared: something was written on error (byte %d: %u %u)", i, hit[i], bad[i]);
    printf("prepared forms: bad polygons and transforms per pair, %zu bad-argument cases\n", sizeof c / sizeof c[0]);
    free(over);
    tb2_prepared_free(&prep);
    tb2_bodies_free(&bodies);
    tb2_polys_free(&pool);
}

int main(void)
{
    tb_require_isa(); /* exit 77 when SATBOX_ISA names a path this machine lacks */
    printf("test_badinput2d: path %s\n", satbox_isa_name(satbox_isa_active()));
    bad_data();
    turn_tests();
    bad_args();
    bad_prepared();
    return check_report(failures);
}

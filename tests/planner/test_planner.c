/* test_planner.c - satbox_configs() and satbox_motion(): verdicts against the long-double oracle (both modes), every path against the scalar reference, bad data and arguments. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox_planner.h"
#include "planner/planner.h"
#include "oracle.h"
#include "paths.h"
#include "scale.h"
#include "support.h"
#include "views.h"

/* The world: M random boxes in a 4 x 4 x 2 region. The robot: L link boxes per configuration, each
 * either anywhere in the region or placed within a hair of touching an obstacle (or the link
 * before it): the cases where the bound decides. The expected verdicts come from the oracle
 * (orc_sat, corner projections in long double), never from satbox. */
enum { M = 24, L = 5, NSELF = 3 };
static const satbox_pair self_pairs[NSELF] = {{0, 2}, {1, 3}, {0, 4}};

static int failures;
#define FAIL(...) (failures++, fprintf(stderr, "FAIL: " __VA_ARGS__), fputc('\n', stderr))

static void random_box(tb_rng *r, satbox_box *b, double lo, double hi)
{
    for (int c = 0; c < 3; c++) {
        b->center[c] = (float)tb_range(r, c == 2 ? -1.0 : -2.0, c == 2 ? 1.0 : 2.0);
        b->half[c] = (float)tb_range(r, lo, hi);
    }
    tb_random_rotation(r, b->axis);
}

/* b placed along a random direction from o so that the oracle's separation is within a hair of 0
 * (bisection on the distance), then moved by +-10^U(-8, -5) of the pair's size. */
static void touching_box(tb_rng *r, const satbox_box *o, satbox_box *b)
{
    random_box(r, b, 0.05, 0.6);
    double n[3], len = 0.0;
    for (int c = 0; c < 3; c++) {
        n[c] = tb_normal(r);
        len += n[c] * n[c];
    }
    len = sqrt(len);
    double lo = 0.0, hi = 6.0, size = o->half[0] + o->half[1] + o->half[2] + b->half[0] + b->half[1] + b->half[2];
    orc_result res;
    for (int it = 0; it < 60; it++) {
        double t = 0.5 * (lo + hi);
        for (int c = 0; c < 3; c++)
            b->center[c] = (float)(o->center[c] + t * n[c] / len);
        if (orc_sat(o, b, &res) > 0.0L)
            hi = t;
        else
            lo = t;
    }
    double t = lo + (tb_unit(r) < 0.5 ? -1.0 : 1.0) * size * pow(10.0, tb_range(r, -8.0, -5.0));
    for (int c = 0; c < 3; c++)
        b->center[c] = (float)(o->center[c] + t * n[c] / len);
}

typedef struct scene {
    tb_soa world_boxes, links[L];
    satbox_boxes link_views[L];
    satbox_world world;
    void *mem;
    size_t k;
} scene;

static void make_scene(scene *s, tb_rng *r, size_t k)
{
    satbox_box obs[M], b;
    s->k = k;
    if (tb_soa_alloc(&s->world_boxes, M))
        exit(2);
    for (int m = 0; m < M; m++) {
        random_box(r, &obs[m], 0.05, 0.5);
        tb_soa_set(&s->world_boxes, (size_t)m, &obs[m]);
    }
    size_t bytes = satbox_world_bytes(M);
    s->mem = malloc(bytes);
    if (!s->mem || satbox_world_init(&s->world, s->mem, bytes, &s->world_boxes.view, M) != M)
        exit(2);
    for (int l = 0; l < L; l++)
        if (tb_soa_alloc(&s->links[l], k))
            exit(2);
    /* link 0 within a hair of an obstacle in half the configurations; the other links above the
     * obstacles (z + 4), where only the links meet, one in five within a hair of link l - 2
     * (self pairs (0, 2) and (1, 3)) or, for link 1, of link 0 (a pair not checked): about half
     * the configurations touch or overlap exactly */
    for (size_t q = 0; q < k; q++) {
        satbox_box cfg[L];
        for (int l = 0; l < L; l++) {
            double u = tb_unit(r);
            if (l == 0 ? u < 0.5 : u < 0.2)
                touching_box(r, l == 0 ? &obs[(size_t)(tb_unit(r) * M) % M] : &cfg[l >= 2 ? l - 2 : 0], &b);
            else {
                random_box(r, &b, 0.05, 0.3);
                b.center[2] += 4.0f;
            }
            tb_soa_set(&s->links[l], q, &b);
            cfg[l] = b;
        }
    }
    for (int l = 0; l < L; l++)
        s->link_views[l] = s->links[l].view;
}

/* The oracle's account of configuration q: *must_hit when a tested pair overlaps beyond satbox's
 * bound (default mode must say collides), *must_free when every pair is apart beyond it, and
 * *touch when some pair's exact separation is <= 0 (the conservative mode must say collides). */
static void oracle_config(const scene *s, size_t q, int *must_hit, int *must_free, int *touch)
{
    satbox_box a, b;
    orc_result res;
    *must_hit = 0, *must_free = 1, *touch = 0;
    for (int p = 0; p < L * M + NSELF; p++) {
        if (p < L * M) {
            tb_soa_get(&s->links[p / M], q, &a);
            tb_soa_get(&s->world_boxes, (size_t)(p % M), &b);
        } else {
            tb_soa_get(&s->links[self_pairs[p - L * M].a], q, &a);
            tb_soa_get(&s->links[self_pairs[p - L * M].b], q, &b);
        }
        long double sep = orc_sat(&a, &b, &res);
        orc_verdict v = orc_verdict_of(&a, &b, &res, 0.0L, NULL);
        *must_hit |= v == ORC_MUST_HIT;
        *must_free &= v == ORC_MUST_SEP;
        *touch |= sep <= 0.0L;
    }
}

static sbx_pjob job_of(const scene *s, unsigned flags, uint8_t *out)
{
    return (sbx_pjob){&s->world, s->link_views, L, self_pairs, NSELF, s->k, flags, out, SATBOX_PLAN_REL, 0.0f, 0};
}

int main(int argc, char **argv)
{
    double mult;
    uint64_t seed = orc_cli(argc, argv, "test_planner", 36, 10.0, &mult);
    tb_rng r;
    tb_seed(&r, seed);
    size_t k = orc_count(1500, mult, 96);
    scene s;
    make_scene(&s, &r, k);
    uint8_t *ref = malloc(k), *cons = malloc(k), *got = malloc(k + 16);
    if (!ref || !cons || !got)
        return 2;

    /* 1. the oracle: the default mode outside the band, the conservative mode never free when
     * some pair touches; the false alarms counted */
    sbx_pjob jd = job_of(&s, 0, ref), jc = job_of(&s, SATBOX_PLAN_CONSERVATIVE, cons);
    ptrdiff_t nd = sbx_path_scalar.configs(&jd), nc = sbx_path_scalar.configs(&jc);
    size_t touching = 0, false_alarms = 0, free_exact = 0, band = 0, hit_default = 0;
    for (size_t q = 0; q < k; q++) {
        int must_hit, must_free, touch;
        oracle_config(&s, q, &must_hit, &must_free, &touch);
        hit_default += ref[q] == SATBOX_COLLIDES;
        if (must_hit && ref[q] != SATBOX_COLLIDES)
            FAIL("config %zu: default mode says %u, the oracle says a pair overlaps beyond the bound", q, ref[q]);
        if (must_free && ref[q] != SATBOX_FREE)
            FAIL("config %zu: default mode says %u, the oracle says every pair is apart beyond the bound", q, ref[q]);
        band += !must_hit && !must_free;
        if (touch) {
            touching++;
            if (cons[q] != SATBOX_COLLIDES)
                FAIL("config %zu: conservative mode says free, the oracle says a pair touches (a false negative)", q);
        } else {
            free_exact++;
            false_alarms += cons[q] == SATBOX_COLLIDES && ref[q] != SATBOX_COLLIDES;
        }
        if (ref[q] == SATBOX_COLLIDES && cons[q] != SATBOX_COLLIDES)
            FAIL("config %zu: conservative mode frees a configuration the default mode does not", q);
    }
    printf("%zu configurations x (%d links x %d obstacles + %d self pairs): default %td not free, conservative %td;\n"
           "  oracle: %zu touching or overlapping (all reported by the conservative mode), %zu in the bound's band;\n"
           "  conservative false alarms: %zu of %zu exactly free configurations (%.2f%%; default mode's extra: 0 by the rule)\n",
           k, L, M, NSELF, nd, nc, touching, band, false_alarms, free_exact,
           free_exact ? 100.0 * (double)false_alarms / (double)free_exact : 0.0);
    if (touching < k / 4 || free_exact < k / 10 || hit_default == 0)
        FAIL("the scene lacks contacts or free configurations (%zu touching, %zu free)", touching, free_exact);

    /* 2. every path (native and portable) gives the reference's verdicts and motion states */
    test_path paths[16];
    int np = paths_list(paths);
    for (int p = 0; p < np; p++)
        for (int mode = 0; mode < 2; mode++) {
            memset(got, 0xAB, k + 16);
            sbx_pjob j = job_of(&s, mode ? SATBOX_PLAN_CONSERVATIVE : 0, got);
            ptrdiff_t n = paths[p].path->configs(&j);
            const uint8_t *want = mode ? cons : ref;
            if (n != (mode ? nc : nd) || memcmp(got, want, k) != 0)
                FAIL("%s, %s mode: verdicts differ from the scalar reference", paths[p].name, mode ? "conservative" : "default");
            for (int g = 0; g < 16; g++)
                if (got[k + (size_t)g] != 0xAB)
                    FAIL("%s: wrote past the k verdicts", paths[p].name);
            /* calls of fewer configurations than a vector (one configuration alone, the obstacles in
             * lanes): windows of 1 to 15 configurations, each verdict the reference's */
            size_t bad_small = 0;
            for (size_t start = 0, len = 1; start + len <= k && start < 900; start += len, len = len % 15 + 1) {
                sbx_pjob jw = job_of(&s, mode ? SATBOX_PLAN_CONSERVATIVE : 0, got + start);
                satbox_boxes v[L];
                for (int l = 0; l < L; l++) {
                    v[l] = s.link_views[l];
                    for (int c = 0; c < 3; c++) {
                        v[l].center[c] += start;
                        v[l].half[c] += start;
                        for (int a = 0; a < 3; a++)
                            v[l].axis[a][c] += start;
                    }
                }
                jw.links = v;
                jw.k = len;
                paths[p].path->configs(&jw);
                for (size_t q = start; q < start + len; q++)
                    bad_small += got[q] != want[q];
            }
            if (bad_small)
                FAIL("%s, %s mode: %zu verdicts of calls of 1 to 15 configurations differ from the scalar reference",
                     paths[p].name, mode ? "conservative" : "default", bad_small);
        }
    /* motions: windows of the configurations as motions of 1..77 states; the expected first
     * state (and the ANY answer) from the reference verdicts */
    for (size_t start = 0, len = 1; start + len <= k && start < 1200; start += len, len = len % 77 + 5) {
        satbox_boxes views[L];
        for (int l = 0; l < L; l++)
            views[l] = tb_boxes_from(s.link_views[l], start);
        for (int mode = 0; mode < 2; mode++) {
            size_t first, any;
            orc_motion_answers((mode ? cons : ref) + start, len, &first, &any);
            unsigned fl = mode ? SATBOX_PLAN_CONSERVATIVE : 0;
            for (int p = -1; p < np; p++) {
                const sbx_path *path = p < 0 ? &sbx_path_scalar : paths[p].path;
                sbx_pjob j = {&s.world, views, L, self_pairs, NSELF, len, fl, NULL, SATBOX_PLAN_REL, 0.0f, 0};
                ptrdiff_t f = path->configs(&j);
                j.flags = fl | SATBOX_PLAN_ANY;
                ptrdiff_t a = path->configs(&j);
                if (f != (ptrdiff_t)first || a != (ptrdiff_t)any)
                    FAIL("%s, motion of %zu states at %zu: first %td (want %zu), any %td (want %zu)",
                         p < 0 ? "scalar" : paths[p].name, len, start, f, first, a, any);
            }
        }
    }

    /* 3. the public functions: the active path's verdicts, bad data, arguments */
    ptrdiff_t n = satbox_configs(&s.world, s.link_views, L, self_pairs, NSELF, k, 0, got);
    if (n != nd || memcmp(got, ref, k))
        FAIL("satbox_configs differs from the reference");
    float saved = s.links[2].arrays[4][7]; /* half[1] of link 2 in configuration 7 */
    s.links[2].arrays[4][7] = NAN;
    n = satbox_configs(&s.world, s.link_views, L, self_pairs, NSELF, k, 0, got);
    if (got[7] != SATBOX_CONFIG_BAD || memcmp(got, ref, 7) || memcmp(got + 8, ref + 8, k - 8))
        FAIL("a NaN link box: configuration 7 gets %u (want %u), the others must not change", got[7], SATBOX_CONFIG_BAD);
    if (satbox_motion(&s.world, s.link_views, L, NULL, 0, 8, 0) > 7)
        FAIL("a motion through a bad state is free");
    s.links[2].arrays[4][7] = saved;
    memset(got, 0xAB, k);
    satbox_pair bad_pair = {0, L};
    int errs[] = {(int)satbox_configs(&s.world, s.link_views, L, &bad_pair, 1, k, 0, got),
                  (int)satbox_configs(&s.world, s.link_views, L, self_pairs, NSELF, k, 4u, got),
                  (int)satbox_configs(&s.world, NULL, L, self_pairs, NSELF, k, 0, got),
                  (int)satbox_configs(&s.world, s.link_views, L, self_pairs, NSELF, k, 0, NULL),
                  (int)satbox_configs(&s.world, s.link_views, SATBOX_PLAN_MAX_LINKS + 1, NULL, 0, k, 0, got),
                  (int)satbox_configs(&s.world, s.link_views, L, self_pairs, NSELF, k, 0,
                                      (uint8_t *)s.links[0].arrays[0])};
    int want_errs[] = {SATBOX_ERR_INDEX, SATBOX_ERR_ARG, SATBOX_ERR_NULL, SATBOX_ERR_NULL, SATBOX_ERR_COUNT,
                       SATBOX_ERR_ALIAS};
    for (int e = 0; e < 6; e++)
        if (errs[e] != want_errs[e])
            FAIL("bad argument %d: got %d, want %d", e, errs[e], want_errs[e]);
    for (size_t q = 0; q < k; q++)
        if (got[q] != 0xAB) {
            FAIL("a refused call wrote its output");
            break;
        }
    satbox_world w2;
    char small[64];
    if (satbox_world_init(&w2, small, sizeof small, &s.world_boxes.view, M) != SATBOX_ERR_ARG)
        FAIL("a world in too little memory was accepted");
    s.world_boxes.arrays[0][3] = INFINITY;
    void *mem2 = malloc(satbox_world_bytes(M));
    if (satbox_world_init(&w2, mem2, satbox_world_bytes(M), &s.world_boxes.view, M) != SATBOX_ERR_ARG)
        FAIL("a world with an infinite obstacle was accepted");
    free(mem2);
    if (satbox_configs(NULL, s.link_views, L, self_pairs, NSELF, 0, 0, NULL) != 0)
        FAIL("k = 0 must return 0");

    printf("%d paths compared (default and conservative, configurations and motions)\n", np);
    free(ref), free(cons), free(got), free(s.mem);
    tb_soa_free(&s.world_boxes);
    for (int l = 0; l < L; l++)
        tb_soa_free(&s.links[l]);
    if (failures)
        printf("%d failures\n", failures);
    return failures ? 1 : 0;
}

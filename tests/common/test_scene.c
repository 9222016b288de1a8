/* test_scene.c - checks the scene generator: sweep == brute force, both layouts agree, hit rate in range. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

static int checks, failures;
#define CHECK_COUNT() (checks++)
#include "check.h"

/* The sweep of these AABBs must equal brute force exactly (same pairs, same order). */
static void compare_sweep(const char *what, float *min[3], float *max[3], size_t n)
{
    satbox_pair *sp = NULL, *bp = NULL;
    ptrdiff_t ns = tb_sweep((const float *const *)min, (const float *const *)max, n, &sp);
    ptrdiff_t nb = tb_brute_pairs((const float *const *)min, (const float *const *)max, n, &bp);
    CHECK(ns >= 0 && nb >= 0, "%s: allocation failed", what);
    CHECK(ns == nb, "%s: sweep found %td pairs, brute force %td", what, ns, nb);
    if (ns == nb && ns > 0)
        CHECK(memcmp(sp, bp, (size_t)ns * sizeof *sp) == 0, "%s: sweep and brute force pairs differ", what);
    int order_ok = 1;
    for (ptrdiff_t i = 0; i < ns; i++) {
        if (sp[i].a >= sp[i].b || sp[i].b >= n)
            order_ok = 0;
        if (i > 0 && (sp[i - 1].a > sp[i].a || (sp[i - 1].a == sp[i].a && sp[i - 1].b >= sp[i].b)))
            order_ok = 0;
    }
    CHECK(order_ok, "%s: pairs not a < b, strictly ascending", what);
    free(sp);
    free(bp);
}

/* Hand-made AABBs: exact touches (closed intervals), equal min x, contained boxes, empty boxes. */
static void handmade(void)
{
    static float x0[] = {0, 1, 1, 2.5f, 0.2f, INFINITY, 0, 5};
    static float x1[] = {1, 2, 1.5f, 3, 0.3f, -INFINITY, 10, 6};
    static float y0[] = {0, 0, 1, 0, 0.2f, INFINITY, -1, 5};
    static float y1[] = {1, 1, 2, 1, 0.3f, -INFINITY, 0, 6};
    static float z0[] = {0, 0, 0, 0, 0.2f, INFINITY, 0, NAN};
    static float z1[] = {1, 1, 1, 1, 0.3f, -INFINITY, 1, 6};
    float *min[3] = {x0, y0, z0}, *max[3] = {x1, y1, z1};
    compare_sweep("handmade", min, max, 8);
    satbox_pair *p = NULL;
    ptrdiff_t n = tb_sweep((const float *const *)min, (const float *const *)max, 8, &p);
    /* (0,1) touch at x = 1; (0,2) touch at an edge; (0,4) contained; (0,6), (1,6), (3,6) touch at
     * y = 0; (1,2) overlap in x and touch in y. Boxes 5 and 7 are empty; 2-6 and 4-6 miss in y. */
    static const satbox_pair want[] = {{0, 1}, {0, 2}, {0, 4}, {0, 6}, {1, 2}, {1, 6}, {3, 6}};
    CHECK(n == 7 && memcmp(p, want, sizeof want) == 0, "handmade: got %td pairs", n);
    free(p);
    CHECK(tb_sweep((const float *const *)min, (const float *const *)max, 0, &p) == 0 && p == NULL,
          "empty input must give no pairs");
}

/* Gathers the scene's candidate pairs into pair-aligned batches in both layouts and checks that
 * overlap, overlap_q and overlap_pairs give the same bits. Returns the number of overlaps. */
static ptrdiff_t layouts_agree(const tb_scene *s)
{
    size_t n = s->npairs;
    tb_soa a, b;
    float *qa[10], *qb[10];
    uint8_t *h1 = malloc(n + 1), *h2 = malloc(n + 1), *h3 = malloc(n + 1);
    CHECK(tb_soa_alloc(&a, n) == 0 && tb_soa_alloc(&b, n) == 0 && h1 && h2 && h3, "allocation");
    tb_gather_pairs(&s->boxes.view, s->pairs, n, &a, &b, 0);
    satbox_qboxes qva, qvb;
    for (int f = 0; f < 10; f++) {
        qa[f] = malloc((n + 1) * sizeof(float));
        qb[f] = malloc((n + 1) * sizeof(float));
        for (size_t i = 0; i < n; i++) {
            qa[f][i] = s->qarrays[f][s->pairs[i].a];
            qb[f][i] = s->qarrays[f][s->pairs[i].b];
        }
    }
    for (int c = 0; c < 3; c++) {
        qva.center[c] = qa[c], qva.half[c] = qa[3 + c];
        qvb.center[c] = qb[c], qvb.half[c] = qb[3 + c];
    }
    for (int k = 0; k < 4; k++)
        qva.quat[k] = qa[6 + k], qvb.quat[k] = qb[6 + k];
    ptrdiff_t c1 = satbox_overlap(&a.view, &b.view, n, h1, NULL);
    ptrdiff_t c2 = satbox_overlap_q(&qva, &qvb, n, h2, NULL);
    ptrdiff_t c3 = satbox_overlap_pairs(&s->boxes.view, s->n, s->pairs, n, h3, NULL, NULL);
    CHECK(c1 >= 0 && c1 == c2 && c1 == c3, "layouts: overlap %td, overlap_q %td, overlap_pairs %td", c1, c2, c3);
    CHECK(n == 0 || (memcmp(h1, h2, n) == 0 && memcmp(h1, h3, n) == 0), "layouts: hit bytes differ");
    for (int f = 0; f < 10; f++) {
        free(qa[f]);
        free(qb[f]);
    }
    free(h1), free(h2), free(h3);
    tb_soa_free(&a);
    tb_soa_free(&b);
    return c1;
}

/* The AABBs of the quaternion layout are the same bits as those stored (matrix layout). */
static void aabb_agree(const tb_scene *s, float margin)
{
    float *mn[3], *mx[3];
    for (int c = 0; c < 3; c++) {
        mn[c] = malloc((s->n + 1) * sizeof(float));
        mx[c] = malloc((s->n + 1) * sizeof(float));
    }
    ptrdiff_t v = satbox_aabb_q(&s->qview, s->n, margin, mn, mx);
    CHECK(v == (ptrdiff_t)s->n, "aabb_q: %td valid of %zu", v, s->n);
    int same = 1;
    for (int c = 0; c < 3; c++)
        same &= memcmp(mn[c], s->min[c], s->n * sizeof(float)) == 0 && memcmp(mx[c], s->max[c], s->n * sizeof(float)) == 0;
    CHECK(same, "aabb_q differs from the stored (matrix) AABBs");
    for (int c = 0; c < 3; c++) {
        free(mn[c]);
        free(mx[c]);
    }
}

int main(void)
{
    handmade();

    /* Sweep against brute force on small scenes of several densities and seeds, also with some
     * boxes emptied (as satbox_aabb() marks invalid boxes). */
    static const size_t sizes[] = {1, 2, 3, 50, 400, 1500};
    static const double densities[] = {0.02, 0.08, 0.3};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t di = 0; di < 3; di++)
            for (uint64_t seed = 1; seed <= 2; seed++) {
                tb_scene_params p;
                tb_scene_defaults(&p, sizes[si], seed * 1000 + si);
                p.density = densities[di];
                tb_scene s;
                if (tb_scene_make(&s, &p) != 0) {
                    CHECK(0, "tb_scene_make(n=%zu) failed", sizes[si]);
                    continue;
                }
                char what[96];
                snprintf(what, sizeof what, "n=%zu density=%.2f seed=%llu", sizes[si], densities[di],
                         (unsigned long long)seed);
                compare_sweep(what, s.min, s.max, s.n);
                CHECK(satbox_validate(&s.boxes.view, s.n, 1e-5f, NULL) == 0, "%s: invalid or non-orthonormal boxes", what);
                aabb_agree(&s, p.margin);
                for (size_t i = 0; i < s.n; i += 7) {
                    s.min[i % 3][i] = INFINITY;
                    s.max[i % 3][i] = -INFINITY;
                }
                strncat(what, " (some emptied)", sizeof what - strlen(what) - 1);
                compare_sweep(what, s.min, s.max, s.n);
                tb_scene_free(&s);
            }

    /* A default scene as the benchmarks use it: the broad phase should hand on a realistic mix,
     * 30..60% of the candidates really touching as OBBs, in both layouts alike. */
    static const size_t big[] = {2000, 20000};
    for (size_t bi = 0; bi < 2; bi++) {
        tb_scene_params p;
        tb_scene_defaults(&p, big[bi], 42);
        tb_scene s;
        CHECK(tb_scene_make(&s, &p) == 0, "tb_scene_make(%zu)", big[bi]);
        ptrdiff_t hits = layouts_agree(&s);
        double rate = s.npairs ? (double)hits / (double)s.npairs : 0;
        size_t stacked_pairs = 0;
        for (size_t i = 0; i < s.npairs; i++)
            stacked_pairs += s.stacked[s.pairs[i].a] && s.stacked[s.pairs[i].b];
        printf("scene n=%zu side=%.1f: %zu candidate pairs (%.2f per box, %zu stacked-stacked), %td touch = %.1f%%\n",
               s.n, s.side, s.npairs, (double)s.npairs / (double)s.n, stacked_pairs, hits, 100 * rate);
        CHECK(rate >= 0.30 && rate <= 0.60, "n=%zu: %.1f%% of candidate pairs touch, want 30..60%%", s.n, 100 * rate);
        CHECK(s.npairs >= s.n / 2, "n=%zu: only %zu candidate pairs", s.n, s.npairs);
        tb_scene_free(&s);
    }

    /* Same seed, same scene. */
    tb_scene_params p;
    tb_scene_defaults(&p, 300, 7);
    tb_scene s1, s2;
    CHECK(tb_scene_make(&s1, &p) == 0 && tb_scene_make(&s2, &p) == 0, "tb_scene_make(300)");
    CHECK(s1.npairs == s2.npairs && memcmp(s1.pairs, s2.pairs, s1.npairs * sizeof *s1.pairs) == 0 &&
              memcmp(s1.qarrays[6], s2.qarrays[6], s1.n * sizeof(float)) == 0,
          "same seed gave a different scene");
    tb_scene_free(&s1);
    tb_scene_free(&s2);

    printf("scene: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}

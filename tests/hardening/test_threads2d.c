/* test_threads2d.c - every 2D entry point from two threads at once on disjoint ranges equals one single-threaded run. */
/* SPDX-License-Identifier: MIT */
/* As test_threads.c: round 0 releases both threads through a barrier before any other satbox
 * call (their first calls race on the lazy ISA choice); later rounds force each supported path.
 * Each thread runs every 2D entry point on its half of one batch, writing its range of shared
 * outputs; the bytes must equal one single-threaded run. Runs under TSan in the tsan stage. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "support2d.h"
#include "threads.h"

#define NTHREADS 2
#define N 20000
#define NOUT 10 /* overlap rect/poly/rect-poly/rect pool/poly pool, collide the same five */

static int failures = 0;
static tb2_rects RA, RB, RPOOL;
static tb2_polys PA, PB, PPOOL;
static satbox_pair PAIRS[N];

typedef struct outputs {
    uint8_t hit[NOUT][N], bad[NOUT][N], axis[5][N];
    float sep[5][N], nx[5][N], ny[5][N];
    uint32_t list[2][N]; /* pool forms: range-relative indices */
    ptrdiff_t count[NTHREADS][NOUT];
} outputs;

static outputs *SINGLE, *MULTI;

/* Every entry point on pairs [lo, hi) (the pool itself is shared whole). */
static void run_range(outputs *o, size_t lo, size_t hi, int t)
{
    size_t n = hi - lo;
    satbox2d_rects ra = RA.view, rb = RB.view;
    satbox2d_polys pa = PA.view, pb = PB.view;
    for (int c = 0; c < 2; c++) {
        ra.center[c] += lo, ra.half[c] += lo, ra.axis[c] += lo;
        rb.center[c] += lo, rb.half[c] += lo, rb.axis[c] += lo;
    }
    for (int k = 0; k < SATBOX2D_MAX_VERTS; k++) {
        pa.x[k] += lo, pa.y[k] += lo, pb.x[k] += lo, pb.y[k] += lo;
    }
    pa.count += lo;
    pb.count += lo;
    ptrdiff_t *c = o->count[t];
    c[0] = satbox2d_overlap(&ra, &rb, n, o->hit[0] + lo, o->bad[0] + lo);
    c[1] = satbox2d_poly_overlap(&pa, &pb, n, o->hit[1] + lo, o->bad[1] + lo);
    c[2] = satbox2d_rect_poly_overlap(&ra, &pb, n, o->hit[2] + lo, o->bad[2] + lo);
    c[3] = satbox2d_overlap_pairs(&RPOOL.view, 2 * N, PAIRS + lo, n, o->hit[3] + lo, o->list[0] + lo, o->bad[3] + lo);
    c[4] = satbox2d_poly_overlap_pairs(&PPOOL.view, 2 * N, PAIRS + lo, n, o->hit[4] + lo, o->list[1] + lo, o->bad[4] + lo);
    satbox2d_result r[5];
    for (int e = 0; e < 5; e++)
        r[e] = (satbox2d_result){o->hit[5 + e] + lo, o->sep[e] + lo, {o->nx[e] + lo, o->ny[e] + lo}, o->axis[e] + lo,
                                 o->bad[5 + e] + lo};
    c[5] = satbox2d_collide(&ra, &rb, n, 0.01f, &r[0]);
    c[6] = satbox2d_poly_collide(&pa, &pb, n, 0.01f, &r[1]);
    c[7] = satbox2d_rect_poly_collide(&ra, &pb, n, 0.01f, &r[2]);
    c[8] = satbox2d_collide_pairs(&RPOOL.view, 2 * N, PAIRS + lo, n, 0.01f, &r[3], NULL);
    c[9] = satbox2d_poly_collide_pairs(&PPOOL.view, 2 * N, PAIRS + lo, n, 0.01f, &r[4], NULL);
}

typedef struct worker {
    int t;
} worker;

static void *work(void *arg)
{
    worker *w = (worker *)arg;
    pthread_barrier_wait(&tb_start);
    size_t lo = (size_t)w->t * N / NTHREADS, hi = (size_t)(w->t + 1) * N / NTHREADS;
    run_range(MULTI, lo, hi, w->t);
    return NULL;
}

static void round_of(const char *name)
{
    memset(MULTI, 0x5A, sizeof *MULTI);
    memset(SINGLE, 0x5A, sizeof *SINGLE); /* the same fill: the compacted lists are written only up to their counts */
    worker w[NTHREADS];
    for (int k = 0; k < NTHREADS; k++)
        w[k].t = k;
    tb_together(NTHREADS, work, w, sizeof w[0]);
    /* The single-threaded run over the same two ranges (the lists are range-relative). */
    for (int t = 0; t < NTHREADS; t++)
        run_range(SINGLE, (size_t)t * N / NTHREADS, (size_t)(t + 1) * N / NTHREADS, t);
    CHECK(memcmp(SINGLE, MULTI, sizeof *SINGLE) == 0, "%s: two threads differ from one", name);
    long long hits = 0;
    for (int t = 0; t < NTHREADS; t++)
        for (int e = 0; e < NOUT; e++) {
            CHECK(MULTI->count[t][e] >= 0, "%s: entry %d returned %td", name, e, MULTI->count[t][e]);
            hits += MULTI->count[t][e];
        }
    printf("  %s: %lld hits over %d entry points\n", name, hits, NOUT);
}

int main(void)
{
    SINGLE = (outputs *)malloc(sizeof *SINGLE);
    MULTI = (outputs *)malloc(sizeof *MULTI);
    if (!SINGLE || !MULTI || tb2_rects_alloc(&RA, N) || tb2_rects_alloc(&RB, N) || tb2_rects_alloc(&RPOOL, 2 * N) ||
        tb2_polys_alloc(&PA, N) || tb2_polys_alloc(&PB, N) || tb2_polys_alloc(&PPOOL, 2 * N)) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    tb_rng r;
    tb_seed(&r, 31);
    for (size_t i = 0; i < N; i++) {
        tb_rect a, b;
        tb_poly p, q;
        tb2_rect_pair(&r, (tb2_family)(tb_next(&r) % TB2_FAMILY_COUNT), &a, &b);
        tb2_poly_pair(&r, (tb2_family)(tb_next(&r) % TB2_FAMILY_COUNT), 0, 0, &p, &q);
        tb2_rects_set(&RA, i, &a);
        tb2_rects_set(&RB, i, &b);
        tb2_rects_set(&RPOOL, i, &a);
        tb2_rects_set(&RPOOL, N + i, &b);
        tb2_polys_set(&PA, i, &p);
        tb2_polys_set(&PB, i, &q);
        tb2_polys_set(&PPOOL, i, &p);
        tb2_polys_set(&PPOOL, N + i, &q);
        PAIRS[i].a = (uint32_t)(tb_next(&r) % (2 * N));
        PAIRS[i].b = (uint32_t)(tb_next(&r) % 2 ? N + i : tb_next(&r) % (2 * N));
    }
    round_of("first calls racing");
    unsigned sup = satbox_isa_supported();
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if (sup >> i & 1u) {
            satbox_isa_force((satbox_isa)i);
            round_of(satbox_isa_name((satbox_isa)i));
        }
    printf("%d failures\n", failures);
    tb2_rects_free(&RA), tb2_rects_free(&RB), tb2_rects_free(&RPOOL);
    tb2_polys_free(&PA), tb2_polys_free(&PB), tb2_polys_free(&PPOOL);
    free(SINGLE);
    free(MULTI);
    return failures ? 1 : 0;
}

/* test_threads.c - every entry point from two threads at once on disjoint ranges equals one single-threaded run. */
/* SPDX-License-Identifier: MIT */
/* Round 0 starts both threads before any other satbox call and releases them together through
 * a barrier, so that their first calls race on the lazy, once-initialised ISA choice. Later
 * rounds force each supported path in turn (from the main thread, between rounds). Each thread
 * runs every public entry point on its own range of one big batch, writing into its range of
 * shared output arrays; the result must equal a single-threaded run over the whole batch,
 * byte for byte. Built with ThreadSanitizer in tests/run's tsan stage, plain in the others. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox.h"
#include "support.h"
#include "threads.h"
#include "views.h"

#define NTHREADS 2

static int failures = 0;

#include "check.h"
#include "scale.h"

/* ---- one batch, read by every thread ---- */
static size_t N;
static tb_soa A, B, POOL;
static float *QA[10], *QB[10];
static satbox_qboxes QVA, QVB;
static satbox_pair *PAIRS;
static satbox_rec *REC; /* POOL as 64-byte records */
static satbox_box ONE, *STRUCTS;

/* ---- outputs over the whole batch: each thread writes its own range ---- */
typedef struct outputs {
    uint8_t *ohit, *chit, *qhit, *qchit, *one_hit, *pool_hit, *pool_chit, *rec_hit, *rec_chit, *bad;
    float *sep, *nrm[3], *qsep, *min[3], *max[3], *qmin[3], *qmax[3], *axq[9], *packed[15];
    uint8_t *axis;
    uint8_t *pbad; /* the per-pair bad bytes of the 10 pair calls: call c writes pbad + c * N */
    uint32_t *compact, *ccompact, *rcompact; /* pool pairs: range-relative indices, per thread */
    satbox_rec *packed_rec;
} outputs;

/* clang-format off */
enum { C_OVERLAP, C_COLLIDE, C_OVERLAP_Q, C_COLLIDE_Q, C_ONE, C_COLLIDE_ONE, C_POOL, C_POOL_C, C_REC, C_REC_C,
       C_AABB, C_AABB_Q, C_QUAT, C_PACK, C_PACK_REC, C_VALIDATE, C_COUNT };
/* clang-format on */

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void outputs_alloc(outputs *o)
{
    memset(o, 0, sizeof *o);
    o->ohit = xcalloc(N, 1);
    o->chit = xcalloc(N, 1);
    o->qhit = xcalloc(N, 1);
    o->qchit = xcalloc(N, 1);
    o->one_hit = xcalloc(N, 1);
    o->pool_hit = xcalloc(N, 1);
    o->pool_chit = xcalloc(N, 1);
    o->rec_hit = xcalloc(N, 1);
    o->rec_chit = xcalloc(N, 1);
    o->rcompact = xcalloc(N, sizeof(uint32_t));
    o->packed_rec = xcalloc(N, sizeof(satbox_rec));
    o->bad = xcalloc(N, 1);
    o->pbad = xcalloc(N, C_REC_C + 1);
    o->axis = xcalloc(N, 1);
    o->sep = xcalloc(N, sizeof(float));
    o->qsep = xcalloc(N, sizeof(float));
    for (int c = 0; c < 3; c++) {
        o->nrm[c] = xcalloc(N, sizeof(float));
        o->min[c] = xcalloc(N, sizeof(float));
        o->max[c] = xcalloc(N, sizeof(float));
        o->qmin[c] = xcalloc(N, sizeof(float));
        o->qmax[c] = xcalloc(N, sizeof(float));
    }
    for (int q = 0; q < 9; q++)
        o->axq[q] = xcalloc(N, sizeof(float));
    for (int q = 0; q < 15; q++)
        o->packed[q] = xcalloc(N, sizeof(float));
    o->compact = xcalloc(N, sizeof(uint32_t));
    o->ccompact = xcalloc(N, sizeof(uint32_t));
}

static void outputs_free(outputs *o)
{
    void *all[] = {o->ohit,      o->chit,    o->qhit,     o->qchit,    o->one_hit,   o->pool_hit,
                   o->pool_chit, o->rec_hit, o->rec_chit, o->bad,      o->axis,      o->sep,
                   o->qsep,      o->compact, o->ccompact, o->rcompact, o->packed_rec, o->pbad};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    for (int c = 0; c < 3; c++) {
        free(o->nrm[c]);
        free(o->min[c]);
        free(o->max[c]);
        free(o->qmin[c]);
        free(o->qmax[c]);
    }
    for (int q = 0; q < 9; q++)
        free(o->axq[q]);
    for (int q = 0; q < 15; q++)
        free(o->packed[q]);
}

/* Every entry point on pairs / boxes [lo, lo + len), outputs into the same range of `o`.
 * Return codes go to rc[] (the caller sums them). The compacted lists are range-relative and
 * written at o->compact + lo: with the ranges in order, list k of thread t starts at its lo. */
static void run_range(outputs *o, size_t lo, size_t len, ptrdiff_t rc[C_COUNT])
{
    const float margin = 0.02f;
    uint8_t *bad[C_REC_C + 1];
    for (int c = 0; c <= C_REC_C; c++)
        bad[c] = o->pbad + (size_t)c * N + lo;
    satbox_boxes a = tb_boxes_from(A.view, lo), b = tb_boxes_from(B.view, lo);
    satbox_qboxes qa = tb_qboxes_from(QVA, lo), qb = tb_qboxes_from(QVB, lo);

    rc[C_OVERLAP] = satbox_overlap(&a, &b, len, o->ohit + lo, bad[C_OVERLAP]);
    satbox_result res = {o->chit + lo, o->sep + lo, {o->nrm[0] + lo, o->nrm[1] + lo, o->nrm[2] + lo}, o->axis + lo, bad[C_COLLIDE]};
    rc[C_COLLIDE] = satbox_collide(&a, &b, len, margin, &res);
    rc[C_OVERLAP_Q] = satbox_overlap_q(&qa, &qb, len, o->qhit + lo, bad[C_OVERLAP_Q]);
    satbox_result qres = {o->qchit + lo, o->qsep + lo, {NULL, NULL, NULL}, NULL, bad[C_COLLIDE_Q]};
    rc[C_COLLIDE_Q] = satbox_collide_q(&qa, &qb, len, margin, &qres);
    rc[C_ONE] = satbox_overlap_one(&ONE, &b, len, o->one_hit + lo, bad[C_ONE]);
    satbox_result ores = {NULL, NULL, {NULL, NULL, NULL}, NULL, bad[C_COLLIDE_ONE]};
    rc[C_COLLIDE_ONE] = satbox_collide_one(&ONE, &b, len, margin, &ores);
    rc[C_POOL] = satbox_overlap_pairs(&POOL.view, POOL.n, PAIRS + lo, len, o->pool_hit + lo, o->compact + lo, bad[C_POOL]);
    satbox_result pres = {o->pool_chit + lo, NULL, {NULL, NULL, NULL}, NULL, bad[C_POOL_C]};
    rc[C_POOL_C] = satbox_collide_pairs(&POOL.view, POOL.n, PAIRS + lo, len, margin, &pres, o->ccompact + lo);
    rc[C_REC] = satbox_overlap_pairs_rec(REC, POOL.n, PAIRS + lo, len, o->rec_hit + lo, o->rcompact + lo, bad[C_REC]);
    satbox_result rres = {o->rec_chit + lo, NULL, {NULL, NULL, NULL}, NULL, bad[C_REC_C]};
    rc[C_REC_C] = satbox_collide_pairs_rec(REC, POOL.n, PAIRS + lo, len, margin, &rres, NULL);
    float *mn[3], *mx[3];
    for (int c = 0; c < 3; c++) {
        mn[c] = o->min[c] + lo;
        mx[c] = o->max[c] + lo;
    }
    rc[C_AABB] = satbox_aabb(&a, len, margin, mn, mx);
    for (int c = 0; c < 3; c++) {
        mn[c] = o->qmin[c] + lo;
        mx[c] = o->qmax[c] + lo;
    }
    rc[C_AABB_Q] = satbox_aabb_q(&qa, len, margin, mn, mx);
    float *ax[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            ax[k][c] = o->axq[3 * k + c] + lo;
    rc[C_QUAT] = satbox_axes_from_quat(qa.quat, len, ax);
    satbox_boxes_out dst;
    for (int c = 0; c < 3; c++) {
        dst.center[c] = o->packed[c] + lo;
        dst.half[c] = o->packed[3 + c] + lo;
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            dst.axis[k][c] = o->packed[6 + 3 * k + c] + lo;
    rc[C_PACK] = satbox_pack(STRUCTS + lo, len, &dst);
    rc[C_PACK_REC] = satbox_pack_rec(&b, len, o->packed_rec + lo);
    rc[C_VALIDATE] = satbox_validate(&a, len, 1e-4f, o->bad + lo);
}

/* ---- threads ---- */
typedef struct worker {
    size_t lo, len;
    outputs *o;
    ptrdiff_t rc[C_COUNT];
    satbox_isa seen; /* satbox_isa_active() after its calls */
} worker;

static void *work(void *arg)
{
    worker *w = (worker *)arg;
    pthread_barrier_wait(&tb_start);
    run_range(w->o, w->lo, w->len, w->rc); /* the first satbox call of this thread (and, in round 0, of the process) */
    w->seen = satbox_isa_active();
    /* The read-only queries, concurrently too (checked by the main thread through `seen`). */
    if (satbox_isa_from_name(satbox_isa_name(w->seen)) != (int)w->seen || satbox_isa_width(w->seen) <= 0 ||
        !(satbox_isa_supported() >> w->seen & 1u) || !satbox_version() || !satbox_strerror(SATBOX_ERR_ARG))
        w->seen = SATBOX_ISA_COUNT;
    return NULL;
}

static const char *const call_names[C_COUNT] = {
    "overlap",        "collide",       "overlap_q",         "collide_q",         "overlap_one", "collide_one",
    "overlap_pairs",  "collide_pairs", "overlap_pairs_rec", "collide_pairs_rec", "aabb",        "aabb_q",
    "axes_from_quat", "pack",          "pack_rec",          "validate"};

/* The threads' outputs against one single-threaded run over the whole batch. */
static void compare(const outputs *t, const ptrdiff_t trc[C_COUNT], const worker *w, const char *round)
{
    outputs s;
    outputs_alloc(&s);
    ptrdiff_t src[C_COUNT];
    run_range(&s, 0, N, src);
    for (int c = 0; c < C_COUNT; c++)
        CHECK(trc[c] == src[c], "%s: %s returned %td from the threads, %td single-threaded", round, call_names[c],
              trc[c], src[c]);
#define SAME(field, bytes) CHECK(memcmp(t->field, s.field, (bytes)) == 0, "%s: %s differs", round, #field)
    SAME(ohit, N);
    SAME(chit, N);
    SAME(qhit, N);
    SAME(qchit, N);
    SAME(one_hit, N);
    SAME(pool_hit, N);
    SAME(pool_chit, N);
    SAME(rec_hit, N);
    CHECK(memcmp(t->rec_hit, t->pool_hit, N) == 0 && memcmp(t->rec_chit, t->pool_chit, N) == 0,
          "%s: the record pool differs from the SoA pool", round);
    SAME(rec_chit, N);
    SAME(packed_rec, N * sizeof(satbox_rec));
    SAME(bad, N);
    SAME(pbad, N * (C_REC_C + 1));
    /* The bad bytes are one fact about the pair: collide's equal its overlap twin's (and the record
     * pool's the SoA pool's); the batch holds bad pairs, so they are not all 0. */
    for (int c = 1; c <= C_REC_C; c++) {
        int twin = c == C_REC ? C_POOL : (c & 1) ? c - 1 : -1;
        if (twin >= 0)
            CHECK(memcmp(t->pbad + (size_t)c * N, t->pbad + (size_t)twin * N, N) == 0,
                  "%s: bad bytes of %s differ from those of %s", round, call_names[c], call_names[twin]);
    }
    CHECK(memchr(t->pbad, 1, N) != NULL, "%s: no pair of the batch reported bad", round);
#undef SAME
    /* Compacted lists: thread k's list (relative to its lo) shifted by lo is the next piece. */
    const uint32_t *lists[3][2] = {{t->compact, s.compact}, {t->ccompact, s.ccompact}, {t->rcompact, s.rcompact}};
    const int which[3] = {C_POOL, C_POOL_C, C_REC};
    for (int l = 0; l < 3; l++) {
        size_t at = 0;
        int ok = 1;
        for (int k = 0; k < NTHREADS; k++)
            for (ptrdiff_t j = 0; j < w[k].rc[which[l]]; j++, at++)
                ok &= (uint32_t)(lists[l][0][w[k].lo + (size_t)j] + w[k].lo) == lists[l][1][at];
        CHECK(ok, "%s: compacted list of %s differs", round, call_names[which[l]]);
    }
    outputs_free(&s);
}

/* A path's name; "?" for SATBOX_ISA_COUNT, which a thread reports when a query failed. */
static const char *isa_str(satbox_isa isa)
{
    const char *n = satbox_isa_name(isa);
    return n ? n : "?";
}

static void run_round(const char *round)
{
    outputs t;
    outputs_alloc(&t);
    worker w[NTHREADS];
    /* An uneven split that is not a multiple of any width. */
    size_t cut = N / 2 + 5;
    w[0] = (worker){.lo = 0, .len = cut, .o = &t};
    w[1] = (worker){.lo = cut, .len = N - cut, .o = &t};
    tb_together(NTHREADS, work, w, sizeof w[0]);

    ptrdiff_t trc[C_COUNT];
    for (int c = 0; c < C_COUNT; c++) {
        trc[c] = 0;
        for (int k = 0; k < NTHREADS; k++) {
            CHECK(w[k].rc[c] >= 0, "%s: thread %d: %s returned %td", round, k, call_names[c], w[k].rc[c]);
            trc[c] += w[k].rc[c];
        }
    }
    CHECK(w[0].seen == w[1].seen && w[0].seen == satbox_isa_active(), "%s: threads saw paths %s and %s, main %s", round,
          isa_str(w[0].seen), isa_str(w[1].seen), isa_str(satbox_isa_active()));
    compare(&t, trc, w, round);
    printf("%s: path %s, %td overlapping pairs\n", round, isa_str(w[0].seen), trc[C_OVERLAP]);
    outputs_free(&t);
}

/* Builds the batch with the test support code only: no satbox call before round 0. */
static void make_batch(void)
{
    tb_rng r;
    tb_seed(&r, 0x7E4Dull);
    if (tb_soa_alloc(&A, N) || tb_soa_alloc(&B, N) || tb_soa_alloc(&POOL, 2 * N)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int q = 0; q < 10; q++) {
        QA[q] = xcalloc(N, sizeof(float));
        QB[q] = xcalloc(N, sizeof(float));
    }
    QVA = tb_qboxes_of(QA, 0);
    QVB = tb_qboxes_of(QB, 0);
    PAIRS = xcalloc(N, sizeof(satbox_pair));
    REC = xcalloc(2 * N, sizeof(satbox_rec));
    STRUCTS = xcalloc(N, sizeof(satbox_box));
    for (size_t i = 0; i < N; i++) {
        satbox_box a, b;
        tb_make_pair(&r, (tb_family)(tb_next(&r) % TB_FAMILY_COUNT), &a, &b);
        if (i == 0)
            ONE = a;
        tb_soa_set(&A, i, &a);
        tb_soa_set(&B, i, &b);
        tb_soa_set(&POOL, i, &a);
        tb_soa_set(&POOL, N + i, &b);
        const satbox_box *pb[2] = {&a, &b};
        for (int s = 0; s < 2; s++) { /* by hand: no satbox call before round 0 */
            satbox_rec *r = &REC[(size_t)s * N + i];
            memcpy(r->center, pb[s]->center, sizeof r->center);
            memcpy(r->half, pb[s]->half, sizeof r->half);
            memcpy(r->axis, pb[s]->axis, sizeof r->axis);
            r->pad = 0.0f;
        }
        STRUCTS[i] = b;
        for (int c = 0; c < 3; c++) {
            QA[c][i] = a.center[c];
            QA[3 + c][i] = a.half[c];
            QB[c][i] = b.center[c];
            QB[3 + c][i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            QA[6 + c][i] = (float)tb_normal(&r);
            QB[6 + c][i] = (float)tb_normal(&r);
        }
        PAIRS[i] = (satbox_pair){(uint32_t)i, (uint32_t)(N + i)};
        if (tb_next(&r) % 8 == 0) { /* one statement per draw: the same pairs with every compiler */
            PAIRS[i].a = (uint32_t)(tb_next(&r) % (2 * N));
            PAIRS[i].b = (uint32_t)(tb_next(&r) % (2 * N));
        }
    }
}

int main(int argc, char **argv)
{
    N = test_short() ? 6000 : 40000; /* scale.h */
    if (argc > 1)
        N = (size_t)strtoull(argv[1], NULL, 10);
    if (N < 64)
        N = 64;
    make_batch();

    run_round("round 0 (first calls race on the lazy ISA choice)");
    unsigned sup = satbox_isa_supported();
    satbox_isa initial = satbox_isa_active();
    for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++) {
        if (!(sup >> isa & 1u))
            continue;
        CHECK(satbox_isa_force((satbox_isa)isa) == SATBOX_OK, "cannot force %s", satbox_isa_name((satbox_isa)isa));
        for (int rep = 0; rep < 3; rep++) { /* a few times: the threads do not always overlap in time */
            char name[64];
            snprintf(name, sizeof name, "forced %s (%d)", satbox_isa_name((satbox_isa)isa), rep);
            run_round(name);
        }
    }
    satbox_isa_force(initial);

    tb_soa_free(&A);
    tb_soa_free(&B);
    tb_soa_free(&POOL);
    for (int q = 0; q < 10; q++) {
        free(QA[q]);
        free(QB[q]);
    }
    free(PAIRS);
    free(REC);
    free(STRUCTS);
    printf("test_threads: %zu pairs, %d threads: %d failures\n", N, NTHREADS, failures);
    return failures ? 1 : 0;
}

/* test_contacts_threads.c - the contacts entry points from two threads on disjoint ranges equal one single-threaded run. */
/* SPDX-License-Identifier: MIT */
/* Both threads start before any other satbox call in the process and are released together by a
 * barrier, so their first calls race on the lazy ISA choice; later rounds force each supported
 * path. Each thread runs satbox_contacts, _q, _pairs and _pairs_rec on its half of one batch,
 * writing its half of shared output arrays; every output must equal a single-threaded run byte
 * for byte. Run plain here and under ThreadSanitizer in tests/run's tsan stage (suite threads). */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t under -std=c11 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_util.h"
#include "support.h"
#include "threads.h"

static int failures = 0;

#include "check.h"

enum { N = 3001, FORMS = 4 };
static tb_soa A, B, POOL;
static float QF[2][10][N];
static satbox_qboxes QA, QB;
static satbox_pair PAIRS[N];
static satbox_rec REC[2 * N];
static tc_out OUT[FORMS];

static void run_range(size_t lo, size_t hi)
{
    for (int f = 0; f < FORMS; f++) {
        tc_out *o = &OUT[f];
        satbox_contacts_out v = o->view;
        /* shift every output pointer to the range */
        v.count += lo, v.hit += lo, v.axis += lo, v.bad += lo;
        for (int c = 0; c < 3; c++)
            v.normal[c] += lo;
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 3; c++)
                v.point[k][c] += lo;
            v.depth[k] += lo;
            v.feature[k] += lo;
        }
        satbox_boxes a = A.view, b = B.view;
        satbox_qboxes qa = QA, qb = QB;
        for (int c = 0; c < 3; c++) {
            a.center[c] += lo, a.half[c] += lo, b.center[c] += lo, b.half[c] += lo;
            qa.center[c] += lo, qa.half[c] += lo, qb.center[c] += lo, qb.half[c] += lo;
            for (int k = 0; k < 3; k++)
                a.axis[k][c] += lo, b.axis[k][c] += lo;
        }
        for (int c = 0; c < 4; c++)
            qa.quat[c] += lo, qb.quat[c] += lo;
        ptrdiff_t r = f == 0   ? satbox_contacts(&a, &b, hi - lo, 1e-3f, &v)
                      : f == 1 ? satbox_contacts_q(&qa, &qb, hi - lo, 1e-3f, &v)
                      : f == 2 ? satbox_contacts_pairs(&POOL.view, 2 * N, PAIRS + lo, hi - lo, 1e-3f, &v, NULL)
                               : satbox_contacts_pairs_rec(REC, 2 * N, PAIRS + lo, hi - lo, 1e-3f, &v, NULL);
        if (r < 0)
            failures++;
    }
}

static void *worker(void *arg)
{
    size_t t = *(const size_t *)arg;
    pthread_barrier_wait(&tb_start);
    run_range(t * (N / 2), t ? N : N / 2);
    return NULL;
}

static int same(const tc_out *x, const tc_out *y)
{
    int ok = !memcmp(x->count, y->count, N) && !memcmp(x->hit, y->hit, N) && !memcmp(x->axis, y->axis, N) &&
             !memcmp(x->bad, y->bad, N);
    for (int c = 0; c < 3; c++)
        ok = ok && !memcmp(x->normal[c], y->normal[c], N * sizeof(float));
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            ok = ok && !memcmp(x->point[k][c], y->point[k][c], N * sizeof(float));
        ok = ok && !memcmp(x->depth[k], y->depth[k], N * sizeof(float)) &&
             !memcmp(x->feature[k], y->feature[k], N * sizeof(uint32_t));
    }
    return ok;
}

int main(void)
{
    tb_rng r;
    tb_seed(&r, 4242);
    tb_soa_alloc(&A, N);
    tb_soa_alloc(&B, N);
    tb_soa_alloc(&POOL, 2 * N);
    for (size_t i = 0; i < N; i++) {
        satbox_box a, b;
        tb_make_pair(&r, (tb_family)(i % TB_FAMILY_COUNT), &a, &b);
        tb_soa_set(&A, i, &a);
        tb_soa_set(&B, i, &b);
        tb_soa_set(&POOL, 2 * i, &a);
        tb_soa_set(&POOL, 2 * i + 1, &b);
        PAIRS[i] = (satbox_pair){(uint32_t)(2 * i), (uint32_t)(2 * i + 1)};
        for (int c = 0; c < 3; c++) {
            QF[0][c][i] = a.center[c], QF[0][3 + c][i] = a.half[c];
            QF[1][c][i] = b.center[c], QF[1][3 + c][i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            QF[0][6 + c][i] = (float)tb_normal(&r);
            QF[1][6 + c][i] = (float)tb_normal(&r);
        }
    }
    for (int c = 0; c < 3; c++) {
        QA.center[c] = QF[0][c], QA.half[c] = QF[0][3 + c];
        QB.center[c] = QF[1][c], QB.half[c] = QF[1][3 + c];
    }
    for (int c = 0; c < 4; c++)
        QA.quat[c] = QF[0][6 + c], QB.quat[c] = QF[1][6 + c];
    for (int f = 0; f < FORMS; f++)
        tc_alloc(&OUT[f], N);
    unsigned sup = satbox_isa_supported();
    int rounds = 0;
    for (int p = -1; p < SATBOX_ISA_COUNT; p++) {
        if (p >= 0 && (!(sup >> p & 1u) || satbox_isa_force((satbox_isa)p) != SATBOX_OK))
            continue;
        static size_t half[2] = {0, 1}; /* each thread's argument: which half it runs */
        tb_together(2, worker, half, sizeof half[0]);
        /* p = -1: the first calls of the process raced on the ISA choice; now force each path */
        satbox_isa used = satbox_isa_active();
        tc_out ref[FORMS];
        for (int f = 0; f < FORMS; f++)
            tc_alloc(&ref[f], N);
        tc_out keep[FORMS];
        memcpy(keep, OUT, sizeof keep);
        memcpy(OUT, ref, sizeof ref);
        run_range(0, N); /* single-threaded, same path, into ref */
        memcpy(OUT, keep, sizeof keep);
        for (int f = 0; f < FORMS; f++) {
            CHECK(same(&OUT[f], &ref[f]), "path %s form %d: two threads differ from one", satbox_isa_name(used), f);
            tc_free(&ref[f]);
        }
        rounds++;
    }
    for (int f = 0; f < FORMS; f++)
        tc_free(&OUT[f]);
    tb_soa_free(&A);
    tb_soa_free(&B);
    tb_soa_free(&POOL);
    printf("%d rounds (first calls racing, then each supported path) x 4 contacts forms: %s (%d failures)\n", rounds,
           failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

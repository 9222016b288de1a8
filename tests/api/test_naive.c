/* test_naive.c - the way every engine reads the outputs, `if (hit[i]) contacts++`, never counts a bad pair. */
/* SPDX-License-Identifier: MIT */
/* A batch of 64 pairs in which every pair would overlap, and 3 pairs in 4 are spoilt by one bad
 * value (NaN, +-inf, a negative extent, a coordinate far outside the world, a zero or NaN
 * quaternion). Nothing here reads satbox's `bad` output: this is the code an integrator writes
 * without reading the documentation. On every path the machine runs and through every pair
 * entry point (overlap, collide, _q, _one, _pairs, _pairs_rec) it must count exactly the 16 good
 * pairs: with `if (hit[i])`, with the returned count, with the compacted list, and with
 * `separation[i] <= 0`. The expected count comes from the construction (unit cubes half a unit
 * apart overlap), not from satbox. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "satbox/satbox.h"

#define N 64
#define GOOD 16 /* pairs with i % 4 == 0 */

static int failures = 0;

#include "check.h"
#include "views.h"

static float fa[15][N], fb[15][N]; /* SoA: center 0..2, half 3..5, axis 6 + 3k + c */
static float qa[10][N], qb[10][N]; /* SoA: center 0..2, half 3..5, quat 6..9 */
static satbox_rec pool[2 * N];     /* box 2i is A of pair i, 2i + 1 is B */
static float fp[15][2 * N];
static satbox_pair pairs[N];

/* One bad value for a spoilt pair (i % 4 != 0), on A or B, of a kind that depends on i. */
static void spoil(int i, float *ma, float *mb, float *qq_a, float *qq_b)
{
    float *m = (i & 4) ? mb : ma; /* m[f * N] is field f of this pair's box, q[f * N] likewise */
    float *q = (i & 4) ? qq_b : qq_a;
    switch (i / 4 % 6) {
    case 0: m[0] = NAN, q[0] = NAN; break;                              /* center x */
    case 1: m[3 * N] = INFINITY, q[3 * N] = INFINITY; break;     /* half 0 */
    case 2: m[4 * N] = -0.25f, q[4 * N] = -0.25f; break;         /* negative extent */
    case 3: m[2 * N] = -1e30f, q[2 * N] = -1e30f; break;         /* outside the world */
    case 4: m[7 * N] = -INFINITY, q[6 * N] = NAN; break;         /* an axis / the quaternion */
    default:
        m[6 * N] = NAN;
        for (int c = 0; c < 4; c++)
            q[(6 + c) * N] = 0.0f; /* zero quaternion */
        break;
    }
}

static void build(void)
{
    for (int i = 0; i < N; i++) {
        for (int f = 0; f < 15; f++)
            fa[f][i] = fb[f][i] = 0.0f;
        for (int f = 0; f < 10; f++)
            qa[f][i] = qb[f][i] = 0.0f;
        for (int k = 0; k < 3; k++) {
            fa[3 + k][i] = fb[3 + k][i] = 0.5f;           /* unit cubes */
            qa[3 + k][i] = qb[3 + k][i] = 0.5f;
            fa[6 + 3 * k + k][i] = fb[6 + 3 * k + k][i] = 1.0f; /* axis-aligned */
        }
        qa[9][i] = qb[9][i] = 1.0f; /* identity quaternion (x, y, z, w) */
        fb[0][i] = qb[0][i] = 0.5f; /* B half a unit along x: overlapping by 0.5 */
        if (i % 4)
            spoil(i, &fa[0][i], &fb[0][i], &qa[0][i], &qb[0][i]);
    }
    for (int i = 0; i < N; i++) {
        for (int f = 0; f < 15; f++) {
            fp[f][2 * i] = fa[f][i];
            fp[f][2 * i + 1] = fb[f][i];
        }
        pairs[i] = (satbox_pair){(uint32_t)(2 * i), (uint32_t)(2 * i + 1)};
    }
}

static satbox_boxes view(float f[15][N])
{
    satbox_boxes v;
    for (int j = 0; j < TB_BOX_FIELDS; j++)
        *tb_boxes_slot(&v, j) = f[j];
    return v;
}

static satbox_qboxes qview(float f[10][N])
{
    satbox_qboxes v;
    for (int j = 0; j < TB_QBOX_FIELDS; j++)
        *tb_qboxes_slot(&v, j) = f[j];
    return v;
}

/* The naive reading of one call's outputs: every way an integrator counts contacts. */
static void count_naive(const char *path, const char *entry, ptrdiff_t ret, const uint8_t *hit, const float *sep,
                        const uint32_t *list)
{
    int contacts = 0, by_sep = 0, wrong = 0;
    for (int i = 0; i < N; i++) {
        if (hit[i])
            contacts++;
        if (hit[i] && i % 4)
            wrong++;
        if (sep && sep[i] <= 0.0f)
            by_sep++;
    }
    CHECK(contacts == GOOD && wrong == 0, "%s %s: if (hit[i]) counts %d contacts (%d of them bad pairs), expected %d",
          path, entry, contacts, wrong, GOOD);
    CHECK(ret == GOOD, "%s %s: returned %td, expected %d", path, entry, ret, GOOD);
    if (sep)
        CHECK(by_sep == GOOD, "%s %s: separation <= 0 for %d pairs, expected %d", path, entry, by_sep, GOOD);
    if (list)
        for (ptrdiff_t k = 0; k < ret && k < N; k++)
            CHECK(list[k] % 4 == 0, "%s %s: compacted list holds bad pair %u", path, entry, list[k]);
}

static void run_path(const char *path)
{
    satbox_boxes a = view(fa), b = view(fb), p;
    satbox_qboxes q1 = qview(qa), q2 = qview(qb);
    satbox_box one;
    for (int c = 0; c < 3; c++) {
        p.center[c] = fp[c];
        p.half[c] = fp[3 + c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            p.axis[k][c] = fp[6 + 3 * k + c];
    uint8_t hit[N], axis[N];
    float sep[N], nx[N], ny[N], nz[N];
    uint32_t list[N];
    satbox_result res = {hit, sep, {nx, ny, nz}, axis, NULL};

    count_naive(path, "overlap", satbox_overlap(&a, &b, N, hit, NULL), hit, NULL, NULL);
    count_naive(path, "collide", satbox_collide(&a, &b, N, 0.0f, &res), hit, sep, NULL);
    count_naive(path, "overlap_q", satbox_overlap_q(&q1, &q2, N, hit, NULL), hit, NULL, NULL);
    count_naive(path, "collide_q", satbox_collide_q(&q1, &q2, N, 0.0f, &res), hit, sep, NULL);
    count_naive(path, "overlap_pairs", satbox_overlap_pairs(&p, 2 * N, pairs, N, hit, list, NULL), hit, NULL, list);
    count_naive(path, "collide_pairs", satbox_collide_pairs(&p, 2 * N, pairs, N, 0.0f, &res, list), hit, sep, list);
    count_naive(path, "overlap_pairs_rec", satbox_overlap_pairs_rec(pool, 2 * N, pairs, N, hit, list, NULL), hit,
                NULL, list);
    count_naive(path, "collide_pairs_rec", satbox_collide_pairs_rec(pool, 2 * N, pairs, N, 0.0f, &res, list), hit,
                sep, list);

    /* _one: a good box against the B side (bad B boxes are the pairs with i % 4 != 0 and bit 2),
     * then a bad box against good ones (nothing may count). */
    memset(&one, 0, sizeof one);
    for (int k = 0; k < 3; k++) {
        one.half[k] = 0.5f;
        one.axis[k][k] = 1.0f;
    }
    ptrdiff_t r = satbox_overlap_one(&one, &b, N, hit, NULL);
    int want = 0, contacts = 0;
    for (int i = 0; i < N; i++) {
        want += i % 4 == 0 || !(i & 4); /* B is clean */
        if (hit[i])
            contacts++;
    }
    CHECK(contacts == want && r == want, "%s overlap_one: if (hit[i]) counts %d, returned %td, expected %d", path,
          contacts, r, want);
    satbox_box bad_one = one;
    bad_one.center[1] = NAN;
    r = satbox_collide_one(&bad_one, &b, N, 0.0f, &res);
    contacts = 0;
    for (int i = 0; i < N; i++)
        if (hit[i] || sep[i] <= 0.0f)
            contacts++;
    CHECK(contacts == 0 && r == 0, "%s collide_one with a NaN box: %d contacts, returned %td", path, contacts, r);
}

int main(void)
{
    build();
    for (int i = 0; i < 2 * N; i++) {
        satbox_box x;
        for (int c = 0; c < 3; c++) {
            x.center[c] = fp[c][i];
            x.half[c] = fp[3 + c][i];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                x.axis[k][c] = fp[6 + 3 * k + c][i];
        memcpy(&pool[i], &x, sizeof x);
        pool[i].pad = 0.0f;
    }
    unsigned sup = satbox_isa_supported();
    int paths = 0;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++) {
        if (!(sup >> i & 1u))
            continue;
        CHECK(satbox_isa_force((satbox_isa)i) == SATBOX_OK, "cannot force %s", satbox_isa_name((satbox_isa)i));
        int before = failures;
        run_path(satbox_isa_name((satbox_isa)i));
        printf("%-7s %d pairs, %d good: %s\n", satbox_isa_name((satbox_isa)i), N, GOOD,
               failures == before ? "only the good pairs counted" : "BAD PAIRS COUNTED AS CONTACTS");
        paths++;
    }
    printf("test_naive: %d paths, %d failures\n", paths, failures);
    return failures ? 1 : 0;
}

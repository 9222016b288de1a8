/* test_badinput.c - bad arguments return an error and write nothing; bad data marks only its own pair. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_badinput [--seed N] [--scale F]
 *  - every entry point: NULL descriptor / array / output with n > 0 -> SATBOX_ERR_NULL, n = 0 with
 *    NULL everything -> 0, n > SATBOX_MAX_COUNT -> SATBOX_ERR_COUNT, non-finite margin (or a
 *    negative AABB margin) -> SATBOX_ERR_ARG, pair index out of range -> SATBOX_ERR_INDEX, an
 *    output overlapping an input or another output -> SATBOX_ERR_ALIAS; in every error case all outputs (sentinel-filled)
 *    and inputs are left unchanged;
 *  - per-pair bad data (NaN, inf, negative extent, huge coordinates, NaN axes, bad quaternions,
 *    bad pool boxes) marks exactly the pairs that use it: hit 0, bad 1, separation NaN, normal 0,
 *    axis 255, not counted; every other pair has bad 0 and outputs byte-identical to a clean
 *    batch without the poisoned pairs; the same through overlap and collide of every source
 *    (matrix, _q, _one, _pairs, _pairs_rec);
 *  - the contacts entry points (satbox_contacts, _q, _pairs, _pairs_rec) the same way: every bad
 *    argument returns its error and writes none of the 27 outputs nor the list; a bad pair gets
 *    count 0, hit 0, bad 1, axis 255, normal 0 and empty slots, is not counted nor listed, and
 *    every other pair equals, byte for byte, the same pair in a clean batch or computed alone;
 *  - -0.0 extents are valid; denormal inputs are ordinary numbers (no flush to zero). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_util.h"
#include "oracle.h"
#include "support.h"
#include "views.h"

#define SENT 0xA5
#define N 61 /* pairs in the small batches: odd, several SIMD widths plus a tail */

static int failures = 0;
static tb_rng rng;

#include "check.h"

/* ---- a test world: inputs and sentinel-filled outputs ------------------------------------------ */

typedef struct world {
    tb_soa a, b;
    float qa[10][N], qb[10][N]; /* quaternion batches: center 3, half 3, quat 4 */
    satbox_qboxes qva, qvb;
    satbox_box one;
    satbox_pair pairs[N];
    satbox_rec rec[N]; /* the A batch as a record pool */
    /* outputs */
    uint8_t hit[N], axis[N], bad[N];
    float sep[N], nrm[3][N];
    uint32_t list[N];
    float mn[3][N], mx[3][N], ax[3][3][N];
    satbox_result res;
    float *pmn[3], *pmx[3], *pax[3][3];
    float dst[15][N];
    satbox_boxes_out dout;
    satbox_box src[N];
    tc_out co; /* contacts outputs (the list is `list`) */
} world;

static world W;
static unsigned char snapshot_in[sizeof(float) * 15 * N * 2 + sizeof(float) * 20 * N + sizeof(satbox_pair) * N +
                                 sizeof(satbox_box) * (N + 1) + sizeof(satbox_rec) * N];

static void fill_outputs(void)
{
    memset(W.hit, SENT, sizeof W.hit);
    memset(W.bad, SENT, sizeof W.bad);
    memset(W.axis, SENT, sizeof W.axis);
    memset(W.sep, SENT, sizeof W.sep);
    memset(W.nrm, SENT, sizeof W.nrm);
    memset(W.list, SENT, sizeof W.list);
    memset(W.mn, SENT, sizeof W.mn);
    memset(W.mx, SENT, sizeof W.mx);
    memset(W.ax, SENT, sizeof W.ax);
    memset(W.dst, SENT, sizeof W.dst);
    tc_fill(&W.co.view, N, SENT);
}

static int outputs_untouched(void)
{
    const unsigned char *blocks[] = {W.hit,
                                     W.bad,
                                     W.axis,
                                     (const unsigned char *)W.sep,
                                     (const unsigned char *)W.nrm,
                                     (const unsigned char *)W.list,
                                     (const unsigned char *)W.mn,
                                     (const unsigned char *)W.mx,
                                     (const unsigned char *)W.ax,
                                     (const unsigned char *)W.dst};
    const size_t sizes[] = {sizeof W.hit, sizeof W.bad, sizeof W.axis, sizeof W.sep, sizeof W.nrm, sizeof W.list,
                            sizeof W.mn,  sizeof W.mx,   sizeof W.ax,  sizeof W.dst};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (size_t i = 0; i < sizes[k]; i++)
            if (blocks[k][i] != SENT)
                return 0;
    return tc_untouched(&W.co.view, N, SENT);
}

/* All inputs, serialised, to check that an error wrote nothing into them either. */
static size_t snap_inputs(unsigned char *o)
{
    size_t k = 0;
    for (int f = 0; f < 15; f++) {
        memcpy(o + k, W.a.arrays[f], N * sizeof(float)), k += N * sizeof(float);
        memcpy(o + k, W.b.arrays[f], N * sizeof(float)), k += N * sizeof(float);
    }
    memcpy(o + k, W.qa, sizeof W.qa), k += sizeof W.qa;
    memcpy(o + k, W.qb, sizeof W.qb), k += sizeof W.qb;
    memcpy(o + k, W.pairs, sizeof W.pairs), k += sizeof W.pairs;
    memcpy(o + k, &W.one, sizeof W.one), k += sizeof W.one;
    memcpy(o + k, W.src, sizeof W.src), k += sizeof W.src;
    memcpy(o + k, W.rec, sizeof W.rec), k += sizeof W.rec;
    return k;
}

static int inputs_untouched(void)
{
    static unsigned char now[sizeof snapshot_in];
    size_t k = snap_inputs(now);
    return memcmp(now, snapshot_in, k) == 0;
}

static void world_init(void)
{
    if (tb_soa_alloc(&W.a, N) || tb_soa_alloc(&W.b, N))
        exit(2);
    for (int i = 0; i < N; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, TB_UNIFORM, &a, &b);
        tb_soa_set(&W.a, (size_t)i, &a);
        tb_soa_set(&W.b, (size_t)i, &b);
        W.src[i] = a;
        for (int c = 0; c < 3; c++) {
            W.qa[c][i] = a.center[c];
            W.qa[3 + c][i] = a.half[c];
            W.qb[c][i] = b.center[c];
            W.qb[3 + c][i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            W.qa[6 + c][i] = (float)tb_normal(&rng);
            W.qb[6 + c][i] = (float)tb_normal(&rng);
        }
        W.pairs[i].a = (uint32_t)(tb_next(&rng) % N);
        W.pairs[i].b = (uint32_t)(tb_next(&rng) % N);
    }
    for (int f = 0; f < TB_QBOX_FIELDS; f++) {
        *tb_qboxes_slot(&W.qva, f) = W.qa[f];
        *tb_qboxes_slot(&W.qvb, f) = W.qb[f];
    }
    W.one = W.src[0];
    if (satbox_pack_rec(&W.a.view, N, W.rec) != N)
        exit(2);
    tc_alloc(&W.co, N);
    W.res = (satbox_result){W.hit, W.sep, {W.nrm[0], W.nrm[1], W.nrm[2]}, W.axis, W.bad};
    for (int c = 0; c < 3; c++) {
        W.pmn[c] = W.mn[c];
        W.pmx[c] = W.mx[c];
        W.dout.center[c] = W.dst[c];
        W.dout.half[c] = W.dst[3 + c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            W.pax[k][c] = W.ax[k][c];
            W.dout.axis[k][c] = W.dst[6 + 3 * k + c];
        }
    snap_inputs(snapshot_in);
}

/* Runs `call`, expects `want`, and checks that nothing was written. */
#define EXPECT_ERR(want, call)                                                                                         \
    do {                                                                                                               \
        fill_outputs();                                                                                                \
        ptrdiff_t got_ = (ptrdiff_t)(call);                                                                            \
        CHECK(got_ == (ptrdiff_t)(want), "%s: returned %td (%s), expected %d", #call, got_,                            \
              satbox_strerror((int)got_), (int)(want));                                                                \
        CHECK(outputs_untouched(), "%s: wrote into an output after an error", #call);                                  \
        CHECK(inputs_untouched(), "%s: changed an input", #call);                                                      \
    } while (0)

/* A copy of a descriptor with one of its 15 (quaternion form: 10) arrays, index f, set to NULL. */
static satbox_boxes with_null(const satbox_boxes *v, int f)
{
    satbox_boxes d = *v;
    *tb_boxes_slot(&d, f) = NULL;
    return d;
}

static satbox_qboxes with_null_q(const satbox_qboxes *v, int f)
{
    satbox_qboxes d = *v;
    *tb_qboxes_slot(&d, f) = NULL;
    return d;
}

static void test_null(void)
{
    const satbox_boxes *A = &W.a.view, *B = &W.b.view;
    const satbox_qboxes *QA = &W.qva, *QB = &W.qvb;
    const float *const *quat = (const float *const *)W.qva.quat;
    /* NULL descriptors and outputs */
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap(NULL, B, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap(A, NULL, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap(A, B, N, NULL, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide(NULL, B, N, 0.0f, &W.res));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide(A, NULL, N, 0.0f, &W.res));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide(A, B, N, 0.0f, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_q(NULL, QB, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_q(QA, NULL, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_q(QA, QB, N, NULL, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_q(NULL, QB, N, 0.0f, &W.res));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_q(QA, QB, N, 0.0f, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_one(NULL, B, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_one(&W.one, NULL, N, W.hit, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_one(&W.one, B, N, NULL, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_one(NULL, B, N, 0.0f, &W.res));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_one(&W.one, NULL, N, 0.0f, &W.res));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_one(&W.one, B, N, 0.0f, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_pairs(NULL, N, W.pairs, N, W.hit, W.list, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_pairs(A, N, NULL, N, W.hit, W.list, W.bad));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_pairs(NULL, N, W.pairs, N, 0.0f, &W.res, W.list));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_pairs(A, N, NULL, N, 0.0f, &W.res, W.list));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(NULL, N, 0.0f, W.pmn, W.pmx));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(A, N, 0.0f, NULL, W.pmx));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(A, N, 0.0f, W.pmn, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb_q(NULL, N, 0.0f, W.pmn, W.pmx));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb_q(QA, N, 0.0f, NULL, W.pmx));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_axes_from_quat(NULL, N, W.pax));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_axes_from_quat(quat, N, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_pack(NULL, N, &W.dout));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_pack(W.src, N, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_validate(NULL, N, 1e-5f, W.hit));

    /* one NULL array inside a descriptor, each of the 15 (or 10) in turn, on either side */
    for (int f = 0; f < 15; f++) {
        satbox_boxes na = with_null(A, f), nb = with_null(B, f);
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap(&na, B, N, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap(A, &nb, N, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide(&na, B, N, 0.0f, &W.res));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide(A, &nb, N, 0.0f, &W.res));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_one(&W.one, &nb, N, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_one(&W.one, &nb, N, 0.0f, &W.res));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_pairs(&na, N, W.pairs, N, W.hit, W.list, W.bad));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_pairs(&na, N, W.pairs, N, 0.0f, &W.res, W.list));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(&na, N, 0.0f, W.pmn, W.pmx));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_validate(&na, N, 1e-5f, W.hit));
        if (f < 10) {
            satbox_qboxes qa = with_null_q(QA, f), qb = with_null_q(QB, f);
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_q(&qa, QB, N, W.hit, W.bad));
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_overlap_q(QA, &qb, N, W.hit, W.bad));
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_collide_q(QA, &qb, N, 0.0f, &W.res));
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb_q(&qa, N, 0.0f, W.pmn, W.pmx));
        }
    }
    for (int c = 0; c < 4; c++) {
        const float *q4[4] = {W.qva.quat[0], W.qva.quat[1], W.qva.quat[2], W.qva.quat[3]};
        q4[c] = NULL;
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_axes_from_quat(q4, N, W.pax));
    }
    for (int k = 0; k < 9; k++) {
        float *ax[3][3];
        memcpy(ax, W.pax, sizeof ax);
        ax[k / 3][k % 3] = NULL;
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_axes_from_quat(quat, N, ax));
        satbox_boxes_out d = W.dout;
        d.axis[k / 3][k % 3] = NULL;
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_pack(W.src, N, &d));
    }
    for (int c = 0; c < 3; c++) {
        float *mn[3] = {W.mn[0], W.mn[1], W.mn[2]}, *mx[3] = {W.mx[0], W.mx[1], W.mx[2]};
        mn[c] = NULL;
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(A, N, 0.0f, mn, W.pmx));
        mn[c] = W.mn[c];
        mx[c] = NULL;
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_aabb(A, N, 0.0f, W.pmn, mx));
    }

    /* n = 0: fine with NULL everything */
    fill_outputs();
    float *nmn[3] = {NULL, NULL, NULL}, *nax[3][3] = {{NULL}};
    CHECK(satbox_overlap(NULL, NULL, 0, NULL, NULL) == 0, "overlap n=0");
    CHECK(satbox_collide(NULL, NULL, 0, 0.0f, NULL) == 0, "collide n=0");
    CHECK(satbox_overlap_q(NULL, NULL, 0, NULL, NULL) == 0, "overlap_q n=0");
    CHECK(satbox_collide_q(NULL, NULL, 0, 0.0f, NULL) == 0, "collide_q n=0");
    CHECK(satbox_overlap_one(NULL, NULL, 0, NULL, NULL) == 0, "overlap_one n=0");
    CHECK(satbox_collide_one(NULL, NULL, 0, 0.0f, NULL) == 0, "collide_one n=0");
    CHECK(satbox_overlap_pairs(NULL, 0, NULL, 0, NULL, NULL, NULL) == 0, "overlap_pairs n=0");
    CHECK(satbox_collide_pairs(NULL, 0, NULL, 0, 0.0f, NULL, NULL) == 0, "collide_pairs n=0");
    CHECK(satbox_aabb(NULL, 0, 0.0f, NULL, NULL) == 0 && satbox_aabb(NULL, 0, 0.0f, nmn, nmn) == 0, "aabb n=0");
    CHECK(satbox_aabb_q(NULL, 0, 0.0f, NULL, NULL) == 0, "aabb_q n=0");
    CHECK(satbox_axes_from_quat(NULL, 0, NULL) == 0 && satbox_axes_from_quat(NULL, 0, nax) == 0, "axes_from_quat n=0");
    CHECK(satbox_pack(NULL, 0, NULL) == 0, "pack n=0");
    CHECK(satbox_validate(NULL, 0, 1e-5f, NULL) == 0, "validate n=0");
    CHECK(outputs_untouched(), "n = 0 wrote something");

    /* n above SATBOX_MAX_COUNT (only representable with a 64-bit size_t) */
    if ((uint64_t)SIZE_MAX > (uint64_t)SATBOX_MAX_COUNT) {
        size_t big = (size_t)SATBOX_MAX_COUNT + 1;
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_overlap(A, B, big, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_collide(A, B, big, 0.0f, &W.res));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_overlap_q(QA, QB, big, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_overlap_one(&W.one, B, big, W.hit, W.bad));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_overlap_pairs(A, N, W.pairs, big, W.hit, W.list, W.bad));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_overlap_pairs(A, big, W.pairs, N, W.hit, W.list, W.bad));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_aabb(A, big, 0.0f, W.pmn, W.pmx));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_axes_from_quat(quat, big, W.pax));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_pack(W.src, big, &W.dout));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_validate(A, big, 1e-5f, W.hit));
    }
}

static void test_args(void)
{
    const satbox_boxes *A = &W.a.view, *B = &W.b.view;
    const float bad_margins[] = {NAN, INFINITY, -INFINITY};
    for (int m = 0; m < 3; m++) {
        float g = bad_margins[m];
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_collide(A, B, N, g, &W.res));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_collide_q(&W.qva, &W.qvb, N, g, &W.res));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_collide_one(&W.one, B, N, g, &W.res));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_collide_pairs(A, N, W.pairs, N, g, &W.res, W.list));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_aabb(A, N, g, W.pmn, W.pmx));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_aabb_q(&W.qva, N, g, W.pmn, W.pmx));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_validate(A, N, g, W.hit));
    }
    /* a negative AABB margin would turn boxes inside out: refused, down to the smallest denormal */
    const float neg_margins[] = {-1.0f, -1e-30f, -1e-45f};
    for (int m = 0; m < 3; m++) {
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_aabb(A, N, neg_margins[m], W.pmn, W.pmx));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_aabb_q(&W.qva, N, neg_margins[m], W.pmn, W.pmx));
    }
    fill_outputs();
    CHECK(satbox_aabb(A, N, -0.0f, W.pmn, W.pmx) >= 0 && satbox_aabb_q(&W.qva, N, -0.0f, W.pmn, W.pmx) >= 0,
          "AABB margin -0.0 refused");
    /* pair indices: one bad index anywhere (last, first, a or b) -> nothing written at all */
    const size_t where[] = {N - 1, 0, N / 2};
    for (int w = 0; w < 3; w++)
        for (int side = 0; side < 2; side++) {
            satbox_pair save = W.pairs[where[w]];
            uint32_t *p = side ? &W.pairs[where[w]].b : &W.pairs[where[w]].a;
            const uint32_t bad_idx[] = {N, N + 1000, UINT32_MAX};
            for (int k = 0; k < 3; k++) {
                *p = bad_idx[k];
                snap_inputs(snapshot_in);
                EXPECT_ERR(SATBOX_ERR_INDEX, satbox_overlap_pairs(A, N, W.pairs, N, W.hit, W.list, W.bad));
                EXPECT_ERR(SATBOX_ERR_INDEX, satbox_overlap_pairs(A, N, W.pairs, N, NULL, W.list, W.bad));
                EXPECT_ERR(SATBOX_ERR_INDEX, satbox_collide_pairs(A, N, W.pairs, N, 0.0f, &W.res, W.list));
            }
            W.pairs[where[w]] = save;
            snap_inputs(snapshot_in);
        }
    /* a pool smaller than the indices */
    EXPECT_ERR(SATBOX_ERR_INDEX, satbox_overlap_pairs(A, 1, W.pairs, N, W.hit, W.list, W.bad));
    EXPECT_ERR(SATBOX_ERR_INDEX, satbox_overlap_pairs(A, 0, W.pairs, N, W.hit, W.list, W.bad));
}

static void test_alias(void)
{
    const satbox_boxes *A = &W.a.view, *B = &W.b.view;
    float *in_a = W.a.arrays[4], *in_b = W.b.arrays[9];
    /* an output that is an input (whole or one byte in), or another output */
    uint8_t *hit_in = (uint8_t *)in_a + 1;
    satbox_result r;
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap(A, B, N, (uint8_t *)in_a, NULL));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap(A, B, N, hit_in, NULL));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap(A, B, N, (uint8_t *)in_b + 3, NULL));
    /* the optional bad output is checked like the others: against inputs and against hit */
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap(A, B, N, W.hit, (uint8_t *)in_a + 2));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap(A, B, N, W.hit, W.hit + N - 1));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap_pairs(A, N, W.pairs, N, NULL, W.list, (uint8_t *)W.list + 5));
    r = W.res;
    r.bad = W.axis + 3;
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide(A, B, N, 0.0f, &r));
    r.bad = (uint8_t *)W.qb[2];
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide_q(&W.qva, &W.qvb, N, 0.0f, &r));
    r = W.res;
    r.separation = in_b;
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide(A, B, N, 0.0f, &r));
    r = W.res;
    r.normal[1] = W.a.arrays[0] + N / 2; /* half overlaps A's center x */
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide(A, B, N, 0.0f, &r));
    r = W.res;
    r.axis = W.hit + 1; /* two outputs overlapping */
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide(A, B, N, 0.0f, &r));
    r = W.res;
    r.normal[2] = W.sep;
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide(A, B, N, 0.0f, &r));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap_q(&W.qva, &W.qvb, N, (uint8_t *)W.qb[8], NULL));
    r = W.res;
    r.hit = (uint8_t *)W.one.center; /* the one box is an input too */
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide_one(&W.one, B, N, 0.0f, &r));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap_pairs(A, N, W.pairs, N, W.hit, (uint32_t *)W.pairs, NULL));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_overlap_pairs(A, N, W.pairs, N, (uint8_t *)W.list, W.list, W.bad));
    r = W.res;
    r.separation = W.a.arrays[14];
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_collide_pairs(A, N, W.pairs, N, 0.0f, &r, W.list));
    float *mn[3] = {W.mn[0], W.a.arrays[2], W.mn[2]};
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_aabb(A, N, 0.0f, mn, W.pmx));
    float *mx[3] = {W.mx[0], W.mx[1], W.mn[0]};
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_aabb(A, N, 0.0f, W.pmn, mx));
    float *ax[3][3];
    memcpy(ax, W.pax, sizeof ax);
    ax[2][1] = W.qa[7];
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_axes_from_quat((const float *const *)W.qva.quat, N, ax));
    satbox_boxes_out d = W.dout;
    d.half[1] = (float *)(void *)&W.src[N / 2];
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_pack(W.src, N, &d));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_validate(A, N, 1e-5f, (uint8_t *)W.a.arrays[0]));

    /* adjacent but not overlapping is fine: an output that ends right where an input begins */
    static float buf[2 * N];
    memcpy(buf + N, W.a.arrays[0], N * sizeof(float));
    satbox_boxes a2 = *A;
    a2.center[0] = buf + N;
    satbox_result r2 = W.res;
    r2.separation = buf;
    fill_outputs();
    CHECK(satbox_collide(&a2, B, N, 0.0f, &r2) >= 0, "adjacent (non-overlapping) output rejected");
}

/* The contacts entry points: every bad argument returns its error and writes none of the 27
 * outputs nor the list (EXPECT_ERR fills them with SENT and checks them). */
static void test_contacts_args(void)
{
    const satbox_boxes *A = &W.a.view, *B = &W.b.view;
    const satbox_qboxes *QA = &W.qva, *QB = &W.qvb;
    const satbox_contacts_out *O = &W.co.view;
    const satbox_rec *R = W.rec;
    uint32_t *L = W.list;
    /* NULL descriptors, pairs, pools and out */
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts(NULL, B, N, 0.0f, O));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts(A, NULL, N, 0.0f, O));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts(A, B, N, 0.0f, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_q(NULL, QB, N, 0.0f, O));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_q(QA, NULL, N, 0.0f, O));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_q(QA, QB, N, 0.0f, NULL));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs(NULL, N, W.pairs, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs(A, N, NULL, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs(A, N, W.pairs, N, 0.0f, NULL, L));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs_rec(NULL, N, W.pairs, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs_rec(R, N, NULL, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs_rec(R, N, W.pairs, N, 0.0f, NULL, L));
    for (int f = 0; f < 15; f++) {
        satbox_boxes na = with_null(A, f), nb = with_null(B, f);
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts(&na, B, N, 0.0f, O));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts(A, &nb, N, 0.0f, O));
        EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_pairs(&na, N, W.pairs, N, 0.0f, O, L));
        if (f < 10) {
            satbox_qboxes qa = with_null_q(QA, f), qb = with_null_q(QB, f);
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_q(&qa, QB, N, 0.0f, O));
            EXPECT_ERR(SATBOX_ERR_NULL, satbox_contacts_q(QA, &qb, N, 0.0f, O));
        }
    }
    /* n = 0 with NULL everything (and a margin that would be refused) */
    fill_outputs();
    CHECK(satbox_contacts(NULL, NULL, 0, NAN, NULL) == 0 && satbox_contacts_q(NULL, NULL, 0, 0.0f, NULL) == 0 &&
              satbox_contacts_pairs(NULL, 0, NULL, 0, 0.0f, NULL, NULL) == 0 &&
              satbox_contacts_pairs_rec(NULL, 0, NULL, 0, 0.0f, NULL, NULL) == 0,
          "contacts n = 0");
    CHECK(outputs_untouched(), "contacts n = 0 wrote something");
    /* counts above SATBOX_MAX_COUNT (pairs or pool) */
    if ((uint64_t)SIZE_MAX > (uint64_t)SATBOX_MAX_COUNT) {
        size_t big = (size_t)SATBOX_MAX_COUNT + 1;
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts(A, B, big, 0.0f, O));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts_q(QA, QB, big, 0.0f, O));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts_pairs(A, N, W.pairs, big, 0.0f, O, L));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts_pairs(A, big, W.pairs, N, 0.0f, O, L));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts_pairs_rec(R, N, W.pairs, big, 0.0f, O, L));
        EXPECT_ERR(SATBOX_ERR_COUNT, satbox_contacts_pairs_rec(R, big, W.pairs, N, 0.0f, O, L));
    }
    /* non-finite margins */
    const float bad_margins[] = {NAN, INFINITY, -INFINITY};
    for (int m = 0; m < 3; m++) {
        float g = bad_margins[m];
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_contacts(A, B, N, g, O));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_contacts_q(QA, QB, N, g, O));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_contacts_pairs(A, N, W.pairs, N, g, O, L));
        EXPECT_ERR(SATBOX_ERR_ARG, satbox_contacts_pairs_rec(R, N, W.pairs, N, g, O, L));
    }
    /* one pair index outside the pool (last, first, middle; a or b): nothing written at all */
    const size_t where[] = {N - 1, 0, N / 2};
    const uint32_t bad_idx[] = {N, N + 1000, UINT32_MAX};
    for (int w = 0; w < 3; w++)
        for (int side = 0; side < 2; side++) {
            satbox_pair save = W.pairs[where[w]];
            uint32_t *p = side ? &W.pairs[where[w]].b : &W.pairs[where[w]].a;
            for (int k = 0; k < 3; k++) {
                *p = bad_idx[k];
                snap_inputs(snapshot_in);
                EXPECT_ERR(SATBOX_ERR_INDEX, satbox_contacts_pairs(A, N, W.pairs, N, 0.0f, O, L));
                EXPECT_ERR(SATBOX_ERR_INDEX, satbox_contacts_pairs_rec(R, N, W.pairs, N, 0.0f, O, L));
            }
            W.pairs[where[w]] = save;
            snap_inputs(snapshot_in);
        }
    EXPECT_ERR(SATBOX_ERR_INDEX, satbox_contacts_pairs(A, 1, W.pairs, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_INDEX, satbox_contacts_pairs(A, 0, W.pairs, N, 0.0f, O, L));
    EXPECT_ERR(SATBOX_ERR_INDEX, satbox_contacts_pairs_rec(R, 0, W.pairs, N, 0.0f, O, L));
    /* aliasing: each of the 27 outputs over an input (one byte in), over the next output, and the
     * list over an output or the pairs */
    void *arr[TC_NARRAYS];
    tc_arrays(O, arr);
    for (int q = 0; q < TC_NARRAYS; q++) {
        void *save = arr[q];
        arr[q] = (unsigned char *)W.b.arrays[q % 15] + 4 * (size_t)(q % 3);
        satbox_contacts_out o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts(A, B, N, 0.0f, &o));
        arr[q] = (unsigned char *)W.qb[q % 10] + 1;
        o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_q(QA, QB, N, 0.0f, &o));
        arr[q] = (unsigned char *)W.pairs + 8 * (size_t)q;
        o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_pairs(A, N, W.pairs, N, 0.0f, &o, L));
        arr[q] = (unsigned char *)&W.rec[N - 1].half[1];
        o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_pairs_rec(R, N, W.pairs, N, 0.0f, &o, L));
        int next = (q + 1) % TC_NARRAYS;
        arr[q] = (unsigned char *)arr[next] + tc_elem(next) * (N - 1); /* last element of the next output */
        o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts(A, B, N, 0.0f, &o));
        arr[q] = save;
        o = tc_arrays_view(arr);
        EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_pairs(A, N, W.pairs, N, 0.0f, &o, (uint32_t *)arr[q]));
    }
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_pairs(A, N, W.pairs, N, 0.0f, O, (uint32_t *)W.pairs));
    EXPECT_ERR(SATBOX_ERR_ALIAS, satbox_contacts_pairs_rec(R, N, W.pairs, N, 0.0f, O, (uint32_t *)(void *)W.rec));
    /* the same outputs, untouched by every refusal, are accepted as they are */
    fill_outputs();
    CHECK(satbox_contacts_pairs_rec(R, N, W.pairs, N, 0.0f, O, L) >= 0, "contacts: valid call refused");
}

/* ---- per-pair bad data ------------------------------------------------------------------------- */

typedef struct pout {
    uint8_t hit, bad, axis;
    float sep, n[3];
} pout;

static int pout_same(const pout *x, const pout *y)
{
    return x->hit == y->hit && x->bad == y->bad && x->axis == y->axis && memcmp(&x->sep, &y->sep, sizeof x->sep) == 0 &&
           memcmp(x->n, y->n, sizeof x->n) == 0;
}

static int pout_invalid(const pout *x)
{
    return x->hit == 0 && x->bad == 1 && x->axis == SATBOX_AXIS_INVALID && isnan(x->sep) && x->n[0] == 0 &&
           x->n[1] == 0 && x->n[2] == 0;
}

/* collide (with `margin`) + overlap of a batch; returns collide's count; per-pair outputs in o,
 * overlap's hit and bad bytes in ov and ovbad (every output sentinel-filled first, so "not
 * written" shows). */
static ptrdiff_t run_mat(const tb_soa *a, const tb_soa *b, size_t n, float margin, pout *o, uint8_t *ov,
                         uint8_t *ovbad, ptrdiff_t *ocount)
{
    uint8_t *hit = (uint8_t *)malloc(n), *axis = (uint8_t *)malloc(n), *bad = (uint8_t *)malloc(n);
    float *sep = (float *)malloc(n * sizeof(float)), *nn[3];
    for (int c = 0; c < 3; c++)
        nn[c] = (float *)malloc(n * sizeof(float));
    memset(bad, SENT, n);
    memset(ov, SENT, n);
    memset(ovbad, SENT, n);
    satbox_result res = {hit, sep, {nn[0], nn[1], nn[2]}, axis, bad};
    ptrdiff_t r = satbox_collide(&a->view, &b->view, n, margin, &res);
    *ocount = satbox_overlap(&a->view, &b->view, n, ov, ovbad);
    for (size_t i = 0; i < n; i++) {
        o[i].hit = hit[i];
        o[i].bad = bad[i];
        o[i].axis = axis[i];
        o[i].sep = sep[i];
        for (int c = 0; c < 3; c++)
            o[i].n[c] = nn[c][i];
    }
    free(hit);
    free(axis);
    free(bad);
    free(sep);
    for (int c = 0; c < 3; c++)
        free(nn[c]);
    return r;
}

/* hit and bad bytes of one call against the expected bad flags: bad[i] must be exactly
 * want_bad[i] (0 or 1), a bad pair must read hit 0, a good one 0 or 1; the count must be the
 * number of hit bytes equal to 1. */
static void check_hit_bad(const char *what, const uint8_t *hit, const uint8_t *bad, const uint8_t *want_bad, size_t n,
                          ptrdiff_t count)
{
    ptrdiff_t ones = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(bad[i] == want_bad[i], "%s: pair %zu bad %u, expected %u", what, i, bad[i], want_bad[i]);
        CHECK(want_bad[i] ? hit[i] == 0 : hit[i] <= 1, "%s: pair %zu (%s) hit %u", what, i,
              want_bad[i] ? "bad" : "good", hit[i]);
        ones += hit[i] == 1;
    }
    CHECK(count == ones, "%s: returned %td, %td hit bytes are 1", what, count, ones);
}

/* Makes a box invalid by one bad value (kind 0..NPOISON-1). */
static void poison(satbox_box *x, int kind)
{
    float *fields = (float *)x;
    int f = (int)(tb_next(&rng) % 15);
    switch (kind) {
    case 0: fields[f] = NAN; break;
    case 1: fields[f] = (tb_next(&rng) & 1) ? INFINITY : -INFINITY; break;
    case 2: x->half[tb_next(&rng) % 3] = (tb_next(&rng) & 1) ? -1.0f : -1e-30f; break;
    case 3: x->center[tb_next(&rng) % 3] = (tb_next(&rng) & 1) ? 1e30f : -1e30f; break;
    case 4: /* the center offset alone above the pair limit (check >= |t|_1 = |d|_2 for unit axes) */
        x->center[0] = x->center[1] = x->center[2] = 0.6f * SATBOX_PAIR_LIMIT;
        break;
    case 5: /* NaN axes (as from a bad quaternion) */
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                x->axis[k][c] = NAN;
        break;
    case 6: x->axis[tb_next(&rng) % 3][tb_next(&rng) % 3] = 2.0f * SATBOX_PAIR_LIMIT; break; /* |R| sum above the limit */
    case 7: x->half[tb_next(&rng) % 3] = 1.5f * SATBOX_PAIR_LIMIT; break;                   /* extent alone above the limit */
    default: x->half[tb_next(&rng) % 3] = NAN; break;
    }
}
#define NPOISON 9

/* A clean batch of n pairs (ca, cb) and a poisoned batch of m pairs (pa, pb) that interleaves
 * the same pairs, in the same order, with poisoned ones: is_bad[i] (bit 1: A poisoned, bit 2: B)
 * or orig[i], the clean pair's index. */
typedef struct pbatch {
    size_t n, m, nbad;
    tb_soa ca, cb, pa, pb;
    uint8_t *is_bad;
    size_t *orig;
} pbatch;

static void pbatch_make(pbatch *pbt, size_t n)
{
    tb_soa ca, cb, pa, pb;
    size_t m = n + n / 3 + 1;
    tb_soa_alloc(&ca, n);
    tb_soa_alloc(&cb, n);
    tb_soa_alloc(&pa, m);
    tb_soa_alloc(&pb, m);
    uint8_t *is_bad = (uint8_t *)calloc(m, 1);
    size_t *orig = (size_t *)calloc(m, sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, (tb_family)(tb_next(&rng) % TB_BAD), &a, &b); /* every good family */
        tb_soa_set(&ca, i, &a);
        tb_soa_set(&cb, i, &b);
    }
    size_t k = 0, nbad = 0;
    for (size_t i = 0; i < m; i++) {
        satbox_box a, b;
        if (k < n && (i + n - k >= m || tb_next(&rng) % 4 != 0)) {
            tb_soa_get(&ca, k, &a);
            tb_soa_get(&cb, k, &b);
            orig[i] = k++;
        } else {
            tb_make_pair(&rng, TB_UNIFORM, &a, &b);
            int which = 1 + (int)(tb_next(&rng) % 3); /* bit 1: A poisoned, bit 2: B poisoned */
            if (which & 1)
                poison(&a, (int)(tb_next(&rng) % NPOISON));
            if (which & 2) {
                /* The far-center kinds (3, 4) are bad through the offset cB - cA (the pair rule):
                 * two boxes moved to the same far center would be a valid pair, so B takes them
                 * only when A is clean. */
                int kind = (int)(tb_next(&rng) % NPOISON);
                if (which == 3 && (kind == 3 || kind == 4))
                    kind = 0;
                poison(&b, kind);
            }
            is_bad[i] = (uint8_t)which;
            nbad++;
        }
        tb_soa_set(&pa, i, &a);
        tb_soa_set(&pb, i, &b);
    }
    *pbt = (pbatch){n, m, nbad, ca, cb, pa, pb, is_bad, orig};
}

static void pbatch_free(pbatch *p)
{
    free(p->is_bad);
    free(p->orig);
    tb_soa_free(&p->ca);
    tb_soa_free(&p->cb);
    tb_soa_free(&p->pa);
    tb_soa_free(&p->pb);
}

/* 64 quaternion pairs; want[i] = 1 for the pairs given a zero, NaN or infinite quaternion. The
 * arrays q (A) and qq (B) hold center 3, half 3, quat 4. */
static void make_bad_quats(float q[10][64], float qq[10][64], satbox_qboxes *qa, satbox_qboxes *qb, uint8_t want[64])
{
    for (int c = 0; c < 3; c++) {
        qa->center[c] = q[c], qa->half[c] = q[3 + c];
        qb->center[c] = qq[c], qb->half[c] = qq[3 + c];
    }
    for (int c = 0; c < 4; c++)
        qa->quat[c] = q[6 + c], qb->quat[c] = qq[6 + c];
    for (int i = 0; i < 64; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, TB_UNIFORM, &a, &b);
        for (int c = 0; c < 3; c++) {
            q[c][i] = a.center[c], q[3 + c][i] = a.half[c];
            qq[c][i] = b.center[c], qq[3 + c][i] = b.half[c];
        }
        for (int c = 0; c < 4; c++)
            q[6 + c][i] = (float)tb_normal(&rng), qq[6 + c][i] = (float)tb_normal(&rng);
        want[i] = i % 5 == 0;
        if (want[i]) {
            float *t = (i % 10 == 0) ? &q[6][i] : &qq[6][i];
            switch (i % 3) {
            case 0: q[6][i] = q[7][i] = q[8][i] = q[9][i] = 0.0f; break;
            case 1: t[0] = NAN; break;
            default: t[0] = INFINITY; break;
            }
        }
    }
}

/* A pool of PN boxes, every seventh one poisoned (badbox), as SoA and as records, and NP random
 * pairs over it; want[i] = 1 for the pairs that use a poisoned box. */
enum { PN = 40, NP = 300 };
static void make_bad_pool(tb_soa *pool, satbox_rec rec[PN], satbox_pair pairs[NP], uint8_t want[NP])
{
    int badbox[PN];
    tb_soa_alloc(pool, PN);
    for (size_t i = 0; i < PN; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, TB_UNIFORM, &a, &b);
        for (int c = 0; c < 3; c++)
            a.center[c] = (float)tb_range(&rng, -2, 2);
        badbox[i] = i % 7 == 3;
        if (badbox[i])
            poison(&a, (int)(i % NPOISON));
        tb_soa_set(pool, i, &a);
    }
    CHECK(satbox_pack_rec(&pool->view, PN, rec) == (ptrdiff_t)PN, "pack_rec");
    for (int i = 0; i < NP; i++) {
        pairs[i] = (satbox_pair){(uint32_t)(tb_next(&rng) % PN), (uint32_t)(tb_next(&rng) % PN)};
        want[i] = badbox[pairs[i].a] || badbox[pairs[i].b];
    }
}

static void test_bad_data(size_t n)
{
    pbatch pbt;
    pbatch_make(&pbt, n);
    size_t m = pbt.m, nbad = pbt.nbad;
    tb_soa *cb = &pbt.cb, *pb = &pbt.pb;
    const uint8_t *is_bad = pbt.is_bad;
    const size_t *orig = pbt.orig;
    pout *oc = (pout *)malloc(n * sizeof *oc), *op = (pout *)malloc(m * sizeof *op);
    uint8_t *vc = (uint8_t *)malloc(n), *vp = (uint8_t *)malloc(m);
    uint8_t *vbc = (uint8_t *)malloc(n), *vbp = (uint8_t *)malloc(m);
    ptrdiff_t occ, opc;
    ptrdiff_t rc = run_mat(&pbt.ca, cb, n, 0.0f, oc, vc, vbc, &occ);
    ptrdiff_t rp = run_mat(&pbt.pa, pb, m, 0.0f, op, vp, vbp, &opc);
    CHECK(rc == rp && occ == opc && rc == occ,
          "counts: clean collide %td overlap %td, poisoned collide %td overlap %td", rc, occ, rp, opc);
    for (size_t i = 0; i < n; i++)
        CHECK(oc[i].bad == 0 && vbc[i] == 0, "clean pair %zu: collide bad %u, overlap bad %u", i, oc[i].bad, vbc[i]);
    for (size_t i = 0; i < m; i++) {
        if (is_bad[i]) {
            CHECK(pout_invalid(&op[i]) && vp[i] == 0 && vbp[i] == 1,
                  "poisoned pair %zu: hit %u bad %u axis %u sep %g normal (%g %g %g), overlap hit %u bad %u", i,
                  op[i].hit, op[i].bad, op[i].axis, (double)op[i].sep, (double)op[i].n[0], (double)op[i].n[1],
                  (double)op[i].n[2], vp[i], vbp[i]);
        } else {
            size_t j = orig[i];
            CHECK(pout_same(&op[i], &oc[j]) && vp[i] == vc[j] && vbp[i] == vbc[j],
                  "clean pair %zu (batch index %zu) changed by its neighbours", j, i);
        }
    }
    printf("bad data: %zu clean pairs + %zu poisoned, %td hits\n", n, nbad, rc);

    /* The same through the quaternion, one-vs-many and pool entry points, overlap and collide. */
    {
        /* bad quaternions: zero, NaN, inf -> invalid pair */
        static float q[10][64], qq[10][64];
        satbox_qboxes qa, qb;
        uint8_t want[64];
        make_bad_quats(q, qq, &qa, &qb, want);
        uint8_t hit[64], ax[64], ov[64], bad[64], ovbad[64];
        float sep[64], nn[3][64];
        memset(bad, SENT, sizeof bad);
        memset(ovbad, SENT, sizeof ovbad);
        satbox_result res = {hit, sep, {nn[0], nn[1], nn[2]}, ax, bad};
        ptrdiff_t r1 = satbox_collide_q(&qa, &qb, 64, 0.0f, &res), r2 = satbox_overlap_q(&qa, &qb, 64, ov, ovbad);
        check_hit_bad("collide_q", hit, bad, want, 64, r1);
        check_hit_bad("overlap_q", ov, ovbad, want, 64, r2);
        for (int i = 0; i < 64; i++) {
            pout o = {hit[i], bad[i], ax[i], sep[i], {nn[0][i], nn[1][i], nn[2][i]}};
            if (want[i])
                CHECK(pout_invalid(&o), "bad quaternion pair %d not marked invalid", i);
            else
                CHECK(ov[i] == o.hit, "good quaternion pair %d: hit %u overlap %u", i, o.hit, ov[i]);
        }
    }
    {
        /* a bad `one` box: every pair bad, count 0; bad boxes in `many`: only those */
        satbox_box one, x;
        tb_make_pair(&rng, TB_UNIFORM, &one, &x);
        satbox_box bad_one = one;
        poison(&bad_one, 0);
        size_t n1 = N < n ? N : n;
        uint8_t hit[N], bad[N], all[N];
        memset(all, 1, sizeof all);
        memset(bad, SENT, sizeof bad);
        check_hit_bad("overlap_one, bad one-box", hit, bad, all, n1, satbox_overlap_one(&bad_one, &cb->view, n1, hit, bad));
        memset(bad, SENT, sizeof bad);
        satbox_result res = {.hit = hit, .bad = bad};
        check_hit_bad("collide_one, bad one-box", hit, bad, all, n1,
                      satbox_collide_one(&bad_one, &cb->view, n1, 0.0f, &res));
        uint8_t *h1 = (uint8_t *)malloc(m), *b1 = (uint8_t *)malloc(m), *want = (uint8_t *)malloc(m);
        for (size_t i = 0; i < m; i++)
            want[i] = (is_bad[i] & 2) != 0; /* only B comes from the batch */
        memset(b1, SENT, m);
        check_hit_bad("overlap_one", h1, b1, want, m, satbox_overlap_one(&one, &pb->view, m, h1, b1));
        memset(b1, SENT, m);
        res = (satbox_result){.hit = h1, .bad = b1};
        check_hit_bad("collide_one", h1, b1, want, m, satbox_collide_one(&one, &pb->view, m, 0.0f, &res));
        free(h1);
        free(b1);
        free(want);
    }
    {
        /* pool and record pool: the pairs that touch a poisoned box are bad, the others not */
        size_t pn = PN;
        tb_soa pool;
        satbox_rec rec[PN];
        satbox_pair pairs[NP];
        uint8_t hit[NP], bad[NP], want[NP];
        uint32_t list[NP];
        make_bad_pool(&pool, rec, pairs, want);
        for (int form = 0; form < 4; form++) {
            static const char *const names[4] = {"overlap_pairs", "collide_pairs", "overlap_pairs_rec",
                                                  "collide_pairs_rec"};
            satbox_result res = {.hit = hit, .bad = bad};
            memset(hit, SENT, sizeof hit);
            memset(bad, SENT, sizeof bad);
            ptrdiff_t r = form == 0   ? satbox_overlap_pairs(&pool.view, pn, pairs, 300, hit, list, bad)
                          : form == 1 ? satbox_collide_pairs(&pool.view, pn, pairs, 300, 0.0f, &res, list)
                          : form == 2 ? satbox_overlap_pairs_rec(rec, pn, pairs, 300, hit, list, bad)
                                      : satbox_collide_pairs_rec(rec, pn, pairs, 300, 0.0f, &res, list);
            check_hit_bad(names[form], hit, bad, want, 300, r);
            for (ptrdiff_t i = 0; i < r && i < 300; i++)
                CHECK(hit[list[i]] == 1, "%s: compacted list holds pair %u with hit %u", names[form], list[i],
                      hit[list[i]]);
        }
        tb_soa_free(&pool);
    }
    free(oc);
    free(op);
    free(vc);
    free(vp);
    free(vbc);
    free(vbp);
    pbatch_free(&pbt);
}

/* ---- per-pair bad data through the contacts entry points --------------------------------------- */

/* One contacts call of n pairs: the return value is the number of hit bytes equal to 1, the list
 * (if any) holds exactly those pairs in ascending order, every pair has the documented shape and
 * bad exactly want_bad[i] (a bad pair: count 0, hit 0, axis SATBOX_AXIS_INVALID, normal 0, every
 * slot empty). */
static void check_contacts_call(const char *what, const satbox_contacts_out *o, size_t n, ptrdiff_t r,
                                const uint32_t *list, const uint8_t *want_bad)
{
    ptrdiff_t ones = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = tc_shape_error(o, i);
        CHECK(!e, "%s: pair %zu: %s", what, i, e);
        CHECK(o->bad[i] == (want_bad[i] != 0), "%s: pair %zu bad %u, expected %d (count %u, hit %u)", what, i,
              o->bad[i], want_bad[i] != 0, o->count[i], o->hit[i]);
        if (o->hit[i] == 1) {
            CHECK(!list || (ones < r && list[ones] == (uint32_t)i), "%s: list entry %td is not pair %zu", what, ones, i);
            ones++;
        }
    }
    CHECK(r == ones, "%s: returned %td, %td hit bytes are 1", what, r, ones);
}

static satbox_qboxes qboxes_at(const satbox_qboxes *q, size_t i)
{
    satbox_qboxes v = *q;
    for (int c = 0; c < 3; c++)
        v.center[c] += i, v.half[c] += i;
    for (int c = 0; c < 4; c++)
        v.quat[c] += i;
    return v;
}

/* Bad pairs (the poison kinds, bad quaternions, bad pool boxes) through satbox_contacts, _q,
 * _pairs and _pairs_rec: exactly those pairs are marked, and every other pair is byte for byte
 * what it is in the clean batch (matrix) or computed alone (the other forms). */
static void test_contacts_bad_data(size_t n)
{
    const float margin = 0.01f;
    pbatch b;
    pbatch_make(&b, n);
    tc_out oc, op, one;
    tc_alloc(&oc, n);
    tc_alloc(&op, b.m);
    tc_alloc(&one, 1);
    tc_fill(&oc.view, n, SENT);
    tc_fill(&op.view, b.m, SENT);
    uint8_t *none = (uint8_t *)calloc(n ? n : 1, 1);
    ptrdiff_t rc = satbox_contacts(&b.ca.view, &b.cb.view, n, margin, &oc.view);
    ptrdiff_t rp = satbox_contacts(&b.pa.view, &b.pb.view, b.m, margin, &op.view);
    CHECK(rc == rp, "contacts: clean batch counts %td, poisoned batch %td", rc, rp);
    check_contacts_call("contacts, clean batch", &oc.view, n, rc, NULL, none);
    check_contacts_call("contacts, poisoned batch", &op.view, b.m, rp, NULL, b.is_bad);
    for (size_t i = 0; i < b.m; i++)
        if (!b.is_bad[i])
            CHECK(tc_pair_equal(&op.view, i, &oc.view, b.orig[i]), "contacts: clean pair %zu (batch index %zu) changed by its neighbours",
                  b.orig[i], i);
    printf("contacts bad data: %zu clean pairs + %zu poisoned, %td hits\n", n, b.nbad, rc);

    /* quaternions: zero, NaN, infinite */
    static float q[10][64], qq[10][64];
    satbox_qboxes qa, qb;
    uint8_t want[64];
    make_bad_quats(q, qq, &qa, &qb, want);
    tc_out oq;
    tc_alloc(&oq, 64);
    tc_fill(&oq.view, 64, SENT);
    check_contacts_call("contacts_q", &oq.view, 64, satbox_contacts_q(&qa, &qb, 64, margin, &oq.view), NULL, want);
    for (size_t i = 0; i < 64; i++) {
        satbox_qboxes a1 = qboxes_at(&qa, i), b1 = qboxes_at(&qb, i);
        tc_fill(&one.view, 1, SENT);
        satbox_contacts_q(&a1, &b1, 1, margin, &one.view);
        CHECK(tc_pair_equal(&oq.view, i, &one.view, 0), "contacts_q: pair %zu differs from the same pair alone", i);
    }

    /* pool and record pool: the pairs that use a poisoned box */
    tb_soa pool;
    satbox_rec rec[PN];
    satbox_pair pairs[NP];
    uint8_t pwant[NP];
    uint32_t list[NP], rlist[NP];
    make_bad_pool(&pool, rec, pairs, pwant);
    tc_out po, ro;
    tc_alloc(&po, NP);
    tc_alloc(&ro, NP);
    tc_fill(&po.view, NP, SENT);
    tc_fill(&ro.view, NP, SENT);
    ptrdiff_t r1 = satbox_contacts_pairs(&pool.view, PN, pairs, NP, margin, &po.view, list);
    ptrdiff_t r2 = satbox_contacts_pairs_rec(rec, PN, pairs, NP, margin, &ro.view, rlist);
    check_contacts_call("contacts_pairs", &po.view, NP, r1, list, pwant);
    check_contacts_call("contacts_pairs_rec", &ro.view, NP, r2, rlist, pwant);
    for (size_t i = 0; i < NP; i++) {
        CHECK(tc_pair_equal(&po.view, i, &ro.view, i), "contacts_pairs_rec: pair %zu differs from the SoA pool's", i);
        tc_fill(&one.view, 1, SENT);
        satbox_contacts_pairs(&pool.view, PN, pairs + i, 1, margin, &one.view, NULL);
        CHECK(tc_pair_equal(&po.view, i, &one.view, 0), "contacts_pairs: pair %zu differs from the same pair alone", i);
    }
    tb_soa_free(&pool);
    tc_free(&po);
    tc_free(&ro);
    tc_free(&oq);
    tc_free(&oc);
    tc_free(&op);
    tc_free(&one);
    free(none);
    pbatch_free(&b);
}

/* -0.0 extents are valid zero extents; denormal inputs are ordinary numbers. */
static void test_zero_denormal(void)
{
    tb_soa a, b;
    tb_soa_alloc(&a, 4);
    tb_soa_alloc(&b, 4);
    satbox_box A0, B0;
    memset(&A0, 0, sizeof A0);
    memset(&B0, 0, sizeof B0);
    for (int k = 0; k < 3; k++)
        A0.axis[k][k] = B0.axis[k][k] = 1.0f;
    A0.half[0] = A0.half[1] = A0.half[2] = 1.0f;
    /* pair 0: B a flat box with +0.0 extent, overlapping; pair 1: the same with -0.0 */
    B0.center[0] = 0.5f;
    B0.half[0] = 0.25f;
    B0.half[1] = 0.25f;
    B0.half[2] = 0.0f;
    tb_soa_set(&a, 0, &A0);
    tb_soa_set(&b, 0, &B0);
    B0.half[2] = -0.0f;
    tb_soa_set(&a, 1, &A0);
    tb_soa_set(&b, 1, &B0);
    /* pair 2: two points a denormal distance apart: t = 1e-40, all radii 0 -> gap 1e-40 > 0,
     * separated, separation exactly 1e-40 (flushing to zero would make it a contact) */
    satbox_box P, Q;
    memset(&P, 0, sizeof P);
    for (int k = 0; k < 3; k++)
        P.axis[k][k] = 1.0f;
    Q = P;
    Q.center[0] = 1e-40f;
    tb_soa_set(&a, 2, &P);
    tb_soa_set(&b, 2, &Q);
    /* pair 3: denormal extents (points 1e-39 wide) overlapping at the same place */
    P.half[0] = P.half[1] = P.half[2] = 1e-39f;
    Q = P;
    Q.center[0] = 5e-40f;
    tb_soa_set(&a, 3, &P);
    tb_soa_set(&b, 3, &Q);
    pout o[4];
    uint8_t ov[4], ovbad[4];
    ptrdiff_t oc;
    ptrdiff_t r = run_mat(&a, &b, 4, 0.0f, o, ov, ovbad, &oc);
    CHECK(!o[0].bad && !o[1].bad && !o[2].bad && !o[3].bad && !ovbad[0] && !ovbad[1] && !ovbad[2] && !ovbad[3],
          "-0.0 or denormal boxes reported as bad data");
    CHECK(o[0].hit == 1 && o[1].hit == 1, "-0.0 extent: hits %u %u (expected valid overlaps)", o[0].hit, o[1].hit);
    CHECK(o[0].sep == o[1].sep && o[0].axis == o[1].axis, "-0.0 extent changes the result: %g/%u vs %g/%u",
          (double)o[0].sep, o[0].axis, (double)o[1].sep, o[1].axis);
    CHECK(o[2].hit == 0 && o[2].sep == 1e-40f && o[2].axis == 0 && o[2].n[0] == 1.0f,
          "denormal gap: hit %u separation %g axis %u (expected 0, 1e-40, 0)", o[2].hit, (double)o[2].sep, o[2].axis);
    CHECK(o[3].hit == 1 && o[3].sep < 0, "denormal boxes: hit %u separation %g", o[3].hit, (double)o[3].sep);
    CHECK(r == 3 && oc == 3, "denormal batch count %td/%td", r, oc);
    uint8_t bad[4];
    CHECK(satbox_validate(&b.view, 4, 1e-5f, bad) == 0, "validate rejects -0.0 or denormal boxes");
    tb_soa_free(&a);
    tb_soa_free(&b);
}

/* Finite axes that break the orthonormal precondition: no NaN anywhere. The boxes are the ones
 * libFuzzer found (tests/fuzz/fuzz_corpus/crash-348581ad...): B's first axis has a -FLT_MAX component,
 * the pair passes the pair rule (|R| stays bounded) but the world cross product of edge axis 12
 * overflows; its length was infinite and the normal came out NaN with bad = 0. 16 copies so
 * that every lane of every width holds it. */
static void test_absurd_axes(void)
{
    enum { NA = 16 };
    static const satbox_box A0 = {{0x1p-146f, -0x1p-149f, -0x1.cp-96f},
                                  {0x1.ap-146f, 0x1.8p-148f, 0.0f},
                                  {{0x1p+0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0x1.00fb34p-127f}, {0.0f, 0x1.000002p+1f, 0.0f}}};
    static const satbox_box B0 = {{-0x1.3af248p-41f, -0.0f, 0.0f},
                                  {0x1p-149f, 0x1.c6bf5ap-101f, 0x1.8p-148f},
                                  {{0x1.279a74p-1f, 0x1.f3e7dp-32f, -0x1.fffffep+127f},
                                   {-0x1.020408p-2f, 0x1.8b162cp-44f, -0x1.7af5ecp-2f},
                                   {-0x1.8p-148f, -0x1.93264cp-3f, 0x1.cb972ep-1f}}};
    const float margin = 0x1.f8p+0f;
    tb_soa a, b;
    tb_soa_alloc(&a, NA);
    tb_soa_alloc(&b, NA);
    for (size_t i = 0; i < NA; i++) {
        tb_soa_set(&a, i, &A0);
        tb_soa_set(&b, i, &B0);
    }
    pout o[NA];
    uint8_t ov[NA], ovbad[NA];
    ptrdiff_t ocount, r = run_mat(&a, &b, NA, margin, o, ov, ovbad, &ocount);
    tc_out co;
    tc_alloc(&co, NA);
    tc_fill(&co.view, NA, SENT);
    ptrdiff_t rc = satbox_contacts(&a.view, &b.view, NA, margin, &co.view);
    CHECK(r == NA && rc == NA, "absurd axes: collide %td, contacts %td pairs hit (expected %d each)", r, rc, (int)NA);
    for (size_t i = 0; i < NA; i++) {
        CHECK(o[i].bad == 0 && o[i].hit == 1 && o[i].axis == 12 && !isnan(o[i].sep) && ovbad[i] == 0,
              "absurd axes: pair %zu bad %u hit %u axis %u separation %g, overlap bad %u (expected 0, 1, 12, a "
              "number, 0)", i, o[i].bad, o[i].hit, o[i].axis, (double)o[i].sep, ovbad[i]);
        for (int c = 0; c < 3; c++) {
            CHECK(o[i].n[c] == 0.0f, "absurd axes: collide pair %zu normal[%d] = %g (expected 0: overflowing edge)",
                  i, c, (double)o[i].n[c]);
            CHECK(co.normal[c][i] == 0.0f, "absurd axes: contacts pair %zu normal[%d] = %g (expected 0)", i, c,
                  (double)co.normal[c][i]);
        }
        CHECK(co.count[i] >= 1 && co.count[i] <= 4 && co.bad[i] == 0, "absurd axes: contacts pair %zu count %u bad %u",
              i, co.count[i], co.bad[i]);
        for (int k = 0; k < 4; k++) {
            CHECK(!isnan(co.depth[k][i]), "absurd axes: contacts pair %zu depth[%d] is NaN", i, k);
            for (int c = 0; c < 3; c++)
                CHECK(!isnan(co.point[k][c][i]), "absurd axes: contacts pair %zu point[%d][%d] is NaN", i, k, c);
        }
    }
    tc_free(&co);
    tb_soa_free(&a);
    tb_soa_free(&b);
}

int main(int argc, char **argv)
{
    double mult;
    tb_seed(&rng, orc_cli(argc, argv, "test_badinput", 0xBAD1ull, 4.0, &mult));
    world_init();
    test_null();
    test_args();
    test_alias();
    test_contacts_args();
    test_bad_data(orc_count(20000, mult, 300));
    test_contacts_bad_data(orc_count(20000, mult, 300));
    test_zero_denormal();
    test_absurd_axes();
    return check_report(failures);
}

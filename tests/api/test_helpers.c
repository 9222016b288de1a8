/* test_helpers.c - quaternion, AABB, pack, validate, _q/_one/_pairs entry points and ISA control. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_helpers [--seed N] [--scale F]
 * Every helper against an independent double-precision formula or against the plain entry point
 * it is documented to equal (bit for bit where the header says "same bits"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_sources.h"
#include "oracle.h"
#include "support.h"

static int failures = 0;

#include "check.h"

static tb_rng rng;

/* Quaternion batches: tb_qsoa (support.c), zero-filled; a failed allocation ends the test. */
static void qsoa_alloc(tb_qsoa *q, size_t n)
{
    if (tb_qsoa_alloc(q, n))
        exit(2);
}

/* A random quaternion of random length 10^U(-3, 3), occasionally an invalid one. */
static void random_quat(float q[4], int allow_bad)
{
    double s = pow(10.0, tb_range(&rng, -3, 3));
    for (int c = 0; c < 4; c++)
        q[c] = (float)(tb_normal(&rng) * s);
    if (allow_bad && tb_next(&rng) % 16 == 0) {
        static const float bad[] = {NAN, INFINITY, -INFINITY};
        if (tb_next(&rng) & 1)
            q[0] = q[1] = q[2] = q[3] = 0.0f;
        else
            q[tb_next(&rng) % 4] = bad[tb_next(&rng) % 3];
    }
}

/* Axes of the quaternion (x, y, z, w) normalised, in double: axis k = column k of the rotation. */
static void quat_ref(const float q[4], double m[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3], n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y + w * z), m[0][2] = 2 * (x * z - w * y);
    m[1][0] = 2 * (x * y - w * z), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z + w * x);
    m[2][0] = 2 * (x * z + w * y), m[2][1] = 2 * (y * z - w * x), m[2][2] = 1 - 2 * (x * x + y * y);
}

static void axis_ptrs(tb_soa *s, float *axis[3][3])
{
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = s->out.axis[k][c];
}

/* ---- satbox_axes_from_quat ------------------------------------------------------------------ */

static void test_axes_from_quat(size_t n)
{
    tb_qsoa q;
    tb_soa s;
    qsoa_alloc(&q, n);
    tb_soa_alloc(&s, n);
    size_t expect_bad = 0;
    for (size_t i = 0; i < n; i++) {
        float v[4];
        random_quat(v, 1);
        for (int c = 0; c < 4; c++)
            q.arrays[6 + c][i] = v[c];
        int finite = isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && isfinite(v[3]);
        expect_bad += !finite || (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0);
    }
    float *axis[3][3];
    axis_ptrs(&s, axis);
    ptrdiff_t bad = satbox_axes_from_quat((const float *const *)q.view.quat, n, axis);
    CHECK(bad == (ptrdiff_t)expect_bad, "axes_from_quat returned %td invalid, expected %zu", bad, expect_bad);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        float v[4] = {q.arrays[6][i], q.arrays[7][i], q.arrays[8][i], q.arrays[9][i]};
        int finite = isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && isfinite(v[3]);
        int zero = v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0;
        if (!finite || zero) {
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    CHECK(isnan(axis[k][c][i]), "quat %zu (%g %g %g %g) invalid but axis[%d][%d] = %g", i, (double)v[0],
                          (double)v[1], (double)v[2], (double)v[3], k, c, (double)axis[k][c][i]);
            continue;
        }
        double m[3][3];
        quat_ref(v, m);
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++) {
                double e = fabs(axis[k][c][i] - m[k][c]);
                worst = fmax(worst, e);
                CHECK(e <= 1e-6, "quat %zu (%a %a %a %a): axis[%d][%d] = %.9g, expected %.9g", i, (double)v[0],
                      (double)v[1], (double)v[2], (double)v[3], k, c, (double)axis[k][c][i], m[k][c]);
            }
    }
    printf("axes_from_quat: %zu quaternions (lengths 1e-3..1e3, %zu invalid), max error %.3g\n", n, expect_bad, worst);

    /* The header's range: |q|^2 in [SATBOX_QUAT_MIN_NORM2, SATBOX_QUAT_MAX_NORM2] is normalised,
     * outside it the box is invalid (NaN axes, counted). Lengths on both sides of both ends. */
    static const double lens[] = {1e-16, 0.9e-15, 1.2e-15, 1e-12, 1e-6, 1.0, 1e6, 1e12, 0.8e15, 1.1e15, 1e16};
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        float v[4] = {(float)(0.5 * lens[l]), (float)(-0.5 * lens[l]), (float)(0.1 * lens[l]), (float)(0.7 * lens[l])};
        const float *qp[4] = {&v[0], &v[1], &v[2], &v[3]};
        float out[3][3], *op[3][3];
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                op[k][c] = &out[k][c];
        ptrdiff_t r = satbox_axes_from_quat(qp, 1, op);
        /* |q|^2 as the library sees it (float squares), to place the case against the bounds. */
        double n2 = 0;
        for (int c = 0; c < 4; c++)
            n2 += (double)v[c] * v[c];
        int in_range = n2 >= 1.0001 * SATBOX_QUAT_MIN_NORM2 && n2 <= 0.9999 * SATBOX_QUAT_MAX_NORM2;
        int out_range = n2 < 0.9999 * SATBOX_QUAT_MIN_NORM2 || n2 > 1.0001 * SATBOX_QUAT_MAX_NORM2;
        double m[3][3], e = 0;
        quat_ref(v, m);
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                e = fmax(e, fabs(out[k][c] - m[k][c]));
        if (in_range)
            CHECK(r == 0 && e <= 1e-6, "quaternion of length %g (inside the documented range): returned %td "
                  "invalid, axis error %g (axis[0] = %g %g %g)",
                  lens[l], r, e, (double)out[0][0], (double)out[0][1], (double)out[0][2]);
        else if (out_range)
            CHECK(r == 1 && isnan(out[0][0]) && isnan(out[2][2]),
                  "quaternion of length %g (outside the documented range): returned %td invalid, axis[0][0] = %g",
                  lens[l], r, (double)out[0][0]);
    }
    tb_qsoa_free(&q);
    tb_soa_free(&s);
}

/* ---- satbox_aabb / satbox_aabb_q ------------------------------------------------------------- */

static void random_boxes(tb_soa *s, size_t n, int with_bad)
{
    static const tb_family fams[] = {TB_UNIFORM, TB_SCALES, TB_FLAT, TB_BAD};
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, fams[tb_next(&rng) % (with_bad ? 4 : 3)], &a, &b);
        tb_soa_set(s, i, (tb_next(&rng) & 1) ? &a : &b);
    }
}

static int valid_box(const satbox_box *b)
{
    /* The validity rule of satbox.h, in double. */
    double size = 0, asum = 0;
    for (int c = 0; c < 3; c++) {
        if (!(b->half[c] >= 0))
            return 0;
        size += fabs(b->center[c]) + b->half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum += fabs(b->axis[k][c]);
    return size <= (double)SATBOX_COORD_LIMIT && asum <= (double)SATBOX_AXIS_SUM_LIMIT;
}

static void test_aabb(size_t n)
{
    tb_soa s;
    tb_soa_alloc(&s, n);
    random_boxes(&s, n, 1);
    float *mn[3], *mx[3], *mn2[3], *mx2[3];
    for (int c = 0; c < 3; c++) {
        mn[c] = (float *)malloc(n * sizeof(float));
        mx[c] = (float *)malloc(n * sizeof(float));
        mn2[c] = (float *)malloc(n * sizeof(float));
        mx2[c] = (float *)malloc(n * sizeof(float));
    }
    ptrdiff_t valid = satbox_aabb(&s.view, n, 0.0f, mn, mx);
    size_t expect_valid = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        satbox_box b;
        tb_soa_get(&s, i, &b);
        if (!valid_box(&b)) {
            for (int c = 0; c < 3; c++)
                CHECK(mn[c][i] == INFINITY && mx[c][i] == -INFINITY,
                      "invalid box %zu: aabb [%g, %g], expected [+inf, -inf]", i, (double)mn[c][i], (double)mx[c][i]);
            continue;
        }
        expect_valid++;
        double size = 0;
        for (int c = 0; c < 3; c++)
            size += fabs(b.center[c]) + b.half[c];
        for (int c = 0; c < 3; c++) {
            double lo = INFINITY, hi = -INFINITY;
            for (int m = 0; m < 8; m++) {
                double p = b.center[c];
                for (int k = 0; k < 3; k++)
                    p += ((m >> k) & 1 ? 1.0 : -1.0) * b.half[k] * b.axis[k][c];
                lo = fmin(lo, p);
                hi = fmax(hi, p);
            }
            double tol = 8 * 5.96e-8 * size; /* a few float roundings of c +- sum |u| h */
            worst = fmax(worst, fmax(fabs(mn[c][i] - lo), fabs(mx[c][i] - hi)) / (size > 0 ? size : 1));
            CHECK(fabs(mn[c][i] - lo) <= tol && fabs(mx[c][i] - hi) <= tol,
                  "box %zu coord %d: aabb [%.9g, %.9g], corners [%.9g, %.9g]", i, c, (double)mn[c][i], (double)mx[c][i],
                  lo, hi);
            /* conservative: every corner inside, up to one rounding of the bound */
            double slack = 2 * 5.96e-8 * size;
            CHECK(mn[c][i] <= lo + slack && mx[c][i] >= hi - slack, "box %zu coord %d: a corner is outside its aabb", i,
                  c);
        }
    }
    CHECK(valid == (ptrdiff_t)expect_valid, "aabb returned %td valid, expected %zu", valid, expect_valid);
    printf("aabb: %zu boxes (%zu valid), max error %.3g S\n", n, expect_valid, worst);

    /* margin: min - m, max + m (one more rounding) */
    const float margins[] = {0.25f, 3.0f, 1e-3f};
    for (size_t k = 0; k < 3; k++) {
        float m = margins[k];
        ptrdiff_t v2 = satbox_aabb(&s.view, n, m, mn2, mx2);
        CHECK(v2 == valid, "aabb margin %g returned %td, without %td", (double)m, v2, valid);
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) {
                if (mn[c][i] == INFINITY) {
                    CHECK(mn2[c][i] == INFINITY && mx2[c][i] == -INFINITY, "invalid box %zu fattened", i);
                    continue;
                }
                double elo = (double)mn[c][i] - m, ehi = (double)mx[c][i] + m;
                double tol = 2 * 5.96e-8 * (fabs(elo) + fabs(ehi) + m);
                CHECK(fabs(mn2[c][i] - elo) <= tol && fabs(mx2[c][i] - ehi) <= tol,
                      "box %zu coord %d margin %g: [%.9g, %.9g], expected [%.9g, %.9g]", i, c, (double)m,
                      (double)mn2[c][i], (double)mx2[c][i], elo, ehi);
            }
    }
    CHECK(satbox_aabb(&s.view, n, NAN, mn2, mx2) == SATBOX_ERR_ARG, "NaN margin accepted");
    CHECK(satbox_aabb(&s.view, n, INFINITY, mn2, mx2) == SATBOX_ERR_ARG, "inf margin accepted");

    /* aabb_q == axes_from_quat then aabb, bit for bit */
    tb_qsoa q;
    qsoa_alloc(&q, n);
    for (size_t i = 0; i < n; i++) {
        float v[4];
        random_quat(v, 1);
        for (int c = 0; c < 3; c++) {
            q.arrays[c][i] = s.out.center[c][i];
            q.arrays[3 + c][i] = s.out.half[c][i];
        }
        for (int c = 0; c < 4; c++)
            q.arrays[6 + c][i] = v[c];
    }
    tb_soa conv;
    tb_soa_alloc(&conv, n);
    float *axis[3][3];
    axis_ptrs(&conv, axis);
    satbox_axes_from_quat((const float *const *)q.view.quat, n, axis);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            conv.out.center[c][i] = q.arrays[c][i];
            conv.out.half[c][i] = q.arrays[3 + c][i];
        }
    for (int k = 0; k < 2; k++) {
        float m = k ? 0.5f : 0.0f;
        ptrdiff_t r1 = satbox_aabb_q(&q.view, n, m, mn, mx);
        ptrdiff_t r2 = satbox_aabb(&conv.view, n, m, mn2, mx2);
        CHECK(r1 == r2, "aabb_q returned %td, converted aabb %td", r1, r2);
        for (int c = 0; c < 3; c++)
            CHECK(memcmp(mn[c], mn2[c], n * sizeof(float)) == 0 && memcmp(mx[c], mx2[c], n * sizeof(float)) == 0,
                  "aabb_q differs from axes_from_quat + aabb (coord %d, margin %g)", c, (double)m);
    }
    tb_qsoa_free(&q);
    tb_soa_free(&conv);
    for (int c = 0; c < 3; c++) {
        free(mn[c]);
        free(mx[c]);
        free(mn2[c]);
        free(mx2[c]);
    }
    tb_soa_free(&s);
}

/* ---- satbox_pack, satbox_validate ------------------------------------------------------------ */

static void test_pack_validate(size_t n)
{
    satbox_box *src = (satbox_box *)malloc(n * sizeof *src);
    tb_soa s;
    tb_soa_alloc(&s, n);
    uint8_t *bad = (uint8_t *)malloc(n), *want = (uint8_t *)malloc(n);
    size_t nbad = 0;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, TB_UNIFORM, &a, &b);
        want[i] = 0;
        switch (tb_next(&rng) % 6) {
        case 0: /* invalid data */
            a.half[tb_next(&rng) % 3] = -1.0f;
            want[i] = 1;
            break;
        case 1:
            a.center[tb_next(&rng) % 3] = NAN;
            want[i] = 1;
            break;
        case 2: /* an axis 1% too long */
            for (int c = 0; c < 3; c++)
                a.axis[1][c] *= 1.01f;
            want[i] = 2;
            break;
        case 3: /* axis 2 replaced by axis 0: not orthogonal */
            memcpy(a.axis[2], a.axis[0], sizeof a.axis[0]);
            want[i] = 2;
            break;
        default: break;
        }
        nbad += want[i] != 0;
        src[i] = a;
    }
    CHECK(satbox_pack(src, n, &s.out) == (ptrdiff_t)n, "pack did not return n");
    for (size_t i = 0; i < n; i++) {
        satbox_box b;
        tb_soa_get(&s, i, &b);
        CHECK(memcmp(&b, &src[i], sizeof b) == 0, "pack: box %zu differs", i);
    }
    ptrdiff_t r = satbox_validate(&s.view, n, 1e-5f, bad);
    CHECK(r == (ptrdiff_t)nbad, "validate returned %td, expected %zu", r, nbad);
    for (size_t i = 0; i < n; i++)
        CHECK(bad[i] == want[i], "validate: box %zu code %u, expected %u", i, bad[i], want[i]);
    CHECK(satbox_validate(&s.view, n, 1e-5f, NULL) == (ptrdiff_t)nbad, "validate with bad = NULL");
    /* A loose tolerance still flags the bad data and the duplicated axes, not the 1% long ones. */
    CHECK(satbox_validate(&s.view, n, 0.5f, NULL) >= (ptrdiff_t)(nbad / 2), "validate with a loose tolerance");
    CHECK(satbox_validate(&s.view, n, -1.0f, bad) == SATBOX_ERR_ARG, "negative tolerance accepted");
    CHECK(satbox_validate(&s.view, n, NAN, bad) == SATBOX_ERR_ARG, "NaN tolerance accepted");
    printf("pack + validate: %zu boxes, %zu flagged\n", n, nbad);
    free(src);
    free(bad);
    free(want);
    tb_soa_free(&s);
}

/* ---- _q, _one, _pairs against the plain entry points ----------------------------------------- */

typedef struct outs {
    size_t n;
    uint8_t *hit, *axis, *ovl;
    float *sep, *nrm[3];
    uint32_t *list;
    satbox_result res;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    o->n = n;
    o->hit = (uint8_t *)malloc(n);
    o->axis = (uint8_t *)malloc(n);
    o->ovl = (uint8_t *)malloc(n);
    o->sep = (float *)malloc(n * sizeof(float));
    o->list = (uint32_t *)malloc(n * sizeof(uint32_t));
    for (int c = 0; c < 3; c++)
        o->nrm[c] = (float *)malloc(n * sizeof(float));
    o->res = (satbox_result){o->hit, o->sep, {o->nrm[0], o->nrm[1], o->nrm[2]}, o->axis, NULL};
}

static void outs_free(outs *o)
{
    free(o->hit);
    free(o->axis);
    free(o->ovl);
    free(o->sep);
    free(o->list);
    for (int c = 0; c < 3; c++)
        free(o->nrm[c]);
}

static int outs_equal(const outs *x, const outs *y, size_t n)
{
    int eq = memcmp(x->hit, y->hit, n) == 0 && memcmp(x->axis, y->axis, n) == 0 &&
             memcmp(x->sep, y->sep, n * sizeof(float)) == 0;
    for (int c = 0; c < 3; c++)
        eq = eq && memcmp(x->nrm[c], y->nrm[c], n * sizeof(float)) == 0;
    return eq;
}

/* A form of the API (job f) against the plain batch functions on the same pairs (job m): the same
 * counts and every output of overlap, and of collide at each margin. Returns the last collide count. */
static ptrdiff_t expect_as_batch(const sbx_job *f, const sbx_job *m, const float *margins, int nm, const char *what)
{
    size_t n = f->n;
    outs o1, o2;
    outs_alloc(&o1, n);
    outs_alloc(&o2, n);
    ptrdiff_t r1 = tb_api_overlap(f, o1.ovl, NULL, NULL), r2 = tb_api_overlap(m, o2.ovl, NULL, NULL);
    CHECK(r1 == r2 && memcmp(o1.ovl, o2.ovl, n) == 0, "overlap%s (%td vs %td)", what, r1, r2);
    for (int k = 0; k < nm; k++) {
        sbx_job fk = *f, mk = *m;
        fk.margin = mk.margin = margins[k];
        r1 = tb_api_collide(&fk, &o1.res, NULL);
        r2 = tb_api_collide(&mk, &o2.res, NULL);
        CHECK(r1 == r2 && outs_equal(&o1, &o2, n), "collide%s (margin %g: %td vs %td)", what, (double)margins[k], r1,
              r2);
    }
    outs_free(&o1);
    outs_free(&o2);
    return r1;
}

static void test_q(size_t n)
{
    tb_qsoa qa, qb;
    qsoa_alloc(&qa, n);
    qsoa_alloc(&qb, n);
    tb_soa ca, cb;
    tb_soa_alloc(&ca, n);
    tb_soa_alloc(&cb, n);
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, TB_UNIFORM, &a, &b);
        float va[4], vb[4];
        random_quat(va, 1);
        random_quat(vb, 1);
        tb_qsoa_set(&qa, i, &a, va);
        tb_qsoa_set(&qb, i, &b, vb);
    }
    float *axa[3][3], *axb[3][3];
    axis_ptrs(&ca, axa);
    axis_ptrs(&cb, axb);
    satbox_axes_from_quat((const float *const *)qa.view.quat, n, axa);
    satbox_axes_from_quat((const float *const *)qb.view.quat, n, axb);
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            ca.out.center[c][i] = qa.arrays[c][i];
            ca.out.half[c][i] = qa.arrays[3 + c][i];
            cb.out.center[c][i] = qb.arrays[c][i];
            cb.out.half[c][i] = qb.arrays[3 + c][i];
        }
    const float margins[] = {0.0f, 0.3f, -0.1f};
    ptrdiff_t r = expect_as_batch(&(sbx_job){.src = SBX_SRC_QUAT, .n = n, .qa = &qa.view, .qb = &qb.view},
                                  &(sbx_job){.src = SBX_SRC_MAT, .n = n, .ma = &ca.view, .mb = &cb.view}, margins, 3,
                                  "_q differs from converting first");
    printf("overlap_q/collide_q: %zu pairs, %td hits\n", n, r);
    tb_qsoa_free(&qa);
    tb_qsoa_free(&qb);
    tb_soa_free(&ca);
    tb_soa_free(&cb);
}

static void test_one(size_t n)
{
    tb_soa rep, many;
    tb_soa_alloc(&rep, n);
    tb_soa_alloc(&many, n);
    for (int trial = 0; trial < 4; trial++) {
        satbox_box one, x;
        tb_make_pair(&rng, trial == 3 ? TB_BAD : TB_UNIFORM, &one, &x);
        for (size_t i = 0; i < n; i++) {
            satbox_box a, b;
            tb_make_pair(&rng, trial == 2 ? TB_BAD : TB_UNIFORM, &a, &b);
            for (int c = 0; c < 3; c++) /* around `one` */
                b.center[c] = one.center[c] + (b.center[c] - a.center[c]);
            tb_soa_set(&many, i, &b);
            tb_soa_set(&rep, i, &one);
        }
        char what[64];
        snprintf(what, sizeof what, "_one differs from the repeated batch (trial %d)", trial);
        expect_as_batch(&(sbx_job){.src = SBX_SRC_ONE, .n = n, .one = &one, .mb = &many.view},
                        &(sbx_job){.src = SBX_SRC_MAT, .n = n, .ma = &rep.view, .mb = &many.view}, (const float[]){0.05f},
                        1, what);
    }
    printf("overlap_one/collide_one: %zu pairs x 4\n", n);
    tb_soa_free(&rep);
    tb_soa_free(&many);
}

static void check_list(const uint8_t *hit, size_t n, const uint32_t *list, ptrdiff_t count, const char *what)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (hit[i] == 1) {
            CHECK(k < (size_t)(count > 0 ? count : 0) && list[k] == i,
                  "%s: compacted list entry %zu is %u, expected %zu", what, k,
                  k < (size_t)(count > 0 ? count : 0) ? list[k] : 0u, i);
            k++;
        }
    CHECK((ptrdiff_t)k == count, "%s: returned %td, %zu pairs have hit 1", what, count, k);
}

static void test_pairs(size_t pool_n, size_t n)
{
    tb_soa pool, ga, gb;
    tb_soa_alloc(&pool, pool_n);
    tb_soa_alloc(&ga, n);
    tb_soa_alloc(&gb, n);
    for (size_t i = 0; i < pool_n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, (tb_next(&rng) % 8) ? TB_UNIFORM : TB_BAD, &a, &b);
        for (int c = 0; c < 3; c++) /* a small world: many overlaps */
            a.center[c] = (float)tb_range(&rng, -3, 3);
        tb_soa_set(&pool, i, &a);
    }
    satbox_pair *pairs = (satbox_pair *)malloc(n * sizeof *pairs);
    for (size_t i = 0; i < n; i++) {
        pairs[i].a = (uint32_t)(tb_next(&rng) % pool_n);
        pairs[i].b = (tb_next(&rng) % 10 == 0) ? pairs[i].a : (uint32_t)(tb_next(&rng) % pool_n); /* a == b too */
        satbox_box a, b;
        tb_soa_get(&pool, pairs[i].a, &a);
        tb_soa_get(&pool, pairs[i].b, &b);
        tb_soa_set(&ga, i, &a);
        tb_soa_set(&gb, i, &b);
    }
    outs o1, o2;
    outs_alloc(&o1, n);
    outs_alloc(&o2, n);
    ptrdiff_t r2 = satbox_overlap(&ga.view, &gb.view, n, o2.ovl, NULL);
    ptrdiff_t r1 = satbox_overlap_pairs(&pool.view, pool_n, pairs, n, o1.ovl, o1.list, NULL);
    CHECK(r1 == r2 && memcmp(o1.ovl, o2.ovl, n) == 0, "overlap_pairs differs from the gathered batch (%td vs %td)", r1,
          r2);
    check_list(o2.ovl, n, o1.list, r1, "overlap_pairs");
    r1 = satbox_overlap_pairs(&pool.view, pool_n, pairs, n, NULL, o1.list, NULL);
    check_list(o2.ovl, n, o1.list, r1, "overlap_pairs (hit NULL)");
    r1 = satbox_overlap_pairs(&pool.view, pool_n, pairs, n, o1.ovl, NULL, NULL);
    CHECK(r1 == r2 && memcmp(o1.ovl, o2.ovl, n) == 0, "overlap_pairs (list NULL)");
    const float margins[] = {0.0f, 0.2f};
    for (int m = 0; m < 2; m++) {
        r2 = satbox_collide(&ga.view, &gb.view, n, margins[m], &o2.res);
        r1 = satbox_collide_pairs(&pool.view, pool_n, pairs, n, margins[m], &o1.res, o1.list);
        CHECK(r1 == r2 && outs_equal(&o1, &o2, n), "collide_pairs differs from the gathered batch (margin %g)",
              (double)margins[m]);
        check_list(o2.hit, n, o1.list, r1, "collide_pairs");
        r1 = satbox_collide_pairs(&pool.view, pool_n, pairs, n, margins[m], NULL, o1.list);
        check_list(o2.hit, n, o1.list, r1, "collide_pairs (res NULL)");
    }
    printf("overlap_pairs/collide_pairs: pool %zu, %zu pairs, %td hits\n", pool_n, n, r1);

    /* The same pool as 64-byte records: packed fields equal, and the same bits as the gathered batch. */
    satbox_rec *rec = (satbox_rec *)malloc(pool_n * sizeof *rec);
    CHECK(satbox_pack_rec(&pool.view, pool_n, rec) == (ptrdiff_t)pool_n, "pack_rec count");
    for (size_t i = 0; i < pool_n; i++) {
        satbox_box b;
        tb_soa_get(&pool, i, &b);
        CHECK(memcmp(rec[i].center, b.center, sizeof b.center) == 0 && memcmp(rec[i].half, b.half, sizeof b.half) == 0 &&
                  memcmp(rec[i].axis, b.axis, sizeof b.axis) == 0,
              "pack_rec: record %zu differs from the SoA box", i);
    }
    r2 = satbox_overlap(&ga.view, &gb.view, n, o2.ovl, NULL);
    r1 = satbox_overlap_pairs_rec(rec, pool_n, pairs, n, o1.ovl, o1.list, NULL);
    CHECK(r1 == r2 && memcmp(o1.ovl, o2.ovl, n) == 0, "overlap_pairs_rec differs from the gathered batch");
    check_list(o2.ovl, n, o1.list, r1, "overlap_pairs_rec");
    for (int m = 0; m < 2; m++) {
        r2 = satbox_collide(&ga.view, &gb.view, n, margins[m], &o2.res);
        r1 = satbox_collide_pairs_rec(rec, pool_n, pairs, n, margins[m], &o1.res, o1.list);
        CHECK(r1 == r2 && outs_equal(&o1, &o2, n), "collide_pairs_rec differs from the gathered batch (margin %g)",
              (double)margins[m]);
        check_list(o2.hit, n, o1.list, r1, "collide_pairs_rec");
    }
    /* Bad arguments: an index past the pool, a NULL pool, an output inside the pool; nothing written. */
    if (n > 0) {
        satbox_pair keep = pairs[n - 1];
        pairs[n - 1].b = (uint32_t)pool_n;
        memset(o1.ovl, 0xA5, n);
        CHECK(satbox_overlap_pairs_rec(rec, pool_n, pairs, n, o1.ovl, NULL, NULL) == SATBOX_ERR_INDEX && o1.ovl[0] == 0xA5,
              "overlap_pairs_rec: index == pool_n must be SATBOX_ERR_INDEX with nothing written");
        pairs[n - 1] = keep;
        CHECK(satbox_overlap_pairs_rec(NULL, pool_n, pairs, n, o1.ovl, NULL, NULL) == SATBOX_ERR_NULL, "rec NULL");
        CHECK(satbox_overlap_pairs_rec(rec, pool_n, pairs, n, (uint8_t *)rec, NULL, NULL) == SATBOX_ERR_ALIAS,
              "hit inside the record pool must be SATBOX_ERR_ALIAS");
    }
    free(rec);
    outs_free(&o1);
    outs_free(&o2);
    free(pairs);
    tb_soa_free(&pool);
    tb_soa_free(&ga);
    tb_soa_free(&gb);
}

/* ---- ISA control ------------------------------------------------------------------------------ */

static void test_isa(size_t n)
{
    static const int widths[] = {1, 4, 8, 16, 4}; /* the expected widths, written out */
    _Static_assert(sizeof widths / sizeof widths[0] == SATBOX_ISA_COUNT, "a new path needs its expected width here");
    for (int i = 0; i < SATBOX_ISA_COUNT; i++) {
        const char *name = satbox_isa_name((satbox_isa)i);
        CHECK(name != NULL, "isa %d has no name", i);
        if (name)
            CHECK(satbox_isa_from_name(name) == i, "name %s does not round-trip", name);
        CHECK(satbox_isa_width((satbox_isa)i) == widths[i], "width of %s is %d", name ? name : "?",
              satbox_isa_width((satbox_isa)i));
    }
    CHECK(satbox_isa_name(SATBOX_ISA_COUNT) == NULL && satbox_isa_name((satbox_isa)-1) == NULL, "name of a non-path");
    CHECK(satbox_isa_width(SATBOX_ISA_COUNT) == 0, "width of a non-path");
    CHECK(satbox_isa_from_name("bogus") == SATBOX_ERR_ARG && satbox_isa_from_name(NULL) == SATBOX_ERR_ARG &&
              satbox_isa_from_name("") == SATBOX_ERR_ARG,
          "from_name accepted a bad name"); /* names in any case: test_usability */
    unsigned sup = satbox_isa_supported();
    CHECK(sup & 1u, "scalar is not in the supported mask %#x", sup);
    CHECK((sup >> SATBOX_ISA_COUNT) == 0, "supported mask %#x has bits beyond the paths", sup);
    satbox_isa start = satbox_isa_active();
    CHECK(sup >> start & 1u, "active path %s is not supported", satbox_isa_name(start));
    CHECK(satbox_isa_force(SATBOX_ISA_COUNT) == SATBOX_ERR_ARG && satbox_isa_force((satbox_isa)-3) == SATBOX_ERR_ARG,
          "force of a non-path");
    CHECK(satbox_isa_cap(SATBOX_ISA_COUNT) == SATBOX_ERR_ARG, "cap of a non-path");
    CHECK(satbox_isa_active() == start, "a failed force/cap changed the path");

    /* Every path gives the same bits (the checker tests this in depth; here through the public API). */
    tb_soa A, B;
    tb_soa_alloc(&A, n);
    tb_soa_alloc(&B, n);
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(&rng, (tb_family)(tb_next(&rng) % TB_FAMILY_COUNT), &a, &b);
        tb_soa_set(&A, i, &a);
        tb_soa_set(&B, i, &b);
    }
    outs ref, o;
    outs_alloc(&ref, n);
    outs_alloc(&o, n);
    CHECK(satbox_isa_force(SATBOX_ISA_SCALAR) == SATBOX_OK && satbox_isa_active() == SATBOX_ISA_SCALAR, "force scalar");
    ptrdiff_t rref = satbox_collide(&A.view, &B.view, n, 0.0f, &ref.res);
    for (int i = 0; i < SATBOX_ISA_COUNT; i++) {
        int r = satbox_isa_force((satbox_isa)i);
        if (!(sup >> i & 1u)) {
            CHECK(r == SATBOX_ERR_UNSUPPORTED, "force of unsupported %s returned %d", satbox_isa_name((satbox_isa)i),
                  r);
            continue;
        }
        CHECK(r == SATBOX_OK && satbox_isa_active() == (satbox_isa)i, "force %s", satbox_isa_name((satbox_isa)i));
        ptrdiff_t rr = satbox_collide(&A.view, &B.view, n, 0.0f, &o.res);
        CHECK(rr == rref && outs_equal(&o, &ref, n), "path %s differs from scalar", satbox_isa_name((satbox_isa)i));
        printf("isa: %s supported, same bits as scalar on %zu pairs\n", satbox_isa_name((satbox_isa)i), n);
    }
    /* cap: the widest supported path not wider than the argument (neon ranks with sse41). */
    static const int rank[] = {0, 1, 2, 3, 1};
    _Static_assert(sizeof rank / sizeof rank[0] == SATBOX_ISA_COUNT, "a new path needs its expected rank here");
    for (int i = 0; i < SATBOX_ISA_COUNT; i++) {
        int best = SATBOX_ISA_SCALAR;
        for (int j = 0; j < SATBOX_ISA_COUNT; j++)
            if ((sup >> j & 1u) && rank[j] <= rank[i] && rank[j] > rank[best])
                best = j;
        int r = satbox_isa_cap((satbox_isa)i);
        CHECK(r == best && satbox_isa_active() == (satbox_isa)best, "cap %s gave %d, expected %s",
              satbox_isa_name((satbox_isa)i), r, satbox_isa_name((satbox_isa)best));
    }
    satbox_isa_force(start);

    char ver[32];
    snprintf(ver, sizeof ver, "%d.%d.%d", SATBOX_VERSION_MAJOR, SATBOX_VERSION_MINOR, SATBOX_VERSION_PATCH);
    CHECK(strcmp(satbox_version(), ver) == 0, "version %s, headers %s", satbox_version(), ver);
    for (int e = SATBOX_ERR_UNSUPPORTED; e <= SATBOX_OK; e++)
        CHECK(satbox_strerror(e) != NULL && satbox_strerror(e)[0] != '\0', "strerror(%d)", e);
    CHECK(satbox_strerror(-1000) != NULL, "strerror of an unknown code");
    outs_free(&ref);
    outs_free(&o);
    tb_soa_free(&A);
    tb_soa_free(&B);
}

int main(int argc, char **argv)
{
    double mult;
    tb_seed(&rng, orc_cli(argc, argv, "test_helpers", 0x4E1BE125ull, 4.0, &mult));
    double t0 = orc_now();
    test_axes_from_quat(orc_count(100003, mult, 1000));
    test_aabb(orc_count(50001, mult, 1000));
    test_pack_validate(orc_count(20001, mult, 500));
    test_q(orc_count(20001, mult, 500));
    test_one(orc_count(5003, mult, 100));
    test_pairs(orc_count(997, mult, 50), orc_count(20011, mult, 500));
    test_pairs(1, 37);
    test_isa(orc_count(4099, mult, 100));
    printf("%.2f s\n", orc_now() - t0);
    return check_report(failures);
}

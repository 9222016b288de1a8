/* test_oracle2d.c - satbox2d against two independent long-double oracles (classic vertex projection, SAT-free) on >= 1M pairs. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_oracle2d [--pairs N-per-kind-and-family] [--seed S]
 * Kinds: rectangle pairs (satbox2d_collide), polygon pairs (satbox2d_poly_collide, 3..8
 * vertices), rectangle vs polygon, triangle vs octagon; each over the valid families of
 * support2d.h. For each valid pair the truth is or2_intersect() (segment intersection and
 * point-in-polygon, no SAT), and the classic SAT value s (every vertex projected on every unit
 * edge normal, long double) must agree with it outside the band |s| <= BAND.
 * Band: K * 2^-24 * S + 2^-146, S = the L1 diameter of the pair's vertices, K = 8 (the largest
 * error seen was 3.3); 2^-146 (8 of the smallest subnormal steps) covers the rounding of results
 * below FLT_MIN. For rectangle vs polygon the rectangle is the exact one (long double corners from
 * its float center, extents and axis), not its float corners.
 * Issue 24's families: tiny (pairs scaled by 2^-56..2^-130: no false answer and no bad polygon),
 * far (10^3..10^5 from the origin: rectangle vs polygon keeps the rectangle's bound), dent (a
 * reflex vertex as deep as the convexity tolerance admits must stay inside the band).
 * Checked outside the band: the overlap bit (FP = reported overlap, truth apart; FN = the
 * reverse), both oracles agree; everywhere: |separation - s| <= band, the reported axis is
 * within the band of the best, its normal within 1e-5 of the oracle's unit normal of that axis,
 * overlap == collide(0).hit. Valid families should give no bad pairs; any is reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "oracle2d.h"
#include "scale.h"

static int failures = 0;

#define CH 4096
#define K_BAND 8.0L
#define FLOOR 0x1p-146L

enum { RECT, POLY, RECT_POLY, TRI_OCT, NKIND };
static const char *kind_name[NKIND] = {"rect", "poly", "rect-poly", "tri-oct"};

typedef struct tally {
    long long pairs, band, fp, fn, oracle_disagree, bad, sep_off, axis_off, normal_off;
    double worst; /* largest (|separation - s| - FLOOR) / (2^-24 S), at least 0 */
} tally;

static void gen(tb_rng *r, int kind, tb2_family f, tb_rect *ra, tb_rect *rb, tb_poly *pa, tb_poly *pb)
{
    tb_poly tmp;
    if (kind == RECT_POLY && (f == TB2_TINY || f == TB2_FAR)) {
        /* The base family's pair, then one map for both shapes. */
        tb2_map m;
        gen(r, kind, tb2_family_map(r, f, &m), ra, rb, pa, pb);
        tb2_map_rect(&m, ra);
        tb2_map_poly(&m, pb);
        return;
    }
    switch (kind) {
    case RECT: tb2_rect_pair(r, f, ra, rb); break;
    case POLY: tb2_poly_pair(r, f, 0, 0, pa, pb); break;
    case TRI_OCT: tb2_poly_pair(r, f, 3, 8, pa, pb); break;
    default:
        /* The rectangle family's A, and a polygon B placed as the polygon family would. */
        tb2_rect_pair(r, f, ra, rb);
        tb2_poly_pair(r, f, 4, 0, &tmp, pb);
        if (f == TB2_IDENTICAL || f == TB2_CONTAINED) {
            /* B derived from the rectangle itself: the same shape, or a shrunk copy inside it. */
            double x[4], y[4], s = f == TB2_CONTAINED ? tb_range(r, 0.05, 0.9) : 1.0;
            tb2_rect_corners(ra, x, y);
            pb->n = 4;
            for (int k = 0; k < 4; k++) {
                pb->x[k] = (float)(ra->c[0] + s * (x[k] - ra->c[0]));
                pb->y[k] = (float)(ra->c[1] + s * (y[k] - ra->c[1]));
            }
        } else if (f == TB2_TOUCHING) {
            tb2_rect_as_poly(ra, &tmp);
            tb2_push_touch(r, &tmp, pb);
        }
        break;
    }
}

static void run_kind(int kind, tb2_family f, long long n, uint64_t seed, tally *t)
{
    tb_rng r;
    tb_seed(&r, seed * 131 + (uint64_t)kind * 17 + (uint64_t)f);
    tb2_rects ra, rb;
    tb2_polys pa, pb;
    if (tb2_rects_alloc(&ra, CH) || tb2_rects_alloc(&rb, CH) || tb2_polys_alloc(&pa, CH) || tb2_polys_alloc(&pb, CH)) {
        printf("out of memory\n");
        exit(2);
    }
    static tb_rect ar[CH], br[CH];
    static tb_poly ap[CH], bp[CH];
    static uint8_t hit[CH], ohit[CH], axis[CH], bad[CH];
    static float sep[CH], nx[CH], ny[CH];
    memset(t, 0, sizeof *t);
    for (long long done = 0; done < n; done += CH) {
        size_t m = (size_t)(n - done < CH ? n - done : CH);
        for (size_t i = 0; i < m; i++) {
            gen(&r, kind, f, &ar[i], &br[i], &ap[i], &bp[i]);
            tb2_rects_set(&ra, i, &ar[i]);
            tb2_rects_set(&rb, i, &br[i]);
            tb2_polys_set(&pa, i, &ap[i]);
            tb2_polys_set(&pb, i, &bp[i]);
        }
        satbox2d_result res = {hit, sep, {nx, ny}, axis, bad};
        ptrdiff_t c1, c2;
        if (kind == RECT) {
            c1 = satbox2d_collide(&ra.view, &rb.view, m, 0.0f, &res);
            c2 = satbox2d_overlap(&ra.view, &rb.view, m, ohit, NULL);
        } else if (kind == RECT_POLY) {
            c1 = satbox2d_rect_poly_collide(&ra.view, &pb.view, m, 0.0f, &res);
            c2 = satbox2d_rect_poly_overlap(&ra.view, &pb.view, m, ohit, NULL);
        } else {
            c1 = satbox2d_poly_collide(&pa.view, &pb.view, m, 0.0f, &res);
            c2 = satbox2d_poly_overlap(&pa.view, &pb.view, m, ohit, NULL);
        }
        CHECK(c1 >= 0 && c1 == c2, "%s/%s: counts %td %td", kind_name[kind], tb2_family_name(f), c1, c2);
        CHECK(memcmp(hit, ohit, m) == 0, "%s/%s: overlap != collide(0).hit", kind_name[kind], tb2_family_name(f));
        for (size_t i = 0; i < m; i++) {
            t->pairs++;
            if (bad[i]) {
                t->bad++;
                continue;
            }
            or2_poly a, b;
            if (kind == RECT || kind == RECT_POLY)
                or2_from_rect(&ar[i], &a);
            else
                or2_from_poly(&ap[i], &a);
            if (kind == RECT)
                or2_from_rect(&br[i], &b);
            else
                or2_from_poly(&bp[i], &b);
            int id = -1;
            long double n[2], s = kind == RECT ? or2_rect_sat(&ar[i], &br[i], &id, n) : or2_sat(&a, &b, &id, n);
            long double unit = ldexpl(1.0L, -24) * or2_scale(&a, &b);
            long double band = K_BAND * unit + FLOOR;
            int truth = or2_intersect(&a, &b);
            if (fabsl(s) <= band) {
                t->band++;
            } else {
                t->oracle_disagree += (s <= 0) != truth;
                t->fp += hit[i] && !truth;
                t->fn += !hit[i] && truth;
            }
            long double d = fabsl((long double)sep[i] - s);
            if (unit > 0 && (d - FLOOR) / unit > t->worst)
                t->worst = (double)((d - FLOOR) / unit);
            t->sep_off += !(d <= band);
            long double ln[2], g = kind == RECT ? or2_rect_axis_gap(&ar[i], &br[i], axis[i], ln)
                                                : or2_axis_gap(&a, &b, axis[i], ln);
            int axis_ok = fabsl(g - sep[i]) <= band && g >= s - 2 * band;
            t->axis_off += !axis_ok;
            t->normal_off += axis_ok && !(fabsl(ln[0] - nx[i]) <= 1e-5L && fabsl(ln[1] - ny[i]) <= 1e-5L);
            if (!axis_ok && t->axis_off <= 3)
                printf("  %s/%s pair %lld: axis %u gap %Lg sep %g oracle %Lg (axis %d)\n", kind_name[kind],
                       tb2_family_name(f), done + (long long)i, axis[i], g, sep[i], s, id);
        }
    }
    tb2_rects_free(&ra);
    tb2_rects_free(&rb);
    tb2_polys_free(&pa);
    tb2_polys_free(&pb);
}

int main(int argc, char **argv)
{
    long long per = test_short() ? 2500 : 50000; /* scale.h */
    uint64_t seed = 2026;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            per = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
    }
    printf("test_oracle2d: path %s, seed %llu, %lld pairs per kind and family, band %.0Lf * 2^-24 * S + 2^-146\n",
           satbox_isa_name(satbox_isa_active()), (unsigned long long)seed, per, K_BAND);
    printf("%-10s %-10s %9s %7s %4s %4s %9s %5s %7s %7s %7s %9s\n", "kind", "family", "pairs", "band", "FP", "FN",
           "oracles", "bad", "sep>B", "axis", "normal", "worst/ulp");
    long long total = 0, wrong = 0;
    for (int kind = 0; kind < NKIND; kind++)
        for (int f = 0; f < TB2_BAD; f++) {
            tally t;
            run_kind(kind, (tb2_family)f, per, seed, &t);
            printf("%-10s %-10s %9lld %7lld %4lld %4lld %9lld %5lld %7lld %7lld %7lld %9.1f\n", kind_name[kind],
                   tb2_family_name((tb2_family)f), t.pairs, t.band, t.fp, t.fn, t.oracle_disagree, t.bad, t.sep_off,
                   t.axis_off, t.normal_off, t.worst);
            total += t.pairs;
            wrong += t.fp + t.fn;
            CHECK(t.fp == 0 && t.fn == 0, "%s/%s: %lld false overlaps, %lld missed", kind_name[kind],
                  tb2_family_name((tb2_family)f), t.fp, t.fn);
            CHECK(t.oracle_disagree == 0, "%s/%s: the two oracles disagree on %lld pairs", kind_name[kind],
                  tb2_family_name((tb2_family)f), t.oracle_disagree);
            CHECK(t.sep_off == 0 && t.axis_off == 0 && t.normal_off == 0, "%s/%s: separation/axis/normal off",
                  kind_name[kind], tb2_family_name((tb2_family)f));
            CHECK(t.bad <= (f == TB2_TINY ? 0 : t.pairs / 100), "%s/%s: %lld valid-family pairs reported bad",
                  kind_name[kind], tb2_family_name((tb2_family)f), t.bad);
        }
    printf("%lld pairs, %lld wrong outside the band; %d failures\n", total, wrong, failures);
    return failures ? 1 : 0;
}

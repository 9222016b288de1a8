/* test_oracle.c - satbox against the independent long-double oracle on >= 1M random pairs (precision report). */
/* SPDX-License-Identifier: MIT */
/* Usage: test_oracle [--seed N] [--scale F]
 * For every family of support.h (except "bad") and every adversarial family (tb_extra: nearpar,
 * edgepar, stk_1e-3, stk_1e4, far) it draws random pairs (1M per family by default, 11M in all),
 * runs satbox_overlap and satbox_collide (margin 0) on the active path, and for each pair:
 *  - checks overlap == collide.hit, bit for bit;
 *  - validates the oracle itself: the corner-projection SAT (orc_sat) against the axis-free
 *    point-in-both test (orc_intersect), outside |s| <= 1e-9 S (long-double rounding only);
 *  - compares the overlap bit with the exact separation s: raw false positives / negatives (no
 *    tolerance) are counted and printed; a wrong answer beyond the pair's documented bound B
 *    (oracle.h, satbox.h) fails the test, in both directions;
 *  - checks satbox's separation against the same per-axis bound (the separation of the used axes
 *    within B of the exact one), that the reported axis is a used one with that gap, and that the
 *    normal is that axis, pointing from A to B.
 * Prints a table per family. Columns: sep% truly separated; raw_fp / raw_fn wrong against the sign
 * of the exact separation; band pairs where both answers are allowed; fp / fn wrong beyond B
 * (failures); skiponly truly separated only along edges the near-parallel rule skips, skip_hit of
 * those reported as overlap; lp_band / lp_bad the oracle self-check; sep_out / deep separations
 * outside their bound (failures) / of those below the truth; sep/B the largest separation error
 * relative to B; other = axis, normal, overlap-vs-collide failures; sep_err/S the largest
 * separation error over pairs without near-parallel edges; raw/B the largest |s| / B among the raw
 * errors. Exit status 1 on any failure. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle.h"
#include "support.h"

#define CHUNK 4096
#define MAX_REPORTS 12

typedef long double ld;

typedef struct stats {
    size_t pairs, truth_sep, hit;
    size_t raw_fp, raw_fn;      /* against the sign of the true separation, no band */
    size_t band;                /* pairs inside the band (either answer accepted) */
    size_t fp, fn;              /* wrong answers outside the band: failures */
    size_t skip_only, skip_hit; /* truly separated only along edges satbox may skip; of those, hit */
    ld skip_max;                /* largest s / S among skip_hit */
    size_t lp_band, lp_bad;     /* oracle self-check: inside its tiny band / disagreements */
    size_t sep_bad, axis_bad, normal_bad, ovl_bad;
    ld sep_err_max;          /* max |sep - s_rule| / S over pairs without near-parallel edges */
    ld raw_max_s, raw_max_b; /* largest |s| / S and |s| / band among the raw errors */
    size_t sep_deep;         /* separations outside their bound on the deep side (below the truth) */
    ld sep_max_b;            /* largest |sep - gap[axis]| / B_axis */
} stats;

/* What a total row keeps of the per-family rows: the sums of these counters and the largest of
 * these worst cases (truth_sep, hit and sep_err_max are shown per family only). */
#define STATS_SUMS(X)                                                                                                  \
    X(pairs) X(raw_fp) X(raw_fn) X(band) X(fp) X(fn) X(skip_only) X(skip_hit) X(lp_band) X(lp_bad) X(sep_bad)          \
    X(sep_deep) X(axis_bad) X(normal_bad) X(ovl_bad)
#define STATS_WORST(X) X(raw_max_s) X(raw_max_b) X(sep_max_b) X(skip_max)

static void stats_add(stats *tot, const stats *s)
{
#define SUM_(f) tot->f += s->f;
#define WORST_(f) tot->f = fmaxl(tot->f, s->f);
    STATS_SUMS(SUM_)
    STATS_WORST(WORST_)
#undef SUM_
#undef WORST_
}

static int reports = 0;

static void print_box(const char *name, const satbox_box *b)
{
    printf("    %s center {%a, %a, %a} half {%a, %a, %a}\n", name, b->center[0], b->center[1], b->center[2], b->half[0],
           b->half[1], b->half[2]);
    for (int k = 0; k < 3; k++)
        printf("    %s axis[%d] {%a, %a, %a}\n", name, k, b->axis[k][0], b->axis[k][1], b->axis[k][2]);
}

static const char *fam_name(int f);

static void report(const char *what, int f, size_t index, const satbox_box *a, const satbox_box *b, const orc_result *r,
                   int hit, float sep, int axis)
{
    if (reports++ >= MAX_REPORTS)
        return;
    printf("  FAIL %s: family %s pair %zu: satbox hit %d sep %.9g axis %d; oracle s %.12Lg (axis %d), "
           "S %.6Lg, intersect %d\n",
           what, fam_name(f), index, hit, (double)sep, axis, r->s_all, r->best, orc_scale(a, b), orc_intersect(a, b));
    print_box("A", a);
    print_box("B", b);
}

static int has_near_parallel(const orc_result *r)
{
    for (int id = 6; id < 15; id++)
        if (r->len[id] < 1e-2L)
            return 1;
    return 0;
}

/* Family ids: the tb_family values, then the adversarial tb_extra families of support.h. */
#define FAM_EXTRA TB_FAMILY_COUNT
#define FAM_COUNT (TB_FAMILY_COUNT + TB_X_COUNT)

static const char *fam_name(int f)
{
    return f >= FAM_EXTRA ? tb_extra_name((tb_extra)(f - FAM_EXTRA)) : tb_family_name((tb_family)f);
}

static void run_family(int f, size_t n, tb_rng *rng, stats *st)
{
    tb_soa A, B;
    if (tb_soa_alloc(&A, CHUNK) || tb_soa_alloc(&B, CHUNK)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    static uint8_t hit[CHUNK], chit[CHUNK], caxis[CHUNK];
    static float csep[CHUNK], cn[3][CHUNK];
    satbox_result res = {chit, csep, {cn[0], cn[1], cn[2]}, caxis, NULL};
    size_t done = 0;
    while (done < n) {
        size_t m = n - done < CHUNK ? n - done : CHUNK;
        for (size_t i = 0; i < m; i++) {
            satbox_box a, b;
            if (f >= FAM_EXTRA)
                tb_make_extra(rng, (tb_extra)(f - FAM_EXTRA), &a, &b);
            else
                tb_make_pair(rng, (tb_family)f, &a, &b);
            tb_soa_set(&A, i, &a);
            tb_soa_set(&B, i, &b);
        }
        ptrdiff_t c1 = satbox_overlap(&A.view, &B.view, m, hit, NULL);
        ptrdiff_t c2 = satbox_collide(&A.view, &B.view, m, 0.0f, &res);
        if (c1 < 0 || c2 < 0 || c1 != c2) {
            printf("  FAIL: family %s: overlap returned %td, collide %td\n", fam_name(f), c1, c2);
            st->ovl_bad++;
        }
        for (size_t i = 0; i < m; i++) {
            satbox_box a, b;
            tb_soa_get(&A, i, &a);
            tb_soa_get(&B, i, &b);
            size_t idx = done + i;
            st->pairs++;
            if (hit[i] != chit[i]) {
                st->ovl_bad++;
                report("overlap != collide.hit", f, idx, &a, &b, &(orc_result){0}, hit[i], csep[i], caxis[i]);
            }
            orc_result r;
            ld s = orc_sat(&a, &b, &r), S = orc_scale(&a, &b), band;
            orc_verdict v = orc_verdict_of(&a, &b, &r, 0, &band);
            int h = hit[i] == 1;
            if (hit[i] > 1) {
                st->ovl_bad++;
                report("valid pair marked invalid", f, idx, &a, &b, &r, hit[i], csep[i], caxis[i]);
                continue;
            }
            st->hit += (size_t)h;
            st->truth_sep += s > 0;

            /* The oracle against the axis-free point-in-both test. */
            ld tau = 1e-9L * S;
            int meet = orc_intersect(&a, &b);
            if (fabsl(s) <= tau) {
                st->lp_band++;
            } else if (meet != (s < 0)) {
                st->lp_bad++;
                report("oracle self-check (corner SAT vs point-in-both)", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
            }

            /* The overlap bit. Pairs separated only along skipped near-parallel edges are counted
             * apart (skiponly); the largest raw error relative to the bound is over the others. */
            ld s_used = orc_s_rule(&a, &b, &r);
            int skip_only = s > 0 && s_used <= 0;
            if ((h && s > 0) || (!h && s <= 0)) {
                st->raw_fp += h;
                st->raw_fn += !h;
                if (S > 0)
                    st->raw_max_s = fmaxl(st->raw_max_s, fabsl(s) / S);
                if (band > 0 && !skip_only)
                    st->raw_max_b = fmaxl(st->raw_max_b, fabsl(s_used) / band);
            }
            if (v == ORC_BAND)
                st->band++;
            if (h && v == ORC_MUST_SEP) {
                st->fp++;
                report("false positive beyond B", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
            }
            if (!h && v == ORC_MUST_HIT) {
                st->fn++;
                report("false negative beyond B", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
            }
            if (skip_only) {
                st->skip_only++;
                if (h) {
                    st->skip_hit++;
                    if (S > 0 && s / S > st->skip_max)
                        st->skip_max = s / S;
                }
            }

            /* Separation and axis, against the documented per-axis bound: each used axis k has a
             * computed normalised gap within B_k = orc_axis_err() of the exact one, so satbox's
             * separation (the max of them) lies in [max_k (gap_k - B_k), max_k (gap_k + B_k)], and
             * the reported axis is a used one whose exact gap is within B_ax of the separation.
             * Only the float rounding of the normalisation (a few u relative) is added. */
            ld sep = csep[i], lo = -INFINITY, hi = -INFINITY, slack = 8 * ORC_U * fabsl(sep) + 1e-30L;
            for (int id = 0; id < 15; id++) {
                if (orc_skipped(&a, &b, id) || r.gap[id] == -INFINITY)
                    continue;
                ld e = orc_axis_err(&a, &b, &r, id, 0);
                lo = fmaxl(lo, r.gap[id] - e);
                hi = fmaxl(hi, r.gap[id] + e);
            }
            int ax = caxis[i];
            ld e_ax = ax < 15 ? orc_axis_err(&a, &b, &r, ax, 0) : 0;
            if (ax < 15 && e_ax > 0 && isfinite(r.gap[ax]))
                st->sep_max_b = fmaxl(st->sep_max_b, fabsl(sep - r.gap[ax]) / e_ax);
            if (!(sep >= lo - slack && sep <= hi + slack)) {
                st->sep_bad++;
                if (sep < lo - slack)
                    st->sep_deep++;
                report("separation outside its bound", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
                continue;
            }
            if (!has_near_parallel(&r) && S > 0 && fabsl(sep - s_used) / S > st->sep_err_max)
                st->sep_err_max = fabsl(sep - s_used) / S;
            if (ax > 14 || orc_skipped(&a, &b, ax) || !(fabsl(r.gap[ax] - sep) <= e_ax + slack)) {
                st->axis_bad++;
                report("reported axis does not have the reported gap", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
                continue;
            }
            /* The normal is that axis (within its direction error u-ish / |L|), pointing A -> B when
             * the sign of the projection is determined. */
            ld nerr = 64 * ORC_U / r.len[ax], dp = 0, dm = 0, nn = 0;
            for (int c = 0; c < 3; c++) {
                dp = fmaxl(dp, fabsl((ld)cn[c][i] - r.dir[ax][c]));
                dm = fmaxl(dm, fabsl((ld)cn[c][i] + r.dir[ax][c]));
                nn += (ld)cn[c][i] * cn[c][i];
            }
            int sign_known = r.proj[ax] > orc_axis_err(&a, &b, &r, ax, 0);
            if (fabsl(nn - 1) > 1e-6L || (sign_known ? dp > nerr : fminl(dp, dm) > nerr)) {
                st->normal_bad++;
                report("normal is not the unit axis from A to B", f, idx, &a, &b, &r, h, csep[i], caxis[i]);
            }
        }
        done += m;
    }
    tb_soa_free(&A);
    tb_soa_free(&B);
}

int main(int argc, char **argv)
{
    double mult;
    uint64_t seed = orc_cli(argc, argv, "test_oracle", 0x0DAC1Eull, 400.0, &mult);
    static const struct {
        int f;
        size_t n;
    } plan[] = {
        {TB_UNIFORM, 1000000},
        {TB_STACKED, 1000000},
        {TB_TOUCHING, 1000000},
        {TB_SCALES, 1000000},
        {TB_PARALLEL, 1000000},
        {TB_IDENTICAL, 50000},
        {TB_FLAT, 1000000},
        {FAM_EXTRA + TB_X_NEARPAR, 1000000},
        {FAM_EXTRA + TB_X_EDGEPAR, 1000000},
        {FAM_EXTRA + TB_X_STACK_SMALL, 1000000},
        {FAM_EXTRA + TB_X_STACK_LARGE, 1000000},
        {FAM_EXTRA + TB_X_FAR, 1000000},
    };
    size_t nplan = sizeof plan / sizeof plan[0];
    stats st[FAM_COUNT], tot;
    memset(st, 0, sizeof st);
    memset(&tot, 0, sizeof tot);
    double t0 = orc_now();
    clock_t c0 = clock();
    for (size_t p = 0; p < nplan; p++) {
        tb_rng rng;
        tb_seed(&rng, seed + 7919u * (uint64_t)plan[p].f); /* each family replayable on its own */
        run_family(plan[p].f, orc_count(plan[p].n, mult, 1000), &rng, &st[plan[p].f]);
    }
    double t1 = orc_now(), cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;

    printf("\nB: per axis, B = 2^-19 S / |L| (SATBOX_BOUND_REL, satbox.h), S = |cB-cA|_1 + the 6 half extents, "
           "|L| = 1 on face axes\n");
    printf("raw = against the sign of the true separation; band = |s| within B (either answer allowed); "
           "fp / fn = wrong beyond B (failures)\n");
    printf("sep_out = separations outside their bound (deep = below the truth); sep/B = largest |sep - exact gap "
           "of its axis| / B\n");
    printf("%-10s %8s %7s %7s %7s %7s %7s %6s %6s %8s %9s %7s %6s %7s %5s %8s %6s %10s %9s\n", "family", "pairs",
           "sep%", "raw_fp", "raw_fn", "band", "band%", "fp", "fn", "skiponly", "skip_hit", "lp_band", "lp_bad",
           "sep_out", "deep", "sep/B", "other", "sep_err/S", "raw/B");
    for (size_t p = 0; p < nplan; p++) {
        const stats *s = &st[plan[p].f];
        size_t other = s->axis_bad + s->normal_bad + s->ovl_bad;
        printf("%-10s %8zu %6.2f%% %7zu %7zu %7zu %6.3f%% %6zu %6zu %8zu %9zu %7zu %6zu %7zu %5zu %8.3Lg %6zu %10.3Lg "
               "%9.3Lg\n",
               fam_name(plan[p].f), s->pairs, 100.0 * (double)s->truth_sep / (double)s->pairs, s->raw_fp, s->raw_fn,
               s->band, 100.0 * (double)s->band / (double)s->pairs, s->fp, s->fn, s->skip_only, s->skip_hit, s->lp_band,
               s->lp_bad, s->sep_bad, s->sep_deep, s->sep_max_b, other, s->sep_err_max, s->raw_max_b);
        stats_add(&tot, s);
    }
    printf("%-10s %8zu %7s %7zu %7zu %7zu %6.3f%% %6zu %6zu %8zu %9zu %7zu %6zu %7zu %5zu %8.3Lg %6zu\n", "total",
           tot.pairs, "", tot.raw_fp, tot.raw_fn, tot.band, 100.0 * (double)tot.band / (double)tot.pairs, tot.fp,
           tot.fn, tot.skip_only, tot.skip_hit, tot.lp_band, tot.lp_bad, tot.sep_bad, tot.sep_deep, tot.sep_max_b,
           tot.axis_bad + tot.normal_bad + tot.ovl_bad);
    printf("raw errors (either sign): largest |s|/S %.3Lg; largest |s|/B %.3Lg over the pairs not separated only along "
           "skipped edges (<= 1 by the test)\n",
           tot.raw_max_s, tot.raw_max_b);
    printf(
        "pairs separated only along near-parallel edges and reported as overlap (skip rule): %zu, largest s/S %.3Lg\n",
        tot.skip_hit, tot.skip_max);
    printf("separation outside its bound %zu (%zu deeper than the truth); other = axis %zu, normal %zu, "
           "overlap/collide %zu mismatches\n",
           tot.sep_bad, tot.sep_deep, tot.axis_bad, tot.normal_bad, tot.ovl_bad);
    printf("%.2f s wall, %.2f s CPU (%.2f us CPU/pair)\n", t1 - t0, cpu, 1e6 * cpu / (double)tot.pairs);
    size_t fails = tot.fp + tot.fn + tot.lp_bad + tot.sep_bad + tot.axis_bad + tot.normal_bad + tot.ovl_bad;
    printf("%s\n", fails ? "FAILED" : "ok");
    return fails ? 1 : 0;
}

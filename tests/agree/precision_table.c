/* precision_table.c - before/after false positives and negatives of the overlap bit: two builds of satbox, one oracle. */
/* SPDX-License-Identifier: MIT */
/* Usage: precision_table --before OLD_LIBSATBOX_SO [--seed N] [--scale F]
 * Not a meson test: a measurement (6M pairs at --scale 1, ~22 s of CPU here).
 * "after" is the satbox this program is linked with; "before" is another build of satbox whose
 * satbox_overlap() has the old four-argument signature (a, b, n, hit), loaded with dlmopen() into a
 * namespace of its own so that its symbols cannot mix with the linked library's. Both answer the
 * same pairs (the precision families of support.h plus TB_STACKED), judged by the same
 * long-double oracle (oracle.h):
 *   raw FP  said overlapping while the exact separation s > 0;
 *   raw FN  said separated while s <= 0;
 *   skipFP  raw FP whose exact separation shows only on edge axes the current rule skips
 *           (|R_ij| >= SATBOX_PARALLEL_ABS_COS): the price of the near-parallel rule;
 *   FP>B    said overlapping while some axis that satbox's current rule uses separates by more
 *           than its bound B (orc_verdict_of() == ORC_MUST_SEP);
 *   FN>B    said separated while every used axis penetrates deeper than B (ORC_MUST_HIT);
 *   max|s|/S the largest raw error (other than skipFP), relative to the pair's scale S.
 * The bound and the used axes are those of the current rule (satbox.h) for both columns, so the
 * "before" FP>B / FN>B say how the old rule fares against today's promise. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "support.h"

#define CHUNK 4096

typedef ptrdiff_t (*overlap4_fn)(const satbox_boxes *, const satbox_boxes *, size_t, uint8_t *);
typedef int (*isa_active_fn)(void);
typedef const char *(*isa_name_fn)(int);

typedef struct counts {
    size_t raw_fp, raw_fn, skip_fp, fp_b, fn_b;
    long double max_s; /* largest |s| / S among the raw errors other than the skipFP ones */
} counts;

static void judge(counts *c, int h, long double s, long double s_used, long double S, orc_verdict v)
{
    if ((h && s > 0) || (!h && s <= 0)) {
        c->raw_fp += (size_t)h;
        c->skip_fp += (size_t)(h && s_used <= 0);
        c->raw_fn += (size_t)!h;
        if (S > 0 && !(h && s_used <= 0) && fabsl(s) / S > c->max_s)
            c->max_s = fabsl(s) / S;
    }
    c->fp_b += (size_t)(h && v == ORC_MUST_SEP);
    c->fn_b += (size_t)(!h && v == ORC_MUST_HIT);
}

int main(int argc, char **argv)
{
    const char *before_path = NULL;
    char *rest[8];
    int nrest = 0;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--before") == 0 && i + 1 < argc)
            before_path = argv[++i];
        else if (nrest < 7)
            rest[nrest++] = argv[i];
    }
    if (!before_path) {
        fprintf(stderr, "usage: %s --before OLD_LIBSATBOX_SO [--seed N] [--scale F]\n", argv[0]);
        return 2;
    }
    rest[nrest] = NULL;
    double mult;
    uint64_t seed = orc_cli(nrest, rest, "precision_table", 0x7AB1Eull, 1.0, &mult);

    void *old = dlmopen(LM_ID_NEWLM, before_path, RTLD_NOW | RTLD_LOCAL);
    if (!old) {
        fprintf(stderr, "cannot load %s: %s\n", before_path, dlerror());
        return 2;
    }
    overlap4_fn old_overlap = (overlap4_fn)(uintptr_t)dlsym(old, "satbox_overlap");
    isa_active_fn old_active = (isa_active_fn)(uintptr_t)dlsym(old, "satbox_isa_active");
    isa_name_fn old_name = (isa_name_fn)(uintptr_t)dlsym(old, "satbox_isa_name");
    if (!old_overlap || !old_active || !old_name) {
        fprintf(stderr, "%s: satbox symbols missing\n", before_path);
        return 2;
    }
    printf("before: %s, path %s; after: linked satbox, path %s\n", before_path, old_name(old_active()),
           satbox_isa_name(satbox_isa_active()));

    static const struct {
        int extra; /* -1: TB_STACKED of support.h, else a tb_extra family */
        size_t n;
    } plan[] = {{-1, 1000000},
                {TB_X_NEARPAR, 1000000},
                {TB_X_EDGEPAR, 1000000},
                {TB_X_STACK_SMALL, 1000000},
                {TB_X_STACK_LARGE, 1000000},
                {TB_X_FAR, 1000000}};
    tb_soa A, B;
    if (tb_soa_alloc(&A, CHUNK) || tb_soa_alloc(&B, CHUNK)) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    static uint8_t hit_old[CHUNK], hit_new[CHUNK];
    printf("\n%-9s %8s | %-47s | %s\n", "", "", "before (1e-6 guard, skip |L|^2<1e-8)",
           "after (sign of g, skip |R|>=1-2^-21)");
    printf("%-9s %8s | %6s %6s %6s %6s %6s %9s | %6s %6s %6s %6s %6s %9s\n", "family", "pairs", "rawFP", "skipFP",
           "rawFN", "FP>B", "FN>B", "max|s|/S", "rawFP", "skipFP", "rawFN", "FP>B", "FN>B", "max|s|/S");
    for (size_t p = 0; p < sizeof plan / sizeof plan[0]; p++) {
        int x = plan[p].extra;
        tb_rng rng;
        tb_seed(&rng, seed + 7919u * (uint64_t)(x + 1));
        size_t n = orc_count(plan[p].n, mult, 1000), done = 0;
        counts cb = {0}, ca = {0};
        while (done < n) {
            size_t m = n - done < CHUNK ? n - done : CHUNK;
            for (size_t i = 0; i < m; i++) {
                satbox_box a, b;
                if (x < 0)
                    tb_make_pair(&rng, TB_STACKED, &a, &b);
                else
                    tb_make_extra(&rng, (tb_extra)x, &a, &b);
                tb_soa_set(&A, i, &a);
                tb_soa_set(&B, i, &b);
            }
            if (old_overlap(&A.view, &B.view, m, hit_old) < 0 || satbox_overlap(&A.view, &B.view, m, hit_new, NULL) < 0) {
                fprintf(stderr, "overlap failed\n");
                return 1;
            }
            for (size_t i = 0; i < m; i++) {
                satbox_box a, b;
                tb_soa_get(&A, i, &a);
                tb_soa_get(&B, i, &b);
                orc_result r;
                long double s = orc_sat(&a, &b, &r), S = orc_scale(&a, &b);
                orc_verdict v = orc_verdict_of(&a, &b, &r, 0, NULL);
                long double s_used = orc_s_rule(&a, &b, &r);
                judge(&cb, hit_old[i] == 1, s, s_used, S, v);
                judge(&ca, hit_new[i] == 1, s, s_used, S, v);
            }
            done += m;
        }
        printf("%-9s %8zu | %6zu %6zu %6zu %6zu %6zu %9.2Lg | %6zu %6zu %6zu %6zu %6zu %9.2Lg\n",
               x < 0 ? tb_family_name(TB_STACKED) : tb_extra_name((tb_extra)x), n, cb.raw_fp, cb.skip_fp, cb.raw_fn,
               cb.fp_b, cb.fn_b, cb.max_s, ca.raw_fp, ca.skip_fp, ca.raw_fn, ca.fp_b, ca.fn_b, ca.max_s);
        fflush(stdout);
    }
    tb_soa_free(&A);
    tb_soa_free(&B);
    return 0;
}

/* test_invariance.c - the overlap bit is invariant under swapping A/B, common translation and rotation. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_invariance [--seed N] [--scale F]
 * For random pairs of several families (240k pairs by default) it compares satbox_overlap on
 *  - the pair itself,
 *  - the pair with A and B swapped (exact same geometry; satbox works in A's frame, so its float
 *    rounding differs),
 *  - both boxes translated by the same random vector (|T| <= 100 per coordinate),
 *  - both boxes rotated by the same random rotation about the origin,
 * the transformed inputs being rounded to float (a perturbation of the geometry of size ~u |c|).
 * A disagreement is accepted only inside the band of oracle.h, computed on the original pair with
 * the extra perturbation P = 8 u (|cA|_1 + |cB|_1 + |cA'|_1 + |cB'|_1 + S + S'); disagreements inside
 * the band are counted and printed, any outside fails the test. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "support.h"

#define CHUNK 4096
#define NT 3 /* transforms: swap, translate, rotate */

typedef long double ld;

static const char *tname[NT] = {"swap", "translate", "rotate"};

static double norm1(const float *c) { return fabs(c[0]) + fabs(c[1]) + fabs(c[2]); }

/* Random rotation matrix Q[r][c] in double (uniform quaternion). */
static void random_q(tb_rng *r, double Q[3][3])
{
    double x, y, z, w, n;
    do {
        x = tb_normal(r), y = tb_normal(r), z = tb_normal(r), w = tb_normal(r);
        n = sqrt(x * x + y * y + z * z + w * w);
    } while (n < 1e-3);
    x /= n, y /= n, z /= n, w /= n;
    Q[0][0] = 1 - 2 * (y * y + z * z), Q[0][1] = 2 * (x * y - w * z), Q[0][2] = 2 * (x * z + w * y);
    Q[1][0] = 2 * (x * y + w * z), Q[1][1] = 1 - 2 * (x * x + z * z), Q[1][2] = 2 * (y * z - w * x);
    Q[2][0] = 2 * (x * z - w * y), Q[2][1] = 2 * (y * z + w * x), Q[2][2] = 1 - 2 * (x * x + y * y);
}

static void rotate_box(double Q[3][3], const satbox_box *in, satbox_box *out)
{
    *out = *in;
    for (int r = 0; r < 3; r++) {
        out->center[r] = (float)(Q[r][0] * in->center[0] + Q[r][1] * in->center[1] + Q[r][2] * in->center[2]);
        for (int k = 0; k < 3; k++)
            out->axis[k][r] = (float)(Q[r][0] * in->axis[k][0] + Q[r][1] * in->axis[k][1] + Q[r][2] * in->axis[k][2]);
    }
}

typedef struct tstats {
    size_t pairs, in_band, out_band;
    ld worst; /* largest |s| / band among the in-band disagreements */
} tstats;

int main(int argc, char **argv)
{
    double mult;
    uint64_t seed = orc_cli(argc, argv, "test_invariance", 0x1A7A21Aull, 20.0, &mult);
    static const tb_family fams[] = {TB_UNIFORM, TB_STACKED, TB_TOUCHING, TB_SCALES, TB_FLAT, TB_PARALLEL};
    size_t per = orc_count(40000, mult, 500);
    tstats st[NT];
    memset(st, 0, sizeof st);
    int printed = 0, fails = 0;
    double t0 = orc_now();

    tb_soa A, B, TA[NT], TB[NT];
    if (tb_soa_alloc(&A, CHUNK) || tb_soa_alloc(&B, CHUNK))
        return 2;
    for (int t = 0; t < NT; t++)
        if (tb_soa_alloc(&TA[t], CHUNK) || tb_soa_alloc(&TB[t], CHUNK))
            return 2;
    static uint8_t hit[CHUNK], th[NT][CHUNK];
    static ld pert[NT][CHUNK];

    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
        tb_rng rng;
        tb_seed(&rng, seed + 104729u * (uint64_t)fams[f]);
        for (size_t done = 0; done < per;) {
            size_t m = per - done < CHUNK ? per - done : CHUNK;
            for (size_t i = 0; i < m; i++) {
                satbox_box a, b, x, y;
                tb_make_pair(&rng, fams[f], &a, &b);
                tb_soa_set(&A, i, &a);
                tb_soa_set(&B, i, &b);
                ld S = orc_scale(&a, &b), base = norm1(a.center) + norm1(b.center) + S;
                /* swap */
                tb_soa_set(&TA[0], i, &b);
                tb_soa_set(&TB[0], i, &a);
                pert[0][i] = 0;
                /* translate */
                x = a, y = b;
                for (int c = 0; c < 3; c++) {
                    double T = tb_range(&rng, -100, 100);
                    x.center[c] = (float)((double)a.center[c] + T);
                    y.center[c] = (float)((double)b.center[c] + T);
                }
                tb_soa_set(&TA[1], i, &x);
                tb_soa_set(&TB[1], i, &y);
                pert[1][i] = 8 * ORC_U * (base + norm1(x.center) + norm1(y.center) + orc_scale(&x, &y));
                /* rotate */
                double Q[3][3];
                random_q(&rng, Q);
                rotate_box(Q, &a, &x);
                rotate_box(Q, &b, &y);
                tb_soa_set(&TA[2], i, &x);
                tb_soa_set(&TB[2], i, &y);
                pert[2][i] = 8 * ORC_U * (base + norm1(x.center) + norm1(y.center) + orc_scale(&x, &y));
            }
            if (satbox_overlap(&A.view, &B.view, m, hit, NULL) < 0)
                return 2;
            for (int t = 0; t < NT; t++)
                if (satbox_overlap(&TA[t].view, &TB[t].view, m, th[t], NULL) < 0)
                    return 2;
            for (size_t i = 0; i < m; i++) {
                int any = 0;
                for (int t = 0; t < NT; t++) {
                    st[t].pairs++;
                    any |= th[t][i] != hit[i];
                }
                if (!any)
                    continue;
                satbox_box a, b;
                tb_soa_get(&A, i, &a);
                tb_soa_get(&B, i, &b);
                orc_result r;
                orc_sat(&a, &b, &r);
                for (int t = 0; t < NT; t++) {
                    if (th[t][i] == hit[i])
                        continue;
                    ld band;
                    orc_verdict v = orc_verdict_of(&a, &b, &r, pert[t][i], &band);
                    int bad = v != ORC_BAND || hit[i] > 1 || th[t][i] > 1;
                    if (bad) {
                        st[t].out_band++;
                        fails++;
                    } else {
                        st[t].in_band++;
                        if (band > 0 && fabsl(r.s_all) / band > st[t].worst)
                            st[t].worst = fabsl(r.s_all) / band;
                    }
                    if (bad || printed < 8) {
                        printed++;
                        printf("  %s %s: family %s pair %zu: original hit %u, transformed %u; oracle s %.6Lg, "
                               "band %.3Lg, S %.4Lg\n",
                               bad ? "FAIL" : "in band:", tname[t], tb_family_name(fams[f]), done + i, hit[i], th[t][i],
                               r.s_all, band, orc_scale(&a, &b));
                    }
                }
            }
            done += m;
        }
    }
    double t1 = orc_now();
    printf("%-10s %9s %10s %10s %14s\n", "transform", "pairs", "in_band", "out_band", "worst |s|/band");
    for (int t = 0; t < NT; t++)
        printf("%-10s %9zu %10zu %10zu %14.3Lg\n", tname[t], st[t].pairs, st[t].in_band, st[t].out_band, st[t].worst);
    printf("%.2f s; %s\n", t1 - t0, fails ? "FAILED" : "ok");
    tb_soa_free(&A);
    tb_soa_free(&B);
    for (int t = 0; t < NT; t++) {
        tb_soa_free(&TA[t]);
        tb_soa_free(&TB[t]);
    }
    return fails ? 1 : 0;
}

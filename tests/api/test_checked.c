/* test_checked.c - the checked mode: pairs whose axes break the precondition are flagged (bad = 2) instead of answered. */
/* SPDX-License-Identifier: MIT */
/* Run with SATBOX_CHECKED=1 (checked) or SATBOX_CHECKED=0 (the default mode: nothing flagged,
 * the kernels answer as always). The batch mixes good pairs with boxes whose axes carry a scale
 * (x2), a shear (u1 tilted towards u0 by 1e-2) and all-zero axes (a calloc'ed pool), the cases
 * that otherwise give a plausible but wrong answer. Which pairs must be flagged is decided here
 * from the geometry we built, independently of satbox. Checked, in every form (overlap,
 * collide, contacts, one-vs-many, pool, records, quaternion records, stream):
 *  - flagged pairs: hit 0, bad SATBOX_BAD_AXES, separation NaN, axis invalid, count 0, no record,
 *    not in the list, not counted (checked mode); bad 0 (default mode);
 *  - every other pair's outputs equal, bit for bit, those of a batch holding only the good pairs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_util.h"
#include "support.h"

static int failures = 0;

#include "check.h"

enum { N = 203 };

/* Breaks box b's axes in way w (1 scale, 2 shear, 3 zero); w = 0 leaves it. */
static void break_axes(satbox_box *b, int w)
{
    for (int c = 0; c < 3; c++) {
        if (w == 1)
            b->axis[0][c] *= 2.0f;
        else if (w == 2)
            b->axis[1][c] += 1e-2f * b->axis[0][c];
        else if (w == 3)
            b->axis[0][c] = b->axis[1][c] = b->axis[2][c] = 0.0f;
    }
}

int main(void)
{
    tb_require_isa();
    const char *env = getenv("SATBOX_CHECKED");
    int checked = env && !strcmp(env, "1");
    CHECK(satbox_checked_active() == checked, "satbox_checked_active() %d with SATBOX_CHECKED=%s",
          satbox_checked_active(), env ? env : "(unset)");
    printf("path %s, checked mode %s\n", satbox_isa_name(satbox_isa_active()), checked ? "on" : "off");

    tb_rng r;
    tb_seed(&r, 99);
    satbox_box A[N], B[N];
    int broken[N], ngood = 0, nbroken = 0;
    for (int i = 0; i < N; i++) {
        tb_make_pair(&r, i % 2 ? TB_STACKED : TB_UNIFORM, &A[i], &B[i]);
        int w = i % 5 == 2 ? 1 + (i / 5) % 3 : 0; /* every 5th pair from 2: one box broken */
        break_axes(i % 10 == 2 ? &A[i] : &B[i], w);
        broken[i] = w != 0;
        nbroken += broken[i];
        ngood += !broken[i];
    }
    /* The same pairs as a pool (A_i at 2i, B_i at 2i+1) and the good pairs alone. */
    tb_soa sa, sb, pool, ga, gb;
    tb_soa_alloc(&sa, N);
    tb_soa_alloc(&sb, N);
    tb_soa_alloc(&pool, 2 * N);
    tb_soa_alloc(&ga, N);
    tb_soa_alloc(&gb, N);
    satbox_pair pairs[N];
    int good_at[N];
    for (int i = 0, g = 0; i < N; i++) {
        tb_soa_set(&sa, (size_t)i, &A[i]);
        tb_soa_set(&sb, (size_t)i, &B[i]);
        tb_soa_set(&pool, 2 * (size_t)i, &A[i]);
        tb_soa_set(&pool, 2 * (size_t)i + 1, &B[i]);
        pairs[i] = (satbox_pair){(uint32_t)(2 * i), (uint32_t)(2 * i + 1)};
        good_at[i] = broken[i] ? -1 : g;
        if (!broken[i]) {
            tb_soa_set(&ga, (size_t)g, &A[i]);
            tb_soa_set(&gb, (size_t)g, &B[i]);
            g++;
        }
    }
    satbox_rec *rec = malloc(2 * N * sizeof *rec);
    satbox_pack_rec(&pool.view, 2 * N, rec);

    /* ---- collide (plain and records) ---- */
    uint8_t hit[N], bad[N], axis[N], ghit[N], gbad[N], gaxis[N];
    float sep[N], nrm[3][N], gsep[N], gnrm[3][N];
    satbox_result res = {hit, sep, {nrm[0], nrm[1], nrm[2]}, axis, bad};
    satbox_result gres = {ghit, gsep, {gnrm[0], gnrm[1], gnrm[2]}, gaxis, gbad};
    float margin = 0.01f;
    ptrdiff_t gcount = satbox_collide(&ga.view, &gb.view, (size_t)ngood, margin, &gres);
    for (int form = 0; form < 2; form++) {
        uint32_t list[N];
        ptrdiff_t cnt = form == 0 ? satbox_collide(&sa.view, &sb.view, N, margin, &res)
                                  : satbox_collide_pairs_rec(rec, 2 * N, pairs, N, margin, &res, list);
        const char *fn = form == 0 ? "collide" : "collide_pairs_rec";
        int flagged = 0;
        for (int i = 0; i < N; i++) {
            int g = good_at[i];
            if (g < 0) {
                if (checked) {
                    CHECK(hit[i] == 0 && bad[i] == SATBOX_BAD_AXES && isnan(sep[i]) && axis[i] == SATBOX_AXIS_INVALID &&
                              nrm[0][i] == 0 && nrm[1][i] == 0 && nrm[2][i] == 0,
                          "%s pair %d: hit %u bad %u sep %g axis %u", fn, i, hit[i], bad[i], sep[i], axis[i]);
                    flagged += bad[i] == SATBOX_BAD_AXES;
                } else {
                    CHECK(bad[i] == 0, "%s pair %d: flagged (bad %u) with the checked mode off", fn, i, bad[i]);
                }
                continue;
            }
            CHECK(hit[i] == ghit[g] && bad[i] == gbad[g] && axis[i] == gaxis[g] &&
                      !memcmp(&sep[i], &gsep[g], 4) && nrm[0][i] == gnrm[0][g] && nrm[1][i] == gnrm[1][g] &&
                      nrm[2][i] == gnrm[2][g],
                  "%s good pair %d differs from the good-only batch", fn, i);
        }
        if (checked) {
            CHECK(flagged == nbroken, "%s: %d of %d broken pairs flagged", fn, flagged, nbroken);
            CHECK(cnt == gcount, "%s: count %td, good pairs' hits %td", fn, cnt, gcount);
        }
        if (form == 1) {
            ptrdiff_t k = 0;
            for (int i = 0; i < N; i++)
                if (hit[i] == 1)
                    CHECK(k < cnt && list[k++] == (uint32_t)i, "%s: list entry %td", fn, k - 1);
            CHECK(k == cnt, "%s: list holds %td of %td hits", fn, cnt, k);
        }
    }

    /* ---- overlap: plain, one-vs-many, pool with only a list (the count is the only other output) ---- */
    ptrdiff_t gov = satbox_overlap(&ga.view, &gb.view, (size_t)ngood, ghit, gbad);
    ptrdiff_t ov = satbox_overlap(&sa.view, &sb.view, N, hit, bad);
    uint32_t list[N];
    ptrdiff_t ovl = satbox_overlap_pairs(&pool.view, 2 * N, pairs, N, NULL, list, NULL);
    if (checked) {
        CHECK(ov == gov && ovl == gov, "overlap counts %td / %td, good pairs' %td", ov, ovl, gov);
        for (ptrdiff_t k = 0; k < ovl; k++)
            CHECK(!broken[list[k]], "overlap_pairs lists flagged pair %u", list[k]);
    }
    for (int i = 0; i < N; i++) {
        if (broken[i])
            CHECK(checked ? hit[i] == 0 && bad[i] == SATBOX_BAD_AXES : bad[i] == 0, "overlap pair %d: hit %u bad %u", i,
                  hit[i], bad[i]);
        else
            CHECK(hit[i] == ghit[good_at[i]] && bad[i] == 0, "overlap good pair %d", i);
    }
    {
        satbox_box one = A[2]; /* a broken box (pair 2 breaks A): every pair of the call is flagged */
        ptrdiff_t c1 = satbox_overlap_one(&one, &sb.view, N, hit, bad);
        int all = 1;
        for (int i = 0; i < N; i++)
            all &= checked ? bad[i] == SATBOX_BAD_AXES && hit[i] == 0 : bad[i] == 0 || bad[i] == 1;
        CHECK(all && (!checked || c1 == 0), "overlap_one with a broken box: %td hits", c1);
    }

    /* ---- contacts and the stream ---- */
    tc_out o, g;
    tc_alloc(&o, N);
    tc_alloc(&g, N);
    ptrdiff_t gc = satbox_contacts(&ga.view, &gb.view, (size_t)ngood, margin, &g.view);
    ptrdiff_t c = satbox_contacts_pairs(&pool.view, 2 * N, pairs, N, margin, &o.view, list);
    satbox_manifold *st = malloc(N * sizeof *st);
    ptrdiff_t cs = satbox_contacts_stream_pairs_rec(rec, 2 * N, pairs, N, margin, st, bad);
    if (checked)
        CHECK(c == gc && cs == gc, "contacts counts %td, stream %td, good pairs' %td", c, cs, gc);
    for (int i = 0; i < N; i++) {
        tc_pair p, q;
        tc_get(&o, (size_t)i, &p);
        if (broken[i]) {
            if (checked)
                CHECK(p.count == 0 && p.hit == 0 && p.bad == (int)SATBOX_BAD_AXES && p.feature[0] == SATBOX_FEATURE_NONE &&
                          bad[i] == SATBOX_BAD_AXES,
                      "contacts pair %d: count %d hit %d bad %d / stream bad %u", i, p.count, p.hit, p.bad, bad[i]);
            continue;
        }
        tc_get(&g, (size_t)good_at[i], &q);
        CHECK(!memcmp(&p, &q, sizeof p) && bad[i] == 0, "contacts good pair %d differs from the good-only batch", i);
    }
    for (ptrdiff_t k = 0; k < cs; k++)
        CHECK(!checked || !broken[st[k].pair], "the stream holds a record of flagged pair %u", st[k].pair);

    /* ---- quaternion records: axes built inside, never flagged ---- */
    satbox_qrec *qr = calloc(2 * N, sizeof *qr);
    for (int i = 0; i < 2 * N; i++) {
        const satbox_box *b = i % 2 ? &B[i / 2] : &A[i / 2];
        memcpy(qr[i].center, b->center, sizeof qr[i].center);
        memcpy(qr[i].half, b->half, sizeof qr[i].half);
        qr[i].quat[0] = (float)(i % 7) * 0.1f;
        qr[i].quat[3] = 1.0f;
    }
    satbox_overlap_pairs_qrec(qr, 2 * N, pairs, N, hit, NULL, bad);
    int any = 0;
    for (int i = 0; i < N; i++)
        any |= bad[i];
    CHECK(!any, "a quaternion record pair was flagged");

    free(qr);
    free(st);
    tc_free(&o);
    tc_free(&g);
    free(rec);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
    tb_soa_free(&pool);
    tb_soa_free(&ga);
    tb_soa_free(&gb);
    printf("%d broken pairs of %d: %s: %d failures\n", nbroken, N, failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

/* test_contacts_ode.c - satbox_contacts against ODE's box-box test (Debian libode-dev, dCollide on box geoms). */
/* SPDX-License-Identifier: MIT */
/* Usage: test_contacts_ode [--pairs N] [--seed N]
 * On the same random and stacked pairs (margin 0: ODE has no speculative distance) compares the
 * hit, the normal and the deepest depth, prints the agreement table, and classifies every
 * disagreement by its cause under satbox's documented rules:
 *  - "touch": the pair touches within rounding (|separation| <= 1e-5 of its scale): ODE works in
 *    double on the same float inputs, satbox in float;
 *  - "axis": the two chose different axes: satbox's hysteresis (face over edge unless the edge is
 *    better by 5% + 2e-4 size; A's face over B's unless better by the same) against ODE's rule
 *    (an edge axis must beat the best face by a factor 1.05 on its depth; ODE prefers box 1's
 *    face only on ties), or ties between equally good axes;
 *  - "clip": same axis and normal, different deepest depth because the clipped points differ
 *    (satbox snaps nearly coincident edges, ODE falls back differently when clipping leaves none);
 *  - "empty": ODE's own overlap test (dBoxTouchesBox) says the boxes overlap but its clipping
 *    produced no point, so dCollide reports nothing (satbox then gives its fallback point);
 *  - "par": satbox hits, ODE reports nothing and the boxes have edges parallel within 1e-3 rad:
 *    ODE's edge tests have no guard for nearly parallel edges (their cross product is rounding
 *    noise), so a spurious edge axis separates deeply overlapping boxes; satbox skips an edge axis
 *    whose edges are that close to parallel (|R[i][j]| >= SATBOX_PARALLEL_ABS_COS, the rule of
 *    satbox.h; no epsilon elsewhere) and all face gaps say overlap;
 *  - "other": anything else; the test fails if more than 0.1% of the hits are "other". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "contacts_util.h"
#include "support.h"

static int failures = 0;

#include "check.h"

typedef struct ode_out {
    int hit, code, touches; /* touches: ODE's own SAT (dBoxTouchesBox) says they overlap */
    double normal[3], deepest;
} ode_out;

static void to_ode(const satbox_box *b, dVector3 p, dMatrix3 R, dVector3 side)
{
    for (int i = 0; i < 3; i++) {
        p[i] = b->center[i];
        side[i] = 2.0 * b->half[i];
        for (int j = 0; j < 3; j++)
            R[i * 4 + j] = b->axis[j][i]; /* row i, column j: column j is local axis j */
        R[i * 4 + 3] = 0;
    }
    p[3] = side[3] = 0;
}

/* ODE's answer through dCollide on two box geoms; the axis code from dBoxBox on the same data. */
static void ode_pair(dGeomID ga, dGeomID gb, const satbox_box *a, const satbox_box *b, ode_out *o)
{
    dVector3 pa, pb, sa, sb;
    dMatrix3 Ra, Rb;
    to_ode(a, pa, Ra, sa);
    to_ode(b, pb, Rb, sb);
    dGeomBoxSetLengths(ga, sa[0], sa[1], sa[2]);
    dGeomBoxSetLengths(gb, sb[0], sb[1], sb[2]);
    dGeomSetPosition(ga, pa[0], pa[1], pa[2]);
    dGeomSetPosition(gb, pb[0], pb[1], pb[2]);
    dGeomSetRotation(ga, Ra);
    dGeomSetRotation(gb, Rb);
    dContactGeom cg[8];
    int n = dCollide(ga, gb, 8, cg, sizeof cg[0]);
    o->hit = n > 0;
    o->touches = dBoxTouchesBox(pa, Ra, sa, pb, Rb, sb);
    memset(o->normal, 0, sizeof o->normal);
    o->deepest = -1e30;
    o->code = 0;
    if (n > 0) {
        /* ODE: moving geom 1 along the normal by depth separates them, so its normal points from
         * B towards A; satbox's points from A towards B. */
        for (int c = 0; c < 3; c++)
            o->normal[c] = -cg[0].normal[c];
        for (int k = 0; k < n; k++)
            o->deepest = fmax(o->deepest, cg[k].depth);
        dVector3 nrm;
        dReal depth;
        int code = 0;
        dContactGeom tmp[8];
        dBoxBox(pa, Ra, sa, pb, Rb, sb, nrm, &depth, &code, 8, tmp, sizeof tmp[0]);
        o->code = code;
    }
}

/* 1 if an axis of a is parallel to an axis of b within 1e-3 rad (near-parallel edges). */
static int parallel_edges(const satbox_box *a, const satbox_box *b)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = 0;
            for (int c = 0; c < 3; c++)
                d += (double)a->axis[i][c] * b->axis[j][c];
            if (fabs(d) > 1 - 5e-7)
                return 1;
        }
    return 0;
}

typedef struct table {
    size_t pairs, hit_agree, both, normal_agree, depth_agree;
    size_t touch, axis, clip, empty, par, other;
} table;

static void compare(tb_family fam, size_t total, uint64_t seed, table *t)
{
    enum { B = 4096 };
    tb_rng r;
    tb_seed(&r, seed + (uint64_t)fam);
    tb_soa sa, sb;
    tb_soa_alloc(&sa, B);
    tb_soa_alloc(&sb, B);
    tc_out o;
    tc_alloc(&o, B);
    float sep[B];
    satbox_result res = {.separation = sep};
    static satbox_box as[B], bs[B];
    dGeomID ga = dCreateBox(0, 1, 1, 1), gb = dCreateBox(0, 1, 1, 1);
    memset(t, 0, sizeof *t);
    for (size_t done = 0; done < total; done += B) {
        size_t n = total - done < B ? total - done : B;
        for (size_t i = 0; i < n; i++) {
            tb_make_pair(&r, fam, &as[i], &bs[i]);
            tb_soa_set(&sa, i, &as[i]);
            tb_soa_set(&sb, i, &bs[i]);
        }
        satbox_contacts(&sa.view, &sb.view, n, 0.0f, &o.view);
        satbox_collide(&sa.view, &sb.view, n, 0.0f, &res);
        for (size_t i = 0; i < n; i++) {
            tc_pair p;
            tc_get(&o, i, &p);
            ode_out q = {0};
            ode_pair(ga, gb, &as[i], &bs[i], &q);
            double scale = 0;
            for (int c = 0; c < 3; c++)
                scale = fmax(scale, fmax(fmax(fabs(as[i].center[c]), fabs(bs[i].center[c])),
                                         fmax(as[i].half[c], bs[i].half[c])));
            t->pairs++;
            int touch = fabs(sep[i]) <= 1e-5 * scale;
            if (p.hit != q.hit) {
                if (touch)
                    t->touch++;
                else if (p.hit && q.touches)
                    t->empty++;
                else if (p.hit && parallel_edges(&as[i], &bs[i]))
                    t->par++;
                else {
                    t->other++;
                    if (t->other <= 5) {
                        printf("  other: hit %d vs ODE %d, separation %g\n", p.hit, q.hit, sep[i]);
                        for (int z = 0; z < 2; z++) {
                            const satbox_box *X = z ? &bs[i] : &as[i];
                            printf("    c %.9g %.9g %.9g h %.9g %.9g %.9g u %.9g %.9g %.9g | %.9g %.9g %.9g | %.9g %.9g "
                                   "%.9g\n",
                                   X->center[0], X->center[1], X->center[2], X->half[0], X->half[1], X->half[2],
                                   X->axis[0][0], X->axis[0][1], X->axis[0][2], X->axis[1][0], X->axis[1][1],
                                   X->axis[1][2], X->axis[2][0], X->axis[2][1], X->axis[2][2]);
                        }
                    }
                }
                continue;
            }
            t->hit_agree++;
            if (!p.hit)
                continue;
            t->both++;
            double dn = 0;
            for (int c = 0; c < 3; c++)
                dn += p.normal[c] * q.normal[c];
            double deep = -1e30;
            for (int k = 0; k < p.count; k++)
                deep = fmax(deep, p.depth[k]);
            int n_ok = dn > 1 - 1e-6;
            int d_ok = fabs(deep - q.deepest) <= 1e-4 * scale;
            t->normal_agree += (size_t)n_ok;
            t->depth_agree += (size_t)(n_ok && d_ok);
            if (n_ok && d_ok)
                continue;
            if (q.code - 1 != p.axis)
                t->axis++;
            else if (touch)
                t->touch++;
            else if (n_ok)
                t->clip++;
            else {
                t->other++;
                if (t->other <= 5)
                    printf("  other: axis %d (ODE %d), n.n' %.9f, deepest %g vs ODE %g\n", p.axis, q.code - 1, dn, deep,
                           q.deepest);
            }
        }
    }
    dGeomDestroy(ga);
    dGeomDestroy(gb);
    tc_free(&o);
    tb_soa_free(&sa);
    tb_soa_free(&sb);
}

int main(int argc, char **argv)
{
    size_t pairs = 200000;
    uint64_t seed = 20261123;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--pairs"))
            pairs = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[++i], NULL, 10);
    }
    dInitODE2(0);
    printf("satbox_contacts (path %s) vs ODE %s dCollide box-box, margin 0, seed %llu\n",
           satbox_isa_name(satbox_isa_active()), dGetConfiguration(), (unsigned long long)seed);
    printf("%-9s %8s %9s %7s %9s %9s | disagreements: %6s %6s %6s %6s %6s %6s\n", "family", "pairs", "hit agr", "both",
           "normal", "deepest", "touch", "axis", "clip", "empty", "par", "other");
    tb_family fams[] = {TB_UNIFORM, TB_STACKED};
    for (int f = 0; f < 2; f++) {
        table t;
        compare(fams[f], pairs, seed, &t);
        printf("%-9s %8zu %8.4f%% %7zu %8.4f%% %8.4f%% | %21zu %6zu %6zu %6zu %6zu %6zu\n", tb_family_name(fams[f]),
               t.pairs, 100.0 * t.hit_agree / t.pairs, t.both, 100.0 * t.normal_agree / (t.both ? t.both : 1),
               100.0 * t.depth_agree / (t.both ? t.both : 1), t.touch, t.axis, t.clip, t.empty, t.par, t.other);
        CHECK(t.other * 1000 <= t.both, "%s: %zu unexplained disagreements", tb_family_name(fams[f]), t.other);
        CHECK(t.hit_agree * 100 >= t.pairs * 99, "%s: hit agreement below 99%%", tb_family_name(fams[f]));
    }
    dCloseODE();
    printf("%s: %d failures\n", failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

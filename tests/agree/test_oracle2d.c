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
 * overlap == collide(0).hit. Valid families should give no bad pairs; any is reported.
 *
 * Then the contact manifolds (satbox2d_contacts, _poly_contacts, _rect_poly_contacts) of the same
 * kinds and families (margin 0, and a speculative margin on the uniform and touching families),
 * each point against the long-double shapes: P = B + 2^-24 (|x| + |y|) (the band plus one rounding
 * of each world coordinate: positions are returned in world coordinates).
 *  - within both shapes: the point is at most P outside the incident shape, and inside the
 *    reference edge's slab: at most P outside its side planes (the lines through its ends along
 *    its normal) and at most max(separation, 0) + P above its line. A point deeper than the
 *    reference shape is thick lies outside it beyond the slab (deep pairs, as in Box2D): counted
 *    in the table (column `beyond`), not a failure;
 *  - its separation is the exact signed distance of the returned point from the reference edge's
 *    line, within P; it is <= margin;
 *  - two points are at least SATBOX2D_MERGE_TOL times the reference edge's L1 length apart, both
 *    measured in the frame of the work (bodies: A's body frame) (less
 *    2 P, the rounding of the two positions);
 *  - no missed contact: a pair whose exact SAT value is below -B has a point, also in the cases that
 *    had none before issue 34's fallback point, counted apart and required to be 0: a zero-area
 *    polygon (column `flat`), the dent family's nearly collinear reference edges (`dent`), and
 *    corner-to-corner overlaps shallower than 2^-10 S (`corner`); no pair whose exact value is above
 *    margin + B has a point. A fallback point (end SATBOX2D_FEATURE_VERTEX, column `vertex`) is the
 *    incident shape's deepest vertex: checked on that shape and in depth, not in the slab;
 *  - `shallow` (reported): overlapping pairs whose deepest point is above the exact SAT value by
 *    more than P.
 * The prepared kinds (prep: satbox2d_prep_*_pairs on the pairs' world polygons prepared; body:
 * satbox2d_body_*_pairs on body-local shapes with random transforms, the exact shapes placed in
 * long double) use the band of satbox2d.h's prepared forms, K * 2^-24 * (S + R) + 2^-146.
 * Table: worst distance outside each shape and worst depth error in units of P, smallest spacing
 * in units of the reference edge's L1 length. */
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

enum { RECT, POLY, RECT_POLY, TRI_OCT, PREP, BODY, NKIND };
static const char *kind_name[NKIND] = {"rect", "poly", "rect-poly", "tri-oct", "prep", "body"};

/* The prepared kinds' band grows with R, the largest L1 norm of a vertex in the frame of the work
 * (satbox2d.h "Prepared polygons"): K_BAND * 2^-24 * (S + R) + 2^-146. */
static int prepared_kind(int kind) { return kind == PREP || kind == BODY; }
/* Families a kind skips: bodies of the tiny family have subnormal body-local vertices (the shape
 * is rounded away when it is made), and the dent family's reflex vertex, at the tolerance, does
 * not survive the rounding of a rotation into the body frame (such shapes come out bad). */
static int kind_skips(int kind, tb2_family f) { return kind == BODY && (f == TB2_TINY || f == TB2_DENT); }

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
    case POLY:
    case PREP:
    case BODY: tb2_poly_pair(r, f, 0, 0, pa, pb); break;
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

/* Pair i of the chunk's pool as bodies (exact world shapes). */
static void body_exact(size_t i, or2_poly *o);

/* The pair as exact long-double shapes (rectangles: their exact corners; bodies: the local shapes
 * placed exactly, pair i of the chunk) and its exact SAT value. */
static long double exact_pair(int kind, size_t i, const tb_rect *ar, const tb_rect *br, const tb_poly *ap,
                              const tb_poly *bp, or2_poly *a, or2_poly *b, int *id, long double n[2])
{
    if (kind == BODY) {
        body_exact(i, a);
        body_exact(CH + i, b);
        return or2_sat(a, b, id, n);
    }
    if (kind == RECT || kind == RECT_POLY)
        or2_from_rect(ar, a);
    else
        or2_from_poly(ap, a);
    if (kind == RECT)
        or2_from_rect(br, b);
    else
        or2_from_poly(bp, b);
    return kind == RECT ? or2_rect_sat(ar, br, id, n) : or2_sat(a, b, id, n);
}

/* One chunk of generated pairs: the shapes (as drawn, for the oracle) and their SoA batches; for
 * the prepared kinds a pool of 2 CH polygons (A's at i, B's at CH + i), prepared and as bodies. */
static struct {
    tb2_rects ra, rb;
    tb2_polys pa, pb, pool;
    tb_rect ar[CH], br[CH];
    tb_poly ap[CH], bp[CH], poolp[2 * CH];
    satbox_pair pairs[CH];
    tb2_prepared prep;
    tb2_bodies bodies;
} ck;

/* Body i of the chunk's pool as the exact world polygon: position + R(cos, sin) local, in long
 * double, from the floats satbox reads. */
static void body_exact(size_t i, or2_poly *o)
{
    tb_poly l;
    float xf[4];
    tb2_body_get(&ck.bodies, i, &l, xf);
    o->n = l.n;
    for (int k = 0; k < l.n; k++) {
        long double x = l.x[k], y = l.y[k];
        o->x[k] = (long double)xf[0] + ((long double)xf[2] * x - (long double)xf[3] * y);
        o->y[k] = (long double)xf[1] + ((long double)xf[3] * x + (long double)xf[2] * y);
    }
}

/* R of pair i (prepared kinds): the largest |x| + |y| of a vertex in the frame of the work (the
 * world; bodies: A's body frame, B's vertices taken there exactly). */
static long double frame_size(int kind, size_t i, const or2_poly *a, const or2_poly *b)
{
    long double r = 0;
    if (kind == PREP) {
        const or2_poly *ps[2] = {a, b};
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < ps[s]->n; k++)
                r = fmaxl(r, fabsl(ps[s]->x[k]) + fabsl(ps[s]->y[k]));
        return r;
    }
    tb_poly l;
    float xf[4];
    tb2_body_get(&ck.bodies, i, &l, xf);
    for (int k = 0; k < l.n; k++)
        r = fmaxl(r, fabsl((long double)l.x[k]) + fabsl((long double)l.y[k]));
    for (int k = 0; k < b->n; k++) {
        long double dx = b->x[k] - xf[0], dy = b->y[k] - xf[1];
        long double u = xf[2] * dx + xf[3] * dy, v = xf[2] * dy - xf[3] * dx;
        r = fmaxl(r, fabsl(u) + fabsl(v));
    }
    return r;
}

static void chunk_alloc(void)
{
    if (tb2_rects_alloc(&ck.ra, CH) || tb2_rects_alloc(&ck.rb, CH) || tb2_polys_alloc(&ck.pa, CH) ||
        tb2_polys_alloc(&ck.pb, CH) || tb2_polys_alloc(&ck.pool, 2 * CH)) {
        printf("out of memory\n");
        exit(2);
    }
}

/* Pairs 0..m-1 of the chunk: the next m pairs of family f drawn from r for this kind. */
static void chunk_fill(tb_rng *r, int kind, tb2_family f, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        gen(r, kind, f, &ck.ar[i], &ck.br[i], &ck.ap[i], &ck.bp[i]);
        tb2_rects_set(&ck.ra, i, &ck.ar[i]);
        tb2_rects_set(&ck.rb, i, &ck.br[i]);
        tb2_polys_set(&ck.pa, i, &ck.ap[i]);
        tb2_polys_set(&ck.pb, i, &ck.bp[i]);
        ck.poolp[i] = ck.ap[i];
        ck.poolp[CH + i] = ck.bp[i];
        ck.pairs[i] = (satbox_pair){(uint32_t)i, (uint32_t)(CH + i)};
    }
    if (!prepared_kind(kind))
        return;
    for (size_t i = m; i < CH; i++) /* the unused entries: copies of a drawn pair (never indexed) */
        ck.poolp[i] = ck.poolp[CH + i] = ck.ap[0];
    for (size_t i = 0; i < 2 * CH; i++)
        tb2_polys_set(&ck.pool, i, &ck.poolp[i]);
    tb2_prepared_free(&ck.prep);
    tb2_bodies_free(&ck.bodies);
    if (kind == PREP ? tb2_prepared_make(&ck.prep, &ck.pool.view, 2 * CH)
                     : tb2_bodies_make(&ck.bodies, r, ck.poolp, 2 * CH, 0)) {
        printf("out of memory\n");
        exit(2);
    }
}

static void chunk_free(void)
{
    tb2_rects_free(&ck.ra);
    tb2_rects_free(&ck.rb);
    tb2_polys_free(&ck.pa);
    tb2_polys_free(&ck.pb);
    tb2_polys_free(&ck.pool);
    tb2_prepared_free(&ck.prep);
    tb2_bodies_free(&ck.bodies);
}

static void run_kind(int kind, tb2_family f, long long n, uint64_t seed, tally *t)
{
    tb_rng r;
    tb_seed(&r, seed * 131 + (uint64_t)kind * 17 + (uint64_t)f);
    chunk_alloc();
    static uint8_t hit[CH], ohit[CH], axis[CH], bad[CH];
    static float sep[CH], nx[CH], ny[CH];
    memset(t, 0, sizeof *t);
    for (long long done = 0; done < n; done += CH) {
        size_t m = (size_t)(n - done < CH ? n - done : CH);
        chunk_fill(&r, kind, f, m);
        satbox2d_result res = {hit, sep, {nx, ny}, axis, bad};
        ptrdiff_t c1, c2;
        if (kind == RECT) {
            c1 = satbox2d_collide(&ck.ra.view, &ck.rb.view, m, 0.0f, &res);
            c2 = satbox2d_overlap(&ck.ra.view, &ck.rb.view, m, ohit, NULL);
        } else if (kind == RECT_POLY) {
            c1 = satbox2d_rect_poly_collide(&ck.ra.view, &ck.pb.view, m, 0.0f, &res);
            c2 = satbox2d_rect_poly_overlap(&ck.ra.view, &ck.pb.view, m, ohit, NULL);
        } else if (kind == PREP) {
            c1 = satbox2d_prep_collide_pairs(ck.prep.rec, 2 * CH, ck.pairs, m, 0.0f, &res, NULL);
            c2 = satbox2d_prep_overlap_pairs(ck.prep.rec, 2 * CH, ck.pairs, m, ohit, NULL, NULL);
        } else if (kind == BODY) {
            c1 = satbox2d_body_collide_pairs(&ck.bodies.view, 2 * CH, ck.pairs, m, 0.0f, &res, NULL);
            c2 = satbox2d_body_overlap_pairs(&ck.bodies.view, 2 * CH, ck.pairs, m, ohit, NULL, NULL);
        } else {
            c1 = satbox2d_poly_collide(&ck.pa.view, &ck.pb.view, m, 0.0f, &res);
            c2 = satbox2d_poly_overlap(&ck.pa.view, &ck.pb.view, m, ohit, NULL);
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
            int id = -1;
            long double n[2], s = exact_pair(kind, i, &ck.ar[i], &ck.br[i], &ck.ap[i], &ck.bp[i], &a, &b, &id, n);
            long double unit = ldexpl(1.0L, -24) * (or2_scale(&a, &b) + (prepared_kind(kind) ? frame_size(kind, i, &a, &b) : 0));
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
            long double ln[2], g = kind == RECT ? or2_rect_axis_gap(&ck.ar[i], &ck.br[i], axis[i], ln)
                                                : or2_axis_gap(&a, &b, axis[i], ln);
            int axis_ok = fabsl(g - sep[i]) <= band && g >= s - 2 * band;
            t->axis_off += !axis_ok;
            t->normal_off += axis_ok && !(fabsl(ln[0] - nx[i]) <= 1e-5L && fabsl(ln[1] - ny[i]) <= 1e-5L);
            if (!axis_ok && t->axis_off <= 3)
                printf("  %s/%s pair %lld: axis %u gap %Lg sep %g oracle %Lg (axis %d)\n", kind_name[kind],
                       tb2_family_name(f), done + (long long)i, axis[i], g, sep[i], s, id);
        }
    }
    chunk_free();
}

/* ---- contact manifolds ------------------------------------------------------------------ */

/* A polygon of (nearly) zero area: |area| <= 1e-6 times its L1 diameter squared. */
static int flat_poly(const or2_poly *p)
{
    long double area = 0, s = or2_scale(p, p);
    for (int k = 0; k < p->n; k++) {
        int k1 = (k + 1) % p->n;
        area += p->x[k] * p->y[k1] - p->x[k1] * p->y[k];
    }
    return fabsl(area) / 2 <= 1e-6L * s * s;
}

/* The exact outward unit normal of edge k of a shape: a rectangle's from its axis (edges 0..3:
 * -u1, u0, u1, -u0, normalised in long double; a zero-extent rectangle's edges have one too),
 * a polygon's from its edge. */
static void ref_normal(const tb_rect *r, const or2_poly *p, int k, long double n[2])
{
    if (r) {
        long double c = r->u[0], s = r->u[1], l = sqrtl(c * c + s * s);
        c /= l;
        s /= l;
        static const int sx[4] = {0, 1, 0, -1}, sy[4] = {-1, 0, 1, 0};
        /* u0 = (c, s), u1 = (-s, c) */
        n[0] = sx[k] * c + sy[k] * -s;
        n[1] = sx[k] * s + sy[k] * c;
        return;
    }
    int k1 = (k + 1) % p->n;
    long double ex = p->x[k1] - p->x[k], ey = p->y[k1] - p->y[k], l = sqrtl(ex * ex + ey * ey);
    n[0] = ey / l;
    n[1] = -ex / l;
}

/* The L1 norm of a world vector in the frame of the work, where satbox measures it (bodies: A's
 * body frame, pair i's A; the others: the world). */
static long double l1_frame(int kind, size_t i, long double dx, long double dy)
{
    if (kind != BODY)
        return fabsl(dx) + fabsl(dy);
    tb_poly l;
    float xf[4];
    tb2_body_get(&ck.bodies, i, &l, xf);
    return fabsl(xf[2] * dx + xf[3] * dy) + fabsl(xf[2] * dy - xf[3] * dx);
}

typedef struct mtally {
    long long pairs, with, points, missed, missed_flat, missed_dent, missed_corner, extra, over_margin, spacing_off, beyond;
    long long vertex, shallow; /* fallback points; overlapping pairs whose deepest point is above the SAT depth by > P */
    double out_inc, out_ref, depth; /* worst, in units of P */
    double spacing;                 /* smallest point spacing / reference edge L1 */
} mtally;

static void run_manifold(int kind, tb2_family f, long long n, uint64_t seed, float margin, mtally *t)
{
    tb_rng r;
    tb_seed(&r, seed * 137 + (uint64_t)kind * 19 + (uint64_t)f);
    chunk_alloc();
    static satbox2d_manifold man[CH];
    memset(t, 0, sizeof *t);
    t->spacing = INFINITY;
    for (long long done = 0; done < n; done += CH) {
        size_t m = (size_t)(n - done < CH ? n - done : CH);
        chunk_fill(&r, kind, f, m);
        ptrdiff_t c = kind == RECT        ? satbox2d_contacts(&ck.ra.view, &ck.rb.view, m, margin, man)
                      : kind == RECT_POLY ? satbox2d_rect_poly_contacts(&ck.ra.view, &ck.pb.view, m, margin, man)
                      : kind == PREP      ? satbox2d_prep_contacts_pairs(ck.prep.rec, 2 * CH, ck.pairs, m, margin, man)
                      : kind == BODY      ? satbox2d_body_contacts_pairs(&ck.bodies.view, 2 * CH, ck.pairs, m, margin, man)
                                          : satbox2d_poly_contacts(&ck.pa.view, &ck.pb.view, m, margin, man);
        CHECK(c >= 0, "%s/%s: manifold call returned %td", kind_name[kind], tb2_family_name(f), c);
        for (size_t i = 0; i < m; i++) {
            const satbox2d_manifold *mf = &man[i];
            if (mf->bad) {
                continue;
            }
            t->pairs++;
            or2_poly a, b;
            int id = -1;
            long double nrm[2], s = exact_pair(kind, i, &ck.ar[i], &ck.br[i], &ck.ap[i], &ck.bp[i], &a, &b, &id, nrm);
            long double band = K_BAND * ldexpl(1.0L, -24) * (or2_scale(&a, &b) + (prepared_kind(kind) ? frame_size(kind, i, &a, &b) : 0)) + FLOOR;
            t->with += mf->count > 0;
            t->points += mf->count;
            /* Classified misses (satbox2d.h's known limits): a zero-area polygon; the dent family (a
             * reference edge nearly collinear with its neighbour, the incident edge beyond its side
             * plane); a corner-to-corner overlap shallower than 2^-10 S. */
            int flat = flat_poly(&a) || flat_poly(&b);
            int corner = s >= -ldexpl(or2_scale(&a, &b), -10);
            if (s < -band && mf->count == 0) {
                if (flat)
                    t->missed_flat++;
                else if (f == TB2_DENT)
                    t->missed_dent++;
                else if (corner)
                    t->missed_corner++;
                else
                    t->missed++;
            }
            t->extra += s > (long double)margin + band && mf->count > 0;
            long double lref = 0, deepest = INFINITY, Pmax = 0;
            for (int j = 0; j < mf->count; j++) {
                const satbox2d_point *pt = &mf->point[j];
                long double x = pt->x, y = pt->y, sep = pt->separation;
                long double P = band + ldexpl(1.0L, -24) * (fabsl(x) + fabsl(y));
                int ref_b = (int)(pt->id >> 12 & 1u), ke = (int)(pt->id >> 8 & 15u);
                int vertex = (pt->id & 15u) == SATBOX2D_FEATURE_VERTEX; /* a fallback point: no slab */
                t->vertex += vertex;
                deepest = fminl(deepest, sep);
                Pmax = fmaxl(Pmax, P);
                const or2_poly *ref = ref_b ? &b : &a, *inc = ref_b ? &a : &b;
                const tb_rect *rrect = ref_b ? (kind == RECT ? &ck.br[i] : NULL) : (kind == RECT || kind == RECT_POLY ? &ck.ar[i] : NULL);
                long double rn[2];
                ref_normal(rrect, ref, ke, rn);
                int k1 = (ke + 1) % ref->n;
                long double dist = rn[0] * (x - ref->x[ke]) + rn[1] * (y - ref->y[ke]);
                long double side = fmaxl(-(-rn[1] * (x - ref->x[ke]) + rn[0] * (y - ref->y[ke])),
                                         -rn[1] * (x - ref->x[k1]) + rn[0] * (y - ref->y[k1]));
                long double oi = or2_outside(inc, x, y) / P;
                long double orf = vertex ? 0 : fmaxl(side, dist - (sep > 0 ? sep : 0)) / P;
                long double de = fabsl(sep - dist) / P;
                t->beyond += or2_outside(ref, x, y) - (sep > 0 ? sep : 0) > P;
                t->out_inc = oi > t->out_inc ? (double)oi : t->out_inc;
                t->out_ref = orf > t->out_ref ? (double)orf : t->out_ref;
                t->depth = de > t->depth ? (double)de : t->depth;
                t->over_margin += !(pt->separation <= margin);
                lref = l1_frame(kind, i, ref->x[k1] - ref->x[ke], ref->y[k1] - ref->y[ke]);
                if (j == 1) {
                    long double gap = l1_frame(kind, i, x - mf->point[0].x, y - mf->point[0].y);
                    if (lref > 0 && gap / lref < t->spacing)
                        t->spacing = (double)(gap / lref);
                    t->spacing_off += !(gap >= SATBOX2D_MERGE_TOL * lref - 2 * P);
                }
                if ((oi > 1 || orf > 1 || de > 1) && t->out_inc + t->out_ref + t->depth < 1e31 &&
                    (oi > 1 ? t->out_inc : orf > 1 ? t->out_ref : t->depth) == (double)(oi > 1 ? oi : orf > 1 ? orf : de))
                    printf("  %s/%s pair %lld point %d: outside incident %.2Lf, reference %.2Lf, depth error %.2Lf (P); "
                           "sep %g id 0x%x oracle s %Lg\n",
                           kind_name[kind], tb2_family_name(f), done + (long long)i, j, oi, orf, de, pt->separation,
                           pt->id, s);
            }
            t->shallow += s < -band && mf->count > 0 && deepest > s + Pmax;
        }
    }
    chunk_free();
}

static int manifold_table(long long per, uint64_t seed)
{
    printf("\ncontact manifolds: P = band + 2^-24 (|x| + |y|); worst distances and depth error in units of P\n");
    printf("%-10s %-10s %6s %8s %8s %7s %6s %5s %5s %6s %5s %7s %7s %7s %8s %4s %6s %6s %7s\n", "kind", "family", "margin", "pairs",
           "contacts", "points", "missed", "flat", "dent", "corner", "extra", "out-inc", "out-slab", "depth", "spacing", ">mrg", "beyond",
           "vertex", "shallow");
    int before = failures;
    for (int kind = 0; kind < NKIND; kind++)
        for (int f = 0; f < TB2_BAD + 2; f++) {
            tb2_family fam = f < TB2_BAD ? (tb2_family)f : f == TB2_BAD ? TB2_UNIFORM : TB2_TOUCHING;
            float margin = f < TB2_BAD ? 0.0f : f == TB2_BAD ? 0.05f : 0.01f;
            if (fam == TB2_TINY || kind_skips(kind, fam))
                continue; /* satbox2d.h: rectangles below about 2^-60 are out of the manifold's scope */
            mtally t;
            run_manifold(kind, fam, per, seed + (uint64_t)f, margin, &t);
            printf("%-10s %-10s %6.2f %8lld %8lld %7lld %6lld %5lld %5lld %6lld %5lld %7.2f %8.2f %7.2f %8.2g %4lld %6lld %6lld %7lld\n",
                   kind_name[kind], tb2_family_name(fam), (double)margin, t.pairs, t.with, t.points, t.missed, t.missed_flat, t.missed_dent, t.missed_corner, t.extra,
                   t.out_inc, t.out_ref, t.depth, t.spacing, t.over_margin, t.beyond, t.vertex, t.shallow);
            CHECK(t.missed == 0 && t.extra == 0, "%s/%s margin %g: %lld missed contacts, %lld beyond the margin",
                  kind_name[kind], tb2_family_name(fam), (double)margin, t.missed, t.extra);
            /* The limit columns: the fallback point gives every overlapping pair a point. */
            CHECK(t.missed_flat == 0 && t.missed_dent == 0 && t.missed_corner == 0,
                  "%s/%s margin %g: overlapping pairs without a point (flat %lld, dent %lld, corner %lld)", kind_name[kind],
                  tb2_family_name(fam), (double)margin, t.missed_flat, t.missed_dent, t.missed_corner);
            CHECK(t.out_inc <= 1 && t.out_ref <= 1 && t.depth <= 1, "%s/%s margin %g: a point outside a shape or off in depth",
                  kind_name[kind], tb2_family_name(fam), (double)margin);
            CHECK(t.over_margin == 0 && t.spacing_off == 0, "%s/%s margin %g: %lld points above the margin, %lld too close",
                  kind_name[kind], tb2_family_name(fam), (double)margin, t.over_margin, t.spacing_off);
        }
    return failures - before;
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
            if (kind_skips(kind, (tb2_family)f))
                continue;
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
    int mf = manifold_table(per, seed);
    printf("contact manifolds: %d failures\n", mf);
    return failures ? 1 : 0;
}

/* oracle.h - independent long-double SAT oracle, point-in-both check, error band and test CLI helpers. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_ORACLE_H
#define SATBOX_TEST_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the oracle ----------------------------------------------------------------------------
 * A box given to the oracle is taken literally: the convex hull of its 8 float corners
 * c + s0*h0*u0 + s1*h1*u1 + s2*h2*u2 (s = +-1), converted exactly to long double. (Float axes are
 * orthonormal only to ~1e-7, so this is a parallelepiped; the oracle is exact for it.)
 *
 * orc_sat() is a separating axis test that never uses the projected-radius formula: it projects
 * all 16 corners on each of the 15 unit axes and measures the gap between the two intervals.
 * Its axes are the exact candidate set of two parallelepipeds: face normals
 * n_i = u_{i+1} x u_{i+2} (= u_i for an exact rotation; ids 0-2 for A, 3-5 for B) and the edge
 * crosses uA_i x uB_j (id 6 + 3i + j). Edge crosses with |L|^2 < ORC_PARALLEL_LEN2 are exactly
 * parallel edges (the smallest non-zero cross of float unit vectors is ~1e-7): they can never
 * separate and are skipped. All in long double.
 *
 * orc_intersect() answers "is there a point inside both boxes" without any axis: a non-empty
 * intersection of two convex polytopes has a vertex, which lies on an edge of one of them, so
 * the boxes meet iff one of the 24 edges (segments) meets the other box (clipped against its
 * 3 slabs, Cyrus-Beck). It validates orc_sat(). */

#define ORC_PARALLEL_LEN2 1e-20L
/* orc_intersect() widens every slab by this times S (orc_scale()): closed sets, robust contact. */
#define ORC_MEET_TOL 1e-12L

typedef struct orc_result {
    long double s_all;      /* true separation: max gap over every non-parallel axis (> 0 disjoint) */
    int best;               /* axis id of s_all (lowest id on ties) */
    long double gap[15];    /* normalised gap per axis (-inf for skipped parallel edges) */
    long double len[15];    /* |L| before normalisation (|n_i| for faces, |uA_i x uB_j| for edges) */
    long double dir[15][3]; /* unit axis, oriented so that (cB - cA) . dir >= 0 */
    long double proj[15];   /* (cB - cA) . dir (>= 0) */
} orc_result;

/* Runs the corner-projection SAT oracle; returns r->s_all. */
long double orc_sat(const satbox_box *a, const satbox_box *b, orc_result *r);

/* A box given in long double (center, half extents, axis u[k][c] as satbox_box's axis[k][c]), for
 * boxes whose exact pose is not a float: the exact forward kinematics of a chain
 * (tests/planner/test_chain.c). orc_sat() is orc_sat_l() of its boxes converted exactly. */
typedef struct orc_lbox {
    long double c[3], h[3], u[3][3];
} orc_lbox;
long double orc_sat_l(const orc_lbox *a, const orc_lbox *b, orc_result *r);

/* 1 if some point lies in both boxes (closed sets), 0 if not. Pure point-set test, long double. */
int orc_intersect(const satbox_box *a, const satbox_box *b);

/* ---- the documented error bound --------------------------------------------------------------
 * satbox decides each axis by the sign of its float gap g = |t.L| - (rA + rB) (L unnormalised).
 * satbox.h promises |g~ - g| <= SATBOX_BOUND_REL * S, S = |cB - cA|_1 + the 6 half extents (the
 * derivation is in src/box3d/batch_ref.c). Normalised, the bound of an edge axis is divided by |L|. An axis
 * can therefore flip sign only when its exact normalised gap is within
 *   err_a = (SATBOX_BOUND_REL S + P) / |L_a|
 * of zero, where P is an extra perturbation (length) used by the invariance test for the float
 * rounding of the transformed inputs (0 for the oracle test).
 * satbox skips the edge axes with float |R_ij| >= SATBOX_PARALLEL_ABS_COS (the near-parallel
 * rule); orc_skipped() evaluates that rule on the float input exactly as satbox does.
 *
 * The verdict for a pair:
 *   ORC_MUST_SEP  some used axis has gap > err_a;
 *   ORC_MUST_HIT  every used axis has gap < -err_a;
 *   ORC_BAND      neither: both answers are correct within the bound (includes touching and the
 *                 pairs separated only along skipped near-parallel edges, which satbox reports as
 *                 overlapping; the test reports those apart). */

#define ORC_U (1.0L / 16777216.0L)

typedef enum orc_verdict { ORC_BAND = 0, ORC_MUST_SEP = 1, ORC_MUST_HIT = 2 } orc_verdict;

/* Size of the pair S (see above). */
long double orc_scale(const satbox_box *a, const satbox_box *b);
/* 1 when satbox's near-parallel rule skips axis `id` of this pair. */
int orc_skipped(const satbox_box *a, const satbox_box *b, int id);
/* Error bound err_a of axis `id` (normalised), given the oracle result and a perturbation P. */
long double orc_axis_err(const satbox_box *a, const satbox_box *b, const orc_result *r, int id, long double P);
/* The verdict above, and optionally the largest err_a over the used axes (*band). */
orc_verdict orc_verdict_of(const satbox_box *a, const satbox_box *b, const orc_result *r, long double P,
                           long double *band);
/* Max gap over the axes satbox uses (the skip rule applied). */
long double orc_s_rule(const satbox_box *a, const satbox_box *b, const orc_result *r);

/* ---- small helpers shared by the tests ------------------------------------------------------ */

/* What satbox_motion() must return for k states whose verdicts (satbox_configs()'s) are v, from
 * satbox_planner.h: *first the first state not free (k when none), *any the first state not free
 * of the first round that has one (round r of V = ceil(k / SATBOX_PLAN_ROUND): states r, V + r,
 * 2V + r, ...), the answer with SATBOX_PLAN_ANY. */
void orc_motion_answers(const uint8_t *v, size_t k, size_t *first, size_t *any);

/* Command line of the random tests: --seed N, --scale F (multiplies every default count).
 * In the short runs of tests/run's slow stages (test_short() of scale.h: SATBOX_TEST_SCALE
 * below 0.1) the default counts are divided by `quick_div`. Prints the seed and returns the
 * multiplier through *mult. */
uint64_t orc_cli(int argc, char **argv, const char *test_name, uint64_t default_seed, double quick_div, double *mult);
/* (orc_cli() first calls tb_require_isa() of support.h: exit 77 when SATBOX_ISA names a path
 * this machine lacks.) */
/* Count scaled by mult, at least `min`. */
size_t orc_count(size_t n, double mult, size_t min);
/* Monotonic seconds. */
double orc_now(void);

#ifdef __cplusplus
}
#endif

#endif

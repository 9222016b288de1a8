/* satbox_planner.h - public API of satbox for motion planners: many robot configurations against a box world in one call. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SATBOX_PLANNER_H
#define SATBOX_SATBOX_PLANNER_H

#include "satbox/satbox.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file
 * A sampling-based planner asks, for each robot configuration it samples or visits along a
 * motion, "does any link box touch an obstacle box (or another link)?". satbox answers K
 * configurations in one call, one configuration a SIMD lane: per link, the K poses are a
 * ::satbox_boxes of K boxes (lanes run over configurations), and each obstacle is broadcast to
 * every lane. The cull is the query's own work: the obstacles are first tested against each
 * link's bounding box over the configurations of a step (SBX_W of them, in lanes over the
 * obstacles), then the survivors' AABBs against each configuration's link AABB, then the
 * 15-axis test on the pairs left. A configuration stops being checked at its first hit, a step
 * when all its configurations have one.
 *
 * ## Verdicts
 * `out[k]` is ::SATBOX_FREE (0), ::SATBOX_COLLIDES (1), or ::SATBOX_CONFIG_BAD (2) when a link
 * box of configuration k breaks the per-box rule of satbox_validate() (NaN, infinity, negative
 * extent, coordinates beyond ::SATBOX_COORD_LIMIT): such a configuration is never called free,
 * so `if (out[k])` reads "do not go there" for both.
 *
 * A pair (link, obstacle) or (link, link) is tested only if its world AABBs, each grown by
 * `tol = SATBOX_PLAN_REL * (s_A + s_B)` where `s = |c0| + |c1| + |c2| + h0 + h1 + h2` is a box's
 * scale, overlap; this tolerance is larger than the rounding of the AABBs (computed in float from
 * float input) and of the input itself (double poses rounded to float), so the cull never drops a
 * pair whose boxes touch. A tested pair collides when its 15-axis test says so:
 *  - default mode: satbox_overlap()'s rule (every used axis has a computed gap <= 0), with its
 *    certified bound: a pair apart by more than the bound is free, a pair overlapping deeper than
 *    it collides (satbox.h, "The numerical rule and its error bound");
 *  - ::SATBOX_PLAN_CONSERVATIVE: every used axis has a computed gap <= `tol` (the same tol). A
 *    computed gap above tol proves the exact gap of the input positive, the computation's error
 *    (2^-19 S, S <= s_A + s_B) and the rounding of double input to float (below 2^-20 (s_A + s_B),
 *    derived in src/planner/planner_ref.c) both included; so a configuration whose boxes touch or
 *    overlap exactly is never reported free. The price is false alarms for pairs closer than
 *    about tol; bench/run's planning table and the tests report their rate.
 * Every path (scalar, SSE4.1, AVX2, AVX-512, NEON) gives the same verdicts: the AABBs, the
 * tolerances and the gaps are computed by the same operations in the same order, and the culls of
 * the wide paths only skip pairs whose AABB test fails.
 *
 * ## Precision: reduce double poses first
 * Planners keep poses in double. Subtract one origin near the robot (its base position) from every
 * link and obstacle center in double, then round to float: the scales s then measure the robot's
 * reach, not its distance from the world origin, and tol stays a few ulps of the reach (about
 * 4e-6 of it: 4 um for a 1 m reach at SATBOX_PLAN_REL = 2^-18).
 *
 * ## Memory, threads
 * No heap: the obstacle world lives in memory the caller gives (satbox_world_bytes()); it is
 * read-only after satbox_world_init(), and any number of threads may query it at once. Each query
 * runs on a 16 KiB thread stack like every satbox entry point. */

/** Verdicts of the configuration queries (`out[k]`). */
#define SATBOX_FREE 0u
#define SATBOX_COLLIDES 1u
#define SATBOX_CONFIG_BAD 2u

/** Flags of the queries: conservative mode (see "Verdicts"). */
#define SATBOX_PLAN_CONSERVATIVE 1u
/** satbox_motion(): stop at the first step with a hit and return its earliest colliding state
 * (a colliding state, not always the first of the motion) instead of the first colliding state. */
#define SATBOX_PLAN_ANY 2u

/** States per round of satbox_motion() (see there). */
#define SATBOX_PLAN_ROUND 16u

/** Relative tolerance of the cull and of the conservative mode (see "Verdicts"). */
#define SATBOX_PLAN_REL 0x1p-18f

/** Most link boxes in a robot; most obstacles in a world. */
#define SATBOX_PLAN_MAX_LINKS 256u
#define SATBOX_PLAN_MAX_OBSTACLES ((size_t)1 << 24)

/** An obstacle world, built by satbox_world_init() in the caller's memory. Its fields are the
 * library's: read them, do not write them. */
typedef struct satbox_world {
    size_t n;          /**< number of obstacles */
    const float *rows; /**< the library's rows (boxes, AABBs, scales), inside the caller's memory */
    size_t stride;     /**< floats from one row to the next */
} satbox_world;

/** Bytes of memory satbox_world_init() needs for m obstacles (any alignment is fine). */
SATBOX_API size_t satbox_world_bytes(size_t m);

/** Builds a world of the m boxes `obstacles` (copied) in `mem`.
 * @return m, or a negative ::satbox_error (world untouched): SATBOX_ERR_NULL, SATBOX_ERR_COUNT
 *         (m above ::SATBOX_PLAN_MAX_OBSTACLES), SATBOX_ERR_ARG when `bytes` is less than
 *         satbox_world_bytes(m) or an obstacle breaks the per-box rule of satbox_validate() (a
 *         world with a NaN obstacle cannot promise anything). */
SATBOX_API ptrdiff_t satbox_world_init(satbox_world *world, void *mem, size_t bytes, const satbox_boxes *obstacles,
                                       size_t m);

/** K configurations of a robot of `nlinks` link boxes: `links[l]` holds the K poses of link l (box
 * k is link l in configuration k). Each configuration is tested against every obstacle of `world`
 * (may be NULL: self-collision only) and, per entry of `self` (link index pairs, may be NULL when
 * nself is 0), link a against link b.
 * @param flags  0 or ::SATBOX_PLAN_CONSERVATIVE
 * @param out    k bytes: ::SATBOX_FREE, ::SATBOX_COLLIDES or ::SATBOX_CONFIG_BAD
 * @return the number of configurations not free, or a negative ::satbox_error (nothing written):
 *         SATBOX_ERR_NULL, SATBOX_ERR_COUNT (k or nlinks too large), SATBOX_ERR_INDEX (a self pair
 *         names a link >= nlinks), SATBOX_ERR_ARG (unknown flag), SATBOX_ERR_ALIAS. */
SATBOX_API ptrdiff_t satbox_configs(const satbox_world *world, const satbox_boxes *links, size_t nlinks,
                                    const satbox_pair *self, size_t nself, size_t k, unsigned flags, uint8_t *out);

/** The states of one motion (K configurations in order, as satbox_configs() takes them), checked
 * coarse to fine, in rounds of ::SATBOX_PLAN_ROUND states whatever the path's width: with
 * V = ceil(K / SATBOX_PLAN_ROUND), round v holds states v, V + v, 2V + v, ..., so that the first
 * rounds cover the whole motion; the check stops early (see the flags).
 * @param flags  ::SATBOX_PLAN_CONSERVATIVE, ::SATBOX_PLAN_ANY
 * @return the index of the first state (in motion order) that is not free, k when the whole motion
 *         is free, or a negative ::satbox_error. With ::SATBOX_PLAN_ANY: the first state not free
 *         of the first round that has one. The same on every path. */
SATBOX_API ptrdiff_t satbox_motion(const satbox_world *world, const satbox_boxes *links, size_t nlinks,
                                   const satbox_pair *self, size_t nself, size_t k, unsigned flags);

/** @name Forward kinematics in lanes: a serial chain of revolute joints
 * The robot as a chain: joint j's frame sits in joint j-1's moved frame (the base frame for j = 0)
 * at `origin`, turned by `rot` (`x_parent = rot x + origin`), and then turns about its unit
 * `axis` by the joint value q_j (radians, right-handed). A link box rides on one joint's moved
 * frame (or on the base, joint -1). DH parameters map directly: modified DH (Craig) joint i is
 * `rot` the turn by alpha_{i-1} about x, `origin = (a_{i-1}, -sin(alpha_{i-1}) d_i, cos(alpha_{i-1}) d_i)`,
 * `axis = z`; standard DH moves each joint's (d, a, alpha) into the next joint's fixed part.
 *
 * satbox_chain_poses() computes the link boxes of K configurations (joint vectors) in float lanes,
 * one configuration a lane, relative to the base frame: give the obstacles in the base frame too
 * (the "reduce double poses" rule above). The sines and cosines come from a polynomial of the
 * library's own (the C library's sinf differs between systems), so the poses, and every verdict
 * after them, are bit-identical on every path.
 *
 * ## The error of the lane FK and the bound
 * satbox_chain_init() derives, in double, from the chain itself: `err_center`, a bound on the
 * distance between each computed link box center and the exact one, and `err_axis`, a bound on
 * each component of each computed box axis; "exact" is the forward kinematics in real numbers of
 * the chain as given in double and of the joint values as given in float, or as rounded to float
 * from double when |q| <= 8 (the rounding is inside the bound). The derivation is in
 * src/planner/chain_ref.c; the tests compare the lane poses with a long-double FK against it.
 * The chain queries then test pairs with the tolerance
 * `tol = tol_rel (s_A + s_B) + tol_abs`, where `tol_rel = SATBOX_PLAN_REL + 16.5 err_axis` and
 * `tol_abs = 4.1 err_center` (the chain's fields): a computed gap moves by at most
 * `2.05 (dc_A + dc_B) + 8.2 (du_A + du_B) S'` when the boxes move by their FK errors. So
 * ::SATBOX_PLAN_CONSERVATIVE stays certified for the exact robot: a configuration whose exact link
 * boxes touch an obstacle or each other is never reported free. In the default mode the verdict
 * is satbox_configs()'s on the computed poses: its bound grows by the FK error.
 * Joint values that are NaN or beyond ::SATBOX_CHAIN_MAX_ANGLE make their configuration's boxes
 * NaN: ::SATBOX_CONFIG_BAD in the queries. @{ */

/** Most joints of a chain; the largest |q| (radians) a joint value may have. */
#define SATBOX_CHAIN_MAX_JOINTS 64u
#define SATBOX_CHAIN_MAX_ANGLE 8.0f

/** One revolute joint (see above). `rot` is row-major and must be orthonormal, `axis` unit
 * (dot products within 1e-9 of 0 and 1: rounded double values pass); `origin` finite, |origin| components <= 1e6. */
typedef struct satbox_joint {
    double origin[3];
    double rot[3][3];
    double axis[3];
} satbox_joint;

/** One link box, in the moved frame of joint `joint` (-1: the base frame): center, unit axes
 * (`axis[k]` is box axis k, orthonormal within 1e-9) and half extents (>= 0). */
typedef struct satbox_link {
    int32_t joint;
    double center[3];
    double axis[3][3];
    double half[3];
} satbox_link;

/** A chain built by satbox_chain_init() in the caller's memory. Fields are the library's. */
typedef struct satbox_chain {
    size_t njoints, nlinks;
    const float *data;  /**< the library's form of the chain (inside the caller's memory) */
    double err_center;  /**< bound on |computed - exact| of every link box center */
    double err_axis;    /**< bound on |computed - exact| of every component of every link box axis */
    float tol_rel;      /**< the chain queries' tolerance: tol_rel (s_A + s_B) + tol_abs */
    float tol_abs;
} satbox_chain;

/** Bytes satbox_chain_init() needs for a chain of `njoints` joints and `nlinks` link boxes. */
SATBOX_API size_t satbox_chain_bytes(size_t njoints, size_t nlinks);

/** Builds a chain in `mem` from `njoints` joints and `nlinks` link boxes (copied).
 * @return nlinks, or a negative ::satbox_error (chain untouched): SATBOX_ERR_NULL, SATBOX_ERR_COUNT
 *         (njoints above ::SATBOX_CHAIN_MAX_JOINTS, nlinks above ::SATBOX_PLAN_MAX_LINKS or 0),
 *         SATBOX_ERR_INDEX (a link's joint outside -1 .. njoints - 1), SATBOX_ERR_ARG (bytes short, a
 *         joint or link breaking its rule above). */
SATBOX_API ptrdiff_t satbox_chain_init(satbox_chain *chain, void *mem, size_t bytes, const satbox_joint *joints,
                                       size_t njoints, const satbox_link *links, size_t nlinks);

/** The link boxes of k configurations: joint value j of configuration i is `q[i * qstride + j]`
 * (qstride >= njoints); link l of configuration i is written as box i of `links[l]` (nlinks
 * descriptors of k boxes each, the caller's arrays; satbox_boxes_view() reads them).
 * @return the number of configurations with a bad joint value (their boxes NaN), or a negative
 *         ::satbox_error: SATBOX_ERR_NULL, SATBOX_ERR_COUNT, SATBOX_ERR_ARG (qstride < njoints, or
 *         (k - 1) qstride + njoints floats more than an object can hold),
 *         SATBOX_ERR_ALIAS (an output meets q, the chain or another output). The outputs are
 *         checked against each other link by link (arrays compared where two links' spans meet):
 *         cheap for one allocation per link; arrays of many links interleaved in one allocation
 *         cost O(nlinks^2) comparisons a call (6.8 ms for 256 links). */
SATBOX_API ptrdiff_t satbox_chain_poses(const satbox_chain *chain, const float *q, size_t qstride, size_t k,
                                        const satbox_boxes_out *links);

/** Bytes of scratch memory the chain queries need (any alignment; one per thread). */
SATBOX_API size_t satbox_chain_work_bytes(const satbox_chain *chain);

/** satbox_configs() for k joint vectors (`q` as in satbox_chain_poses()): the lane FK, then the
 * query with the chain's tolerance, in blocks of 128 configurations through `work`
 * (satbox_chain_work_bytes() bytes). `self` indexes the chain's link boxes.
 * @return as satbox_configs(); SATBOX_ERR_ARG also for `work_bytes` too small or a qstride that
 *         satbox_chain_poses() refuses. */
SATBOX_API ptrdiff_t satbox_chain_configs(const satbox_world *world, const satbox_chain *chain,
                                          const satbox_pair *self, size_t nself, const float *q, size_t qstride,
                                          size_t k, unsigned flags, uint8_t *out, void *work, size_t work_bytes);

/** satbox_motion() along the straight joint-space motion from q0 to q1 (njoints values each):
 * state i (0 .. k-1) is `q = (1 - t) q0 + t q1` with `t = (i + 1) / k` (in float, per joint: the
 * start is taken as checked, the last state is q1 exactly), checked in satbox_motion()'s order.
 * @return the first state not free, k when the motion is free, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_chain_motion(const satbox_world *world, const satbox_chain *chain,
                                         const satbox_pair *self, size_t nself, const float *q0, const float *q1,
                                         size_t k, unsigned flags, void *work, size_t work_bytes);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* SATBOX_SATBOX_PLANNER_H */

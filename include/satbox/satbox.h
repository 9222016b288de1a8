/* satbox.h - public API of satbox: SIMD batch separating-axis tests between oriented boxes. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SATBOX_H
#define SATBOX_SATBOX_H

#include <stddef.h>
#include <stdint.h>

/** @file
 * satbox answers, for batches of pairs of oriented boxes (OBBs), whether the two boxes of each
 * pair overlap, by how much and along which direction, with the separating axis theorem
 * (15 axes), 4, 8 or 16 pairs at a time.
 *
 * ## Geometry
 * A box is a center `c` (world frame), half extents `h0, h1, h2 >= 0` (same length unit as the
 * center) and three orthonormal unit axes `u0, u1, u2` (world frame; the columns of the box's
 * world-from-local rotation). Boxes are passed structure-of-arrays (::satbox_boxes).
 *
 * For a pair (A, B) the test works in A's frame: `R[i][j] = uA_i . uB_j`,
 * `t[i] = (cB - cA) . uA_i`. The 15 candidate axes are numbered, everywhere in satbox:
 *  - 0, 1, 2: face axis `uA_i` of A (i = id);
 *  - 3, 4, 5: face axis `uB_j` of B (j = id - 3);
 *  - 6 + 3*i + j: edge axis `uA_i x uB_j`.
 *
 * Each axis has a gap `g = |t . L| - (rA + rB)` (projected distance of the centers minus the
 * projected radii of the boxes). A positive gap on any axis separates the boxes.
 *
 * ## The numerical rule and its error bound (certified answers)
 * An axis separates the pair when its computed gap `g > 0`; there is no epsilon. The edge axis
 * `uA_i x uB_j` is skipped (it can neither separate nor be reported) when
 * `|R[i][j]| >= SATBOX_PARALLEL_ABS_COS`: the two edges are within ~1e-3 rad of parallel. The rule
 * is the same in every entry point and on every path.
 * Error bound: every computed gap (float, fixed operation order) is within
 * `e = SATBOX_BOUND_REL * S` of the exact gap of the float input, where
 * `S = |d|_1 + hA_0 + hA_1 + hA_2 + hB_0 + hB_1 + hB_2` (d = cB - cA) is the pair's scale
 * (2^-19 S = 32 units in the last place of S; derived in src/box3d/batch_ref.c). Hence, with
 * `B = e / |L|` for an axis of length |L| (1 for face axes, the sine of the angle between the two
 * edges for an edge axis):
 *  - if the exact separation of the pair along a usable axis exceeds B, satbox says "separated";
 *  - if the exact penetration is deeper than B on every usable axis, satbox says "overlapping".
 * Between, either answer may come. B grows as 1/|L| for nearly parallel edges, which is inherent
 * to float input (their cross product carries an absolute error of a few ulps); the skip rule
 * bounds it. tests/agree/test_oracle.c enforces both directions against an independent long-double
 * oracle on every pair it draws.
 *
 * ## Outputs
 *  - `hit[i]`: 1 overlapping, 0 separated. A pair with bad data is always 0, so every way of
 *    reading the byte (`if (hit[i])`, `hit[i] == 1`, `hit[i] & 1`) reads it as "no overlap".
 *  - `bad[i]` (optional, every pair function takes it; NULL skips it): 1 when the pair has bad
 *    data (see below), else 0. This is the only place the fact is reported besides the collide
 *    outputs below; ignoring it is safe.
 *  - `separation[i]`: the largest gap over the usable axes, each normalised to a unit axis
 *    (`g / min(|L|, 1)`); `> 0` apart, `<= 0` overlapping (penetration depth = -separation);
 *    within B of the exact value for the reported axis. NaN for invalid pairs; for a valid pair
 *    never NaN, and infinite only when the axes break the orthonormal precondition.
 *  - `normal[c][i]`: component c of the unit world-space normal of that axis, pointing from A
 *    towards B (so moving B by `-separation * normal` makes the boxes touch). 0 for invalid pairs.
 *  - `axis[i]`: the id (0..14) of that axis; ties go to the lowest id. ::SATBOX_AXIS_INVALID for
 *    invalid pairs.
 *
 * ## Bad data (per pair) and bad arguments (per call)
 * A pair is valid when all of the following hold (checked on every path; NaN fails every
 * comparison, so NaN never slips through as "not separated"):
 *  - the six extents are `>= 0` (-0.0 counts as a zero extent);
 *  - `check = (|t_0| + |t_1| + |t_2|) + max |R_ij| + sum h <= SATBOX_PAIR_LIMIT`, where `R = A^T B` and
 *    `t` is d in A's frame. NaN or infinity anywhere in either box (centers, extents, axes) makes
 *    `check` NaN or infinite; below the limit every intermediate product is finite.
 * Two boxes that pass the per-box rule of satbox_validate() and satbox_aabb() (extents >= 0,
 * `|c0|+|c1|+|c2|+h0+h1+h2 <= SATBOX_COORD_LIMIT`, the 9 `|axis|` components summing to
 * `<= SATBOX_AXIS_SUM_LIMIT`) always form a valid pair.
 * A pair that is not valid gets `hit = 0` and `bad = 1`, is not counted, and no other pair of
 * the batch is affected. Axes that are finite but not unit or not orthonormal break the
 * precondition: the results are then deterministic and identical on every path, but have no
 * geometric meaning (but never NaN: an edge normal whose cross product has zero or overflowing
 * length in world space is returned as (0, 0, 0)); use satbox_validate() to find such boxes.
 * Denormal inputs are processed as ordinary numbers (no flush to zero is assumed or set).
 *
 * Bad arguments (a NULL array with n > 0, n above ::SATBOX_MAX_COUNT, a pair index outside the
 * pool, a non-finite margin or a negative AABB margin, an output that overlaps an input) return
 * a negative ::satbox_error and write nothing. n = 0 is valid and returns 0.
 *
 * ## Threads
 * Every function is re-entrant and may be called from many threads at once on disjoint output
 * ranges. The only global state is the ISA choice, initialised once (thread-safely) on first
 * use, and changed only by satbox_isa_force() / satbox_isa_cap().
 *
 * Every entry point (this header's and satbox2d.h's) runs on a thread or fiber with a 16 KiB
 * stack, on every path: with GCC 12 and the kernels at -O3 (satbox's build compiles them so at
 * every build type but an explicit -O1 or -Os), no call takes more than 10 KiB of stack (10240
 * bytes below the caller's frame), and none allocates on the heap. glibc carves a thread's
 * descriptor and TLS out of its stack, which leaves about 11,980 of the 16,384 bytes to the
 * thread's own function and satbox. The deepest calls are the contacts functions, with call
 * chains of 3744 (SSE4.1), 6736 (AVX2), 9272 (AVX-512), 3568 (NEON) and 1752 bytes (scalar)
 * from GCC's call graphs, and 4008 / 7000 / 9808 / 3712 bytes measured below a test thread's
 * frame on SSE4.1 / AVX2 / AVX-512 / NEON (NEON under qemu-user, whose threads take no stack
 * below 128 KiB: the use is measured there against the same 10 KiB); every other kernel's chain
 * is at most 8144 bytes below its entry point (2D collide on AVX-512). The contacts functions keep no per-pair state between
 * their stages: a queue of at most 2 W lanes waiting for the face manifold (W = 4, 8, 16 lanes).
 * tests/hardening/test_small_stack.c runs every entry point on a 16 KiB thread and checks the 10 KiB on the
 * paths the CPU has; tests/hardening/stack_frames.py checks it on every compiled path from the call graphs.
 *
 * ## Aliasing
 * Output arrays must not overlap any input array or each other (they are `restrict`);
 * satbox checks this at the boundary and returns ::SATBOX_ERR_ALIAS.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Symbol visibility for the shared library; define SATBOX_STATIC when linking the static one. */
#if defined(_WIN32) && !defined(SATBOX_STATIC)
#  ifdef SATBOX_BUILDING
#    define SATBOX_API __declspec(dllexport)
#  else
#    define SATBOX_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SATBOX_API __attribute__((visibility("default")))
#else
#  define SATBOX_API
#endif

/* The version of the headers, written here and nowhere else: meson.build reads these three lines
 * for the library's version, satbox.pc and the CMake package. satbox_version() gives the library's. */
/** Major version of the headers. */
#define SATBOX_VERSION_MAJOR 0
/** Minor version of the headers. */
#define SATBOX_VERSION_MINOR 1
/** Patch version of the headers. */
#define SATBOX_VERSION_PATCH 0
/** Version as one number: major * 10000 + minor * 100 + patch. */
#define SATBOX_VERSION (SATBOX_VERSION_MAJOR * 10000 + SATBOX_VERSION_MINOR * 100 + SATBOX_VERSION_PATCH)
#define SATBOX_STRINGIFY_(x) #x
#define SATBOX_STRINGIFY(x) SATBOX_STRINGIFY_(x)
/** Version as the string satbox_version() returns, "major.minor.patch". */
#define SATBOX_VERSION_STRING                                                                            \
    SATBOX_STRINGIFY(SATBOX_VERSION_MAJOR) "." SATBOX_STRINGIFY(SATBOX_VERSION_MINOR) "." SATBOX_STRINGIFY(SATBOX_VERSION_PATCH)

/** Every computed axis gap is within `SATBOX_BOUND_REL * S` of the exact one (S = the pair's scale). */
#define SATBOX_BOUND_REL 0x1p-19f
/** Edge axes with |R[i][j]| at or above this are skipped (edges within ~1e-3 rad of parallel):
 * 1 - 2^-21: eight float steps below 1, so that two identical float axes (whose computed |R| may
 * fall a few ulps short of 1) are always skipped. */
#define SATBOX_PARALLEL_ABS_COS 0x1.fffff0p-1f
/** Largest `check` value of a valid pair (see "Bad data"), in length units. */
#define SATBOX_PAIR_LIMIT 1e17f
/** Largest sum |c0|+|c1|+|c2|+h0+h1+h2 of a valid box (per-box rule), in length units. */
#define SATBOX_COORD_LIMIT 1e15f
/** Largest sum of |axis[k][c]| over the 9 axis components of a valid box. */
#define SATBOX_AXIS_SUM_LIMIT 8.0f
/** Squared quaternion lengths accepted as rotations (outside: the box is invalid). */
#define SATBOX_QUAT_MIN_NORM2 1e-30f
#define SATBOX_QUAT_MAX_NORM2 1e30f
/** Largest n accepted by any entry point (pair and box indices fit in uint32_t). */
#define SATBOX_MAX_COUNT ((size_t)UINT32_MAX)

/** `bad[i]` values: the pair's data is bad (NaN, infinity, negative extent, beyond the limits). */
#define SATBOX_BAD_DATA 1u
/** `bad[i]` value of the checked mode (satbox_checked_active()): a box of the pair has axes that
 * are not unit and orthogonal within ::SATBOX_CHECKED_TOL; the pair is answered as bad data. */
#define SATBOX_BAD_AXES 2u
/** Tolerance of the checked mode: |u_k . u_l - delta_kl| <= SATBOX_CHECKED_TOL for every pair
 * k, l of a box's axes (evaluated in double). Quaternion forms build their axes themselves and
 * always pass. */
#define SATBOX_CHECKED_TOL 1e-4f

/** `axis` value of a pair with bad data. */
#define SATBOX_AXIS_INVALID 255u

/** Error codes: every function that can fail returns one of these (negative) on failure. */
typedef enum satbox_error {
    SATBOX_OK = 0,             /**< success */
    SATBOX_ERR_NULL = -1,      /**< a required pointer (descriptor, array or output) is NULL with n > 0 */
    SATBOX_ERR_COUNT = -2,     /**< n (or the pool size) exceeds SATBOX_MAX_COUNT */
    SATBOX_ERR_INDEX = -3,     /**< a pair index is outside the pool */
    SATBOX_ERR_ARG = -4,       /**< another bad argument (non-finite margin or tolerance, negative
                                    AABB margin, unknown ISA) */
    SATBOX_ERR_ALIAS = -5,     /**< an output array overlaps an input array or another output */
    SATBOX_ERR_UNSUPPORTED = -6 /**< the ISA path asked for is not compiled in or not supported by this CPU/OS */
} satbox_error;

/** A batch of boxes, structure of arrays. Box i is read from element i of each of the 15 arrays.
 * No alignment or padding is required; satbox never reads past the count it is given.
 * Speed: a pair call reads 30 arrays at once. If they all start at the same offset modulo 4 KiB
 * (separate large allocations are page-aligned; one block with a power-of-two capacity per field
 * likewise), they compete for the same L1 cache sets and every method slows down (several times,
 * bench/README.md shows how much); stagger the starts by a few cache lines (e.g. pad each field's capacity by 16 floats). */
typedef struct satbox_boxes {
    const float *center[3];  /**< center[c][i]: world coordinate c (x, y, z) of box i's center */
    const float *half[3];    /**< half[k][i]: half extent of box i along its local axis k, >= 0 */
    const float *axis[3][3]; /**< axis[k][c][i]: world component c of box i's local unit axis k */
} satbox_boxes;

/** Writable SoA storage for boxes (destination of satbox_pack()); same meaning as ::satbox_boxes. */
typedef struct satbox_boxes_out {
    float *center[3];  /**< center[c][i] */
    float *half[3];    /**< half[k][i] */
    float *axis[3][3]; /**< axis[k][c][i] */
} satbox_boxes_out;

/** The read-only view of what satbox_pack() (or the caller) filled: the same 15 pointers, as
 * the ::satbox_boxes that every pair function takes, so that a caller never copies them by hand:
 * @code
 *   satbox_pack(boxes, n, &soa);
 *   satbox_boxes v = satbox_boxes_view(&soa);
 *   satbox_overlap(&v, &v2, n, hit, NULL);
 * @endcode
 * An inline function of the header (nothing to link); `out` must not be NULL. */
static inline satbox_boxes satbox_boxes_view(const satbox_boxes_out *out)
{
    satbox_boxes v;
    for (int c = 0; c < 3; c++) {
        v.center[c] = out->center[c];
        v.half[c] = out->half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            v.axis[k][c] = out->axis[k][c];
    return v;
}

/** A batch of boxes given by quaternion, structure of arrays (80 bytes a pair instead of 120). */
typedef struct satbox_qboxes {
    const float *center[3]; /**< center[c][i]: world coordinate c of box i's center */
    const float *half[3];   /**< half[k][i]: half extent along local axis k, >= 0 */
    const float *quat[4];   /**< quat[0..3][i] = (x, y, z, w) of box i's world-from-local rotation;
                                 normalised on the way when |q|^2 lies in [SATBOX_QUAT_MIN_NORM2,
                                 SATBOX_QUAT_MAX_NORM2]; outside (zero, NaN, inf, or a length below
                                 1e-15 or above 1e15): invalid box */
} satbox_qboxes;

/** One box as a plain struct (for one-off calls and for packing). Same fields as ::satbox_boxes. */
typedef struct satbox_box {
    float center[3];  /**< world coordinates of the center */
    float half[3];    /**< half extents along the local axes, >= 0 */
    float axis[3][3]; /**< axis[k][c]: world component c of local unit axis k */
} satbox_box;

/** One box as a 64-byte record: the pool layout for index pairs. A random pair then reads two
 * cache lines (one per box) instead of up to 30 from the SoA arrays. Same fields as ::satbox_box;
 * allocate the pool 64-byte aligned for one line per record (not required). */
typedef struct satbox_rec {
    float center[3];  /**< world coordinates of the center */
    float half[3];    /**< half extents along the local axes, >= 0 */
    float axis[3][3]; /**< axis[k][c]: world component c of local unit axis k */
    float pad;        /**< unused (not read) */
} satbox_rec;

/** One box as a 48-byte record holding its orientation as a quaternion, the way engines store
 * bodies: the pool layout for index pairs when the caller keeps quaternions (no conversion pass;
 * the axes are built inside the kernel exactly as satbox_axes_from_quat() builds them, so the
 * results are bit for bit those of converting first). The quaternion need not be unit: it is
 * normalised on the way, and one with |q|^2 outside [SATBOX_QUAT_MIN_NORM2, SATBOX_QUAT_MAX_NORM2]
 * makes the box invalid. 48 bytes keeps every record 16-byte aligned in a malloc'ed pool. */
typedef struct satbox_qrec {
    float center[3]; /**< world coordinates of the center */
    float half[3];   /**< half extents along the local axes, >= 0 */
    float quat[4];   /**< (x, y, z, w) of the world-from-local rotation */
    float pad[2];    /**< unused (not read); free for the caller */
} satbox_qrec;

/** Per-pair outputs of the collide functions; every pointer may be NULL (that output is skipped). */
typedef struct satbox_result {
    uint8_t *hit;        /**< 1 if separation <= margin, else 0 (always 0 for bad data) */
    float *separation;   /**< largest normalised gap (length units); > 0 apart; NaN if invalid */
    float *normal[3];    /**< normal[c][i]: world unit normal of that axis, from A towards B; 0 if invalid */
    uint8_t *axis;       /**< id 0..14 of that axis (see the numbering above); SATBOX_AXIS_INVALID if invalid */
    uint8_t *bad;        /**< SATBOX_BAD_DATA (1) when the pair has bad data (hit 0, separation NaN, axis
                              SATBOX_AXIS_INVALID), SATBOX_BAD_AXES (2) in checked mode, else 0 */
} satbox_result;

/** A candidate pair as a broad phase emits it: two indices into one pool of boxes. */
typedef struct satbox_pair {
    uint32_t a; /**< index of box A in the pool */
    uint32_t b; /**< index of box B in the pool */
} satbox_pair;

/** Instruction set paths. */
typedef enum satbox_isa {
    SATBOX_ISA_SCALAR = 0, /**< plain C reference (always available) */
    SATBOX_ISA_SSE41 = 1,  /**< x86 SSE4.1, 4 pairs per step */
    SATBOX_ISA_AVX2 = 2,   /**< x86 AVX2, 8 pairs per step */
    SATBOX_ISA_AVX512 = 3, /**< x86 AVX-512 F+DQ+BW+VL, 16 pairs per step */
    SATBOX_ISA_NEON = 4,   /**< AArch64 NEON (Advanced SIMD), 4 pairs per step */
    SATBOX_ISA_COUNT = 5   /**< number of paths (not a path) */
} satbox_isa;

/* ---------------------------------------------------------------------------------------- */
/* Pair tests                                                                              */

/** Overlap bits for pairs (a[i], b[i]), i < n.
 * @param a     the A boxes (n of them)
 * @param b     the B boxes (n of them)
 * @param n     number of pairs (0 is fine)
 * @param hit   n bytes written: 1 overlap, 0 separated or bad data (must not be NULL when n > 0)
 * @param bad   optional (may be NULL): n bytes written, 1 where the pair has bad data, 2 where the
 *              checked mode flags its axes (::SATBOX_BAD_AXES), else 0
 * @return the number of overlapping pairs (>= 0), or a negative ::satbox_error (nothing written).
 * Equal bit for bit to the `hit` of satbox_collide() with margin 0, on every path. */
SATBOX_API ptrdiff_t satbox_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n,
                                    uint8_t *hit, uint8_t *bad);

/** Separation, normal and axis of pairs (a[i], b[i]), i < n (see "Outputs" above).
 * @param margin  speculative contact distance (length units, finite, may be negative):
 *                `hit = separation <= margin`
 * @param out     outputs; any of its pointers may be NULL; `out` itself must not be NULL if n > 0
 * @return the number of pairs with hit == 1, or a negative ::satbox_error (nothing written). */
SATBOX_API ptrdiff_t satbox_collide(const satbox_boxes *a, const satbox_boxes *b, size_t n,
                                    float margin, const satbox_result *out);

/** Overlap bits for pairs of boxes given by quaternion: the same bits as converting both
 * batches with satbox_axes_from_quat() and calling satbox_overlap(). */
SATBOX_API ptrdiff_t satbox_overlap_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n,
                                      uint8_t *hit, uint8_t *bad);

/** satbox_collide() for boxes given by quaternion (same bits as converting first). */
SATBOX_API ptrdiff_t satbox_collide_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n,
                                      float margin, const satbox_result *out);

/** One box against many: pair i is (box, many[i]); `box` is A in every pair.
 * @return the number of overlapping pairs, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_overlap_one(const satbox_box *box, const satbox_boxes *many, size_t n,
                                        uint8_t *hit, uint8_t *bad);

/** satbox_collide() of one box (A) against many (B). */
SATBOX_API ptrdiff_t satbox_collide_one(const satbox_box *box, const satbox_boxes *many, size_t n,
                                        float margin, const satbox_result *out);

/** Pool + index pairs, as a broad phase emits them.
 * @param pool    the boxes
 * @param pool_n  number of boxes in the pool
 * @param pairs   n pairs of indices into the pool (duplicates and a == b are allowed)
 * @param n       number of pairs
 * @param hit     optional (may be NULL): n per-pair bytes as in satbox_overlap()
 * @param out     optional (may be NULL): receives the indices (into `pairs`) of the overlapping
 *                pairs, ascending, compacted; room for n entries must be provided
 * @param bad     optional (may be NULL): n per-pair bytes, 1 where the pair has bad data (2: checked mode)
 * @return the number of overlapping pairs, or a negative ::satbox_error. Any index >= pool_n is
 *         SATBOX_ERR_INDEX and nothing is written. */
SATBOX_API ptrdiff_t satbox_overlap_pairs(const satbox_boxes *pool, size_t pool_n,
                                          const satbox_pair *pairs, size_t n, uint8_t *hit,
                                          uint32_t *out, uint8_t *bad);

/** satbox_collide() over pool + index pairs; per-pair outputs in `res` (indexed like `pairs`),
 * plus the compacted ascending list of the pairs with hit == 1 in `out` (may be NULL). */
SATBOX_API ptrdiff_t satbox_collide_pairs(const satbox_boxes *pool, size_t pool_n,
                                          const satbox_pair *pairs, size_t n, float margin,
                                          const satbox_result *res, uint32_t *out);

/** satbox_overlap_pairs() on a pool of 64-byte records (see ::satbox_rec): the same bits as
 * the SoA pool holding the same boxes, faster when the pool is not in cache. */
SATBOX_API ptrdiff_t satbox_overlap_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs,
                                              size_t n, uint8_t *hit, uint32_t *out, uint8_t *bad);

/** satbox_collide_pairs() on a pool of 64-byte records. */
SATBOX_API ptrdiff_t satbox_collide_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs,
                                              size_t n, float margin, const satbox_result *res, uint32_t *out);

/** satbox_overlap_pairs() on a pool of quaternion records (see ::satbox_qrec): the same bits as
 * converting the pool with satbox_axes_from_quat() and calling satbox_overlap_pairs(). */
SATBOX_API ptrdiff_t satbox_overlap_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs,
                                               size_t n, uint8_t *hit, uint32_t *out, uint8_t *bad);

/** satbox_collide_pairs() on a pool of quaternion records (same bits as converting first). */
SATBOX_API ptrdiff_t satbox_collide_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs,
                                               size_t n, float margin, const satbox_result *res, uint32_t *out);

/* ---------------------------------------------------------------------------------------- */
/* Box helpers                                                                             */

/** World-space axis-aligned bounding boxes: for world axis c,
 * `min[c][i] = center[c][i] - e - margin`, `max[c][i] = center[c][i] + e + margin` with
 * `e = sum_k |axis[k][c][i]| * half[k][i]`.
 * Invalid boxes get min = +inf and max = -inf (an empty box that overlaps nothing).
 * @param margin  fattening (length units, finite, >= 0; -0.0 counts as 0)
 * @return the number of valid boxes, or a negative ::satbox_error: SATBOX_ERR_ARG for a
 *         negative or non-finite margin (nothing written). */
SATBOX_API ptrdiff_t satbox_aabb(const satbox_boxes *boxes, size_t n, float margin, float *min[3],
                                 float *max[3]);

/** satbox_aabb() for boxes given by quaternion (same bits as converting first; same margin rule). */
SATBOX_API ptrdiff_t satbox_aabb_q(const satbox_qboxes *boxes, size_t n, float margin,
                                   float *min[3], float *max[3]);

/** Rotation matrices from quaternions, in batch.
 * @param quat  quat[0..3][i] = (x, y, z, w); normalised on the way (s = 2 / |q|^2)
 * @param axis  axis[k][c][i] receives world component c of local axis k
 * A quaternion with |q|^2 outside [SATBOX_QUAT_MIN_NORM2, SATBOX_QUAT_MAX_NORM2] (zero, NaN,
 * infinite, or absurdly short or long) writes NaN into all 9 components of that box's axes,
 * which marks the box invalid for every pair test.
 * @return the number of boxes marked invalid (>= 0), or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3]);

/** Copies n ::satbox_box structs into caller-provided SoA arrays.
 * @return n, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_pack(const satbox_box *src, size_t n, const satbox_boxes_out *dst);

/** Copies n boxes from SoA arrays into 64-byte records (pad set to 0).
 * @return n, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_pack_rec(const satbox_boxes *src, size_t n, satbox_rec *dst);

/** Checks the precondition of every box: valid data (see "Bad data") and axes unit and
 * orthogonal within `tol` (|u_k . u_l - delta_kl| <= tol for all k, l).
 * @param bad  optional (may be NULL): n bytes, 0 ok, ::SATBOX_BAD_DATA (1) invalid data,
 *             ::SATBOX_BAD_AXES (2) axes not orthonormal within tol
 * @return the number of boxes that break it, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_validate(const satbox_boxes *boxes, size_t n, float tol, uint8_t *bad);

/* ---------------------------------------------------------------------------------------- */
/* Contact manifolds                                                                       */

/** @name Contact manifolds
 * satbox_contacts() and its forms give, per pair, what a physics solver needs: up to 4 contact
 * points with their depths and feature ids, the normal and the axis.
 *
 * ### Rules (the same on every path; the constants below)
 *  1. **Hit.** `hit` is exactly satbox_collide()'s hit for the same pair and margin
 *     (largest normalised gap over the usable axes `<= margin`). A pair that does not hit has
 *     count 0 (its `axis` and `normal` are still those of rule 2).
 *  2. **Axis choice.** The best face axis of A (largest gap, ties to the lowest id) and of B are
 *     compared first: B's face wins only if its gap exceeds A's by more than `tol`. The winning
 *     face then loses to the best edge axis (largest normalised gap, chosen as satbox_collide()
 *     chooses among edges) only if that edge axis separates or penetrates less by more than
 *     `tol`, with `tol = SATBOX_CONTACT_REL_TOL * |face gap| + SATBOX_CONTACT_ABS_TOL * (hA0 +
 *     hA1 + hA2 + hB0 + hB1 + hB2)`. This hysteresis keeps resting boxes on one axis from frame
 *     to frame. The chosen axis id is `axis[i]`; its normal is computed exactly as
 *     satbox_collide() computes the normal of that axis (bit for bit).
 *  3. **Face axis.** The reference face is the face of the box whose face axis won, on the side
 *     facing the other box; the incident face is the face of the other box most anti-parallel to
 *     the reference face's outward normal (ties to the lowest local axis). The candidates are the
 *     vertices of the incident face clipped against the 4 side planes of the reference face (at
 *     most 8), listed in this order: for each incident edge e = 0..3 (corner e to corner e+1) its
 *     entry point, which is corner e if that corner is inside, else the point where the edge enters
 *     the side planes; then for each edge its exit point where corner e+1 is outside; then the
 *     reference corners inside the incident face seen along the reference normal. Edges are
 *     clipped against the 4 planes at once (slab clipping), crossings lie exactly on their side
 *     plane, and an edge lying on a side plane counts as inside. Nearly coincident edges (aligned
 *     stacks) are snapped with `ct = SATBOX_CONTACT_ABS_TOL * (hA0 + ... + hB2)`: an incident
 *     corner counts as inside when within ct outside a side plane; a crossing within ct (in both
 *     coordinates) of the inside other end of its edge is dropped as the same vertex, and so is a
 *     reference corner when an inside incident corner lies in its ct-square (`|x1| >= H1 - ct`,
 *     `|x2| >= H2 - ct` on the corner's side); so a box resting squarely on another keeps the
 *     same 4 ids whichever way it drifts by less than ct.
 *     A candidate is kept when its depth is `>= -margin` (less a rounding allowance
 *     ::SATBOX_CONTACT_KEEP_TOL).
 *     **Points lie on the incident face** (on the surface of the incident box).
 *  4. **Reduction to 4** (in the reference face's 2D coordinates): p0 = the deepest kept
 *     candidate (precisely: the first one, in candidate order, whose depth is within
 *     `SATBOX_CONTACT_ABS_TOL * (hA0 + ... + hB2)` of the deepest, so that the equally deep
 *     points of a resting face do not trade places over tiny tilts); p1 = the farthest from p0;
 *     p2 = the one with the largest positive signed area of the triangle (p0, p1, p2); p3 = the
 *     one with the most negative area (the other side of the line p0 p1). **No two points within
 *     `ct`** (the snapping distance of rule 3): p1 is kept only when farther than ct from p0, p2
 *     and p3 only when farther than ct from the line p0 p1 (area > ct |p1 - p0|), so any two
 *     points of a manifold are more than ct apart in the reference face's plane; a candidate
 *     within ct of a kept point merges into it (the kept point and its feature id stay, p0 first).
 *     Ties go to the candidate listed first. The points are written around the contact polygon,
 *     p0, p2, p1, p3, those missing left out: a solver that works through a pair's contacts one
 *     after another (ODE's QuickStep, Bullet's sequential impulses) then meets them in the order
 *     of the polygon, as engines' own clippers give them (in ODE's world, the 110-cube pyramids
 *     crept 1.38x as much as with dCollide when fed p0, p1, p2, p3, and 0.94x in this order:
 *     median over 40 seeds, tests/worlds/world_ode.c).
 *  5. **Edge axis.** One point: the midpoint of the closest points of the two supporting edge
 *     segments (the edge of A farthest along the normal, the edge of B farthest against it): A's
 *     line parameter clamped to its edge, B's the nearest point of its edge to that, and A's
 *     again from B's when B's was clamped; so with a margin the point lies within half the
 *     edges' distance of both boxes. Computed relative to A's center from the center difference:
 *     its error is at most 4 ulps of the largest center coordinate (placing it in the world) plus
 *     `4e-6 p / |uA_i x uB_j|^2`, p = the largest center difference coordinate + the largest half
 *     extent: it follows the pair's size, not its distance from the origin. Its depth is the
 *     axis' penetration (`-gap`).
 *  6. **Fallback.** A pair that hits but keeps no clipped candidate (possible when a face axis
 *     wins by the hysteresis rule while the boxes touch only outside its side planes, or within
 *     the margin only) gets one point: the corner of the incident face nearest the reference
 *     face's side slabs (smallest `max(|x1| - H1, |x2| - H2)` in the face's coordinates, ties to
 *     the lowest q), unclipped (candidate code ::SATBOX_FEATURE_FALLBACK + q).
 *
 * ### Depth and feature ids
 *  - `depth[k][i]`: penetration of point k along the normal, i.e. the distance of the point
 *    below the reference face's plane (length units); `> 0` penetrating, `< 0` a speculative
 *    point within `margin`.
 *  - `feature[k][i]`: bits 0-7 the reference face (`f` = 2 * local axis + (1 if the face is on
 *    the negative side), `f` for a face of A, `6 + f` for a face of B); bits 8-15 the incident
 *    face of the other box, coded the same way (0..5); bits 16-23 the candidate: 0-3 incident
 *    corner q, `4 + 4*e + p` incident edge e crossing side plane p, `20 + c` reference corner c
 *    (numbering below). For an edge axis: bits 0-7 are `0x80 + ea`,
 *    bits 8-15 `eb`, bits 16-23 ::SATBOX_FEATURE_EDGE, with `ea`, `eb` the edge ids
 *    (4 * local axis + side bits) of A and B. Ids depend only on which features touch, so they
 *    stay equal from frame to frame while the configuration is stable.
 *  - Numbering: with `k` the reference face's local axis, `k1 = (k+1) % 3`, `k2 = (k+2) % 3`, and
 *    `m`, `m1`, `m2` the same for the incident face: incident corners q = 0..3 at signs
 *    (-,-), (+,-), (+,+), (-,+) along (m1, m2); incident edge e runs from corner e to corner
 *    (e+1) % 4; side planes p = 0..3 are +k1, -k1, +k2, -k2; reference corners c = 0..3 at signs
 *    (-,-), (+,-), (+,+), (-,+) along (k1, k2). Edge id side bits: +1 if the edge is on the
 *    negative side of the first other local axis ((axis+1) % 3), +2 for the second.
 *  - Slots `k >= count[i]` hold point 0, depth 0 and feature ::SATBOX_FEATURE_NONE.
 *
 * Bad data: count 0, hit 0, axis ::SATBOX_AXIS_INVALID, normal 0, `bad[i] = 1`, as in
 * satbox_collide().
 * @{ */

/** Relative part of the axis-choice hysteresis (see the rules above; dimensionless). */
#define SATBOX_CONTACT_REL_TOL 0.05f
/** Absolute part of the hysteresis, per unit of the sum of the six half extents of the pair. */
#define SATBOX_CONTACT_ABS_TOL 2e-4f
/** Rounding allowance of the depth filter, per unit of the sum of the six half extents: a clipped
 * candidate is kept when depth >= -(margin + SATBOX_CONTACT_KEEP_TOL * size), so that exactly
 * touching boxes (depth 0 up to rounding) keep their points with margin 0. */
#define SATBOX_CONTACT_KEEP_TOL 1e-6f
/** Most contact points per pair. */
#define SATBOX_MAX_CONTACTS 4
/** Feature id of an unused slot. */
#define SATBOX_FEATURE_NONE 0xFFFFFFFFu
/** Candidate code (bits 16-23 of a feature id) of the edge-edge point. */
#define SATBOX_FEATURE_EDGE 24u
/** Candidate code of the fallback point (rule 6): SATBOX_FEATURE_FALLBACK + incident corner q. */
#define SATBOX_FEATURE_FALLBACK 28u

/** Per-pair outputs of the contact functions; every pointer may be NULL (that output is skipped). */
typedef struct satbox_contacts_out {
    uint8_t *count;        /**< number of contact points, 0..4 (0 if not hit or bad data) */
    uint8_t *hit;          /**< satbox_collide()'s hit (count >= 1 exactly when hit == 1) */
    float *normal[3];      /**< normal[c][i]: world unit normal of the chosen axis, from A towards B */
    uint8_t *axis;         /**< id 0..14 of the chosen axis (rule 2); SATBOX_AXIS_INVALID if bad data */
    float *point[4][3];    /**< point[k][c][i]: world coordinate c of contact point k of pair i */
    float *depth[4];       /**< depth[k][i]: penetration of point k along the normal (< 0: speculative) */
    uint32_t *feature[4];  /**< feature[k][i]: 32-bit feature id of point k (see above) */
    uint8_t *bad;          /**< 1 when the pair has bad data, 2 when the checked mode flags it, else 0 */
} satbox_contacts_out;

/** Contact manifolds of pairs (a[i], b[i]), i < n.
 * @param margin  speculative distance (finite, length units): pairs with separation <= margin hit,
 *                and clipped points down to depth -margin are kept
 * @param out     outputs, any may be NULL; `out` itself must not be NULL if n > 0
 * @return the number of pairs with hit == 1, or a negative ::satbox_error (nothing written).
 * Stack: the deepest entry points of the library, at most 9400 bytes of call chain (AVX-512):
 * every form runs on a thread with a 16 KiB stack (see "Threads");
 * no heap allocation. */
SATBOX_API ptrdiff_t satbox_contacts(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin,
                                     const satbox_contacts_out *out);

/** satbox_contacts() for boxes given by quaternion (same bits as converting first). */
SATBOX_API ptrdiff_t satbox_contacts_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin,
                                       const satbox_contacts_out *out);

/** satbox_contacts() over pool + index pairs (per-pair outputs indexed like `pairs`), plus the
 * compacted ascending list of the pairs with hit == 1 in `list` (may be NULL; room for n). */
SATBOX_API ptrdiff_t satbox_contacts_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs,
                                           size_t n, float margin, const satbox_contacts_out *out,
                                           uint32_t *list);

/** satbox_contacts_pairs() on a pool of 64-byte records (same bits as the SoA pool). */
SATBOX_API ptrdiff_t satbox_contacts_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs,
                                               size_t n, float margin, const satbox_contacts_out *out,
                                               uint32_t *list);

/** satbox_contacts_pairs() on a pool of quaternion records (same bits as converting first). */
SATBOX_API ptrdiff_t satbox_contacts_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs,
                                                size_t n, float margin, const satbox_contacts_out *out,
                                                uint32_t *list);

/** One contact point of a ::satbox_manifold. */
typedef struct satbox_contact {
    float position[3]; /**< world coordinates of the point (on the incident box's surface, rule 3) */
    float depth;       /**< penetration along the normal (length units; < 0: speculative) */
    uint32_t feature;  /**< 32-bit feature id, stable from frame to frame (see above) */
} satbox_contact;

/** One record of the contact stream: the manifold of one pair with hit == 1.
 * 112 bytes (a multiple of 16, so records stay 16-byte aligned in a malloc'ed array; no alignment
 * is required). Slots `k >= count` hold what the SoA form holds there (point 0, depth 0,
 * feature ::SATBOX_FEATURE_NONE). Every field is bit for bit the SoA output of the same pair. */
typedef struct satbox_manifold {
    uint32_t pair;                              /**< index of the pair (i, or its index in `pairs`) */
    float normal[3];                            /**< world unit normal of the chosen axis, from A towards B */
    uint8_t axis;                               /**< id 0..14 of the chosen axis (rule 2) */
    uint8_t count;                              /**< number of contact points, 1..4 */
    uint8_t reserved[2];                        /**< 0 */
    satbox_contact point[SATBOX_MAX_CONTACTS];  /**< the points; slots >= count as described above */
    uint32_t reserved2[2];                      /**< 0 (pads the record to 112 bytes) */
} satbox_manifold;

/** The contact stream: the manifolds of pairs (a[i], b[i]), i < n, compacted, one
 * ::satbox_manifold per pair with hit == 1, in ascending pair order.
 * @param out  room for n records (only the first `return value` are written)
 * @param bad  optional (may be NULL): n bytes, 1 where the pair has bad data (2: flagged by the
 *             checked mode); such a pair has no record; else 0
 * @return the number of records written (pairs with hit == 1), or a negative ::satbox_error
 *         (nothing written). The same argument rules (margin, aliasing) as satbox_contacts(). */
SATBOX_API ptrdiff_t satbox_contacts_stream(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin,
                                            satbox_manifold *out, uint8_t *bad);

/** satbox_contacts_stream() for boxes given by quaternion. */
SATBOX_API ptrdiff_t satbox_contacts_stream_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n,
                                              float margin, satbox_manifold *out, uint8_t *bad);

/** satbox_contacts_stream() over pool + index pairs (`pair` in a record is the index into `pairs`). */
SATBOX_API ptrdiff_t satbox_contacts_stream_pairs(const satbox_boxes *pool, size_t pool_n,
                                                  const satbox_pair *pairs, size_t n, float margin,
                                                  satbox_manifold *out, uint8_t *bad);

/** satbox_contacts_stream_pairs() on a pool of 64-byte matrix records. */
SATBOX_API ptrdiff_t satbox_contacts_stream_pairs_rec(const satbox_rec *pool, size_t pool_n,
                                                      const satbox_pair *pairs, size_t n, float margin,
                                                      satbox_manifold *out, uint8_t *bad);

/** satbox_contacts_stream_pairs() on a pool of quaternion records: the engine form (bodies keep
 * quaternions; the broad phase gives index pairs; the solver wants one record per touching pair). */
SATBOX_API ptrdiff_t satbox_contacts_stream_pairs_qrec(const satbox_qrec *pool, size_t pool_n,
                                                       const satbox_pair *pairs, size_t n, float margin,
                                                       satbox_manifold *out, uint8_t *bad);
/** @} */

/* ---------------------------------------------------------------------------------------- */
/* ISA control                                                                             */

/** The path that the pair functions use now (chosen once, on first use, as the widest path the
 * CPU and OS support, lowered by the environment variable SATBOX_ISA=scalar|sse41|avx2|avx512|neon
 * (any case; an unknown name is ignored) if set, then by satbox_isa_cap()/satbox_isa_force()). */
SATBOX_API satbox_isa satbox_isa_active(void);

/** Bit mask (1u << isa) of the paths this build contains and this CPU/OS can run. */
SATBOX_API unsigned satbox_isa_supported(void);

/** Use exactly `isa` from now on. @return SATBOX_OK, SATBOX_ERR_UNSUPPORTED, or SATBOX_ERR_ARG. */
SATBOX_API int satbox_isa_force(satbox_isa isa);

/** Use the widest supported path not wider than `isa` (scalar < sse41 < avx2 < avx512; neon
 * counts as the width of sse41). @return the path now active, or SATBOX_ERR_ARG. */
SATBOX_API int satbox_isa_cap(satbox_isa isa);

/** Lower-case name of a path ("scalar", "sse41", "avx2", "avx512", "neon"), or NULL. */
SATBOX_API const char *satbox_isa_name(satbox_isa isa);

/** Parses a path name (as given by satbox_isa_name(), in any case: "AVX512" works too).
 * @return the path, or SATBOX_ERR_ARG. */
SATBOX_API int satbox_isa_from_name(const char *name);

/** Number of pairs one step of a path handles (1, 4, 8 or 16), or 0 for an unknown path. */
SATBOX_API int satbox_isa_width(satbox_isa isa);

/* ---------------------------------------------------------------------------------------- */
/* Checked mode                                                                            */

/** 1 when the checked mode is on, else 0. It is read once, on first use: on when satbox was built
 * with `-Dchecked=true`, and the environment variable SATBOX_CHECKED overrides (`1` on, `0` off).
 * In checked mode every pair and contacts function (all forms) verifies the documented
 * precondition of every box it reads (axes unit and orthogonal within ::SATBOX_CHECKED_TOL) and
 * answers a pair that breaks it as bad data with `bad[i] = SATBOX_BAD_AXES` (hit 0, not counted,
 * no contacts, no stream record) instead of a meaningless answer. Arguments (NULL, aliasing,
 * indices) are checked in either mode. Turn it on in debug builds; off, it costs one test of a
 * flag per call (the kernels are the same). */
SATBOX_API int satbox_checked_active(void);

/* ---------------------------------------------------------------------------------------- */
/* Misc                                                                                    */

/** Version of the library as "major.minor.patch". */
SATBOX_API const char *satbox_version(void);

/** A short English text for an error code. */
SATBOX_API const char *satbox_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* SATBOX_SATBOX_H */

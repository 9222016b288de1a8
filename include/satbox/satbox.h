/* satbox.h - public API of satbox: SIMD batch separating-axis tests between oriented boxes. */
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
 * ## The two numerical rules
 *  1. **Edge guard.** On the 9 edge axes the radii use `|R[i][j]| + SATBOX_EPS` instead of
 *     `|R[i][j]|` (the classic guard against rounding of nearly parallel edges; it can only make
 *     a radius larger, so it never turns an overlap into a separation). Face axes are exact
 *     unit vectors and use `|R|` unguarded, which keeps resting contacts (stacked boxes) from
 *     gaining phantom overlap.
 *  2. **Near-parallel edges.** An edge axis whose squared length
 *     `|uA_i x uB_j|^2` (computed as `R[i1][j]^2 + R[i2][j]^2`, with i1, i2 the two other
 *     indices) is below ::SATBOX_EDGE_MIN_LEN2 is skipped: it cannot separate and is never
 *     reported. Skipping an axis can only report more overlap, never less. The rule is the same
 *     in every entry point and on every ISA path, so the overlap bit never depends on which
 *     function or path answered.
 *
 * ## Outputs
 *  - `hit[i]`: 1 overlapping, 0 separated. A pair with bad data is always 0, so every way of
 *    reading the byte (`if (hit[i])`, `hit[i] == 1`, `hit[i] & 1`) reads it as "no overlap".
 *  - `bad[i]` (optional, every pair function takes it; NULL skips it): 1 when the pair has bad
 *    data (see below), else 0. This is the only place the fact is reported besides the collide
 *    outputs below; ignoring it is safe.
 *  - `separation[i]`: the largest gap over the usable axes, each normalised to a unit axis;
 *    `> 0` apart, `<= 0` overlapping (penetration depth = -separation). NaN for invalid pairs.
 *  - `normal[c][i]`: component c of the unit world-space normal of that axis, pointing from A
 *    towards B (so moving B by `-separation * normal` makes the boxes touch). 0 for invalid pairs.
 *  - `axis[i]`: the id (0..14) of that axis; ties go to the lowest id. ::SATBOX_AXIS_INVALID for
 *    invalid pairs.
 *
 * ## Bad data (per pair) and bad arguments (per call)
 * A box is valid when all of the following hold (checked on every path, with NaN failing
 * every comparison, so NaN never slips through as "not separated"):
 *  - `h0, h1, h2 >= 0` (-0.0 counts as a zero extent);
 *  - `|c0| + |c1| + |c2| + h0 + h1 + h2 <= SATBOX_COORD_LIMIT` (finite and inside the world:
 *    this bound guarantees that no intermediate product overflows);
 *  - the sum of the absolute values of the 9 axis components is `<= SATBOX_AXIS_SUM_LIMIT`
 *    (finite; unit axes give at most 3*sqrt(3) = 5.2).
 * A pair with an invalid box gets `hit = 0` and `bad = 1`, is not counted, and no other pair of
 * the batch is affected. Axes that are finite but not unit or not orthonormal break the
 * precondition: the results are then deterministic and identical on every path, but have no
 * geometric meaning (but never NaN: an edge normal whose cross product has zero length in world
 * space is returned as (0, 0, 0)); use satbox_validate() to find such boxes.
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

/** Version of the headers; satbox_version() gives the library's. */
#define SATBOX_VERSION_MAJOR 0
#define SATBOX_VERSION_MINOR 1
#define SATBOX_VERSION_PATCH 0
/** Version as one number: major * 10000 + minor * 100 + patch. */
#define SATBOX_VERSION (SATBOX_VERSION_MAJOR * 10000 + SATBOX_VERSION_MINOR * 100 + SATBOX_VERSION_PATCH)

/** Guard added to |R[i][j]| in the radii of the 9 edge axes (dimensionless). */
#define SATBOX_EPS 1e-6f
/** Edge axes with |uA_i x uB_j|^2 below this (dimensionless) are skipped (edges within ~0.006 deg). */
#define SATBOX_EDGE_MIN_LEN2 1e-8f
/** Largest sum |c0|+|c1|+|c2|+h0+h1+h2 of a valid box, in length units. */
#define SATBOX_COORD_LIMIT 1e15f
/** Largest sum of |axis[k][c]| over the 9 axis components of a valid box. */
#define SATBOX_AXIS_SUM_LIMIT 8.0f
/** Squared quaternion lengths accepted as rotations (outside: the box is invalid). */
#define SATBOX_QUAT_MIN_NORM2 1e-30f
#define SATBOX_QUAT_MAX_NORM2 1e30f
/** Largest n accepted by any entry point (pair and box indices fit in uint32_t). */
#define SATBOX_MAX_COUNT ((size_t)UINT32_MAX)

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
 * No alignment or padding is required; satbox never reads past the count it is given. */
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

/** Per-pair outputs of the collide functions; every pointer may be NULL (that output is skipped). */
typedef struct satbox_result {
    uint8_t *hit;        /**< 1 if separation <= margin, else 0 (always 0 for bad data) */
    float *separation;   /**< largest normalised gap (length units); > 0 apart; NaN if invalid */
    float *normal[3];    /**< normal[c][i]: world unit normal of that axis, from A towards B; 0 if invalid */
    uint8_t *axis;       /**< id 0..14 of that axis (see the numbering above); SATBOX_AXIS_INVALID if invalid */
    uint8_t *bad;        /**< 1 when the pair has bad data (hit 0, separation NaN, axis SATBOX_AXIS_INVALID), else 0 */
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
 * @param bad   optional (may be NULL): n bytes written, 1 where the pair has bad data, else 0
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
 * @param bad     optional (may be NULL): n per-pair bytes, 1 where the pair has bad data
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
 * @param bad  optional (may be NULL): n bytes, 0 ok, 1 invalid data, 2 axes not orthonormal
 * @return the number of boxes that break it, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox_validate(const satbox_boxes *boxes, size_t n, float tol, uint8_t *bad);

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
/* Misc                                                                                    */

/** Version of the library as "major.minor.patch". */
SATBOX_API const char *satbox_version(void);

/** A short English text for an error code. */
SATBOX_API const char *satbox_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* SATBOX_SATBOX_H */

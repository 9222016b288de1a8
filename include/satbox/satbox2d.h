/* satbox2d.h - public API of satbox in 2D: batch separating-axis tests for oriented rectangles and convex polygons. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SATBOX2D_H
#define SATBOX_SATBOX2D_H

#include "satbox/satbox.h"

/** @file
 * The 2D half of satbox: for batches of pairs of oriented rectangles or convex polygons (up to
 * 8 vertices), whether the two shapes of each pair overlap, by how much and along which
 * direction, 4, 8 or 16 pairs at a time, with the same qualities as the 3D entry points of
 * satbox.h: structure of arrays, bit-identical results on every ISA path (the same path choice,
 * satbox_isa_active()), the same error codes, the same bad-data rule, the same threading rules.
 *
 * ## Rectangles
 * A rectangle is a center `c = (x, y)`, half extents `h0, h1 >= 0` and the unit direction
 * `u0 = (cos, sin)` of its local x axis; its local y axis is `u1 = (-sin, cos)`. The 4 candidate
 * axes of a pair (A, B) are numbered 0, 1 = `uA0`, `uA1` and 2, 3 = `uB0`, `uB1`. With
 * `d = cB - cA`, the gap on axis `u` is `|d . u| - (rA + rB)` where `rA = hA0 |uA0 . u| +
 * hA1 |uA1 . u|` (no epsilon: the axes are unit vectors given by the caller, not cross products).
 * For A's axes `uA_i . uB_j` is computed once as `c = cA cB + sA sB`, `s = sA cB - cA sB`.
 *
 * ## Polygons
 * A polygon has 3 to 8 vertices in **world coordinates**, counter-clockwise (y up), stored
 * structure of arrays padded to 8 vertex slots, with a per-polygon vertex count
 * (::satbox2d_polys). World coordinates because a broad phase hands over each polygon in many
 * pairs: transforming its vertices once per frame is cheaper than once per pair.
 * Edge k runs from vertex k to vertex k + 1 (the last edge closes back to vertex 0). Its axis is
 * the outward normal `n = (ey, -ex)` of the edge vector `e = v[k+1] - v[k]`, unnormalised; the
 * edge's gap is `m = min over the other polygon's vertices w of n . (w - v[k])` (each term as
 * `nx * (wx - vx) + ny * (wy - vy)`), and its normalised value is `m / sqrt(ex^2 + ey^2)`.
 * Axis ids: 0..7 = edge k of A, 8..15 = edge k of B. An edge of squared length 0 (after
 * rounding, at the polygon's prescale below: repeated vertices) is skipped; it can neither
 * separate nor be reported.
 *
 * **Prescale.** A polygon whose sum of `|x| + |y|` over its vertices is below 2^-20 has its
 * vertices multiplied by 2^60 (below 2^-80: by 2^120) before anything else: exact, and its size
 * is then at least 2^-29, so no product of two of its differences is subnormal (without it, pairs
 * below about 1e-18 lost the bound to underflow). Its edge vectors (normals, squared lengths) and
 * the validity tests below use these prescaled vertices. For a pair, the differences `w - v` are
 * taken on both polygons multiplied by the smaller of their two prescales, s; the gaps are
 * compared with 0 (and with `margin * s`) at that scale, and the separation is multiplied by 1 / s
 * at the end (exact unless the result is below FLT_MIN; a positive separation that would round to
 * 0 becomes the smallest positive float, 2^-149). Polygons of size 2^-20 and more, the usual
 * case, are not scaled at all.
 *
 * For a rectangle against a polygon (satbox2d_rect_poly_overlap()) the rectangle is the polygon
 * `c - a0 - a1, c + a0 - a1, c + a0 + a1, c - a0 + a1` with `a0 = h0 u0`, `a1 = h1 u1` (edges
 * 0..3 in that order: normals `-u1, u0, u1, -u0`), worked on **relative to its center c**: its
 * corners are computed in float as `x = (-+a0x) -+ a1x` (same for y), and the polygon's vertices as
 * `w - c` (both at the pair's scale: the prescale of the corners, no more than the prescale of
 * `|cx| + |cy| + h0 + h1`, and the polygon's). So the rounding follows the pair's size, not the
 * distance from the origin. The polygon's own edges and validity come from its own vertices.
 * Besides the rectangle rule, the corner polygon must pass the two turn tests of the polygon rule
 * below (its corners are centrally symmetric; no rectangle was found that fails them, with h1 from
 * 1e-2 h0 down to 1e-8 h0 and 0, at the origin and 1e4 from it: tests/api/test_geometry2d.c); a
 * rectangle of zero extents (a point) is fine, the polygon's edges test it.
 *
 * The normal tests are exact for two polygons of which at least one has nonzero area. Two
 * zero-area polygons lying on one line (segments) have no edge normal along that line, so they
 * are reported overlapping when their projections on the line's normal overlap, even if they are
 * apart along the line (a false overlap, never a missed one).
 *
 * ## Outputs (every pair function, like the 3D ones)
 *  - `hit[i]`: 1 overlapping (separation <= margin for collide), 0 separated or bad data.
 *  - `bad[i]` (optional): 1 when the pair has bad data, else 0.
 *  - `separation[i]`: the largest gap over the usable axes, each over a unit axis (length units);
 *    `> 0` apart, `<= 0` overlapping (-separation is the penetration depth along the normal, the
 *    smallest translation along a candidate axis that separates the shapes). When apart, it is a
 *    lower bound of the Euclidean distance (equal to it when the closest features are an edge and
 *    a vertex or two parallel edges). NaN for bad data.
 *    A normalised polygon gap that rounds to 0 while the unnormalised one is not 0 is replaced by
 *    the unnormalised one, so the sign of the separation always agrees with the overlap bit; a
 *    zero polygon separation is always +0 (never -0), whatever the order of the shapes.
 *  - `normal[c][i]`: the unit normal of that axis (c = 0 x, 1 y), pointing from A towards B
 *    (rectangles: the axis, negated when `d . u < 0`; polygons: A's outward edge normal, or minus
 *    B's); moving B by `-separation * normal` makes the shapes touch. 0 for bad data.
 *  - `axis[i]`: the axis id. **Ties** (equal separations, bit for bit) go to the lowest id.
 *    ::SATBOX_AXIS_INVALID for bad data.
 * satbox2d_*_overlap() equals the `hit` of the matching collide function with margin 0, bit for
 * bit, on every path.
 *
 * ## Precision
 * Let S be the L1 diameter of the pair's vertices (rectangles: of their exact corners). The
 * bound is B = 8 * 2^-24 * S + 2^-146 (the second term, 8 steps of the smallest subnormal, only
 * matters for results below FLT_MIN): every pair whose exact separation (long double, same float
 * inputs, the exact rectangle) lies outside +-B gets the exact overlap bit, and the separation is
 * within B of the exact one. On 2M pairs of 10 families (tests/agree/test_oracle2d.c: among them pairs
 * scaled down to 2^-130, rectangle vs polygon 10^3..10^5 from the origin, and the deepest dent the
 * convexity tolerance admits) the largest error was 4.9 * 2^-24 * S. Differences are taken before
 * products (`w - v`, rectangle vs polygon relative to the rectangle's center) and small polygons
 * are prescaled, so the error follows the pair's size, at any size and distance from the origin.
 *
 * ## Prepared polygons (satbox2d_poly_prepare(), ::satbox2d_prepared, ::satbox2d_bodies)
 * As 2D engines keep their shapes: each polygon is prepared once (its validity verdict, prescale,
 * unit edge normals `n_k = (ey, -ex) / sqrt(ex^2 + ey^2)` of its edges at the prescale, offsets
 * `d_k = n_k . v[k]`), so that a pair's gap on edge k is `min over the other polygon's vertices w of
 * (n_k . w) - d_k` (each `nx * wx + ny * wy`, the minimum first, then minus d: the same bits as the
 * minimum of the differences), with no square root or division per pair. Two forms, both pools of
 * polygons with index pairs, with the same outputs as the polygon functions (ids, normals pointing
 * from A towards B, hysteresis, manifolds):
 *  - **world polygons** (satbox2d_prep_*_pairs()): polygons prepared from world vertices, once per
 *    step; the pair is worked in the world, at the pair's scale (the smaller of the two prescales).
 *  - **bodies** (satbox2d_body_*_pairs()): shapes prepared once from vertices in their body's frame,
 *    as Box2D's b2PolygonShape, and a transform per body (position, cos, sin) as b2Transform. The
 *    pair is worked in A's body frame: `R = RA^T RB`, `t = RA^T (pB - pA)` (RA^T taken as the inverse
 *    rotation), B's vertices `R v + t` and normals `R n` computed in the lanes, B's offsets again from
 *    them; the pair's scale is also limited by the prescale of `|tx| + |ty|` (as a rectangle's limits
 *    rectangle vs polygon). Normals and positions are returned in the world (`pA + RA x`).
 * Validity: a prepared polygon's verdict is the polygon rule below, taken once when it is prepared
 * (so a pair is bad exactly when the same polygons are bad for satbox2d_poly_collide()); a body's
 * transform is bad unless `|px| + |py| <= SATBOX2D_COORD_LIMIT` and `|cos^2 + sin^2 - 1| <=
 * SATBOX2D_UNIT_TOL` (NaN and infinity included).
 * **Precision of the prepared forms.** The offsets are products of coordinates, not of differences:
 * the error follows R, the largest `|x| + |y|` of a vertex in the frame of the work (world polygons:
 * their world vertices; bodies: A's body frame, about `|pB - pA|` plus the shapes' size), besides
 * S. The bound is B' = 8 * 2^-24 * (S + R) + 2^-146 (tests/agree/test_oracle2d.c's kinds `prep` and
 * `body` check it both ways and print the largest error seen in units of 2^-24 (S + R)). Far from the
 * origin the world form is thus less precise than satbox2d_poly_collide() (whose error follows S
 * only); the body form keeps the error at the pair's distance, as Box2D does.
 *
 * ## Bad data (per pair: hit 0, bad 1, not counted, the rest of the batch unaffected)
 * A rectangle is bad unless `h0 >= 0`, `h1 >= 0`, `|cx| + |cy| + h0 + h1 <= SATBOX2D_COORD_LIMIT`
 * and `|cos^2 + sin^2 - 1| <= SATBOX2D_UNIT_TOL` (so NaN and infinity are bad everywhere).
 * A polygon is bad unless all of:
 *  - 3 <= count <= 8;
 *  - the sum of `|x| + |y|` over its `count` vertices is <= ::SATBOX2D_COORD_LIMIT (finite, and no
 *    intermediate value can overflow);
 *  - it turns left (or goes straight) at every vertex: `cross(e_prev, e_next) >= -TOL * L1(e_prev)
 *    * L1(e_next)` with TOL = ::SATBOX2D_CONVEX_TOL and `L1(e) = |ex| + |ey|` (clockwise polygons
 *    and reflex vertices are bad; within the tolerance a nearly collinear vertex is accepted:
 *    it is then at most `TOL * L1(e_prev) * L1(e_next) / |e_prev| <= sqrt(2) * TOL * S` =
 *    2.9 * 2^-24 * S inside the line of the edge before it, which the bound above covers);
 *  - its vertices go round vertex 0 once, counter-clockwise: the same test on
 *    `cross(v[k] - v[0], v[k+1] - v[0])` for k = 1..count-2 (this rejects star polygons
 *    such as the pentagram, whose turns are all left);
 *  - at least one edge has a nonzero squared length (not all vertices equal).
 * All of these are computed in float in a fixed order, identically on every path, the turn tests
 * and edge lengths on the prescaled vertices (so a valid polygon stays valid at any scale). The
 * vertex slots at or beyond `count` are read (they must be readable memory) but their values are
 * ignored: they may hold anything, NaN included.
 * The tolerance admits one reflex vertex within the bound; several in a row can add up their
 * dents (not covered by the bound, and not tested).
 *
 * Bad arguments (NULL arrays with n > 0, n above ::SATBOX_MAX_COUNT, a pair index outside the pool,
 * a non-finite margin, an output overlapping an input or another output) return a negative
 * ::satbox_error and write nothing, exactly as in satbox.h.
 *
 * ## Contact manifolds (satbox2d_contacts() and its forms)
 * Per pair, up to 2 contact points for a solver, in the manner of Box2D's b2CollidePolygons, with
 * the SAT answer of the matching collide function:
 *  - **SAT.** `separation` is the collide function's separation, bit for bit (NaN for bad data).
 *    The best face of A is the axis with the largest gap among A's (ties: lowest id), the best face
 *    of B likewise; the collide axis is B's best when its gap is strictly larger, else A's.
 *  - **Reference edge, with hysteresis.** The reference edge is A's best face, unless B's best gap
 *    exceeds A's by more than ::SATBOX2D_FLIP_TOL times the shorter of the two faces' edges (for a
 *    rectangle, the face of axis 0 or 2 has length 2 h1, of axis 1 or 3 length 2 h0; for a polygon,
 *    the L1 norm `|ex| + |ey|` of the edge vector at the pair's scale); then it is B's. So a pair whose best faces are nearly as good keeps A's face from one step to the next.
 *    `normal` is the reference edge's outward unit normal, negated when the edge is B's: it always
 *    points from A towards B; `axis` is its axis id. They equal collide's normal and axis bit for
 *    bit unless the hysteresis kept A's face where collide picked B's (then `flags` has
 *    ::SATBOX2D_MANIFOLD_KEPT_A). ::SATBOX2D_MANIFOLD_REF_B says the reference edge is B's.
 *    For a rectangle, face ids are the edges of the corner polygon above: axis 0 with the normal
 *    +u0 is edge 1, -u0 edge 3, axis 1 with +u1 edge 2, -u1 edge 0.
 *  - **Incident edge.** The incident shape's deepest vertex is its vertex with the smallest depth
 *    `n . (v - r1)` below the reference edge's line (r1 the edge's first vertex; ties: the lowest
 *    slot). Of the other shape's edges that hold a vertex that deep (either end, bit for bit), the
 *    incident edge is the one whose outward unit normal has the smallest dot product with the
 *    reference normal (the most anti-parallel; zero-length edges skipped; ties: lowest index). So
 *    two nearly parallel edges whose dot products tie or swap in float cannot hand the choice to an
 *    edge away from the deepest vertex (prepared forms: the prepared unit normals).
 *  - **Clipping.** Each end j of the incident edge (0: its first vertex, 1: the next one) is moved
 *    along the edge to the reference edge's side planes (the lines through the reference edge's
 *    ends along the normal) when it lies outside them. An incident edge wholly beyond one side
 *    plane gives no point (as Box2D: the shapes meet only corner to corner there, and the
 *    distance below the reference line would be a phantom depth). The point is on the incident
 *    shape's edge: its **position** is that clipped incident point, in world coordinates.
 *  - **Separation** of a point: its signed distance from the line of the reference edge along the
 *    reference normal (< 0: penetration, the depth below the reference edge), interpolated from
 *    the two ends' distances with the clipping fraction (so it keeps the pair's precision).
 *  - **Kept points.** A point is kept when its separation is <= margin (the speculative distance;
 *    the whole pair needs its SAT separation <= margin too). When both ends are kept and the two
 *    points are closer than ::SATBOX2D_MERGE_TOL times the reference edge's length (L1 norms of the
 *    difference and of the edge vector), only end 0 (the smaller id) is kept. Kept points fill
 *    point[0], point[1] in the order of their ends; unused point slots are zero.
 *  - **Fallback point.** When the pair is within the margin (SAT separation and the deepest vertex's
 *    depth both <= margin) and no clipped point is kept (a zero-area shape, an incident edge wholly
 *    beyond a side plane: corner to corner, a kept face, a reference edge nearly collinear with its
 *    neighbour), the manifold has one point: the deepest vertex itself (position that vertex,
 *    separation its depth, id SATBOX2D_FEATURE_ID(ref_is_b, ref_edge, vertex, SATBOX2D_FEATURE_VERTEX)).
 *    It lies on the incident shape but may lie outside the reference edge's side planes.
 *  - **Feature id** SATBOX2D_FEATURE_ID(ref_is_b, ref_edge, incident_edge, end): the same as long
 *    as the reference and incident edges stay the same (warm starting).
 *  - **Frame.** The work is done relative to a pair-local origin, at the pair's scale (rectangles:
 *    A's center, the corners computed as the rectangle rule above and B's as `(cB - cA) + corner`;
 *    rectangle vs polygon: the rectangle's center, as in collide; polygons: their world
 *    coordinates times the pair's prescale). Positions are brought back to the world at the end
 *    (`local / s + origin`, one rounding of the world coordinate).
 *  - **Bad data**: count 0, bad 1, normal 0, axis ::SATBOX_AXIS_INVALID, separation NaN.
 * Every field of the record is written for every pair i < n (struct padding included: none).
 * Known limits (tests/agree/test_oracle2d.c counts them): every pair whose exact separation is below
 * -B gets at least one point (the fallback above), zero-area polygons and nearly collinear reference
 * edges included. What remains: the deepest point can be shallower than the SAT depth when the
 * incident shape's deepest vertex lies beyond a side plane and the clipped edge gives points (column
 * `shallow`; as in Box2D); rectangles smaller than about 2^-60 (their corner products underflow) and
 * the incident choice between two edges equally anti-parallel (a shape turned 45 degrees exactly on
 * a face) have no hysteresis of their own.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Vertex slots of a polygon. */
#define SATBOX2D_MAX_VERTS 8
/** Largest |cx| + |cy| + h0 + h1 of a valid rectangle, and largest sum of |x| + |y| over the
 * vertices of a valid polygon (length units). */
#define SATBOX2D_COORD_LIMIT 1e15f
/** A rectangle's axis (cos, sin) is valid when |cos^2 + sin^2 - 1| <= this. */
#define SATBOX2D_UNIT_TOL 1e-4f
/** Relative tolerance of the polygon turn tests (dimensionless; see "Bad data"): 2^-23, so that a
 * reflex vertex it admits stays inside the precision bound (1e-6 before, which admitted dents of
 * up to about 2 B). */
#define SATBOX2D_CONVEX_TOL 1.1920928955078125e-7f /* 2^-23 */

/** A batch of oriented rectangles, structure of arrays (6 floats a rectangle). */
typedef struct satbox2d_rects {
    const float *center[2]; /**< center[c][i]: world coordinate c (x, y) of rectangle i's center */
    const float *half[2];   /**< half[k][i]: half extent along local axis k, >= 0 */
    const float *axis[2];   /**< axis[0][i], axis[1][i]: cos and sin of rectangle i's angle, i.e. the
                                 world unit vector of its local x axis (local y is (-sin, cos)) */
} satbox2d_rects;

/** A batch of convex polygons, structure of arrays padded to 8 vertex slots (world coordinates,
 * counter-clockwise). All 16 vertex arrays must be non-NULL and hold n floats even when every
 * count is smaller; the same array may be passed for several unused slots. */
typedef struct satbox2d_polys {
    const float *x[SATBOX2D_MAX_VERTS]; /**< x[k][i]: world x of vertex k of polygon i */
    const float *y[SATBOX2D_MAX_VERTS]; /**< y[k][i]: world y of vertex k of polygon i */
    const uint8_t *count;               /**< count[i]: number of vertices of polygon i, 3..8 */
} satbox2d_polys;

/** Per-pair outputs of the 2D collide functions; every pointer may be NULL (skipped). */
typedef struct satbox2d_result {
    uint8_t *hit;      /**< 1 if separation <= margin, else 0 (always 0 for bad data) */
    float *separation; /**< largest gap over unit axes (length units); > 0 apart; NaN if bad */
    float *normal[2];  /**< normal[c][i]: world unit normal from A towards B; 0 if bad */
    uint8_t *axis;     /**< axis id (rectangles 0..3, polygons 0..15); SATBOX_AXIS_INVALID if bad */
    uint8_t *bad;      /**< 1 when the pair has bad data, else 0 */
} satbox2d_result;

/* ---------------------------------------------------------------------------------------- */
/* Rectangles                                                                               */

/** Overlap bits of rectangle pairs (a[i], b[i]), i < n.
 * @param hit  n bytes: 1 overlap, 0 separated or bad data (must not be NULL when n > 0)
 * @param bad  optional (may be NULL): n bytes, 1 where the pair has bad data
 * @return the number of overlapping pairs, or a negative ::satbox_error (nothing written). */
SATBOX_API ptrdiff_t satbox2d_overlap(const satbox2d_rects *a, const satbox2d_rects *b, size_t n,
                                      uint8_t *hit, uint8_t *bad);

/** Separation, normal and axis (0..3) of rectangle pairs (a[i], b[i]).
 * @param margin  speculative distance (finite): hit = separation <= margin
 * @param out     outputs (any pointer may be NULL; `out` itself not NULL when n > 0)
 * @return the number of pairs with hit == 1, or a negative ::satbox_error. */
SATBOX_API ptrdiff_t satbox2d_collide(const satbox2d_rects *a, const satbox2d_rects *b, size_t n,
                                      float margin, const satbox2d_result *out);

/** Pool + index pairs of rectangles (as satbox_overlap_pairs()): `hit`, `out` (compacted
 * ascending indices into `pairs` of the overlapping pairs, room for n) and `bad` may each be NULL.
 * @return the number of overlapping pairs, or a negative ::satbox_error (an index >= pool_n is
 * SATBOX_ERR_INDEX, nothing written). */
SATBOX_API ptrdiff_t satbox2d_overlap_pairs(const satbox2d_rects *pool, size_t pool_n,
                                            const satbox_pair *pairs, size_t n, uint8_t *hit,
                                            uint32_t *out, uint8_t *bad);

/** satbox2d_collide() over pool + index pairs; `res` and `out` may be NULL. */
SATBOX_API ptrdiff_t satbox2d_collide_pairs(const satbox2d_rects *pool, size_t pool_n,
                                            const satbox_pair *pairs, size_t n, float margin,
                                            const satbox2d_result *res, uint32_t *out);

/* ---------------------------------------------------------------------------------------- */
/* Convex polygons                                                                          */

/** Overlap bits of polygon pairs (a[i], b[i]), i < n: 1 where no edge normal of either polygon
 * separates them (touching counts as overlapping), 0 where one does or the pair has bad data
 * (then `bad[i]` = 1). `hit` and `bad` as in satbox2d_overlap(). */
SATBOX_API ptrdiff_t satbox2d_poly_overlap(const satbox2d_polys *a, const satbox2d_polys *b, size_t n,
                                           uint8_t *hit, uint8_t *bad);

/** Separation, normal and axis of polygon pairs (a[i], b[i]): the largest normalised gap over
 * the edges of both polygons, its axis id (0..7 an edge of A, 8..15 an edge of B) and the edge's
 * outward unit normal, negated for B's so that it points from A towards B; hit = separation <=
 * margin. `margin` and `out` as in satbox2d_collide(). */
SATBOX_API ptrdiff_t satbox2d_poly_collide(const satbox2d_polys *a, const satbox2d_polys *b, size_t n,
                                           float margin, const satbox2d_result *out);

/** Overlap bits of polygon pairs given as indices into one pool of polygons, as a broad phase
 * emits them; arguments as satbox2d_overlap_pairs(). */
SATBOX_API ptrdiff_t satbox2d_poly_overlap_pairs(const satbox2d_polys *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, uint8_t *hit,
                                                 uint32_t *out, uint8_t *bad);

/** satbox2d_poly_collide() over pool + index pairs: per-pair outputs in `res` (indexed like
 * `pairs`; may be NULL) and the compacted ascending indices of the pairs with hit == 1 in `out`
 * (may be NULL). */
SATBOX_API ptrdiff_t satbox2d_poly_collide_pairs(const satbox2d_polys *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, float margin,
                                                 const satbox2d_result *res, uint32_t *out);

/** Rectangle a[i] (as the 4-vertex polygon described above; A, ids 0..3) against polygon b[i]
 * (B, ids 8..15). The rectangle follows the rectangle validity rule. */
SATBOX_API ptrdiff_t satbox2d_rect_poly_overlap(const satbox2d_rects *a, const satbox2d_polys *b, size_t n,
                                                uint8_t *hit, uint8_t *bad);

/** satbox2d_poly_collide() of rectangle a[i] against polygon b[i]. */
SATBOX_API ptrdiff_t satbox2d_rect_poly_collide(const satbox2d_rects *a, const satbox2d_polys *b, size_t n,
                                                float margin, const satbox2d_result *out);

/* ---------------------------------------------------------------------------------------- */
/* Prepared polygons                                                                        */

/** One polygon prepared once by satbox2d_poly_prepare(), as 2D engines keep their shapes (Box2D's
 * b2PolygonShape): its vertices (times its prescale, see "Polygons"), the unit outward normal and
 * the offset of each edge, the prescale and the validity verdict, in one record (168 bytes: a pool of
 * them is read with a few cache lines per polygon, whatever the order of the pairs). A pair's
 * separating-axis term is then `min over the other polygon's vertices w of n . w, minus d`: no
 * square root, division or difference per pair. Written by satbox2d_poly_prepare() and read by the
 * prepared pair functions, which trust it: it must hold what satbox2d_poly_prepare() wrote. See
 * "Prepared polygons" above for the two forms and their precision. */
typedef struct satbox2d_prepared {
    float x[SATBOX2D_MAX_VERTS];  /**< x of vertex k times `scale`; slots at or past the count hold vertex 0 */
    float y[SATBOX2D_MAX_VERTS];  /**< y of vertex k times `scale`, as x */
    float nx[SATBOX2D_MAX_VERTS]; /**< x of edge k's unit outward normal (0 for an edge of length 0) */
    float ny[SATBOX2D_MAX_VERTS]; /**< y of edge k's unit outward normal (0 for an edge of length 0) */
    float d[SATBOX2D_MAX_VERTS];  /**< edge k's offset n . v[k] at the prescale (+infinity for an edge of length 0) */
    float scale;                  /**< the prescale (a power of two; 1 unless the polygon is tiny) */
    uint8_t count;                /**< the vertex count, as given */
    uint8_t valid;                /**< 1 when the polygon passes the polygon rule ("Bad data"), else 0 */
    uint8_t pad[2];               /**< zero */
} satbox2d_prepared;

#if defined(__cplusplus)
static_assert(sizeof(satbox2d_prepared) == 168, "satbox2d_prepared is 168 bytes");
#else
_Static_assert(sizeof(satbox2d_prepared) == 168, "satbox2d_prepared is 168 bytes");
#endif

/** Shapes kept as Box2D keeps them: each prepared from its vertices in its body's frame
 * (b2PolygonShape), with the transform of that body (b2Transform: position, cos and sin), the
 * rotation applied in the lanes. Entry i is shape i on body i (a body with several shapes repeats
 * its transform). */
typedef struct satbox2d_bodies {
    const satbox2d_prepared *shape; /**< shape[i]: prepared from body-local vertices (counter-clockwise) */
    const float *position[2];       /**< position[c][i]: world coordinate c of body i's origin */
    const float *rotation[2];       /**< rotation[0][i], rotation[1][i]: cos and sin of body i's angle
                                         (unit within SATBOX2D_UNIT_TOL, as a rectangle's axis) */
} satbox2d_bodies;

/** Prepares polygons i < n once into out[i] (see ::satbox2d_prepared): one implementation for every
 * path, so the prepared bits do not depend on the ISA. A bad polygon gets `valid` 0 (its pairs are bad).
 * The pair functions read the records as written here: a record edited by hand (slots past the count
 * other than vertex 0, normal 0, offset +infinity) may give different results on different paths. They
 * take a call's pairs in groups of equal vertex count (lanes run to their own count), which changes
 * no output; pairs of a record with `scale` other than 1 or `valid` 0 take a slower group.
 * @return the number of valid polygons, or a negative ::satbox_error (a NULL array, `out` overlapping
 * the input; nothing written). */
SATBOX_API ptrdiff_t satbox2d_poly_prepare(const satbox2d_polys *polys, size_t n, satbox2d_prepared *out);

/** satbox2d_poly_overlap_pairs() over a pool of prepared world polygons (pool_n records). */
SATBOX_API ptrdiff_t satbox2d_prep_overlap_pairs(const satbox2d_prepared *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, uint8_t *hit,
                                                 uint32_t *out, uint8_t *bad);

/** satbox2d_poly_collide_pairs() over a pool of prepared world polygons. */
SATBOX_API ptrdiff_t satbox2d_prep_collide_pairs(const satbox2d_prepared *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, float margin,
                                                 const satbox2d_result *res, uint32_t *out);

/** satbox2d_poly_overlap_pairs() over a pool of bodies (shapes in their body's frame + transforms);
 * a transform that is not finite, not unit within ::SATBOX2D_UNIT_TOL or beyond
 * ::SATBOX2D_COORD_LIMIT makes its pairs bad. */
SATBOX_API ptrdiff_t satbox2d_body_overlap_pairs(const satbox2d_bodies *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, uint8_t *hit,
                                                 uint32_t *out, uint8_t *bad);

/** satbox2d_poly_collide_pairs() over a pool of bodies; the normal is in world coordinates. */
SATBOX_API ptrdiff_t satbox2d_body_collide_pairs(const satbox2d_bodies *pool, size_t pool_n,
                                                 const satbox_pair *pairs, size_t n, float margin,
                                                 const satbox2d_result *res, uint32_t *out);

/* ---------------------------------------------------------------------------------------- */
/* Contact manifolds                                                                        */

/** Relative tolerance of the reference-edge hysteresis (see "Contact manifolds"): 2^-10. */
#define SATBOX2D_FLIP_TOL 0.0009765625f /* 2^-10 */
/** Two kept points closer than this times the reference edge's length (L1) are merged: 2^-10. */
#define SATBOX2D_MERGE_TOL 0.0009765625f /* 2^-10 */
/** satbox2d_manifold::flags: the reference edge is B's (else A's). */
#define SATBOX2D_MANIFOLD_REF_B 1u
/** satbox2d_manifold::flags: collide's axis is B's, but the hysteresis kept A's face. */
#define SATBOX2D_MANIFOLD_KEPT_A 2u
/** The feature id of a contact point: which shape holds the reference edge (0 A, 1 B), the
 * reference edge's index (0..7), the incident edge's index (0..7) and its end (0 first vertex, 1
 * next vertex). The one packing used by every path and documented for engines (ids < 2^13). */
#define SATBOX2D_FEATURE_ID(ref_is_b, ref_edge, incident_edge, end)                                \
    ((uint32_t)(ref_is_b) << 12 | (uint32_t)(ref_edge) << 8 | (uint32_t)(incident_edge) << 4 | (uint32_t)(end))

/** The `end` of a fallback point's feature id: the point is the incident shape's deepest vertex
 * (SATBOX2D_FEATURE_ID(ref_is_b, ref_edge, vertex, SATBOX2D_FEATURE_VERTEX); see "Contact manifolds"). */
#define SATBOX2D_FEATURE_VERTEX 2u

/** One contact point of a 2D manifold. */
typedef struct satbox2d_point {
    float x, y;       /**< world position: the clipped point of the incident edge (on the incident shape) */
    float separation; /**< signed distance below the reference edge's line along the normal; < 0 penetration */
    uint32_t id;      /**< SATBOX2D_FEATURE_ID(): stable while the reference and incident edges stay */
} satbox2d_point;

/** The contact manifold of one pair (48 bytes, no padding), written for every pair. */
typedef struct satbox2d_manifold {
    float normal[2];  /**< unit normal of the reference edge, from A towards B; 0 if bad */
    float separation; /**< the SAT separation of the collide function, bit for bit; NaN if bad */
    uint8_t count;    /**< kept points, 0..2 (0: apart beyond the margin, or bad data) */
    uint8_t axis;     /**< the reference edge's axis id (collide's numbering); SATBOX_AXIS_INVALID if bad */
    uint8_t bad;      /**< 1 when the pair has bad data, else 0 */
    uint8_t flags;    /**< SATBOX2D_MANIFOLD_REF_B, SATBOX2D_MANIFOLD_KEPT_A */
    satbox2d_point point[2]; /**< point[0 .. count-1]; the others are zero */
} satbox2d_manifold;

#if defined(__cplusplus)
static_assert(sizeof(satbox2d_manifold) == 48, "satbox2d_manifold is 48 bytes");
#else
_Static_assert(sizeof(satbox2d_manifold) == 48, "satbox2d_manifold is 48 bytes");
#endif

/** Contact manifolds of rectangle pairs (a[i], b[i]), i < n (see "Contact manifolds").
 * @param margin  speculative distance (finite): points with separation <= margin are kept
 * @param out     n records, each written (must not be NULL when n > 0, nor overlap an input)
 * @return the number of pairs with count > 0, or a negative ::satbox_error (nothing written). */
SATBOX_API ptrdiff_t satbox2d_contacts(const satbox2d_rects *a, const satbox2d_rects *b, size_t n, float margin,
                                       satbox2d_manifold *out);

/** satbox2d_contacts() over a rectangle pool + index pairs: out[i] for pairs[i]. */
SATBOX_API ptrdiff_t satbox2d_contacts_pairs(const satbox2d_rects *pool, size_t pool_n, const satbox_pair *pairs,
                                             size_t n, float margin, satbox2d_manifold *out);

/** Contact manifolds of polygon pairs (a[i], b[i]) (arguments as satbox2d_contacts()). */
SATBOX_API ptrdiff_t satbox2d_poly_contacts(const satbox2d_polys *a, const satbox2d_polys *b, size_t n, float margin,
                                            satbox2d_manifold *out);

/** satbox2d_poly_contacts() over a polygon pool + index pairs. */
SATBOX_API ptrdiff_t satbox2d_poly_contacts_pairs(const satbox2d_polys *pool, size_t pool_n,
                                                  const satbox_pair *pairs, size_t n, float margin,
                                                  satbox2d_manifold *out);

/** Contact manifolds of rectangle a[i] (A, as the corner polygon) against polygon b[i] (B). */
SATBOX_API ptrdiff_t satbox2d_rect_poly_contacts(const satbox2d_rects *a, const satbox2d_polys *b, size_t n,
                                                 float margin, satbox2d_manifold *out);

/** satbox2d_poly_contacts_pairs() over a pool of prepared world polygons. */
SATBOX_API ptrdiff_t satbox2d_prep_contacts_pairs(const satbox2d_prepared *pool, size_t pool_n,
                                                  const satbox_pair *pairs, size_t n, float margin,
                                                  satbox2d_manifold *out);

/** satbox2d_poly_contacts_pairs() over a pool of bodies: the pair is worked in A's body frame,
 * positions and normal are returned in world coordinates. */
SATBOX_API ptrdiff_t satbox2d_body_contacts_pairs(const satbox2d_bodies *pool, size_t pool_n,
                                                  const satbox_pair *pairs, size_t n, float margin,
                                                  satbox2d_manifold *out);

#ifdef __cplusplus
}
#endif

#endif /* SATBOX_SATBOX2D_H */

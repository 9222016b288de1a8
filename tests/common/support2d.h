/* support2d.h - 2D test/bench support: random rectangle and polygon families, owning SoA arrays. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_SUPPORT2D_H
#define SATBOX_TEST_SUPPORT2D_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox2d.h"
#include "support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One rectangle / polygon as a plain struct (same fields as the SoA descriptors). */
typedef struct tb_rect {
    float c[2], h[2], u[2]; /**< center, half extents, (cos, sin) */
} tb_rect;

typedef struct tb_poly {
    float x[SATBOX2D_MAX_VERTS], y[SATBOX2D_MAX_VERTS]; /**< world vertices, counter-clockwise */
    uint8_t n;                                          /**< vertex count */
} tb_poly;

/** Families of random 2D pairs. */
typedef enum tb2_family {
    TB2_UNIFORM = 0, /**< random angles and sizes 0.1..1.5, B's center within +-2.5: ~50% overlap */
    TB2_TOUCHING,    /**< B pushed along one of A's edge normals to touch it within +-1e-5 */
    TB2_GRID,        /**< axis-aligned shapes with coordinates on a 1/4 grid (exact touches) */
    TB2_IDENTICAL,   /**< B == A */
    TB2_SCALES,      /**< TB2_UNIFORM scaled by 10^U(-3, 4) and moved up to 10^4 away from the origin */
    TB2_THIN,        /**< zero extents / nearly collinear polygons, repeated vertices */
    TB2_CONTAINED,   /**< B small and inside A */
    TB2_TINY,        /**< TB2_UNIFORM or TB2_TOUCHING scaled by 2^-56..2^-130 (issue 24: sizes where squares
                          of differences are subnormal, down to subnormal coordinates) */
    TB2_FAR,         /**< TB2_UNIFORM or TB2_TOUCHING moved 10^3..10^5 from the origin (issue 24: rectangle vs
                          polygon must keep the error relative to the pair's size) */
    TB2_DENT,        /**< polygons: A has a reflex vertex as deep as SATBOX2D_CONVEX_TOL admits, on a 45-degree
                          edge, and B pokes into A past the line of the edge before it (issue 24); rectangles:
                          TB2_UNIFORM; counts are fixed (5 and 3) */
    TB2_BAD,         /**< bad data of every kind (see satbox2d.h "Bad data") */
    TB2_FAMILY_COUNT
} tb2_family;

const char *tb2_family_name(tb2_family f);

/** A random pair of the family; polygons get na and nb vertices (0: random in 3..8), and
 * their unused slots are filled with garbage (NaN, huge values) that must not matter. */
void tb2_rect_pair(tb_rng *r, tb2_family f, tb_rect *a, tb_rect *b);
void tb2_poly_pair(tb_rng *r, tb2_family f, int na, int nb, tb_poly *a, tb_poly *b);
/** A random convex polygon of n vertices around (cx, cy), radius about `scale`, in double then rounded. */
void tb2_random_poly(tb_rng *r, int n, double cx, double cy, double scale, tb_poly *p);
/** The rectangle's 4 corners (double), in the order satbox2d.h gives for rect-vs-polygon. */
void tb2_rect_corners(const tb_rect *r, double x[4], double y[4]);

/** The exact map x -> s x + o of TB2_TINY and TB2_FAR (identity for the other families). */
typedef struct tb2_map {
    double s, ox, oy;
} tb2_map;

/** For TB2_TINY and TB2_FAR: draws the family a pair is generated from before the map (TB2_UNIFORM
 * or TB2_TOUCHING) and the map; other families: returns f and the identity. */
tb2_family tb2_family_map(tb_rng *r, tb2_family f, tb2_map *m);
/** Applies the map to a rectangle's center and half extents, or to a polygon's used vertices
 * (rounded to float: exact for powers of two unless the result is subnormal). */
void tb2_map_rect(const tb2_map *m, tb_rect *q);
void tb2_map_poly(const tb2_map *m, tb_poly *p);

/** Pushes B along the outward unit normal of a random edge of A until B's nearest vertex lies on
 * that edge's line, plus a random delta in +-1e-5 (computed in double, rounded). */
void tb2_push_touch(tb_rng *r, const tb_poly *a, tb_poly *b);

/** The rectangle as a 4-vertex float polygon in world coordinates, corners `(c -+ a0) -+ a1` in
 * satbox2d.h's order (satbox itself works relative to the center, exactly as rounded there). */
void tb2_rect_as_poly(const tb_rect *r, tb_poly *p);

/** Owning SoA storage (malloc, exactly n entries) with its const descriptor. */
typedef struct tb2_rects {
    size_t n;
    float *f[6]; /* center x, y, half 0, 1, cos, sin */
    satbox2d_rects view;
} tb2_rects;

typedef struct tb2_polys {
    size_t n;
    float *x[SATBOX2D_MAX_VERTS], *y[SATBOX2D_MAX_VERTS];
    uint8_t *count;
    satbox2d_polys view;
} tb2_polys;

int tb2_rects_alloc(tb2_rects *s, size_t n);
void tb2_rects_free(tb2_rects *s);
void tb2_rects_set(tb2_rects *s, size_t i, const tb_rect *r);
int tb2_polys_alloc(tb2_polys *s, size_t n);
void tb2_polys_free(tb2_polys *s);
void tb2_polys_set(tb2_polys *s, size_t i, const tb_poly *p);

/** Owning prepared polygons: n records filled by satbox2d_poly_prepare(). */
typedef struct tb2_prepared {
    size_t n;
    satbox2d_prepared *rec;
} tb2_prepared;

/** Allocates n prepared polygons and prepares polys[0, n) into them; 0 or -1 (out of memory or an
 * error of satbox2d_poly_prepare()). */
int tb2_prepared_make(tb2_prepared *p, const satbox2d_polys *polys, size_t n);
void tb2_prepared_free(tb2_prepared *p);

/** Owning bodies made from world polygons: each gets a random angle (cos, sin rounded to float) and
 * the float center of its vertices as position, and its vertices in that body frame (computed in
 * double, rounded: the body's shape is then the world polygon within a rounding of its size),
 * prepared. Bad polygons stay bad; a few transforms are made bad on purpose when `bad_xforms`
 * (NaN, a rotation off unit). */
typedef struct tb2_bodies {
    size_t n;
    tb2_polys local;
    tb2_prepared shape;
    float *f[4]; /* position x, y, cos, sin */
    satbox2d_bodies view;
} tb2_bodies;

int tb2_bodies_make(tb2_bodies *b, tb_rng *r, const tb_poly *world, size_t n, int bad_xforms);
void tb2_bodies_free(tb2_bodies *b);
/** Body i's local polygon (as stored) and transform. */
void tb2_body_get(const tb2_bodies *b, size_t i, tb_poly *local, float xf[4]);

#ifdef __cplusplus
}
#endif

#endif

/* oracle2d.h - independent 2D references in long double: the classic vertex-projection SAT and a SAT-free intersection test. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_ORACLE2D_H
#define SATBOX_TEST_ORACLE2D_H

#include "support2d.h"

/** A convex polygon in long double (counter-clockwise, n vertices). Rectangles become their 4 corners. */
typedef struct or2_poly {
    long double x[SATBOX2D_MAX_VERTS], y[SATBOX2D_MAX_VERTS];
    int n;
} or2_poly;

void or2_from_poly(const tb_poly *p, or2_poly *o);
void or2_from_rect(const tb_rect *r, or2_poly *o);

/** Classic SAT: every vertex of both polygons projected on every unit edge normal of both
 * (normalised in long double). Returns the largest one-sided gap over the edge normals (axis id
 * as in satbox2d.h: 0..n-1 edges of A, 8.. edges of B) and writes that axis' unit normal from A
 * towards B. Zero-length edges are skipped. */
long double or2_sat(const or2_poly *a, const or2_poly *b, int *axis, long double normal[2]);

/** The gap of one axis id (as or2_sat numbers them); NAN if that edge has length 0. */
long double or2_axis_gap(const or2_poly *a, const or2_poly *b, int axis, long double normal[2]);

/** Rectangle SAT on the rectangles' own 4 unit axes (ids 0..3 as satbox2d_collide()). */
long double or2_rect_sat(const tb_rect *a, const tb_rect *b, int *axis, long double normal[2]);
long double or2_rect_axis_gap(const tb_rect *a, const tb_rect *b, int axis, long double normal[2]);

/** SAT-free: 1 when the closed polygons intersect (an edge of one meets an edge of the other, or
 * a vertex of one lies inside or on the other), from orientation signs in long double. */
int or2_intersect(const or2_poly *a, const or2_poly *b);

/** L1 diameter of the two polygons' vertices together: the length scale of the pair's error band. */
long double or2_scale(const or2_poly *a, const or2_poly *b);

/** Signed distance of (x, y) from the line of edge k (vertex k to k + 1) along its outward unit
 * normal: > 0 outside that edge. NAN if the edge has length 0. */
long double or2_edge_dist(const or2_poly *p, int k, long double x, long double y);

/** How far (x, y) lies outside the polygon: the largest or2_edge_dist() over its edges of nonzero
 * length (<= 0 inside; a lower bound of the Euclidean distance outside). */
long double or2_outside(const or2_poly *p, long double x, long double y);

#endif

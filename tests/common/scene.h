/* scene.h - random box scenes (matrix and quaternion SoA) and a sort-and-sweep broad phase, for tests and benchmarks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_SCENE_H
#define SATBOX_TEST_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"
#include "support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a scene looks like. Lengths are in the same unit as the box sizes (think metres). */
typedef struct tb_scene_params {
    size_t n;          /**< number of boxes */
    double density;    /**< sum of the box volumes / volume of the scene's cube (0.15 by default) */
    double stacked;    /**< fraction of the boxes that stand in stacks on the floor z = 0 (0.3) */
    int stack_max;     /**< tallest stack, in boxes (2..stack_max per stack; 5) */
    double tilt;       /**< largest tilt of a stacked box away from upright, radians (1e-3) */
    double gap;        /**< stacked boxes rest with a vertical gap uniform in [-gap, +gap] (1e-3) */
    float margin;      /**< AABB fattening used by the broad phase (0.02, like an engine's slop) */
    uint64_t seed;     /**< RNG seed: same seed, same scene on every machine */
} tb_scene_params;

/** A scene: n boxes in both layouts, their AABBs and the broad phase's candidate pairs. */
typedef struct tb_scene {
    size_t n;              /**< number of boxes */
    double side;           /**< edge of the cube [0, side]^3 the boxes are scattered in */
    tb_soa boxes;          /**< matrix SoA (axes = satbox_axes_from_quat() of `quat`) */
    float *qarrays[10];    /**< quaternion SoA storage: center 0..2, half 0..2, quat x y z w */
    satbox_qboxes qview;   /**< descriptor over qarrays (same centers and extents as `boxes`) */
    float *min[3], *max[3];/**< satbox_aabb() of the boxes, fattened by params.margin */
    satbox_pair *pairs;    /**< candidate pairs (a < b), sorted by (a, b) */
    size_t npairs;         /**< number of candidate pairs */
    uint8_t *stacked;      /**< n flags: 1 if the box belongs to a stack */
} tb_scene;

/** Default parameters for n boxes (the values quoted in tb_scene_params). */
void tb_scene_defaults(tb_scene_params *p, size_t n, uint64_t seed);

/** Builds a scene (boxes, AABBs, sweep). Returns 0, or -1 when out of memory (scene left empty). */
int tb_scene_make(tb_scene *s, const tb_scene_params *p);
void tb_scene_free(tb_scene *s);

/** Sort-and-sweep broad phase on x: every pair of boxes whose closed AABB intervals overlap on
 * all three world axes, as (a, b) with a < b, sorted by a then b (the order engines keep for
 * determinism). Empty boxes (min > max, as satbox_aabb() gives invalid boxes) pair with nothing.
 * *pairs is malloc'd (NULL when there are none). Returns the count, or -1 when out of memory. */
ptrdiff_t tb_sweep(const float *const min[3], const float *const max[3], size_t n, satbox_pair **pairs);

/** The same set by brute force over all n(n-1)/2 pairs (for testing the sweep). */
ptrdiff_t tb_brute_pairs(const float *const min[3], const float *const max[3], size_t n, satbox_pair **pairs);

/** Copies pool[pairs[i].a] into a at index at + i and pool[pairs[i].b] into b, i < n (an engine's
 * gather into two pair-aligned SoA batches). */
void tb_gather_pairs(const satbox_boxes *pool, const satbox_pair *pairs, size_t n, tb_soa *a, tb_soa *b,
                     size_t at);

/** Unit quaternion (x, y, z, w) of a rotation given by its axes (axis[k] = column k), in double. */
void tb_quat_from_axes(const float axis[3][3], double q[4]);

#ifdef __cplusplus
}
#endif

#endif

/* support.h - test/bench support: seeded RNG, random box families, owning SoA arrays. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_SUPPORT_H
#define SATBOX_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"

#ifdef __cplusplus
extern "C" {
#endif

/** splitmix64-seeded xoshiro256** generator: same sequence on every machine for one seed. */
typedef struct tb_rng {
    uint64_t s[4];
} tb_rng;

void tb_seed(tb_rng *r, uint64_t seed);
uint64_t tb_next(tb_rng *r);
/** Uniform double in [0, 1). */
double tb_unit(tb_rng *r);
/** Uniform double in [lo, hi). */
double tb_range(tb_rng *r, double lo, double hi);
/** Standard normal sample. */
double tb_normal(tb_rng *r);

/** Families of random pairs used by the tests and the benchmarks. */
typedef enum tb_family {
    TB_UNIFORM = 0,   /**< random rotations, sizes 0.1..1.5, B's center within +-2.5: ~50% overlap */
    TB_STACKED,       /**< B resting on a face of A, tilted by <= 1e-3 rad, gap uniform in +-1e-3 */
    TB_TOUCHING,      /**< random rotations, B moved along a random axis of A to touch (+-1e-5) */
    TB_PARALLEL,      /**< axis-aligned or equally rotated boxes on a half-unit grid (exact touches) */
    TB_IDENTICAL,     /**< B == A */
    TB_SCALES,        /**< TB_UNIFORM scaled by 10^U(-3, 4) */
    TB_FLAT,          /**< like TB_UNIFORM with one to three zero half extents */
    TB_BAD,           /**< like TB_UNIFORM, with NaN, inf, negative, huge values in some fields */
    TB_FAMILY_COUNT
} tb_family;

const char *tb_family_name(tb_family f);

/** A uniformly random unit quaternion (x, y, z, w) (Haar measure), in double. */
void tb_random_quat(tb_rng *r, double q[4]);
/** A uniformly random rotation (Haar measure), computed in double, rounded to float. */
void tb_random_rotation(tb_rng *r, float axis[3][3]);
/** Rotation by `angle` radians about the unit axis (x, y, z), composed as axis_out = rot * axis_in. */
void tb_rotate(float axis[3][3], double x, double y, double z, double angle);
/** One random pair of the family. */
void tb_make_pair(tb_rng *r, tb_family f, satbox_box *a, satbox_box *b);

/** Adversarial families of the precision tests (test_oracle, precision_table), numbered apart from
 * tb_family so that the checker and the benchmarks keep their set. Each is a near-contact where
 * float rounding decides:
 *  - nearpar:   B = A's rotation tilted by 10^U(-7,-2) rad, placed ridge to ridge (an edge of B
 *               facing an edge of A), both face gaps of the order of tilt * size;
 *  - edgepar:   an edge of A and an edge of B 10^U(-6,-2) rad from parallel, crossing when seen
 *               along their cross product and touching along it within +-1e-5 of the sum of the
 *               six half extents (that cross product is the separating axis, or nearly);
 *  - stk_1e-3, stk_1e4: TB_STACKED with every length multiplied by 1e-3 / 1e4;
 *  - far:       centers at 1e5..1e7 (float spacing 0.008..1), boxes of sizes ~0.01..1 touching
 *               along a face of A within +-1e-5 of their size, far below one unit in the last
 *               place of the coordinates (the contact is set through A's extent, not the centers). */
typedef enum tb_extra {
    TB_X_NEARPAR = 0,
    TB_X_EDGEPAR,
    TB_X_STACK_SMALL,
    TB_X_STACK_LARGE,
    TB_X_FAR,
    TB_X_COUNT
} tb_extra;

const char *tb_extra_name(tb_extra f);
/** One random pair of the adversarial family. */
void tb_make_extra(tb_rng *r, tb_extra f, satbox_box *a, satbox_box *b);

/** Owning SoA storage for n boxes; `view` is the const descriptor, `out` the writable one.
 * With `pad` > 0 each array gets that many extra floats (filled with a sentinel) after n. */
typedef struct tb_soa {
    size_t n;
    float *arrays[15]; /* center0..2, half0..2, axis00..axis22 (k-major, then c) */
    satbox_boxes view;
    satbox_boxes_out out;
} tb_soa;

/** Allocates exactly n floats per array, zeroed (n = 0 gives NULL arrays). Returns 0 on success. */
int tb_soa_alloc(tb_soa *s, size_t n);
void tb_soa_free(tb_soa *s);
void tb_soa_set(tb_soa *s, size_t i, const satbox_box *b);
void tb_soa_get(const tb_soa *s, size_t i, satbox_box *b);

/** Box i of any descriptor, as a struct. */
void tb_box_from(const satbox_boxes *v, size_t i, satbox_box *b);

/** Owning SoA storage for n boxes given by quaternion; `view` is the descriptor. */
typedef struct tb_qsoa {
    size_t n;
    float *arrays[10]; /* center0..2, half0..2, quat x, y, z, w */
    satbox_qboxes view;
} tb_qsoa;

/** Allocates exactly n floats per array, zeroed (n = 0 gives NULL arrays). Returns 0 on success. */
int tb_qsoa_alloc(tb_qsoa *s, size_t n);
void tb_qsoa_free(tb_qsoa *s);
/** Box i: the center and half extents of `b` (its axes are not stored) and the quaternion q. */
void tb_qsoa_set(tb_qsoa *s, size_t i, const satbox_box *b, const float q[4]);

/** The per-path tests run with SATBOX_ISA=<path>, a cap: when the active path is not exactly
 * that one (the CPU, OS or build lacks it), exit 77 so that meson counts the test as skipped,
 * never as a pass on a narrower path. Unknown names exit 2. */
void tb_require_isa(void);

/** malloc(bytes), at least 1 byte; out of memory ends the program (exit 2). */
void *tb_xmalloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif

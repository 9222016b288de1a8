/* planner.h - the planner room's job (robot configurations against an obstacle world), the world's rows, the scalar kernel. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_PLANNER_H
#define SATBOX_PLANNER_H

#include "core/internal.h"
#include "satbox/satbox_planner.h"

/* The rows of a world (satbox_world.rows, `stride` floats apart; stride a multiple of 16, so that
 * a step of any path reads whole vectors of obstacles): the box (center, half extents, axis k
 * component c at SBX_WR_U + 3 k + c), its AABB and its scale s = |c0| + |c1| + |c2| + h0 + h1 + h2.
 * The rows past n hold an empty AABB (min +inf, max -inf), which meets nothing. */
enum {
    SBX_WR_C = 0,
    SBX_WR_H = 3,
    SBX_WR_U = 6,
    SBX_WR_MIN = 15,
    SBX_WR_MAX = 18,
    SBX_WR_S = 21,
    SBX_WR_ROWS = 22
};

/* One checked call of satbox_configs() or satbox_motion(). */
typedef struct sbx_pjob {
    const satbox_world *world; /* NULL or empty: self pairs only */
    const satbox_boxes *links; /* nlinks descriptors of k boxes */
    size_t nlinks;
    const satbox_pair *self; /* nself link index pairs (a, b), both < nlinks */
    size_t nself;
    size_t k;       /* configurations, or the states of the motion */
    unsigned flags; /* SATBOX_PLAN_CONSERVATIVE, SATBOX_PLAN_ANY */
    uint8_t *out;   /* satbox_configs(): k verdicts; satbox_motion(): NULL */
} sbx_pjob;

/* The state of motion slot j (0 .. SATBOX_PLAN_ROUND - 1) of round v, with V rounds: j V + v. */
static inline size_t sbx_motion_state(size_t v, size_t j, size_t V) { return j * V + v; }

/* The scalar reference (planner_ref.c), the `configs` of sbx_path_scalar: satbox_configs()'s
 * count of configurations not free, or for a motion job (out == NULL) satbox_motion()'s state. */
ptrdiff_t sbx_scalar_configs(const sbx_pjob *job);

/* planner_ref.c, for api_planner.c: the world's rows from m checked boxes (stride >= m), and the
 * per-box rule of box i. */
void sbx_world_rows(float *rows, size_t stride, const satbox_boxes *boxes, size_t m);
int sbx_box_ok(const satbox_boxes *boxes, size_t i);

#endif

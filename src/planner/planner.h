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
    float tol_rel;  /* a pair's tolerance: tol_rel (s_A + s_B) + tol_abs; SATBOX_PLAN_REL and 0 */
    float tol_abs;  /* but for the chain queries (satbox_chain's fields) */
    int whole;      /* the link arrays hold boxes past k up to a whole vector of 16 (maybe NaN, never
                       read as results: those lanes are not live): the templates load whole vectors */
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

/* ---- the chain (satbox_chain.data): forward kinematics in lanes ----
 * Every joint turns about the z axis of its own frame: satbox_chain_init() turns each joint frame
 * (A_j, with A_j z = axis_j) and moves A_{j-1}^T, A_j into the fixed parts, in double (chain_ref.c).
 * Rows of SBX_CJ_ROWS floats per joint: the fixed rotation F (row-major: F[r][c] at SBX_CJ_F + 3 r +
 * c) and translation t, both in the previous joint's turned frame; rows of SBX_CL_ROWS floats per
 * link box, sorted by joint (stable): center, axis k component c at SBX_CL_U + 3 k + c (in the
 * joint's turned frame), half extents, the joint (-1: the base) and the link's index in the
 * caller's order, both as floats (exact). */
enum { SBX_CJ_F = 0, SBX_CJ_T = 9, SBX_CJ_ROWS = 12 };
enum { SBX_CL_C = 0, SBX_CL_U = 3, SBX_CL_H = 12, SBX_CL_JOINT = 15, SBX_CL_INDEX = 16, SBX_CL_ROWS = 17 };

/* The constants of the sine and cosine (chain_ref.c sbx_sincos_ref()): the rounding magic 1.5 2^23,
 * 2 / pi, and pi / 2 in three parts (21 and 21 significant bits, then the rest rounded). */
#define SBX_ROUND_MAGIC 0x1.8p23f
#define SBX_2_PI 0x1.45f306p-1f
#define SBX_PIO2_1 0x1.921fbp+0f
#define SBX_PIO2_2 0x1.5110bp-22f
#define SBX_PIO2_3 0x1.18p-44f

/* Configurations per block of the chain queries (satbox_chain_work_bytes()). */
#define SBX_CHAIN_BLOCK 128u

/* One call of the lane FK: joint values joint-major (q[j * ld + i], i < n), the boxes of
 * configuration i written as box `at + i` of out[l] for the chain's link l (caller order). With
 * `whole`, q and out have room for whole vectors of 16 past n (q zero there): the templates then
 * read and write whole vectors. */
typedef struct sbx_fkjob {
    const satbox_chain *chain;
    const float *q;
    size_t ld, n, at;
    const satbox_boxes_out *out;
    int whole;
} sbx_fkjob;

/* chain_ref.c: the scalar lane FK (the chain_fk of sbx_path_scalar); its sine and cosine; the
 * library's form of a checked chain and its error bounds (api_planner.c). */
void sbx_scalar_chain_fk(const sbx_fkjob *job);
void sbx_sincos_ref(float x, float *s, float *c);
int sbx_chain_build(satbox_chain *chain, float *data, const satbox_joint *joints, size_t nj, const satbox_link *links,
                    size_t nl);

#endif

/* robot.h - a Panda-like arm of 8 link boxes (double forward kinematics) and the obstacle scenes of the planning bench and tests. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_ROBOT_H
#define SATBOX_TEST_ROBOT_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"
#include "satbox/satbox_planner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The arm: 7 revolute joints with the public Franka Panda kinematic parameters (Craig's modified
 * DH convention: each joint's frame is the previous one turned by alpha about x, moved by a along
 * x, turned by q about z and moved by d along z; the flange is frame 7 moved by 0.107 along z) and
 * its joint limits. The 8 boxes are ours, not
 * Panda's meshes: links 1 to 7 each a box around the segment to the next joint origin, padded to
 * the link's thickness, and the hand (turned -45 degrees about the flange axis, as Panda's). The
 * base (link 0) is fixed and not a box: every scene keeps clear of it.
 * The base stands at RB_BASE (world frame, double), unrotated, away from the world origin on
 * purpose: the float poses are the double poses minus RB_BASE (satbox_planner.h, "Precision"). */

#define RB_DOF 7
#define RB_LINKS 8

/* A box in double: center, local unit axes axis[k] (world components), half extents. */
typedef struct rb_box {
    double center[3];
    double axis[3][3];
    double half[3];
} rb_box;

/* The world position of the base (meters). */
extern const double RB_BASE[3];
/* Joint limits (radians), Panda's published ones. */
extern const double RB_Q_LO[RB_DOF], RB_Q_HI[RB_DOF];

/* Forward kinematics in double: the 8 link boxes of configuration q in the world frame. */
void rb_fk(const double q[RB_DOF], rb_box links[RB_LINKS]);

/* The same arm as a chain for satbox's lane FK (satbox_chain_init()): joint j turned by alpha_j
 * about x and moved by (a_j, -sin alpha_j d_j, cos alpha_j d_j), about z; box j on joint j, the
 * hand on joint 7 moved by the flange and turned by -pi/4. Poses relative to the base (subtract
 * RB_BASE from the obstacles, as rb_to_float() does). */
void rb_chain(satbox_joint joints[RB_DOF], satbox_link links[RB_LINKS]);

/* The link pairs checked for self-collision: every pair at least four links apart in the chain
 * (nearer boxes overlap around their shared joints by construction); returns how many. */
size_t rb_self_pairs(const satbox_pair **pairs);

/* The obstacle scenes: RB_BOOKSHELF (two shelves, one turned, with books), RB_TABLE (a table with
 * clutter, a wall behind), RB_CAGE (a cage of bars around the arm). Each has exactly m boxes
 * (m >= 32), from the fixed seed: the same scene on every machine. */
typedef enum rb_scene_kind { RB_BOOKSHELF = 0, RB_TABLE, RB_CAGE, RB_SCENE_COUNT } rb_scene_kind;
const char *rb_scene_name(rb_scene_kind kind);
/* Writes the m obstacle boxes of the scene (world frame, double) to out. */
void rb_scene(rb_scene_kind kind, size_t m, uint64_t seed, rb_box *out);

/* The regions of a scene's planning problems, for a point p (world): 1 or 2 when p is in the
 * start or the goal region (in or before a compartment of the first or of the turned shelf; over the
 * table among the clutter, right or left; low by the cage's back or front wall), else 0. */
int rb_scene_region(rb_scene_kind kind, const double p[3]);

/* The box as satbox takes it: center minus RB_BASE in double, then everything rounded to float. */
void rb_to_float(const rb_box *b, satbox_box *out);

/* A uniformly random configuration within the joint limits (support.h's generator, by seed state). */
struct tb_rng;
void rb_random_q(struct tb_rng *r, double q[RB_DOF]);

#ifdef __cplusplus
}
#endif

#endif

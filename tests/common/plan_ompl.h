// plan_ompl.h - OMPL planning problems for the arm of robot.h: validity checkers and motion validators on FCL and on satbox, timed.
// SPDX-License-Identifier: MIT
#ifndef SATBOX_TEST_PLAN_OMPL_H
#define SATBOX_TEST_PLAN_OMPL_H

#include <string>
#include <vector>

#include "plan.h"

namespace plan {

enum class Checker { Fcl, Satbox };
enum class Planner { RRTConnect, BKPIECE1 };
const char *planner_name(Planner p);

// One planning run's measures.
struct PlanRun {
    bool solved = false;
    double seconds = 0;       // planner's solve() wall time
    double cpu_seconds = 0;   // the same in the thread's CPU time (a shared machine's waits left out)
    double check_seconds = 0; // wall time inside the collision checker (FCL only), FK excluded
    double fk_seconds = 0;    // wall time in the double forward kinematics (FCL runs only)
    size_t states = 0;        // configurations checked
    size_t motions = 0;       // motions checked
    std::vector<std::vector<double>> path; // the solution's states (joint vectors), unsimplified
};

// A start and a goal, both free for FCL and for satbox's conservative mode, the hand in the
// scene's start and goal regions (rb_scene_region()), the first ones of the seed's random
// configurations; false when none is found in 200000 tries.
bool pick_problem(const Scene &scene, uint64_t seed, double start[RB_DOF], double goal[RB_DOF]);

// Plans with OMPL (ompl::RNG::setSeed(seed) first): RealVectorStateSpace(7) within the joint limits,
// a StateValidityChecker on `checker` (FK in double, then FCL, or satbox one configuration a call),
// and as MotionValidator OMPL's DiscreteMotionValidator (FCL) or one that calls satbox_motion() on
// the interpolated states (satbox). `satbox_flags`: 0 or SATBOX_PLAN_CONSERVATIVE.
PlanRun plan_once(const Scene &scene, Checker checker, Planner planner, const double start[RB_DOF],
                  const double goal[RB_DOF], unsigned seed, double timeout, unsigned satbox_flags = 0);

// Motion checks through OMPL's validators, as plan_once sets them up: `pairs` motions (q1, q2 =
// q1 + a step of the planners' default range) with q1 free; returns the thread CPU seconds for all of them and
// writes each verdict (1 = the motion is valid).
double check_motions(const Scene &scene, Checker checker, const std::vector<std::vector<double>> &from,
                     const std::vector<std::vector<double>> &to, std::vector<uint8_t> &valid, unsigned satbox_flags = 0);

// Motions (from, to) for check_motions: from free for FCL, `to` one planner step away; fixed seed.
void make_motions(const Scene &scene, size_t n, uint64_t seed, std::vector<std::vector<double>> &from,
                  std::vector<std::vector<double>> &to);

} // namespace plan

#endif

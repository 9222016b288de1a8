// plan_ompl.h - OMPL planning problems for the arm of robot.h: validity checkers and motion validators on FCL and on satbox, timed.
// SPDX-License-Identifier: MIT
#ifndef SATBOX_TEST_PLAN_OMPL_H
#define SATBOX_TEST_PLAN_OMPL_H

#include <string>
#include <vector>

#include "plan.h"

namespace plan {

// The checkers: FCL (double FK rb_fk(), then FclChecker, as MoveIt would), satbox on the double
// FK's link poses packed in lanes (SatboxChecker::collides, ::motion), satbox's lane FK on the joint
// values rounded to float (SatboxChecker::chain_collides, ::chain_motion).
enum class Checker { Fcl, Satbox, SatboxChain };
enum class Planner { RRTConnect, BKPIECE1 };
const char *planner_name(Planner p);
const char *checker_name(Checker c);

// The answers a planning run's validators gave, in call order (plan_free() replays them).
struct CheckLog {
    std::vector<uint8_t> valid;        // StateValidityChecker::isValid(), 1 = valid
    std::vector<uint8_t> motion_valid; // satbox's MotionValidator (FCL's is OMPL's, over isValid)
    std::vector<double> last_valid;    // checkMotion(s1, s2, lastValid)'s fraction, per invalid such call
    std::vector<double> fk_sample;     // FCL runs: every FK_SAMPLE-th state isValid() got (RB_DOF values each)
};
constexpr size_t FK_SAMPLE = 16;

// One planning run's measures. Times are of the solve() call only; no clock is read inside it (a
// read of the thread's CPU clock costs about 0.7 us on the bench machine, more than a satbox check).
struct PlanRun {
    bool solved = false;
    double seconds = 0;     // wall time
    double cpu_seconds = 0; // the thread's CPU time (a shared machine's waits left out)
    double fk_seconds = 0;  // FCL runs: the double FK's part of cpu_seconds, estimated after the run:
                            // rb_fk() on log.fk_sample, thread CPU time, scaled to every state checked
    bool replay_same = true; // plan_free(): the log consumed exactly and the same path found
    size_t states = 0;      // configurations checked (satbox's chain motions: every state of the motion)
    size_t motions = 0;     // motions checked
    std::vector<std::vector<double>> path; // the solution's states (joint vectors), unsimplified
    CheckLog log;
};

// A start and a goal, both free for FCL and for satbox's conservative mode (double and lane FK), the hand in the
// scene's start and goal regions (rb_scene_region()), the first ones of the seed's random
// configurations; false when none is found in 200000 tries.
bool pick_problem(const Scene &scene, uint64_t seed, double start[RB_DOF], double goal[RB_DOF]);

// Plans with OMPL (ompl::RNG::setSeed(seed) first): RealVectorStateSpace(7) within the joint limits,
// a StateValidityChecker on `checker` (FK in double, then FCL or satbox one configuration a call;
// or satbox's lane FK one joint vector a call), and as MotionValidator OMPL's
// DiscreteMotionValidator (FCL) or one that checks the same states, OMPL's resolution giving their
// number, with satbox_motion() on the interpolated states' double FK (Satbox) or with
// satbox_chain_motion() (SatboxChain). `satbox_flags`: 0 or SATBOX_PLAN_CONSERVATIVE.
PlanRun plan_once(const Scene &scene, Checker checker, Planner planner, const double start[RB_DOF],
                  const double goal[RB_DOF], unsigned seed, double timeout, unsigned satbox_flags = 0);

// The planner's own time in the run `run` (of plan_once with the same checker kind, planner, problem
// and seed): the run again with validators that answer from run.log in call order (a byte read a
// check; FCL's motions still through OMPL's DiscreteMotionValidator), so the planner takes the same
// steps with a free checker. cpu_seconds is then the planning time without the checks, and
// run.cpu_seconds - that the checks' time inside the run. replay_same says whether it took the same steps.
PlanRun plan_free(Checker checker, Planner planner, const double start[RB_DOF], const double goal[RB_DOF],
                  unsigned seed, double timeout, const PlanRun &run);

// Motion checks through OMPL's validators, as plan_once sets them up: the motions from[i] -> to[i]
// (make_motions()); returns the thread CPU seconds for all of them and
// writes each verdict (1 = the motion is valid).
double check_motions(const Scene &scene, Checker checker, const std::vector<std::vector<double>> &from,
                     const std::vector<std::vector<double>> &to, std::vector<uint8_t> &valid, unsigned satbox_flags = 0);

// Motions (from, to) for check_motions: from free for FCL, `to` one planner step away; fixed seed.
void make_motions(const Scene &scene, size_t n, uint64_t seed, std::vector<std::vector<double>> &from,
                  std::vector<std::vector<double>> &to);

} // namespace plan

#endif

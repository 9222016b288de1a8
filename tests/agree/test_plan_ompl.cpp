// test_plan_ompl.cpp - an OMPL RRTConnect plan with a fixed seed on satbox's checkers is the same path on every satbox path.
// SPDX-License-Identifier: MIT
//
// The table scene of tests/common/robot.h (M = 100), a start and goal from a fixed seed, OMPL's
// RRTConnect seeded by ompl::RNG::setSeed, satbox as the StateValidityChecker (one configuration
// a call) and the MotionValidator (satbox_motion on the interpolated states): planned once per
// path this machine runs (satbox_isa_force), in the default and the conservative mode. Every path
// must give the same solution, state for state (bit for bit in double), after the same number of
// checked states and motions: the verdicts are the same on every path, and OMPL's random stream
// is the seed's. FCL's plan with the same seed is printed beside them (not compared: FCL may
// decide a state in the band the other way).
#include <cstdio>

#include "peer_missing.h"

#ifdef SATBOX_HAVE_PLAN
#include "plan_ompl.h"

using namespace plan;

int main()
{
    Scene scene = make_scene(RB_TABLE, 100);
    double start[RB_DOF], goal[RB_DOF];
    if (!pick_problem(scene, 12, start, goal)) {
        std::printf("FAIL: no start and goal found\n");
        return 1;
    }
    const unsigned seed = 7;
    int failures = 0;
    for (unsigned flags : {0u, (unsigned)SATBOX_PLAN_CONSERVATIVE}) {
        PlanRun ref;
        const char *ref_name = nullptr;
        for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++) {
            if (!(satbox_isa_supported() >> isa & 1u))
                continue;
            if (satbox_isa_force((satbox_isa)isa) != SATBOX_OK) {
                std::printf("FAIL: satbox_isa_force(%s)\n", satbox_isa_name((satbox_isa)isa));
                return 1;
            }
            PlanRun run = plan_once(scene, Checker::Satbox, Planner::RRTConnect, start, goal, seed, 20.0, flags);
            const char *name = satbox_isa_name((satbox_isa)isa);
            std::printf("%-12s %-7s: %s, %zu states on the path, %zu states and %zu motions checked, %.1f ms\n",
                        flags ? "conservative" : "default", name, run.solved ? "solved" : "NOT solved", run.path.size(),
                        run.states, run.motions, 1e3 * run.seconds);
            if (!run.solved) {
                std::printf("FAIL: %s did not solve the problem\n", name);
                failures++;
                continue;
            }
            if (!ref_name) {
                ref = run;
                ref_name = name;
            } else if (run.path != ref.path || run.states != ref.states || run.motions != ref.motions) {
                std::printf("FAIL: %s's plan differs from %s's (%zu vs %zu path states, %zu vs %zu checked states)\n", name,
                            ref_name, run.path.size(), ref.path.size(), run.states, ref.states);
                failures++;
            }
        }
    }
    PlanRun f = plan_once(scene, Checker::Fcl, Planner::RRTConnect, start, goal, seed, 20.0);
    std::printf("FCL (for comparison): %s, %zu states on the path, %zu states checked\n", f.solved ? "solved" : "NOT solved",
                f.path.size(), f.states);
    std::printf("%d failures\n", failures);
    return failures ? 1 : 0;
}

#else
int main(void) { return peer_missing("test_plan_ompl", "libfcl-dev and libompl-dev"); }
#endif

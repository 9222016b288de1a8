// test_plan_ompl.cpp - OMPL plans with fixed seeds on satbox's checkers are the same path on every satbox path.
// SPDX-License-Identifier: MIT
//
// The three scenes of tests/common/robot.h (M = 100), a start and goal each from a fixed seed
// (pick_problem), OMPL's RRTConnect and BKPIECE1 seeded by ompl::RNG::setSeed (seeds 1-3), satbox
// as the StateValidityChecker (one configuration a call) and the MotionValidator (the interpolated
// states), both with the double FK (satbox_configs, satbox_motion on the packed link poses) and with
// the lane FK (satbox_chain_configs, satbox_chain_motion on the joint values rounded to float):
// planned once per path this machine runs (satbox_isa_force), in the default and the conservative
// mode. Every path must give the same solution, state for state (bit for bit in double), after the
// same number of checked states and motions: the verdicts are the same on every path, and OMPL's
// random stream is the seed's. The first path's run is also replayed with a free checker
// (plan_free: its answers in call order), which must take the same steps: bench/planning.cpp
// measures the planner's own time that way. FCL's plan with the same seed is printed beside them
// (not compared: FCL may decide a state in the band the other way). Short runs (SATBOX_TEST_SCALE
// below 0.1): one scene, RRTConnect, one seed.
#include <cstdio>

#include "peer_missing.h"

#ifdef SATBOX_HAVE_PLAN
#include "plan_ompl.h"

extern "C" {
#include "scale.h"
}

using namespace plan;

namespace {

// Plans the problem on every path this machine runs; returns the failures.
int same_on_every_path(const Scene &scene, const double start[RB_DOF], const double goal[RB_DOF], Checker checker,
                       Planner planner, unsigned seed, unsigned flags)
{
    PlanRun ref;
    const char *ref_name = nullptr;
    int failures = 0;
    for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++) {
        if (!(satbox_isa_supported() >> isa & 1u))
            continue;
        const char *name = satbox_isa_name((satbox_isa)isa);
        if (satbox_isa_force((satbox_isa)isa) != SATBOX_OK) {
            std::printf("FAIL: satbox_isa_force(%s)\n", name);
            return 1;
        }
        PlanRun run = plan_once(scene, checker, planner, start, goal, seed, 30.0, flags);
        std::printf("%-9s %-10s seed %u %-18s %-12s %-7s: %s, %2zu states on the path, %5zu states and %4zu motions "
                    "checked\n",
                    rb_scene_name(scene.kind), planner_name(planner), seed, checker_name(checker),
                    flags ? "conservative" : "default", name, run.solved ? "solved" : "NOT solved", run.path.size(),
                    run.states, run.motions);
        if (!run.solved) {
            std::printf("FAIL: %s did not solve the problem\n", name);
            failures++;
        } else if (!ref_name) {
            ref = run;
            ref_name = name;
            if (!plan_free(checker, planner, start, goal, seed, 30.0, run).replay_same) {
                std::printf("FAIL: %s's run replayed with a free checker took other steps\n", name);
                failures++;
            }
        } else if (run.path != ref.path || run.states != ref.states || run.motions != ref.motions) {
            std::printf("FAIL: %s's plan differs from %s's (%zu vs %zu path states, %zu vs %zu checked states)\n", name,
                        ref_name, run.path.size(), ref.path.size(), run.states, ref.states);
            failures++;
        }
    }
    return failures;
}

} // namespace

int main()
{
    // Under valgrind, qemu and the sanitizers (tests/common/scale.h's short runs): one scene, one seed, RRTConnect.
    const bool short_run = test_short();
    int failures = 0;
    size_t problems = 0;
    for (int kind = 0; kind < (short_run ? 1 : (int)RB_SCENE_COUNT); kind++) {
        Scene scene = make_scene((rb_scene_kind)kind, 100);
        double start[RB_DOF], goal[RB_DOF];
        if (!pick_problem(scene, 11 + (uint64_t)kind, start, goal)) {
            std::printf("FAIL: %s: no start and goal found\n", rb_scene_name(scene.kind));
            return 1;
        }
        for (Planner planner : {Planner::RRTConnect, Planner::BKPIECE1}) {
            if (short_run && planner != Planner::RRTConnect)
                continue;
            for (Checker checker : {Checker::Satbox, Checker::SatboxChain})
                for (unsigned seed = 1; seed <= (short_run ? 1u : 3u); seed++)
                    for (unsigned flags : {0u, (unsigned)SATBOX_PLAN_CONSERVATIVE}) {
                        failures += same_on_every_path(scene, start, goal, checker, planner, seed, flags);
                        problems++;
                    }
            PlanRun f = plan_once(scene, Checker::Fcl, planner, start, goal, 1, 30.0);
            std::printf("%-9s %-10s seed 1 FCL (for comparison): %s, %zu states on the path\n", rb_scene_name(scene.kind),
                        planner_name(planner), f.solved ? "solved" : "NOT solved", f.path.size());
        }
    }
    std::printf("%zu plans compared across the paths, %d failures\n", problems, failures);
    return failures ? 1 : 0;
}

#else
int main(void) { return peer_missing("test_plan_ompl", "libfcl-dev and libompl-dev"); }
#endif

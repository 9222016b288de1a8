// planning.cpp - satbox_planning: bench/run's "planning" table (issue 36): configuration, motion and OMPL planning checks of satbox beside FCL.
// SPDX-License-Identifier: MIT
//
// Usage: satbox_planning [--quick] [--json-out FILE] [--min-time S] [--seeds N]
// The arm and the scenes are tests/common/robot.h's, the checkers tests/common/plan.h's (FCL as
// MoveIt sets it up: DynamicAABBTreeCollisionManager, boxes, early exit, after the double FK; satbox
// on given link poses, after the double FK, or with its lane FK) and the OMPL problems
// tests/common/plan_ompl.h's. One thread; every time is the thread's CPU time, every ratio of two
// measures of this one run. The checks' share of a planning run is the run's time less the time of
// the same run with a free checker (plan_free), not clocks read around each check: a read of the
// thread's CPU clock costs about 0.7 us here, more than satbox's check of a state.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "plan.h"
#include "plan_ompl.h"

extern "C" {
#include "support.h"
}

using namespace plan;

namespace {

// The thread's CPU time: on a shared machine the time spent waiting for a core is left out (as
// bench/engines.py does by default).
double now()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Items per second of body() (one pass over n items): the best of 5 repetitions of min_time / 5
// each, as bench/run's summary takes the best repetition (the machine's load only adds time).
template <class F> double rate(size_t n, double min_time, F body)
{
    body(); // warm-up
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        size_t passes = 0;
        double t0 = now(), t;
        do {
            body();
            passes++;
            t = now() - t0;
        } while (t < min_time / 5);
        best = std::max(best, (double)(passes * n) / t);
    }
    return best;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct CheckRow {
    std::string scene;
    size_t m = 0;
    double collide = 0;                                  // share of the configurations colliding (FCL)
    double fcl = 0, fcl_fk = 0;                          // FCL configurations per second, FK excluded / included
    double sb1 = 0, sb64 = 0, cons64 = 0;                // satbox, link poses given: K = 1, K = 64, conservative K = 64
    double sb64_dfk = 0;                                 // satbox K = 64 after the double FK and packing
    double lfk1 = 0, lfk64 = 0;                          // satbox's lane FK (satbox_chain_configs): K = 1, K = 64
    double mot_fcl = 0, mot_dfk = 0, mot_lfk = 0;        // motions per second through OMPL's validators
    size_t disagree = 0, ldisagree = 0, cons_missed = 0, cons_fp = 0, lcons_fp = 0, n = 0, nmot = 0;
};

struct PlanRow {
    std::string scene, planner;
    size_t m = 0, seeds = 0, solved_fcl = 0, solved_sb = 0, same_path = 0, replay_same = 0;
    // medians over the seeds, thread CPU seconds: planning with FCL (+ double FK), the same run
    // with a free checker, the double FK's part; planning with satbox's lane FK, and with a free checker
    double med_fcl = 0, med_fcl_free = 0, med_fk = 0, med_sb = 0, med_sb_free = 0;
    double share = 0, fk_share = 0, ceiling = 0, speedup = 0, sb_share = 0;
};

CheckRow check_row(const Scene &scene, size_t n, double min_time, size_t nmot)
{
    CheckRow row;
    row.scene = rb_scene_name(scene.kind);
    row.m = scene.m;
    row.n = n;
    tb_rng r;
    tb_seed(&r, 36);
    // The joint values are rounded to float, as the lane FK takes them: every checker gets the same
    // configurations (the double FK's from the float values, exactly).
    std::vector<double> qs((size_t)n * RB_DOF);
    std::vector<float> qf((size_t)n * RB_DOF);
    std::vector<rb_box> links((size_t)n * RB_LINKS);
    for (size_t i = 0; i < n; i++) {
        rb_random_q(&r, &qs[i * RB_DOF]);
        for (int j = 0; j < RB_DOF; j++) {
            qf[i * RB_DOF + j] = (float)qs[i * RB_DOF + j];
            qs[i * RB_DOF + j] = qf[i * RB_DOF + j];
        }
        rb_fk(&qs[i * RB_DOF], &links[i * RB_LINKS]);
    }
    FclChecker fcl(scene.boxes);
    SatboxChecker sb(scene.boxes, 0), cons(scene.boxes, SATBOX_PLAN_CONSERVATIVE);
    std::vector<uint8_t> vf(n), vs(n), vc(n), vl(n), vlc(n);
    for (size_t i = 0; i < n; i++)
        vf[i] = fcl.collides(&links[i * RB_LINKS]);
    const size_t K = 64;
    LinkLanes lanes(K);
    auto batch = [&](SatboxChecker &c, bool fk, std::vector<uint8_t> &out) {
        for (size_t i = 0; i < n; i += K) {
            size_t k = std::min(K, n - i);
            for (size_t j = 0; j < k; j++) {
                if (fk) {
                    rb_box l[RB_LINKS];
                    rb_fk(&qs[(i + j) * RB_DOF], l);
                    lanes.set(j, l);
                } else {
                    lanes.set(j, &links[(i + j) * RB_LINKS]);
                }
            }
            c.configs(lanes, k, &out[i]);
        }
    };
    auto lane_fk = [&](SatboxChecker &c, size_t kk, std::vector<uint8_t> &out) {
        for (size_t i = 0; i < n; i += kk)
            c.chain_configs(&qf[i * RB_DOF], std::min(kk, n - i), &out[i]);
    };
    volatile size_t sink = 0;
    row.fcl = rate(n, min_time, [&] {
        for (size_t i = 0; i < n; i++)
            sink += fcl.collides(&links[i * RB_LINKS]);
    });
    row.fcl_fk = rate(n, min_time, [&] {
        for (size_t i = 0; i < n; i++) {
            rb_box l[RB_LINKS];
            rb_fk(&qs[i * RB_DOF], l);
            sink += fcl.collides(l);
        }
    });
    row.sb1 = rate(n, min_time, [&] {
        for (size_t i = 0; i < n; i++)
            sink += sb.collides(&links[i * RB_LINKS]);
    });
    row.sb64 = rate(n, min_time, [&] { batch(sb, false, vs); });
    row.sb64_dfk = rate(n, min_time, [&] { batch(sb, true, vs); });
    row.cons64 = rate(n, min_time, [&] { batch(cons, false, vc); });
    row.lfk1 = rate(n, min_time, [&] {
        for (size_t i = 0; i < n; i++)
            sink += sb.chain_collides(&qf[i * RB_DOF]);
    });
    row.lfk64 = rate(n, min_time, [&] { lane_fk(sb, K, vl); });
    lane_fk(cons, K, vlc);
    for (size_t i = 0; i < n; i++) {
        row.collide += vf[i];
        row.disagree += (vs[i] != 0) != (vf[i] != 0);
        row.ldisagree += (vl[i] != 0) != (vf[i] != 0);
        row.cons_missed += (vf[i] && !vc[i]) + (vf[i] && !vlc[i]);
        row.cons_fp += !vf[i] && vc[i];
        row.lcons_fp += !vf[i] && vlc[i];
    }
    row.collide /= (double)n;
    // Motions through OMPL's validators (FK included: a validator interpolates joint vectors).
    std::vector<std::vector<double>> from, to;
    make_motions(scene, nmot, 7, from, to);
    std::vector<uint8_t> mf, md, ml;
    double tf = INFINITY, td = INFINITY, tl = INFINITY, spent = 0;
    do { // alternate the three, best pass of each
        double a = check_motions(scene, Checker::Fcl, from, to, mf), b = check_motions(scene, Checker::Satbox, from, to, md),
               c = check_motions(scene, Checker::SatboxChain, from, to, ml);
        tf = std::min(tf, a);
        td = std::min(td, b);
        tl = std::min(tl, c);
        spent += a + b + c;
    } while (spent < 3 * min_time);
    row.mot_fcl = (double)nmot / tf;
    row.mot_dfk = (double)nmot / td;
    row.mot_lfk = (double)nmot / tl;
    row.nmot = nmot;
    for (size_t i = 0; i < nmot; i++) {
        row.disagree += mf[i] != md[i];
        row.ldisagree += mf[i] != ml[i];
    }
    (void)sink;
    return row;
}

PlanRow plan_row(const Scene &scene, Planner planner, size_t seeds, double timeout)
{
    PlanRow row;
    row.scene = rb_scene_name(scene.kind);
    row.planner = planner_name(planner);
    row.m = scene.m;
    double start[RB_DOF], goal[RB_DOF];
    if (!pick_problem(scene, 11 + (uint64_t)scene.kind, start, goal))
        return row; // seeds 0: no problem
    row.seeds = seeds;
    std::vector<double> tf, tff, tfk, ts, tsf;
    for (size_t s = 0; s < seeds; s++) {
        unsigned seed = (unsigned)(1000 + s);
        // Each run, then the same run with a free checker (its log replayed): the planner's own time.
        PlanRun a = plan_once(scene, Checker::Fcl, planner, start, goal, seed, timeout);
        PlanRun af = plan_free(Checker::Fcl, planner, start, goal, seed, timeout, a);
        PlanRun b = plan_once(scene, Checker::SatboxChain, planner, start, goal, seed, timeout);
        PlanRun bf = plan_free(Checker::SatboxChain, planner, start, goal, seed, timeout, b);
        // An unsolved run counts with its time (the timeout), as a user would wait it. CPU time.
        tf.push_back(a.cpu_seconds);
        tff.push_back(af.cpu_seconds);
        tfk.push_back(a.fk_seconds);
        ts.push_back(b.cpu_seconds);
        tsf.push_back(bf.cpu_seconds);
        row.solved_fcl += a.solved;
        row.solved_sb += b.solved;
        row.same_path += a.solved && b.solved && a.path == b.path;
        row.replay_same += af.replay_same && bf.replay_same;
    }
    row.med_fcl = median(tf);
    row.med_fcl_free = median(tff);
    row.med_fk = median(tfk);
    row.med_sb = median(ts);
    row.med_sb_free = median(tsf);
    // All of the median run's planning time: the ceiling is the speed-up a free checker gives it.
    row.ceiling = row.med_fcl_free > 0 ? row.med_fcl / row.med_fcl_free : INFINITY;
    row.share = 1 - 1 / row.ceiling;
    row.fk_share = row.med_fk / row.med_fcl;
    row.speedup = row.med_sb > 0 ? row.med_fcl / row.med_sb : 0;
    row.sb_share = row.med_sb > 0 ? 1 - row.med_sb_free / row.med_sb : 0;
    return row;
}

void goal_line(const char *label, double value, double goal, const std::string &detail)
{
    if (std::isnan(value))
        std::printf("  %s: not measured (%s)\n", label, detail.c_str());
    else
        std::printf("  %s: %.2f (goal >= %g: %s; %s)\n", label, value, goal, value >= goal ? "met" : "missed",
                    detail.c_str());
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false;
    const char *json = nullptr;
    double min_time = -1;
    long seeds = -1;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--json-out") && i + 1 < argc)
            json = argv[++i];
        else if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc)
            min_time = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = std::atol(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--quick] [--json-out FILE] [--min-time S] [--seeds N]\n", argv[0]);
            return 2;
        }
    }
    if (min_time < 0)
        min_time = quick ? 0.1 : 0.3;
    if (seeds < 0)
        seeds = quick ? 5 : 15;
    const size_t n = quick ? 1024 : 4096, nmot = quick ? 200 : 500;
    const std::vector<size_t> sizes = {50, 100, 200};
    const std::vector<size_t> plan_sizes = quick ? std::vector<size_t>{100} : sizes;
    const double timeout = quick ? 5.0 : 10.0;
    const satbox_pair *self;
    size_t nself = rb_self_pairs(&self);

    std::printf("Planning (issue 36): a Panda-like arm of %d link boxes (%zu self pairs), obstacles M = 50, 100, 200; "
                "satbox path %s, one thread, thread CPU time throughout\n",
                RB_LINKS, nself, satbox_isa_name(satbox_isa_active()));
    std::printf("Configuration checks: %zu random configurations within the joint limits, the joint values rounded to "
                "float (every checker gets the same configurations), thousands per second. FCL+FK, dFK: the double "
                "FK (rb_fk) first, for satbox the link poses then packed in lanes; lFK: satbox's lane FK "
                "(satbox_chain_configs on the float joint vectors), K a call. Motions: %zu planner steps from free "
                "configurations through OMPL's validators (FCL: DiscreteMotionValidator over FCL + double FK; "
                "dFK: satbox_motion on the states' double FK; lFK: satbox_chain_motion), per second\n",
                n, nmot);
    std::printf("%-9s %4s %5s | %7s %7s | %7s %7s %7s | %7s %7s %7s | %5s %5s %5s %5s %5s | %7s %7s %7s %5s | %4s %4s %4s "
                "%5s %5s\n",
                "scene", "M", "coll%", "FCL", "FCL+FK", "sb K=1", "sb K64", "cons64", "dFK K64", "lFK K=1", "lFK K64",
                "xK=1", "xK64", "xdFK", "xlFK1", "xlFK", "mot FCL", "mot dFK", "mot lFK", "x mot", "diff", "ldif",
                "c.FN", "c.FP%", "lcFP%");
    std::vector<CheckRow> checks;
    for (int k = 0; k < RB_SCENE_COUNT; k++)
        for (size_t m : sizes) {
            Scene scene = make_scene((rb_scene_kind)k, m);
            CheckRow r = check_row(scene, n, min_time, nmot);
            checks.push_back(r);
            std::printf("%-9s %4zu %5.1f | %7.1f %7.1f | %7.1f %7.1f %7.1f | %7.1f %7.1f %7.1f | %5.1f %5.1f %5.1f %5.1f "
                        "%5.1f | %7.2f %7.2f %7.2f %5.1f | %4zu %4zu %4zu %5.2f %5.2f\n",
                        r.scene.c_str(), r.m, 100 * r.collide, r.fcl / 1e3, r.fcl_fk / 1e3, r.sb1 / 1e3, r.sb64 / 1e3,
                        r.cons64 / 1e3, r.sb64_dfk / 1e3, r.lfk1 / 1e3, r.lfk64 / 1e3, r.sb1 / r.fcl, r.sb64 / r.fcl,
                        r.sb64_dfk / r.fcl_fk, r.lfk1 / r.fcl_fk, r.lfk64 / r.fcl_fk, r.mot_fcl / 1e3, r.mot_dfk / 1e3,
                        r.mot_lfk / 1e3, r.mot_lfk / r.mot_fcl, r.disagree, r.ldisagree, r.cons_missed,
                        100.0 * (double)r.cons_fp / (double)r.n, 100.0 * (double)r.lcons_fp / (double)r.n);
            std::fflush(stdout);
        }
    std::printf("(xK=1, xK64: satbox over FCL, poses given; xdFK, xlFK1, xlFK: satbox with the double FK at K = 64, "
                "with the lane FK at K = 1 and 64, over FCL + double FK; x mot: lFK over FCL; diff, ldif: "
                "configurations and motions where satbox (default mode; poses given and dFK motions, lane FK) and FCL "
                "disagree; c.FN: FCL collides, a conservative mode (poses given or lane FK) says free (must be 0); "
                "c.FP%%, lcFP%%: conservative collides, FCL free)\n\n");

    std::printf("OMPL planning (1.5, RRTConnect and BKPIECE1 with their defaults), %ld seeds, timeout %.0f s; FCL + double "
                "FK against satbox's lane FK (validity and motion checks). Each run is planned again with a free checker "
                "(its answers replayed in call order: the same steps): that is the planner's own time, the run's time "
                "less it the checks' time; no clock read inside a run. Medians over the seeds, thread CPU time:\n",
                seeds, timeout);
    std::printf("%-9s %4s %-10s %6s | %8s %8s | %8s %8s | %6s %6s %7s | %6s %6s | %6s %6s | %5s %6s\n", "scene", "M",
                "planner", "solved", "FCL ms", "free ms", "sb ms", "free ms", "share", "FK", "ceiling", "x plan", "%ceil",
                "sb chk", "own x", "same", "replay");
    std::vector<PlanRow> plans;
    for (int k = 0; k < RB_SCENE_COUNT; k++)
        for (size_t m : plan_sizes) {
            Scene scene = make_scene((rb_scene_kind)k, m);
            for (Planner p : {Planner::RRTConnect, Planner::BKPIECE1}) {
                PlanRow r = plan_row(scene, p, (size_t)seeds, timeout);
                if (r.seeds == 0) {
                    std::printf("%-9s %4zu %-10s no start and goal found (pick_problem)\n", r.scene.c_str(), r.m,
                                r.planner.c_str());
                    continue;
                }
                plans.push_back(r);
                std::printf("%-9s %4zu %-10s %2zu/%-2zu | %8.3f %8.3f | %8.3f %8.3f | %5.1f%% %5.1f%% %7.2f | "
                            "%6.2f %5.0f%% | %5.1f%% %6.2f | %2zu/%-2zu %2zu/%zu\n",
                            r.scene.c_str(), r.m, r.planner.c_str(), r.solved_sb, r.solved_fcl, 1e3 * r.med_fcl,
                            1e3 * r.med_fcl_free, 1e3 * r.med_sb, 1e3 * r.med_sb_free, 100 * r.share,
                            100 * r.fk_share, r.ceiling, r.speedup, 100 * r.speedup / r.ceiling, 100 * r.sb_share,
                            r.med_sb_free / r.med_fcl_free, r.same_path, r.seeds, r.replay_same, r.seeds);
                std::fflush(stdout);
            }
        }
    std::printf("(solved: satbox / FCL runs solved; FCL ms: planning time with FCL, free ms: the same runs with a free "
                "checker; sb ms, free ms: the same for satbox's lane FK; share: FCL's checks (FK included) in its "
                "planning time, 1 - free/FCL; FK: the double FK's part of FCL's planning time (rb_fk on every %zuth "
                "state checked, timed after the run); ceiling: FCL ms / free ms = 1 / (1 - share), what a free "
                "checker gives; x plan: FCL ms / sb ms; %%ceil: x plan / ceiling = FCL's free ms / sb ms = (1 - sb chk) / own x; what bounds "
                "it: sb chk, satbox's checks in its planning time (1 - free/sb), and own x, the planner's own time in "
                "satbox's runs over FCL's (its free ms / FCL's: the runs differ where the verdicts do, and FCL's own "
                "time holds OMPL's DiscreteMotionValidator's interpolation, satbox's motion validator is all check); same: runs with "
                "the same path for both checkers; replay: runs whose replays took the same steps, both checkers)\n\n",
                FK_SAMPLE);

    // ---- goals ----
    std::printf("Goals (issue 36), ratios of this run:\n");
    auto worst = [&](double CheckRow::*num, double CheckRow::*den, size_t m, std::string &detail) {
        double w = INFINITY;
        for (const CheckRow &r : checks)
            if (r.m == m || m == 0) {
                double x = r.*num / r.*den;
                if (x < w) {
                    w = x;
                    char b[128];
                    std::snprintf(b, sizeof b, "worst: %s M=%zu, %.0f vs %.0f per s", r.scene.c_str(), r.m, r.*num,
                                  r.*den);
                    detail = b;
                }
            }
        return checks.empty() ? NAN : w;
    };
    std::string d;
    double g = worst(&CheckRow::sb64, &CheckRow::fcl, 200, d);
    goal_line("configuration checks K=64, FK excluded, x FCL at M=200", g, 30, d);
    g = worst(&CheckRow::sb1, &CheckRow::fcl, 200, d);
    goal_line("one configuration a call, x FCL at M=200", g, 10, d);
    g = worst(&CheckRow::lfk64, &CheckRow::fcl_fk, 200, d);
    goal_line("K=64 with FK x FCL + double FK at M=200 (satbox's lane FK)", g, 20, d);
    g = worst(&CheckRow::lfk1, &CheckRow::fcl_fk, 200, d);
    std::printf("    for comparison: K=1 with the lane FK %.2f (%s); ", g, d.c_str());
    g = worst(&CheckRow::sb64_dfk, &CheckRow::fcl_fk, 200, d);
    std::printf("K=64 with the double FK and packing %.2f (%s)\n", g, d.c_str());
    g = worst(&CheckRow::mot_lfk, &CheckRow::mot_fcl, 0, d);
    goal_line("motion checks (lane FK) x FCL's DiscreteMotionValidator", g, 20, d);
    double pw = INFINITY;
    std::string pd = "no run";
    for (const PlanRow &r : plans)
        if (r.ceiling > 0 && r.speedup / r.ceiling < pw) {
            pw = r.speedup / r.ceiling;
            char b[320];
            std::snprintf(b, sizeof b,
                          "worst: %s M=%zu %s, %.2fx of a %.2fx ceiling; bounded by satbox's checks, %.0f%% of its "
                          "planning time, and the planner's own time, %.2fx FCL runs'",
                          r.scene.c_str(), r.m, r.planner.c_str(), r.speedup, r.ceiling, 100 * r.sb_share,
                          r.med_sb_free / r.med_fcl_free);
            pd = b;
        }
    goal_line("OMPL planning time, median over seeds, share of the ceiling", plans.empty() ? NAN : pw, 0.8, pd);
    size_t missed = 0;
    for (const CheckRow &r : checks)
        missed += r.cons_missed;
    std::printf("  conservative mode (poses given and lane FK), configurations FCL calls colliding and it calls free: %zu "
                "(goal 0: %s)\n",
                missed, missed == 0 ? "met" : "missed");

    if (json) {
        FILE *f = std::fopen(json, "w");
        if (!f) {
            std::perror(json);
            return 1;
        }
        std::fprintf(f, "{\"isa\": \"%s\", \"checks\": [", satbox_isa_name(satbox_isa_active()));
        for (size_t i = 0; i < checks.size(); i++) {
            const CheckRow &r = checks[i];
            std::fprintf(f,
                         "%s\n {\"scene\": \"%s\", \"m\": %zu, \"collide\": %.4f, \"fcl\": %.1f, \"fcl_fk\": %.1f, "
                         "\"satbox_k1\": %.1f, \"satbox_k64\": %.1f, \"satbox_k64_double_fk\": %.1f, "
                         "\"satbox_lane_fk_k1\": %.1f, \"satbox_lane_fk_k64\": %.1f, \"conservative_k64\": %.1f, "
                         "\"motions_fcl\": %.1f, \"motions_satbox_double_fk\": %.1f, \"motions_satbox_lane_fk\": %.1f, "
                         "\"disagree\": %zu, \"lane_fk_disagree\": %zu, \"conservative_missed\": %zu, "
                         "\"conservative_fp\": %zu, \"lane_fk_conservative_fp\": %zu, \"n\": %zu, \"nmot\": %zu}",
                         i ? "," : "", r.scene.c_str(), r.m, r.collide, r.fcl, r.fcl_fk, r.sb1, r.sb64, r.sb64_dfk,
                         r.lfk1, r.lfk64, r.cons64, r.mot_fcl, r.mot_dfk, r.mot_lfk, r.disagree, r.ldisagree,
                         r.cons_missed, r.cons_fp, r.lcons_fp, r.n, r.nmot);
        }
        std::fprintf(f, "],\n \"plans\": [");
        for (size_t i = 0; i < plans.size(); i++) {
            const PlanRow &r = plans[i];
            std::fprintf(f,
                         "%s\n {\"scene\": \"%s\", \"m\": %zu, \"planner\": \"%s\", \"seeds\": %zu, \"solved_fcl\": %zu, "
                         "\"solved_satbox\": %zu, \"median_fcl_s\": %.6f, \"median_fcl_free_s\": %.6f, "
                         "\"median_fk_s\": %.6f, \"median_satbox_s\": %.6f, \"median_satbox_free_s\": %.6f, "
                         "\"share\": %.4f, \"fk_share\": %.4f, \"ceiling\": %.3f, \"speedup\": %.3f, "
                         "\"satbox_share\": %.4f, \"same_path\": %zu, \"replay_same\": %zu}",
                         i ? "," : "", r.scene.c_str(), r.m, r.planner.c_str(), r.seeds, r.solved_fcl, r.solved_sb,
                         r.med_fcl, r.med_fcl_free, r.med_fk, r.med_sb, r.med_sb_free, r.share, r.fk_share, r.ceiling,
                         r.speedup, r.sb_share, r.same_path, r.replay_same);
        }
        std::fprintf(f, "]}\n");
        std::fclose(f);
    }
    return 0;
}

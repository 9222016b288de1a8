// plan_ompl.cpp - plan_ompl.h: OMPL 1.5 state space, validity checkers and motion validators for FCL and satbox (double or lane FK), seeded planning runs and their replays with a free checker.
// SPDX-License-Identifier: MIT
#include "plan_ompl.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>

#include <ompl/base/DiscreteMotionValidator.h>
#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/planners/kpiece/BKPIECE1.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

extern "C" {
#include "support.h"
}

namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace plan {

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double thread_cpu()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

const double *values(const ob::State *s) { return s->as<ob::RealVectorStateSpace::StateType>()->values; }

// A state's joint values rounded to float: what satbox's lane FK takes.
void to_float(const ob::State *s, float q[RB_DOF])
{
    const double *v = values(s);
    for (int j = 0; j < RB_DOF; j++)
        q[j] = (float)v[j];
}

struct Counts {
    size_t states = 0;
};

// FK in double, then FCL. Every answer goes to the log (none when `log` is null), every
// FK_SAMPLE-th state too, for the FK's time after the run.
class FclValidity : public ob::StateValidityChecker {
  public:
    FclValidity(const ob::SpaceInformationPtr &si, FclChecker &c, Counts &n, CheckLog *log)
        : ob::StateValidityChecker(si), c_(c), n_(n), log_(log)
    {
    }
    bool isValid(const ob::State *s) const override
    {
        rb_box links[RB_LINKS];
        rb_fk(values(s), links);
        bool ok = !c_.collides(links);
        if (log_) {
            if (n_.states % FK_SAMPLE == 0)
                log_->fk_sample.insert(log_->fk_sample.end(), values(s), values(s) + RB_DOF);
            log_->valid.push_back(ok);
        }
        n_.states++;
        return ok;
    }

  private:
    FclChecker &c_;
    Counts &n_;
    CheckLog *log_;
};

// satbox one configuration a call: FK in double and the link poses packed, or (chain) the lane FK
// on the joint values rounded to float.
class SatboxValidity : public ob::StateValidityChecker {
  public:
    SatboxValidity(const ob::SpaceInformationPtr &si, SatboxChecker &c, bool chain, Counts &n, CheckLog *log)
        : ob::StateValidityChecker(si), c_(c), chain_(chain), n_(n), log_(log)
    {
    }
    bool isValid(const ob::State *s) const override
    {
        bool hit;
        if (chain_) {
            float q[RB_DOF];
            to_float(s, q);
            hit = c_.chain_collides(q);
        } else {
            rb_box links[RB_LINKS];
            rb_fk(values(s), links);
            hit = c_.collides(links);
        }
        if (log_)
            log_->valid.push_back(!hit);
        n_.states++;
        return !hit;
    }

  private:
    SatboxChecker &c_;
    bool chain_;
    Counts &n_;
    CheckLog *log_;
};

// The states j / nd (j = 1..nd) of the motion, the ones OMPL's DiscreteMotionValidator checks (it
// assumes s1 valid; nd = validSegmentCount, OMPL's resolution), then satbox's motion query.
// checkMotion(s1, s2) wants a yes or no: it stops at the first colliding state found
// (SATBOX_PLAN_ANY); checkMotion(s1, s2, lastValid) wants the first colliding state.
//  - chain: satbox_chain_motion() from s1 to s2 in nd states (state i at t = (i + 1) / nd, the
//    joint values rounded to float and interpolated in float), the lane FK inside, coarse to fine;
//  - else the states interpolated in double (RealVectorStateSpace::interpolate's formula), FK in
//    double, packed in lanes, satbox_motion(). checkMotion(s1, s2) first checks 4 states spread over
//    the motion (j = nd/4, nd/2, 3nd/4, nd) and computes the FK of the others only when those are
//    free: the FK in double costs more than satbox's check of a state, and most colliding motions
//    have a colliding state among those 4 (the DiscreteMotionValidator's early exit, by bisection,
//    saves FCL's checks the same way).
// The verdict is the one of all nd states.
class SatboxMotion : public ob::MotionValidator {
  public:
    SatboxMotion(const ob::SpaceInformationPtr &si, SatboxChecker &c, bool chain, Counts &n, CheckLog *log)
        : ob::MotionValidator(si), c_(c), chain_(chain), n_(n), log_(log)
    {
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2) const override
    {
        size_t nd = count(s1, s2);
        bool ok;
        if (chain_) {
            float q0[RB_DOF], q1[RB_DOF];
            to_float(s1, q0);
            to_float(s2, q1);
            ok = c_.chain_motion(q0, q1, nd, SATBOX_PLAN_ANY) == (ptrdiff_t)nd;
            n_.states += nd;
        } else if (nd <= 4) {
            js_.clear();
            for (size_t j = 1; j <= nd; j++)
                js_.push_back(j);
            ok = check_js(s1, s2, nd);
        } else {
            js_.clear();
            probe_.assign(nd + 1, 0);
            for (size_t i = 1; i <= 4; i++) {
                js_.push_back(nd * i / 4);
                probe_[nd * i / 4] = 1;
            }
            ok = check_js(s1, s2, nd);
            if (ok) {
                js_.clear();
                for (size_t j = 1; j <= nd; j++)
                    if (!probe_[j])
                        js_.push_back(j);
                ok = check_js(s1, s2, nd);
            }
        }
        if (log_)
            log_->motion_valid.push_back(ok);
        (ok ? valid_ : invalid_)++;
        return ok;
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2, std::pair<ob::State *, double> &lastValid) const override
    {
        size_t nd = count(s1, s2);
        ptrdiff_t first; // the first state not free, in motion order
        if (chain_) {
            float q0[RB_DOF], q1[RB_DOF];
            to_float(s1, q0);
            to_float(s2, q1);
            first = c_.chain_motion(q0, q1, nd, 0);
            n_.states += nd;
        } else {
            js_.clear();
            for (size_t j = 1; j <= nd; j++)
                js_.push_back(j);
            fill(s1, s2, nd);
            first = c_.motion(lanes_, nd, 0);
        }
        bool ok = first == (ptrdiff_t)nd;
        if (log_)
            log_->motion_valid.push_back(ok);
        if (ok) {
            valid_++;
            return true;
        }
        // The last valid state is the one before: j / nd with j = first (s1 itself when first == 0).
        lastValid.second = first < 0 ? 0.0 : (double)first / (double)nd;
        if (log_)
            log_->last_valid.push_back(lastValid.second);
        if (lastValid.first)
            si_->getStateSpace()->interpolate(s1, s2, lastValid.second, lastValid.first);
        invalid_++;
        return false;
    }

  private:
    size_t count(const ob::State *s1, const ob::State *s2) const
    {
        size_t nd = si_->getStateSpace()->validSegmentCount(s1, s2);
        return nd ? nd : 1;
    }
    // The states js_ of nd: free (satbox_motion with SATBOX_PLAN_ANY)?
    bool check_js(const ob::State *s1, const ob::State *s2, size_t nd) const
    {
        fill(s1, s2, nd);
        return c_.motion(lanes_, js_.size(), SATBOX_PLAN_ANY) == (ptrdiff_t)js_.size();
    }
    // FK of the states js_ (of nd) into lanes 0, 1, ...
    void fill(const ob::State *s1, const ob::State *s2, size_t nd) const
    {
        if (lanes_.size() < js_.size())
            lanes_.resize(js_.size());
        const double *a = values(s1), *b = values(s2);
        for (size_t i = 0; i < js_.size(); i++) {
            double t = (double)js_[i] / (double)nd, q[RB_DOF];
            for (int d = 0; d < RB_DOF; d++)
                q[d] = a[d] + (b[d] - a[d]) * t;
            rb_box links[RB_LINKS];
            rb_fk(q, links);
            lanes_.set(i, links);
        }
        n_.states += js_.size();
    }
    SatboxChecker &c_;
    bool chain_;
    Counts &n_;
    CheckLog *log_;
    mutable LinkLanes lanes_;
    mutable std::vector<size_t> js_;
    mutable std::vector<char> probe_;
};

// A free checker for plan_free(): the answers of a log, in call order. Past its end (the replay
// went another way) every answer is "invalid" and `over` is set, which ends the replay's planning.
struct Replay {
    const CheckLog &log;
    size_t valid = 0, motion = 0, last = 0;
    bool over = false;
    bool next(const std::vector<uint8_t> &v, size_t &i)
    {
        if (i < v.size())
            return v[i++] != 0;
        over = true;
        return false;
    }
    bool consumed() const
    {
        return !over && valid == log.valid.size() && motion == log.motion_valid.size() && last == log.last_valid.size();
    }
};

class ReplayValidity : public ob::StateValidityChecker {
  public:
    ReplayValidity(const ob::SpaceInformationPtr &si, Replay &r, Counts &n) : ob::StateValidityChecker(si), r_(r), n_(n) {}
    bool isValid(const ob::State *) const override
    {
        n_.states++;
        return r_.next(r_.log.valid, r_.valid);
    }

  private:
    Replay &r_;
    Counts &n_;
};

class ReplayMotion : public ob::MotionValidator {
  public:
    ReplayMotion(const ob::SpaceInformationPtr &si, Replay &r) : ob::MotionValidator(si), r_(r) {}
    bool checkMotion(const ob::State *, const ob::State *) const override
    {
        bool ok = r_.next(r_.log.motion_valid, r_.motion);
        (ok ? valid_ : invalid_)++;
        return ok;
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2, std::pair<ob::State *, double> &lastValid) const override
    {
        if (checkMotion(s1, s2))
            return true;
        lastValid.second = r_.last < r_.log.last_valid.size() ? r_.log.last_valid[r_.last++] : (r_.over = true, 0.0);
        if (lastValid.first)
            si_->getStateSpace()->interpolate(s1, s2, lastValid.second, lastValid.first);
        return false;
    }

  private:
    Replay &r_;
};

// The space, the checkers and the validators of one checker kind; with `replay`, the free checker
// that answers from its log instead (no scene needed).
struct Setup {
    std::shared_ptr<ob::RealVectorStateSpace> space;
    ob::SpaceInformationPtr si;
    Counts counts;
    std::unique_ptr<FclChecker> fcl;
    std::unique_ptr<SatboxChecker> sbx;

    Setup(const Scene *scene, Checker checker, unsigned flags, CheckLog *log, Replay *replay = nullptr)
    {
        ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
        space = std::make_shared<ob::RealVectorStateSpace>(RB_DOF);
        ob::RealVectorBounds bounds(RB_DOF);
        for (int i = 0; i < RB_DOF; i++) {
            bounds.setLow(i, RB_Q_LO[i]);
            bounds.setHigh(i, RB_Q_HI[i]);
        }
        space->setBounds(bounds);
        si = std::make_shared<ob::SpaceInformation>(space);
        if (replay) {
            si->setStateValidityChecker(std::make_shared<ReplayValidity>(si, *replay, counts));
            if (checker == Checker::Fcl)
                si->setMotionValidator(std::make_shared<ob::DiscreteMotionValidator>(si));
            else
                si->setMotionValidator(std::make_shared<ReplayMotion>(si, *replay));
        } else if (checker == Checker::Fcl) {
            fcl.reset(new FclChecker(scene->boxes));
            si->setStateValidityChecker(std::make_shared<FclValidity>(si, *fcl, counts, log));
            si->setMotionValidator(std::make_shared<ob::DiscreteMotionValidator>(si));
        } else {
            bool chain = checker == Checker::SatboxChain;
            sbx.reset(new SatboxChecker(scene->boxes, flags));
            si->setStateValidityChecker(std::make_shared<SatboxValidity>(si, *sbx, chain, counts, log));
            si->setMotionValidator(std::make_shared<SatboxMotion>(si, *sbx, chain, counts, log));
        }
        si->setup();
    }
};

// Plans start -> goal on the set-up space with OMPL's seed; `stop`, if given, ends the planning
// early too. Fills run's outcome and times.
void solve(Setup &s, Planner planner, const double start[RB_DOF], const double goal[RB_DOF], double timeout,
           const std::function<bool()> &stop, PlanRun &run)
{
    ob::ScopedState<> a(s.space), b(s.space);
    for (int i = 0; i < RB_DOF; i++) {
        a[i] = start[i];
        b[i] = goal[i];
    }
    auto pdef = std::make_shared<ob::ProblemDefinition>(s.si);
    pdef->setStartAndGoalStates(a, b);
    ob::PlannerPtr p;
    if (planner == Planner::RRTConnect)
        p = std::make_shared<og::RRTConnect>(s.si);
    else
        p = std::make_shared<og::BKPIECE1>(s.si);
    p->setProblemDefinition(pdef);
    p->setup();
    ob::PlannerTerminationCondition ptc = ob::timedPlannerTerminationCondition(timeout);
    if (stop)
        ptc = ob::plannerOrTerminationCondition(ptc, ob::PlannerTerminationCondition(stop));
    double t0 = now(), c0 = thread_cpu();
    ob::PlannerStatus st = p->solve(ptc);
    run.seconds = now() - t0;
    run.cpu_seconds = thread_cpu() - c0;
    run.solved = st == ob::PlannerStatus::EXACT_SOLUTION;
    run.states = s.counts.states;
    run.motions = s.si->getMotionValidator()->getCheckedMotionCount();
    if (run.solved) {
        auto *path = pdef->getSolutionPath()->as<og::PathGeometric>();
        for (ob::State *q : path->getStates())
            run.path.emplace_back(values(q), values(q) + RB_DOF);
    }
}

} // namespace

const char *planner_name(Planner p) { return p == Planner::RRTConnect ? "RRTConnect" : "BKPIECE1"; }

const char *checker_name(Checker c)
{
    return c == Checker::Fcl ? "FCL" : c == Checker::Satbox ? "satbox (double FK)" : "satbox (lane FK)";
}

bool pick_problem(const Scene &scene, uint64_t seed, double start[RB_DOF], double goal[RB_DOF])
{
    FclChecker fcl(scene.boxes);
    SatboxChecker sbx(scene.boxes, SATBOX_PLAN_CONSERVATIVE);
    tb_rng r;
    tb_seed(&r, seed);
    bool have[2] = {false, false};
    for (int i = 0; i < 200000 && !(have[0] && have[1]); i++) {
        double q[RB_DOF];
        rb_box links[RB_LINKS];
        rb_random_q(&r, q);
        rb_fk(q, links);
        int region = rb_scene_region(scene.kind, links[RB_LINKS - 1].center);
        float qf[RB_DOF];
        for (int j = 0; j < RB_DOF; j++)
            qf[j] = (float)q[j];
        if (!region || have[region - 1] || fcl.collides(links) || sbx.collides(links) || sbx.chain_collides(qf))
            continue;
        std::copy(q, q + RB_DOF, region == 1 ? start : goal);
        have[region - 1] = true;
    }
    return have[0] && have[1];
}

PlanRun plan_once(const Scene &scene, Checker checker, Planner planner, const double start[RB_DOF],
                  const double goal[RB_DOF], unsigned seed, double timeout, unsigned satbox_flags)
{
    ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
    // Reseeds OMPL's seed generator: every RNG made from here on (the planner's, the samplers') follows the seed.
    ompl::RNG::setSeed(seed);
    PlanRun run;
    Setup s(&scene, checker, satbox_flags, &run.log);
    solve(s, planner, start, goal, timeout, nullptr, run);
    // The double FK's time: rb_fk() on the sampled states in one stretch (one pair of clock reads),
    // scaled to every state checked.
    const std::vector<double> &fs = run.log.fk_sample;
    size_t ns = fs.size() / RB_DOF;
    if (ns) {
        volatile double sink = 0;
        double c0 = thread_cpu();
        for (size_t i = 0; i < ns; i++) {
            rb_box links[RB_LINKS];
            rb_fk(&fs[i * RB_DOF], links);
            sink = sink + links[RB_LINKS - 1].center[0];
        }
        run.fk_seconds = (thread_cpu() - c0) * (double)run.log.valid.size() / (double)ns;
    }
    return run;
}

PlanRun plan_free(Checker checker, Planner planner, const double start[RB_DOF], const double goal[RB_DOF],
                  unsigned seed, double timeout, const PlanRun &recorded)
{
    ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
    ompl::RNG::setSeed(seed);
    Replay replay{recorded.log};
    PlanRun run;
    Setup s(nullptr, checker, 0, nullptr, &replay);
    solve(s, planner, start, goal, timeout, [&replay] { return replay.over; }, run);
    run.replay_same = replay.consumed() && run.solved == recorded.solved && run.path == recorded.path;
    return run;
}

void make_motions(const Scene &scene, size_t n, uint64_t seed, std::vector<std::vector<double>> &from,
                  std::vector<std::vector<double>> &to)
{
    FclChecker fcl(scene.boxes);
    tb_rng r;
    tb_seed(&r, seed);
    // RRTConnect's default range: 0.2 of the space's extent (the diagonal of the joint box).
    double ext2 = 0;
    for (int i = 0; i < RB_DOF; i++)
        ext2 += (RB_Q_HI[i] - RB_Q_LO[i]) * (RB_Q_HI[i] - RB_Q_LO[i]);
    double range = 0.2 * std::sqrt(ext2);
    from.clear();
    to.clear();
    while (from.size() < n) {
        double q[RB_DOF], d[RB_DOF], len = 0;
        rb_box links[RB_LINKS];
        rb_random_q(&r, q);
        rb_fk(q, links);
        for (int i = 0; i < RB_DOF; i++) {
            d[i] = tb_normal(&r);
            len += d[i] * d[i];
        }
        if (fcl.collides(links) || len == 0)
            continue;
        std::vector<double> q2(RB_DOF);
        for (int i = 0; i < RB_DOF; i++)
            q2[i] = std::min(RB_Q_HI[i], std::max(RB_Q_LO[i], q[i] + d[i] / std::sqrt(len) * range));
        from.emplace_back(q, q + RB_DOF);
        to.push_back(q2);
    }
}

double check_motions(const Scene &scene, Checker checker, const std::vector<std::vector<double>> &from,
                     const std::vector<std::vector<double>> &to, std::vector<uint8_t> &valid, unsigned satbox_flags)
{
    Setup s(&scene, checker, satbox_flags, nullptr);
    ob::ScopedState<> a(s.space), b(s.space);
    valid.assign(from.size(), 0);
    double t0 = thread_cpu();
    for (size_t i = 0; i < from.size(); i++) {
        for (int j = 0; j < RB_DOF; j++) {
            a[j] = from[i][j];
            b[j] = to[i][j];
        }
        valid[i] = s.si->checkMotion(a.get(), b.get());
    }
    return thread_cpu() - t0;
}

} // namespace plan

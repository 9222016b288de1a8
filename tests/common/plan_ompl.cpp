// plan_ompl.cpp - plan_ompl.h: OMPL 1.5 state space, validity checkers and motion validators for FCL and satbox, seeded planning runs.
// SPDX-License-Identifier: MIT
#include "plan_ompl.h"

#include <chrono>
#include <cmath>
#include <ctime>

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

struct Timers {
    double check = 0, fk = 0;
    size_t states = 0, motions = 0;
};

// FK in double, then FCL; the time of each part is added up (about 40 ns of clock reads a state).
class FclValidity : public ob::StateValidityChecker {
  public:
    FclValidity(const ob::SpaceInformationPtr &si, FclChecker &c, Timers &t) : ob::StateValidityChecker(si), c_(c), t_(t) {}
    bool isValid(const ob::State *s) const override
    {
        rb_box links[RB_LINKS];
        double t0 = now();
        rb_fk(values(s), links);
        double t1 = now();
        bool hit = c_.collides(links);
        double t2 = now();
        t_.fk += t1 - t0;
        t_.check += t2 - t1;
        t_.states++;
        return !hit;
    }

  private:
    FclChecker &c_;
    Timers &t_;
};

// FK in double, then satbox one configuration a call (untimed: the planning time is the measure).
class SatboxValidity : public ob::StateValidityChecker {
  public:
    SatboxValidity(const ob::SpaceInformationPtr &si, SatboxChecker &c, Timers &t) : ob::StateValidityChecker(si), c_(c), t_(t) {}
    bool isValid(const ob::State *s) const override
    {
        rb_box links[RB_LINKS];
        rb_fk(values(s), links);
        t_.states++;
        return !c_.collides(links);
    }

  private:
    SatboxChecker &c_;
    Timers &t_;
};

// The states j / nd (j = 1..nd) of the motion, the ones OMPL's DiscreteMotionValidator checks
// (it assumes s1 valid), interpolated by the same formula as RealVectorStateSpace::interpolate,
// FK in double, packed in lanes, then satbox_motion(). checkMotion(s1, s2) first checks 4 states
// spread over the motion (j = nd/4, nd/2, 3nd/4, nd) and computes the FK of the others only when
// those are free: the FK in double costs more than satbox's check of a state, and most colliding
// motions have a colliding state among those 4 (the DiscreteMotionValidator's early exit, by
// bisection, saves FCL's checks the same way). The verdict is the one of all nd states.
class SatboxMotion : public ob::MotionValidator {
  public:
    SatboxMotion(const ob::SpaceInformationPtr &si, SatboxChecker &c, Timers &t) : ob::MotionValidator(si), c_(c), t_(t) {}
    bool checkMotion(const ob::State *s1, const ob::State *s2) const override
    {
        size_t nd = count(s1, s2);
        bool ok;
        if (nd <= 4) {
            ok = check(s1, s2, nd, 1, nd);
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
        t_.motions++;
        (ok ? valid_ : invalid_)++;
        return ok;
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2, std::pair<ob::State *, double> &lastValid) const override
    {
        size_t nd = count(s1, s2);
        js_.clear();
        for (size_t j = 1; j <= nd; j++)
            js_.push_back(j);
        fill(s1, s2, nd);
        t_.motions++;
        ptrdiff_t first = c_.motion(lanes_, nd, 0); // the first state not free, in motion order
        if (first == (ptrdiff_t)nd) {
            valid_++;
            return true;
        }
        // The last valid state is the one before: j / nd with j = first (s1 itself when first == 0).
        lastValid.second = first < 0 ? 0.0 : (double)first / (double)nd;
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
    // The states j = from..to (step 1) of nd: free?
    bool check(const ob::State *s1, const ob::State *s2, size_t nd, size_t from, size_t to) const
    {
        js_.clear();
        for (size_t j = from; j <= to; j++)
            js_.push_back(j);
        return check_js(s1, s2, nd);
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
        t_.states += js_.size();
    }
    SatboxChecker &c_;
    Timers &t_;
    mutable LinkLanes lanes_;
    mutable std::vector<size_t> js_;
    mutable std::vector<char> probe_;
};

// The space, the checkers and the validators of one checker kind.
struct Setup {
    std::shared_ptr<ob::RealVectorStateSpace> space;
    ob::SpaceInformationPtr si;
    Timers timers;
    std::unique_ptr<FclChecker> fcl;
    std::unique_ptr<SatboxChecker> sbx;

    Setup(const Scene &scene, Checker checker, unsigned flags)
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
        if (checker == Checker::Fcl) {
            fcl.reset(new FclChecker(scene.boxes));
            si->setStateValidityChecker(std::make_shared<FclValidity>(si, *fcl, timers));
            si->setMotionValidator(std::make_shared<ob::DiscreteMotionValidator>(si));
        } else {
            sbx.reset(new SatboxChecker(scene.boxes, flags));
            si->setStateValidityChecker(std::make_shared<SatboxValidity>(si, *sbx, timers));
            si->setMotionValidator(std::make_shared<SatboxMotion>(si, *sbx, timers));
        }
        si->setup();
    }
};

} // namespace

const char *planner_name(Planner p) { return p == Planner::RRTConnect ? "RRTConnect" : "BKPIECE1"; }

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
        if (!region || have[region - 1] || fcl.collides(links) || sbx.collides(links))
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
    Setup s(scene, checker, satbox_flags);
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
    PlanRun run;
    double t0 = now(), c0 = thread_cpu();
    ob::PlannerStatus st = p->solve(ob::timedPlannerTerminationCondition(timeout));
    run.seconds = now() - t0;
    run.cpu_seconds = thread_cpu() - c0;
    run.solved = st == ob::PlannerStatus::EXACT_SOLUTION;
    run.check_seconds = s.timers.check;
    run.fk_seconds = s.timers.fk;
    run.states = s.timers.states;
    run.motions = s.si->getMotionValidator()->getCheckedMotionCount();
    if (run.solved) {
        auto *path = pdef->getSolutionPath()->as<og::PathGeometric>();
        for (ob::State *q : path->getStates())
            run.path.emplace_back(values(q), values(q) + RB_DOF);
    }
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
    Setup s(scene, checker, satbox_flags);
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

// test_plan_fcl.cpp - satbox's planner queries against FCL on the arm and scenes of tests/common/robot.h: the same verdict outside the certified band.
// SPDX-License-Identifier: MIT
//
// For each scene (bookshelf, table, cage; M = 50 and 200) and every checked state (random
// configurations within the joint limits, and states on the free/colliding border found by
// bisecting on FCL's verdict between a free and a colliding configuration, which is where
// rounding decides):
//  - satbox (default mode, K = 64 a call and one a call) and FCL (double, the scene in world
//    coordinates) give the same verdict, or the state is in the band: FCL with every box grown by
//    d = 2 tol collides and FCL with every box shrunk by d is free, so both answers are within d of
//    touching (tol = SATBOX_PLAN_REL (s_link + s_obstacle), the largest scales of the scene and arm);
//  - the conservative mode never calls free a state that FCL calls colliding, and every state it
//    alone calls colliding is in the band too (FCL grown by d collides); its false-positive rate is printed.
// FCL is the independent reference here (double, its own box-box test); the band check uses FCL only.
// Runs on the path SATBOX_ISA names (per_path in tests/meson.build); a state outside the band fails.
#include <cmath>
#include <cstdio>

#include "peer_missing.h"

#ifdef SATBOX_HAVE_PLAN
#include <vector>

#include "plan.h"

extern "C" {
#include "scale.h"
#include "support.h"
}

using namespace plan;

namespace {

// Largest scale |c0| + |c1| + |c2| + h0 + h1 + h2 of the boxes as satbox takes them (relative to RB_BASE).
double scale_of(const rb_box &b)
{
    double s = 0;
    for (int c = 0; c < 3; c++)
        s += std::fabs(b.center[c] - RB_BASE[c]) + b.half[c];
    return s;
}

struct Tally {
    size_t states = 0, colliding = 0, band = 0, cons_fp = 0, cons_fp_random = 0, failures = 0;
};

} // namespace

int main()
{
    tb_require_isa();
    const size_t n_random = scaled(1500), n_border = scaled(150);
    std::printf("plan-fcl-agree: path %s, %zu random and %zu border states per scene\n",
                satbox_isa_name(satbox_isa_active()), n_random, n_border);
    Tally all;
    for (int kind = 0; kind < RB_SCENE_COUNT; kind++)
        for (size_t m : {50, 200}) {
            Scene scene = make_scene((rb_scene_kind)kind, m);
            tb_rng r;
            tb_seed(&r, 100 + (uint64_t)kind * 7 + m);
            // The states: random configurations, then border states.
            std::vector<std::vector<double>> qs;
            for (size_t i = 0; i < n_random; i++) {
                std::vector<double> q(RB_DOF);
                rb_random_q(&r, q.data());
                qs.push_back(q);
            }
            FclChecker fcl(scene.boxes);
            std::vector<std::vector<double>> free_q, hit_q;
            for (const auto &q : qs) {
                rb_box l[RB_LINKS];
                rb_fk(q.data(), l);
                (fcl.collides(l) ? hit_q : free_q).push_back(q);
            }
            for (size_t i = 0; i < n_border && !free_q.empty() && !hit_q.empty(); i++) {
                std::vector<double> a = free_q[i % free_q.size()], b = hit_q[(i * 7) % hit_q.size()], mid(RB_DOF);
                for (int it = 0; it < 60; it++) { // a stays free, b colliding (FCL's verdict)
                    for (int j = 0; j < RB_DOF; j++)
                        mid[j] = 0.5 * (a[j] + b[j]);
                    rb_box l[RB_LINKS];
                    rb_fk(mid.data(), l);
                    (fcl.collides(l) ? b : a) = mid;
                }
                qs.push_back(a);
                qs.push_back(b);
            }
            // tol and d of the scene.
            double s_obs = 0, s_link = 0;
            for (const rb_box &b : scene.boxes)
                s_obs = std::fmax(s_obs, scale_of(b));
            for (const auto &q : qs) {
                rb_box l[RB_LINKS];
                rb_fk(q.data(), l);
                for (const rb_box &b : l)
                    s_link = std::fmax(s_link, scale_of(b));
            }
            const double tol = SATBOX_PLAN_REL * (s_link + std::fmax(s_obs, s_link)), d = 2 * tol;
            FclChecker grown(scene.boxes, d), shrunk(scene.boxes, -d);
            SatboxChecker sb(scene.boxes, 0), cons(scene.boxes, SATBOX_PLAN_CONSERVATIVE);
            Tally t;
            const size_t K = 64;
            LinkLanes lanes(K);
            for (size_t i0 = 0; i0 < qs.size(); i0 += K) {
                size_t k = std::min(K, qs.size() - i0);
                std::vector<std::vector<rb_box>> ls(k, std::vector<rb_box>(RB_LINKS));
                for (size_t j = 0; j < k; j++) {
                    rb_fk(qs[i0 + j].data(), ls[j].data());
                    lanes.set(j, ls[j].data());
                }
                std::vector<uint8_t> vs(k), vc(k);
                ptrdiff_t ns = sb.configs(lanes, k, vs.data()), nc = cons.configs(lanes, k, vc.data());
                if (ns < 0 || nc < 0) {
                    std::printf("FAIL %s M=%zu: satbox_configs returned %td / %td\n", rb_scene_name(scene.kind), m, ns, nc);
                    return 1;
                }
                for (size_t j = 0; j < k; j++) {
                    const rb_box *l = ls[j].data();
                    bool f = fcl.collides(l), s = vs[j] != 0, one = sb.collides(l), c = vc[j] != 0;
                    t.states++;
                    t.colliding += f;
                    bool in_band = grown.collides(l) && !shrunk.collides(l);
                    if (s != one) {
                        std::printf("FAIL %s M=%zu state %zu: satbox K=64 says %d, one a call says %d\n",
                                    rb_scene_name(scene.kind), m, i0 + j, s, one);
                        t.failures++;
                    }
                    if (s != f) {
                        t.band++;
                        if (!in_band) {
                            std::printf("FAIL %s M=%zu state %zu: satbox %d, FCL %d, outside the band (FCL grown by "
                                        "%.3g: %d, shrunk: %d)\n",
                                        rb_scene_name(scene.kind), m, i0 + j, s, f, d, grown.collides(l),
                                        shrunk.collides(l));
                            t.failures++;
                        }
                    }
                    if (f && !c) {
                        std::printf("FAIL %s M=%zu state %zu: FCL collides, the conservative mode says free\n",
                                    rb_scene_name(scene.kind), m, i0 + j);
                        t.failures++;
                    }
                    if (c && !f) {
                        t.cons_fp++;
                        t.cons_fp_random += i0 + j < n_random;
                        if (!grown.collides(l)) {
                            std::printf("FAIL %s M=%zu state %zu: conservative collides, FCL free even grown by %.3g\n",
                                        rb_scene_name(scene.kind), m, i0 + j, d);
                            t.failures++;
                        }
                    }
                }
            }
            std::printf("%-9s M=%3zu: %5zu states, %5zu colliding (FCL), %zu disagreements (all in the band: %s), "
                        "conservative false positives %zu, %zu of the random states (%.3f%%), d = %.3g m\n",
                        rb_scene_name(scene.kind), m, t.states, t.colliding, t.band, t.failures ? "no" : "yes", t.cons_fp,
                        t.cons_fp_random, 100.0 * (double)t.cons_fp_random / (double)n_random, d);
            all.states += t.states;
            all.band += t.band;
            all.cons_fp += t.cons_fp;
            all.cons_fp_random += t.cons_fp_random;
            all.failures += t.failures;
        }
    std::printf("%zu states, %zu disagreements with FCL, %zu conservative false positives (%zu of the random "
                "states), %zu failures\n",
                all.states, all.band, all.cons_fp, all.cons_fp_random, all.failures);
    return all.failures ? 1 : 0;
}

#else
int main(void) { return peer_missing("test_plan_fcl", "libfcl-dev and libompl-dev"); }
#endif

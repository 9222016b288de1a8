// plan.h - the planning bench's and tests' checkers for the arm of robot.h: FCL as MoveIt sets it up, satbox one or K configurations a call (link poses given, or joint vectors through the lane FK).
// SPDX-License-Identifier: MIT
#ifndef SATBOX_TEST_PLAN_H
#define SATBOX_TEST_PLAN_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

extern "C" {
#include "robot.h"
#include "satbox/satbox_planner.h"
}

namespace plan {

// A scene: its obstacles in double (world frame) and as satbox takes them (relative to RB_BASE, float).
struct Scene {
    rb_scene_kind kind;
    size_t m;
    std::vector<rb_box> boxes;
};
Scene make_scene(rb_scene_kind kind, size_t m, uint64_t seed = 1);

// FCL 0.7 in double, as MoveIt sets it up: the obstacles (fcl::Box) in a DynamicAABBTreeCollisionManager,
// the 8 links as fcl::Box collision objects whose transforms are set per configuration; a
// configuration collides when a link touches an obstacle (the manager's collide(object), a callback
// that stops at the first contact) or a self pair of rb_self_pairs() collides (fcl::collide).
// `grow` (meters) is added to every half extent, links and obstacles (the tests' band check).
class FclChecker {
  public:
    explicit FclChecker(const std::vector<rb_box> &obstacles, double grow = 0);
    ~FclChecker();
    FclChecker(const FclChecker &) = delete;
    FclChecker &operator=(const FclChecker &) = delete;
    bool collides(const rb_box links[RB_LINKS]);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// K configurations of the 8 links as satbox_configs() takes them: per link a satbox_boxes of K boxes.
class LinkLanes {
  public:
    explicit LinkLanes(size_t k = 1);
    void resize(size_t k);
    void set(size_t i, const rb_box links[RB_LINKS]); // configuration i, reduced and rounded (rb_to_float)
    const satbox_boxes *links() const { return view_; }
    size_t size() const { return k_; }

  private:
    size_t k_ = 0;
    std::vector<float> data_; // [link][15 fields][k]
    satbox_boxes view_[RB_LINKS];
};

// satbox: the scene's obstacles in a satbox_world (in memory of its own), the self pairs of robot.h,
// and the arm as a satbox_chain (rb_chain()) with its work memory, for the lane FK. Either the link
// poses are given (the double FK rb_fk(), packed in lanes) or the joint vectors, in float
// (RB_DOF values each, the chain_ calls: the FK in lanes inside the query). One thread at a time.
class SatboxChecker {
  public:
    explicit SatboxChecker(const std::vector<rb_box> &obstacles, unsigned flags = 0);
    // One configuration a call (K = 1).
    bool collides(const rb_box links[RB_LINKS]);
    // satbox_configs() on the first k configurations of `lanes`; returns how many are not free.
    ptrdiff_t configs(const LinkLanes &lanes, size_t k, uint8_t *out) const;
    // satbox_motion() on the first k states of `lanes`.
    ptrdiff_t motion(const LinkLanes &lanes, size_t k, unsigned extra_flags) const;
    // satbox_chain_configs() on one joint vector: not free (an error counts as "do not go there")?
    bool chain_collides(const float q[RB_DOF]);
    // satbox_chain_configs() on k joint vectors (q[i * RB_DOF + j]); returns how many are not free.
    ptrdiff_t chain_configs(const float *q, size_t k, uint8_t *out);
    // satbox_chain_motion() from q0 to q1 in k states.
    ptrdiff_t chain_motion(const float q0[RB_DOF], const float q1[RB_DOF], size_t k, unsigned extra_flags);
    unsigned flags() const { return flags_; }

  private:
    std::vector<unsigned char> mem_, chain_mem_, work_;
    satbox_world world_;
    satbox_chain chain_;
    const satbox_pair *self_;
    size_t nself_;
    unsigned flags_;
    LinkLanes one_;
};

} // namespace plan

#endif

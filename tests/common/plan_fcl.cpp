// plan_fcl.cpp - the FCL checker of plan.h: obstacles in FCL's dynamic AABB tree manager, link boxes updated per configuration, early exit.
// SPDX-License-Identifier: MIT
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/collision_object.h>

#include "plan.h"

namespace plan {

namespace {

fcl::Transform3d pose_of(const rb_box &b)
{
    fcl::Matrix3d R;
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 3; r++)
            R(r, k) = b.axis[k][r]; // column k: local axis k in the world
    fcl::Transform3d t = fcl::Transform3d::Identity();
    t.linear() = R;
    t.translation() = fcl::Vector3d(b.center[0], b.center[1], b.center[2]);
    return t;
}

std::shared_ptr<fcl::Boxd> shape_of(const rb_box &b, double grow)
{
    // fcl::Box takes full side lengths.
    return std::make_shared<fcl::Boxd>(2 * (b.half[0] + grow), 2 * (b.half[1] + grow), 2 * (b.half[2] + grow));
}

// What MoveIt's callback keeps: the request, the result, and whether to stop.
struct CallbackData {
    fcl::CollisionRequestd request; // one contact, no contact points: a yes/no answer
    fcl::CollisionResultd result;
    bool done = false;
};

bool stop_at_first(fcl::CollisionObjectd *a, fcl::CollisionObjectd *b, void *p)
{
    auto *d = static_cast<CallbackData *>(p);
    if (d->done)
        return true;
    fcl::collide(a, b, d->request, d->result);
    d->done = d->result.isCollision();
    return d->done;
}

} // namespace

struct FclChecker::Impl {
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> obstacles;
    fcl::DynamicAABBTreeCollisionManagerd manager;
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> links;
    const satbox_pair *self = nullptr;
    size_t nself = 0;
};

FclChecker::FclChecker(const std::vector<rb_box> &obstacles, double grow) : impl_(new Impl)
{
    for (const rb_box &b : obstacles) {
        impl_->obstacles.emplace_back(new fcl::CollisionObjectd(shape_of(b, grow), pose_of(b)));
        impl_->obstacles.back()->computeAABB();
        impl_->manager.registerObject(impl_->obstacles.back().get());
    }
    impl_->manager.setup();
    // The link shapes at configuration 0 (their sizes do not change with the configuration).
    double q0[RB_DOF] = {0, 0, 0, -1.5, 0, 1.5, 0};
    rb_box links[RB_LINKS];
    rb_fk(q0, links);
    for (const rb_box &b : links)
        impl_->links.emplace_back(new fcl::CollisionObjectd(shape_of(b, grow), pose_of(b)));
    impl_->nself = rb_self_pairs(&impl_->self);
}

FclChecker::~FclChecker() = default;

bool FclChecker::collides(const rb_box links[RB_LINKS])
{
    for (int l = 0; l < RB_LINKS; l++) {
        impl_->links[l]->setTransform(pose_of(links[l]));
        impl_->links[l]->computeAABB();
    }
    CallbackData d;
    for (int l = 0; l < RB_LINKS && !d.done; l++)
        impl_->manager.collide(impl_->links[l].get(), &d, stop_at_first);
    for (size_t i = 0; i < impl_->nself && !d.done; i++)
        stop_at_first(impl_->links[impl_->self[i].a].get(), impl_->links[impl_->self[i].b].get(), &d);
    return d.done;
}

} // namespace plan

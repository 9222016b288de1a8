// plan_satbox.cpp - the satbox checker of plan.h: the scene as a satbox_world, link poses packed in lanes or the arm's chain, satbox_configs, satbox_motion and their chain forms.
// SPDX-License-Identifier: MIT
#include <stdexcept>
#include <string>

#include "plan.h"

namespace plan {

Scene make_scene(rb_scene_kind kind, size_t m, uint64_t seed)
{
    Scene s{kind, m, std::vector<rb_box>(m)};
    rb_scene(kind, m, seed, s.boxes.data());
    return s;
}

// ---- LinkLanes: per link 15 float arrays of k (centers, halves, axes), the order of satbox_boxes ----

LinkLanes::LinkLanes(size_t k) { resize(k); }

void LinkLanes::resize(size_t k)
{
    k_ = k;
    data_.assign((size_t)RB_LINKS * 15 * (k ? k : 1), 0.0f);
    for (int l = 0; l < RB_LINKS; l++) {
        float *f = data_.data() + (size_t)l * 15 * k;
        for (int c = 0; c < 3; c++) {
            view_[l].center[c] = f + (size_t)c * k;
            view_[l].half[c] = f + (size_t)(3 + c) * k;
            for (int a = 0; a < 3; a++)
                view_[l].axis[a][c] = f + (size_t)(6 + 3 * a + c) * k;
        }
    }
}

void LinkLanes::set(size_t i, const rb_box links[RB_LINKS])
{
    for (int l = 0; l < RB_LINKS; l++) {
        satbox_box b;
        rb_to_float(&links[l], &b);
        float *f = data_.data() + (size_t)l * 15 * k_ + i;
        for (int c = 0; c < 3; c++) {
            f[(size_t)c * k_] = b.center[c];
            f[(size_t)(3 + c) * k_] = b.half[c];
            for (int a = 0; a < 3; a++)
                f[(size_t)(6 + 3 * a + c) * k_] = b.axis[a][c];
        }
    }
}

// ---- SatboxChecker ----

SatboxChecker::SatboxChecker(const std::vector<rb_box> &obstacles, unsigned flags) : flags_(flags), one_(1)
{
    size_t m = obstacles.size();
    std::vector<satbox_box> f(m);
    for (size_t i = 0; i < m; i++)
        rb_to_float(&obstacles[i], &f[i]);
    std::vector<float> soa((size_t)15 * m);
    satbox_boxes_out o;
    for (int c = 0; c < 3; c++) {
        o.center[c] = soa.data() + (size_t)c * m;
        o.half[c] = soa.data() + (size_t)(3 + c) * m;
        for (int a = 0; a < 3; a++)
            o.axis[a][c] = soa.data() + (size_t)(6 + 3 * a + c) * m;
    }
    if (satbox_pack(f.data(), m, &o) != (ptrdiff_t)m)
        throw std::runtime_error("satbox_pack failed");
    satbox_boxes v = satbox_boxes_view(&o);
    mem_.resize(satbox_world_bytes(m));
    ptrdiff_t r = satbox_world_init(&world_, mem_.data(), mem_.size(), &v, m);
    if (r != (ptrdiff_t)m)
        throw std::runtime_error(std::string("satbox_world_init: ") + satbox_strerror((int)r));
    nself_ = rb_self_pairs(&self_);
    satbox_joint joints[RB_DOF];
    satbox_link links[RB_LINKS];
    rb_chain(joints, links);
    chain_mem_.resize(satbox_chain_bytes(RB_DOF, RB_LINKS));
    r = satbox_chain_init(&chain_, chain_mem_.data(), chain_mem_.size(), joints, RB_DOF, links, RB_LINKS);
    if (r != RB_LINKS)
        throw std::runtime_error(std::string("satbox_chain_init: ") + satbox_strerror((int)r));
    work_.resize(satbox_chain_work_bytes(&chain_));
}

bool SatboxChecker::collides(const rb_box links[RB_LINKS])
{
    one_.set(0, links);
    uint8_t out = 0;
    ptrdiff_t r = satbox_configs(&world_, one_.links(), RB_LINKS, self_, nself_, 1, flags_, &out);
    return r != 0; // an error counts as "do not go there"
}

ptrdiff_t SatboxChecker::configs(const LinkLanes &lanes, size_t k, uint8_t *out) const
{
    return satbox_configs(&world_, lanes.links(), RB_LINKS, self_, nself_, k, flags_, out);
}

ptrdiff_t SatboxChecker::motion(const LinkLanes &lanes, size_t k, unsigned extra_flags) const
{
    return satbox_motion(&world_, lanes.links(), RB_LINKS, self_, nself_, k, flags_ | extra_flags);
}

bool SatboxChecker::chain_collides(const float q[RB_DOF])
{
    uint8_t out = 0;
    return satbox_chain_configs(&world_, &chain_, self_, nself_, q, RB_DOF, 1, flags_, &out, work_.data(), work_.size()) != 0;
}

ptrdiff_t SatboxChecker::chain_configs(const float *q, size_t k, uint8_t *out)
{
    return satbox_chain_configs(&world_, &chain_, self_, nself_, q, RB_DOF, k, flags_, out, work_.data(), work_.size());
}

ptrdiff_t SatboxChecker::chain_motion(const float q0[RB_DOF], const float q1[RB_DOF], size_t k, unsigned extra_flags)
{
    return satbox_chain_motion(&world_, &chain_, self_, nself_, q0, q1, k, flags_ | extra_flags, work_.data(),
                               work_.size());
}

} // namespace plan

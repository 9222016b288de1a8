// peer_bullet.cpp - Bullet (Debian's libbullet-dev, single precision): btBoxBoxDetector between two btBoxShapes (contacts).
// SPDX-License-Identifier: MIT
//
// The detector is what Bullet's box-box collision algorithm calls: given the two shapes and their
// world transforms it runs its 15-axis test and clips the contact face, reporting up to 4 contact
// points through a Result. A pair "hits" when at least one point is reported. Shapes and
// transforms are built once (as an engine keeps them); the detector and the inputs are set up per
// pair, as btBoxBoxCollisionAlgorithm does.
#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <LinearMath/btTransform.h>

#include "peers.h"

extern "C" {
#include "support.h"
}

#define SBB_STR2(x) #x
#define SBB_STR(x) SBB_STR2(x)

namespace sbb {

namespace {

struct BulletBatch : PeerBatch {
    std::vector<btBoxShape> shape_a, shape_b; // reserved once: never reallocated (no copies)
    std::vector<btTransform> pose_a, pose_b;
};

// Counts the contact points the detector reports.
struct CountContacts : btDiscreteCollisionDetectorInterface::Result {
    int points = 0;
    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3 &, const btVector3 &, btScalar) override { points++; }
};

void add_box(const satbox_boxes &v, size_t i, std::vector<btBoxShape> &shapes, std::vector<btTransform> &poses)
{
    satbox_box box;
    tb_box_from(&v, i, &box);
    // btMatrix3x3 takes rows; column k is local axis k in world coordinates.
    btMatrix3x3 basis(box.axis[0][0], box.axis[1][0], box.axis[2][0],
                      box.axis[0][1], box.axis[1][1], box.axis[2][1],
                      box.axis[0][2], box.axis[1][2], box.axis[2][2]);
    poses.emplace_back(basis, btVector3(box.center[0], box.center[1], box.center[2]));
    shapes.emplace_back(btVector3(box.half[0], box.half[1], box.half[2]));
}

std::unique_ptr<PeerBatch> convert(const satbox_boxes &a, const satbox_boxes &b, size_t n)
{
    auto out = std::make_unique<BulletBatch>();
    out->n = n;
    out->shape_a.reserve(n);
    out->shape_b.reserve(n);
    out->pose_a.reserve(n);
    out->pose_b.reserve(n);
    for (size_t i = 0; i < n; i++) {
        add_box(a, i, out->shape_a, out->pose_a);
        add_box(b, i, out->shape_b, out->pose_b);
    }
    return out;
}

size_t run(const PeerBatch &batch, size_t first, size_t n, uint8_t *hit)
{
    const auto &p = static_cast<const BulletBatch &>(batch);
    size_t count = 0;
    for (size_t i = first; i < first + n; i++) {
        btBoxBoxDetector detector(&p.shape_a[i], &p.shape_b[i]);
        btDiscreteCollisionDetectorInterface::ClosestPointInput in;
        in.m_transformA = p.pose_a[i];
        in.m_transformB = p.pose_b[i];
        CountContacts result;
        detector.getClosestPoints(in, result, nullptr);
        bool h = result.points > 0;
        hit[i - first] = (uint8_t)h;
        count += h;
    }
    return count;
}

} // namespace

void add_bullet_peers(std::vector<Peer> &out)
{
    out.push_back({"bullet", "contacts", "Bullet " SBB_STR(BT_BULLET_VERSION) " btBoxBoxDetector::getClosestPoints (float)",
                   convert, run});
}

} // namespace sbb

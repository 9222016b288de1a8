// world_bullet.cpp - a real Bullet world (btDiscreteDynamicsWorld) on the shared scenes, box-box narrow phase by Bullet or by satbox.
// SPDX-License-Identifier: MIT
//
// Usage: world_bullet [--scene pile|pyramid] [--n N] [--steps S] [--seed K] [--narrow bullet|satbox]
//                     [--isa NAME] [--margin M] [--damping] [--phases] [--same-state R] [--cpu-time] [--json]
//                         one run, one `WORLD {json}` line (tests/worlds/world_scene.h); --isa forces a
//                         satbox path (exit 77 when the CPU lacks it); --margin: satbox's speculative margin
//                         (default: Bullet's contact breaking threshold); --damping: the piles' damping;
//                         --phases: the satbox dispatch's phases on stderr; --same-state R: then both
//                         narrow phases on the end state (DISPATCH lines); --cpu-time: the phases in the
//                         thread's CPU time instead of the monotonic clock; --json: accepted, no effect
//        world_bullet --check-signs        the sign and id checks (a test)
//        world_bullet --test               the world test (see run_world_test)
//
// Phases timed per step (monotonic clock, or --cpu-time): broad = AABB update and pair cache; narrow = the dispatch,
// from the pair cache to filled manifolds, all glue counted (for satbox the pool refresh, the pair
// gathering, the call and the manifold fill); joints = the satbox manifold fill alone (a part of
// narrow; 0 for Bullet's own, whose fill is inside its detector); solver = islands and the
// sequential-impulse solve; step = the whole stepSimulation.
//
// The world is Bullet's ordinary rigid-body stack: btDbvtBroadphase, btDefaultCollisionConfiguration,
// btSequentialImpulseConstraintSolver, btBoxShape bodies (static ground and walls have mass 0).
// Narrow phase "bullet": the default dispatcher, so every box-box pair runs btBoxBoxCollisionAlgorithm
// (btBoxBoxDetector + the persistent manifold's point matching and refresh).
// Narrow phase "satbox": SatboxDispatcher below. Its dispatchAllCollisionPairs sends every box-box pair
// of the step through two satbox_contacts_stream_pairs_qrec calls, the pairs whose manifold is empty
// and the pairs whose manifold holds points (see "Which points live"; a pool of quaternion records
// refreshed from the bodies' world transforms, index pairs from the overlapping pair cache) and writes
// each record into the pair's btPersistentManifold; every other pair goes to Bullet's own algorithms
// through the near callback, as the default dispatcher would send it.
//
// Conventions at the border (get these wrong and boxes sink or fly; --check-signs tests them):
//  - satbox's normal points from A to B; Bullet's m_normalWorldOnB points from B to A: nB = -n.
//  - satbox's depth is > 0 when penetrating; Bullet's m_distance1 is < 0 then: distance = -depth.
//  - Bullet wants both surface points, with positionWorldOnA = positionWorldOnB + nB * distance.
//    satbox's point lies on the incident box's surface: on B when A's face is the reference
//    (axis 0-2), on A when B's face is (axis 3-5), midway for an edge axis (6-14).
//  - A = the manifold's body0 = the pair's proxy0 object, so no swap is ever needed.
// Warm starting: satbox's feature id of a point (stable while the same features touch) is kept in
// m_index0 / m_index1 of the btManifoldPoint; next step a point with the same id inherits the
// accumulated impulses (normal, two friction) and the life time, as replaceContactPoint would after
// Bullet's distance match (getCacheEntry). The id match replaces the distance match: it does not
// confuse two points that moved close to each other, and it keeps a point that slid further than
// the breaking threshold. Points satbox no longer reports are dropped (satbox's manifold is complete).
// Which points live: as Bullet's own. btBoxBoxDetector adds only touching points (a separated pair
// gets none, a face point outside the reference face is left out) and the persistent manifold keeps
// a point while it stays within the contact breaking threshold (refreshContactPoints). So a pair
// whose manifold is empty is tested at margin 0 (its points are born touching) and a pair whose
// manifold holds points at the threshold (they live while within it). With the threshold for every
// pair, a resting pyramid gave the solver 45% more points than Bullet's own (42920 against 29600 on
// the 4K scene: each pair of side neighbours 0.01 m apart had 4 points that never touched) and the
// whole step was 0.82x Bullet's.
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "satbox/satbox.h"
#include "support.h"
#include "world_scene.h"
#include "scale.h"

namespace {

// The clock of the phase times: ws_now (monotonic, the default) or, with --cpu-time,
// ws_thread_cpu_now (the world thread's CPU time, which leaves out the waits for a core on a
// shared machine).
double (*clock_now)(void) = ws_now;

// ---------------------------------------------------------------------------------------------
// The satbox narrow phase.

// What the points of a pair take from its two bodies, as btManifoldResult::addContactPoint sets it.
struct PairMaterial {
    btScalar friction = 0, restitution = 0, rolling = 0, spinning = 0;
    btScalar stiffness = 0, damping = 0; // with BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING
    int point_flags = 0;                 // BT_CONTACT_FLAG_* of every point
    bool added_callback = false;         // gContactAddedCallback wants every new point
};

// Through Bullet's (replaceable) global callbacks and the bodies' collision flags.
PairMaterial material_of(const btCollisionObject *a, const btCollisionObject *b)
{
    PairMaterial m;
    m.friction = gCalculateCombinedFrictionCallback(a, b);
    m.restitution = gCalculateCombinedRestitutionCallback(a, b);
    m.rolling = gCalculateCombinedRollingFrictionCallback(a, b);
    m.spinning = gCalculateCombinedSpinningFrictionCallback(a, b);
    const int flags = a->getCollisionFlags() | b->getCollisionFlags();
    if (flags & btCollisionObject::CF_HAS_CONTACT_STIFFNESS_DAMPING) {
        m.damping = gCalculateCombinedContactDampingCallback(a, b);
        m.stiffness = gCalculateCombinedContactStiffnessCallback(a, b);
        m.point_flags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    }
    if (flags & btCollisionObject::CF_HAS_FRICTION_ANCHOR)
        m.point_flags |= BT_CONTACT_FLAG_FRICTION_ANCHOR;
    m.added_callback = gContactAddedCallback && (flags & btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
    return m;
}

// Copy of one satbox record into a pair's persistent manifold (see the conventions above).
// a, b: the manifold's body0 and body1, which are the satbox pair's A and B; ta, tb their world
// transforms.
void fill_manifold(btPersistentManifold *manifold, const satbox_manifold &rec, const btTransform &ta,
                   const btTransform &tb, const PairMaterial &material, const btCollisionObject *a,
                   const btCollisionObject *b)
{
    const btVector3 normal_ab(rec.normal[0], rec.normal[1], rec.normal[2]);
    const btVector3 normal_on_b = -normal_ab;
    // The share of the depth to walk from satbox's point to each surface along the normal.
    btScalar to_a = 0, to_b = 0;
    if (rec.axis < 3)
        to_a = 1; // A's face is the reference: the point is on B, A's surface is depth further along n
    else if (rec.axis < 6)
        to_b = 1; // B's face is the reference: the point is on A, B's surface is depth back along n
    else
        to_a = to_b = 0.5; // edge-edge: the midpoint of the two closest edge points

    // Last step's impulses and life time of the points with the same feature id.
    struct Warm {
        btScalar impulse = 0, rhs = 0, lateral1 = 0, lateral2 = 0;
        int life = 0;
    } warm[SATBOX_MAX_CONTACTS];
    const int old_count = manifold->getNumContacts();
    for (int k = 0; k < rec.count; k++)
        for (int j = 0; j < old_count; j++) {
            const btManifoldPoint &old = manifold->getContactPoint(j);
            if ((uint32_t)old.m_index0 == rec.point[k].feature) {
                warm[k] = {old.m_appliedImpulse, old.m_prevRHS, old.m_appliedImpulseLateral1,
                           old.m_appliedImpulseLateral2, old.getLifeTime()};
                break;
            }
        }

    manifold->setNumContacts(rec.count);
    for (int k = 0; k < rec.count; k++) {
        const satbox_contact &c = rec.point[k];
        const btVector3 p(c.position[0], c.position[1], c.position[2]);
        const btVector3 on_a = p + normal_ab * (c.depth * to_a);
        const btVector3 on_b = p - normal_ab * (c.depth * to_b);
        btManifoldPoint &pt = manifold->getContactPoint(k);
        new (&pt) btManifoldPoint(ta.invXform(on_a), tb.invXform(on_b), normal_on_b, -c.depth); // in place: no temporary
        pt.m_positionWorldOnA = on_a;
        pt.m_positionWorldOnB = on_b;
        pt.m_combinedFriction = material.friction;
        pt.m_combinedRestitution = material.restitution;
        pt.m_combinedRollingFriction = material.rolling;
        pt.m_combinedSpinningFriction = material.spinning;
        if (material.point_flags & BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING) {
            pt.m_combinedContactDamping1 = material.damping;
            pt.m_combinedContactStiffness1 = material.stiffness;
        }
        pt.m_contactPointFlags = material.point_flags;
        btPlaneSpace1(pt.m_normalWorldOnB, pt.m_lateralFrictionDir1, pt.m_lateralFrictionDir2);
        pt.m_index0 = pt.m_index1 = (int)c.feature;
        pt.m_appliedImpulse = warm[k].impulse;
        pt.m_prevRHS = warm[k].rhs;
        pt.m_appliedImpulseLateral1 = warm[k].lateral1;
        pt.m_appliedImpulseLateral2 = warm[k].lateral2;
        pt.m_lifeTime = warm[k].life + 1; // as refreshContactPoints counts: 1 for a new point
        if (material.added_callback) {
            btCollisionObjectWrapper wa(nullptr, a->getCollisionShape(), a, ta, -1, -1);
            btCollisionObjectWrapper wb(nullptr, b->getCollisionShape(), b, tb, -1, -1);
            (*gContactAddedCallback)(pt, &wa, pt.m_partId0, pt.m_index0, &wb, pt.m_partId1, pt.m_index1);
        }
    }
}

// The record of one box as satbox reads it, from Bullet's world transform (a matrix).
void qrec_from(const btCollisionObject *object, satbox_qrec *rec)
{
    const btTransform &t = object->getWorldTransform();
    const btVector3 &origin = t.getOrigin();
    btQuaternion q;
    t.getBasis().getRotation(q);
    rec->center[0] = origin.x(), rec->center[1] = origin.y(), rec->center[2] = origin.z();
    rec->quat[0] = q.x(), rec->quat[1] = q.y(), rec->quat[2] = q.z(), rec->quat[3] = q.w();
}

// The box-box "algorithm" of the satbox narrow phase owns only the pair's persistent manifold, so
// that Bullet creates and frees it with the broad-phase pair as it does its own algorithms';
// SatboxDispatcher fills it for all pairs at once.
class SatboxPairManifold : public btCollisionAlgorithm {
public:
    btPersistentManifold *manifold;
    // Whether satbox's points are in the manifold (so that an empty pair is never touched again).
    bool has_points = false;

    SatboxPairManifold(const btCollisionAlgorithmConstructionInfo &ci, const btCollisionObject *a,
                       const btCollisionObject *b)
        : btCollisionAlgorithm(ci), manifold(m_dispatcher->getNewManifold(a, b))
    {
    }
    ~SatboxPairManifold() override { m_dispatcher->releaseManifold(manifold); }

    // Reached only if something dispatches a box-box pair one at a time (the near callback): the
    // same satbox call on a pool of two.
    void processCollision(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                          const btDispatcherInfo &, btManifoldResult *) override;
    btScalar calculateTimeOfImpact(btCollisionObject *, btCollisionObject *, const btDispatcherInfo &,
                                   btManifoldResult *) override
    {
        return 1; // no continuous collision for boxes (as btBoxBoxCollisionAlgorithm)
    }
    void getAllContactManifolds(btManifoldArray &out) override { out.push_back(manifold); }

    static float margin; // satbox's speculative margin (length units), one for the world
};
float SatboxPairManifold::margin = 0.0f;

struct SatboxCreateFunc : btCollisionAlgorithmCreateFunc {
    btCollisionAlgorithm *CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo &ci,
                                                   const btCollisionObjectWrapper *w0,
                                                   const btCollisionObjectWrapper *w1) override
    {
        void *memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(SatboxPairManifold));
        return new (memory) SatboxPairManifold(ci, w0->getCollisionObject(), w1->getCollisionObject());
    }
};

void box_qrec(const btCollisionObject *object, satbox_qrec *rec)
{
    const btVector3 half = static_cast<const btBoxShape *>(object->getCollisionShape())->getHalfExtentsWithMargin();
    rec->half[0] = half.x(), rec->half[1] = half.y(), rec->half[2] = half.z();
    rec->pad[0] = rec->pad[1] = 0;
    qrec_from(object, rec);
}

void SatboxPairManifold::processCollision(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                                          const btDispatcherInfo &, btManifoldResult *)
{
    const btCollisionObject *a = manifold->getBody0(), *b = manifold->getBody1();
    (void)w0, (void)w1; // the manifold's order is the pair's, whichever order the wrappers come in
    satbox_qrec pool[2];
    box_qrec(a, &pool[0]);
    box_qrec(b, &pool[1]);
    const satbox_pair pair = {0, 1};
    satbox_manifold rec;
    ptrdiff_t hits = satbox_contacts_stream_pairs_qrec(pool, 2, &pair, 1, has_points ? margin : 0.0f, &rec, nullptr);
    if (hits == 1)
        fill_manifold(manifold, rec, a->getWorldTransform(), b->getWorldTransform(), material_of(a, b), a, b);
    else
        manifold->clearManifold();
    has_points = hits == 1;
}

bool is_box(const btCollisionObject *object)
{
    return object->getCollisionShape()->getShapeType() == BOX_SHAPE_PROXYTYPE;
}

class SatboxDispatcher : public btCollisionDispatcher {
public:
    explicit SatboxDispatcher(btCollisionConfiguration *config) : btCollisionDispatcher(config)
    {
        registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, &create_);
    }

    void dispatchAllCollisionPairs(btOverlappingPairCache *cache, const btDispatcherInfo &info,
                                   btDispatcher *) override
    {
        const double t0 = clock_now();
        refresh_pool();
        const double t1 = clock_now();
        // The box-box pairs that need a test this step (not both asleep, not filtered out).
        const int pair_count = cache->getNumOverlappingPairs();
        btBroadphasePair *cached = cache->getOverlappingPairArrayPtr();
        for (Group &g : groups_)
            g.clear();
        // The pair array is read in order; what its pointers lead to (proxies, algorithm objects)
        // is scattered: fetch it a few pairs ahead. The objects themselves are not read: the pool
        // refresh put what the test needs into proxy_info_.
        constexpr int kAheadPairs = 8;
        for (int k = 0; k < pair_count; k++) {
            if (k + kAheadPairs < pair_count) {
                const btBroadphasePair &ahead = cached[k + kAheadPairs];
                __builtin_prefetch(ahead.m_pProxy0);
                __builtin_prefetch(ahead.m_pProxy1);
                if (ahead.m_algorithm)
                    __builtin_prefetch(ahead.m_algorithm);
            }
            btBroadphasePair &pair = cached[k];
            const ProxyInfo &ia = proxy_info_[pair.m_pProxy0->m_uniqueId];
            const ProxyInfo &ib = proxy_info_[pair.m_pProxy1->m_uniqueId];
            auto *a = static_cast<btCollisionObject *>(pair.m_pProxy0->m_clientObject);
            auto *b = static_cast<btCollisionObject *>(pair.m_pProxy1->m_clientObject);
            if (!ia.box || !ib.box) {
                (*getNearCallback())(pair, *this, info); // Bullet's own algorithm for every other pair
                continue;
            }
            // needsCollision(a, b), from the table: not both asleep, and the objects' own filter
            // (an ignore list, a multibody link) asked only where there is one.
            if (!ia.active && !ib.active)
                continue;
            if ((ia.filtered || ib.filtered) && !needsCollision(a, b))
                continue;
            if (!pair.m_algorithm) {
                btCollisionObjectWrapper wa(nullptr, a->getCollisionShape(), a, a->getWorldTransform(), -1, -1);
                btCollisionObjectWrapper wb(nullptr, b->getCollisionShape(), b, b->getWorldTransform(), -1, -1);
                pair.m_algorithm = findAlgorithm(&wa, &wb, nullptr, BT_CONTACT_POINT_ALGORITHMS);
            }
            auto *owner = static_cast<SatboxPairManifold *>(pair.m_algorithm);
            Group &g = groups_[owner->has_points];
            g.pairs.push_back({ia.index, ib.index});
            g.owners.push_back(owner);
            g.manifolds.push_back(owner->manifold);
        }
        const double t2 = clock_now();
        // One satbox call per group: the pairs without points at margin 0 (only touching points
        // are born), the pairs with points at the breaking threshold (their points live while
        // within it); one record per hit pair, in pair order.
        size_t hits = 0;
        for (int held = 0; held < 2; held++) {
            Group &g = groups_[held];
            g.stream.resize(g.pairs.size());
            g.hits = g.pairs.empty() ? 0
                                     : satbox_contacts_stream_pairs_qrec(pool_.data(), pool_.size(), g.pairs.data(),
                                                                         g.pairs.size(), held ? SatboxPairManifold::margin : 0.0f,
                                                                         g.stream.data(), nullptr);
            if (g.hits < 0) {
                std::fprintf(stderr, "world_bullet: satbox: %s\n", satbox_strerror((int)g.hits));
                std::abort();
            }
            hits += (size_t)g.hits;
        }
        const double t3 = clock_now();
        for (int held = 0; held < 2; held++)
            fill_group(groups_[held], held);
        const double t4 = clock_now();
        refresh_seconds += t1 - t0;
        gather_seconds += t2 - t1;
        call_seconds += t3 - t2;
        fill_seconds += t4 - t3;
        tested_pairs += groups_[0].pairs.size() + groups_[1].pairs.size();
        hit_pairs += hits;
    }

    // Phases of the dispatch summed over the steps (seconds): pool refresh, pair gathering, the
    // satbox call, the manifold fill; and the pairs tested and hit.
    double refresh_seconds = 0, gather_seconds = 0, call_seconds = 0, fill_seconds = 0;
    size_t tested_pairs = 0, hit_pairs = 0;

    // The world's collision objects (their world array indices are the pool's record indices).
    void set_objects(const btCollisionObjectArray *objects) { objects_ = objects; }

private:
    // The pairs tested this step, by whether their manifold held points last step (owner->has_points).
    struct Group {
        std::vector<satbox_pair> pairs;
        std::vector<SatboxPairManifold *> owners;     // per tested pair: its algorithm object
        std::vector<btPersistentManifold *> manifolds; // per tested pair: its manifold
        std::vector<uint8_t> written;                  // per tested pair (held points): 1 if written this step
        std::vector<satbox_manifold> stream;
        ptrdiff_t hits = 0;
        void clear()
        {
            pairs.clear(), owners.clear(), manifolds.clear(), written.clear();
        }
    };

    // The group's records into their manifolds. Pairs that held points and got none are emptied
    // (no stale points; the dense flags say which without touching the other pairs' manifolds);
    // the owners keep whether their manifold holds points for the next step.
    void fill_group(Group &g, bool held)
    {
        // The manifolds (880 bytes, 4 points of 208) are scattered in Bullet's pool: fetch a few
        // records ahead the lines the fill touches, the points it writes and the counters' line
        // (fetching all 14 lines stalled on the full miss buffers).
        constexpr size_t kAheadRecords = 4;
        const size_t hits = (size_t)g.hits;
        if (held)
            g.written.assign(g.pairs.size(), 0);
        for (size_t r = 0; r < hits; r++) {
            if (r + kAheadRecords < hits) {
                const satbox_manifold &ahead = g.stream[r + kAheadRecords];
                const btPersistentManifold *m = g.manifolds[ahead.pair];
                const char *base = reinterpret_cast<const char *>(m);
                for (size_t line = 0; line < ahead.count * sizeof(btManifoldPoint); line += 64)
                    __builtin_prefetch(base + line, 1);
                __builtin_prefetch(&m->m_companionIdA, 1); // beside the point count and the bodies
                if (!held)
                    __builtin_prefetch(g.owners[ahead.pair], 1);
            }
            const uint32_t i = g.stream[r].pair;
            const BodyCache &ca = bodies_[g.pairs[i].a], &cb = bodies_[g.pairs[i].b];
            fill_manifold(g.manifolds[i], g.stream[r], ca.transform, cb.transform, pair_material(ca, cb), ca.object,
                          cb.object);
            if (held)
                g.written[i] = 1;
            else
                g.owners[i]->has_points = true;
        }
        if (held)
            for (size_t i = 0; i < g.pairs.size(); i++)
                if (!g.written[i]) {
                    g.manifolds[i]->clearManifold();
                    g.owners[i]->has_points = false;
                }
    }

    // What the pair loop needs of an object, found through its broad-phase proxy's unique id.
    struct ProxyInfo {
        uint32_t index = 0;    // world array index = pool record index
        bool box = false;      // a btBoxShape
        bool active = false;   // isActive(): not asleep
        bool filtered = false; // checkCollideWith may say no (ignore list, multibody link)
    };

    // What the manifold fill needs of a box, copied from the object with the pool refresh, so that
    // the fill reads a dense array instead of the scattered objects.
    struct BodyCache {
        btTransform transform = btTransform::getIdentity();
        btScalar friction = 0, restitution = 0, rolling = 0, spinning = 0;
        int flags = 0; // collision flags
        const btCollisionObject *object = nullptr;
    };

    // The pair's material as Bullet's default callbacks combine it (the same operations), from the
    // cache; through the callbacks themselves when the application replaced one or a body asks
    // for more (contact stiffness, friction anchors, the contact-added callback).
    PairMaterial pair_material(const BodyCache &a, const BodyCache &b) const
    {
        constexpr int kSpecial = btCollisionObject::CF_HAS_CONTACT_STIFFNESS_DAMPING |
                                 btCollisionObject::CF_HAS_FRICTION_ANCHOR |
                                 btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK;
        if (!default_callbacks_ || ((a.flags | b.flags) & kSpecial))
            return material_of(a.object, b.object);
        const btScalar limit = 10; // btManifoldResult's MAX_FRICTION
        PairMaterial m;
        m.friction = btClamped(a.friction * b.friction, -limit, limit);
        m.restitution = a.restitution * b.restitution;
        m.rolling = btClamped(a.rolling * b.friction + b.rolling * a.friction, -limit, limit);
        m.spinning = btClamped(a.spinning * b.friction + b.spinning * a.friction, -limit, limit);
        return m;
    }

    // Record i is the world's collision object i (its world array index); static boxes are written
    // once, moving ones every step. Records of other shapes are never read (no pair refers to them).
    void refresh_pool()
    {
        default_callbacks_ = gCalculateCombinedFrictionCallback == &btManifoldResult::calculateCombinedFriction &&
                             gCalculateCombinedRestitutionCallback == &btManifoldResult::calculateCombinedRestitution &&
                             gCalculateCombinedRollingFrictionCallback ==
                                 &btManifoldResult::calculateCombinedRollingFriction &&
                             gCalculateCombinedSpinningFrictionCallback ==
                                 &btManifoldResult::calculateCombinedSpinningFriction;
        const int count = objects_->size();
        const bool rebuild = (int)pool_.size() != count;
        if (rebuild) {
            pool_.assign(count, satbox_qrec{});
            bodies_.assign(count, BodyCache{});
        }
        for (int i = 0; i < count; i++) {
            const btCollisionObject *object = (*objects_)[i];
            const int uid = object->getBroadphaseHandle()->m_uniqueId;
            if (uid >= (int)proxy_info_.size())
                proxy_info_.resize((size_t)uid + 1);
            ProxyInfo &pi = proxy_info_[uid];
            pi.index = (uint32_t)i;
            pi.box = is_box(object);
            pi.active = object->isActive();
            pi.filtered = object->getNumObjectsWithoutCollision() > 0 ||
                          object->getInternalType() == btCollisionObject::CO_FEATHERSTONE_LINK;
            if (!pi.box)
                continue;
            BodyCache &cache = bodies_[i];
            cache.transform = object->getWorldTransform();
            cache.friction = object->getFriction();
            cache.restitution = object->getRestitution();
            cache.rolling = object->getRollingFriction();
            cache.spinning = object->getSpinningFriction();
            cache.flags = object->getCollisionFlags();
            cache.object = object;
            if (rebuild)
                box_qrec(object, &pool_[i]);
            else if (!object->isStaticObject())
                qrec_from(object, &pool_[i]);
        }
    }

    SatboxCreateFunc create_;
    const btCollisionObjectArray *objects_ = nullptr;
    std::vector<satbox_qrec> pool_;
    std::vector<ProxyInfo> proxy_info_; // indexed by the broad-phase proxy's unique id
    std::vector<BodyCache> bodies_;     // indexed like the pool
    bool default_callbacks_ = true;     // Bullet's material callbacks are its own
    Group groups_[2]; // [0]: pairs whose manifold is empty, [1]: pairs whose manifold holds points
};

// ---------------------------------------------------------------------------------------------
// The world, with the phases of a step timed.

class TimedWorld : public btDiscreteDynamicsWorld {
public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;

    double broad_seconds = 0, narrow_seconds = 0, solver_seconds = 0;
    size_t candidate_pairs = 0; // the broad phase's pairs, summed over the steps

    // btCollisionWorld::performDiscreteCollisionDetection, with clocks: AABBs and the pair cache
    // are the broad phase; the dispatch (pair cache to filled manifolds) is the narrow phase.
    void performDiscreteCollisionDetection() override
    {
        const double t0 = clock_now();
        updateAabbs();
        computeOverlappingPairs();
        const double t1 = clock_now();
        candidate_pairs += (size_t)m_broadphasePairCache->getOverlappingPairCache()->getNumOverlappingPairs();
        m_dispatcher1->dispatchAllCollisionPairs(m_broadphasePairCache->getOverlappingPairCache(), getDispatchInfo(),
                                                 m_dispatcher1);
        const double t2 = clock_now();
        broad_seconds += t1 - t0;
        narrow_seconds += t2 - t1;
    }
    // Islands (union-find over the pairs) and the sequential-impulse solve are the solver.
    void calculateSimulationIslands() override
    {
        const double t0 = clock_now();
        btDiscreteDynamicsWorld::calculateSimulationIslands();
        solver_seconds += clock_now() - t0;
    }
    void solveConstraints(btContactSolverInfo &info) override
    {
        const double t0 = clock_now();
        btDiscreteDynamicsWorld::solveConstraints(info);
        solver_seconds += clock_now() - t0;
    }
};

// The world's settings, the same for both narrow phases (and, where the engines allow, as the ODE
// world's: friction 0.6 at a contact, 20 solver iterations).
// Bullet multiplies the two bodies' frictions: sqrt(0.6) each gives mu = 0.6 at a contact.
constexpr btScalar kFriction = 0.7745967f;
constexpr int kSolverIterations = 20;
// With --damping (the piles), a little damping beside Bullet's default sleeping (an island sleeps
// after 2 s below 0.8 m/s and 1 rad/s) lets a pile come to rest sooner. Bullet's damping is a rate:
// v *= (1 - d)^dt per step.
constexpr btScalar kLinearDamping = 0.05f;
constexpr btScalar kAngularDamping = 0.05f;
// satbox's speculative margin (m): Bullet's contact breaking threshold (0.02 m), the distance up to
// which Bullet keeps a persistent manifold point (and by which it fattens the broad phase's AABBs).
// satbox writes a complete manifold every step, so without a margin a pair held apart by a hair has
// no point at all and falls onto its support again the next step. The margin is for the pairs whose
// manifold holds points (see "Which points live"); the others are tested at 0. Measured when every
// pair had the margin (10 seeds, 200-box pile at rest): median max_pen 4.8 mm at 0.005, 3.8 mm at
// 0.01, 3.1 mm at 0.02, against 2.7 mm for Bullet's own narrow phase.
float satbox_margin_default() { return (float)gContactBreakingThreshold; }

// One Bullet world holding a scene's bodies (added in scene order, statics first, so world array
// index i is scene body i and the pair cache's proxy0 is the body added first).
struct World {
    btDefaultCollisionConfiguration *config = nullptr;
    btCollisionDispatcher *dispatcher = nullptr;
    SatboxDispatcher *satbox = nullptr; // == dispatcher when the satbox narrow phase runs, else null
    btDbvtBroadphase *broadphase = nullptr;
    btSequentialImpulseConstraintSolver *solver = nullptr;
    TimedWorld *world = nullptr;
    std::vector<btBoxShape *> shapes;
    std::vector<btRigidBody *> bodies;

    World(const ws_body *descs, size_t count, const double gravity[3], bool use_satbox, bool damping = false)
        : damping_(damping)
    {
        // Room in Bullet's pools for the manifolds and algorithms of every candidate pair (a pile
        // has about 3 per box; both narrow phases alike), so that neither pays for the heap
        // fallback; Bullet's default (4096) is for small worlds.
        btDefaultCollisionConstructionInfo info;
        info.m_defaultMaxPersistentManifoldPoolSize = std::max(4096, 8 * (int)count);
        info.m_defaultMaxCollisionAlgorithmPoolSize = std::max(4096, 8 * (int)count);
        config = new btDefaultCollisionConfiguration(info);
        broadphase = new btDbvtBroadphase();
        solver = new btSequentialImpulseConstraintSolver();
        if (use_satbox)
            dispatcher = satbox = new SatboxDispatcher(config);
        else
            dispatcher = new btCollisionDispatcher(config);
        world = new TimedWorld(dispatcher, broadphase, solver, config);
        if (satbox)
            satbox->set_objects(&world->getCollisionObjectArray());
        world->getSolverInfo().m_numIterations = kSolverIterations;
        world->setGravity(btVector3((btScalar)gravity[0], (btScalar)gravity[1], (btScalar)gravity[2]));
        for (size_t i = 0; i < count; i++)
            add_body(descs[i]);
    }

    World(const World &) = delete;
    World &operator=(const World &) = delete;

    ~World()
    {
        for (btRigidBody *body : bodies) {
            world->removeRigidBody(body);
            delete body;
        }
        for (btBoxShape *shape : shapes)
            delete shape;
        delete world;
        delete solver;
        delete broadphase;
        delete dispatcher;
        delete config;
    }

    void add_body(const ws_body &desc)
    {
        auto *shape = new btBoxShape(btVector3((btScalar)desc.half[0], (btScalar)desc.half[1], (btScalar)desc.half[2]));
        shapes.push_back(shape);
        const btScalar mass = desc.is_static ? 0 : (btScalar)(8.0 * desc.half[0] * desc.half[1] * desc.half[2]);
        btVector3 inertia(0, 0, 0);
        if (mass > 0)
            shape->calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
        info.m_startWorldTransform =
            btTransform(btQuaternion((btScalar)desc.quat[0], (btScalar)desc.quat[1], (btScalar)desc.quat[2],
                                     (btScalar)desc.quat[3]),
                        btVector3((btScalar)desc.position[0], (btScalar)desc.position[1], (btScalar)desc.position[2]));
        info.m_friction = kFriction;
        info.m_linearDamping = damping_ ? kLinearDamping : 0;
        info.m_angularDamping = damping_ ? kAngularDamping : 0;
        auto *body = new btRigidBody(info);
        bodies.push_back(body);
        world->addRigidBody(body);
    }

    bool damping_;

    // The state of every body (statics as they are: they never move).
    void states(std::vector<ws_state> &out) const
    {
        out.resize(bodies.size());
        for (size_t i = 0; i < bodies.size(); i++) {
            const btTransform &t = bodies[i]->getCenterOfMassTransform();
            btQuaternion q;
            t.getBasis().getRotation(q);
            const btVector3 &p = t.getOrigin(), &v = bodies[i]->getLinearVelocity(),
                            &w = bodies[i]->getAngularVelocity();
            ws_state &s = out[i];
            for (int c = 0; c < 3; c++) {
                s.position[c] = p[c];
                s.lin_vel[c] = v[c];
                s.ang_vel[c] = w[c];
            }
            s.quat[0] = q.x(), s.quat[1] = q.y(), s.quat[2] = q.z(), s.quat[3] = q.w();
        }
    }

    // Contact points the solver sees this step: points of manifolds with a body awake (a sleeping
    // island's manifolds keep their points but are neither tested nor solved).
    long active_points() const
    {
        long points = 0;
        for (int m = 0; m < dispatcher->getNumManifolds(); m++) {
            const btPersistentManifold *manifold = dispatcher->getManifoldByIndexInternal(m);
            if (manifold->getBody0()->isActive() || manifold->getBody1()->isActive())
                points += manifold->getNumContacts();
        }
        return points;
    }
};

struct Options {
    std::string scene = "pile";
    size_t n = 300;
    int steps = 600;
    uint64_t seed = 1;
    std::string narrow = "satbox";
    std::string isa; // empty: the library's choice (SATBOX_ISA honoured)
    float margin = satbox_margin_default();
    bool damping = false;
    bool phases = false; // print the satbox dispatch's phases to stderr
    int same_state = 0;  // > 0: then time both narrow phases on the end state (see same_state_dispatch)
};

// Runs one scene with one narrow phase and fills the report; `label` keeps the narrow phase's name
// ("bullet" or "satbox-<isa>") that the report points to. The drift is measured over the last 100
// steps (or all of them when there are fewer).
void run_world(const Options &opt, const ws_scene &scene, ws_report &report, std::string &label,
               std::vector<ws_state> *final_states = nullptr)
{
    const bool use_satbox = opt.narrow == "satbox";
    SatboxPairManifold::margin = opt.margin;
    label = use_satbox ? std::string("satbox-") + satbox_isa_name(satbox_isa_active()) : "bullet";
    World w(scene.bodies, scene.n_bodies, scene.gravity, use_satbox, opt.damping);
    const btScalar dt = (btScalar)scene.dt;
    const int drift_from = opt.steps > 100 ? opt.steps - 100 : 0;
    std::vector<ws_state> before, after;
    double step_seconds = 0;
    long points = 0;
    for (int s = 0; s < opt.steps; s++) {
        if (s == drift_from)
            w.states(before);
        const double t0 = clock_now();
        w.world->stepSimulation(dt, 0); // maxSubSteps 0: exactly one step of dt per call
        step_seconds += clock_now() - t0;
        points += w.active_points();
    }
    if (opt.steps == 0)
        w.states(before);
    w.states(after);
    const double per_step_ms = opt.steps > 0 ? 1e3 / opt.steps : 0;
    report = ws_report{};
    report.engine = "bullet";
    report.scene = scene.name;
    report.n = scene.n_dynamic;
    report.narrow = label.c_str();
    report.steps = opt.steps;
    report.broad_ms = w.world->broad_seconds * per_step_ms;
    report.narrow_ms = w.world->narrow_seconds * per_step_ms;
    // The satbox narrow phase's manifold fill (a part of narrow_ms); Bullet's own algorithm fills
    // its manifold point by point inside the detector, not separable: 0.
    report.joints_ms = w.satbox ? w.satbox->fill_seconds * per_step_ms : 0;
    report.solver_ms = w.world->solver_seconds * per_step_ms;
    report.step_ms = step_seconds * per_step_ms;
    report.points = opt.steps > 0 ? (double)points / opt.steps : 0;
    report.pairs = opt.steps > 0 ? (double)w.world->candidate_pairs / opt.steps : 0;
    if (opt.phases && w.satbox && opt.steps > 0) {
        const SatboxDispatcher &d = *w.satbox;
        std::fprintf(stderr,
                     "satbox dispatch, ms per step: pool refresh %.3f, pair gathering %.3f, satbox call %.3f, "
                     "manifold fill %.3f; pairs tested %.0f, hit %.0f per step\n",
                     d.refresh_seconds * per_step_ms, d.gather_seconds * per_step_ms, d.call_seconds * per_step_ms,
                     d.fill_seconds * per_step_ms, (double)d.tested_pairs / opt.steps, (double)d.hit_pairs / opt.steps);
    }
    report.max_pen = ws_max_penetration(&scene, after.data());
    report.ke = ws_kinetic_energy(&scene, after.data());
    report.drift = ws_drift(&scene, before.data(), after.data());
    report.lost = ws_lost(&scene, after.data());
    report.nan = ws_nan_count(&scene, after.data());
    report.hash = ws_state_hash(&scene, after.data());
    if (final_states)
        *final_states = after;
}

// ---------------------------------------------------------------------------------------------
// --check-signs: the border conventions, against hand-made expectations and Bullet's own algorithm.

int failures = 0;

void expect(bool ok, const char *what, const std::string &detail)
{
    if (!ok) {
        std::printf("FAIL %s: %s\n", what, detail.c_str());
        failures++;
    }
}

std::string fmt(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return text;
}

ws_body make_body(double x, double y, double z, const btQuaternion &q, double hx, double hy, double hz, int is_static)
{
    ws_body b{};
    b.position[0] = x, b.position[1] = y, b.position[2] = z;
    b.quat[0] = q.x(), b.quat[1] = q.y(), b.quat[2] = q.z(), b.quat[3] = q.w();
    b.half[0] = hx, b.half[1] = hy, b.half[2] = hz;
    b.is_static = is_static;
    return b;
}

// How far a world point is from the surface of a box body: max over the local axes of
// |local coordinate| - half extent (0 on the surface, < 0 inside, > 0 outside).
double surface_offset(const btRigidBody *body, const btVector3 &world_point)
{
    const btVector3 local = body->getWorldTransform().invXform(world_point);
    const btVector3 half = static_cast<const btBoxShape *>(body->getCollisionShape())->getHalfExtentsWithMargin();
    double offset = -1e30;
    for (int k = 0; k < 3; k++)
        offset = std::fmax(offset, std::fabs((double)local[k]) - (double)half[k]);
    return offset;
}

// Checks every point of the pair's manifold against Bullet's conventions and, when given, the
// expected normal on B and distance. Returns the number of points.
int check_manifold_points(const char *name, const World &w, const btVector3 *expect_normal_on_b,
                          double expect_distance, double tol)
{
    if (w.dispatcher->getNumManifolds() != 1) {
        expect(false, name, fmt("%d manifolds, expected 1", w.dispatcher->getNumManifolds()));
        return 0;
    }
    const btPersistentManifold *m = w.dispatcher->getManifoldByIndexInternal(0);
    expect(m->getBody0() == w.bodies[0] && m->getBody1() == w.bodies[1], name,
           "the manifold's body0/body1 are not the first/second body added");
    const btRigidBody *a = w.bodies[0], *b = w.bodies[1];
    const btVector3 a_to_b = b->getWorldTransform().getOrigin() - a->getWorldTransform().getOrigin();
    for (int k = 0; k < m->getNumContacts(); k++) {
        const btManifoldPoint &p = m->getContactPoint(k);
        const btVector3 &nb = p.m_normalWorldOnB;
        // Bullet: the normal on B points from B towards A, and A's point = B's point + nB * distance.
        expect(nb.dot(a_to_b) < 0, name, fmt("point %d: normal on B (%g %g %g) does not point from B to A", k,
                                             nb.x(), nb.y(), nb.z()));
        expect(std::fabs(nb.length() - 1) < 1e-5, name, fmt("point %d: normal not unit", k));
        const btVector3 gap = p.m_positionWorldOnA - p.m_positionWorldOnB - nb * p.m_distance1;
        expect(gap.length() < tol, name, fmt("point %d: positionWorldOnA - positionWorldOnB != nB * distance (off by %g)",
                                             k, (double)gap.length()));
        expect(std::fabs(surface_offset(a, p.m_positionWorldOnA)) < tol, name,
               fmt("point %d: positionWorldOnA is %g off A's surface", k, surface_offset(a, p.m_positionWorldOnA)));
        expect(std::fabs(surface_offset(b, p.m_positionWorldOnB)) < tol, name,
               fmt("point %d: positionWorldOnB is %g off B's surface", k, surface_offset(b, p.m_positionWorldOnB)));
        // The local anchors are the same points (Bullet's refresh and solver use both forms).
        const btVector3 da = a->getWorldTransform()(p.m_localPointA) - p.m_positionWorldOnA;
        const btVector3 db = b->getWorldTransform()(p.m_localPointB) - p.m_positionWorldOnB;
        expect(da.length() < tol && db.length() < tol, name, fmt("point %d: local anchors do not match", k));
        if (expect_normal_on_b) {
            expect((nb - *expect_normal_on_b).length() < 1e-3, name,
                   fmt("point %d: normal on B (%.4f %.4f %.4f), expected (%.4f %.4f %.4f)", k, nb.x(), nb.y(), nb.z(),
                       expect_normal_on_b->x(), expect_normal_on_b->y(), expect_normal_on_b->z()));
            expect(std::fabs(p.m_distance1 - expect_distance) < tol, name,
                   fmt("point %d: distance %.6f, expected %.6f", k, (double)p.m_distance1, expect_distance));
        }
    }
    return m->getNumContacts();
}

// One dispatch (no step) of a two-body world; both narrow phases must give the expected contact.
void check_pair_case(const char *name, const ws_body bodies[2], const btVector3 &normal_on_b, double distance,
                     int expect_points, int expect_axis_class)
{
    const double gravity[3] = {0, 0, -9.81};
    for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
        SatboxPairManifold::margin = 0.0f; // only the penetrating points: the expected count
        World w(bodies, 2, gravity, use_satbox);
        w.world->performDiscreteCollisionDetection();
        const std::string label = std::string(name) + (use_satbox ? " [satbox]" : " [bullet]");
        int points = check_manifold_points(label.c_str(), w, &normal_on_b, distance, 1e-4);
        expect(points == expect_points, label.c_str(), fmt("%d points, expected %d", points, expect_points));
        if (use_satbox) {
            // The axis class that produced them (0: A's face, 1: B's face, 2: edge-edge), read back
            // from the feature id's reference byte (A's faces 0-5, B's faces 6-11, edges 0x80+).
            const btPersistentManifold *m = w.dispatcher->getManifoldByIndexInternal(0);
            for (int k = 0; k < m->getNumContacts(); k++) {
                const uint32_t reference = (uint32_t)m->getContactPoint(k).m_index0 & 0xFFu;
                const int axis_class = reference >= 0x80 ? 2 : reference >= 6 ? 1 : 0;
                expect(axis_class == expect_axis_class, label.c_str(),
                       fmt("point %d: feature 0x%08x is of axis class %d, expected %d", k,
                           (unsigned)m->getContactPoint(k).m_index0, axis_class, expect_axis_class));
            }
        }
        std::printf("%s: %d points\n", label.c_str(), points);
    }
}

// A cube on the slab for `steps` steps: the points the solver used, their life times and impulses.
struct RestResult {
    int points = 0, min_life = 0;
    double impulse_sum = 0, z = 0;
    bool finite = true;
};

RestResult rest_cube(bool use_satbox, double start_z, int steps)
{
    const double gravity[3] = {0, 0, -9.81};
    const ws_body bodies[2] = {make_body(0, 0, -0.5, btQuaternion::getIdentity(), 3, 3, 0.5, 1),
                               make_body(0.1, -0.2, start_z, btQuaternion(btVector3(0, 0, 1), 0.3f), 0.5, 0.5, 0.5, 0)};
    SatboxPairManifold::margin = satbox_margin_default();
    World w(bodies, 2, gravity, use_satbox);
    for (int s = 0; s < steps; s++)
        w.world->stepSimulation((btScalar)(1.0 / 60.0), 0);
    RestResult r;
    r.z = w.bodies[1]->getCenterOfMassPosition().z();
    r.finite = std::isfinite(r.z);
    if (w.dispatcher->getNumManifolds() == 1) {
        const btPersistentManifold *m = w.dispatcher->getManifoldByIndexInternal(0);
        r.points = m->getNumContacts();
        r.min_life = 1 << 30;
        for (int k = 0; k < m->getNumContacts(); k++) {
            r.min_life = std::min(r.min_life, m->getContactPoint(k).getLifeTime());
            r.impulse_sum += m->getContactPoint(k).m_appliedImpulse;
        }
    }
    return r;
}

int check_signs()
{
    const btQuaternion identity = btQuaternion::getIdentity();
    // 1. A's face: a cube (B) sunk 0.01 into a static slab (A, added first) whose top is z = 0.
    //    satbox: reference = A's top face (ties go to A), the cube's 4 bottom corners.
    //    Normal on B from B (above) to A: -z; distance -0.01.
    {
        const ws_body bodies[2] = {make_body(0, 0, -0.5, identity, 3, 3, 0.5, 1),
                                   make_body(0.2, 0.1, 0.49, btQuaternion(btVector3(0, 0, 1), 0.3f), 0.5, 0.5, 0.5, 0)};
        check_pair_case("face of A (cube on slab)", bodies, btVector3(0, 0, -1), -0.01, 4, 0);
    }
    // 2. B's face: a cube standing on a corner (its diagonal vertical), 0.01 into the slab, the
    //    cube added first (A) and the slab second (B): B's face wins, the point is A's corner.
    //    Normal on B from B (below) to A: +z.
    {
        const btQuaternion corner_down(btVector3(1, -1, 0).normalized(), std::atan(std::sqrt(2.0f)));
        const double lowest = 0.5 * std::sqrt(3.0);
        const ws_body bodies[2] = {make_body(0.3, 0, lowest - 0.01, corner_down, 0.5, 0.5, 0.5, 0),
                                   make_body(0, 0, -0.5, identity, 3, 3, 0.5, 1)};
        check_pair_case("face of B (cube on its corner, slab second)", bodies, btVector3(0, 0, 1), -0.01, 1, 1);
    }
    // 3. Edge-edge: A turned 45 degrees about x (top edge along x at z = sqrt(1/2)), B above it
    //    turned 45 degrees about y (bottom edge along y), the edges crossing 0.01 deep.
    //    Normal on B from B (above) to A: -z.
    {
        const double reach = std::sqrt(0.5);
        const ws_body bodies[2] = {
            make_body(0, 0, 0, btQuaternion(btVector3(1, 0, 0), (btScalar)(M_PI / 4)), 0.5, 0.5, 0.5, 0),
            make_body(0, 0, 2 * reach - 0.01, btQuaternion(btVector3(0, 1, 0), (btScalar)(M_PI / 4)), 0.5, 0.5, 0.5, 0)};
        check_pair_case("edge-edge (crossed cubes)", bodies, btVector3(0, 0, -1), -0.01, 1, 2);
    }
    // 4. Random overlapping pairs: the conventions hold for every point, and satbox's deepest
    //    point agrees with Bullet's wherever the two pick the same normal.
    {
        tb_rng rng;
        tb_seed(&rng, 12345);
        const double gravity[3] = {0, 0, -9.81};
        int same_normal = 0, depth_agree = 0, compared = 0;
        for (int trial = 0; trial < 300; trial++) {
            ws_body bodies[2];
            for (int i = 0; i < 2; i++) {
                double q[4];
                tb_random_quat(&rng, q);
                bodies[i] = make_body(i ? tb_range(&rng, -0.6, 0.6) : 0, i ? tb_range(&rng, -0.6, 0.6) : 0,
                                      i ? tb_range(&rng, -0.6, 0.6) : 0, btQuaternion((btScalar)q[0], (btScalar)q[1], (btScalar)q[2], (btScalar)q[3]),
                                      tb_range(&rng, 0.1, 0.6), tb_range(&rng, 0.1, 0.6), tb_range(&rng, 0.1, 0.6), 0);
            }
            btVector3 normal[2];
            double deepest[2] = {0, 0};
            int points[2] = {0, 0};
            for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
                SatboxPairManifold::margin = 0.0f;
                World w(bodies, 2, gravity, use_satbox);
                w.world->performDiscreteCollisionDetection();
                const std::string label = fmt("random pair %d [%s]", trial, use_satbox ? "satbox" : "bullet");
                if (w.dispatcher->getNumManifolds() == 0)
                    continue; // AABBs apart
                // Bullet's detector is known to put a point off the surfaces at times (its clipping
                // in float); its points are checked for the normal's direction only.
                points[use_satbox] = check_manifold_points(label.c_str(), w, nullptr, 0, use_satbox ? 2e-4 : 1e9);
                const btPersistentManifold *m = w.dispatcher->getManifoldByIndexInternal(0);
                for (int k = 0; k < m->getNumContacts(); k++)
                    if (-m->getContactPoint(k).m_distance1 > deepest[use_satbox]) {
                        deepest[use_satbox] = -m->getContactPoint(k).m_distance1;
                        normal[use_satbox] = m->getContactPoint(k).m_normalWorldOnB;
                    }
            }
            if (points[0] > 0 && points[1] > 0) {
                compared++;
                if (normal[0].dot(normal[1]) > 0.999f) {
                    same_normal++;
                    depth_agree += std::fabs(deepest[0] - deepest[1]) < 1e-3;
                }
            }
        }
        std::printf("random pairs: %d with points from both, %d with the same normal, %d of those with the same "
                    "deepest depth (1e-3)\n", compared, same_normal, depth_agree);
        // A flipped sign would make every normal disagree; hysteresis and ties legitimately pick
        // another face now and then.
        expect(compared >= 100 && same_normal >= compared * 8 / 10, "random pairs",
               fmt("only %d of %d pairs have the same normal from both narrow phases", same_normal, compared));
        expect(depth_agree >= same_normal * 9 / 10, "random pairs",
               fmt("only %d of %d pairs with the same normal agree on the deepest depth", depth_agree, same_normal));
    }
    // 4b. Points live and die as Bullet's: a cube sunk 0.01 into the slab has its 4 points; lifted
    //     0.03 clear (past the breaking threshold, still a broad-phase pair: the AABBs are fattened
    //     by it on both sides) it has none; put back 0.01 above the slab (within the threshold, not
    //     touching) it has none either, since points are born touching.
    for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
        const double gravity[3] = {0, 0, -9.81};
        const ws_body bodies[2] = {make_body(0, 0, -0.5, identity, 3, 3, 0.5, 1),
                                   make_body(0.2, 0.1, 0.49, btQuaternion(btVector3(0, 0, 1), 0.3f), 0.5, 0.5, 0.5, 0)};
        SatboxPairManifold::margin = satbox_margin_default();
        World w(bodies, 2, gravity, use_satbox);
        const char *label = use_satbox ? "points' life [satbox]" : "points' life [bullet]";
        const double heights[3] = {0.49, 0.53, 0.51};
        const int expect_points[3] = {4, 0, 0};
        for (int k = 0; k < 3; k++) {
            btTransform t = w.bodies[1]->getWorldTransform();
            t.setOrigin(btVector3(0.2f, 0.1f, (btScalar)heights[k]));
            w.bodies[1]->setWorldTransform(t);
            w.world->performDiscreteCollisionDetection();
            const int pairs = w.world->getPairCache()->getNumOverlappingPairs();
            const int points = w.dispatcher->getNumManifolds() == 1
                                   ? w.dispatcher->getManifoldByIndexInternal(0)->getNumContacts() : -1;
            std::printf("%s: cube at z %.2f: %d broad-phase pair(s), %d points\n", label, heights[k], pairs, points);
            expect(pairs == 1 && points == expect_points[k], label,
                   fmt("cube at z %.2f: %d pair(s), %d points, expected 1 pair and %d points", heights[k], pairs,
                       points, expect_points[k]));
        }
    }
    // 5. Dynamics: a cube dropped from 1 m rests on the slab after 90 steps, its 4 points carry the
    //    weight, and (satbox) the ids matched from step to step: every point lived since landing.
    for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
        const RestResult r = rest_cube(use_satbox, 1.5, 90);
        const char *label = use_satbox ? "resting cube [satbox]" : "resting cube [bullet]";
        const double weight_impulse = 1.0 * 9.81 / 60.0; // m g dt of the unit cube (density 1)
        std::printf("%s: z %.5f, %d points, shortest life %d steps, impulse sum %.5f (m g dt %.5f)\n", label, r.z,
                    r.points, r.min_life, r.impulse_sum, weight_impulse);
        expect(r.finite && std::fabs(r.z - 0.5) < 0.005, label, fmt("cube center at z %.5f, expected 0.5", r.z));
        expect(r.points == 4, label, fmt("%d points, expected 4", r.points));
        expect(std::fabs(r.impulse_sum - weight_impulse) < 0.1 * weight_impulse, label,
               fmt("the points carry %.5f per step, the weight is %.5f", r.impulse_sum, weight_impulse));
        expect(r.min_life >= 30, label, fmt("a point lived only %d steps (ids not matched?)", r.min_life));
    }
    std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// --test: the world test. Per scene, 5 seeds (the pile 15) with Bullet's narrow phase and with satbox's:
//  - satbox's median max_pen and median drift at most 1.25x Bullet's (drift: or 1e-4 m, since a
//    scene that sleeps has drift 0 exactly and a ratio of zeros says nothing);
//  - no box lost and no NaN in a satbox run;
//  - on the pyramids, satbox's median points a step at most 1.05x Bullet's (the solver's work);
//  - the satbox run's final state hash is the same on every path this CPU has (the paths it lacks
//    are named as not compared, never counted as passed).

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int run_world_test()
{
    const double ratio_limit = 1.25, drift_floor = 1e-4;
    // Short runs (scale.h: tests/run's valgrind, sanitizer and qemu stages): 3 seeds, the same pyramids, a
    // small pile too short to rest, of which only the loss, NaN and hash checks count. The pyramids
    // once rested about 1.2x deeper than with Bullet's own points (a single pyramid of 55 cubes
    // 1.252x, two of them 1.198x over 5 seeds); measured again for issue 35, two of them 1.059x
    // both before and after points were born touching ("Which points live"), and the pile 1.181x
    // before, 1.076x after (that change also empties the manifold of a pair that stops touching:
    // before it, a pair's has_points was never set by the batch and its last points stayed).
    // The pile's final penetration is heavy-tailed from seed to seed (16 seeds of Bullet's own:
    // 1.7 to 5.7 mm; satbox's with only the edge point's rounding changed: 1.6 to 13.2 mm), and a
    // change of rounding alone moved its 5-seed median ratio from 0.85 to 1.23: the pile takes 15.
    const bool quick = test_short() != 0, tiny = test_tiny() != 0; // scale.h
    struct Case {
        const char *scene;
        size_t n;
        int steps;
        int hash_steps; // steps of the runs compared across the paths
        bool damping;
        bool quality; // the median ratios are checked (else printed)
        int seeds;
        double points_limit; // > 0: satbox's median points a step at most this times Bullet's own
    } cases[] = {{"pyramid", 110, 300, 300, false, !tiny, tiny ? 1 : quick ? 3 : 5, 1.05},
                 {"pile", quick ? 60u : 200u, quick ? 200 : 1800, quick ? 100 : 240, true, !quick, tiny ? 1 : quick ? 3 : 15,
                  0}};
    const int widest = satbox_isa_active();
    const unsigned supported = satbox_isa_supported();
    for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++)
        if (!(supported & (1u << isa)))
            std::printf("path %s: not supported by this CPU or build, not compared\n",
                        satbox_isa_name((satbox_isa)isa));
    for (const Case &c : cases) {
        std::vector<double> pen[2], drift[2], points[2];
        for (int seed = 1; seed <= c.seeds; seed++) {
            ws_scene scene;
            if (ws_scene_make(&scene, c.scene, c.n, (uint64_t)seed) != 0) {
                expect(false, c.scene, "no scene");
                continue;
            }
            Options opt;
            opt.scene = c.scene, opt.n = c.n, opt.steps = c.steps, opt.seed = (uint64_t)seed;
            opt.damping = c.damping;
            ws_report report;
            std::string label;
            for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
                opt.narrow = use_satbox ? "satbox" : "bullet";
                satbox_isa_force((satbox_isa)widest);
                run_world(opt, scene, report, label);
                ws_print_report(stdout, &report);
                pen[use_satbox].push_back(report.max_pen);
                points[use_satbox].push_back(report.points);
                drift[use_satbox].push_back(report.drift);
                if (use_satbox)
                    expect(report.lost == 0 && report.nan == 0 && report.max_pen >= 0, label.c_str(),
                           fmt("%s seed %d: %zu lost, %zu NaN, max_pen %g", c.scene, seed, report.lost, report.nan,
                               report.max_pen));
            }
            // The same run on every other path: the same final state, bit for bit. The pile's runs
            // are cut to its first seconds (the boxes fall, collide and pack: every kind of contact).
            uint64_t reference_hash = report.hash;
            if (c.hash_steps != c.steps) {
                opt.steps = c.hash_steps;
                run_world(opt, scene, report, label);
                reference_hash = report.hash;
            }
            for (int isa = 0; isa < SATBOX_ISA_COUNT; isa++) {
                if (isa == widest || !(supported & (1u << isa)))
                    continue;
                satbox_isa_force((satbox_isa)isa);
                ws_report other;
                std::string other_label;
                run_world(opt, scene, other, other_label);
                expect(other.hash == reference_hash, other_label.c_str(),
                       fmt("%s seed %d, %d steps: final state hash %016" PRIx64 " differs from %s's %016" PRIx64,
                           c.scene, seed, opt.steps, other.hash, label.c_str(), reference_hash));
                std::printf("%s seed %d, %d steps: %s hash %016" PRIx64 " %s %s\n", c.scene, seed, opt.steps,
                            other_label.c_str(), other.hash, other.hash == reference_hash ? "==" : "!=", label.c_str());
            }
            satbox_isa_force((satbox_isa)widest);
            ws_scene_free(&scene);
        }
        const double pen_bullet = median(pen[0]), pen_satbox = median(pen[1]);
        const double drift_bullet = median(drift[0]), drift_satbox = median(drift[1]);
        const bool pen_ok = pen_satbox <= ratio_limit * pen_bullet;
        const bool drift_ok = drift_satbox <= std::fmax(ratio_limit * drift_bullet, drift_floor);
        std::printf("%s %s n=%zu, %d seeds: median max_pen bullet %.4g satbox %.4g (%.3fx, limit %.2fx); median "
                    "drift bullet %.4g satbox %.4g (limit max(%.2fx, %g m))\n",
                    !c.quality ? "info" : pen_ok && drift_ok ? "ok  " : "FAIL", c.scene, c.n, c.seeds, pen_bullet,
                    pen_satbox, pen_bullet > 0 ? pen_satbox / pen_bullet : 0.0, ratio_limit, drift_bullet,
                    drift_satbox, ratio_limit, drift_floor);
        if (c.quality)
            failures += !pen_ok + !drift_ok;
        // The solver's work: on resting pyramids both narrow phases should hand it the same points
        // (the side neighbours, 0.01 m apart, never touch; see "Which points live").
        const double points_bullet = median(points[0]), points_satbox = median(points[1]);
        if (c.points_limit > 0) {
            const bool points_ok = points_satbox <= c.points_limit * points_bullet;
            std::printf("%s %s n=%zu: median points a step bullet %.1f satbox %.1f (%.3fx, limit %.2fx)\n",
                        points_ok ? "ok  " : "FAIL", c.scene, c.n, points_bullet, points_satbox,
                        points_bullet > 0 ? points_satbox / points_bullet : 0.0, c.points_limit);
            failures += !points_ok;
        }
    }
    std::printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}

int usage(const char *why)
{
    if (why)
        std::fprintf(stderr, "world_bullet: %s\n", why);
    std::fprintf(stderr,
                 "usage: world_bullet [--scene pile|pyramid] [--n N] [--steps S] [--seed K]\n"
                 "                    [--narrow bullet|satbox] [--isa NAME] [--margin M] [--damping]\n"
                 "                    [--phases] [--json] [--same-state R] [--cpu-time]\n"
                 "       world_bullet --check-signs | --test\n");
    return 2;
}

// Forces a satbox path by name: 0, 2 for an unknown name, 77 (skip) when this CPU lacks it.
int force_isa(const std::string &name)
{
    const int isa = satbox_isa_from_name(name.c_str());
    if (isa < 0) {
        std::fprintf(stderr, "world_bullet: unknown ISA '%s'\n", name.c_str());
        return 2;
    }
    if (satbox_isa_force((satbox_isa)isa) != SATBOX_OK) {
        std::fprintf(stderr, "world_bullet: ISA '%s' is not supported here\n", name.c_str());
        return 77;
    }
    return 0;
}

// --same-state R: both narrow phases on one state, the run's end state (so that they see the same
// pairs, which two runs' diverging trajectories do not): two fresh worlds (every body awake) dispatch
// it R + 1 times; the first dispatch, which creates the algorithms and manifolds, is left out.
// Prints one `DISPATCH {json}` line per narrow phase (ms per dispatch, pairs tested, points).
void same_state_dispatch(const Options &opt, const ws_scene &scene, const std::vector<ws_state> &states)
{
    std::vector<ws_body> bodies(scene.bodies, scene.bodies + scene.n_bodies);
    for (size_t i = 0; i < bodies.size(); i++) {
        for (int c = 0; c < 3; c++)
            bodies[i].position[c] = states[i].position[c];
        for (int c = 0; c < 4; c++)
            bodies[i].quat[c] = states[i].quat[c];
    }
    for (int use_satbox = 0; use_satbox < 2; use_satbox++) {
        SatboxPairManifold::margin = opt.margin;
        World w(bodies.data(), bodies.size(), scene.gravity, use_satbox, opt.damping);
        w.world->performDiscreteCollisionDetection();
        const double narrow0 = w.world->narrow_seconds;
        for (int r = 0; r < opt.same_state; r++)
            w.world->performDiscreteCollisionDetection();
        const double ms = opt.same_state > 0 ? (w.world->narrow_seconds - narrow0) * 1e3 / opt.same_state : 0;
        const std::string label =
            use_satbox ? std::string("satbox-") + satbox_isa_name(satbox_isa_active()) : "bullet";
        std::printf("DISPATCH {\"engine\":\"bullet\",\"scene\":\"%s\",\"n\":%zu,\"narrow\":\"%s\",\"after_steps\":%d,"
                    "\"repeats\":%d,\"narrow_ms\":%.6g,\"pairs\":%d,\"points\":%ld}\n",
                    scene.name, scene.n_dynamic, label.c_str(), opt.steps, opt.same_state, ms,
                    w.world->getPairCache()->getNumOverlappingPairs(), w.active_points());
    }
}

int run_once(const Options &opt)
{
    if (!opt.isa.empty()) {
        const int rc = force_isa(opt.isa);
        if (rc)
            return rc;
    }
    ws_scene scene;
    if (ws_scene_make(&scene, opt.scene.c_str(), opt.n, opt.seed) != 0)
        return usage("unknown scene (or out of memory)");
    ws_report report;
    std::string label;
    std::vector<ws_state> final_states;
    run_world(opt, scene, report, label, &final_states);
    ws_print_report(stdout, &report);
    if (opt.same_state > 0)
        same_state_dispatch(opt, scene, final_states);
    ws_scene_free(&scene);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--check-signs")
            return check_signs();
        if (arg == "--test")
            return run_world_test();
        if (arg == "-h" || arg == "--help")
            return usage(nullptr), 0;
        if (arg == "--damping") {
            opt.damping = true;
            continue;
        }
        if (arg == "--phases") {
            opt.phases = true;
            continue;
        }
        if (arg == "--cpu-time") {
            clock_now = ws_thread_cpu_now;
            continue;
        }
        if (arg == "--json")
            continue; // the WORLD line is all this program prints (accepted for bench/engines.py)
        if (!has_value)
            return usage(("unknown option or missing value: " + arg).c_str());
        const char *value = argv[++i];
        if (arg == "--scene")
            opt.scene = value;
        else if (arg == "--n")
            opt.n = std::strtoull(value, nullptr, 10);
        else if (arg == "--steps")
            opt.steps = std::atoi(value);
        else if (arg == "--seed")
            opt.seed = std::strtoull(value, nullptr, 10);
        else if (arg == "--narrow")
            opt.narrow = value;
        else if (arg == "--isa")
            opt.isa = value;
        else if (arg == "--same-state")
            opt.same_state = std::atoi(value);
        else if (arg == "--margin")
            opt.margin = std::strtof(value, nullptr);
        else
            return usage(("unknown option " + arg).c_str());
    }
    if (opt.narrow != "bullet" && opt.narrow != "satbox")
        return usage("--narrow is bullet or satbox");
    if (opt.steps < 0)
        return usage("--steps must be >= 0");
    if (!(opt.margin >= 0) || !std::isfinite(opt.margin))
        return usage("--margin must be a finite number >= 0");
    return run_once(opt);
}

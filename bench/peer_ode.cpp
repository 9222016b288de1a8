// peer_ode.cpp - ODE (Debian's libode-dev, double precision): dCollide on two box geoms, for contacts and as an overlap test.
// SPDX-License-Identifier: MIT
//
// Each box is a geom of no space (dCreateBox takes full side lengths) placed once with
// dGeomSetPosition / dGeomSetRotation, as an engine keeps them. dCollide then runs ODE's box-box
// collider: "contacts" asks for up to 4 contact points, "overlap" for one (the way ODE is used
// as a yes/no test). A pair hits when dCollide returns at least one contact.
#include <ode/ode.h>
#include <ode/version.h>

#include <mutex>

#include "peers.h"

extern "C" {
#include "support.h"
}

namespace sbb {

namespace {

struct OdeBatch : PeerBatch {
    std::vector<dGeomID> a, b;
    ~OdeBatch() override
    {
        for (dGeomID g : a)
            dGeomDestroy(g);
        for (dGeomID g : b)
            dGeomDestroy(g);
    }
};

dGeomID geom_of(const satbox_boxes &v, size_t i)
{
    satbox_box box;
    tb_box_from(&v, i, &box);
    dGeomID g = dCreateBox(nullptr, 2 * (dReal)box.half[0], 2 * (dReal)box.half[1], 2 * (dReal)box.half[2]);
    dGeomSetPosition(g, box.center[0], box.center[1], box.center[2]);
    dMatrix3 R; // rows of 4 (the 4th unused): R[4 * row + col], column k = local axis k
    for (int c = 0; c < 3; c++) {
        for (int k = 0; k < 3; k++)
            R[4 * c + k] = box.axis[k][c];
        R[4 * c + 3] = 0;
    }
    dGeomSetRotation(g, R);
    return g;
}

std::unique_ptr<PeerBatch> convert(const satbox_boxes &a, const satbox_boxes &b, size_t n)
{
    static std::once_flag once;
    std::call_once(once, [] { dInitODE2(0); });
    return convert_each<OdeBatch>(a, b, n, geom_of);
}

template <int MaxContacts> size_t run(const PeerBatch &batch, size_t first, size_t n, uint8_t *hit)
{
    const auto &p = static_cast<const OdeBatch &>(batch);
    dContactGeom contact[MaxContacts];
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        bool h = dCollide(p.a[first + i], p.b[first + i], MaxContacts, contact, sizeof(dContactGeom)) > 0;
        hit[i] = (uint8_t)h;
        count += h;
    }
    return count;
}

} // namespace

void add_ode_peers(std::vector<Peer> &out)
{
    out.push_back({"ode", "contacts", "ODE " dODE_VERSION " dCollide, box geoms, up to 4 contacts (double)", convert, run<4>});
    out.push_back({"ode", "overlap", "ODE " dODE_VERSION " dCollide, box geoms, flags = 1 contact (double)", convert, run<1>});
}

} // namespace sbb

// peers.cpp - the list of peer libraries this build links (SBB_PEER_* set by bench/meson.build).
// SPDX-License-Identifier: MIT
#include "peers.h"

namespace sbb {

const std::vector<Peer> &peers()
{
    static const std::vector<Peer> list = [] {
        std::vector<Peer> v;
#ifdef SBB_PEER_FCL
        add_fcl_peers(v);
#endif
#ifdef SBB_PEER_BULLET
        add_bullet_peers(v);
#endif
#ifdef SBB_PEER_ODE
        add_ode_peers(v);
#endif
#ifdef SBB_PEER_CCD
        add_ccd_peers(v);
#endif
        return v;
    }();
    return list;
}

const std::vector<std::string> &peers_left_out()
{
    static const std::vector<std::string> list = [] {
        std::vector<std::string> v;
#ifndef SBB_PEER_FCL
        v.push_back("FCL (libfcl-dev) not found or disabled at configure time: left out");
#endif
#ifndef SBB_PEER_BULLET
        v.push_back("Bullet (libbullet-dev) not found or disabled at configure time: left out");
#endif
#ifndef SBB_PEER_ODE
        v.push_back("ODE (libode-dev) not found or disabled at configure time: left out");
#endif
#ifndef SBB_PEER_CCD
        v.push_back("libccd (libccd-dev) not found or disabled at configure time: left out");
#endif
#ifndef SATBOX_HAVE_BOX2D // the 2D peer (bench_2d.cpp); satbox_bench's own flag
        v.push_back("Box2D (libbox2d-dev) not found at configure time: left out of the 2D table");
#endif
        return v;
    }();
    return list;
}

} // namespace sbb

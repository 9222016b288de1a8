// peer_fcl.cpp - FCL (Debian's libfcl-dev): the OBB-OBB overlap test fcl::OBB<S>::overlap, in float and in double.
// SPDX-License-Identifier: MIT
//
// fcl::OBB holds the axes as the columns of a 3x3 matrix, the center (To) and the half extents
// (extent); overlap() forms R = A^T B and t in A's frame and runs FCL's early-exit 15-axis test
// (obbDisjoint, |R| + 1e-6). OBB<double> is compiled into libfcl (Debian's build); OBB<float> is
// instantiated here from FCL's headers, with this build's flags.
#include <fcl/config.h>
#include <fcl/math/bv/OBB.h>

#include "peers.h"

extern "C" {
#include "support.h"
}

namespace sbb {

namespace {

template <class S> struct FclBatch : PeerBatch {
    std::vector<fcl::OBB<S>> a, b;
};

template <class S> fcl::OBB<S> obb_of(const satbox_boxes &v, size_t i)
{
    satbox_box box;
    tb_box_from(&v, i, &box);
    fcl::OBB<S> o;
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            o.axis(c, k) = (S)box.axis[k][c]; // column k = local axis k in world coordinates
    for (int c = 0; c < 3; c++) {
        o.To[c] = (S)box.center[c];
        o.extent[c] = (S)box.half[c];
    }
    return o;
}

template <class S> std::unique_ptr<PeerBatch> convert(const satbox_boxes &a, const satbox_boxes &b, size_t n)
{
    return convert_each<FclBatch<S>>(a, b, n, obb_of<S>);
}

template <class S> size_t run(const PeerBatch &batch, size_t first, size_t n, uint8_t *hit)
{
    const auto &p = static_cast<const FclBatch<S> &>(batch);
    const fcl::OBB<S> *a = p.a.data() + first, *b = p.b.data() + first;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        bool h = a[i].overlap(b[i]);
        hit[i] = (uint8_t)h;
        count += h;
    }
    return count;
}

} // namespace

void add_fcl_peers(std::vector<Peer> &out)
{
    out.push_back({"fcl_float", "overlap", "FCL " FCL_VERSION " fcl::OBB<float>::overlap (instantiated from FCL's headers)",
                   convert<float>, run<float>});
    out.push_back({"fcl_double", "overlap", "FCL " FCL_VERSION " fcl::OBB<double>::overlap (compiled in libfcl)",
                   convert<double>, run<double>});
}

} // namespace sbb

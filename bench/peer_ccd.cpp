// peer_ccd.cpp - libccd (Debian's libccd-dev, double; the GJK/MPR library under FCL and ODE): boxes given by a support function.
// SPDX-License-Identifier: MIT
//
// libccd tests any two convex shapes given by their support functions (the farthest point in a
// direction): ccdGJKIntersect runs GJK, ccdMPRIntersect Minkowski portal refinement (MPR also
// needs a center). The support function of a box is ours: c + sum_k sign(d . u_k) h_k u_k.
// Library defaults otherwise (CCD_INIT: tolerance 1e-4 for MPR), but for the iterations: CCD_INIT
// leaves them unlimited, and GJK never returned on some pair of the 1Mi-pair pool; we stop at
// kMaxIterations (what an engine must do too), after which libccd answers "no intersection".
#include <ccd/ccd.h>

#include "peers.h"

extern "C" {
#include "support.h"
}

namespace sbb {

namespace {

constexpr unsigned long kMaxIterations = 1000;

struct CcdBox {
    double c[3], h[3], u[3][3]; // center, half extents, axes (world unit vectors)
};

struct CcdBatch : PeerBatch {
    std::vector<CcdBox> a, b;
};

void box_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const CcdBox &b = *static_cast<const CcdBox *>(obj);
    for (int c = 0; c < 3; c++)
        out->v[c] = b.c[c];
    for (int k = 0; k < 3; k++) {
        double d = b.u[k][0] * dir->v[0] + b.u[k][1] * dir->v[1] + b.u[k][2] * dir->v[2];
        double s = d >= 0 ? b.h[k] : -b.h[k];
        for (int c = 0; c < 3; c++)
            out->v[c] += s * b.u[k][c];
    }
}

void box_center(const void *obj, ccd_vec3_t *out)
{
    const CcdBox &b = *static_cast<const CcdBox *>(obj);
    for (int c = 0; c < 3; c++)
        out->v[c] = b.c[c];
}

CcdBox box_of(const satbox_boxes &v, size_t i)
{
    satbox_box box;
    tb_box_from(&v, i, &box);
    CcdBox o;
    for (int c = 0; c < 3; c++) {
        o.c[c] = box.center[c];
        o.h[c] = box.half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            o.u[k][c] = box.axis[k][c];
    return o;
}

std::unique_ptr<PeerBatch> convert(const satbox_boxes &a, const satbox_boxes &b, size_t n)
{
    return convert_each<CcdBatch>(a, b, n, box_of);
}

template <bool Mpr> size_t run(const PeerBatch &batch, size_t first, size_t n, uint8_t *hit)
{
    const auto &p = static_cast<const CcdBatch &>(batch);
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = box_support;
    ccd.support2 = box_support;
    ccd.center1 = box_center;
    ccd.center2 = box_center;
    ccd.max_iterations = kMaxIterations;
    size_t count = 0;
    for (size_t i = first; i < first + n; i++) {
        bool h = Mpr ? ccdMPRIntersect(&p.a[i], &p.b[i], &ccd) : ccdGJKIntersect(&p.a[i], &p.b[i], &ccd);
        hit[i - first] = (uint8_t)h;
        count += h;
    }
    return count;
}

} // namespace

void add_ccd_peers(std::vector<Peer> &out)
{
    out.push_back({"ccd_gjk", "overlap", "libccd 2.0 ccdGJKIntersect, box support function (double)", convert, run<false>});
    out.push_back({"ccd_mpr", "overlap", "libccd 2.0 ccdMPRIntersect, box support function (double)", convert, run<true>});
}

} // namespace sbb

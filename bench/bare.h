// bare.h - the bare kernels (no validity test, no near-parallel rule; bench only) by path.
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BENCH_BARE_H
#define SATBOX_BENCH_BARE_H

extern "C" {
#include "box3d/contacts.h"
#include "box3d/box3d.h"
#include "core/variants.h" // sbx_twin_for(isa, SBX_TWIN_BARE): a SIMD path's bare table, or null
}

namespace sbb {

// One call of the bare kernel of the active path on a[i] vs b[i], like satbox_overlap (collide
// false; hit may be null) or satbox_collide with margin 0 (res's arrays, bad ignored).
// Returns the count, or -1 when the active path has no bare kernel.
ptrdiff_t bare_call(bool collide, const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit,
                    const satbox_result *res);

// One call of the contacts kernel of bare table k (no manifold at all: the floor under one) on
// a[i] vs b[i], like satbox_contacts with no argument checks (every array of out written: hit, axis
// and normal as satbox_contacts; the manifold's arrays hold placeholders, zero points, not contacts).
ptrdiff_t bare_contacts_call(const sbx_path *k, const satbox_boxes *a, const satbox_boxes *b, size_t n,
                             float margin, const satbox_contacts_out *out);

} // namespace sbb

#endif

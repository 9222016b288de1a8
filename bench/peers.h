// peers.h - the peer libraries run beside satbox (FCL, Bullet, ODE, libccd from Debian's packages), one adapter file each.
/* SPDX-License-Identifier: MIT */
//
// A peer converts a batch of pairs into its own types once (outside any timed region), then tests
// any range of that batch one pair at a time, writing 1 (overlap / contacts) or 0 per pair as
// satbox does. Adapters are compiled only when Meson found the library (bench/meson.build); the
// list below then holds what this build links, and left_out() says what it does not.
#ifndef SATBOX_BENCH_PEERS_H
#define SATBOX_BENCH_PEERS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "satbox/satbox.h"
}

namespace sbb {

// A peer's own copy of pairs [0, n) of a batch (its objects, in its precision).
struct PeerBatch {
    virtual ~PeerBatch() = default;
    size_t n = 0;
};

struct Peer {
    const char *name;  // path part of the benchmark names: overlap/<name>/<workload>/<pairs>
    const char *entry; // "overlap" (a yes/no test) or "contacts" (a contact generator)
    const char *what;  // library, version and call, printed by the suite
    // Converts pairs [0, n) of (a, b). Peers with the same convert function share one batch.
    std::unique_ptr<PeerBatch> (*convert)(const satbox_boxes &a, const satbox_boxes &b, size_t n);
    // Tests pairs [first, first + n) of `batch`: hit[i] = 1 when pair first + i overlaps (for a
    // contact generator: when it returns at least one contact), else 0. Returns the hits.
    size_t (*run)(const PeerBatch &batch, size_t first, size_t n, uint8_t *hit);
};

// The usual conversion: a batch with vectors `a` and `b` of the peer's objects, one(view, i)
// building the object of box i of a view.
template <class Batch, class One>
std::unique_ptr<PeerBatch> convert_each(const satbox_boxes &a, const satbox_boxes &b, size_t n, One one)
{
    auto out = std::make_unique<Batch>();
    out->n = n;
    out->a.reserve(n);
    out->b.reserve(n);
    for (size_t i = 0; i < n; i++) {
        out->a.push_back(one(a, i));
        out->b.push_back(one(b, i));
    }
    return out;
}

// The peers linked into this build, in a fixed order.
const std::vector<Peer> &peers();
// One line per peer library left out at configure time ("ODE: libode-dev not found").
const std::vector<std::string> &peers_left_out();

// Adders, one per adapter file (called by peers() when the file is compiled in).
void add_fcl_peers(std::vector<Peer> &out);
void add_bullet_peers(std::vector<Peer> &out);
void add_ode_peers(std::vector<Peer> &out);
void add_ccd_peers(std::vector<Peer> &out);

} // namespace sbb

#endif

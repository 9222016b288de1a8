// bench_pool.cpp - index pairs into a pool far larger than the caches: sweep order against random slots, records against SoA.
// SPDX-License-Identifier: MIT
//
// Names: pool/<entry>/<path>/<order>/<boxes>, entry overlap_pairs_rec, overlap_pairs or
// overlap_pairs_qrec (48-byte quaternion records, axes built in the kernel), order
// "sweep" (a box's candidates are its neighbours in memory, as a sort-and-sweep emits them) or
// "random" (the same boxes and pairs with every box moved to a random slot: each pair reads two
// unrelated cache lines). Both orders test the same pairs, so their ratio is the cost of memory
// order alone. The pool holds 2.6M boxes (166 MB of records, 156 MB of SoA, 125 MB of quaternion records): it lives in DRAM.
#include <benchmark/benchmark.h>

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "counters.h"
#include "workloads.h"

using namespace sbb;

namespace {

constexpr size_t kBoxes = 2600000, kWindow = 4096;

// Record pools on 2 MiB pages where the kernel allows it (madvise): a random slot then costs a
// cache miss, not also a page walk, as in an engine that allocates its pools that way.
struct RecPool {
    satbox_rec *p = nullptr;
    void alloc(size_t n)
    {
        size_t bytes = (n * sizeof(satbox_rec) + (2u << 20) - 1) / (2u << 20) * (2u << 20);
        p = static_cast<satbox_rec *>(std::aligned_alloc(2u << 20, bytes));
#if defined(MADV_HUGEPAGE)
        if (p)
            madvise(p, bytes, MADV_HUGEPAGE);
#endif
    }
    satbox_rec *data() const { return p; }
};

struct Pool {
    RecPool rec;
    std::vector<satbox_qrec> qrec;
    Fields soa;
    std::vector<satbox_pair> pairs;
};

// order 0: sweep, 1: random slots. Built once (both orders share the boxes and the pair list).
const Pool &pool_of(int order)
{
    static Pool pools[2];
    static bool built = false;
    if (!built) {
        built = true;
        note("pool benchmark: %zu boxes, building sweep and random-slot layouts\n", kBoxes);
        tb_rng rng;
        tb_seed(&rng, 777);
        std::vector<satbox_box> boxes(kBoxes);
        std::vector<std::array<float, 4>> quat(kBoxes);
        // Boxes along a line, each overlapping about half of its next neighbours: the pairs
        // (i, i+1) and (i, i+2) are ~1.5 candidates a box, like a broad phase's output.
        for (size_t i = 0; i < kBoxes; i++) {
            satbox_box &b = boxes[i];
            for (int c = 0; c < 4; c++) // a random rotation as engines store it: a quaternion
                quat[i][c] = (float)tb_normal(&rng);
            float *q[4] = {&quat[i][0], &quat[i][1], &quat[i][2], &quat[i][3]}, *ax[3][3];
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    ax[k][c] = &b.axis[k][c];
            satbox_axes_from_quat(q, 1, ax);
            for (int c = 0; c < 3; c++)
                b.half[c] = (float)tb_range(&rng, 0.2, 0.6);
            b.center[0] = 0.8f * (float)i;
            b.center[1] = (float)tb_range(&rng, -0.5, 0.5);
            b.center[2] = (float)tb_range(&rng, -0.5, 0.5);
        }
        std::vector<satbox_pair> pairs;
        pairs.reserve(kBoxes * 3 / 2);
        for (size_t i = 0; i + 2 < kBoxes; i++) {
            pairs.push_back({(uint32_t)i, (uint32_t)(i + 1)});
            if (i % 2 == 0)
                pairs.push_back({(uint32_t)i, (uint32_t)(i + 2)});
        }
        std::vector<uint32_t> slot(kBoxes);
        for (size_t i = 0; i < kBoxes; i++)
            slot[i] = (uint32_t)i;
        for (size_t i = kBoxes - 1; i > 0; i--)
            std::swap(slot[i], slot[tb_next(&rng) % (i + 1)]);
        for (int o = 0; o < 2; o++) {
            Pool &p = pools[o];
            p.rec.alloc(kBoxes);
            std::vector<satbox_box> placed(kBoxes);
            p.qrec.resize(kBoxes);
            for (size_t i = 0; i < kBoxes; i++) {
                size_t at = o ? slot[i] : i;
                placed[at] = boxes[i];
                satbox_qrec &r = p.qrec[at];
                for (int c = 0; c < 3; c++) {
                    r.center[c] = boxes[i].center[c];
                    r.half[c] = boxes[i].half[c];
                }
                for (int c = 0; c < 4; c++)
                    r.quat[c] = quat[i][c];
                r.pad[0] = r.pad[1] = 0.0f;
            }
            Fields f;
            for (auto &v : f.f)
                v.resize(kBoxes);
            for (size_t i = 0; i < kBoxes; i++) {
                const satbox_box &b = placed[i];
                for (int c = 0; c < 3; c++) {
                    f.f[c][i] = b.center[c];
                    f.f[3 + c][i] = b.half[c];
                }
                for (int k = 0; k < 9; k++)
                    f.f[6 + k][i] = b.axis[k / 3][k % 3];
            }
            p.soa = std::move(f);
            satbox_boxes v = view(p.soa, 0);
            satbox_pack_rec(&v, kBoxes, p.rec.data());
            p.pairs.resize(pairs.size());
            for (size_t q = 0; q < pairs.size(); q++)
                p.pairs[q] = o ? satbox_pair{slot[pairs[q].a], slot[pairs[q].b]} : pairs[q];
        }
    }
    return pools[order];
}

enum PoolEntry { REC, SOA, QREC };
const char *const kPoolName[] = {"overlap_pairs_rec", "overlap_pairs", "overlap_pairs_qrec"};

void run_pool(benchmark::State &st, PoolEntry e, satbox_isa isa, int order)
{
    if (satbox_isa_force(isa) != SATBOX_OK) {
        st.SkipWithError("path not available");
        return;
    }
    const Pool &p = pool_of(order);
    const size_t windows = p.pairs.size() / kWindow;
    std::vector<uint32_t> out(kWindow);
    satbox_boxes v = view(p.soa, 0);
    size_t w = 0;
    double hits = 0;
    for (auto _ : st) {
        const satbox_pair *pairs = p.pairs.data() + w * kWindow;
        ptrdiff_t r = e == REC    ? satbox_overlap_pairs_rec(p.rec.data(), kBoxes, pairs, kWindow, nullptr, out.data(), nullptr)
                      : e == QREC ? satbox_overlap_pairs_qrec(p.qrec.data(), kBoxes, pairs, kWindow, nullptr, out.data(), nullptr)
                                  : satbox_overlap_pairs(&v, kBoxes, pairs, kWindow, nullptr, out.data(), nullptr);
        benchmark::DoNotOptimize(r);
        hits += (double)r;
        if (++w == windows)
            w = 0;
    }
    pair_counters(st, (double)kWindow, hits);
}

const int registered = [] {
    for (PoolEntry e : {REC, SOA, QREC})
        for (int i : present_paths()) {
            satbox_isa isa = (satbox_isa)i;
            for (int order = 0; order < 2; order++) {
                std::string name = std::string("pool/") + kPoolName[e] + "/" + satbox_isa_name(isa) + "/" +
                                   (order ? "random" : "sweep") + "/" + std::to_string(kBoxes);
                benchmark::RegisterBenchmark(name.c_str(), run_pool, e, isa, order);
            }
        }
    return 0;
}();

} // namespace

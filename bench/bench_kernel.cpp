// bench_kernel.cpp - the bare kernels (no validity test, no near-parallel rule; built for the benchmarks only) beside satbox_overlap/collide.
// SPDX-License-Identifier: MIT
//
// Names: overlap_bare/<path>/<workload>/<pairs>, collide_bare/<path>/<workload>/<pairs>; the same
// pools, windows and counters as overlap/<path>/... in bench_main.cpp, so the two compare as a
// ratio inside one run (what the safety costs). Paths the CPU lacks are not registered.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bare.h"
#include "counters.h"
#include "workloads.h"

using namespace sbb;

namespace {

void run_bare(benchmark::State &st, const sbx_path *k, bool collide, Work w, size_t n)
{
    const size_t K = pool_pairs_for(n) / n;
    const PairPool &p = pair_pool(w, K * n, false);
    std::vector<satbox_boxes> va(K), vb(K);
    for (size_t i = 0; i < K; i++) {
        va[i] = view(p.a, i * n);
        vb[i] = view(p.b, i * n);
    }
    std::vector<uint8_t> hit(n), axis(n);
    std::vector<float> sep(n), nx(n), ny(n), nz(n);
    sbx_job job = {};
    job.src = SBX_SRC_MAT;
    job.n = n;
    job.hit = hit.data();
    if (collide) {
        job.separation = sep.data();
        job.normal[0] = nx.data();
        job.normal[1] = ny.data();
        job.normal[2] = nz.data();
        job.axis = axis.data();
    }
    double hits = 0;
    size_t win = 0;
    for (auto _ : st) {
        job.ma = &va[win];
        job.mb = &vb[win];
        ptrdiff_t r = collide ? k->collide(&job) : k->overlap(&job);
        benchmark::DoNotOptimize(r);
        hits += (double)r;
        if (++win == K)
            win = 0;
    }
    pair_counters(st, (double)n, hits);
    st.counters["lanes"] = k->width;
}

const int registered = [] {
    for (int path : present_paths()) {
        const sbx_path *k = sbx_twin_for((satbox_isa)path, SBX_TWIN_BARE);
        if (!k)
            continue;
        for (int c = 0; c < 2; c++)
            for (Work w : {UNIFORM50, STACKED}) {
                std::string name = std::string(c ? "collide_bare/" : "overlap_bare/") +
                                   satbox_isa_name((satbox_isa)path) + "/" + work_name(w) + "/4096";
                benchmark::RegisterBenchmark(name.c_str(), run_bare, k, c == 1, w, (size_t)4096);
            }
    }
    return 0;
}();

} // namespace

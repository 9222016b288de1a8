// bench_main.cpp - satbox's Google Benchmark suite: ISA paths x entry points x batch sizes x workloads, baselines, roofline probes.
// SPDX-License-Identifier: MIT
//
// Benchmark names: <entry>/<path>/<workload>/<pairs>, e.g. overlap/avx512/uniform50/4096 (workload
// "hot": the uniform50 4Ki window repeated instead of rotated);
// readbw/<window bytes>/<pool bytes> (read bandwidth probe), clock (core cycles per ns),
// threads/<path>/uniform50/<pairs>/<threads>; the peer libraries as <overlap|contacts>/<peer>/<workload>/<pairs>
// (bench/peers.h). bench/summary.py turns the JSON into the tables.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <tuple>
#include <set>
#include <string>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

#include "peers.h"
#include "counters.h"
#include "workloads.h"

extern "C" {
#include "baselines.h"
#include "probe.h"
}

using namespace sbb;

namespace {

enum Entry { OVERLAP, COLLIDE, OVERLAP_Q, COLLIDE_Q, OVERLAP_ONE, OVERLAP_PAIRS, COLLIDE_PAIRS, AABB,
             OVERLAP_PAIRS_REC, COLLIDE_PAIRS_REC };
const char *const kEntryName[] = {"overlap",      "collide",       "overlap_q",     "collide_q",
                                  "overlap_one",  "overlap_pairs", "collide_pairs", "aabb",
                                  "overlap_pairs_rec", "collide_pairs_rec"};

// Paths: satbox_isa values, plus the two baselines (overlap only).
constexpr int kSeed = sbb::kFirstBaseline, kTextbook = sbb::kFirstBaseline + 1;

std::string path_name(int p) { return sbb::path_label(p, {"seed", "textbook"}); }

// Bytes read per pair (per box for aabb): 30 floats for two matrix boxes, 20 for two quaternion
// boxes, 15 for one box; the pairs forms also read the 8-byte pair (gathers counted as streamed).
double in_bytes(Entry e)
{
    switch (e) {
    case OVERLAP: case COLLIDE: return 120;
    case OVERLAP_Q: case COLLIDE_Q: return 80;
    case OVERLAP_ONE: case AABB: return 60;
    default: return 128;
    }
}

// Bytes written per pair: hit (1), collide adds separation (4), normal (12) and axis (1); the
// pairs forms write a 4-byte index per overlapping pair; aabb writes 6 floats.
double out_bytes(Entry e, double hit_rate)
{
    switch (e) {
    case OVERLAP: case OVERLAP_Q: case OVERLAP_ONE: return 1;
    case COLLIDE: case COLLIDE_Q: return 18;
    case OVERLAP_PAIRS: case OVERLAP_PAIRS_REC: return 4 * hit_rate;
    case COLLIDE_PAIRS: case COLLIDE_PAIRS_REC: return 18 + 4 * hit_rate;
    default: return 24;
    }
}

struct Spec {
    Entry e;
    int path;
    Work w;
    size_t n;
    bool hot;      // the same window every pass (cache-resident, branch predictor trained): "hot"
    int peer = -1; // index into peers() for a peer library's benchmark (then e and path are unused)
};

// Windows a benchmark rotates over, and the bytes of its pool (for the matching probe).
size_t windows_of(const Spec &s) { return s.hot ? 1 : pool_pairs_for(s.n) / s.n; }
std::string work_label(const Spec &s) { return s.hot ? std::string("hot") : std::string(work_name(s.w)); }

// Selects the path; false (and the benchmark skipped) when this CPU or build lacks it.
bool use_path(benchmark::State &st, int path)
{
    if (path >= SATBOX_ISA_COUNT)
        return true;
    if (!(satbox_isa_supported() & (1u << path))) {
        st.SkipWithError(("CPU lacks " + path_name(path)).c_str());
        return false;
    }
    if (satbox_isa_force((satbox_isa)path) != SATBOX_OK) {
        st.SkipWithError(("satbox_isa_force failed for " + path_name(path)).c_str());
        return false;
    }
    return true;
}

// The timed loop: pass k calls fn(window), window = k mod K; sums the counts fn returns.
template <class F> bool timed(benchmark::State &st, size_t windows, double &hits, F fn)
{
    size_t w = 0;
    for (auto _ : st) {
        ptrdiff_t r = fn(w);
        if (r < 0) {
            st.SkipWithError((std::string("satbox error: ") + satbox_strerror((int)r)).c_str());
            return false;
        }
        benchmark::DoNotOptimize(r);
        hits += (double)r;
        if (++w == windows)
            w = 0;
    }
    return true;
}

void set_counters(benchmark::State &st, const Spec &s, double hits)
{
    double pairs = pair_counters(st, (double)s.n, hits); // hit_rate, for aabb: the fraction of valid boxes
    double rate = pairs > 0 ? hits / pairs : 0;
    double in = in_bytes(s.e), out = out_bytes(s.e, rate);
    st.counters["bytes_per_pair"] = in + out;
    st.counters["in_bytes"] = in;
    st.counters["window_bytes"] = in * (double)s.n;
    st.counters["pool_bytes"] = in * (double)(windows_of(s) * s.n);
    st.counters["lanes"] = s.peer < 0 && s.path < SATBOX_ISA_COUNT ? satbox_isa_width((satbox_isa)s.path) : 1;
    st.SetBytesProcessed((int64_t)(pairs * (in + out)));
}

// A peer's copy of a workload's pool, converted once (outside every timed region) and kept until
// the end: peers sharing a convert function (ODE's two uses) share it.
const PeerBatch &peer_batch(const Peer &peer, Work w, size_t pairs)
{
    static std::map<std::tuple<void *, int, size_t>, std::unique_ptr<PeerBatch>> cache;
    auto key = std::make_tuple((void *)peer.convert, (int)w, pairs);
    auto it = cache.find(key);
    if (it == cache.end()) {
        const PairPool &p = pair_pool(w, pairs, false);
        auto t0 = std::chrono::steady_clock::now();
        it = cache.emplace(key, peer.convert(view(p.a, 0), view(p.b, 0), pairs)).first;
        note("  %s: %zu %s pairs converted (%.1f s)\n", peer.name, pairs, work_name(w),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return *it->second;
}

// The same loop as satbox's entries: pass k tests window k mod K of the peer's converted pool.
void run_peer(benchmark::State &st, const Spec &s)
{
    const Peer &peer = peers()[(size_t)s.peer];
    const size_t n = s.n, pool = pool_pairs_for(n), K = windows_of(s);
    const PeerBatch &batch = peer_batch(peer, s.w, pool);
    std::vector<uint8_t> hit(n);
    double hits = 0;
    if (timed(st, K, hits, [&](size_t w) { return (ptrdiff_t)peer.run(batch, w * n, n, hit.data()); }))
        set_counters(st, s, hits);
}

void run(benchmark::State &st, Spec s)
{
    if (s.peer >= 0)
        return run_peer(st, s);
    if (!use_path(st, s.path))
        return;
    const size_t n = s.n, pool = pool_pairs_for(n), K = windows_of(s);
    // Outputs are allocated (and zeroed, so already paged in) outside the timed loop.
    std::vector<uint8_t> hit(n), axis(n);
    std::vector<float> sep(n), nx(n), ny(n), nz(n);
    std::vector<uint32_t> compact(n);
    satbox_result res = {hit.data(), sep.data(), {nx.data(), ny.data(), nz.data()}, axis.data(), nullptr};
    const float margin = 0.0f;
    double hits = 0;
    bool ok = true;

    switch (s.e) {
    case OVERLAP:
    case COLLIDE:
    case OVERLAP_ONE:
    case AABB: {
        const PairPool &p = pair_pool(s.w, pool, false);
        std::vector<satbox_boxes> va(K), vb(K);
        std::vector<satbox_box> one(K);
        for (size_t k = 0; k < K; k++) {
            va[k] = view(p.a, k * n);
            vb[k] = view(p.b, k * n);
            tb_box_from(&va[k], 0, &one[k]);
        }
        float *mn[3] = {nx.data(), ny.data(), nz.data()};
        std::vector<float> mx0(n), mx1(n), mx2(n);
        float *mx[3] = {mx0.data(), mx1.data(), mx2.data()};
        if (s.e == OVERLAP && s.path == kSeed)
            ok = timed(st, K, hits, [&](size_t w) { return (ptrdiff_t)bl_seed_overlap(&va[w], &vb[w], n, hit.data()); });
        else if (s.e == OVERLAP && s.path == kTextbook)
            ok = timed(st, K, hits, [&](size_t w) { return (ptrdiff_t)bl_textbook_overlap(&va[w], &vb[w], n, hit.data()); });
        else if (s.e == OVERLAP)
            ok = timed(st, K, hits, [&](size_t w) { return satbox_overlap(&va[w], &vb[w], n, hit.data(), nullptr); });
        else if (s.e == COLLIDE)
            ok = timed(st, K, hits, [&](size_t w) { return satbox_collide(&va[w], &vb[w], n, margin, &res); });
        else if (s.e == OVERLAP_ONE)
            ok = timed(st, K, hits, [&](size_t w) { return satbox_overlap_one(&one[w], &vb[w], n, hit.data(), nullptr); });
        else
            ok = timed(st, K, hits, [&](size_t w) { return satbox_aabb(&va[w], n, 0.0f, mn, mx); });
        break;
    }
    case OVERLAP_Q:
    case COLLIDE_Q: {
        const PairPool &p = pair_pool(s.w, pool, true);
        std::vector<satbox_qboxes> va(K), vb(K);
        for (size_t k = 0; k < K; k++) {
            va[k] = qview(p.qa, k * n);
            vb[k] = qview(p.qb, k * n);
        }
        if (s.e == OVERLAP_Q)
            ok = timed(st, K, hits, [&](size_t w) { return satbox_overlap_q(&va[w], &vb[w], n, hit.data(), nullptr); });
        else
            ok = timed(st, K, hits, [&](size_t w) { return satbox_collide_q(&va[w], &vb[w], n, margin, &res); });
        break;
    }
    case OVERLAP_PAIRS:
    case COLLIDE_PAIRS: {
        // The broad phase's output as is: one pool of boxes, windows of its pair list.
        const ScenePool &sc = scene_pool(pool);
        satbox_boxes boxes = view(sc.boxes, 0);
        const satbox_pair *pairs = sc.pairs.data();
        if (s.e == OVERLAP_PAIRS)
            ok = timed(st, K, hits, [&](size_t w) {
                return satbox_overlap_pairs(&boxes, sc.nboxes, pairs + w * n, n, nullptr, compact.data(), nullptr);
            });
        else
            ok = timed(st, K, hits, [&](size_t w) {
                return satbox_collide_pairs(&boxes, sc.nboxes, pairs + w * n, n, margin, &res, compact.data());
            });
        break;
    }
    case OVERLAP_PAIRS_REC:
    case COLLIDE_PAIRS_REC: {
        // The same scene pool as 64-byte records (one cache line per box), packed once.
        const ScenePool &sc = scene_pool(pool);
        static satbox_rec *recs = nullptr;
        static size_t nrecs = 0;
        if (nrecs != sc.nboxes) {
            std::free(recs);
            recs = static_cast<satbox_rec *>(std::aligned_alloc(64, sc.nboxes * sizeof(satbox_rec)));
            satbox_boxes boxes = view(sc.boxes, 0);
            satbox_pack_rec(&boxes, sc.nboxes, recs);
            nrecs = sc.nboxes;
        }
        const satbox_pair *pairs = sc.pairs.data();
        if (s.e == OVERLAP_PAIRS_REC)
            ok = timed(st, K, hits, [&](size_t w) {
                return satbox_overlap_pairs_rec(recs, nrecs, pairs + w * n, n, nullptr, compact.data(), nullptr);
            });
        else
            ok = timed(st, K, hits, [&](size_t w) {
                return satbox_collide_pairs_rec(recs, nrecs, pairs + w * n, n, margin, &res, compact.data());
            });
        break;
    }
    }
    if (ok)
        set_counters(st, s, hits);
}

// n pairs split over `threads` std::threads through the re-entrant API (disjoint output ranges).
void run_threads(benchmark::State &st, int path, size_t n, int threads)
{
    if (!use_path(st, path))
        return;
    const size_t pool = pool_pairs_for(n), K = pool / n;
    const PairPool &p = pair_pool(UNIFORM50, pool, false);
    std::vector<uint8_t> hit(n);
    std::vector<ptrdiff_t> counts((size_t)threads);
    double hits = 0;
    size_t w = 0;
    for (auto _ : st) {
        auto slice = [&](int t) {
            size_t lo = n * (size_t)t / (size_t)threads, hi = n * (size_t)(t + 1) / (size_t)threads;
            satbox_boxes a = view(p.a, w * n + lo), b = view(p.b, w * n + lo);
            counts[(size_t)t] = satbox_overlap(&a, &b, hi - lo, hit.data() + lo, nullptr);
        };
        std::vector<std::thread> th;
        for (int t = 1; t < threads; t++)
            th.emplace_back(slice, t);
        slice(0);
        for (auto &t : th)
            t.join();
        for (ptrdiff_t c : counts)
            hits += (double)c;
        if (++w == K)
            w = 0;
    }
    double pairs = pair_counters(st, (double)n, hits);
    st.counters["threads"] = threads;
    st.SetBytesProcessed((int64_t)(pairs * 121));
}

// Read bandwidth over the same bytes a benchmark reads: a window of `win` bytes from a pool of
// `pool` bytes, the next window each pass. One buffer, grown as needed, serves every probe.
std::vector<uint64_t> g_probe;

void run_probe(benchmark::State &st, size_t win, size_t pool)
{
    size_t words = win / 8, K = pool / win;
    if (g_probe.size() < K * words)
        g_probe.assign(K * words, 1); // written once: every page mapped before timing
    size_t w = 0;
    for (auto _ : st) {
        uint64_t sum = probe_read(g_probe.data() + w * words, words);
        benchmark::DoNotOptimize(sum);
        if (++w == K)
            w = 0;
    }
    st.SetBytesProcessed((int64_t)((double)st.iterations() * (double)words * 8));
    st.counters["window_bytes"] = (double)win;
    st.counters["pool_bytes"] = (double)pool;
}

void run_clock(benchmark::State &st)
{
    const uint64_t cycles = 1u << 24;
    for (auto _ : st)
        probe_cycles(cycles);
    st.counters["GHz"] = benchmark::Counter((double)st.iterations() * (double)cycles * 1e-9, benchmark::Counter::kIsRate);
}

// The CPU's model name, with its family and model numbers on x86 (a VM may say only "AMD EPYC").
std::string cpu_model()
{
    std::ifstream f("/proc/cpuinfo");
    std::string line, name, family, model;
    auto value = [&](const char *key, std::string &out) {
        if (out.empty() && line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
            out = line.substr(line.find(':') + 1);
            out.erase(0, out.find_first_not_of(" \t"));
        }
    };
    while (std::getline(f, line)) {
        value("model name", name);
        value("Model", name);
        value("cpu family", family);
        if (line.rfind("model\t", 0) == 0 || line.rfind("model ", 0) == 0)
            value("model", model);
    }
    if (name.empty())
        return "unknown CPU";
    return family.empty() ? name : name + " (family " + family + ", model " + model + ")";
}

std::set<std::pair<size_t, size_t>> g_probes;

benchmark::TimeUnit unit_for(size_t n)
{
    return n >= (1u << 20) ? benchmark::kMillisecond : n >= 4096 ? benchmark::kMicrosecond : benchmark::kNanosecond;
}

void add(Entry e, int path, Work w, size_t n, bool hot = false, int peer = -1)
{
    Spec s{e, path, w, n, hot, peer};
    std::string name = peer >= 0 ? std::string(peers()[(size_t)peer].entry) + "/" + peers()[(size_t)peer].name
                                 : std::string(kEntryName[e]) + "/" + path_name(path);
    name += "/" + work_label(s) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [s](benchmark::State &st) { run(st, s); })->Unit(unit_for(n));
    g_probes.insert({(size_t)in_bytes(e) * n, (size_t)in_bytes(e) * windows_of(s) * n});
}

// The matrix: each question asked once, the full run within ~5 minutes: batch sizes on the main
// entry point, workloads at one in-cache size, the other entry points in cache and from DRAM.
void register_all(bool quick)
{
    const std::vector<int> isas = present_paths();
    std::vector<int> with_baselines = isas;
    with_baselines.push_back(kSeed);
    with_baselines.push_back(kTextbook);
    const size_t K4 = 4096, M1 = 1u << 20, M4 = 4u << 20;
    const std::vector<size_t> sweep = quick ? std::vector<size_t>{256, K4, M1}
                                            : std::vector<size_t>{64, 256, K4, 65536, M1, M4};
    const Work others[] = {ZERO0, FULL100, STACKED, SCENE};

    benchmark::RegisterBenchmark("clock", run_clock)->Unit(benchmark::kMillisecond);
    // 1. Batch size sweep: overlap, 50% uniform, every path and both baselines.
    for (size_t n : sweep)
        for (int p : with_baselines)
            add(OVERLAP, p, UNIFORM50, n);
    // 2. Workloads at 4Ki pairs (in cache): hit rate, near-parallel stacks, broad-phase pairs.
    for (Work w : others)
        for (int p : with_baselines)
            add(OVERLAP, p, w, K4);
    // The uniform50 window of 4Ki pairs repeated: compute without the memory traffic (for the
    // SIMD paths), and what a trained branch predictor does for the early-exit baselines.
    for (int p : with_baselines)
        add(OVERLAP, p, UNIFORM50, K4, true);
    // 3. collide: sizes, then the workloads.
    for (size_t n : quick ? std::vector<size_t>{K4, M1} : std::vector<size_t>{256, K4, 65536, M1})
        for (int p : isas)
            add(COLLIDE, p, UNIFORM50, n);
    if (!quick)
        for (Work w : others)
            for (int p : isas)
                add(COLLIDE, p, w, K4);
    // 4. The other entry points, in cache and from DRAM.
    const std::vector<size_t> two = quick ? std::vector<size_t>{K4} : std::vector<size_t>{K4, M1};
    for (Entry e : {OVERLAP_Q, COLLIDE_Q, OVERLAP_ONE, AABB})
        for (size_t n : two)
            for (int p : isas)
                add(e, p, UNIFORM50, n);
    for (Entry e : {OVERLAP_PAIRS, COLLIDE_PAIRS, OVERLAP_PAIRS_REC, COLLIDE_PAIRS_REC})
        for (size_t n : quick ? std::vector<size_t>{K4} : std::vector<size_t>{256, K4, 65536, M1})
            for (int p : isas)
                add(e, p, SCENE, n);
    // 5. The peer libraries, on the same pairs: 50% random in cache and from memory; in the full
    //    run also the near-parallel stacks and the broad-phase pairs in cache.
    for (size_t i = 0; i < peers().size(); i++) {
        for (size_t n : {K4, M1})
            add(OVERLAP, 0, UNIFORM50, n, false, (int)i);
        if (!quick)
            for (Work w : {STACKED, SCENE})
                add(OVERLAP, 0, w, K4, false, (int)i);
    }
    // 6. Threads: one large batch over 1..all cores, widest path and scalar.
    const size_t tn = quick ? M1 : M4;
    int cores = (int)std::max(2u, std::thread::hardware_concurrency());
    int best = isas.back();
    for (int p : {best, (int)SATBOX_ISA_SCALAR}) {
        for (int t = 1; t <= cores; t *= 2) {
            std::string name = "threads/" + path_name(p) + "/uniform50/" + std::to_string(tn) + "/" + std::to_string(t);
            benchmark::RegisterBenchmark(name.c_str(), [p, tn, t](benchmark::State &st) { run_threads(st, p, tn, t); })
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
            if (t < cores && t * 2 > cores)
                t = cores / 2; // so that the last step is all cores
        }
        if (best == SATBOX_ISA_SCALAR)
            break;
    }
    // 7. Read bandwidth over the same window and pool sizes as the benchmarks above.
    for (auto wp : g_probes) {
        std::string name = "readbw/" + std::to_string(wp.first) + "/" + std::to_string(wp.second);
        size_t win = wp.first, pool = wp.second;
        benchmark::RegisterBenchmark(name.c_str(), [win, pool](benchmark::State &st) { run_probe(st, win, pool); })
            ->Unit(unit_for(win / 120));
    }
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false;
    int out = 1;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else
            argv[out++] = argv[i];
    }
    argc = out;

    std::string isas, left_out, peer_names;
    for (int p : present_paths(&left_out))
        isas += std::string(isas.empty() ? "" : " ") + path_name(p);
    std::string cpu = cpu_model();
    std::printf("satbox %s benchmark suite%s\n", satbox_version(), quick ? " (--quick)" : "");
    std::printf("CPU: %s; %u hardware threads; satbox paths: %s (default: %s)\n", cpu.c_str(),
                std::thread::hardware_concurrency(), isas.c_str(), satbox_isa_name(satbox_isa_active()));
    if (!left_out.empty())
        std::printf("Note: paths left out: %s.\n", left_out.c_str());
    for (const Peer &p : peers()) {
        std::printf("Peer: %-10s %-8s %s\n", p.name, p.entry, p.what);
        peer_names += std::string(peer_names.empty() ? "" : ", ") + p.entry + "/" + p.name + ": " + p.what;
    }
    std::string peers_missing;
    for (const std::string &l : peers_left_out()) {
        std::printf("Peer: %s\n", l.c_str());
        peers_missing += (peers_missing.empty() ? "" : "; ") + l;
    }
    std::printf("Note: Debian's libbenchmark is a debug build (its warning below); the timed code is\n"
                "satbox's release build, only the harness around it is unoptimised.\n");
    std::fflush(stdout);
    benchmark::AddCustomContext("cpu_model", cpu);
    benchmark::AddCustomContext("satbox_version", satbox_version());
    benchmark::AddCustomContext("satbox_paths", isas);
    benchmark::AddCustomContext("satbox_default_path", satbox_isa_name(satbox_isa_active()));
    benchmark::AddCustomContext("satbox_paths_left_out", left_out);
    benchmark::AddCustomContext("peers", peer_names);
    benchmark::AddCustomContext("peers_left_out", peers_missing);
    benchmark::AddCustomContext("suite_mode", quick ? "quick" : "full");

    register_all(quick);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    size_t ran = benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    release_all();
    if (ran == 0) {
        std::fprintf(stderr, "satbox_bench: no benchmark matches the filter (names: <entry>/<path>/<workload>/<pairs>;"
                             " --benchmark_list_tests lists them)\n");
        return 2;
    }
    return 0;
}

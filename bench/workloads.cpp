// workloads.cpp - benchmark data: pair pools built in 64Ki-pair chunks (in parallel), scene pools from tiles.
// SPDX-License-Identifier: MIT
#include <cstdlib>
#include <cstring>
#include <new>
#include "workloads.h"
#include "views.h"

extern "C" {
#include "core/isa.h" // the paths
}

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <thread>

namespace sbb {

void *staggered_alloc(size_t bytes)
{
    // 64-byte steps through the 64 offsets of a 4 KiB page; the real start is kept just before.
    static std::atomic<unsigned> next{0};
    size_t shift = 64 * (1 + next.fetch_add(1) % 63);
    char *raw = static_cast<char *>(std::malloc(bytes + shift + 64));
    if (!raw)
        throw std::bad_alloc();
    char *p = raw + shift;
    p -= reinterpret_cast<uintptr_t>(p) % 64;
    std::memcpy(p - sizeof(char *), &raw, sizeof(char *));
    return p;
}

void staggered_free(void *p)
{
    if (!p)
        return;
    char *raw;
    std::memcpy(&raw, static_cast<char *>(p) - sizeof(char *), sizeof(char *));
    std::free(raw);
}


namespace {

constexpr size_t kChunk = 65536;       // pairs generated per chunk (one RNG stream per chunk)
constexpr size_t kUniqueChunks = 16;   // 1Mi distinct pairs; later chunks are translated copies
constexpr size_t kTileBoxes = 4096;    // boxes per broad-phase scene tile

PairPool g_pairs[WORK_COUNT];
ScenePool g_scene;

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs fn(i) for i in [lo, hi) on all hardware threads (each index exactly once).
template <class F> void parallel_for(size_t lo, size_t hi, F fn)
{
    unsigned nt = std::max(1u, std::thread::hardware_concurrency());
    std::atomic<size_t> next{lo};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < hi;)
            fn(i);
    };
    std::vector<std::thread> th;
    for (unsigned t = 1; t < nt && t < hi - lo; t++)
        th.emplace_back(worker);
    worker();
    for (auto &t : th)
        t.join();
}

void resize(Fields &s, size_t n)
{
    for (auto &v : s.f)
        v.resize(n);
}

void resize(QFields &s, size_t n)
{
    for (auto &v : s.f)
        v.resize(n);
}

void put(Fields &s, size_t i, const satbox_box &b)
{
    for (int c = 0; c < 3; c++) {
        s.f[c][i] = b.center[c];
        s.f[3 + c][i] = b.half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            s.f[6 + 3 * k + c][i] = b.axis[k][c];
}

// Fills pairs [c * kChunk, (c + 1) * kChunk) of a pool with chunk c of workload w.
void make_chunk(Work w, size_t c, PairPool &p)
{
    size_t base = c * kChunk;
    if (c >= kUniqueChunks) {
        // A translated copy of a distinct chunk: new bytes, same geometry (up to float rounding).
        size_t src = (c % kUniqueChunks) * kChunk;
        float off[3] = {40.0f * (float)(c / kUniqueChunks), -25.0f * (float)(c / kUniqueChunks),
                        15.0f * (float)(c / kUniqueChunks)};
        for (int f = 0; f < 15; f++)
            for (size_t i = 0; i < kChunk; i++) {
                float d = f < 3 ? off[f] : 0.0f;
                p.a.f[f][base + i] = p.a.f[f][src + i] + d;
                p.b.f[f][base + i] = p.b.f[f][src + i] + d;
            }
        return;
    }
    tb_rng r, coin;
    tb_seed(&r, 0x5A7B0C0000ull + 1000003ull * (uint64_t)w + c);
    tb_seed(&coin, 0xC014ull + c);
    if (w == STACKED) {
        for (size_t i = 0; i < kChunk; i++) {
            satbox_box A, B;
            tb_make_pair(&r, TB_STACKED, &A, &B);
            put(p.a, base + i, A);
            put(p.b, base + i, B);
        }
        return;
    }
    // UNIFORM50 / ZERO0 / FULL100: uniform pairs drawn in batches and sorted by the (reference)
    // answer into two queues; each slot then takes the next pair of the outcome it wants:
    // a fair coin for UNIFORM50 (exactly 50% on average, in unpredictable order; the raw family
    // overlaps only ~34% of the time), always "separated" for ZERO0, always "overlapping" for
    // FULL100. Every path gives the same bits, so the pool does not depend on the machine.
    const size_t batch = 4096;
    tb_soa ta, tb;
    tb_soa_alloc(&ta, batch);
    tb_soa_alloc(&tb, batch);
    std::vector<uint8_t> hit(batch);
    std::vector<std::pair<satbox_box, satbox_box>> queue[2];
    size_t head[2] = {0, 0};
    for (size_t i = 0; i < kChunk; i++) {
        int want = w == UNIFORM50 ? (int)(tb_next(&coin) >> 63) : w == FULL100 ? 1 : 0;
        while (head[want] == queue[want].size()) {
            for (int q = 0; q < 2; q++) {
                queue[q].erase(queue[q].begin(), queue[q].begin() + (ptrdiff_t)head[q]);
                head[q] = 0;
            }
            std::vector<satbox_box> as(batch), bs(batch);
            for (size_t k = 0; k < batch; k++) {
                tb_make_pair(&r, TB_UNIFORM, &as[k], &bs[k]);
                tb_soa_set(&ta, k, &as[k]);
                tb_soa_set(&tb, k, &bs[k]);
            }
            satbox_overlap(&ta.view, &tb.view, batch, hit.data(), nullptr);
            for (size_t k = 0; k < batch; k++)
                if (hit[k] <= 1)
                    queue[hit[k]].push_back({as[k], bs[k]});
        }
        const auto &pr = queue[want][head[want]++];
        put(p.a, base + i, pr.first);
        put(p.b, base + i, pr.second);
    }
    tb_soa_free(&ta);
    tb_soa_free(&tb);
}

void quat_of(const Fields &m, size_t i, QFields &q)
{
    float axis[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = m.f[6 + 3 * k + c][i];
    double qd[4];
    tb_quat_from_axes(axis, qd);
    for (int f = 0; f < 6; f++)
        q.f[f][i] = m.f[f][i];
    for (int k = 0; k < 4; k++)
        q.f[6 + k][i] = (float)qd[k];
}

void grow_scene(size_t pairs)
{
    ScenePool &s = g_scene;
    if (s.pairs.size() >= pairs)
        return;
    double t0 = now();
    while (s.pairs.size() < pairs) {
        // A batch of tiles in parallel (each from its own seed), appended in tile order.
        size_t est = (pairs - s.pairs.size()) / 5000 + 1, batch = std::min<size_t>(std::max<size_t>(est, 2), 256);
        std::vector<tb_scene> tiles(batch);
        std::vector<int> ok(batch);
        size_t first = s.tiles;
        parallel_for(0, batch, [&](size_t t) {
            tb_scene_params p;
            tb_scene_defaults(&p, kTileBoxes, 0x5CE7E000ull + first + t);
            ok[t] = tb_scene_make(&tiles[t], &p) == 0;
        });
        for (size_t t = 0; t < batch; t++) {
            if (!ok[t]) {
                note("scene tile %zu: out of memory\n", first + t);
                std::abort();
            }
            const tb_scene &sc = tiles[t];
            size_t at = s.nboxes;
            resize(s.boxes, at + sc.n);
            resize(s.qboxes, at + sc.n);
            for (int f = 0; f < 15; f++)
                std::copy(sc.boxes.arrays[f], sc.boxes.arrays[f] + sc.n, s.boxes.f[f].begin() + (ptrdiff_t)at);
            for (int f = 0; f < 10; f++)
                std::copy(sc.qarrays[f], sc.qarrays[f] + sc.n, s.qboxes.f[f].begin() + (ptrdiff_t)at);
            for (size_t i = 0; i < sc.npairs; i++)
                s.pairs.push_back({sc.pairs[i].a + (uint32_t)at, sc.pairs[i].b + (uint32_t)at});
            s.nboxes += sc.n;
            s.tiles++;
            tb_scene_free(&tiles[t]);
        }
    }
    note("  scene pool: %zu tiles, %zu boxes, %zu candidate pairs (%.1f s)\n", s.tiles, s.nboxes, s.pairs.size(),
         now() - t0);
}

} // namespace

const char *work_name(Work w)
{
    static const char *names[WORK_COUNT] = {"uniform50", "zero0", "full100", "stacked", "scene"};
    return (unsigned)w < WORK_COUNT ? names[w] : "?";
}

size_t pool_pairs_for(size_t n)
{
    size_t p = std::max<size_t>(2 * n, kChunk);
    return (p + kChunk - 1) / kChunk * kChunk;
}

satbox_boxes view(const Fields &s, size_t o)
{
    satbox_boxes v;
    for (int j = 0; j < TB_BOX_FIELDS; j++)
        *tb_boxes_slot(&v, j) = s.f[j].data() + o;
    return v;
}

satbox_qboxes qview(const QFields &s, size_t o)
{
    satbox_qboxes v;
    for (int j = 0; j < TB_QBOX_FIELDS; j++)
        *tb_qboxes_slot(&v, j) = s.f[j].data() + o;
    return v;
}

const PairPool &pair_pool(Work w, size_t pairs, bool quat)
{
    PairPool &p = g_pairs[w];
    pairs = (pairs + kChunk - 1) / kChunk * kChunk;
    if (p.n < pairs) {
        double t0 = now();
        size_t c0 = p.n / kChunk, c1 = pairs / kChunk;
        resize(p.a, pairs);
        resize(p.b, pairs);
        if (w == SCENE) {
            grow_scene(pairs);
            const ScenePool &s = g_scene;
            parallel_for(c0, c1, [&](size_t c) {
                for (size_t i = c * kChunk; i < (c + 1) * kChunk; i++) {
                    satbox_pair q = s.pairs[i];
                    for (int f = 0; f < 15; f++) {
                        p.a.f[f][i] = s.boxes.f[f][q.a];
                        p.b.f[f][i] = s.boxes.f[f][q.b];
                    }
                }
            });
        } else {
            // Distinct chunks first (in parallel), then the translated copies that read them.
            size_t u1 = std::min(c1, kUniqueChunks);
            if (c0 < u1)
                parallel_for(c0, u1, [&](size_t c) { make_chunk(w, c, p); });
            if (c1 > kUniqueChunks)
                parallel_for(std::max(c0, kUniqueChunks), c1, [&](size_t c) { make_chunk(w, c, p); });
        }
        p.n = pairs;
        note("  %s pool: %zu pairs (%.0f MiB matrix SoA, %.1f s)\n", work_name(w), p.n,
             (double)p.n * 120.0 / 1048576.0, now() - t0);
    }
    if (quat && p.nq < pairs) {
        double t0 = now();
        size_t q0 = p.nq;
        resize(p.qa, pairs);
        resize(p.qb, pairs);
        if (w == SCENE) {
            // The scene's own quaternions (its matrices were made from them by the library).
            const ScenePool &s = g_scene;
            parallel_for(q0 / kChunk, pairs / kChunk, [&](size_t c) {
                for (size_t i = c * kChunk; i < (c + 1) * kChunk; i++)
                    for (int f = 0; f < 10; f++) {
                        p.qa.f[f][i] = s.qboxes.f[f][s.pairs[i].a];
                        p.qb.f[f][i] = s.qboxes.f[f][s.pairs[i].b];
                    }
            });
        } else {
            parallel_for(q0 / kChunk, pairs / kChunk, [&](size_t c) {
                for (size_t i = c * kChunk; i < (c + 1) * kChunk; i++) {
                    quat_of(p.a, i, p.qa);
                    quat_of(p.b, i, p.qb);
                }
            });
        }
        p.nq = pairs;
        note("  %s pool: quaternion form of %zu pairs (%.1f s)\n", work_name(w), p.nq, now() - t0);
    }
    return p;
}

const ScenePool &scene_pool(size_t pairs)
{
    grow_scene(pairs);
    return g_scene;
}

void release_all()
{
    for (auto &p : g_pairs)
        p = PairPool();
    g_scene = ScenePool();
}

std::vector<int> present_paths(std::string *left_out)
{
    static const satbox_isa def = satbox_isa_active();
    // The paths of this processor family (src/core/isa.h), narrowest first.
    std::vector<std::pair<int, int>> ranked; // (rank, path)
#define SBB_LADDER_ROW(name, E, width, rank, arch, detect, flags)                                                            \
    if (SBX_CAT(SBX_ARCH_, arch))                                                                                     \
        ranked.push_back({rank, SATBOX_ISA_##E});
    SBX_ISAS(SBB_LADDER_ROW)
#undef SBB_LADDER_ROW
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const std::pair<int, int> &x, const std::pair<int, int> &y) { return x.first < y.first; });
    std::vector<int> ladder;
    for (auto r : ranked)
        ladder.push_back(r.second);
    std::vector<int> present;
    bool above = false;
    for (int p : ladder) {
        bool sup = satbox_isa_supported() & (1u << p);
        if (sup && !above)
            present.push_back(p);
        else if (left_out)
            *left_out += std::string(left_out->empty() ? "" : ", ") + satbox_isa_name((satbox_isa)p) +
                         (sup ? " (above SATBOX_ISA)" : " (not supported by this CPU or build)");
        if (p == (int)def)
            above = true;
    }
    return present;
}

bool write_text(const char *path, const std::string &text)
{
    if (!path)
        return std::fputs(text.c_str(), stdout) >= 0;
    FILE *f = std::fopen(path, "w");
    if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
        std::perror(path);
        return false;
    }
    return true;
}

void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fflush(stderr);
}

} // namespace sbb

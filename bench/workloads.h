// workloads.h - benchmark data: rotating pair pools per workload (matrix + quaternion SoA) and broad-phase scene pools.
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BENCH_WORKLOADS_H
#define SATBOX_BENCH_WORKLOADS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "satbox/satbox.h"
#include "scene.h"
#include "support.h"
}

namespace sbb {

// Workloads (the hit rate is what the generator aims at; the benchmarks report the real one).
enum Work {
    UNIFORM50 = 0, // tb_make_pair(TB_UNIFORM) (random rotations and sizes), resampled to 50% overlap
    ZERO0,         // the same family, only the separated pairs (0%)
    FULL100,       // the same family, only the overlapping pairs (100%)
    STACKED,       // tb_make_pair(TB_STACKED): near-parallel resting boxes, gap +-1e-3, ~50%
    SCENE,         // candidate pairs of broad-phase scenes (tests/common/scene.c), ~45%
    WORK_COUNT
};
const char *work_name(Work w);

// Pairs a pool holds for windows of n pairs: at least two windows and at least 64Ki pairs
// (7.5 MiB of matrix input). Every timed pass takes the next window, so no pass repeats the one
// before it, and the branch predictor never sees the same (< 16Ki-pair) batch twice in a row.
// Windows of >= 1Mi pairs span >= 120 MiB: their data comes from DRAM.
size_t pool_pairs_for(size_t n);

// The pools' arrays start at staggered offsets modulo 4 KiB (each allocation 64 bytes further
// along, cycling). Large allocations come page-aligned, and 30 input streams that all start at
// the same offset modulo 4 KiB fall into the same L1 sets: every method measured ~2.3x slower
// on such a pool here (AVX-512 satbox_overlap 11.8 against 4.8 ns/pair; the textbook test too).
// Which pool happened to be aligned that way depended on allocation order; now none is.
template <class T> struct Staggered {
    using value_type = T;
    Staggered() = default;
    template <class U> Staggered(const Staggered<U> &) {}
    T *allocate(size_t n);
    void deallocate(T *p, size_t n);
    template <class U> bool operator==(const Staggered<U> &) const { return true; }
    template <class U> bool operator!=(const Staggered<U> &) const { return false; }
};
using FloatArray = std::vector<float, Staggered<float>>;
void *staggered_alloc(size_t bytes);
void staggered_free(void *p);
template <class T> T *Staggered<T>::allocate(size_t n) { return static_cast<T *>(staggered_alloc(n * sizeof(T))); }
template <class T> void Staggered<T>::deallocate(T *p, size_t) { staggered_free(p); }

// Matrix SoA fields, in tb_soa order: center 0..2, half 0..2, axis k-major then c.
struct Fields {
    FloatArray f[15];
};
// Quaternion SoA fields: center 0..2, half 0..2, quat x y z w.
struct QFields {
    FloatArray f[10];
};
satbox_boxes view(const Fields &s, size_t offset);
satbox_qboxes qview(const QFields &s, size_t offset);

// Pair-aligned pool: pair i is (a[i], b[i]).
struct PairPool {
    size_t n = 0;  // pairs in the matrix form
    size_t nq = 0; // pairs also in the quaternion form (a prefix)
    Fields a, b;
    QFields qa, qb;
};
// The pool of a workload, holding at least `pairs` pairs (and their quaternion form if `quat`).
// Built on first use, grown on demand, kept until release_all(); the same seed gives the same data.
const PairPool &pair_pool(Work w, size_t pairs, bool quat);

// Broad-phase pool: independent scenes of 4096 boxes (tb_scene_defaults) laid end to end, and
// their candidate pairs (indices into the whole pool, sorted by a then b).
struct ScenePool {
    size_t nboxes = 0, tiles = 0;
    Fields boxes;
    QFields qboxes;
    std::vector<satbox_pair> pairs;
};
const ScenePool &scene_pool(size_t pairs);

void release_all();

// satbox's paths a run measures: built, run by this CPU and OS, and not above the library's
// default path (the widest one, lowered by the environment variable SATBOX_ISA), narrowest
// first. The others are appended to *left_out ("avx512 (not supported by this CPU or build)"),
// so that SATBOX_ISA=avx2 runs a suite as on a CPU without AVX-512. The first call must come
// before any satbox_isa_force().
std::vector<int> present_paths(std::string *left_out = nullptr);

// Writes `text` to the file `path` (stdout when path is NULL); false (and a message) on failure.
bool write_text(const char *path, const std::string &text);

// Message on stderr (data generation progress), so that stdout stays the benchmark's.
void note(const char *fmt, ...);

} // namespace sbb

#endif

// counters.h - the per-pair counters every satbox benchmark reports (pairs/s, time/pair, hit_rate) and its path names.
// SPDX-License-Identifier: MIT
#ifndef SATBOX_BENCH_COUNTERS_H
#define SATBOX_BENCH_COUNTERS_H

#include <benchmark/benchmark.h>

#include <initializer_list>
#include <string>

#include "satbox/satbox.h"

namespace sbb {

// Sets the three counters that summary.py, plot.py and the harness read for every entry, over
// `per_iter` pairs an iteration and `hits` counted over the whole run: "pairs/s" (a rate),
// "time/pair" (the same rate inverted: seconds per pair, printed by the console as e.g. "14.1ns")
// and "hit_rate" (hits per pair; 0 for a run of no iterations). Returns the pairs of the run, for
// the counters an entry adds of its own.
inline double pair_counters(benchmark::State &st, double per_iter, double hits)
{
    using benchmark::Counter;
    double pairs = (double)st.iterations() * per_iter;
    st.counters["pairs/s"] = Counter(pairs, Counter::kIsRate);
    st.counters["time/pair"] = Counter(pairs, Counter::kIsRate | Counter::kInvert);
    st.counters["hit_rate"] = pairs > 0 ? hits / pairs : 0;
    return pairs;
}

// A benchmark's paths: satbox_isa values, then its baselines numbered from kFirstBaseline.
constexpr int kFirstBaseline = 100;

// The name of path p in the entries' names: the baseline's (`baselines`, in their order from
// kFirstBaseline) or satbox_isa_name()'s.
inline std::string path_label(int p, std::initializer_list<const char *> baselines)
{
    if (p >= kFirstBaseline && p - kFirstBaseline < (int)baselines.size())
        return baselines.begin()[p - kFirstBaseline];
    const char *n = satbox_isa_name((satbox_isa)p);
    return n ? n : "?";
}

} // namespace sbb

#endif

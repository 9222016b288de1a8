// counters.h - the per-pair counters every satbox benchmark reports (pairs/s, time/pair, hit_rate).
// SPDX-License-Identifier: MIT
#ifndef SATBOX_BENCH_COUNTERS_H
#define SATBOX_BENCH_COUNTERS_H

#include <benchmark/benchmark.h>

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

} // namespace sbb

#endif

/* probe.h - machine probes for the roofline: streaming read bandwidth and the core clock. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BENCH_PROBE_H
#define SATBOX_BENCH_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Reads n 64-bit words (one pass, widest vector loads the CPU has) and returns a checksum. */
uint64_t probe_read(const uint64_t *p, size_t n);

/** Runs a chain of n dependent single-cycle integer adds (n a multiple of 8): n core cycles, so
 * n / time = the clock the core runs at (latency-bound, so a busy SMT sibling barely matters). */
void probe_cycles(uint64_t n);

#ifdef __cplusplus
}
#endif

#endif

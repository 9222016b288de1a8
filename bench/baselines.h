/* baselines.h - reference OBB overlap tests the benchmarks compare satbox with (scalar, one pair at a time). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BENCH_BASELINES_H
#define SATBOX_BENCH_BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "Seeds' method": the 8 corners of both boxes projected on each of the 15 axes, each axis
 * normalised first (float); a pair is separated as soon as one axis shows disjoint intervals.
 * Edge axes shorter than 1e-6 (parallel edges) are skipped. hit[i] = 1 overlap, 0 separated.
 * Returns the number of overlapping pairs. Reads pair i from element i of the SoA batches. */
size_t bl_seed_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit);

/** Textbook scalar SAT (Gottschalk's OBBTree test as found in RTCD, Jolt, PhysX, GTE, FCL):
 * R = A^T B, |R| + 1e-6 in every radius, t in A's frame, return on the first separating axis
 * (A's faces, B's faces, then the 9 edge pairs). Same signature and outputs as above. */
size_t bl_textbook_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit);

#ifdef __cplusplus
}
#endif

#endif

/* sat.h - what the 3D and 2D pairs areas share: the outputs of collide and overlap, and their checks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CHECKASM_SAT_H
#define SATBOX_CHECKASM_SAT_H

#include "checkasm.h"

/* The outputs of one run of collide (per batch), overlap (per batch) and collide's compacted list
 * (over the whole chunk); `dims` normal components are used (3 in 3D, 2 in 2D). */
typedef struct sat_outs {
    gbuf hit, ohit, bad, obad, separation, normal[3], axis; /* collide's, then overlap's hit and bad */
    gbuf compact;                                           /* the compacted list */
    ptrdiff_t count, ocount;                                /* collide's and overlap's counts over the batches */
} sat_outs;

/* Lists the per-pair outputs (hit, overlap hit, bad, overlap bad, separation, normal, axis), then
 * the compacted list, into l; returns how many (the list is the last). */
int sat_list(sat_outs *o, int dims, ca_out *l);

/* What every run must satisfy on its own: the compacted list's count (`listed`, from the
 * whole-chunk collide) is the batches' collide count; overlap's bad bytes are collide's, and at
 * margin 0 its hit bytes too. */
void sat_check_run(const sat_outs *o, size_t n, float margin, ptrdiff_t listed);

/* The reference: hit and bad each 0 or 1 and never both (a bad pair reads "no overlap"); adds the
 * overlapping and bad pairs to *hits and *bad, and hashes the outputs of `list` (sat_list's k),
 * the compacted list and the counts. */
void sat_check_ref(const sat_outs *o, const ca_out *list, int k, size_t n, uint64_t *hits, uint64_t *bad);

/* A run against the reference: every per-pair output, the compacted list, the counts. Returns the
 * first differing pair of the per-pair outputs, or SIZE_MAX. */
size_t sat_compare(const sat_outs *ref, const ca_out *ref_list, const sat_outs *got, const ca_out *got_list, int k,
                   size_t n);

#endif

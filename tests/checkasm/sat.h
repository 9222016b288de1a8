/* sat.h - what the 3D and 2D pairs areas share: the outputs of collide and overlap, and their checks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CHECKASM_SAT_H
#define SATBOX_CHECKASM_SAT_H

#include "checkasm.h"
#include "box3d/box3d.h"

/* The outputs of one run of collide (per batch), overlap (per batch) and collide's compacted list
 * (over the whole chunk): every output collide carries (SBX_OUTPUTS), each followed by overlap's
 * own when overlap carries it too (o<name>: ohit, obad); a vector's first `dims` components are
 * used (3 in 3D, 2 in 2D). */
#define SAT_GBUF(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##co(gbuf CA_OUT_DECL(name, rows, vec);) SBX_WHEN_##ov(gbuf CA_OUT_DECL(o##name, rows, vec);)
typedef struct sat_outs {
    SBX_OUTPUTS(SAT_GBUF)    /* hit, ohit, bad, obad, separation, normal[3], axis */
    gbuf compact;            /* the compacted list */
    ptrdiff_t count, ocount; /* collide's and overlap's counts over the batches */
} sat_outs;
#undef SAT_GBUF

/* How many outputs sat_list lists in `dims` dimensions (the compacted list included). */
#define SAT_OUT_COUNT2(name, type, rows, vec, ov, co, ct, flagged) +((co) + (ov)) * SBX_OUT_COUNT(2, rows, vec)
#define SAT_OUT_COUNT3(name, type, rows, vec, ov, co, ct, flagged) +((co) + (ov)) * SBX_OUT_COUNT(3, rows, vec)
#define SAT_OUTS_2D (1 SBX_OUTPUTS(SAT_OUT_COUNT2))
#define SAT_OUTS_3D (1 SBX_OUTPUTS(SAT_OUT_COUNT3))

/* Lists the per-pair outputs (in sat_outs' order: hit, overlap hit, bad, overlap bad, separation,
 * normal, axis), then the compacted list, into l; returns how many (the list is the last). */
int sat_list(sat_outs *o, int dims, ca_out *l);

/* Binds the per-pair outputs in o of collide (SAT_BIND_COLLIDE) or of overlap (SAT_BIND_OVERLAP,
 * o<name>) to the job *job (an sbx_job or an sbx_job2d) from pair `at`: an expansion of
 * SBX_OUTPUTS with the names job, o and at in scope. */
#define SAT_BIND_COLLIDE(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(CA_BIND_OUT(job, name, type, o->name, at);)
#define SAT_BIND_OVERLAP(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ov(CA_BIND_OUT(job, name, type, o->o##name, at);)

/* What every run must satisfy on its own: the compacted list's count (`listed`, from the
 * whole-chunk collide) is the batches' collide count; overlap's bad bytes are collide's, and at
 * margin 0 its hit bytes too. */
void sat_check_run(const sat_outs *o, size_t n, float margin, ptrdiff_t listed);

/* The reference: every per-pair output written (ca_written), hit and bad each 0 or 1 and never both
 * (a bad pair reads "no overlap"); adds the overlapping and bad pairs to *hits and *bad, and hashes
 * the outputs of `list` (sat_list's k), the compacted list and the counts. */
void sat_check_ref(const sat_outs *o, const ca_out *list, int k, size_t n, uint64_t *hits, uint64_t *bad);

/* A run against the reference: every per-pair output, the compacted list, the counts. Returns the
 * first differing pair of the per-pair outputs, or SIZE_MAX. */
size_t sat_compare(const sat_outs *ref, const ca_out *ref_list, const sat_outs *got, const ca_out *got_list, int k,
                   size_t n);

#endif

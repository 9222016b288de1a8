/* outputs.h - THE list of per-pair outputs (SBX_OUTPUTS) and what expands it; macros only, so that
 * the tests of the public API can enumerate the outputs too. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_OUTPUTS_H
#define SATBOX_OUTPUTS_H

#include <math.h>

#include "core/isa.h" /* SBX_IF */
#include "satbox/satbox.h"

/* SBX_WHEN_1(x) is x, SBX_WHEN_0(x) nothing: a list column that decides whether an expansion has an entry. */
#define SBX_WHEN_1(...) __VA_ARGS__
#define SBX_WHEN_0(...)

/* THE list of per-pair outputs: one entry per output array (or row of arrays) of the public
 * result structs, in the order of the pairs checkers' lists and hashes (the contacts area hashes
 * in an order of its own: tests/checkasm/contacts.c hash_outputs). Expanded from it: the output
 * fields of the jobs (sbx_job, sbx_job2d, sbx_cjob: SBX_OUT_FIELD3 in internal.h, SBX_OUT_FIELD2 in
 * internal2d.h, SBX_OUT_CFIELD in contacts.h), their binding to the public structs with the output spans
 * (SBX_BIND_OUT in api.c, api_contacts.c, api2d.c) and the room for those spans (sbx_spans), the
 * checks that the public structs (satbox_result, satbox_contacts_out, satbox2d_result) hold exactly
 * these fields (args.c), the checked mode's flagged values (checked.c), the bare contacts call of
 * the benchmarks (bench/bare.cpp), and the checkers' guarded buffers, bindings, lists, comparisons
 * and hashes (tests/checkasm/sat.[ch], pairs.c, pairs2d.c, contacts.c).
 *   X(name, type, rows, vec, overlap, collide, contacts, flagged)
 *   name:    the field's name in the public struct and in the job
 *   type:    the element type; the field is `type *name rows` (+ `[3]` in 3D, `[2]` in 2D when vec)
 *   rows:    empty, or `[4]` for one array per contact point
 *   vec:     1 when each value is a world vector: one array per component (3 in 3D, 2 in 2D)
 *   overlap, collide, contacts: 1 when the form carries it (satbox_overlap's hit and bad arguments,
 *            satbox_result / satbox2d_result, satbox_contacts_out); an output that collide carries
 *            lives in sbx_job (and sbx_job2d), a contacts-only one in sbx_cjob
 *   flagged: what the checked mode writes into it for a pair whose axes break the precondition
 * A new output (say a second normal on the pair forms): edit these places
 *   1. its entry here (collide 1: a field of sbx_job and sbx_job2d; contacts only: of sbx_cjob);
 *   2. its field in the public struct(s) of its forms, documented (include/satbox/satbox.h,
 *      satbox2d.h), appended last (tests and bench fill these structs by position; a field in
 *      the middle breaks them, and one appended leaves their new output NULL: give them theirs);
 *      the build stops (args.c) until the struct and the list agree; collide 1 puts it in 2D too;
 *   3. what each kernel writes into it: the scalar reference (scalar.c put_collide1 /
 *      scalar_contacts.c / scalar2d.c) and the wide stores (batch_tpl.h put_collide, shared with
 *      sat2d_tpl.h; contacts_tpl.h), the same bits on every path; bad data's value there too;
 *   4. the stream record, if the contacts stream is to carry it (satbox_manifold,
 *      contacts.h sbx_put_manifold*, tests/checkasm/contacts.c expected_record);
 *   5. the tests and benchmarks that still spell the outputs out one by one: tests/fuzz_diff.c and
 *      tests/fuzz2d.c (their outs and checks), tests/test_helpers.c (outs, outs_equal),
 *      tests/test_badinput.c's cases, bench/bare.cpp bare_call and bench/bench_kernel.cpp (collide),
 *      bench/bench_main.cpp out_bytes and bench/insn_count.cpp;
 *      and what checks an output's meaning (tests/test_*.c, tests/checkasm/contacts.c's
 *      expected_record for the stream).
 * Binding, spans and their room, aliasing, the checked mode, the checkers' buffers, comparison and
 * hash (which then changes: it covers the new output), the contacts tests' arrays
 * (tests/contacts_util.h tc_arrays), test_tails' and test_small_stack's output slots follow from
 * the entry. */
#define SBX_OUTPUTS(X)                                                                                  \
    X(hit, uint8_t, , 0, 1, 1, 1, 0)                          /* 1 hit, 0 not (or bad data) */          \
    X(bad, uint8_t, , 0, 1, 1, 1, SATBOX_BAD_AXES)            /* SATBOX_BAD_DATA, _AXES, or 0 */        \
    X(separation, float, , 0, 0, 1, 0, NAN)                   /* largest gap, NaN for bad data */       \
    X(normal, float, , 1, 0, 1, 1, 0.0f)                      /* unit normal from A to B */             \
    X(axis, uint8_t, , 0, 0, 1, 1, SATBOX_AXIS_INVALID)       /* axis id */                             \
    X(count, uint8_t, , 0, 0, 0, 1, 0)                        /* contact points, 0..4 */                \
    X(point, float, [4], 1, 0, 0, 1, 0.0f)                    /* world contact points */                \
    X(depth, float, [4], 0, 0, 0, 1, 0.0f)                    /* their penetrations */                  \
    X(feature, uint32_t, [4], 0, 0, 0, 1, SATBOX_FEATURE_NONE) /* their feature ids */

/* Output `name`'s field declarator in `dims` dimensions (vec: one array per component), and how
 * many arrays that is. */
#define SBX_OUT_DECL(dims, name, rows, vec) name rows SBX_IF(vec)([dims], )
#define SBX_OUT_COUNT(dims, rows, vec) ((int)sizeof(char rows) * ((vec) ? (dims) : 1))
/* How many arrays output `name` of struct *p is (1, the vector's components, or rows of them). */
#define SBX_OUT_ARRAYS(p, name, type) (sizeof (p)->name / sizeof(type *))
/* Array k of output `name` of *p, counting row by row (an lvalue of type `type *`). */
#define SBX_OUT_AT(p, name, type, k) (((type **)(void *)&(p)->name)[k])
#define SBX_OUT_AT_C(p, name, type, k) (((type *const *)(const void *)&(p)->name)[k])

#endif

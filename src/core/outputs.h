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
 * fields of the jobs (sbx_job, sbx_job2d, sbx_cjob: SBX_OUT_FIELD3 in box3d/box3d.h, SBX_OUT_FIELD2
 * in poly2d/poly2d.h, SBX_OUT_CFIELD in box3d/contacts.h), their binding to the public structs with
 * the output spans (SBX_BIND_OUT in box3d/api.c, api_contacts.c, poly2d/api2d.c) and the room for
 * those spans (sbx_spans), the checks that the public structs (satbox_result, satbox_contacts_out,
 * satbox2d_result) hold exactly these fields (core/args.c), the checked mode's flagged values
 * (box3d/checked.c), the bare contacts call of the benchmarks (bench/bare.cpp), and the checkers'
 * guarded buffers, bindings, lists, comparisons and hashes (tests/checkasm/sat.[ch], pairs.c,
 * pairs2d.c, contacts.c).
 *   X(name, type, rows, vec, overlap, collide, contacts, flagged)
 *   name:    the field's name in the public struct and in the job
 *   type:    the element type; the field is `type *name rows` (+ `[3]` in 3D, `[2]` in 2D when vec)
 *   rows:    empty, or `[4]` for one array per contact point
 *   vec:     1 when each value is a world vector: one array per component (3 in 3D, 2 in 2D)
 *   overlap, collide, contacts: 1 when the form carries it (satbox_overlap's hit and bad arguments,
 *            satbox_result / satbox2d_result, satbox_contacts_out); an output that collide carries
 *            lives in sbx_job (and sbx_job2d: collide 1 puts it in 2D too), a contacts-only one in
 *            sbx_cjob
 *   flagged: what the checked mode writes into it for a pair whose axes break the precondition
 * Adding an output: src/README.md, Recipes. */
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

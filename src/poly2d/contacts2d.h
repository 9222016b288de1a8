/* contacts2d.h - what the 2D contacts entry points, reference and kernels share: the 2D contacts job, the record writer. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS2D_H
#define SATBOX_CONTACTS2D_H

#include "core/internal.h"
#include "poly2d/poly2d.h"

/* One checked call of a 2D contacts entry point: `pair` holds the source, n, the inputs and the
 * margin (its outputs are NULL); `out` the n records, each written in full. */
typedef struct sbx_cjob2d {
    sbx_job2d pair;
    satbox2d_manifold *out;
} sbx_cjob2d;

/* The scalar reference (contacts2d_ref.c), the `contacts2d` of sbx_path_scalar; returns the
 * number of pairs with count > 0. */
ptrdiff_t sbx_scalar_contacts2d(const sbx_cjob2d *job);

/* api2d.c's check of a 2D job's inputs (descriptors, pool, indices) into the spans `s`. */
int sbx_check_inputs2d(const sbx_job2d *job, size_t pool_n, sbx_spans *s);

/* One record from a pair's values (every path writes its records through this). */
static inline void sbx_put_manifold2d(satbox2d_manifold *r, const float normal[2], float separation, unsigned count,
                                      unsigned axis, unsigned bad, unsigned flags, const float px[2],
                                      const float py[2], const float psep[2], const uint32_t id[2])
{
    r->normal[0] = normal[0];
    r->normal[1] = normal[1];
    r->separation = separation;
    r->count = (uint8_t)count;
    r->axis = (uint8_t)axis;
    r->bad = (uint8_t)bad;
    r->flags = (uint8_t)flags;
    for (int j = 0; j < 2; j++) {
        r->point[j].x = px[j];
        r->point[j].y = py[j];
        r->point[j].separation = psep[j];
        r->point[j].id = id[j];
    }
}

#endif

/* batch_ref.c - the reference of batch_tpl.h: the scalar path's overlap, collide, AABB and quaternion kernels. */
/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "box3d/sat_ref.h"

/* This file is compiled without SIMD headers or flags; the shared pieces (and the rules of their
 * operation order) are in sat_ref.h and sources_ref.h. */

int sbx_ref_box_valid(const satbox_box *b)
{
    obox v;
    memcpy(v.c, b->center, sizeof v.c);
    memcpy(v.h, b->half, sizeof v.h);
    memcpy(v.u, b->axis, sizeof v.u);
    return box_valid(&v);
}

ptrdiff_t sbx_scalar_overlap(const sbx_job *job)
{
    size_t count = 0;
    obox a, b;
    SBX_FOR_EACH_PAIR(job, i, a, b) {
        uint8_t bad, h = overlap(&a, &b, &bad);
        count = put_hits(job, i, h, bad, count);
    }
    return (ptrdiff_t)count;
}

ptrdiff_t sbx_scalar_collide(const sbx_job *job)
{
    size_t count = 0;
    obox a, b;
    SBX_FOR_EACH_PAIR(job, i, a, b) {
        collide_out o;
        collide(&a, &b, job->margin, &o);
        put_collide(job, i, o.separation, o.normal, o.axis);
        count = put_hits(job, i, o.hit, o.bad, count);
    }
    return (ptrdiff_t)count;
}

ptrdiff_t sbx_scalar_aabb(const sbx_box_job *job)
{
    size_t valid = 0;
    for (size_t i = 0; i < job->n; i++) {
        obox b;
        if (job->m)
            load_mat(job->m, i, &b);
        else
            load_quat(job->q, i, &b);
        int ok = box_valid(&b);
        for (int c = 0; c < 3; c++) {
            float e = (fabsf(b.u[0][c]) * b.h[0] + fabsf(b.u[1][c]) * b.h[1]) + fabsf(b.u[2][c]) * b.h[2];
            float lo = (b.c[c] - e) - job->margin, hi = (b.c[c] + e) + job->margin;
            job->min[c][i] = ok ? lo : INFINITY;
            job->max[c][i] = ok ? hi : -INFINITY;
        }
        valid += (size_t)ok;
    }
    return (ptrdiff_t)valid;
}

ptrdiff_t sbx_scalar_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float u[3][3];
        bad += (size_t)!quat_axes(quat[0][i], quat[1][i], quat[2][i], quat[3][i], u);
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                axis[k][c][i] = u[k][c];
    }
    return (ptrdiff_t)bad;
}

/* scalar.c - the plain-C reference path: defines the exact operation order every ISA path reproduces. */
/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "contacts.h"   /* the scalar path's table: its contacts kernel */
#include "internal2d.h" /* and its 2D kernels */
#include "contacts2d.h" /* and its 2D manifolds */
#include "scalar_sat.h"

/* This file is compiled without SIMD headers or flags; the shared pieces (and the rules of their
 * operation order) are in scalar_sat.h. */

/* Box validity (see satbox.h "Bad data"); sums in a fixed order; NaN fails every comparison. */
static int box_valid(const obox *b)
{
    float size = ((((fabsf(b->c[0]) + fabsf(b->c[1])) + fabsf(b->c[2])) + b->h[0]) + b->h[1]) + b->h[2];
    float asum = 0.0f;
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = asum + fabsf(b->u[k][c]);
    return b->h[0] >= 0.0f && b->h[1] >= 0.0f && b->h[2] >= 0.0f && size <= SATBOX_COORD_LIMIT &&
           asum <= SATBOX_AXIS_SUM_LIMIT;
}

int sbx_ref_box_valid(const satbox_box *b)
{
    obox v;
    memcpy(v.c, b->center, sizeof v.c);
    memcpy(v.h, b->half, sizeof v.h);
    memcpy(v.u, b->axis, sizeof v.u);
    return box_valid(&v);
}

/* Overlap bit of one pair (0 for bad data, which sets *bad). The first separating axis ends the
 * test (in id order): the bit is the same as testing all 15. */
static uint8_t ref_overlap(const obox *A, const obox *B, uint8_t *bad)
{
    sat_pair P;
    float proj;
    pair_setup(A, B, &P);
    *bad = !P.valid;
    if (!P.valid)
        return 0;
    for (int i = 0; i < 3; i++)
        if (gap_face_a(A, B, &P, i) > 0.0f)
            return 0;
    for (int j = 0; j < 3; j++)
        if (gap_face_b(A, B, &P, j, &proj) > 0.0f)
            return 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (usable_edge(&P, i, j) && gap_edge(A, B, &P, i, j, &proj) > 0.0f)
                return 0;
    return 1;
}

typedef struct pair_out {
    uint8_t hit, axis, bad;
    float separation, normal[3];
} pair_out;

/* Collide one pair: the largest normalised gap s_k = g_k / min(|L_k|, 1) over the usable axes.
 * The min with 1 only matters for axes that break the unit precondition: it keeps |s_k| >= |g_k|,
 * so the sign of s_k is that of g_k and separation <= 0 exactly when no usable axis separates,
 * as in ref_overlap(). A usable edge pair with |L| = 0 (only with non-orthonormal axes) has
 * g <= 0 and gives -inf or NaN: never chosen. Ties go to the lowest id (strict >). */
static void ref_collide(const obox *A, const obox *B, float margin, pair_out *o)
{
    sat_pair P;
    pair_setup(A, B, &P);
    o->bad = !P.valid;
    if (!P.valid) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->separation = NAN;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    /* Running argmax in id order, as sat_tpl.h collide_w(). */
    int best = 0;
    float proj, bs = gap_face_a(A, B, &P, 0), bp = P.t[0];
    for (int i = 1; i < 3; i++) {
        float g = gap_face_a(A, B, &P, i);
        if (g > bs) {
            best = i;
            bs = g;
            bp = P.t[i];
        }
    }
    for (int j = 0; j < 3; j++) {
        float g = gap_face_b(A, B, &P, j, &proj);
        if (g > bs) {
            best = 3 + j;
            bs = g;
            bp = proj;
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float g = gap_edge(A, B, &P, i, j, &proj), len = sqrtf(len2_edge(&P, i, j));
            float s = g / (len < 1.0f ? len : 1.0f);
            if (usable_edge(&P, i, j) && s > bs) {
                best = 6 + 3 * i + j;
                bs = s;
                bp = proj;
            }
        }
    float n[3];
    axis_normal(A, B, best, bp, n);
    o->hit = bs <= margin ? 1 : 0;
    o->axis = (uint8_t)best;
    o->separation = bs;
    memcpy(o->normal, n, sizeof n);
}

static ptrdiff_t sbx_scalar_overlap(const sbx_job *job)
{
    size_t count = 0;
    obox a, b;
    SBX_FOR_EACH_PAIR(job, i, a, b) {
        uint8_t bad, h = ref_overlap(&a, &b, &bad);
        count = put_hit1(job, i, h, bad, count);
    }
    return (ptrdiff_t)count;
}

ptrdiff_t sbx_scalar_collide(const sbx_job *job)
{
    size_t count = 0;
    obox a, b;
    SBX_FOR_EACH_PAIR(job, i, a, b) {
        pair_out o;
        ref_collide(&a, &b, job->margin, &o);
        put_collide1(job, i, o.separation, o.normal, o.axis);
        count = put_hit1(job, i, o.hit, o.bad, count);
    }
    return (ptrdiff_t)count;
}

static ptrdiff_t sbx_scalar_aabb(const sbx_box_job *job)
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

static ptrdiff_t sbx_scalar_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
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

/* The scalar path's table (src/isa.h): this file's kernels, the contacts of scalar_contacts.c and the
 * 2D kernels of scalar2d.c. */
#define SBX_KERNEL_PREFIXED(name) sbx_scalar_##name
const sbx_path sbx_path_scalar = SBX_PATH_TABLE(1);
#undef SBX_KERNEL_PREFIXED

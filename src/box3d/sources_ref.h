/* sources_ref.h - the reference of sources_tpl.h: a box as the scalar path holds it, and pair i of each pair source. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SOURCES_REF_H
#define SATBOX_SOURCES_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "box3d/box3d.h"

/* Naming: a one-pair type of the scalar reference is <stem>; its twin of SBX_W pairs in the
 * templates is <stem>w (obox / oboxw, sat_pair / sat_pairw, orect / orectw, cpoly / cpolyw,
 * best2d / best2dw, pair2d / pair2dw, ...), and a function of the templates is the scalar one's name + _w. */
typedef struct obox {
    float c[3], h[3], u[3][3]; /* center, half extents, u[k][c] = component c of axis k */
} obox;

/* Quaternion (x, y, z, w) -> axes, normalising through s = 2 / |q|^2. Invalid -> NaN axes. */
static inline int quat_axes(float x, float y, float z, float w, float u[3][3])
{
    float n2 = ((x * x + y * y) + z * z) + w * w;
    if (!(n2 >= SATBOX_QUAT_MIN_NORM2 && n2 <= SATBOX_QUAT_MAX_NORM2)) {
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                u[k][c] = NAN;
        return 0;
    }
    float s = 2.0f / n2;
    float xs = x * s, ys = y * s, zs = z * s;
    float wx = w * xs, wy = w * ys, wz = w * zs;
    float xx = x * xs, xy = x * ys, xz = x * zs;
    float yy = y * ys, yz = y * zs, zz = z * zs;
    u[0][0] = 1.0f - (yy + zz);
    u[0][1] = xy + wz;
    u[0][2] = xz - wy;
    u[1][0] = xy - wz;
    u[1][1] = 1.0f - (xx + zz);
    u[1][2] = yz + wx;
    u[2][0] = xz + wy;
    u[2][1] = yz - wx;
    u[2][2] = 1.0f - (xx + yy);
    return 1;
}

static inline void load_mat(const satbox_boxes *s, size_t i, obox *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->u[k][c] = s->axis[k][c][i];
}

/* The public struct of a loaded box (satbox_box: the same fields under their public names). */
static inline void box_to_struct(const obox *v, satbox_box *b)
{
    memcpy(b->center, v->c, sizeof b->center);
    memcpy(b->half, v->h, sizeof b->half);
    memcpy(b->axis, v->u, sizeof b->axis);
}

/* One box as a batch of one: each array of the view points at its field of *b. */
static inline satbox_boxes sbx_box_view(const satbox_box *b)
{
    satbox_boxes v;
    for (int c = 0; c < 3; c++) {
        v.center[c] = &b->center[c];
        v.half[c] = &b->half[c];
        for (int k = 0; k < 3; k++)
            v.axis[k][c] = &b->axis[k][c];
    }
    return v;
}

static inline void load_quat(const satbox_qboxes *s, size_t i, obox *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    quat_axes(s->quat[0][i], s->quat[1][i], s->quat[2][i], s->quat[3][i], b->u);
}

static inline void load_one(const satbox_box *s, obox *b)
{
    memcpy(b->c, s->center, sizeof b->c);
    memcpy(b->h, s->half, sizeof b->h);
    memcpy(b->u, s->axis, sizeof b->u);
}

static inline void load_rec_box(const satbox_rec *r, obox *b)
{
    memcpy(b->c, r->center, sizeof b->c);
    memcpy(b->h, r->half, sizeof b->h);
    memcpy(b->u, r->axis, sizeof b->u);
}

static inline void load_qrec_box(const satbox_qrec *r, obox *b)
{
    memcpy(b->c, r->center, sizeof b->c);
    memcpy(b->h, r->half, sizeof b->h);
    quat_axes(r->quat[0], r->quat[1], r->quat[2], r->quat[3], b->u);
}

/* ---- the sources of SBX_SOURCES (sources.h): for each NAME, pair i of a job (load_pair_NAME).
 * The record sources fetch the two records of the pair SBX_REC_AHEAD ahead in large pools. */
static inline int rec_prefetch_at(const sbx_job *job, size_t i)
{
    return job->pool_n >= SBX_REC_PREFETCH_MIN_POOL && i + SBX_REC_AHEAD < job->n;
}

SBX_ALWAYS_INLINE void load_pair_MAT(const sbx_job *job, size_t i, obox *a, obox *b)
{
    load_mat(job->ma, i, a);
    load_mat(job->mb, i, b);
}

SBX_ALWAYS_INLINE void load_pair_QUAT(const sbx_job *job, size_t i, obox *a, obox *b)
{
    load_quat(job->qa, i, a);
    load_quat(job->qb, i, b);
}

SBX_ALWAYS_INLINE void load_pair_ONE(const sbx_job *job, size_t i, obox *a, obox *b)
{
    load_one(job->one, a);
    load_mat(job->mb, i, b);
}

SBX_ALWAYS_INLINE void load_pair_POOL(const sbx_job *job, size_t i, obox *a, obox *b)
{
    load_mat(job->pool, job->pairs[i].a, a);
    load_mat(job->pool, job->pairs[i].b, b);
}

SBX_ALWAYS_INLINE void load_pair_REC(const sbx_job *job, size_t i, obox *a, obox *b)
{
    if (rec_prefetch_at(job, i)) {
        SBX_PREFETCH(&job->rec[job->pairs[i + SBX_REC_AHEAD].a]);
        SBX_PREFETCH(&job->rec[job->pairs[i + SBX_REC_AHEAD].b]);
    }
    load_rec_box(&job->rec[job->pairs[i].a], a);
    load_rec_box(&job->rec[job->pairs[i].b], b);
}

SBX_ALWAYS_INLINE void load_pair_QREC(const sbx_job *job, size_t i, obox *a, obox *b)
{
    if (rec_prefetch_at(job, i)) { /* 48-byte records: a record's first and last line */
        const satbox_qrec *ra = &job->qrec[job->pairs[i + SBX_REC_AHEAD].a];
        const satbox_qrec *rb = &job->qrec[job->pairs[i + SBX_REC_AHEAD].b];
        SBX_PREFETCH(ra);
        SBX_PREFETCH(rb);
        SBX_PREFETCH(ra->quat + 3);
        SBX_PREFETCH(rb->quat + 3);
    }
    load_qrec_box(&job->qrec[job->pairs[i].a], a);
    load_qrec_box(&job->qrec[job->pairs[i].b], b);
}

/* Pair i of a job, from its source. */
SBX_ALWAYS_INLINE void load_job(const sbx_job *job, size_t i, obox *a, obox *b)
{
    switch (job->src) {
#define SBX_LOAD(name, ...) case SBX_SRC_##name: load_pair_##name(job, i, a, b); break;
        SBX_SOURCES(SBX_LOAD)
#undef SBX_LOAD
    default: /* not reached: args3d.c sbx_check_sources refuses a src outside the list before any
              * kernel runs (as in batch_tpl.h load_job_w); a reachable default would cost the
              * per-pair switch a bounds test */
        __builtin_unreachable();
    }
}

/* The scalar paths' loop over a job: for each pair i, its boxes loaded into the obox a and b (the
 * caller's), then the body. */
#define SBX_FOR_EACH_PAIR(job, i, a, b) for (size_t i = 0; i < (job)->n && (load_job((job), i, &(a), &(b)), 1); i++)

#endif

/* box3d.h - what the 3D entry points, the 3D scalar reference and the 3D templates share: the pair and AABB jobs, the 3D declarations. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_BOX3D_H
#define SATBOX_BOX3D_H

#include "core/internal.h"

/* Record pools of at least this many boxes (1 MiB) are assumed not to be in cache: the record
 * forms then fetch the two records of the pair SBX_REC_AHEAD pairs ahead of the one they test,
 * so that random slots in a pool far larger than the caches cost little more than sweep order. */
#ifndef SBX_REC_PREFETCH_MIN_POOL
#define SBX_REC_PREFETCH_MIN_POOL 16384
#endif
#define SBX_REC_AHEAD 48

#include "box3d/sources.h" /* the list of pair sources (SBX_SOURCES) and its predicates */

/* sbx_job's fields: the outputs collide carries (sbx_job2d's: SBX_OUT_FIELD2, sbx_cjob's: SBX_OUT_CFIELD). */
#define SBX_OUT_FIELD3(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(type *SBX_OUT_DECL(3, name, rows, vec);)

/* One call's worth of work, already checked by the public entry point. The kernels process
 * pairs [0, n) and write only the outputs that are not NULL. */
typedef struct sbx_job {
    sbx_src src;
    size_t n;
    const satbox_boxes *ma, *mb;   /* SBX_SRC_MAT; mb also for SBX_SRC_ONE */
    const satbox_qboxes *qa, *qb;  /* SBX_SRC_QUAT */
    const satbox_box *one;         /* SBX_SRC_ONE */
    const satbox_boxes *pool;      /* SBX_SRC_POOL */
    const satbox_rec *rec;         /* SBX_SRC_REC */
    const satbox_qrec *qrec;       /* SBX_SRC_QREC */
    const satbox_pair *pairs;      /* pool sources */
    size_t pool_n;                 /* pool sources: boxes in the pool */
    float margin;                  /* collide only */
    SBX_OUTPUTS(SBX_OUT_FIELD3)    /* hit, bad, separation, normal[3], axis: each may be NULL (overlap: hit, bad) */
    uint32_t *compact;             /* may be NULL: indices of pairs with hit == 1, ascending */
} sbx_job;

/* A box job (AABB): either matrix or quaternion source. */
typedef struct sbx_box_job {
    size_t n;
    const satbox_boxes *m;   /* non-NULL: matrix source */
    const satbox_qboxes *q;  /* otherwise: quaternion source */
    float margin;
    float *min[3], *max[3];
} sbx_box_job;

/* The scalar path's 3D kernels (batch_ref.c), entries of its table (kernel_scalar.c); the checked
 * mode calls sbx_scalar_collide directly, which keeps its depth visible in the call graphs that
 * stack_frames.py (tests) reads. */
ptrdiff_t sbx_scalar_overlap(const sbx_job *job);
ptrdiff_t sbx_scalar_collide(const sbx_job *job);
ptrdiff_t sbx_scalar_aabb(const sbx_box_job *job);
ptrdiff_t sbx_scalar_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3]);

/* layout.c: box i of a batch as a struct; 1 when b's axes are unit and orthogonal within tol
 * (|u_k . u_l - delta_kl| <= tol, in double: satbox_validate()'s code 2 and the checked mode). */
void sbx_box_at(const satbox_boxes *v, size_t i, satbox_box *b);
int sbx_axes_orthonormal(const satbox_box *b, double tol);

/* batch_ref.c: the validity rule of satbox.h ("Bad data") for one box; 1 valid, 0 invalid. */
int sbx_ref_box_valid(const satbox_box *b);

/* checked.c: the checked mode (satbox_checked_active()). After a kernel ran over a checked job
 * with result `count`, these flag the pairs whose boxes break the axes' precondition (outputs as
 * for bad data, bad = SATBOX_BAD_AXES, dropped from the list) and return the corrected count. */
ptrdiff_t sbx_checked_pairs(const sbx_job *job, ptrdiff_t count);

/* args3d.c: the input checks of the 3D calls. */
/* NULL checks of a batch descriptor; its arrays recorded as inputs of `count` floats. */
int sbx_check_boxes(const satbox_boxes *b, size_t count, sbx_spans *s);
int sbx_check_qboxes(const satbox_qboxes *b, size_t count, sbx_spans *s);
/* The inputs of a pair job (n = job->n > 0 pairs, every source; pool_n: the pool forms' size):
 * NULL and index checks, arrays recorded in s. */
int sbx_check_sources(const sbx_job *job, size_t pool_n, sbx_spans *s);
/* What every pair and contacts call checks first: sbx_check_batch (with the pool's size; 1 when
 * n == 0), then sbx_check_sources. */
int sbx_check_pair_job(const sbx_job *job, size_t pool_n, int takes_margin, sbx_spans *s);

#endif

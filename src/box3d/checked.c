/* checked.c - the checked mode for integrators: each call verifies the axes' precondition and flags the pairs that break it. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "box3d/contacts.h"
#include "box3d/sat_ref.h"

/* The mode is read once (the build's default, then SATBOX_CHECKED from the environment) and
 * never changes afterwards, like the path choice: -1 = not read yet. When it is off, the entry
 * points run the same code as a build without it, plus one test of this flag per call. */
#ifndef SATBOX_CHECKED_DEFAULT
#define SATBOX_CHECKED_DEFAULT 0
#endif
static _Atomic int checked_state = -1;

int satbox_checked_active(void)
{
    int s = atomic_load_explicit(&checked_state, memory_order_acquire);
    if (s < 0) {
        s = SATBOX_CHECKED_DEFAULT;
        const char *env = getenv("SATBOX_CHECKED");
        if (env && *env)
            s = strcmp(env, "0") != 0;
        atomic_store_explicit(&checked_state, s, memory_order_release);
    }
    return s;
}

/* 1 when a box with finite, valid data has axes that are not unit and orthogonal within
 * SATBOX_CHECKED_TOL (the rule of satbox_validate()'s code 2, in double). Invalid data is the
 * kernels' business (code 1), never this one's. */
static int axes_broken(const satbox_box *b)
{
    return sbx_ref_box_valid(b) && !sbx_axes_orthonormal(b, SATBOX_CHECKED_TOL);
}

/* 1 when pair i of the job breaks the precondition. Quaternion sources build their axes inside
 * the kernel (orthonormal up to rounding by construction): never broken. The boxes are read by
 * the scalar reference's loader of the source (sources_ref.h load_job). */
static int pair_broken(const sbx_job *job, size_t i)
{
    if (sbx_src_is_quat(job->src))
        return 0;
    obox va, vb;
    load_job(job, i, &va, &vb);
    satbox_box a, b;
    box_to_struct(&va, &a);
    box_to_struct(&vb, &b);
    return axes_broken(&a) || axes_broken(&b);
}

/* Whether pair i hits (collide's hit at the job's margin; 0 for overlap jobs, where it equals the
 * overlap bit): asked of the scalar reference on that pair alone, since the caller's outputs
 * may not include anything that says it. The pair is read by its source's loader and asked as a
 * batch of one matrix pair (the sources give the same bits for the same boxes), so this holds
 * for every source without naming one. */
static int pair_hits(const sbx_job *job, size_t i)
{
    obox va, vb;
    load_job(job, i, &va, &vb);
    satbox_box a, b;
    box_to_struct(&va, &a);
    box_to_struct(&vb, &b);
    satbox_boxes ma = sbx_box_view(&a), mb = sbx_box_view(&b);
    uint8_t hit = 0;
    sbx_scalar_collide(&(sbx_job){.src = SBX_SRC_MAT, .n = 1, .ma = &ma, .mb = &mb, .margin = job->margin, .hit = &hit});
    return hit == 1;
}

/* Pair i of every array of output `name` of the job *p that is not NULL: the checked mode's value
 * (SBX_OUTPUTS' flagged column). */
#define SBX_FLAG_OUT(p, name, type, flagged, i)                          \
    for (size_t k_ = 0; k_ < SBX_OUT_ARRAYS(p, name, type); k_++)        \
        if (SBX_OUT_AT_C(p, name, type, k_))                             \
            SBX_OUT_AT_C(p, name, type, k_)[i] = (type)(flagged)

/* The flagged pairs' per-pair outputs of the pair functions, the list without them; returns the
 * count less the flagged pairs that had hit. */
ptrdiff_t sbx_checked_pairs(const sbx_job *job, ptrdiff_t count)
{
    if (count < 0)
        return count;
    size_t hits = (size_t)count;
    for (size_t i = 0; i < job->n; i++) {
        if (!pair_broken(job, i))
            continue;
        hits -= (size_t)pair_hits(job, i);
#define SBX_FLAG_PAIR(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(SBX_FLAG_OUT(job, name, type, flagged, i);)
        SBX_OUTPUTS(SBX_FLAG_PAIR)
#undef SBX_FLAG_PAIR
    }
    if (job->compact) { /* ascending pair indices: drop the flagged ones in place */
        size_t kept = 0;
        for (size_t j = 0; j < (size_t)count; j++)
            if (!pair_broken(job, job->compact[j]))
                job->compact[kept++] = job->compact[j];
    }
    return (ptrdiff_t)hits;
}

/* The same for the contacts functions: the manifold outputs (the contacts-only entries of
 * SBX_OUTPUTS) emptied as for bad data; the stream loses the records of the flagged pairs (the
 * rest keep their order). */
ptrdiff_t sbx_checked_contacts(const sbx_cjob *cj, ptrdiff_t count)
{
    if (count < 0)
        return count;
    const sbx_job *job = &cj->pair;
    if (cj->stream) {
        size_t kept = 0;
        for (size_t r = 0; r < (size_t)count; r++)
            if (!pair_broken(job, cj->stream[r].pair))
                cj->stream[kept++] = cj->stream[r];
        if (job->bad)
            for (size_t i = 0; i < job->n; i++)
                if (pair_broken(job, i))
                    job->bad[i] = SATBOX_BAD_AXES;
        return (ptrdiff_t)kept;
    }
    for (size_t i = 0; i < job->n; i++) {
        if (!pair_broken(job, i))
            continue;
#define SBX_FLAG_MANIFOLD(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_IF(co)(, SBX_WHEN_##ct(SBX_FLAG_OUT(cj, name, type, flagged, i);))
        SBX_OUTPUTS(SBX_FLAG_MANIFOLD)
#undef SBX_FLAG_MANIFOLD
    }
    /* hit, bad, normal, axis, the list and the count as for the pair functions */
    return sbx_checked_pairs(job, count);
}

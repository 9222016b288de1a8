/* args3d.c - the input checks of the 3D calls: box batches, and the inputs of each pair source (SBX_SOURCES). */
/* SPDX-License-Identifier: MIT */
#include "box3d/box3d.h"

int sbx_check_boxes(const satbox_boxes *b, size_t count, sbx_spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    const void *arrays[15] = {b->center[0], b->center[1], b->center[2], b->half[0], b->half[1], b->half[2]};
    for (int k = 0; k < 9; k++)
        arrays[6 + k] = b->axis[k / 3][k % 3];
    return sbx_add_arrays(s, 0, arrays, 15, count * sizeof(float));
}

int sbx_check_qboxes(const satbox_qboxes *b, size_t count, sbx_spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    const void *arrays[10] = {b->center[0], b->center[1], b->center[2], b->half[0], b->half[1], b->half[2],
                              b->quat[0],   b->quat[1],   b->quat[2],   b->quat[3]};
    return sbx_add_arrays(s, 0, arrays, 10, count * sizeof(float));
}

/* Pool + pairs (SoA pool, or records of rec_size bytes when `rec` is set): every index is
 * checked before anything is written. */
static int check_pool(const satbox_boxes *pool, const void *rec, size_t rec_size, size_t pool_n,
                      const satbox_pair *pairs, size_t n, sbx_spans *s)
{
    int e = sbx_check_pool(pairs, pool_n);
    if (e)
        return e;
    if (rec)
        sbx_add_in(s, rec, pool_n * rec_size);
    else if ((e = sbx_check_boxes(pool, pool_n, s)))
        return e;
    return sbx_check_indices(pairs, n, pool_n, s);
}

/* The sources of SBX_SOURCES (sources.h): for each NAME, the NULL and index checks of a job's
 * inputs (n = job->n > 0 pairs), its arrays recorded in s. */
static int check_src_MAT(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    (void)pool_n;
    int e = sbx_check_boxes(job->ma, job->n, s);
    return e ? e : sbx_check_boxes(job->mb, job->n, s);
}

static int check_src_QUAT(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    (void)pool_n;
    int e = sbx_check_qboxes(job->qa, job->n, s);
    return e ? e : sbx_check_qboxes(job->qb, job->n, s);
}

static int check_src_ONE(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    (void)pool_n;
    int e = job->one ? sbx_check_boxes(job->mb, job->n, s) : SATBOX_ERR_NULL;
    sbx_add_in(s, job->one, sizeof *job->one);
    return e;
}

static int check_src_POOL(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    return check_pool(job->pool, NULL, 0, pool_n, job->pairs, job->n, s);
}

static int check_src_REC(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    return job->rec ? check_pool(NULL, job->rec, sizeof *job->rec, pool_n, job->pairs, job->n, s) : SATBOX_ERR_NULL;
}

static int check_src_QREC(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    return job->qrec ? check_pool(NULL, job->qrec, sizeof *job->qrec, pool_n, job->pairs, job->n, s)
                     : SATBOX_ERR_NULL;
}

int sbx_check_sources(const sbx_job *job, size_t pool_n, sbx_spans *s)
{
    switch (job->src) {
#define SBX_CHECK(name, ...) case SBX_SRC_##name: return check_src_##name(job, pool_n, s);
        SBX_SOURCES(SBX_CHECK)
#undef SBX_CHECK
    default: return SATBOX_ERR_ARG;
    }
}

int sbx_check_pair_job(const sbx_job *job, size_t pool_n, int takes_margin, sbx_spans *s)
{
    int e = sbx_check_batch(job->n, pool_n, takes_margin, job->margin);
    return e ? e : sbx_check_sources(job, pool_n, s);
}


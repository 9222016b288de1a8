/* api_contacts.c - the 3D contact-manifold entry points (SoA and stream forms): argument checks, then the active path's contacts kernel. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "box3d/contacts.h"

/* Binds every output of `out` (the contacts entries of SBX_OUTPUTS) to the job, each recorded as
 * an output span of n elements: those collide shares in cj->pair, the manifold's in cj. */
static void add_outputs(sbx_spans *s, sbx_cjob *cj, const satbox_contacts_out *out, size_t n)
{
#define SBX_BIND_CONTACTS(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##ct(SBX_BIND_OUT(s, SBX_IF(co)(&cj->pair, cj), out, name, type, n);)
    SBX_OUTPUTS(SBX_BIND_CONTACTS)
#undef SBX_BIND_CONTACTS
    sbx_add_out(s, cj->pair.compact, n * sizeof(uint32_t));
}

/* Every contacts entry point: checks all arguments (nothing is written unless all pass), then
 * runs the active path. `pool_n` is used by the pool sources only; `stream_form`: the outputs
 * are cj->stream (records) and cj->pair.bad instead of `out`. contacts_check returns 0 when the
 * job may run, 1 when there is nothing to do (n = 0), else the error; out of line, so that its
 * spans (1.2 KB) are off the stack while the kernel runs. */
static SBX_NOINLINE int contacts_check(sbx_cjob *cj, const satbox_contacts_out *out, int stream_form, size_t pool_n)
{
    sbx_job *job = &cj->pair;
    job->pool_n = pool_n; /* the record forms prefetch when the pool is large (as pair_check sets it) */
    size_t n = job->n;
    sbx_spans s = {.nin = 0};
    int e = sbx_check_pair_job(job, pool_n, 1, &s);
    if (e)
        return e;
    if (stream_form) {
        if (!cj->stream)
            return SATBOX_ERR_NULL;
        sbx_add_out(&s, cj->stream, n * sizeof *cj->stream);
        sbx_add_out(&s, job->bad, n);
    } else {
        if (!out)
            return SATBOX_ERR_NULL;
        add_outputs(&s, cj, out, n);
    }
    return sbx_aliased(&s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

static ptrdiff_t contacts_call(sbx_cjob *cj, const satbox_contacts_out *out, int stream_form, size_t pool_n)
{
    int e = contacts_check(cj, out, stream_form, pool_n);
    if (e)
        return e > 0 ? 0 : e;
    ptrdiff_t count = sbx_active()->contacts(cj);
    return satbox_checked_active() ? sbx_checked_contacts(cj, count) : count;
}

/* The stream forms (the same kernels, records instead of SoA rows): the SoA outputs are replaced
 * by the record array (room for n). */
static ptrdiff_t stream_call(sbx_cjob *cj, satbox_manifold *records, uint8_t *bad, size_t pool_n)
{
    cj->stream = records;
    cj->pair.bad = bad;
    return contacts_call(cj, NULL, 1, pool_n);
}

/* ---- entry points: each builds the job of its pair source (box3d/sources.h) and makes the shared call ---- */

ptrdiff_t satbox_contacts(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin, const satbox_contacts_out *out)
{
    return contacts_call(&(sbx_cjob){.pair = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .margin = margin}}, out, 0, 0);
}

ptrdiff_t satbox_contacts_stream(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin, satbox_manifold *out,
                                 uint8_t *bad)
{
    return stream_call(&(sbx_cjob){.pair = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .margin = margin}}, out, bad, 0);
}

ptrdiff_t satbox_contacts_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin, const satbox_contacts_out *out)
{
    return contacts_call(&(sbx_cjob){.pair = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .margin = margin}}, out, 0, 0);
}

ptrdiff_t satbox_contacts_stream_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin, satbox_manifold *out,
                                   uint8_t *bad)
{
    return stream_call(&(sbx_cjob){.pair = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .margin = margin}}, out, bad, 0);
}

ptrdiff_t satbox_contacts_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                const satbox_contacts_out *out, uint32_t *list)
{
    return contacts_call(&(sbx_cjob){.pair = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .margin = margin, .compact = list}}, out, 0, pool_n);
}

ptrdiff_t satbox_contacts_stream_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                       satbox_manifold *out, uint8_t *bad)
{
    return stream_call(&(sbx_cjob){.pair = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .margin = margin}}, out, bad, pool_n);
}

ptrdiff_t satbox_contacts_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                    const satbox_contacts_out *out, uint32_t *list)
{
    return contacts_call(&(sbx_cjob){.pair = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .margin = margin, .compact = list}}, out, 0, pool_n);
}

ptrdiff_t satbox_contacts_stream_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                           satbox_manifold *out, uint8_t *bad)
{
    return stream_call(&(sbx_cjob){.pair = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .margin = margin}}, out, bad, pool_n);
}

ptrdiff_t satbox_contacts_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                     const satbox_contacts_out *out, uint32_t *list)
{
    return contacts_call(&(sbx_cjob){.pair = {.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .margin = margin, .compact = list}}, out, 0, pool_n);
}

ptrdiff_t satbox_contacts_stream_pairs_qrec(const satbox_qrec *pool, size_t pool_n, const satbox_pair *pairs, size_t n, float margin,
                                            satbox_manifold *out, uint8_t *bad)
{
    return stream_call(&(sbx_cjob){.pair = {.src = SBX_SRC_QREC, .n = n, .qrec = pool, .pairs = pairs, .margin = margin}}, out, bad, pool_n);
}

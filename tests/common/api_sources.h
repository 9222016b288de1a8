/* api_sources.h - a job of any pair source of SBX_SOURCES (SBX_SOURCES2D) through that source's public entry points. */
/* SPDX-License-Identifier: MIT */
/* For the tests that see src/box3d/box3d.h (fuzz_diff, test_small_stack): they walk the source list
 * and call the public function of each source from one sbx_job, instead of a case per function.
 * The names and job fields of a source are its TB_API_<NAME> line below; a source added to
 * SBX_SOURCES does not compile here until it has one. */
#ifndef SATBOX_TESTS_API_SOURCES_H
#define SATBOX_TESTS_API_SOURCES_H

#include "box3d/box3d.h"
#include "poly2d/poly2d.h"

/* Each source: (suffix of its public names, the job field of A, of B) for a[i] vs b[i]; (suffix,
 * the job field of the pool) for the sources of index pairs into a pool. */
#define TB_API_MAT (, ma, mb)
#define TB_API_QUAT (_q, qa, qb)
#define TB_API_ONE (_one, one, mb)
#define TB_API_POOL (_pairs, pool)
#define TB_API_REC (_pairs_rec, rec)
#define TB_API_QREC (_pairs_qrec, qrec)

/* m applied to a source's line: TB_API_APPLY(m, TB_API_MAT) is m(, ma, mb). */
#define TB_API_APPLY(m, args) m args
/* The suffix of a source's names as a string ("", "_q", ...): TB_API_APPLY(TB_API_SFX, TB_API_MAT)
 * is "". (Paste TB_API_##name where the list passes the name: a name given on to another macro
 * would be expanded first, should it be a macro too.) */
#define TB_API_SFX(sfx, ...) #sfx

/* The calls by the source's kind (SBX_SOURCES' third column), on `const sbx_job *j`. A one-vs-many
 * source reads like an a[i] vs b[i] one; a record pool like the SoA pool. */
#define TB_OVERLAP_SBX_KIND_EACH(sfx, fa, fb) satbox_overlap##sfx(j->fa, j->fb, j->n, hit, bad)
#define TB_OVERLAP_SBX_KIND_POOL(sfx, f) satbox_overlap##sfx(j->f, j->pool_n, j->pairs, j->n, hit, list, bad)
#define TB_COLLIDE_SBX_KIND_EACH(sfx, fa, fb) satbox_collide##sfx(j->fa, j->fb, j->n, j->margin, res)
#define TB_COLLIDE_SBX_KIND_POOL(sfx, f) satbox_collide##sfx(j->f, j->pool_n, j->pairs, j->n, j->margin, res, list)
#define TB_CONTACTS_SBX_KIND_EACH(sfx, fa, fb) satbox_contacts##sfx(j->fa, j->fb, j->n, j->margin, co)
#define TB_CONTACTS_SBX_KIND_POOL(sfx, f) satbox_contacts##sfx(j->f, j->pool_n, j->pairs, j->n, j->margin, co, list)
#define TB_STREAM_SBX_KIND_EACH(sfx, fa, fb) satbox_contacts_stream##sfx(j->fa, j->fb, j->n, j->margin, m, bad)
#define TB_STREAM_SBX_KIND_POOL(sfx, f) satbox_contacts_stream##sfx(j->f, j->pool_n, j->pairs, j->n, j->margin, m, bad)
#define TB_OVERLAP_SBX_KIND_ONE TB_OVERLAP_SBX_KIND_EACH
#define TB_OVERLAP_SBX_KIND_REC TB_OVERLAP_SBX_KIND_POOL
#define TB_COLLIDE_SBX_KIND_ONE TB_COLLIDE_SBX_KIND_EACH
#define TB_COLLIDE_SBX_KIND_REC TB_COLLIDE_SBX_KIND_POOL
#define TB_CONTACTS_SBX_KIND_ONE TB_CONTACTS_SBX_KIND_EACH
#define TB_CONTACTS_SBX_KIND_REC TB_CONTACTS_SBX_KIND_POOL
#define TB_STREAM_SBX_KIND_ONE TB_STREAM_SBX_KIND_EACH
#define TB_STREAM_SBX_KIND_REC TB_STREAM_SBX_KIND_POOL

/* One switch case of a call: every source for the pair tests, the sources with contacts for the
 * manifolds (the names pasted here, at the list's own expansion). */
#define TB_API_CASE_OVERLAP(name, label, kind, quat, contacts) \
    case SBX_SRC_##name: return TB_API_APPLY(TB_OVERLAP_##kind, TB_API_##name);
#define TB_API_CASE_COLLIDE(name, label, kind, quat, contacts) \
    case SBX_SRC_##name: return TB_API_APPLY(TB_COLLIDE_##kind, TB_API_##name);
#define TB_API_CASE_CONTACTS(name, label, kind, quat, contacts) \
    SBX_WHEN_##contacts(case SBX_SRC_##name: return TB_API_APPLY(TB_CONTACTS_##kind, TB_API_##name);)
#define TB_API_CASE_STREAM(name, label, kind, quat, contacts) \
    SBX_WHEN_##contacts(case SBX_SRC_##name: return TB_API_APPLY(TB_STREAM_##kind, TB_API_##name);)

/* satbox_overlap<suffix> of the job's source and inputs (list: the pool sources' compacted list,
 * may be NULL; not passed to the others). SATBOX_ERR_ARG for a source not in the list. */
static inline ptrdiff_t tb_api_overlap(const sbx_job *j, uint8_t *hit, uint32_t *list, uint8_t *bad)
{
    (void)list;
    switch (j->src) {
        SBX_SOURCES(TB_API_CASE_OVERLAP)
    default: return SATBOX_ERR_ARG;
    }
}

/* satbox_collide<suffix> with the job's margin. */
static inline ptrdiff_t tb_api_collide(const sbx_job *j, const satbox_result *res, uint32_t *list)
{
    (void)list;
    switch (j->src) {
        SBX_SOURCES(TB_API_CASE_COLLIDE)
    default: return SATBOX_ERR_ARG;
    }
}

/* satbox_contacts<suffix> with the job's margin; SATBOX_ERR_ARG for a source without contacts. */
static inline ptrdiff_t tb_api_contacts(const sbx_job *j, const satbox_contacts_out *co, uint32_t *list)
{
    (void)list;
    switch (j->src) {
        SBX_SOURCES(TB_API_CASE_CONTACTS)
    default: return SATBOX_ERR_ARG;
    }
}

/* satbox_contacts_stream<suffix> with the job's margin; SATBOX_ERR_ARG without contacts. */
static inline ptrdiff_t tb_api_contacts_stream(const sbx_job *j, satbox_manifold *m, uint8_t *bad)
{
    switch (j->src) {
        SBX_SOURCES(TB_API_CASE_STREAM)
    default: return SATBOX_ERR_ARG;
    }
}

/* ---- 2D (SBX_SOURCES2D, src/poly2d/poly2d.h) ----------------------------------------------------- */

/* Each 2D source: (prefix, suffix of its public names, the job field of A, of B) for a[i] vs b[i];
 * (prefix, suffix, the job field of the pool) for the pool sources: satbox2d_<prefix>overlap<suffix>. */
#define TB_API2D_RECT (, , ra, rb)
#define TB_API2D_RECT_POOL (, _pairs, ra)
#define TB_API2D_POLY (poly_, , pa, pb)
#define TB_API2D_POLY_POOL (poly_, _pairs, pa)
#define TB_API2D_RECT_POLY (rect_poly_, , ra, pb)
#define TB_API2D_PREP_POOL (prep_, _pairs, pp)
#define TB_API2D_BODY_POOL (body_, _pairs, bodies)

/* A 2D source's prefix and suffix as strings: TB_API_APPLY(TB_API2D_PRE, TB_API2D_POLY) is "poly_". */
#define TB_API2D_PRE(pre, ...) #pre
#define TB_API2D_SFX(pre, sfx, ...) #sfx

/* The calls by the source's pool column (0: a[i] vs b[i], 1: index pairs into a pool of pool_n). */
#define TB2_OVERLAP_0(pre, sfx, fa, fb) satbox2d_##pre##overlap##sfx(j->fa, j->fb, j->n, hit, bad)
#define TB2_OVERLAP_1(pre, sfx, f) satbox2d_##pre##overlap##sfx(j->f, pool_n, j->pairs, j->n, hit, list, bad)
#define TB2_COLLIDE_0(pre, sfx, fa, fb) satbox2d_##pre##collide##sfx(j->fa, j->fb, j->n, j->margin, res)
#define TB2_COLLIDE_1(pre, sfx, f) satbox2d_##pre##collide##sfx(j->f, pool_n, j->pairs, j->n, j->margin, res, list)
#define TB2_CONTACTS_0(pre, sfx, fa, fb) satbox2d_##pre##contacts##sfx(j->fa, j->fb, j->n, j->margin, m)
#define TB2_CONTACTS_1(pre, sfx, f) satbox2d_##pre##contacts##sfx(j->f, pool_n, j->pairs, j->n, j->margin, m)
#define TB_API2D_CASE_OVERLAP(name, label, a_rect, b_rect, pool, prep) \
    case SBX2D_##name: return TB_API_APPLY(TB2_OVERLAP_##pool, TB_API2D_##name);
#define TB_API2D_CASE_COLLIDE(name, label, a_rect, b_rect, pool, prep) \
    case SBX2D_##name: return TB_API_APPLY(TB2_COLLIDE_##pool, TB_API2D_##name);
#define TB_API2D_CASE_CONTACTS(name, label, a_rect, b_rect, pool, prep) \
    case SBX2D_##name: return TB_API_APPLY(TB2_CONTACTS_##pool, TB_API2D_##name);

/* satbox2d_<prefix>overlap<suffix> of the job's source and inputs (pool_n and list: the pool
 * sources only). SATBOX_ERR_ARG for a source not in the list. */
static inline ptrdiff_t tb_api2d_overlap(const sbx_job2d *j, size_t pool_n, uint8_t *hit, uint32_t *list, uint8_t *bad)
{
    (void)pool_n, (void)list;
    switch (j->src) {
        SBX_SOURCES2D(TB_API2D_CASE_OVERLAP)
    default: return SATBOX_ERR_ARG;
    }
}

/* satbox2d_<prefix>collide<suffix> with the job's margin. */
static inline ptrdiff_t tb_api2d_collide(const sbx_job2d *j, size_t pool_n, const satbox2d_result *res, uint32_t *list)
{
    (void)pool_n, (void)list;
    switch (j->src) {
        SBX_SOURCES2D(TB_API2D_CASE_COLLIDE)
    default: return SATBOX_ERR_ARG;
    }
}

/* satbox2d_<prefix>contacts<suffix> with the job's margin. */
static inline ptrdiff_t tb_api2d_contacts(const sbx_job2d *j, size_t pool_n, satbox2d_manifold *m)
{
    (void)pool_n;
    switch (j->src) {
        SBX_SOURCES2D(TB_API2D_CASE_CONTACTS)
    default: return SATBOX_ERR_ARG;
    }
}

#endif

/* sources.h - THE list of pair sources (SBX_SOURCES), the enum and the predicates it expands into. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_SOURCES_H
#define SATBOX_SOURCES_H

/* Included by box3d/box3d.h (after core/internal.h's SBX_ALWAYS_INLINE); the 2D sources are
 * poly2d/poly2d.h's SBX_SOURCES2D. */

/* Where the boxes of a job come from: THE list of pair sources. Everything per source is
 * expanded from it: the enum below, the argument check (args3d.c check_src_<NAME>), the scalar
 * loader (sources_ref.h load_pair_<NAME>), the wide loader and prefetch (sources_tpl.h
 * load_pair_<NAME>_w, prefetch_<NAME>), the per-source kernel loops (batch_tpl.h,
 * contacts_tpl.h), the checked mode, and the checkers' source loops and names (tests/).
 * Adding a source: src/README.md, Recipes.
 *   X(NAME, label, kind, quat, contacts)
 *   kind: SBX_KIND_EACH  a[i] vs b[i] from two batches
 *         SBX_KIND_ONE   one box (A, broadcast) vs b[i]; a second one-vs-many source would need
 *                        its own broadcast loader in batch_tpl.h load_one_if_w (it loads job->one
 *                        for the whole kind)
 *         SBX_KIND_POOL  pool[pairs[i].a] vs pool[pairs[i].b], an SoA pool (never prefetched)
 *         SBX_KIND_REC   the same from a pool of records (fetched ahead when the pool is large)
 *   quat: 1 when the axes are built from quaternions in the kernel (never broken axes); it also
 *         tells the checked mode to skip the pair, so a source with one quaternion side and one
 *         matrix side takes quat 0
 *   contacts: 1 when the source has a contact-manifold form (a one-vs-many source cannot:
 *         contacts_tpl.h passes no broadcast box) */
#define SBX_SOURCES(X)                                                                   \
    X(MAT, "matrix", SBX_KIND_EACH, 0, 1)              /* two satbox_boxes */             \
    X(QUAT, "quaternion", SBX_KIND_EACH, 1, 1)         /* two satbox_qboxes */            \
    X(ONE, "one-vs-many", SBX_KIND_ONE, 0, 0)          /* one satbox_box, a satbox_boxes */ \
    X(POOL, "pool", SBX_KIND_POOL, 0, 1)               /* one satbox_boxes + pairs */     \
    X(REC, "records", SBX_KIND_REC, 0, 1)              /* 64-byte satbox_rec + pairs */   \
    X(QREC, "quaternion records", SBX_KIND_REC, 1, 1)  /* 48-byte satbox_qrec + pairs */


enum { SBX_KIND_EACH, SBX_KIND_ONE, SBX_KIND_POOL, SBX_KIND_REC };

typedef enum sbx_src {
#define SBX_SRC_ENUM(name, label, kind, quat, contacts) SBX_SRC_##name,
    SBX_SOURCES(SBX_SRC_ENUM)
#undef SBX_SRC_ENUM
    SBX_SRC_COUNT
} sbx_src;

/* A source's columns as a bit set over the sources (constants, folded where src is one). */
#define SBX_SRC_BIT_POOL(name, label, kind, quat, contacts) | ((unsigned)((kind) >= SBX_KIND_POOL) << SBX_SRC_##name)
#define SBX_SRC_BIT_REC(name, label, kind, quat, contacts) | ((unsigned)((kind) == SBX_KIND_REC) << SBX_SRC_##name)
#define SBX_SRC_BIT_ONE(name, label, kind, quat, contacts) | ((unsigned)((kind) == SBX_KIND_ONE) << SBX_SRC_##name)
#define SBX_SRC_BIT_QUAT(name, label, kind, quat, contacts) | ((unsigned)(quat) << SBX_SRC_##name)
#define SBX_SRC_BIT_CONTACTS(name, label, kind, quat, contacts) | ((unsigned)(contacts) << SBX_SRC_##name)
/* Index-pair sources (pool, records): per-pair outputs may be omitted when the compacted list is
 * asked for. */
SBX_ALWAYS_INLINE int sbx_src_is_pool(sbx_src src) { return ((0u SBX_SOURCES(SBX_SRC_BIT_POOL)) >> src) & 1u; }
/* Record sources: one pointer per box, prefetched ahead when the pool is large. */
SBX_ALWAYS_INLINE int sbx_src_is_rec(sbx_src src) { return ((0u SBX_SOURCES(SBX_SRC_BIT_REC)) >> src) & 1u; }
/* One box against many: box A is loaded once per call. */
SBX_ALWAYS_INLINE int sbx_src_is_one(sbx_src src) { return ((0u SBX_SOURCES(SBX_SRC_BIT_ONE)) >> src) & 1u; }
/* Axes built from quaternions inside the kernel. */
SBX_ALWAYS_INLINE int sbx_src_is_quat(sbx_src src) { return ((0u SBX_SOURCES(SBX_SRC_BIT_QUAT)) >> src) & 1u; }
/* Sources with a contact-manifold form. */
SBX_ALWAYS_INLINE int sbx_src_has_contacts(sbx_src src) { return ((0u SBX_SOURCES(SBX_SRC_BIT_CONTACTS)) >> src) & 1u; }
/* The source's label (reports, checkers). */
static inline const char *sbx_src_label(sbx_src src)
{
#define SBX_SRC_LABEL(name, label, kind, quat, contacts) label,
    static const char *const labels[] = {SBX_SOURCES(SBX_SRC_LABEL)};
#undef SBX_SRC_LABEL
    return (unsigned)src < SBX_SRC_COUNT ? labels[src] : "?";
}

#endif

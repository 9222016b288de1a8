/* poly2d.h - what the 2D entry points, reference and templates share: the list of 2D sources (SBX_SOURCES2D), the 2D job. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_INTERNAL2D_H
#define SATBOX_INTERNAL2D_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "satbox/satbox2d.h"

/* Where the shapes of a 2D job come from: THE list of 2D pair sources, expanded into the enum
 * here, the argument checks (api2d.c), the per-source kernel loops (sat2d_tpl.h,
 * contacts2d_tpl.h, sat2d_ref.c, contacts2d_ref.c) and the checkers (tests/checkasm/pairs2d.c). The
 * loaders read the columns, so a new combination of them is one line here plus its entry points.
 *   X(NAME, label, a_rect, b_rect, pool, prep)
 *   a_rect, b_rect: 1 when side A (B) is a rectangle (from ra, rb), 0 a polygon (from pa, pb); both
 *           rectangles: the rectangle math; else the polygon math, a rectangle A taken as a
 *           4-vertex polygon and the pair worked relative to its center
 *   pool:   1 when the pairs index one pool (pairs[i].a, pairs[i].b in ra or pa: A's kind, which
 *           must then be B's), 0 for a[i] vs b[i]
 *   prep:   0 the shapes' own vertices; 1 prepared world polygons (a pool `pp`,
 *           satbox2d_poly_prepare()); 2 bodies (prepared body-local shapes and a transform each,
 *           `bodies`), worked in A's body frame. Prepared sources are pools of polygons. */
#define SBX_SOURCES2D(X)                                                              \
    X(RECT, "rect", 1, 1, 0, 0)           /* ra[i] vs rb[i] */                        \
    X(RECT_POOL, "rect-pool", 1, 1, 1, 0) /* ra[pairs[i].a] vs ra[pairs[i].b] */      \
    X(POLY, "poly", 0, 0, 0, 0)           /* pa[i] vs pb[i] */                        \
    X(POLY_POOL, "poly-pool", 0, 0, 1, 0) /* pa[pairs[i].a] vs pa[pairs[i].b] */      \
    X(RECT_POLY, "rect-poly", 1, 0, 0, 0) /* ra[i] vs pb[i] */                        \
    X(PREP_POOL, "prep-pool", 0, 0, 1, 1) /* pp[pairs[i].a] vs pp[pairs[i].b] */      \
    X(BODY_POOL, "body-pool", 0, 0, 1, 2) /* bodies[pairs[i].a] vs bodies[pairs[i].b] */

typedef enum sbx_src2d {
#define SBX_SRC2D_ENUM(name, ...) SBX2D_##name,
    SBX_SOURCES2D(SBX_SRC2D_ENUM)
#undef SBX_SRC2D_ENUM
    SBX2D_COUNT
} sbx_src2d;

#define SBX_SRC2D_BIT_A_RECT(name, label, a_rect, b_rect, pool, prep) | ((unsigned)(a_rect) << SBX2D_##name)
#define SBX_SRC2D_BIT_B_RECT(name, label, a_rect, b_rect, pool, prep) | ((unsigned)(b_rect) << SBX2D_##name)
#define SBX_SRC2D_BIT_POOL(name, label, a_rect, b_rect, pool, prep) | ((unsigned)(pool) << SBX2D_##name)
#define SBX_SRC2D_BIT_PREP(name, label, a_rect, b_rect, pool, prep) | ((unsigned)((prep) != 0) << SBX2D_##name)
#define SBX_SRC2D_BIT_BODY(name, label, a_rect, b_rect, pool, prep) | ((unsigned)((prep) == 2) << SBX2D_##name)
/* The columns (constants, folded where src is one). */
SBX_ALWAYS_INLINE int sbx_src2d_a_rect(sbx_src2d src) { return ((0u SBX_SOURCES2D(SBX_SRC2D_BIT_A_RECT)) >> src) & 1u; }
SBX_ALWAYS_INLINE int sbx_src2d_b_rect(sbx_src2d src) { return ((0u SBX_SOURCES2D(SBX_SRC2D_BIT_B_RECT)) >> src) & 1u; }
SBX_ALWAYS_INLINE int sbx_src2d_is_pool(sbx_src2d src) { return ((0u SBX_SOURCES2D(SBX_SRC2D_BIT_POOL)) >> src) & 1u; }
/* Prepared shapes (prep 1 or 2), and bodies (prep 2). */
SBX_ALWAYS_INLINE int sbx_src2d_is_prep(sbx_src2d src) { return ((0u SBX_SOURCES2D(SBX_SRC2D_BIT_PREP)) >> src) & 1u; }
SBX_ALWAYS_INLINE int sbx_src2d_is_body(sbx_src2d src) { return ((0u SBX_SOURCES2D(SBX_SRC2D_BIT_BODY)) >> src) & 1u; }
/* Both shapes rectangles: the rectangle math. */
SBX_ALWAYS_INLINE int sbx_src2d_is_rects(sbx_src2d src) { return sbx_src2d_a_rect(src) && sbx_src2d_b_rect(src); }
/* The source's label (reports, checkers). */
static inline const char *sbx_src2d_label(sbx_src2d src)
{
#define SBX_SRC2D_LABEL(name, label, ...) label,
    static const char *const labels[] = {SBX_SOURCES2D(SBX_SRC2D_LABEL)};
#undef SBX_SRC2D_LABEL
    return (unsigned)src < SBX2D_COUNT ? labels[src] : "?";
}

/* The collide outputs of SBX_OUTPUTS as 2D job fields (a vector has two components). */
#define SBX_OUT_FIELD2(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(type *SBX_OUT_DECL(2, name, rows, vec);)

/* Calls fn(args..., n) with n (1..8: a vertex count) as a constant, so that fn's loops over n
 * slots unroll (the prepared sources: sat2d_ref.c, sat2d_tpl.h, and the contacts beside them). */
#define SBX_BY_COUNT2D(n, fn, ...)                           \
    do {                                                     \
        switch (n) {                                         \
        case 1: fn(__VA_ARGS__, 1); break;                   \
        case 2: fn(__VA_ARGS__, 2); break;                   \
        case 3: fn(__VA_ARGS__, 3); break;                   \
        case 4: fn(__VA_ARGS__, 4); break;                   \
        case 5: fn(__VA_ARGS__, 5); break;                   \
        case 6: fn(__VA_ARGS__, 6); break;                   \
        case 7: fn(__VA_ARGS__, 7); break;                   \
        default: fn(__VA_ARGS__, SATBOX2D_MAX_VERTS); break; \
        }                                                    \
    } while (0)

/* The templates take the pairs of a prepared source a block at a time, in the order of their
 * classes (sat2d_tpl.h prep_plan_w()), so that a step's lanes share a vertex count. */
#define SBX_BLOCK2D 128
#define SBX_PLAN_PAD 16 /* the widest path's lanes: a step past the block's end reads pair ord[0] again */
#define SBX_CLASS_SLOW (SATBOX2D_MAX_VERTS + 1) /* a pair with a bad or prescaled record */
typedef struct sbx_plan2d { /* small: it sits in the kernels' frames (tests/hardening/stack_frames.py) */
    uint8_t ord[SBX_BLOCK2D + SBX_PLAN_PAD]; /* the place in the block (job->pairs) of sorted pair t */
    uint8_t cls[SBX_BLOCK2D];               /* its class: 1..8 the larger count of its records (both valid,
                                               scale 1), SBX_CLASS_SLOW otherwise; ascending */
} sbx_plan2d;

/* One 2D call, already checked by the public entry point. The kernels process pairs [0, n) and
 * write only the outputs that are not NULL. The rectangle math serves SBX2D_RECT and
 * SBX2D_RECT_POOL, the polygon math the other three. */
typedef struct sbx_job2d {
    sbx_src2d src;
    size_t n;
    const satbox2d_rects *ra, *rb; /* rb unused by the pool and rect-poly sources */
    const satbox2d_polys *pa, *pb; /* pa unused by rect-poly */
    const satbox2d_prepared *pp;   /* prepared world polygons (prep 1) */
    const satbox2d_bodies *bodies; /* bodies (prep 2) */
    const satbox_pair *pairs;      /* pool sources */
    const struct sbx_plan2d *plan; /* prepared sources in the templates (sat2d_tpl.h run2d_prep): the block's
                                      pairs in the order of their classes; NULL in the reference */
    float margin;                  /* collide only */
    SBX_OUTPUTS(SBX_OUT_FIELD2)    /* hit, bad, separation, normal[2], axis: each may be NULL (overlap: hit, bad) */
    uint32_t *compact;             /* may be NULL: indices of the pairs with hit == 1, ascending */
} sbx_job2d;

/* The scalar reference's 2D kernels (sat2d_ref.c), the `overlap2d` and `collide2d` of
 * sbx_path_scalar; the wide ones are those of each kernel_<name>.c's table (sat2d_tpl.h). Each
 * returns the number of pairs with hit == 1. */
ptrdiff_t sbx_scalar_overlap2d(const sbx_job2d *job);
ptrdiff_t sbx_scalar_collide2d(const sbx_job2d *job);

/* satbox2d_poly_prepare()'s one implementation (sat2d_ref.c, every path): polygons [0, n) of `in`
 * into `out`; returns the number of valid ones. */
ptrdiff_t sbx_prepare2d(const satbox2d_polys *in, size_t n, satbox2d_prepared *out);

#endif

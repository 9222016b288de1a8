/* internal2d.h - what the 2D scalar reference, the 2D wide kernels and the 2D entry points share. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_INTERNAL2D_H
#define SATBOX_INTERNAL2D_H

#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox2d.h"

/* Where the shapes of a 2D job come from. */
typedef enum sbx_src2d {
    SBX2D_RECT = 0,      /* ra[i] vs rb[i] (rectangles) */
    SBX2D_RECT_POOL = 1, /* ra[pairs[i].a] vs ra[pairs[i].b] */
    SBX2D_POLY = 2,      /* pa[i] vs pb[i] (polygons) */
    SBX2D_POLY_POOL = 3, /* pa[pairs[i].a] vs pa[pairs[i].b] */
    SBX2D_RECT_POLY = 4  /* ra[i] as a 4-vertex polygon vs pb[i] */
} sbx_src2d;

/* One 2D call, already checked by the public entry point. The kernels process pairs [0, n) and
 * write only the outputs that are not NULL. The rectangle math serves SBX2D_RECT and
 * SBX2D_RECT_POOL, the polygon math the other three. */
typedef struct sbx_job2d {
    sbx_src2d src;
    size_t n;
    const satbox2d_rects *ra, *rb; /* rb unused by the pool and rect-poly sources */
    const satbox2d_polys *pa, *pb; /* pa unused by rect-poly */
    const satbox_pair *pairs;      /* pool sources */
    float margin;                  /* collide only */
    uint8_t *hit;                  /* may be NULL */
    float *separation;             /* collide only, may be NULL */
    float *normal[2];              /* collide only, each may be NULL */
    uint8_t *axis;                 /* collide only, may be NULL */
    uint8_t *bad;                  /* may be NULL */
    uint32_t *compact;             /* may be NULL: indices of the pairs with hit == 1, ascending */
} sbx_job2d;

/* The scalar reference's 2D kernels (scalar2d.c), the `overlap2d` and `collide2d` of
 * sbx_path_scalar; the wide ones are those of each kernel_<name>.c's table (sat2d_tpl.h). Each
 * returns the number of pairs with hit == 1. */
ptrdiff_t sbx_scalar2d_overlap(const sbx_job2d *job);
ptrdiff_t sbx_scalar2d_collide(const sbx_job2d *job);

#endif

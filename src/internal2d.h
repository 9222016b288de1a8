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

/* The 2D functions of one ISA path. Each returns the number of pairs with hit == 1. */
typedef struct sbx_kernels2d {
    ptrdiff_t (*overlap)(const sbx_job2d *job);
    ptrdiff_t (*collide)(const sbx_job2d *job);
    int width; /* pairs per step */
} sbx_kernels2d;

extern const sbx_kernels2d sbx_kernels2d_scalar;
extern const sbx_kernels2d sbx_kernels2d_sse41;
extern const sbx_kernels2d sbx_kernels2d_avx2;
extern const sbx_kernels2d sbx_kernels2d_avx512;
extern const sbx_kernels2d sbx_kernels2d_neon;
/* Portable (SIMDE_NO_NATIVE) twins, linked into the tests only. */
extern const sbx_kernels2d sbx_kernels2d_sse41_portable;
extern const sbx_kernels2d sbx_kernels2d_avx2_portable;
extern const sbx_kernels2d sbx_kernels2d_avx512_portable;
extern const sbx_kernels2d sbx_kernels2d_neon_portable;

/* The 2D table of a path if compiled in (supported by the CPU or not), else NULL (api2d.c). */
const sbx_kernels2d *sbx_kernels2d_for(satbox_isa isa);

#endif

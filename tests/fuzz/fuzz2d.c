/* fuzz2d.c - libFuzzer target: every 2D kernel table against the 2D scalar reference, bit for bit, on arbitrary shapes. */
/* SPDX-License-Identifier: MIT */
/* Each input becomes a pool of n + 1 rectangles and polygons (values from a small table of
 * ordinary, tiny, huge, -0.0, NaN and infinite numbers, or raw float bits; counts 0..255, mostly
 * 3..8) and n pairs over it (0..127: every remainder modulo 4, 8, 16). Checked for every 2D source
 * of SBX_SOURCES2D (rect, rect pool, poly, poly pool, rect-poly, and the prepared ones: the pool's
 * polygons prepared by sbx_prepare2d() as world polygons, and the same records as body shapes with
 * the rectangles' centers and axes as the bodies' positions and rotations, mostly unit, some NaN,
 * huge or off unit), with overlap, collide(margin) and
 * collide(0): every path (native tables this CPU runs, portable ones if linked) returns the
 * scalar outputs bit for bit; on scalar, overlap == collide(0).hit, a bad pair reads hit 0 with
 * NaN separation, zero normal and SATBOX_AXIS_INVALID, a valid pair has a finite separation,
 * a normal without NaN, an axis below 4 (rectangles) or 16, and hit == (separation <= margin).
 * Any difference prints what differed and aborts. Every array is its own malloc of exactly its
 * length, so ASan catches any read past n. Built and run like fuzz_diff.c (see its top comment;
 * target tests/fuzz2d, corpus tests/fuzz/fuzz2d_corpus). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NV SATBOX2D_MAX_VERTS

static test_path paths[16];
static int npaths = -1;

static void init_paths(void) { npaths = paths_list(paths); }

/* ---- input decoding ---- */
typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

static uint8_t byte(reader *r)
{
    if (!r->left)
        return 0;
    r->left--;
    return *r->p++;
}

static float value(reader *r)
{
    static const float table[16] = {0.0f, -0.0f, 0.5f, 1.0f, -1.0f, 0.25f, 2.0f, 0.70710678f,
                                    1e-40f, 3e38f, 1e15f, NAN, INFINITY, -INFINITY, 1e-7f, 0.1f};
    uint8_t b = byte(r);
    if (b < 128)
        return ((float)b - 64.0f) / 16.0f; /* ordinary coordinates on a 1/16 grid */
    if (b < 224)
        return table[b & 15];
    uint32_t bits = (uint32_t)byte(r) | (uint32_t)byte(r) << 8 | (uint32_t)byte(r) << 16 | (uint32_t)byte(r) << 24;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static float *farr(size_t n)
{
    float *p = (float *)malloc((n ? n : 1) * sizeof(float));
    if (!p)
        abort();
    return p;
}

/* ---- outputs ---- */
typedef struct outs {
    uint8_t *hit, *ohit, *bad, *axis;
    float *sep, *nx, *ny;
    uint32_t *list;
    ptrdiff_t count, ocount, lcount;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    size_t m = n ? n : 1;
    o->hit = (uint8_t *)malloc(m), o->ohit = (uint8_t *)malloc(m), o->bad = (uint8_t *)malloc(m);
    o->axis = (uint8_t *)malloc(m), o->sep = farr(n), o->nx = farr(n), o->ny = farr(n);
    o->list = (uint32_t *)malloc(m * sizeof(uint32_t));
    if (!o->hit || !o->ohit || !o->bad || !o->axis || !o->list)
        abort();
    memset(o->hit, 0xA5, m), memset(o->ohit, 0xA5, m), memset(o->bad, 0xA5, m), memset(o->axis, 0xA5, m);
    memset(o->sep, 0xA5, m * 4), memset(o->nx, 0xA5, m * 4), memset(o->ny, 0xA5, m * 4), memset(o->list, 0xA5, m * 4);
}

static void outs_free(outs *o)
{
    free(o->hit), free(o->ohit), free(o->bad), free(o->axis), free(o->sep), free(o->nx), free(o->ny), free(o->list);
}

static void run(const sbx_path *k, sbx_job2d job, float margin, outs *o)
{
    job.margin = margin;
    job.hit = o->hit, job.bad = o->bad, job.separation = o->sep, job.normal[0] = o->nx, job.normal[1] = o->ny;
    job.axis = o->axis;
    o->count = k->collide2d(&job);
    sbx_job2d jo = job;
    jo.separation = jo.normal[0] = jo.normal[1] = NULL;
    jo.axis = NULL;
    jo.hit = o->ohit;
    jo.bad = NULL;
    o->ocount = k->overlap2d(&jo);
    sbx_job2d jl = job;
    jl.hit = jl.bad = jl.axis = NULL;
    jl.separation = jl.normal[0] = jl.normal[1] = NULL;
    jl.compact = o->list;
    o->lcount = k->collide2d(&jl);
}

static void fail(const char *what, const char *pname, int src, size_t i)
{
    fprintf(stderr, "fuzz2d: %s differs (path %s, source %d, pair %zu)\n", what, pname, src, i);
    abort();
}

static void same(const outs *a, const outs *b, size_t n, const char *pname, int src)
{
    if (a->count != b->count || a->ocount != b->ocount || a->lcount != b->lcount)
        fail("counts", pname, src, 0);
    for (size_t i = 0; i < n; i++) {
        if (a->hit[i] != b->hit[i] || a->ohit[i] != b->ohit[i] || a->bad[i] != b->bad[i] || a->axis[i] != b->axis[i])
            fail("hit/bad/axis", pname, src, i);
        if (memcmp(&a->sep[i], &b->sep[i], 4) || memcmp(&a->nx[i], &b->nx[i], 4) || memcmp(&a->ny[i], &b->ny[i], 4))
            fail("separation/normal", pname, src, i);
    }
    if (a->lcount > 0 && memcmp(a->list, b->list, (size_t)a->lcount * 4))
        fail("compacted list", pname, src, 0);
}

/* Scalar invariants of one run (margin as given; ohit is overlap, hit is collide(margin)). */
static void invariants(const outs *o, size_t n, float margin, int src)
{
    ptrdiff_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (o->bad[i] > 1 || o->hit[i] > 1)
            fail("byte not 0/1", "scalar", src, i);
        if (o->bad[i]) {
            if (o->hit[i] || o->ohit[i] || !isnan(o->sep[i]) || o->nx[i] != 0 || o->ny[i] != 0 ||
                o->axis[i] != SATBOX_AXIS_INVALID)
                fail("bad pair outputs", "scalar", src, i);
        } else {
            unsigned lim = src <= SBX2D_RECT_POOL ? 4u : 16u;
            if (!isfinite(o->sep[i]) || isnan(o->nx[i]) || isnan(o->ny[i]) || o->axis[i] >= lim ||
                o->hit[i] != (o->sep[i] <= margin))
                fail("valid pair outputs", "scalar", src, i);
            if (margin == 0.0f && o->ohit[i] != o->hit[i])
                fail("overlap != collide(0)", "scalar", src, i);
        }
        hits += o->hit[i];
    }
    if (hits != o->count)
        fail("count vs hit bytes", "scalar", src, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (npaths < 0)
        init_paths();
    reader r = {data, size};
    size_t n = byte(&r) & 127u;
    float margin = (byte(&r) & 3u) == 0 ? 0.0f : value(&r);
    if (!isfinite(margin))
        margin = 0.0f;
    /* One pool of n + 1 rectangles and polygons (arrays of exactly n + 1, so that reading past
     * pair n - 1 of B is caught): A = entries [0, n), B = entries [1, n + 1), pairs index the pool. */
    size_t pn = n + 1;
    float *rf[6], *px[NV], *py[NV];
    for (int q = 0; q < 6; q++)
        rf[q] = farr(pn);
    for (int k = 0; k < NV; k++)
        px[k] = farr(pn), py[k] = farr(pn);
    uint8_t *cnt = (uint8_t *)malloc(pn);
    if (!cnt)
        abort();
    for (size_t i = 0; i < pn; i++) {
        for (int q = 0; q < 6; q++)
            rf[q][i] = value(&r);
        if (byte(&r) & 1u) { /* mostly a unit axis */
            float t = value(&r);
            rf[4][i] = cosf(t), rf[5][i] = sinf(t);
        }
        uint8_t c = byte(&r);
        cnt[i] = c < 192 ? (uint8_t)(3 + c % 6) : c;
        if (byte(&r) & 1u) { /* a convex polygon around a point, else raw vertices */
            float cx = value(&r), cy = value(&r), s = value(&r);
            for (int k = 0; k < NV; k++) {
                float a = 6.2831853f * (float)k / (float)(cnt[i] >= 3 && cnt[i] <= 8 ? cnt[i] : 8);
                px[k][i] = cx + s * cosf(a), py[k][i] = cy + s * sinf(a);
            }
        } else {
            for (int k = 0; k < NV; k++)
                px[k][i] = value(&r), py[k][i] = value(&r);
        }
    }
    satbox_pair *pairs = (satbox_pair *)malloc((n ? n : 1) * sizeof *pairs);
    if (!pairs)
        abort();
    for (size_t i = 0; i < n; i++)
        pairs[i].a = (uint32_t)(byte(&r) % pn), pairs[i].b = (uint32_t)(byte(&r) % pn);
    satbox2d_rects rects = {{rf[0], rf[1]}, {rf[2], rf[3]}, {rf[4], rf[5]}};
    satbox2d_rects rects_b = {{rf[0] + 1, rf[1] + 1}, {rf[2] + 1, rf[3] + 1}, {rf[4] + 1, rf[5] + 1}};
    satbox2d_polys polys, polys_b;
    for (int k = 0; k < NV; k++) {
        polys.x[k] = px[k], polys.y[k] = py[k];
        polys_b.x[k] = px[k] + 1, polys_b.y[k] = py[k] + 1;
    }
    polys.count = cnt;
    polys_b.count = cnt + 1;
    /* The prepared sources: the pool's polygons prepared once (the records are exactly pn long). */
    satbox2d_prepared *prep = (satbox2d_prepared *)malloc(pn * sizeof *prep);
    if (!prep)
        abort();
    (void)sbx_prepare2d(&polys, pn, prep);
    satbox2d_bodies bodies = {prep, {rf[0], rf[1]}, {rf[4], rf[5]}};
    for (int src = 0; src < SBX2D_COUNT; src++) {
        sbx_job2d job;
        memset(&job, 0, sizeof job);
        job.src = (sbx_src2d)src;
        job.n = n;
        job.ra = &rects;
        job.rb = &rects_b;
        job.pa = &polys;
        job.pb = &polys_b;
        job.pp = prep;
        job.bodies = &bodies;
        job.pairs = pairs;
        const float margins[2] = {margin, 0.0f};
        for (int m = 0; m < 2; m++) {
            outs ref, got;
            outs_alloc(&ref, n);
            run(&sbx_path_scalar, job, margins[m], &ref);
            invariants(&ref, n, margins[m], src);
            for (int p = 0; p < npaths; p++) {
                outs_alloc(&got, n);
                run(paths[p].path, job, margins[m], &got);
                same(&ref, &got, n, paths[p].name, src);
                outs_free(&got);
            }
            outs_free(&ref);
        }
    }
    for (int q = 0; q < 6; q++)
        free(rf[q]);
    for (int k = 0; k < NV; k++)
        free(px[k]), free(py[k]);
    free(cnt);
    free(prep);
    free(pairs);
    return 0;
}

/* checkasm.c - every ISA path (native and portable) against the scalar reference, bit for bit. */
/* SPDX-License-Identifier: MIT */
/* Usage: checkasm [--seed S] [--pairs N] [--path NAME]
 * For each chunk of random pairs (all families of support.h, bad values mixed in) it runs the
 * scalar reference once, then every path on the same inputs, copied to unaligned addresses,
 * split into batches of sizes 0, 1, W-1, W, W+1, 2W+1, 31, 1000, ... processed last to first (so
 * a tail that writes past its n clobbers results already checked), with guard bytes after every
 * output array. It compares all outputs (hit, separation, normal, axis, count, compacted list)
 * with memcmp, for the four pair sources (matrix, quaternion, one-vs-many, pool + pairs) and the
 * AABB and quaternion helpers, and checks overlap == collide(margin 0).hit on every path. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbuf.h"
#include "internal.h"
#include "paths.h"
#include "scale.h"
#include "support.h"

#define CHUNK 8192

static uint64_t seed = 0x5A7B0C5ull;
static int failures = 0;

/* All inputs of one chunk: A and B as matrix SoA and quaternion SoA, a pool with pairs. */
typedef struct chunk {
    size_t n;
    gbuf a[15], b[15];           /* matrix fields */
    gbuf qa[10], qb[10];         /* center 3, half 3, quat 4 */
    gbuf pool[15];               /* 2n boxes: A's then B's */
    gbuf pairs;
    gbuf rec;                    /* the pool again, as 64-byte records */
    satbox_boxes ma, mb, mpool;
    satbox_qboxes qva, qvb;
    satbox_box one;
} chunk;

static void view_of(gbuf *f, satbox_boxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p;
        v->half[c] = (const float *)f[3 + c].p;
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            v->axis[k][c] = (const float *)f[6 + 3 * k + c].p;
}

static void qview_of(gbuf *f, satbox_qboxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p;
        v->half[c] = (const float *)f[3 + c].p;
    }
    for (int c = 0; c < 4; c++)
        v->quat[c] = (const float *)f[6 + c].p;
}

static void put_box(gbuf *f, size_t i, const satbox_box *b)
{
    const float *src = (const float *)b; /* center, half, axis: 15 floats in field order */
    for (int q = 0; q < 15; q++)
        ((float *)f[q].p)[i] = src[q];
}

static void random_quat(tb_rng *r, float q[4])
{
    for (int c = 0; c < 4; c++)
        q[c] = (float)tb_normal(r);
    uint64_t x = tb_next(r) % 64;
    if (x == 0)
        q[0] = q[1] = q[2] = q[3] = 0.0f;
    else if (x == 1)
        q[x % 4] = NAN;
    else if (x == 2)
        q[3] = INFINITY;
    else if (x == 3)
        q[0] = 1e-20f, q[1] = q[2] = q[3] = 0.0f; /* too short */
    else if (x < 8) {
        float s = (float)pow(10.0, tb_range(r, -10, 10)); /* far from unit: normalised on the way */
        for (int c = 0; c < 4; c++)
            q[c] *= s;
    }
}

static void chunk_alloc(chunk *ch, size_t n)
{
    ch->n = n;
    for (int q = 0; q < 15; q++) {
        gb_alloc(&ch->a[q], n * 4, 4);
        gb_alloc(&ch->b[q], n * 4, 8);
        gb_alloc(&ch->pool[q], 2 * n * 4, 4);
    }
    for (int q = 0; q < 10; q++) {
        gb_alloc(&ch->qa[q], n * 4, 4);
        gb_alloc(&ch->qb[q], n * 4, 12);
    }
    gb_alloc(&ch->pairs, n * sizeof(satbox_pair), 4);
    gb_alloc(&ch->rec, 2 * n * sizeof(satbox_rec), 0);
    view_of(ch->a, &ch->ma);
    view_of(ch->b, &ch->mb);
    view_of(ch->pool, &ch->mpool);
    qview_of(ch->qa, &ch->qva);
    qview_of(ch->qb, &ch->qvb);
}

static void chunk_fill(chunk *ch, tb_rng *r)
{
    size_t n = ch->n;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_family f = (tb_family)(tb_next(r) % TB_FAMILY_COUNT);
        tb_make_pair(r, f, &a, &b);
        put_box(ch->a, i, &a);
        put_box(ch->b, i, &b);
        put_box(ch->pool, i, &a);
        put_box(ch->pool, n + i, &b);
        satbox_rec *rec = (satbox_rec *)ch->rec.p;
        memcpy(&rec[i], &a, sizeof a);
        memcpy(&rec[n + i], &b, sizeof b);
        rec[i].pad = rec[n + i].pad = NAN; /* never read */
        if (i == 0)
            ch->one = a;
        float qa[4], qb[4];
        random_quat(r, qa);
        random_quat(r, qb);
        for (int c = 0; c < 3; c++) {
            ((float *)ch->qa[c].p)[i] = a.center[c];
            ((float *)ch->qa[3 + c].p)[i] = a.half[c];
            ((float *)ch->qb[c].p)[i] = b.center[c];
            ((float *)ch->qb[3 + c].p)[i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            ((float *)ch->qa[6 + c].p)[i] = qa[c];
            ((float *)ch->qb[6 + c].p)[i] = qb[c];
        }
        /* Pairs: mostly (i, n + i), some random, some duplicates, some a == b. */
        satbox_pair *pp = (satbox_pair *)ch->pairs.p;
        uint64_t x = tb_next(r) % 16;
        if (x == 0) {
            /* One draw per statement: initialiser order is unspecified; replay must not depend on the compiler. */
            pp[i].a = (uint32_t)(tb_next(r) % (2 * n));
            pp[i].b = (uint32_t)(tb_next(r) % (2 * n));
        }
        else if (x == 1 && i > 0)
            pp[i] = pp[i - 1];
        else if (x == 2)
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)i};
        else
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)(n + i)};
    }
}

/* Outputs of one run over a chunk. */
typedef struct outs {
    gbuf hit, sep, nrm[3], axis, compact, ohit, bad, obad, min[3], max[3], qaxis[9];
    ptrdiff_t count, ocount, aabb_count, quat_count;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    gb_alloc(&o->hit, n, 1);
    gb_alloc(&o->ohit, n, 3);
    gb_alloc(&o->bad, n, 5);
    gb_alloc(&o->obad, n, 2);
    gb_alloc(&o->sep, n * 4, 4);
    gb_alloc(&o->axis, n, 1);
    gb_alloc(&o->compact, n * 4, 4);
    for (int c = 0; c < 3; c++) {
        gb_alloc(&o->nrm[c], n * 4, 4 * (size_t)(c + 1));
        gb_alloc(&o->min[c], n * 4, 4);
        gb_alloc(&o->max[c], n * 4, 8);
    }
    for (int q = 0; q < 9; q++)
        gb_alloc(&o->qaxis[q], n * 4, 4);
}

/* Frees every buffer of a chunk or of an outs (so that LeakSanitizer in the asan stage stays quiet). */
static void chunk_free(chunk *ch)
{
    for (int q = 0; q < 15; q++) {
        gb_free(&ch->a[q]);
        gb_free(&ch->b[q]);
        gb_free(&ch->pool[q]);
    }
    for (int q = 0; q < 10; q++) {
        gb_free(&ch->qa[q]);
        gb_free(&ch->qb[q]);
    }
    gb_free(&ch->pairs);
    gb_free(&ch->rec);
}

static void outs_free(outs *o)
{
    gbuf *all[] = {&o->hit, &o->ohit, &o->bad, &o->obad, &o->sep, &o->axis, &o->compact};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gb_free(all[i]);
    for (int c = 0; c < 3; c++) {
        gb_free(&o->nrm[c]);
        gb_free(&o->min[c]);
        gb_free(&o->max[c]);
    }
    for (int q = 0; q < 9; q++)
        gb_free(&o->qaxis[q]);
}

static void outs_reset(outs *o)
{
    gbuf *all[] = {&o->hit, &o->ohit, &o->bad, &o->obad, &o->sep, &o->axis, &o->compact, &o->nrm[0], &o->nrm[1], &o->nrm[2],
                   &o->min[0], &o->min[1], &o->min[2], &o->max[0], &o->max[1], &o->max[2]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gb_reset(all[i]);
    for (int q = 0; q < 9; q++)
        gb_reset(&o->qaxis[q]);
}

/* Copies every output buffer (payload and guard) of one run. */
static void outs_copy(outs *dst, const outs *src)
{
    const gbuf *from[] = {&src->hit, &src->ohit, &src->bad, &src->obad, &src->sep, &src->axis, &src->compact, &src->nrm[0], &src->nrm[1],
                          &src->nrm[2]};
    gbuf *to[] = {&dst->hit, &dst->ohit, &dst->bad, &dst->obad, &dst->sep, &dst->axis, &dst->compact, &dst->nrm[0], &dst->nrm[1], &dst->nrm[2]};
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++)
        memcpy(to[i]->p, from[i]->p, from[i]->bytes + GB_GUARD);
    dst->count = src->count;
    dst->ocount = src->ocount;
}

/* Batch sizes around the width W, then the rest. */
static size_t batch_sizes(int w, size_t n, size_t *sz)
{
    size_t pattern[] = {0, 1, (size_t)w - 1, (size_t)w, (size_t)w + 1, 2 * (size_t)w + 1, 31, 1000, 0, 3};
    size_t k = 0, used = 0;
    for (size_t i = 0; i < sizeof pattern / sizeof pattern[0] && used < n; i++) {
        size_t s = pattern[i] > n - used ? n - used : pattern[i];
        sz[k++] = s;
        used += s;
    }
    if (used < n)
        sz[k++] = n - used;
    return k;
}

static sbx_job job_for(const chunk *ch, sbx_src src, size_t i0, size_t len, float margin, outs *o, int collide)
{
    sbx_job j;
    memset(&j, 0, sizeof j);
    j.src = src;
    j.n = len;
    j.margin = margin;
    /* Offset descriptors: the batch starts at pair i0. */
    static satbox_boxes va, vb;
    static satbox_qboxes qa, qb;
    static satbox_pair *pp;
    va = ch->ma;
    vb = ch->mb;
    qa = ch->qva;
    qb = ch->qvb;
    for (int c = 0; c < 3; c++) {
        va.center[c] += i0; va.half[c] += i0; vb.center[c] += i0; vb.half[c] += i0;
        qa.center[c] += i0; qa.half[c] += i0; qb.center[c] += i0; qb.half[c] += i0;
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            va.axis[k][c] += i0;
            vb.axis[k][c] += i0;
        }
    for (int c = 0; c < 4; c++) {
        qa.quat[c] += i0;
        qb.quat[c] += i0;
    }
    pp = (satbox_pair *)ch->pairs.p + i0;
    j.ma = &va;
    j.mb = &vb;
    j.qa = &qa;
    j.qb = &qb;
    j.one = &ch->one;
    j.pool = &ch->mpool;
    j.rec = (const satbox_rec *)ch->rec.p;
    j.pairs = pp;
    if (collide) {
        j.hit = (uint8_t *)o->hit.p + i0;
        j.separation = (float *)o->sep.p + i0;
        for (int c = 0; c < 3; c++)
            j.normal[c] = (float *)o->nrm[c].p + i0;
        j.axis = (uint8_t *)o->axis.p + i0;
        j.bad = (uint8_t *)o->bad.p + i0;
    } else {
        j.hit = (uint8_t *)o->ohit.p + i0;
        j.bad = (uint8_t *)o->obad.p + i0;
    }
    return j;
}

/* Runs one path over the whole chunk for one source, in batches processed last to first.
 * The compacted list is produced on a single full-chunk call (its indices are chunk-relative). */
static void run_path(const sbx_path *k, const chunk *ch, sbx_src src, float margin, outs *o)
{
    size_t sz[16], nb = batch_sizes(k->width, ch->n, sz), start[16], pos = 0;
    for (size_t b = 0; b < nb; b++) {
        start[b] = pos;
        pos += sz[b];
    }
    o->count = o->ocount = 0;
    for (size_t b = nb; b-- > 0;) {
        sbx_job jc = job_for(ch, src, start[b], sz[b], margin, o, 1);
        o->count += k->collide(&jc);
        sbx_job jo = job_for(ch, src, start[b], sz[b], margin, o, 0);
        o->ocount += k->overlap(&jo);
    }
    /* Compacted list over the whole chunk (collide, no per-pair outputs). */
    sbx_job jl = job_for(ch, src, 0, ch->n, margin, o, 1);
    jl.hit = NULL;
    jl.separation = NULL;
    jl.axis = NULL;
    jl.bad = NULL;
    jl.normal[0] = jl.normal[1] = jl.normal[2] = NULL;
    jl.compact = (uint32_t *)o->compact.p;
    ptrdiff_t cl = k->collide(&jl);
    if (cl != o->count) {
        printf("  compacted count %td != per-batch count %td\n", cl, o->count);
        failures++;
    }
    if (src == SBX_SRC_MAT) {
        sbx_box_job bj;
        memset(&bj, 0, sizeof bj);
        bj.n = ch->n;
        bj.m = &ch->ma;
        bj.margin = margin < 0 ? 0.0f : margin;
        for (int c = 0; c < 3; c++) {
            bj.min[c] = (float *)o->min[c].p;
            bj.max[c] = (float *)o->max[c].p;
        }
        o->aabb_count = k->aabb(&bj);
        float *ax[3][3];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                ax[a][c] = (float *)o->qaxis[3 * a + c].p;
        o->quat_count = k->axes_from_quat(ch->qva.quat, ch->n, ax);
    } else if (src == SBX_SRC_QUAT) {
        sbx_box_job bj;
        memset(&bj, 0, sizeof bj);
        bj.n = ch->n;
        bj.q = &ch->qva;
        bj.margin = 0.25f;
        for (int c = 0; c < 3; c++) {
            bj.min[c] = (float *)o->min[c].p;
            bj.max[c] = (float *)o->max[c].p;
        }
        o->aabb_count = k->aabb(&bj);
        o->quat_count = 0;
    }
}

static const char *src_name(sbx_src s)
{
    static const char *n[] = {"matrix", "quat", "one", "pool", "records"};
    return n[s];
}

static void report_pair(const chunk *ch, sbx_src src, size_t i)
{
    if (src != SBX_SRC_MAT)
        return;
    satbox_box a, b;
    tb_box_from(&ch->ma, i, &a);
    tb_box_from(&ch->mb, i, &b);
    printf("    A: c=(%a %a %a) h=(%a %a %a)\n", a.center[0], a.center[1], a.center[2], a.half[0], a.half[1],
           a.half[2]);
    printf("    B: c=(%a %a %a) h=(%a %a %a)\n", b.center[0], b.center[1], b.center[2], b.half[0], b.half[1],
           b.half[2]);
}

/* Compares one output array; prints the first differing pair. */
static int same(const char *what, const gbuf *ref, const gbuf *got, size_t elem, const char *path, const chunk *ch,
                sbx_src src, size_t upto)
{
    size_t at;
    int ok = gb_same(what, ref, got, elem, upto, path, src_name(src), seed, &at);
    if (at != SIZE_MAX)
        report_pair(ch, src, at);
    if (!ok)
        failures++;
    return ok;
}

static void compare(const outs *ref, const outs *got, const char *path, const chunk *ch, sbx_src src, float margin)
{
    size_t n = ch->n;
    same("hit", &ref->hit, &got->hit, 1, path, ch, src, n);
    same("overlap hit", &ref->ohit, &got->ohit, 1, path, ch, src, n);
    same("bad", &ref->bad, &got->bad, 1, path, ch, src, n);
    same("overlap bad", &ref->obad, &got->obad, 1, path, ch, src, n);
    same("separation", &ref->sep, &got->sep, 4, path, ch, src, n);
    for (int c = 0; c < 3; c++)
        same("normal", &ref->nrm[c], &got->nrm[c], 4, path, ch, src, n);
    same("axis", &ref->axis, &got->axis, 1, path, ch, src, n);
    same("compacted list", &ref->compact, &got->compact, 4, path, ch, src, (size_t)(ref->count > 0 ? ref->count : 0));
    if (ref->count != got->count || ref->ocount != got->ocount) {
        printf("FAIL %s/%s: counts %td/%td, reference %td/%td\n", path, src_name(src), got->count, got->ocount,
               ref->count, ref->ocount);
        failures++;
    }
    if (memcmp(got->bad.p, got->obad.p, n) != 0) {
        printf("FAIL %s/%s: overlap bad != collide bad\n", path, src_name(src));
        failures++;
    }
    if (margin == 0.0f && memcmp(got->hit.p, got->ohit.p, n) != 0) {
        printf("FAIL %s/%s: overlap hit != collide(margin 0) hit\n", path, src_name(src));
        failures++;
    }
    if (src == SBX_SRC_MAT || src == SBX_SRC_QUAT) {
        for (int c = 0; c < 3; c++) {
            same("aabb min", &ref->min[c], &got->min[c], 4, path, ch, src, n);
            same("aabb max", &ref->max[c], &got->max[c], 4, path, ch, src, n);
        }
        if (ref->aabb_count != got->aabb_count || ref->quat_count != got->quat_count) {
            printf("FAIL %s/%s: aabb/quat counts differ\n", path, src_name(src));
            failures++;
        }
    }
    if (src == SBX_SRC_MAT)
        for (int q = 0; q < 9; q++)
            same("axes_from_quat", &ref->qaxis[q], &got->qaxis[q], 4, path, ch, src, n);
}

int main(int argc, char **argv)
{
    uint64_t pairs = scaled(10000000); /* SATBOX_TEST_SCALE of tests/run's stage (scale.h) */
    test_path paths[16];
    int np = checker_start(argc, argv, "checkasm", &seed, &pairs, paths);
    if (np <= 0)
        return np < 0 ? 2 : 1;

    chunk ch;
    outs ref, got, pool_ref;
    chunk_alloc(&ch, CHUNK);
    outs_alloc(&ref, CHUNK);
    outs_alloc(&pool_ref, CHUNK);
    outs_alloc(&got, CHUNK);
    tb_rng r;
    tb_seed(&r, seed);
    const float margins[] = {0.0f, 0.05f, -0.05f, 0.0f};
    uint64_t done = 0, chunks = 0, hits = 0, invalid = 0;
    while (done < pairs && failures < 20) {
        chunk_fill(&ch, &r);
        float margin = margins[chunks % 4];
        for (int s = 0; s < 5; s++) {
            sbx_src src = (sbx_src)s;
            /* Matrix source on every chunk; the other sources on every fourth (their loaders
             * differ, the math does not), which keeps the run short under qemu. The record pool
             * runs on the pool's chunks, and its reference must equal the SoA pool's. */
            if (src != SBX_SRC_MAT && chunks % 4 != (uint64_t)(s == SBX_SRC_REC ? SBX_SRC_POOL : s))
                continue;
            if (src == SBX_SRC_REC) /* ref still holds the SoA pool's reference outputs */
                outs_copy(&pool_ref, &ref);
            outs_reset(&ref);
            run_path(&sbx_path_scalar, &ch, src, margin, &ref);
            if (src == SBX_SRC_REC)
                compare(&pool_ref, &ref, "scalar records vs SoA pool", &ch, src, margin);
            if (margin == 0.0f && memcmp(ref.hit.p, ref.ohit.p, ch.n) != 0) {
                printf("FAIL scalar/%s: overlap hit != collide(margin 0) hit\n", src_name(src));
                failures++;
            }
            if (src == SBX_SRC_MAT) {
                for (size_t i = 0; i < ch.n; i++) {
                    uint8_t h = ((uint8_t *)ref.ohit.p)[i], bad = ((uint8_t *)ref.obad.p)[i];
                    hits += h == 1;
                    invalid += bad == 1;
                    if (h > 1 || bad > 1 || (bad && h)) {
                        printf("FAIL scalar/%s: pair %zu hit %u bad %u (a bad pair must read 0)\n", src_name(src), i, h, bad);
                        failures++;
                    }
                }
            }
            for (int p = 0; p < np; p++) {
                outs_reset(&got);
                run_path(paths[p].path, &ch, src, margin, &got);
                compare(&ref, &got, paths[p].name, &ch, src, margin);
            }
        }
        done += ch.n;
        chunks++;
    }
    printf("checked %" PRIu64 " pairs (matrix source) on %d paths: %" PRIu64 " overlapping, %" PRIu64
           " invalid; %d failures\n",
           done, np, hits, invalid, failures);
    if (failures)
        printf("replay with: --seed %" PRIu64 "\n", seed);
    chunk_free(&ch);
    outs_free(&ref);
    outs_free(&got);
    outs_free(&pool_ref);
    return failures ? 1 : 0;
}

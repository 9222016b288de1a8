/* check_contacts.c - every contacts kernel (native and portable) against the scalar reference, bit for bit. */
/* SPDX-License-Identifier: MIT */
/* Usage: check_contacts [--seed S] [--pairs N]
 * checkasm's method for satbox_contacts: random pairs of every family of support.h (bad values
 * mixed in) plus crossing edges, through the five sources (matrix, quaternion, pool + pairs,
 * records, quaternion records), margins 0, 1e-3 and 0.05. The scalar reference runs once per chunk; each path runs on
 * unaligned copies, split into batches of 0, 1, W-1, W, W+1, 2W+1, 31 and the rest, processed last
 * to first, every output array off vector alignment (floats at 4 + 4k bytes, bytes at odd
 * addresses) and followed by guard bytes. All 29 outputs and the compacted list
 * must match with memcmp; the guards must be intact. The stream form runs the same batches into
 * guarded record arrays: its records must equal, byte for byte, records assembled here from the
 * reference's SoA outputs (one per pair with hit == 1, ascending), its bad bytes the reference's.
 * Seed printed; replay with --seed. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"
#include "gbuf.h"
#include "paths.h"
#include "scale.h"
#include "support.h"

#define NOUT 28 /* count, hit, axis, bad, normal 3, point 12, depth 4, feature 4, list */

static int failures = 0;

/* The outputs of one run: NOUT guarded arrays, and the job that points at them (offset i0). */
typedef struct outs {
    gbuf b[NOUT];
} outs;

static const size_t elem[NOUT] = {1, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};

/* Outputs start off every vector alignment but on their element's alignment (a float at an odd
 * address is undefined behaviour in C; UBSan flags it): byte arrays at odd addresses. */
static void outs_alloc(outs *o, size_t n, size_t mis)
{
    for (int q = 0; q < NOUT; q++)
        gb_alloc(&o->b[q], n * elem[q], elem[q] * (1 + (mis + (size_t)q) % 7));
}

static void outs_free(outs *o)
{
    for (int q = 0; q < NOUT; q++)
        free(o->b[q].raw);
}

/* Points the job's outputs at element `at` of every array. */
static void outs_bind(outs *o, size_t at, sbx_cjob *cj)
{
    unsigned char *p[NOUT];
    for (int q = 0; q < NOUT; q++)
        p[q] = (unsigned char *)o->b[q].p + at * elem[q];
    cj->count = p[0];
    cj->pair.hit = p[1];
    cj->pair.axis = p[2];
    cj->pair.bad = p[3];
    for (int c = 0; c < 3; c++)
        cj->pair.normal[c] = (float *)p[4 + c];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            cj->point[k][c] = (float *)p[7 + 3 * k + c];
        cj->depth[k] = (float *)p[19 + k];
        cj->feature[k] = (uint32_t *)p[23 + k];
    }
    cj->pair.compact = (uint32_t *)p[27];
}

/* Inputs of a chunk: A, B (matrix and quaternion SoA), the pool of 2n boxes with pairs, records. */
typedef struct chunk {
    size_t n;
    gbuf a[15], b[15], qa[10], qb[10], pool[15], pairs, rec, qrec;
} chunk;

static void put_box(gbuf *f, size_t i, const satbox_box *b)
{
    const float *src = (const float *)b;
    for (int q = 0; q < 15; q++)
        ((float *)f[q].p)[i] = src[q];
}

static void view_of(gbuf *f, size_t at, satbox_boxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p + at;
        v->half[c] = (const float *)f[3 + c].p + at;
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            v->axis[k][c] = (const float *)f[6 + 3 * k + c].p + at;
}

static void qview_of(gbuf *f, size_t at, satbox_qboxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p + at;
        v->half[c] = (const float *)f[3 + c].p + at;
    }
    for (int c = 0; c < 4; c++)
        v->quat[c] = (const float *)f[6 + c].p + at;
}

/* Crossing edges (as test_contacts.c's family, smaller). */
static void edge_pair(tb_rng *r, satbox_box *a, satbox_box *b)
{
    tb_make_pair(r, TB_UNIFORM, a, b);
    int i = (int)(tb_next(r) % 3), j = (int)(tb_next(r) % 3);
    const float *u = a->axis[i], *v = b->axis[j];
    double n[3] = {(double)u[1] * v[2] - (double)u[2] * v[1], (double)u[2] * v[0] - (double)u[0] * v[2],
                   (double)u[0] * v[1] - (double)u[1] * v[0]};
    double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (l < 1e-3)
        return;
    double pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        double da = 0, db = 0;
        for (int c = 0; c < 3; c++) {
            da += a->axis[k][c] * n[c];
            db += b->axis[k][c] * n[c];
        }
        for (int c = 0; c < 3; c++) {
            pa[c] += (k == i ? 0 : (da < 0 ? -1 : 1) * (double)a->half[k]) * a->axis[k][c];
            pb[c] += (k == j ? 0 : (db < 0 ? 1 : -1) * (double)b->half[k]) * b->axis[k][c];
        }
    }
    double pen = tb_range(r, -1e-3, 1e-2);
    for (int c = 0; c < 3; c++)
        b->center[c] = (float)(a->center[c] + pa[c] - pen * n[c] / l - pb[c]);
}

static void fill_chunk(chunk *ch, tb_rng *r)
{
    size_t n = ch->n;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        uint64_t f = tb_next(r) % (TB_FAMILY_COUNT + 1);
        if (f == TB_FAMILY_COUNT)
            edge_pair(r, &a, &b);
        else
            tb_make_pair(r, (tb_family)f, &a, &b);
        put_box(ch->a, i, &a);
        put_box(ch->b, i, &b);
        put_box(ch->pool, 2 * i, &a);
        put_box(ch->pool, 2 * i + 1, &b);
        for (int c = 0; c < 3; c++) {
            ((float *)ch->qa[c].p)[i] = a.center[c];
            ((float *)ch->qa[3 + c].p)[i] = a.half[c];
            ((float *)ch->qb[c].p)[i] = b.center[c];
            ((float *)ch->qb[3 + c].p)[i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            ((float *)ch->qa[6 + c].p)[i] = (float)tb_normal(r);
            ((float *)ch->qb[6 + c].p)[i] = (float)tb_normal(r);
        }
        /* pairs in a scrambled order, sometimes reversed or repeated */
        satbox_pair *pp = (satbox_pair *)ch->pairs.p;
        uint64_t x = tb_next(r) % 8;
        pp[i] = x == 0 ? (satbox_pair){(uint32_t)(2 * i + 1), (uint32_t)(2 * i)}
                       : (satbox_pair){(uint32_t)(2 * i), (uint32_t)(2 * i + 1)};
        /* the quaternion record pool holds the quaternion batches' boxes at the pool's slots */
        satbox_qrec *qr = (satbox_qrec *)ch->qrec.p;
        for (int c = 0; c < 3; c++) {
            qr[2 * i].center[c] = a.center[c];
            qr[2 * i].half[c] = a.half[c];
            qr[2 * i + 1].center[c] = b.center[c];
            qr[2 * i + 1].half[c] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            qr[2 * i].quat[c] = ((float *)ch->qa[6 + c].p)[i];
            qr[2 * i + 1].quat[c] = ((float *)ch->qb[6 + c].p)[i];
        }
        qr[2 * i].pad[0] = qr[2 * i].pad[1] = qr[2 * i + 1].pad[0] = qr[2 * i + 1].pad[1] = NAN; /* never read */
        satbox_rec *rec = (satbox_rec *)ch->rec.p;
        memcpy(&rec[2 * i], &a, sizeof a);
        memcpy(&rec[2 * i + 1], &b, sizeof b);
        rec[2 * i].pad = rec[2 * i + 1].pad = 0;
    }
}

/* Runs kernel k on pairs [at, at + m) of source src into outputs o, or, when `stream` is set,
 * into records at stream (and bad bytes at o's bad array); returns the kernel's count. */
static ptrdiff_t run(const sbx_path *k, chunk *ch, sbx_src src, float margin, size_t at, size_t m,
                     outs *o, satbox_manifold *stream)
{
    satbox_boxes ma, mb, pool;
    satbox_qboxes qa, qb;
    view_of(ch->a, at, &ma);
    view_of(ch->b, at, &mb);
    view_of(ch->pool, 0, &pool);
    qview_of(ch->qa, at, &qa);
    qview_of(ch->qb, at, &qb);
    sbx_cjob cj;
    memset(&cj, 0, sizeof cj);
    cj.pair.src = src;
    cj.pair.n = m;
    cj.pair.ma = &ma;
    cj.pair.mb = &mb;
    cj.pair.qa = &qa;
    cj.pair.qb = &qb;
    cj.pair.pool = &pool;
    cj.pair.rec = (const satbox_rec *)ch->rec.p;
    cj.pair.qrec = (const satbox_qrec *)ch->qrec.p;
    cj.pair.pairs = (const satbox_pair *)ch->pairs.p + at;
    cj.pair.margin = margin;
    outs_bind(o, at, &cj);
    if (stream) { /* the stream form: records and bad bytes only */
        uint8_t *bad = cj.pair.bad;
        memset(&cj, 0, sizeof cj);
        cj.pair = (sbx_job){.src = src, .n = m, .ma = &ma, .mb = &mb, .qa = &qa, .qb = &qb, .pool = &pool,
                            .rec = (const satbox_rec *)ch->rec.p, .qrec = (const satbox_qrec *)ch->qrec.p,
                            .pairs = (const satbox_pair *)ch->pairs.p + at, .margin = margin, .bad = bad};
        cj.stream = stream;
    }
    return k->contacts(&cj);
}

/* The record of pair i (batch-relative index `rel`) assembled from the reference's SoA outputs,
 * field by field as satbox.h describes the stream. */
static satbox_manifold expected_record(const outs *ref, size_t i, size_t rel)
{
    satbox_manifold m;
    memset(&m, 0, sizeof m);
    m.pair = (uint32_t)rel;
    for (int c = 0; c < 3; c++)
        m.normal[c] = ((const float *)ref->b[4 + c].p)[i];
    m.axis = ((const uint8_t *)ref->b[2].p)[i];
    m.count = ((const uint8_t *)ref->b[0].p)[i];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            m.point[k].position[c] = ((const float *)ref->b[7 + 3 * k + c].p)[i];
        m.point[k].depth = ((const float *)ref->b[19 + k].p)[i];
        m.point[k].feature = ((const uint32_t *)ref->b[23 + k].p)[i];
    }
    return m;
}

static const char *src_name(sbx_src s);

/* The stream form of path p over the same batches (last to first, each into its own guarded
 * record array): records equal to expected_record() of the reference's hit pairs, ascending,
 * the count returned equal to their number, bad bytes equal, guards intact. */
static void check_stream(const test_path *p, chunk *ch, sbx_src src, float margin, const outs *ref,
                         const size_t sizes[8], const size_t starts[8], size_t done)
{
    outs got;
    outs_alloc(&got, ch->n, 3);
    for (int z = 7; z >= 0; z--) {
        gbuf rec;
        gb_alloc(&rec, sizes[z] * sizeof(satbox_manifold), 4 * (size_t)(z % 4));
        ptrdiff_t cnt = run(p->path, ch, src, margin, starts[z], sizes[z], &got, (satbox_manifold *)rec.p);
        const satbox_manifold *r = (const satbox_manifold *)rec.p;
        ptrdiff_t want = 0;
        int differs = 0;
        for (size_t i = starts[z]; i < starts[z] + sizes[z]; i++) {
            if (((const uint8_t *)ref->b[1].p)[i] != 1)
                continue;
            satbox_manifold e = expected_record(ref, i, i - starts[z]);
            if (want >= cnt || memcmp(&e, &r[want], sizeof e) != 0) {
                failures++;
                if (failures <= 20)
                    printf("  FAIL %s %s margin %g stream: record %td (pair %zu) differs%s\n", p->name, src_name(src),
                           margin, want, done + i, want >= cnt ? " (missing)" : "");
                differs = 1;
                break;
            }
            want++;
        }
        if (!differs && cnt != want) {
            failures++;
            printf("  FAIL %s %s stream: %td records returned, %td hit pairs\n", p->name, src_name(src), cnt, want);
        }
        if (!gb_guard_ok(&rec)) {
            failures++;
            printf("  FAIL %s %s stream: guard bytes after the records overwritten\n", p->name, src_name(src));
        }
        free(rec.raw);
    }
    if (memcmp(ref->b[3].p, got.b[3].p, ch->n) != 0 || !gb_guard_ok(&got.b[3])) {
        failures++;
        printf("  FAIL %s %s stream: bad bytes differ or their guard is overwritten\n", p->name, src_name(src));
    }
    outs_free(&got);
}

static const char *src_name(sbx_src s)
{
    switch (s) {
    case SBX_SRC_MAT: return "matrix";
    case SBX_SRC_QUAT: return "quaternion";
    case SBX_SRC_POOL: return "pool";
    case SBX_SRC_QREC: return "quaternion records";
    default: return "records";
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = 0xC0C0A5ull;
    /* Short runs (scale.h): 40K pairs, and in proportion below scale 0.012 (valgrind's 0.003: 10K). */
    size_t total = 200000;
    if (test_short()) {
        total = scaled(3333333);
        if (total > 40000)
            total = 40000;
    }
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--seed"))
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--pairs"))
            total = strtoull(argv[++i], NULL, 0);
    }
    printf("check_contacts: seed 0x%" PRIx64 " (replay with --seed), %zu pairs per path and source\n", seed, total);
    test_path paths[16];
    int np = paths_list(paths);
    const size_t N = 2000;
    chunk ch = {.n = N};
    for (int q = 0; q < 15; q++) {
        gb_alloc(&ch.a[q], N * 4, 4 + (size_t)q % 3 * 4);
        gb_alloc(&ch.b[q], N * 4, 8);
        gb_alloc(&ch.pool[q], 2 * N * 4, 12);
    }
    for (int q = 0; q < 10; q++) {
        gb_alloc(&ch.qa[q], N * 4, 4);
        gb_alloc(&ch.qb[q], N * 4, 12);
    }
    gb_alloc(&ch.pairs, N * sizeof(satbox_pair), 8);
    gb_alloc(&ch.rec, 2 * N * sizeof(satbox_rec), 0);
    gb_alloc(&ch.qrec, 2 * N * sizeof(satbox_qrec), 16);
    tb_rng r;
    tb_seed(&r, seed);
#define NSRC_C 5
    const sbx_src srcs[NSRC_C] = {SBX_SRC_MAT, SBX_SRC_QUAT, SBX_SRC_POOL, SBX_SRC_REC, SBX_SRC_QREC};
    const float margins[3] = {0.0f, 1e-3f, 0.05f};
    size_t compared = 0;
    for (size_t done = 0; done < total; done += N) {
        fill_chunk(&ch, &r);
        for (int si = 0; si < NSRC_C; si++) {
            float margin = margins[(done / N + (size_t)si) % 3];
            outs ref;
            outs_alloc(&ref, N, 0);
            run(&sbx_path_scalar, &ch, srcs[si], margin, 0, N, &ref, NULL);
            { /* the scalar path's own stream form against its SoA form */
                const test_path scalar = {"scalar", &sbx_path_scalar};
                size_t whole[8] = {N, 0, 0, 0, 0, 0, 0, 0}, at0[8] = {0, N, N, N, N, N, N, N};
                check_stream(&scalar, &ch, srcs[si], margin, &ref, whole, at0, done);
            }
            for (int pi = 0; pi < np; pi++) {
                int W = paths[pi].path->width;
                size_t sizes[8] = {0, 1, (size_t)W - 1, (size_t)W, (size_t)W + 1, 2 * (size_t)W + 1, 31, 0};
                size_t sum = 0;
                for (int z = 0; z < 7; z++)
                    sum += sizes[z];
                sizes[7] = N - sum;
                size_t starts[8], at = 0;
                for (int z = 0; z < 8; z++) {
                    starts[z] = at;
                    at += sizes[z];
                }
                outs got;
                outs_alloc(&got, N, 1 + (size_t)pi);
                for (int z = 7; z >= 0; z--) /* last to first: a tail writing past n clobbers checked data */
                    run(paths[pi].path, &ch, srcs[si], margin, starts[z], sizes[z], &got, NULL);
                check_stream(&paths[pi], &ch, srcs[si], margin, &ref, sizes, starts, done);
                for (int q = 0; q < NOUT; q++) {
                    if (q == 27)
                        continue; /* lists are batch-relative; checked through hit */
                    if (memcmp(ref.b[q].p, got.b[q].p, N * elem[q]) != 0) {
                        size_t e = elem[q], first = 0;
                        while (memcmp((unsigned char *)ref.b[q].p + first * e, (unsigned char *)got.b[q].p + first * e,
                                      e) == 0)
                            first++;
                        failures++;
                        if (failures <= 20)
                            printf("  FAIL %s %s margin %g: output %d differs first at pair %zu\n", paths[pi].name,
                                   src_name(srcs[si]), margin, q, done + first);
                    }
                    if (!gb_guard_ok(&got.b[q])) {
                        failures++;
                        printf("  FAIL %s %s: guard bytes after output %d overwritten\n", paths[pi].name,
                               src_name(srcs[si]), q);
                    }
                }
                compared += N;
                outs_free(&got);
            }
            outs_free(&ref);
        }
    }
    for (int q = 0; q < 15; q++) {
        free(ch.a[q].raw);
        free(ch.b[q].raw);
        free(ch.pool[q].raw);
    }
    for (int q = 0; q < 10; q++) {
        free(ch.qa[q].raw);
        free(ch.qb[q].raw);
    }
    free(ch.pairs.raw);
    free(ch.rec.raw);
    free(ch.qrec.raw);
    for (int pi = 0; pi < np; pi++)
        printf("  %-16s width %2d\n", paths[pi].name, paths[pi].path->width);
    printf("%zu pair runs compared bit for bit over %d paths x %d sources, SoA and stream: %s (%d failures)\n", compared, np, NSRC_C,
           failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

/* checkasm2d.c - every ISA path's 2D kernels (native and portable) against the 2D scalar reference, bit for bit. */
/* SPDX-License-Identifier: MIT */
/* Usage: checkasm2d [--seed S] [--pairs N] [--path NAME]
 * For each chunk of random pairs (all families of support2d.h, bad data and garbage in unused
 * vertex slots included) it runs the scalar reference once per source (rectangles, rectangle
 * pool + pairs, polygons, polygon pool + pairs, rectangle vs polygon), then every path on the same
 * inputs at unaligned addresses, split into batches of sizes 0, 1, W-1, W, W+1, 2W+1, 31, ...
 * processed last to first (a tail that writes past its n clobbers results already checked), with
 * guard bytes after every output. It compares every output (hit, bad, separation, normal, axis,
 * counts, compacted list) with memcmp and checks overlap == collide(margin 0).hit on every path.
 * The contact manifolds (satbox2d_*contacts) the same way: every record of every path, all 48
 * bytes, against the reference's, batches last to first with guard bytes after the records; the
 * reference's records against its own collide outputs (separation, bad, normal and axis unless
 * the hysteresis kept A's face, count > 0 only on a hit); and the argument checks of the five
 * entry points (NULL, index, margin, records overlapping an input: error, nothing written).
 * The last line also prints an FNV-1a hash of every reference output (all sources, all chunks):
 * the same seed and pair count give the same hash as long as the reference's bits do not change,
 * which is how a speed change of the 2D kernels shows that it changed no result. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbuf.h"
#include "paths.h"
#include "scale.h"
#include "support2d.h"
#include "contacts2d.h"

#define CHUNK 4096
#define NV SATBOX2D_MAX_VERTS
#define NSRC 5

static uint64_t seed = 0x2D5A7B0Cull;
static int failures = 0;

/* Inputs of one chunk: rectangles and polygons as A/B batches and as pools of 2n with pairs. */
typedef struct chunk {
    size_t n;
    gbuf ra[6], rb[6], rpool[6];
    gbuf pa[2 * NV + 1], pb[2 * NV + 1], ppool[2 * NV + 1]; /* x[0..7], y[0..7], count */
    gbuf pairs;
} chunk;

typedef struct outs {
    gbuf hit, ohit, bad, obad, sep, nrm[2], axis, compact;
    gbuf nobad; /* overlap hit of the whole chunk with bad == NULL (kernels may skip the validity there) */
    ptrdiff_t count, ocount;
} outs;

static gbuf *outs_list(outs *o, int q)
{
    gbuf *all[] = {&o->hit, &o->ohit, &o->bad, &o->obad, &o->sep, &o->nrm[0], &o->nrm[1], &o->axis, &o->compact};
    return q < 9 ? all[q] : NULL;
}

/* FNV-1a over `len` bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    return h;
}

/* The reference outputs of one chunk and source into h (compacted list up to its count). */
static uint64_t outs_hash(uint64_t h, outs *o, size_t n)
{
    static const size_t elem[9] = {1, 1, 1, 1, 4, 4, 4, 1, 4};
    for (int q = 0; q < 8; q++)
        h = fnv1a(h, outs_list(o, q)->p, n * elem[q]);
    h = fnv1a(h, o->compact.p, (size_t)(o->count > 0 ? o->count : 0) * 4);
    h = fnv1a(h, &o->count, sizeof o->count);
    return fnv1a(h, &o->ocount, sizeof o->ocount);
}

static void outs_alloc(outs *o, size_t n)
{
    static const size_t elem[9] = {1, 1, 1, 1, 4, 4, 4, 1, 4};
    for (int q = 0; q < 9; q++)
        gb_alloc(outs_list(o, q), n * elem[q], (size_t)(1 + q % 3) * (elem[q] == 4 ? 4 : 1));
    gb_alloc(&o->nobad, n, 3);
}

static void outs_each(outs *o, void (*fn)(gbuf *))
{
    for (int q = 0; q < 9; q++)
        fn(outs_list(o, q));
    fn(&o->nobad);
}

static void chunk_alloc(chunk *ch, size_t n)
{
    ch->n = n;
    for (int q = 0; q < 6; q++) {
        gb_alloc(&ch->ra[q], n * 4, 4);
        gb_alloc(&ch->rb[q], n * 4, 8);
        gb_alloc(&ch->rpool[q], 2 * n * 4, 12);
    }
    for (int q = 0; q <= 2 * NV; q++) {
        size_t e = q == 2 * NV ? 1 : 4;
        gb_alloc(&ch->pa[q], n * e, e == 4 ? 4 : 1);
        gb_alloc(&ch->pb[q], n * e, e == 4 ? 8 : 3);
        gb_alloc(&ch->ppool[q], 2 * n * e, e == 4 ? 12 : 5);
    }
    gb_alloc(&ch->pairs, n * sizeof(satbox_pair), 4);
}

static void chunk_free(chunk *ch)
{
    for (int q = 0; q < 6; q++) {
        gb_free(&ch->ra[q]);
        gb_free(&ch->rb[q]);
        gb_free(&ch->rpool[q]);
    }
    for (int q = 0; q <= 2 * NV; q++) {
        gb_free(&ch->pa[q]);
        gb_free(&ch->pb[q]);
        gb_free(&ch->ppool[q]);
    }
    gb_free(&ch->pairs);
}

static void put_rect(gbuf *f, size_t i, const tb_rect *r)
{
    const float v[6] = {r->c[0], r->c[1], r->h[0], r->h[1], r->u[0], r->u[1]};
    for (int q = 0; q < 6; q++)
        ((float *)f[q].p)[i] = v[q];
}

static void put_poly(gbuf *f, size_t i, const tb_poly *p)
{
    for (int k = 0; k < NV; k++) {
        ((float *)f[k].p)[i] = p->x[k];
        ((float *)f[NV + k].p)[i] = p->y[k];
    }
    ((uint8_t *)f[2 * NV].p)[i] = p->n;
}

/* `count`: 0 mixes 3..8 vertices; otherwise every polygon of the chunk gets `count` vertices
 * (steps whose lanes all stop early). */
static void chunk_fill(chunk *ch, tb_rng *r, int count)
{
    size_t n = ch->n;
    satbox_pair *pp = (satbox_pair *)ch->pairs.p;
    for (size_t i = 0; i < n; i++) {
        tb_rect a, b;
        tb_poly pa, pb;
        tb2_rect_pair(r, (tb2_family)(tb_next(r) % TB2_FAMILY_COUNT), &a, &b);
        tb2_poly_pair(r, (tb2_family)(tb_next(r) % TB2_FAMILY_COUNT), count, count, &pa, &pb);
        put_rect(ch->ra, i, &a);
        put_rect(ch->rb, i, &b);
        put_rect(ch->rpool, i, &a);
        put_rect(ch->rpool, n + i, &b);
        put_poly(ch->pa, i, &pa);
        put_poly(ch->pb, i, &pb);
        put_poly(ch->ppool, i, &pa);
        put_poly(ch->ppool, n + i, &pb);
        uint64_t x = tb_next(r) % 16;
        if (x == 0) {
            pp[i].a = (uint32_t)(tb_next(r) % (2 * n));
            pp[i].b = (uint32_t)(tb_next(r) % (2 * n));
        } else if (x == 1 && i > 0) {
            pp[i] = pp[i - 1];
        } else if (x == 2) {
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)i};
        } else {
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)(n + i)};
        }
    }
}

/* Descriptors of a chunk's arrays from element i0 on (the pools always start at 0). */
static void rect_view(gbuf *f, size_t i0, satbox2d_rects *v)
{
    for (int c = 0; c < 2; c++) {
        v->center[c] = (const float *)f[c].p + i0;
        v->half[c] = (const float *)f[2 + c].p + i0;
        v->axis[c] = (const float *)f[4 + c].p + i0;
    }
}

static void poly_view(gbuf *f, size_t i0, satbox2d_polys *v)
{
    for (int k = 0; k < NV; k++) {
        v->x[k] = (const float *)f[k].p + i0;
        v->y[k] = (const float *)f[NV + k].p + i0;
    }
    v->count = (const uint8_t *)f[2 * NV].p + i0;
}

static const char *src_name(sbx_src2d s)
{
    static const char *names[NSRC] = {"rect", "rect-pool", "poly", "poly-pool", "rect-poly"};
    return names[s];
}

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

/* A job over pairs [i0, i0 + len) of the chunk, writing into the collide or the overlap outputs. */
static sbx_job2d job_for(chunk *ch, sbx_src2d src, size_t i0, size_t len, float margin, outs *o, int collide,
                         satbox2d_rects rv[2], satbox2d_polys pv[2])
{
    sbx_job2d j;
    memset(&j, 0, sizeof j);
    j.src = src;
    j.n = len;
    j.margin = margin;
    int pool = src == SBX2D_RECT_POOL || src == SBX2D_POLY_POOL;
    rect_view(pool ? ch->rpool : ch->ra, pool ? 0 : i0, &rv[0]);
    rect_view(ch->rb, i0, &rv[1]);
    poly_view(pool ? ch->ppool : ch->pa, pool ? 0 : i0, &pv[0]);
    poly_view(ch->pb, i0, &pv[1]);
    j.ra = &rv[0];
    j.rb = &rv[1];
    j.pa = &pv[0];
    j.pb = &pv[1];
    j.pairs = (const satbox_pair *)ch->pairs.p + i0;
    if (collide) {
        j.hit = (uint8_t *)o->hit.p + i0;
        j.bad = (uint8_t *)o->bad.p + i0;
        j.separation = (float *)o->sep.p + i0;
        j.normal[0] = (float *)o->nrm[0].p + i0;
        j.normal[1] = (float *)o->nrm[1].p + i0;
        j.axis = (uint8_t *)o->axis.p + i0;
    } else {
        j.hit = (uint8_t *)o->ohit.p + i0;
        j.bad = (uint8_t *)o->obad.p + i0;
    }
    return j;
}

static void run_path(const sbx_path *k, const char *pname, chunk *ch, sbx_src2d src, float margin, outs *o)
{
    size_t sz[16] = {0}, nb = batch_sizes(k->width, ch->n, sz), start[16], pos = 0;
    satbox2d_rects rv[2];
    satbox2d_polys pv[2];
    for (size_t b = 0; b < nb; b++) {
        start[b] = pos;
        pos += sz[b];
    }
    o->count = o->ocount = 0;
    for (size_t b = nb; b-- > 0;) {
        sbx_job2d jc = job_for(ch, src, start[b], sz[b], margin, o, 1, rv, pv);
        o->count += k->collide2d(&jc);
        sbx_job2d jo = job_for(ch, src, start[b], sz[b], margin, o, 0, rv, pv);
        o->ocount += k->overlap2d(&jo);
    }
    /* Overlap over the whole chunk with no `bad` output: the hit bytes must be those above. */
    sbx_job2d jn = job_for(ch, src, 0, ch->n, margin, o, 0, rv, pv);
    jn.hit = (uint8_t *)o->nobad.p;
    jn.bad = NULL;
    ptrdiff_t cn = k->overlap2d(&jn);
    if (cn != o->ocount || memcmp(o->nobad.p, o->ohit.p, ch->n) != 0 || !gb_guard_ok(&o->nobad)) {
        printf("FAIL %s/%s: overlap with bad == NULL: hit bytes or count (%td, %td with bad) differ\n", pname,
               src_name(src), cn, o->ocount);
        failures++;
    }
    /* The compacted list over the whole chunk, from collide with no per-pair outputs. */
    sbx_job2d jl = job_for(ch, src, 0, ch->n, margin, o, 1, rv, pv);
    jl.hit = jl.bad = jl.axis = NULL;
    jl.separation = jl.normal[0] = jl.normal[1] = NULL;
    jl.compact = (uint32_t *)o->compact.p;
    ptrdiff_t cl = k->collide2d(&jl);
    if (cl != o->count) {
        printf("FAIL %s/%s: compacted count %td != per-batch count %td\n", pname, src_name(src), cl, o->count);
        failures++;
    }
}

/* The manifolds of pairs [0, n) of the chunk into `rec` (records, n of them), in batches last to first. */
static ptrdiff_t run_contacts(const sbx_path *k, chunk *ch, sbx_src2d src, float margin, gbuf *rec)
{
    size_t sz[16] = {0}, nb = batch_sizes(k->width, ch->n, sz), start[16], pos = 0;
    satbox2d_rects rv[2];
    satbox2d_polys pv[2];
    outs none;
    memset(&none, 0, sizeof none);
    for (size_t b = 0; b < nb; b++) {
        start[b] = pos;
        pos += sz[b];
    }
    ptrdiff_t count = 0;
    for (size_t b = nb; b-- > 0;) {
        sbx_cjob2d cj;
        memset(&cj, 0, sizeof cj);
        satbox2d_manifold *base = (satbox2d_manifold *)rec->p;
        cj.pair = job_for(ch, src, start[b], sz[b], margin, &none, 0, rv, pv);
        cj.pair.hit = cj.pair.bad = NULL;
        cj.out = base + start[b];
        count += k->contacts2d(&cj);
    }
    return count;
}

static void print_manifold(const char *who, const satbox2d_manifold *m)
{
    printf("  %s: count %u axis %u bad %u flags %u normal (%a, %a) separation %a\n", who, m->count, m->axis, m->bad,
           m->flags, (double)m->normal[0], (double)m->normal[1], (double)m->separation);
    for (int j = 0; j < 2; j++)
        printf("    point %d: (%a, %a) separation %a id 0x%x\n", j, (double)m->point[j].x, (double)m->point[j].y,
               (double)m->point[j].separation, m->point[j].id);
}

static void same_manifolds(const gbuf *ref, const gbuf *got, ptrdiff_t rc, ptrdiff_t gc, const char *pname,
                           sbx_src2d src, size_t n)
{
    if (!gb_guard_ok(got)) {
        printf("FAIL %s/%s: manifold: guard bytes after the records were overwritten\n", pname, src_name(src));
        failures++;
    }
    const satbox2d_manifold *r = (const satbox2d_manifold *)ref->p, *g = (const satbox2d_manifold *)got->p;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&r[i], &g[i], sizeof r[i]) != 0) {
            printf("FAIL %s/%s: manifold differs at pair %zu (seed %" PRIu64 ")\n", pname, src_name(src), i, seed);
            print_manifold("reference", &r[i]);
            print_manifold("got", &g[i]);
            failures++;
            break;
        }
    if (rc != gc) {
        printf("FAIL %s/%s: manifold count %td, reference %td\n", pname, src_name(src), gc, rc);
        failures++;
    }
}

/* The reference's records against its own collide outputs (same margin). */
static void manifold_vs_collide(const gbuf *rec, const outs *ref, ptrdiff_t rc, sbx_src2d src, size_t n)
{
    const satbox2d_manifold *m = (const satbox2d_manifold *)rec->p;
    ptrdiff_t with = 0;
    for (size_t i = 0; i < n; i++) {
        float sep = ((const float *)ref->sep.p)[i], nx = ((const float *)ref->nrm[0].p)[i];
        float ny = ((const float *)ref->nrm[1].p)[i];
        uint8_t axis = ((const uint8_t *)ref->axis.p)[i], hit = ((const uint8_t *)ref->hit.p)[i];
        uint8_t bad = ((const uint8_t *)ref->bad.p)[i];
        int kept_a = (m[i].flags & SATBOX2D_MANIFOLD_KEPT_A) != 0;
        const char *why = NULL;
        if (memcmp(&m[i].separation, &sep, 4) != 0)
            why = "separation != collide's";
        else if (m[i].bad != bad)
            why = "bad != collide's";
        else if (!kept_a && (memcmp(&m[i].normal[0], &nx, 4) || memcmp(&m[i].normal[1], &ny, 4) || m[i].axis != axis))
            why = "normal or axis != collide's (no hysteresis flag)";
        else if (kept_a && (m[i].axis >= (src <= SBX2D_RECT_POOL ? 2 : SATBOX2D_MAX_VERTS) || axis < (src <= SBX2D_RECT_POOL ? 2 : SATBOX2D_MAX_VERTS)))
            why = "hysteresis flag but the axes are not A's (manifold) and B's (collide)";
        else if (m[i].count > 2 || (m[i].count > 0 && !hit))
            why = "count > 2, or points on a pair collide does not hit";
        else if (bad && (m[i].count || m[i].flags || m[i].axis != SATBOX_AXIS_INVALID))
            why = "bad pair with points, flags or an axis";
        if (why) {
            printf("FAIL scalar/%s: pair %zu: manifold %s\n", src_name(src), i, why);
            print_manifold("reference", &m[i]);
            failures++;
            return;
        }
        with += m[i].count > 0;
    }
    if (with != rc) {
        printf("FAIL scalar/%s: manifold count %td != pairs with points %td\n", src_name(src), rc, with);
        failures++;
    }
}

/* The argument checks of the five contacts entry points: an error and nothing written. */
static void contacts_args(chunk *ch)
{
    satbox2d_rects rv[2];
    satbox2d_polys pv[2];
    rect_view(ch->ra, 0, &rv[0]);
    rect_view(ch->rb, 0, &rv[1]);
    poly_view(ch->pa, 0, &pv[0]);
    poly_view(ch->pb, 0, &pv[1]);
    satbox2d_manifold rec[4];
    const satbox_pair bad_pair[1] = {{0, 99}};
    struct {
        const char *what;
        ptrdiff_t got, want;
    } cases[12];
    int nc = 0;
#define CASE(what, call, want) (memset(rec, 0x5A, sizeof rec), cases[nc++] = (__typeof__(cases[0])){what, call, want})
    CASE("rect NULL out", satbox2d_contacts(&rv[0], &rv[1], 4, 0.0f, NULL), SATBOX_ERR_NULL);
    CASE("rect NULL a", satbox2d_contacts(NULL, &rv[1], 4, 0.0f, rec), SATBOX_ERR_NULL);
    CASE("rect NaN margin", satbox2d_contacts(&rv[0], &rv[1], 4, NAN, rec), SATBOX_ERR_ARG);
    CASE("rect records over an input", satbox2d_contacts(&rv[0], &rv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->rb[3].p), SATBOX_ERR_ALIAS);
    CASE("rect pool index", satbox2d_contacts_pairs(&rv[0], 4, bad_pair, 1, 0.0f, rec), SATBOX_ERR_INDEX);
    CASE("rect pool count", satbox2d_contacts_pairs(&rv[0], (size_t)SATBOX_MAX_COUNT + 1, bad_pair, 1, 0.0f, rec), SATBOX_ERR_COUNT);
    CASE("poly NULL b", satbox2d_poly_contacts(&pv[0], NULL, 4, 0.0f, rec), SATBOX_ERR_NULL);
    CASE("poly records over an input", satbox2d_poly_contacts(&pv[0], &pv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->pa[5].p), SATBOX_ERR_ALIAS);
    CASE("poly pool index", satbox2d_poly_contacts_pairs(&pv[0], 4, bad_pair, 1, 0.0f, rec), SATBOX_ERR_INDEX);
    CASE("rect-poly inf margin", satbox2d_rect_poly_contacts(&rv[0], &pv[1], 4, INFINITY, rec), SATBOX_ERR_ARG);
    CASE("rect-poly records over an input", satbox2d_rect_poly_contacts(&rv[0], &pv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->pb[16].p), SATBOX_ERR_ALIAS);
    CASE("n = 0", satbox2d_poly_contacts(NULL, NULL, 0, NAN, NULL), 0);
#undef CASE
    for (int c = 0; c < nc; c++)
        if (cases[c].got != cases[c].want) {
            printf("FAIL contacts arguments: %s returned %td, expected %td\n", cases[c].what, cases[c].got, cases[c].want);
            failures++;
        }
    /* Nothing written: the last call's records are untouched (each case refills them first, so
     * check one error call on its own). */
    memset(rec, 0x5A, sizeof rec);
    (void)satbox2d_poly_contacts_pairs(&pv[0], 4, bad_pair, 1, 0.0f, rec);
    for (size_t b = 0; b < sizeof rec; b++)
        if (((const unsigned char *)rec)[b] != 0x5A) {
            printf("FAIL contacts arguments: a rejected call wrote its records\n");
            failures++;
            break;
        }
}

static void same(const char *what, const gbuf *ref, const gbuf *got, size_t elem, const char *pname, sbx_src2d src,
                 size_t upto)
{
    size_t at;
    if (!gb_same(what, ref, got, elem, upto, pname, src_name(src), seed, &at))
        failures++;
}

static void compare(outs *ref, outs *got, const char *pname, sbx_src2d src, size_t n, float margin)
{
    same("hit", &ref->hit, &got->hit, 1, pname, src, n);
    same("overlap hit", &ref->ohit, &got->ohit, 1, pname, src, n);
    same("bad", &ref->bad, &got->bad, 1, pname, src, n);
    same("overlap bad", &ref->obad, &got->obad, 1, pname, src, n);
    same("separation", &ref->sep, &got->sep, 4, pname, src, n);
    same("normal x", &ref->nrm[0], &got->nrm[0], 4, pname, src, n);
    same("normal y", &ref->nrm[1], &got->nrm[1], 4, pname, src, n);
    same("axis", &ref->axis, &got->axis, 1, pname, src, n);
    same("compacted list", &ref->compact, &got->compact, 4, pname, src, (size_t)(ref->count > 0 ? ref->count : 0));
    if (ref->count != got->count || ref->ocount != got->ocount) {
        printf("FAIL %s/%s: counts %td/%td, reference %td/%td\n", pname, src_name(src), got->count, got->ocount,
               ref->count, ref->ocount);
        failures++;
    }
    if (memcmp(got->bad.p, got->obad.p, n) != 0) {
        printf("FAIL %s/%s: overlap bad != collide bad\n", pname, src_name(src));
        failures++;
    }
    if (margin == 0.0f && memcmp(got->hit.p, got->ohit.p, n) != 0) {
        printf("FAIL %s/%s: overlap hit != collide(margin 0) hit\n", pname, src_name(src));
        failures++;
    }
}

int main(int argc, char **argv)
{
    /* As many pairs as checkasm at a scale (scale.h), at most 2M (the full run). */
    uint64_t pairs = scaled(10000000);
    if (pairs > 2000000)
        pairs = 2000000;
    test_path paths[16];
    int np = checker_start(argc, argv, "checkasm2d", &seed, &pairs, paths);
    if (np <= 0)
        return np < 0 ? 2 : 1;

    chunk ch;
    outs ref, got;
    gbuf mref, mgot;
    chunk_alloc(&ch, CHUNK);
    outs_alloc(&ref, CHUNK);
    outs_alloc(&got, CHUNK);
    gb_alloc(&mref, CHUNK * sizeof(satbox2d_manifold), 4);
    gb_alloc(&mgot, CHUNK * sizeof(satbox2d_manifold), 4);
    uint64_t with_points[NSRC] = {0}, two_points[NSRC] = {0}, kept_a[NSRC] = {0};
    tb_rng r;
    tb_seed(&r, seed);
    const float margins[] = {0.0f, 0.05f, -0.05f, 0.0f};
    uint64_t done = 0, chunks = 0, hits[NSRC] = {0}, bad[NSRC] = {0}, hash = 0xcbf29ce484222325ull;
    while (done < pairs && failures < 20) {
        chunk_fill(&ch, &r, chunks % 2 ? 3 + (int)(chunks / 2 % 6) : 0);
        float margin = margins[chunks % 4];
        for (int s = 0; s < NSRC; s++) {
            sbx_src2d src = (sbx_src2d)s;
            outs_each(&ref, gb_reset);
            run_path(&sbx_path_scalar, "scalar", &ch, src, margin, &ref);
            hash = outs_hash(hash, &ref, ch.n);
            for (size_t i = 0; i < ch.n; i++) {
                uint8_t h = ((uint8_t *)ref.ohit.p)[i], b = ((uint8_t *)ref.obad.p)[i];
                hits[s] += h == 1;
                bad[s] += b == 1;
                if (h > 1 || b > 1 || (b && h)) {
                    printf("FAIL scalar/%s: pair %zu hit %u bad %u (a bad pair must read 0)\n", src_name(src), i, h, b);
                    failures++;
                }
            }
            if (margin == 0.0f && memcmp(ref.hit.p, ref.ohit.p, ch.n) != 0) {
                printf("FAIL scalar/%s: overlap hit != collide(margin 0) hit\n", src_name(src));
                failures++;
            }
            for (int p = 0; p < np; p++) {
                outs_each(&got, gb_reset);
                run_path(paths[p].path, paths[p].name, &ch, src, margin, &got);
                compare(&ref, &got, paths[p].name, src, ch.n, margin);
            }
            gb_reset(&mref);
            ptrdiff_t mc = run_contacts(&sbx_path_scalar, &ch, src, margin, &mref);
            manifold_vs_collide(&mref, &ref, mc, src, ch.n);
            for (size_t i = 0; i < ch.n; i++) {
                const satbox2d_manifold *m = (const satbox2d_manifold *)mref.p + i;
                two_points[s] += m->count == 2;
                kept_a[s] += (m->flags & SATBOX2D_MANIFOLD_KEPT_A) != 0;
            }
            with_points[s] += (uint64_t)mc;
            for (int p = 0; p < np; p++) {
                gb_reset(&mgot);
                ptrdiff_t gc = run_contacts(paths[p].path, &ch, src, margin, &mgot);
                same_manifolds(&mref, &mgot, mc, gc, paths[p].name, src, ch.n);
            }
        }
        done += ch.n;
        chunks++;
    }
    printf("checked %" PRIu64 " pairs per source on %d paths; overlapping / bad:", done, np);
    for (int s = 0; s < NSRC; s++)
        printf(" %s %" PRIu64 "/%" PRIu64, src_name((sbx_src2d)s), hits[s], bad[s]);
    printf("\nmanifolds, pairs with points / with 2 points / hysteresis kept A:");
    for (int s = 0; s < NSRC; s++)
        printf(" %s %" PRIu64 "/%" PRIu64 "/%" PRIu64, src_name((sbx_src2d)s), with_points[s], two_points[s], kept_a[s]);
    contacts_args(&ch);
    printf("; reference hash %016" PRIx64 "; %d failures\n", hash, failures);
    if (failures)
        printf("replay with: --seed %" PRIu64 "\n", seed);
    chunk_free(&ch);
    outs_each(&ref, gb_free);
    outs_each(&got, gb_free);
    gb_free(&mref);
    gb_free(&mgot);
    return failures ? 1 : 0;
}

/* fuzz_diff.c - libFuzzer target: every kernel table against the scalar reference, bit for bit, on arbitrary boxes. */
/* SPDX-License-Identifier: MIT */
/* Each input is decoded (LLVMFuzzerTestOneInput(), make_box()) into a pool of boxes, some
 * clean, some with bad values (NaN, inf, negative, huge, denormal, -0.0, zero or non-finite
 * quaternions, garbage axes), sometimes all scaled into the denormal or huge range, and
 * n pairs over it (n = 0..255, mostly below 64: every remainder modulo 4, 8, 16). It checks:
 *  - every path (the native tables this CPU runs, the portable tables if linked) returns the
 *    scalar path's outputs bit for bit (hit, bad, separation, normal, axis, counts, compacted list)
 *    for every pair source of SBX_SOURCES (src/box3d/sources.h: matrix, quaternion, one-vs-many, pool +
 *    pairs, record pool + pairs, quaternion record pool + pairs), with overlap, collide(margin)
 *    and collide(0), and for aabb, aabb_q and axes_from_quat; each source reads the same pairs of
 *    boxes, so a pool or record source must also equal the batch source of the same form (axes
 *    or quaternions) bit for bit, whatever the records' pads hold (twin_of);
 *  - on the scalar path: overlap == collide(margin 0).hit; a pair with a box holding NaN,
 *    infinity or a negative extent is marked bad 1, hit 0 (never 1), NaN separation, zero
 *    normal and SATBOX_AXIS_INVALID, by overlap and collide alike; a pair of boxes that pass
 *    the per-box rule (sbx_ref_box_valid, itself cross-checked with the public
 *    satbox_validate) has bad 0; finite but absurd boxes may go either way, consistently
 *    (check_ref); a pair not marked bad is 0 or 1 with hit == (separation <= margin), a
 *    separation that is not NaN, a normal without NaN and an axis id < 15; counts and
 *    compacted lists match the hit bytes; invalid boxes get the empty AABB;
 *  - the public overlap and collide of every source (active path) agree with the kernels;
 *  - the contact manifolds of every source with a contacts form (satbox_contacts, _q, _pairs,
 *    _pairs_rec, _pairs_qrec; every contacts kernel against the scalar one, bit for bit: count,
 *    hit, normal, axis, 4 points, depths, feature ids, bad, compacted list; equal to the twin
 *    source's; the public entry points too) and, on the scalar path, their promises for any
 *    input: count <= 4, count >= 1 exactly when hit, unused slots point 0, depth 0,
 *    SATBOX_FEATURE_NONE; a bad pair count 0, hit 0,
 *    bad 1, axis SATBOX_AXIS_INVALID, normal 0; hit and bad equal to collide's with the same
 *    margin, and collide's normal where the same axis wins; the count and list match the hits.
 * Any difference prints what differed and aborts, which libFuzzer reports as a crash.
 * Every array is its own malloc of exactly n elements, so ASan catches any access past n.
 *
 * Build: a build dir configured with clang and coverage in the library too, e.g.
 *   CC=clang-14 meson setup build-fuzz -Dfuzz=enabled -Db_sanitize=address,undefined \
 *       -Db_lundef=false -Dportable_kernels=disabled \
 *       -Dc_args='-fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp -fno-sanitize=pointer-overflow'
 *   ninja -C build-fuzz tests/fuzz_diff
 * Short run: tests/run --only fuzz (meson test fuzz_diff: 45 s, seeded from tests/fuzz/fuzz_corpus).
 * Longer run, from the repository root (new inputs go to the first directory):
 *   mkdir -p /tmp/satbox-fuzz && build-fuzz/tests/fuzz_diff -entropic=0 -max_total_time=3600 \
 *       -jobs=2 -workers=2 -timeout=10 /tmp/satbox-fuzz tests/fuzz/fuzz_corpus
 * (-entropic=0: with ~40K coverage features the entropic schedule's bookkeeping takes 90% of
 * the time otherwise.)
 * Fold what it found into the committed corpus, minimised to a few dozen files (edge coverage
 * only: hit counts would keep hundreds):
 *   mkdir /tmp/satbox-min && build-fuzz/tests/fuzz_diff -merge=1 -use_counters=0 /tmp/satbox-min \
 *       tests/fuzz/fuzz_corpus /tmp/satbox-fuzz
 *   then replace the files of tests/fuzz/fuzz_corpus with those of /tmp/satbox-min.
 * Replay a crash: build-fuzz/tests/fuzz_diff crash-<sha1>   (prints the first difference). */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box3d/contacts.h"
#include "api_sources.h"
#include "contacts_util.h"
#include "box3d/box3d.h"
#include "paths.h"
#include "support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- paths ---- */
static test_path paths[16];
static int npaths = -1;

static void init_paths(void) { npaths = paths_list(paths); }

/* ---- failure ---- */
static const char *cur_path = "scalar";
static const char *cur_what = "";

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_diff FAIL [%s, %s]: ", cur_path, cur_what);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* ---- byte reader: the input, then a generator seeded from it (long batches from short inputs) ---- */
typedef struct reader {
    const uint8_t *p;
    size_t n, at;
    uint64_t state;
} reader;

static uint8_t u8(reader *r)
{
    if (r->at < r->n)
        return r->p[r->at++];
    r->state = r->state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint8_t)(r->state >> 56);
}

/* A header byte: 0 past the end of the input. */
static uint8_t hdr(reader *r) { return r->at < r->n ? r->p[r->at++] : 0; }

static uint32_t u32(reader *r)
{
    uint32_t v = u8(r);
    v |= (uint32_t)u8(r) << 8;
    v |= (uint32_t)u8(r) << 16;
    v |= (uint32_t)u8(r) << 24;
    return v;
}

enum kind { K_CENTER, K_HALF, K_AXIS, K_QUAT, K_MARGIN };

static float sensible(enum kind k, uint8_t b)
{
    switch (k) {
    case K_CENTER: return (float)(int8_t)b / 8.0f; /* multiples of 1/8: exact touches */
    case K_HALF: return (float)b / 32.0f;
    case K_AXIS: return (float)(int8_t)b / 127.0f;
    case K_QUAT: return (float)(int8_t)b / 64.0f;
    case K_MARGIN:
    default: return (float)(int8_t)b / 64.0f;
    }
}

static float special(uint8_t b)
{
    /* clang-format off */
    static const float table[] = {
        NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f,
        1.40129846e-45f, -1.40129846e-45f, 5.9e-39f, -5.9e-39f, /* denormals */
        FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 3e38f, 1e30f, 1e-30f, -1e30f,
        SATBOX_COORD_LIMIT, SATBOX_COORD_LIMIT / 3.0f, SATBOX_COORD_LIMIT / 6.0f, 5e14f, -5e14f,
        SATBOX_AXIS_SUM_LIMIT, SATBOX_AXIS_SUM_LIMIT / 9.0f, SATBOX_AXIS_SUM_LIMIT / 3.0f,
        SATBOX_BOUND_REL, SATBOX_PARALLEL_ABS_COS, 1e-4f, -1e-4f, 1e-5f,
        -1.0f, 1.0f, 0.5f, -0.5f, 2.0f, 0.99999994f, 1.00000012f, 0.70710678f, -0.70710678f,
        0.57735027f, 1e8f, 1e-20f, 1e20f, 1e-15f,
    };
    /* clang-format on */
    float v = table[b % (sizeof table / sizeof table[0])];
    return v;
}

/* One float of kind k: mostly sensible, else special (maybe nudged by ulps), scaled, or raw bits. */
static float val(reader *r, enum kind k)
{
    uint8_t s = u8(r);
    if (s < 128)
        return sensible(k, u8(r));
    if (s < 176)
        return special(u8(r));
    if (s < 208) {
        float v = sensible(k, u8(r));
        return ldexpf(v, (int8_t)u8(r) / 2);
    }
    if (s < 224) {
        float v = special(u8(r));
        int steps = 1 + (s & 3);
        float dir = (s & 4) ? INFINITY : -INFINITY;
        for (int i = 0; i < steps; i++)
            v = nextafterf(v, dir);
        return v;
    }
    uint32_t bits = u32(r);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Rotation (columns = axes) of the quaternion (x, y, z, w), in double, rounded to float. */
static void rotation(double x, double y, double z, double w, float u[3][3])
{
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (n == 0) {
        w = 1;
        n = 1;
    }
    x /= n, y /= n, z /= n, w /= n;
    double m[3][3] = {
        {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
        {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
        {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)},
    };
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            u[k][c] = (float)m[k][c];
}

static enum kind field_kind(int f) { return f < 3 ? K_CENTER : f < 6 ? K_HALF : K_AXIS; }

/* One pool box (and its quaternion, for the quaternion source). */
static void make_box(reader *r, const satbox_box *prev, satbox_box *b, float q[4])
{
    uint8_t mode = u8(r);
    if ((mode >> 6) == 3 && prev) {
        /* A near copy of the previous box: identical, shifted by a few 1/64, or by one ulp. */
        *b = *prev;
        for (int c = 0; c < 3; c++) {
            uint8_t d = u8(r);
            if (d & 0x80)
                b->center[c] = nextafterf(b->center[c], (d & 1) ? INFINITY : -INFINITY);
            else
                b->center[c] += (float)((int)(d & 0x3F) - 32) / 64.0f;
        }
    } else {
        int clean = (mode & 4) != 0;
        for (int c = 0; c < 3; c++)
            b->center[c] = clean ? sensible(K_CENTER, u8(r)) : val(r, K_CENTER);
        for (int c = 0; c < 3; c++)
            b->half[c] = clean ? sensible(K_HALF, u8(r)) : val(r, K_HALF);
        switch (mode & 3) {
        case 0: { /* a rotation */
            int8_t x = (int8_t)u8(r), y = (int8_t)u8(r), z = (int8_t)u8(r), w = (int8_t)u8(r);
            rotation(x, y, z, w, b->axis);
            break;
        }
        case 1: { /* a signed permutation: exact axes, maybe left-handed */
            static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
            uint8_t p = u8(r);
            memset(b->axis, 0, sizeof b->axis);
            for (int k = 0; k < 3; k++)
                b->axis[k][perm[p % 6][k]] = ((p >> (3 + k)) & 1) ? -1.0f : 1.0f;
            break;
        }
        case 2: /* anything */
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    b->axis[k][c] = val(r, K_AXIS);
            break;
        default: { /* a rotation with one component replaced */
            int8_t x = (int8_t)u8(r), y = (int8_t)u8(r), z = (int8_t)u8(r), w = (int8_t)u8(r);
            rotation(x, y, z, w, b->axis);
            uint8_t f = u8(r);
            b->axis[(f / 3) % 3][f % 3] = val(r, K_AXIS);
            break;
        }
        }
        /* A few mutated fields. */
        int muts = (mode >> 3) & 3;
        if (mode & 0x20)
            for (int m = 0; m < muts; m++) {
                int f = u8(r) % 15;
                ((float *)b)[f] = val(r, field_kind(f));
            }
    }
    uint8_t qm = u8(r);
    for (int c = 0; c < 4; c++)
        q[c] = (qm & 1) ? val(r, K_QUAT) : sensible(K_QUAT, u8(r));
    if ((qm & 6) == 6)
        q[0] = q[1] = q[2] = q[3] = (qm & 8) ? -0.0f : 0.0f;
}

/* ---- exact-size arrays ---- */
static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        abort();
    return p;
}

/* Output arrays are pre-filled, so that bytes a path leaves alone compare equal only if every
 * path leaves them alone. */
static void *omalloc(size_t bytes)
{
    void *p = xmalloc(bytes);
    memset(p, 0xA5, bytes ? bytes : 1);
    return p;
}

/* ---- outputs of one path on one source ---- */
typedef struct outs {
    uint8_t *hit, *axis, *ohit, *hit0, *bad, *obad; /* bad: collide's, obad: overlap's */
    float *sep, *nrm[3];
    uint32_t *list, *olist;
    ptrdiff_t count, ocount, count0;
} outs;

static void outs_alloc(outs *o, size_t n)
{
    o->hit = (uint8_t *)omalloc(n);
    o->axis = (uint8_t *)omalloc(n);
    o->ohit = (uint8_t *)omalloc(n);
    o->hit0 = (uint8_t *)omalloc(n);
    o->bad = (uint8_t *)omalloc(n);
    o->obad = (uint8_t *)omalloc(n);
    o->sep = (float *)omalloc(n * sizeof(float));
    for (int c = 0; c < 3; c++)
        o->nrm[c] = (float *)omalloc(n * sizeof(float));
    o->list = (uint32_t *)omalloc(n * sizeof(uint32_t));
    o->olist = (uint32_t *)omalloc(n * sizeof(uint32_t));
}

static void outs_free(outs *o)
{
    free(o->hit);
    free(o->axis);
    free(o->ohit);
    free(o->hit0);
    free(o->bad);
    free(o->obad);
    free(o->sep);
    for (int c = 0; c < 3; c++)
        free(o->nrm[c]);
    free(o->list);
    free(o->olist);
}

/* overlap, collide(margin) with every output and the compacted list, collide(0) hit only. */
static void run_pairs(const sbx_path *k, const sbx_job *base, float margin, outs *o)
{
    sbx_job j = *base;
    j.margin = margin;
    j.hit = o->hit;
    j.separation = o->sep;
    for (int c = 0; c < 3; c++)
        j.normal[c] = o->nrm[c];
    j.axis = o->axis;
    j.bad = o->bad;
    j.compact = o->list;
    o->count = k->collide(&j);

    j = *base;
    j.hit = o->ohit;
    j.bad = o->obad;
    j.compact = o->olist;
    o->ocount = k->overlap(&j);

    if (margin == 0.0f) { /* the first call was collide(0) already */
        memcpy(o->hit0, o->hit, base->n);
        o->count0 = o->count;
        return;
    }
    j = *base;
    j.margin = 0.0f;
    j.hit = o->hit0;
    o->count0 = k->collide(&j);
}

static void same_bytes(const void *ref, const void *got, size_t elem, size_t n, const char *what)
{
    if (n && memcmp(ref, got, elem * n) != 0) {
        size_t i = 0;
        while (memcmp((const char *)ref + i * elem, (const char *)got + i * elem, elem) == 0)
            i++;
        if (elem == 4) {
            uint32_t x, y;
            memcpy(&x, (const char *)ref + i * elem, 4);
            memcpy(&y, (const char *)got + i * elem, 4);
            float fx, fy;
            memcpy(&fx, &x, 4);
            memcpy(&fy, &y, 4);
            fail("%s differs at %zu: scalar %08" PRIx32 " (%a), got %08" PRIx32 " (%a)", what, i, x, (double)fx, y,
                 (double)fy);
        }
        fail("%s differs at %zu: scalar %u, got %u", what, i, ((const uint8_t *)ref)[i], ((const uint8_t *)got)[i]);
    }
}

static void compare_outs(const outs *ref, const outs *got, size_t n)
{
    if (got->count != ref->count || got->ocount != ref->ocount || got->count0 != ref->count0)
        fail("counts %td/%td/%td, scalar %td/%td/%td", got->count, got->ocount, got->count0, ref->count, ref->ocount,
             ref->count0);
    same_bytes(ref->hit, got->hit, 1, n, "collide hit");
    same_bytes(ref->ohit, got->ohit, 1, n, "overlap hit");
    same_bytes(ref->hit0, got->hit0, 1, n, "collide(0) hit");
    same_bytes(ref->bad, got->bad, 1, n, "collide bad");
    same_bytes(ref->obad, got->obad, 1, n, "overlap bad");
    same_bytes(ref->sep, got->sep, 4, n, "separation");
    for (int c = 0; c < 3; c++)
        same_bytes(ref->nrm[c], got->nrm[c], 4, n, "normal");
    same_bytes(ref->axis, got->axis, 1, n, "axis");
    same_bytes(ref->list, got->list, 4, (size_t)ref->count, "collide compacted list");
    same_bytes(ref->olist, got->olist, 4, (size_t)ref->ocount, "overlap compacted list");
}

/* 1 when the box holds NaN or infinity anywhere or a negative extent (-0.0 is a zero extent):
 * bad data under any reading of the rule. */
static int hard_bad(const satbox_box *b)
{
    const float *f = &b->center[0];
    for (int k = 0; k < 15; k++)
        if (!isfinite(f[k]))
            return 1;
    return b->half[0] < 0.0f || b->half[1] < 0.0f || b->half[2] < 0.0f;
}

/* The scalar path's own promises. cls[i] says what the data of pair i requires (an independent
 * reading of satbox.h's rule, not the kernel's formula):
 *   CLS_VALID  both boxes pass the per-box rule (sbx_ref_box_valid): the pair must be valid;
 *   CLS_BAD    a box has NaN, infinity or a negative extent: the pair must be flagged bad;
 *   CLS_EITHER finite but absurd (beyond the per-box limits): either, consistently. */
enum { CLS_VALID = 0, CLS_EITHER = 1, CLS_BAD = 2 };
static uint8_t pair_class(int both_valid, int any_hard) { return both_valid ? CLS_VALID : any_hard ? CLS_BAD : CLS_EITHER; }
static void check_ref(const outs *o, const uint8_t *cls, size_t n, float margin)
{
    ptrdiff_t hits = 0, ohits = 0, hits0 = 0;
    for (size_t i = 0; i < n; i++) {
        if (o->ohit[i] != o->hit0[i])
            fail("pair %zu: overlap hit %u != collide(0) hit %u", i, o->ohit[i], o->hit0[i]);
        if (o->bad[i] != o->obad[i] || o->bad[i] > 1 || (cls[i] == CLS_VALID && o->bad[i]) ||
            (cls[i] == CLS_BAD && !o->bad[i]))
            fail("pair %zu (class %u) but bad %u / overlap bad %u", i, cls[i], o->bad[i], o->obad[i]);
        if (o->bad[i]) {
            if (o->hit[i] != 0 || o->ohit[i] != 0)
                fail("pair %zu has an invalid box but hit %u / overlap %u", i, o->hit[i], o->ohit[i]);
            if (!isnan(o->sep[i]) || o->axis[i] != SATBOX_AXIS_INVALID)
                fail("pair %zu invalid: separation %a, axis %u", i, (double)o->sep[i], o->axis[i]);
            for (int c = 0; c < 3; c++)
                if (o->nrm[c][i] != 0.0f)
                    fail("pair %zu invalid: normal[%d] = %a", i, c, (double)o->nrm[c][i]);
        } else {
            if (o->hit[i] > 1 || o->ohit[i] > 1)
                fail("pair %zu valid but hit %u / overlap %u", i, o->hit[i], o->ohit[i]);
            /* Never NaN; infinite only when the axes break the orthonormal precondition (an edge
             * axis of subnormal length), which the per-box rule does not exclude. */
            if (isnan(o->sep[i]))
                fail("pair %zu valid but separation %a", i, (double)o->sep[i]);
            if (o->hit[i] != (o->sep[i] <= margin))
                fail("pair %zu: hit %u but separation %a, margin %a", i, o->hit[i], (double)o->sep[i], (double)margin);
            if (o->axis[i] >= 15)
                fail("pair %zu valid but axis %u", i, o->axis[i]);
            for (int c = 0; c < 3; c++)
                if (isnan(o->nrm[c][i]))
                    fail("pair %zu valid but normal[%d] is NaN", i, c);
        }
        if (o->hit[i] == 1) {
            if (o->list[hits] != (uint32_t)i)
                fail("collide compacted list entry %td is %u, expected %zu", hits, o->list[hits], i);
            hits++;
        }
        if (o->ohit[i] == 1) {
            if (o->olist[ohits] != (uint32_t)i)
                fail("overlap compacted list entry %td is %u, expected %zu", ohits, o->olist[ohits], i);
            ohits++;
        }
        hits0 += o->hit0[i] == 1;
    }
    if (hits != o->count || ohits != o->ocount || hits0 != o->count0)
        fail("counts %td/%td/%td, hit bytes say %td/%td/%td", o->count, o->ocount, o->count0, hits, ohits, hits0);
}

/* ---- contact manifolds (satbox_contacts and its _q, _pairs, _pairs_rec forms) ---- */
typedef struct couts {
    void *a[TC_NARRAYS]; /* the 27 per-pair arrays, contacts_util.h's order */
    satbox_contacts_out v;
    uint32_t *list;
    ptrdiff_t count;
} couts;

static void couts_alloc(couts *o, size_t n)
{
    for (int q = 0; q < TC_NARRAYS; q++)
        o->a[q] = omalloc(n * tc_elem(q));
    o->v = tc_arrays_view(o->a);
    o->list = (uint32_t *)omalloc(n * sizeof(uint32_t));
    o->count = 0;
}

static void couts_free(couts *o)
{
    for (int q = 0; q < TC_NARRAYS; q++)
        free(o->a[q]);
    free(o->list);
}

/* The contacts kernel k on the job's pairs, every output and the compacted list. */
static void run_contacts(const sbx_path *k, const sbx_job *base, float margin, couts *o)
{
    sbx_cjob cj;
    memset(&cj, 0, sizeof cj);
    cj.pair = *base;
    cj.pair.margin = margin;
    cj.pair.hit = o->v.hit;
    cj.pair.axis = o->v.axis;
    cj.pair.bad = o->v.bad;
    cj.pair.compact = o->list;
    cj.count = o->v.count;
    for (int c = 0; c < 3; c++)
        cj.pair.normal[c] = o->v.normal[c];
    for (int s = 0; s < 4; s++) {
        for (int c = 0; c < 3; c++)
            cj.point[s][c] = o->v.point[s][c];
        cj.depth[s] = o->v.depth[s];
        cj.feature[s] = o->v.feature[s];
    }
    o->count = k->contacts(&cj);
}

static void compare_couts(const couts *ref, const couts *got, size_t n, int with_list)
{
    if (got->count != ref->count)
        fail("contacts count %td, scalar %td", got->count, ref->count);
    for (int q = 0; q < TC_NARRAYS; q++)
        same_bytes(ref->a[q], got->a[q], tc_elem(q), n, tc_array_name(q));
    if (with_list)
        same_bytes(ref->list, got->list, 4, (size_t)ref->count, "contacts compacted list");
}

/* The scalar path's manifold promises for any input: the documented shape of every pair
 * (count <= 4, count >= 1 exactly when hit, empty slots zero / SATBOX_FEATURE_NONE, a bad pair
 * count 0, hit 0, axis SATBOX_AXIS_INVALID, normal 0), bad as the pair class requires, hit and
 * bad equal to collide's (o: collide with the same margin), the normal of collide where the
 * same axis wins, the count and compacted list matching the hit bytes. */
static void check_contacts_ref(const couts *c, const outs *o, const uint8_t *cls, size_t n)
{
    ptrdiff_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = tc_shape_error(&c->v, i);
        if (e)
            fail("contacts pair %zu (class %u): %s (count %u, hit %u, bad %u, axis %u)", i, cls[i], e, c->v.count[i],
                 c->v.hit[i], c->v.bad[i], c->v.axis[i]);
        if ((cls[i] == CLS_VALID && c->v.bad[i]) || (cls[i] == CLS_BAD && !c->v.bad[i]))
            fail("contacts pair %zu (class %u) but bad %u", i, cls[i], c->v.bad[i]);
        if (c->v.hit[i] != o->hit[i] || c->v.bad[i] != o->bad[i])
            fail("contacts pair %zu: hit %u bad %u, collide hit %u bad %u", i, c->v.hit[i], c->v.bad[i], o->hit[i],
                 o->bad[i]);
        if (c->v.axis[i] == o->axis[i])
            for (int k = 0; k < 3; k++)
                if (memcmp(&c->v.normal[k][i], &o->nrm[k][i], sizeof(float)) != 0)
                    fail("contacts pair %zu: axis %u as collide's, normal[%d] %a, collide %a", i, o->axis[i], k,
                         (double)c->v.normal[k][i], (double)o->nrm[k][i]);
        if (c->v.hit[i] == 1) {
            if (c->list[hits] != (uint32_t)i)
                fail("contacts compacted list entry %td is %u, expected %zu", hits, c->list[hits], i);
            hits++;
        }
    }
    if (hits != c->count)
        fail("contacts counted %td, hit bytes say %td", c->count, hits);
}

/* Contacts of one source: the scalar reference and its promises (col: collide's scalar outputs,
 * same margin), every path bit for bit, the public entry point on the active path. ref: the
 * scalar outputs, kept by the caller (a later source's twin). */
static void contacts_source(const sbx_job *base, float margin, const outs *col, const uint8_t *cls, couts *ref)
{
    size_t n = base->n;
    int list = sbx_src_is_pool(base->src); /* the public entry point's compacted list */
    couts_alloc(ref, n);
    cur_path = "scalar";
    run_contacts(&sbx_path_scalar, base, margin, ref);
    check_contacts_ref(ref, col, cls, n);
    for (int p = 0; p < npaths; p++) {
        couts got;
        couts_alloc(&got, n);
        cur_path = paths[p].name;
        run_contacts(paths[p].path, base, margin, &got);
        compare_couts(ref, &got, n, 1);
        couts_free(&got);
    }
    cur_path = "public API";
    couts api;
    couts_alloc(&api, n);
    sbx_job j = *base;
    j.margin = margin;
    api.count = tb_api_contacts(&j, &api.v, list ? api.list : NULL);
    compare_couts(ref, &api, n, list);
    couts_free(&api);
}

/* The public overlap and collide of the job's source on the active path against the kernels'
 * scalar outputs. A pool source's overlap is asked for the list and bad only (hit NULL: the
 * pool forms may leave it out). */
static void api_pairs(const sbx_job *base, float margin, const outs *ref)
{
    size_t n = base->n;
    int pool = sbx_src_is_pool(base->src);
    outs api;
    outs_alloc(&api, n);
    cur_path = "public API";
    api.ocount = tb_api_overlap(base, pool ? NULL : api.ohit, api.olist, api.obad);
    if (api.ocount != ref->ocount)
        fail("public overlap returned %td, kernels %td", api.ocount, ref->ocount);
    if (!pool)
        same_bytes(ref->ohit, api.ohit, 1, n, "public overlap hit");
    same_bytes(ref->obad, api.obad, 1, n, "public overlap bad");
    if (pool)
        same_bytes(ref->olist, api.olist, 4, (size_t)ref->ocount, "public overlap list");
    sbx_job j = *base;
    j.margin = margin;
    satbox_result res = {.hit = api.hit, .separation = api.sep, .axis = api.axis, .bad = api.bad};
    for (int c = 0; c < 3; c++)
        res.normal[c] = api.nrm[c];
    api.count = tb_api_collide(&j, &res, pool ? api.list : NULL);
    if (api.count != ref->count)
        fail("public collide returned %td, kernels %td", api.count, ref->count);
    same_bytes(ref->hit, api.hit, 1, n, "public collide hit");
    same_bytes(ref->bad, api.bad, 1, n, "public collide bad");
    same_bytes(ref->sep, api.sep, 4, n, "public collide separation");
    for (int c = 0; c < 3; c++)
        same_bytes(ref->nrm[c], api.nrm[c], 4, n, "public collide normal");
    same_bytes(ref->axis, api.axis, 1, n, "public collide axis");
    if (pool)
        same_bytes(ref->list, api.list, 4, (size_t)ref->count, "public collide list");
    outs_free(&api);
}

/* The source whose scalar outputs source s must equal bit for bit: the first earlier source that
 * reads the same boxes (not one-vs-many) in the same form (axes or quaternions), e.g. the pool
 * and the records the matrix batches, the quaternion records the quaternion batches; -1 for none. */
static int twin_of(int s)
{
    if (sbx_src_is_one((sbx_src)s))
        return -1;
    for (int t = 0; t < s; t++)
        if (!sbx_src_is_one((sbx_src)t) && sbx_src_is_quat((sbx_src)t) == sbx_src_is_quat((sbx_src)s))
            return t;
    return -1;
}

/* ---- box outputs (aabb, aabb_q, axes_from_quat) ---- */
typedef struct bouts {
    float *min[3], *max[3], *qmin[3], *qmax[3], *ax[9];
    ptrdiff_t count, qcount, axcount;
} bouts;

static void run_boxes(const sbx_path *k, const satbox_boxes *m, const satbox_qboxes *q, size_t n, float margin,
                      bouts *o)
{
    for (int c = 0; c < 3; c++) {
        o->min[c] = (float *)omalloc(n * sizeof(float));
        o->max[c] = (float *)omalloc(n * sizeof(float));
        o->qmin[c] = (float *)omalloc(n * sizeof(float));
        o->qmax[c] = (float *)omalloc(n * sizeof(float));
    }
    for (int a = 0; a < 9; a++)
        o->ax[a] = (float *)omalloc(n * sizeof(float));
    sbx_box_job bj;
    memset(&bj, 0, sizeof bj);
    bj.n = n;
    bj.m = m;
    bj.margin = margin;
    memcpy(bj.min, o->min, sizeof bj.min);
    memcpy(bj.max, o->max, sizeof bj.max);
    o->count = k->aabb(&bj);
    bj.m = NULL;
    bj.q = q;
    memcpy(bj.min, o->qmin, sizeof bj.min);
    memcpy(bj.max, o->qmax, sizeof bj.max);
    o->qcount = k->aabb(&bj);
    float *ax[3][3];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            ax[a][c] = o->ax[3 * a + c];
    o->axcount = k->axes_from_quat(q->quat, n, ax);
}

static void bouts_free(bouts *o)
{
    for (int c = 0; c < 3; c++) {
        free(o->min[c]);
        free(o->max[c]);
        free(o->qmin[c]);
        free(o->qmax[c]);
    }
    for (int a = 0; a < 9; a++)
        free(o->ax[a]);
}

static void compare_bouts(const bouts *ref, const bouts *got, size_t n)
{
    if (ref->count != got->count || ref->qcount != got->qcount || ref->axcount != got->axcount)
        fail("aabb/aabb_q/axes_from_quat counts %td/%td/%td, scalar %td/%td/%td", got->count, got->qcount, got->axcount,
             ref->count, ref->qcount, ref->axcount);
    for (int c = 0; c < 3; c++) {
        same_bytes(ref->min[c], got->min[c], 4, n, "aabb min");
        same_bytes(ref->max[c], got->max[c], 4, n, "aabb max");
        same_bytes(ref->qmin[c], got->qmin[c], 4, n, "aabb_q min");
        same_bytes(ref->qmax[c], got->qmax[c], 4, n, "aabb_q max");
    }
    for (int a = 0; a < 9; a++)
        same_bytes(ref->ax[a], got->ax[a], 4, n, "axes_from_quat");
}

/* ---- the target ---- */
#define MAX_POOL 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (npaths < 0)
        init_paths();
    reader rd = {data, size, 0, 0x9E3779B97F4A7C15ull};
    for (size_t i = 0; i < size; i++) /* FNV-1a: the generator after the input depends on all of it */
        rd.state = (rd.state ^ data[i]) * 0x100000001B3ull;

    /* Header: n, pool size, margin. Its bytes are 0 past the end of the input (not generated),
     * so that short inputs stay small and fast: n = 0..63 (every tail of 4, 8 and 16 lanes),
     * up to 255 when asked for with bit 7 (more adds nothing but time: the kernels have no
     * state across steps below the prefetch threshold of 32K pairs). */
    uint8_t h = hdr(&rd);
    size_t n = hdr(&rd) & 63u;
    if (h & 0x80)
        n += 64u * (size_t)(hdr(&rd) & 3u);
    size_t pn = 1 + (size_t)(hdr(&rd) % MAX_POOL);
    float margin = (h & 0x40) ? val(&rd, K_MARGIN) : sensible(K_MARGIN, hdr(&rd));
    if (!isfinite(margin))
        margin = 0.0f; /* the public entry points reject a non-finite margin */

    /* The pool and its quaternions. */
    satbox_box pool_box[MAX_POOL];
    float pool_q[MAX_POOL][4];
    for (size_t j = 0; j < pn; j++)
        make_box(&rd, j ? &pool_box[j - 1] : NULL, &pool_box[j], pool_q[j]);
    if (h & 0x20) {
        /* A scaled world: every length times 2^e, e = -150..105, so that gaps, radii and their
         * products reach the denormal range (or the overflow limits) together. */
        int e = (int)hdr(&rd) - 150;
        for (size_t j = 0; j < pn; j++)
            for (int f = 0; f < 6; f++)
                ((float *)&pool_box[j])[f] = ldexpf(((float *)&pool_box[j])[f], e);
    }

    /* Validity of every pool box: the reference rule, cross-checked with satbox_validate(). The
     * pool by quaternion: the scalar axes (qpool_axes), then the same rule. */
    tb_soa pool, qpool_axes;
    tb_qsoa qpool;
    if (tb_soa_alloc(&pool, pn) || tb_soa_alloc(&qpool_axes, pn) || tb_qsoa_alloc(&qpool, pn))
        abort();
    for (size_t j = 0; j < pn; j++) {
        tb_soa_set(&pool, j, &pool_box[j]);
        tb_qsoa_set(&qpool, j, &pool_box[j], pool_q[j]);
    }
    uint8_t valid_m[MAX_POOL], valid_q[MAX_POOL], bad[MAX_POOL], hard_m[MAX_POOL], hard_q[MAX_POOL];
    ptrdiff_t nbad = satbox_validate(&pool.view, pn, 1e-3f, bad);
    ptrdiff_t ninvalid = 0;
    sbx_path_scalar.axes_from_quat(qpool.view.quat, pn, qpool_axes.out.axis);
    for (size_t j = 0; j < pn; j++) {
        valid_m[j] = (uint8_t)sbx_ref_box_valid(&pool_box[j]);
        hard_m[j] = (uint8_t)hard_bad(&pool_box[j]);
        ninvalid += !valid_m[j];
        if ((bad[j] == 1) != !valid_m[j])
            fail("box %zu: satbox_validate says %u, sbx_ref_box_valid %u", j, bad[j], valid_m[j]);
        satbox_box b = pool_box[j];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                b.axis[a][c] = qpool_axes.out.axis[a][c][j];
        valid_q[j] = (uint8_t)sbx_ref_box_valid(&b);
        hard_q[j] = (uint8_t)hard_bad(&b);
    }
    if (nbad < ninvalid)
        fail("satbox_validate counted %td bad boxes, %td are invalid", nbad, ninvalid);
    tb_soa_free(&qpool_axes);
    tb_qsoa_free(&qpool);

    /* n pairs over the pool, as matrix and quaternion batches, pool + pairs, and one-vs-many. */
    tb_soa ma, mb;
    tb_qsoa qa, qb;
    if (tb_soa_alloc(&ma, n) || tb_soa_alloc(&mb, n) || tb_qsoa_alloc(&qa, n) || tb_qsoa_alloc(&qb, n))
        abort();
    satbox_pair *pairs = (satbox_pair *)xmalloc(n * sizeof(satbox_pair));
    satbox_box *one = (satbox_box *)xmalloc(sizeof(satbox_box));
    size_t one_j = u8(&rd) % pn;
    *one = pool_box[one_j];
    uint8_t *v_mat = (uint8_t *)xmalloc(n), *v_quat = (uint8_t *)xmalloc(n), *v_one = (uint8_t *)xmalloc(n);
    for (size_t i = 0; i < n; i++) {
        size_t ia = u8(&rd) % pn, ib = u8(&rd) % pn;
        tb_soa_set(&ma, i, &pool_box[ia]);
        tb_soa_set(&mb, i, &pool_box[ib]);
        tb_qsoa_set(&qa, i, &pool_box[ia], pool_q[ia]);
        tb_qsoa_set(&qb, i, &pool_box[ib], pool_q[ib]);
        pairs[i] = (satbox_pair){(uint32_t)ia, (uint32_t)ib};
        v_mat[i] = pair_class(valid_m[ia] && valid_m[ib], hard_m[ia] || hard_m[ib]);
        v_quat[i] = pair_class(valid_q[ia] && valid_q[ib], hard_q[ia] || hard_q[ib]);
        v_one[i] = pair_class(valid_m[one_j] && valid_m[ib], hard_m[one_j] || hard_m[ib]);
    }

    /* The pool again as 64-byte records and as 48-byte quaternion records, with whatever the
     * input says in the unused pads. */
    satbox_rec *rec = (satbox_rec *)xmalloc(pn * sizeof(satbox_rec));
    for (size_t j = 0; j < pn; j++) {
        memcpy(rec[j].center, pool_box[j].center, sizeof rec[j].center);
        memcpy(rec[j].half, pool_box[j].half, sizeof rec[j].half);
        memcpy(rec[j].axis, pool_box[j].axis, sizeof rec[j].axis);
        rec[j].pad = val(&rd, K_AXIS);
    }
    satbox_qrec *qrec = (satbox_qrec *)xmalloc(pn * sizeof(satbox_qrec));
    for (size_t j = 0; j < pn; j++) {
        memcpy(qrec[j].center, pool_box[j].center, sizeof qrec[j].center);
        memcpy(qrec[j].half, pool_box[j].half, sizeof qrec[j].half);
        memcpy(qrec[j].quat, pool_q[j], sizeof qrec[j].quat);
        qrec[j].pad[0] = val(&rd, K_AXIS);
        qrec[j].pad[1] = val(&rd, K_AXIS);
    }

    /* One job holds every source's inputs; pair i is the same two pool boxes in each (box A the
     * pool box one_j for one-vs-many), read as axes or as quaternions. Each source of the list
     * runs on it, with nothing here naming a source. */
    sbx_job base = {.n = n, .ma = &ma.view, .mb = &mb.view, .qa = &qa.view, .qb = &qb.view, .one = one, .pool = &pool.view,
                    .rec = rec, .qrec = qrec, .pairs = pairs, .pool_n = pn};
    outs ref[SBX_SRC_COUNT];  /* each source's scalar outputs, kept for the twins (twin_of) */
    couts cref[SBX_SRC_COUNT]; /* the same for the contacts */
    for (int s = 0; s < SBX_SRC_COUNT; s++) {
        base.src = (sbx_src)s;
        const uint8_t *cls = sbx_src_is_one(base.src) ? v_one : sbx_src_is_quat(base.src) ? v_quat : v_mat;
        int twin = twin_of(s);
        outs_alloc(&ref[s], n);
        cur_path = "scalar";
        cur_what = sbx_src_label(base.src);
        run_pairs(&sbx_path_scalar, &base, margin, &ref[s]);
        check_ref(&ref[s], cls, n, margin);
        char twin_path[64];
        snprintf(twin_path, sizeof twin_path, "scalar against the %s source", twin >= 0 ? sbx_src_label((sbx_src)twin) : "-");
        if (twin >= 0) {
            cur_path = twin_path;
            compare_outs(&ref[twin], &ref[s], n);
        }
        for (int p = 0; p < npaths; p++) {
            outs got;
            outs_alloc(&got, n);
            cur_path = paths[p].name;
            run_pairs(paths[p].path, &base, margin, &got);
            compare_outs(&ref[s], &got, n);
            outs_free(&got);
        }
        api_pairs(&base, margin, &ref[s]);
        if (sbx_src_has_contacts(base.src)) {
            contacts_source(&base, margin, &ref[s], cls, &cref[s]);
            if (twin >= 0 && sbx_src_has_contacts((sbx_src)twin)) {
                cur_path = twin_path;
                compare_couts(&cref[twin], &cref[s], n, 1);
            }
        }
    }
    for (int s = 0; s < SBX_SRC_COUNT; s++) {
        outs_free(&ref[s]);
        if (sbx_src_has_contacts((sbx_src)s))
            couts_free(&cref[s]);
    }

    /* AABBs and quaternion axes of the A side. */
    {
        float bm = fabsf(margin);
        bouts ref;
        cur_path = "scalar";
        cur_what = "aabb";
        run_boxes(&sbx_path_scalar, &ma.view, &qa.view, n, bm, &ref);
        ptrdiff_t valid = 0;
        for (size_t i = 0; i < n; i++) {
            size_t ia = pairs[i].a;
            valid += valid_m[ia];
            if (!valid_m[ia])
                for (int c = 0; c < 3; c++)
                    if (!(ref.min[c][i] == INFINITY && ref.max[c][i] == -INFINITY))
                        fail("box %zu invalid but aabb [%a, %a]", i, (double)ref.min[c][i], (double)ref.max[c][i]);
        }
        if (valid != ref.count)
            fail("aabb counted %td valid boxes, %td are", ref.count, valid);
        for (int p = 0; p < npaths; p++) {
            bouts got;
            cur_path = paths[p].name;
            run_boxes(paths[p].path, &ma.view, &qa.view, n, bm, &got);
            compare_bouts(&ref, &got, n);
            bouts_free(&got);
        }
        bouts_free(&ref);
    }

    tb_soa_free(&pool);
    tb_soa_free(&ma);
    tb_soa_free(&mb);
    tb_qsoa_free(&qa);
    tb_qsoa_free(&qb);
    free(pairs);
    free(rec);
    free(qrec);
    free(one);
    free(v_mat);
    free(v_quat);
    free(v_one);
    return 0;
}

/* test_tails.c - every public entry point on every ISA path, every array sized exactly, guarded and off alignment. */
/* SPDX-License-Identifier: MIT */
/* Built in every build; it earns its keep under AddressSanitizer (tests/run stage asan) and
 * valgrind (stage valgrind), and checks what it can without them:
 *  - each input array is its own malloc that ends right after element n - 1 and starts 4 bytes
 *    (or 12, 20, 28) past malloc's alignment, so a kernel whose tail reads element n or beyond
 *    reads past the block (ASan, valgrind), and no input sits on a vector boundary;
 *  - each output array starts off every vector alignment (bytes at odd addresses, floats at
 *    4 + 8k bytes) and is followed by GUARD guard bytes, poisoned for ASan and valgrind (any read
 *    or write of them is reported) and checked to be intact after every run;
 *  - n = 0..4W+1 for the widest width W = 16 (every tail of 4, 8 and 16 lanes, several full
 *    steps before it), 1000, 1001;
 *  - every path's outputs equal the scalar path's bit for bit, and the return codes match.
 * The entry points: overlap, collide, their _q, _one, _pairs, _pairs_rec forms, the contacts
 * forms (satbox_contacts, _q, _pairs, _pairs_rec, with every output and with some left NULL),
 * aabb, aabb_q, axes_from_quat, pack, pack_rec, validate. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts_util.h"
#include "satbox/satbox.h"
#include "support.h"
#include "views.h"

#if defined(SATBOX_HAVE_VALGRIND_H)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define NOACCESS(p, n) VALGRIND_MAKE_MEM_NOACCESS(p, n)
#define ACCESS(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define NOACCESS(p, n) ((void)(p), (void)(n))
#define ACCESS(p, n) ((void)(p), (void)(n))
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(TT_ASAN)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) (ASAN_POISON_MEMORY_REGION(p, n), NOACCESS(p, n))
#define UNPOISON(p, n) (ASAN_UNPOISON_MEMORY_REGION(p, n), ACCESS(p, n))
#else
#define POISON(p, n) NOACCESS(p, n)
#define UNPOISON(p, n) ACCESS(p, n)
#endif

static int failures = 0;

#include "check.h"

/* Every output array of one run over one n, in call order, so that run k's slot j is comparable
 * with the scalar run's slot j. Return codes are recorded in the same way. */
#define MAX_SLOTS 256
#define MAX_RC 48
#define GUARD 64          /* bytes after every output: 16 lanes of 4 bytes */
#define GUARD_BYTE 0xE7
#define FILL_BYTE 0x5C
typedef struct run_out {
    void *slot[MAX_SLOTS];
    unsigned char *raw[MAX_SLOTS];
    size_t bytes[MAX_SLOTS];
    int call[MAX_SLOTS]; /* the index of the call (in rc) that writes the slot */
    int nslot;
    ptrdiff_t rc[MAX_RC];
    int nrc;
} run_out;

/* Where an array of elements of `align` bytes starts past a malloc'ed (>= 16-aligned) block:
 * an odd multiple of `align` (1, 3, 5 or 7 of them), never a multiple of 2 * align, so never on
 * a vector boundary, always on the element's own alignment (a float at an odd address is
 * undefined behaviour, which UBSan reports). */
static size_t misalign(int k, size_t align) { return align * (1 + 2 * (size_t)(k % 4)); }

/* An output array of exactly `bytes` (elements of `align` bytes), off alignment, pre-filled with
 * a pattern so that unwritten bytes compare equal between runs only if every run leaves them
 * alone, and followed by GUARD guard bytes that reach the end of the block. */
static void *slot_a(run_out *o, size_t bytes, size_t align)
{
    if (o->nslot >= MAX_SLOTS) {
        fprintf(stderr, "too many slots\n");
        exit(2);
    }
    size_t mis = misalign(o->nslot, align);
    unsigned char *raw = (unsigned char *)tb_xmalloc(mis + bytes + GUARD), *p = raw + mis;
    memset(p, FILL_BYTE, bytes);
    memset(p + bytes, GUARD_BYTE, GUARD);
    POISON(p + bytes, GUARD);
    o->raw[o->nslot] = raw;
    o->slot[o->nslot] = p;
    o->bytes[o->nslot] = bytes;
    o->call[o->nslot] = o->nrc;
    o->nslot++;
    return p;
}

static void *slot(run_out *o, size_t bytes) { return slot_a(o, bytes, 4); }
static uint8_t *slot_u8(run_out *o, size_t n) { return (uint8_t *)slot_a(o, n, 1); }

static void rc(run_out *o, ptrdiff_t v)
{
    if (o->nrc < MAX_RC)
        o->rc[o->nrc++] = v;
    else {
        fprintf(stderr, "too many calls\n");
        exit(2);
    }
}

/* Checks (and unpoisons) the guard bytes behind every output array of a run. */
static void check_guards(run_out *o, size_t n, const char *path)
{
    for (int i = 0; i < o->nslot; i++) {
        unsigned char *g = (unsigned char *)o->slot[i] + o->bytes[i];
        UNPOISON(g, GUARD);
        int ok = 1;
        for (int k = 0; k < GUARD; k++)
            ok &= g[k] == GUARD_BYTE;
        CHECK(ok, "n=%zu %s: guard bytes after output %d (call %d) overwritten", n, path, i, o->call[i]);
    }
}

static void run_free(run_out *o)
{
    for (int i = 0; i < o->nslot; i++) {
        UNPOISON((unsigned char *)o->slot[i] + o->bytes[i], GUARD); /* idempotent after check_guards */
        free(o->raw[i]);
    }
    memset(o, 0, sizeof *o);
}

/* An input array of exactly `bytes`, starting `misalign` bytes into its block and ending at the
 * block's end. The raw pointer is kept for free(). */
typedef struct in_blocks {
    void *raw[128];
    int n;
} in_blocks;

static void *in_alloc(in_blocks *b, size_t bytes, size_t align)
{
    size_t mis = misalign(b->n, align);
    unsigned char *raw = (unsigned char *)malloc(mis + bytes);
    if (!raw || b->n >= 128) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    b->raw[b->n++] = raw;
    return raw + mis;
}

/* Inputs of one n: two matrix batches, two quaternion batches, a pool of n boxes with n pairs,
 * n box structs, one box; each array its own allocation of exactly n elements. */
typedef struct inputs {
    size_t n;
    float *a[15], *b[15], *pool[15], *qa[10], *qb[10];
    satbox_pair *pairs;
    satbox_rec *rec; /* the pool again as 64-byte records (pad = NaN: never read) */
    satbox_box *structs;
    satbox_box *one;
    satbox_boxes ma, mb, mpool;
    satbox_qboxes qva, qvb;
    in_blocks blk;
} inputs;

static void put(float *const f[15], size_t i, const satbox_box *b)
{
    const float *src = (const float *)b; /* center, half, axis: 15 floats in field order */
    for (int q = 0; q < 15; q++)
        f[q][i] = src[q];
}

static void random_quat(tb_rng *r, float q[4])
{
    for (int c = 0; c < 4; c++)
        q[c] = (float)tb_normal(r);
    switch (tb_next(r) % 16) {
    case 0: q[0] = q[1] = q[2] = q[3] = 0.0f; break;
    case 1: q[tb_next(r) % 4] = NAN; break;
    case 2: q[3] = -INFINITY; break;
    default: break;
    }
}

static void inputs_make(inputs *in, size_t n, tb_rng *r)
{
    memset(in, 0, sizeof *in);
    in->n = n;
    for (int q = 0; q < 15; q++) {
        in->a[q] = (float *)in_alloc(&in->blk, n * sizeof(float), 4);
        in->b[q] = (float *)in_alloc(&in->blk, n * sizeof(float), 4);
        in->pool[q] = (float *)in_alloc(&in->blk, n * sizeof(float), 4);
    }
    for (int q = 0; q < 10; q++) {
        in->qa[q] = (float *)in_alloc(&in->blk, n * sizeof(float), 4);
        in->qb[q] = (float *)in_alloc(&in->blk, n * sizeof(float), 4);
    }
    in->pairs = (satbox_pair *)in_alloc(&in->blk, n * sizeof(satbox_pair), 4);
    in->rec = (satbox_rec *)in_alloc(&in->blk, n * sizeof(satbox_rec), 4);
    in->structs = (satbox_box *)in_alloc(&in->blk, n * sizeof(satbox_box), 4);
    in->one = (satbox_box *)in_alloc(&in->blk, sizeof(satbox_box), 4);
    in->ma = tb_boxes_of(in->a, 0);
    in->mb = tb_boxes_of(in->b, 0);
    in->mpool = tb_boxes_of(in->pool, 0);
    in->qva = tb_qboxes_of(in->qa, 0);
    in->qvb = tb_qboxes_of(in->qb, 0);

    satbox_box a0, b0;
    tb_make_pair(r, TB_UNIFORM, &a0, &b0);
    *in->one = a0;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(r, (tb_family)(i % TB_FAMILY_COUNT), &a, &b);
        put(in->a, i, &a);
        put(in->b, i, &b);
        put(in->pool, i, (i & 1) ? &b : &a);
        const satbox_box *p = (i & 1) ? &b : &a;
        memcpy(in->rec[i].center, p->center, sizeof p->center);
        memcpy(in->rec[i].half, p->half, sizeof p->half);
        memcpy(in->rec[i].axis, p->axis, sizeof p->axis);
        in->rec[i].pad = NAN;
        in->structs[i] = a;
        float qa[4], qb[4];
        random_quat(r, qa);
        random_quat(r, qb);
        for (int c = 0; c < 3; c++) {
            in->qa[c][i] = a.center[c];
            in->qa[3 + c][i] = a.half[c];
            in->qb[c][i] = b.center[c];
            in->qb[3 + c][i] = b.half[c];
        }
        for (int c = 0; c < 4; c++) {
            in->qa[6 + c][i] = qa[c];
            in->qb[6 + c][i] = qb[c];
        }
        /* Indices anywhere in the pool of n boxes; the last pair uses the last box. */
        in->pairs[i].a = (uint32_t)(tb_next(r) % n);
        in->pairs[i].b = i + 1 == n ? (uint32_t)(n - 1) : (uint32_t)(tb_next(r) % n);
    }
}

static void inputs_free(inputs *in)
{
    for (int k = 0; k < in->blk.n; k++)
        free(in->blk.raw[k]);
    memset(in, 0, sizeof *in);
}

/* A satbox_result whose every array (bad included: every collide output of SBX_OUTPUTS) is a
 * fresh slot of exactly n elements. */
static satbox_result result_slots(run_out *o, size_t n)
{
    satbox_result res;
#define RESULT_SLOT(name, type, rows, vec, ov, co, ct, flagged)                        \
    SBX_WHEN_##co(for (size_t k = 0; k < SBX_OUT_ARRAYS(&res, name, type); k++)        \
                      SBX_OUT_AT(&res, name, type, k) = (type *)slot_a(o, n * sizeof(type), sizeof(type));)
    SBX_OUTPUTS(RESULT_SLOT)
#undef RESULT_SLOT
    return res;
}

/* The record pool's call (return code rc_rec, outputs from slot s_rec) gives the SoA pool's bits. */
static void same_as_pool(const run_out *o, size_t n, const char *what, int rc_rec, int rc_pool, int s_rec, int s_pool,
                         int nout)
{
    CHECK(o->rc[rc_rec] == o->rc[rc_pool], "n=%zu: %s returned %td, the SoA pool %td", n, what, o->rc[rc_rec],
          o->rc[rc_pool]);
    for (int k = 0; k < nout; k++)
        CHECK(memcmp(o->slot[s_rec + k], o->slot[s_pool + k], o->bytes[s_rec + k]) == 0,
              "n=%zu: %s output %d differs from the SoA pool's", n, what, k);
}

/* A satbox_contacts_out whose arrays (TC_NARRAYS) are fresh slots of exactly n pairs. */
static satbox_contacts_out contacts_slots(run_out *o, size_t n)
{
    void *p[TC_NARRAYS];
    for (int q = 0; q < TC_NARRAYS; q++)
        p[q] = slot_a(o, n * tc_elem(q), tc_elem(q));
    return tc_arrays_view(p);
}

/* The contacts entry points: every output, some outputs, only the list; the record pool must
 * give the SoA pool's bits, and every pair the documented shape. */
static void run_contacts(const inputs *in, run_out *o)
{
    size_t n = in->n;
    const float margin = 0.03125f;
    satbox_contacts_out all = contacts_slots(o, n);
    rc(o, satbox_contacts(&in->ma, &in->mb, n, margin, &all));
    for (size_t i = 0; i < n; i++) {
        const char *e = tc_shape_error(&all, i);
        CHECK(!e, "n=%zu satbox_contacts pair %zu: %s", n, i, e);
    }
    satbox_contacts_out some;
    memset(&some, 0, sizeof some);
    some.count = slot_u8(o, n);
    some.bad = slot_u8(o, n);
    some.normal[1] = (float *)slot(o, n * sizeof(float));
    some.point[3][2] = (float *)slot(o, n * sizeof(float));
    some.depth[0] = (float *)slot(o, n * sizeof(float));
    some.feature[1] = (uint32_t *)slot(o, n * sizeof(uint32_t));
    rc(o, satbox_contacts(&in->ma, &in->mb, n, 0.0f, &some));
    satbox_contacts_out q = contacts_slots(o, n);
    rc(o, satbox_contacts_q(&in->qva, &in->qvb, n, margin, &q));

    int s_pool = o->nslot, rc_pool = o->nrc;
    satbox_contacts_out pool = contacts_slots(o, n);
    rc(o, satbox_contacts_pairs(&in->mpool, n, in->pairs, n, margin, &pool, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    int s_rec = o->nslot, rc_rec = o->nrc;
    satbox_contacts_out rec = contacts_slots(o, n);
    rc(o, satbox_contacts_pairs_rec(in->rec, n, in->pairs, n, margin, &rec, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    same_as_pool(o, n, "satbox_contacts_pairs_rec", rc_rec, rc_pool, s_rec, s_pool, TC_NARRAYS + 1);
    satbox_contacts_out none;
    memset(&none, 0, sizeof none);
    rc(o, satbox_contacts_pairs(&in->mpool, n, in->pairs, n, -margin, &none, (uint32_t *)slot(o, n * sizeof(uint32_t))));
}

/* Calls every public entry point once (some twice, with optional outputs left out), and checks
 * that the record pool gives the SoA pool's bits. */
static void run_all(const inputs *in, run_out *o)
{
    size_t n = in->n;
    const float margin = 0.03125f;

    rc(o, satbox_overlap(&in->ma, &in->mb, n, slot_u8(o, n), slot_u8(o, n)));
    satbox_result r1 = result_slots(o, n);
    rc(o, satbox_collide(&in->ma, &in->mb, n, margin, &r1));
    satbox_result r2 = {slot_u8(o, n), NULL, {NULL, NULL, NULL}, NULL, NULL}; /* hit only */
    rc(o, satbox_collide(&in->ma, &in->mb, n, 0.0f, &r2));
    satbox_result r3 = {NULL,
                        (float *)slot(o, n * sizeof(float)),
                        {(float *)slot(o, n * sizeof(float)), NULL, NULL},
                        NULL, NULL}; /* no hit */
    rc(o, satbox_collide(&in->ma, &in->mb, n, -margin, &r3));

    rc(o, satbox_overlap_q(&in->qva, &in->qvb, n, slot_u8(o, n), slot_u8(o, n)));
    satbox_result r4 = result_slots(o, n);
    rc(o, satbox_collide_q(&in->qva, &in->qvb, n, margin, &r4));

    rc(o, satbox_overlap_one(in->one, &in->mb, n, slot_u8(o, n), slot_u8(o, n)));
    satbox_result r5 = result_slots(o, n);
    rc(o, satbox_collide_one(in->one, &in->mb, n, margin, &r5));

    int s_pool = o->nslot, rc_pool = o->nrc;
    rc(o, satbox_overlap_pairs(&in->mpool, n, in->pairs, n, slot_u8(o, n),
                               (uint32_t *)slot(o, n * sizeof(uint32_t)), slot_u8(o, n)));
    int s_pool_c = o->nslot, rc_pool_c = o->nrc;
    satbox_result r6 = result_slots(o, n);
    rc(o, satbox_collide_pairs(&in->mpool, n, in->pairs, n, margin, &r6, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    rc(o, satbox_overlap_pairs(&in->mpool, n, in->pairs, n, NULL, (uint32_t *)slot(o, n * sizeof(uint32_t)), NULL));
    rc(o, satbox_collide_pairs(&in->mpool, n, in->pairs, n, margin, NULL, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    /* The same pool as records: the same bits as the SoA pool (3 + 8 outputs). */
    int s_rec = o->nslot, rc_rec = o->nrc;
    rc(o, satbox_overlap_pairs_rec(in->rec, n, in->pairs, n, slot_u8(o, n),
                                   (uint32_t *)slot(o, n * sizeof(uint32_t)), slot_u8(o, n)));
    int s_rec_c = o->nslot, rc_rec_c = o->nrc;
    satbox_result r7 = result_slots(o, n);
    rc(o, satbox_collide_pairs_rec(in->rec, n, in->pairs, n, margin, &r7, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    same_as_pool(o, n, "satbox_overlap_pairs_rec", rc_rec, rc_pool, s_rec, s_pool, 3);
    same_as_pool(o, n, "satbox_collide_pairs_rec", rc_rec_c, rc_pool_c, s_rec_c, s_pool_c, 8);

    float *mn[3], *mx[3];
    for (int c = 0; c < 3; c++) {
        mn[c] = (float *)slot(o, n * sizeof(float));
        mx[c] = (float *)slot(o, n * sizeof(float));
    }
    rc(o, satbox_aabb(&in->ma, n, margin, mn, mx));
    for (int c = 0; c < 3; c++) {
        mn[c] = (float *)slot(o, n * sizeof(float));
        mx[c] = (float *)slot(o, n * sizeof(float));
    }
    rc(o, satbox_aabb_q(&in->qva, n, margin, mn, mx));

    float *ax[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            ax[k][c] = (float *)slot(o, n * sizeof(float));
    rc(o, satbox_axes_from_quat(in->qva.quat, n, ax));

    satbox_boxes_out dst;
    for (int c = 0; c < 3; c++) {
        dst.center[c] = (float *)slot(o, n * sizeof(float));
        dst.half[c] = (float *)slot(o, n * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            dst.axis[k][c] = (float *)slot(o, n * sizeof(float));
    rc(o, satbox_pack(in->structs, n, &dst));
    rc(o, satbox_pack_rec(&in->mpool, n, (satbox_rec *)slot(o, n * sizeof(satbox_rec))));

    rc(o, satbox_validate(&in->ma, n, 1e-4f, slot_u8(o, n)));
    rc(o, satbox_validate(&in->mb, n, 1e-4f, NULL));
    run_contacts(in, o);
}

int main(void)
{
    unsigned sup = satbox_isa_supported();
    satbox_isa initial = satbox_isa_active();
    printf("test_tails: active path %s, supported:", satbox_isa_name(initial));
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if (sup >> i & 1u)
            printf(" %s", satbox_isa_name((satbox_isa)i));
    printf("\n");
#if defined(SATBOX_HAVE_VALGRIND_H)
    /* valgrind 3.19 cannot execute AVX-512: the dispatcher must have stepped down to AVX2. */
    if (RUNNING_ON_VALGRIND) {
        printf("running under valgrind\n");
        CHECK(!(sup >> SATBOX_ISA_AVX512 & 1u), "AVX-512 offered under valgrind");
        CHECK(initial != SATBOX_ISA_AVX512, "AVX-512 active under valgrind");
    }
#endif

    /* 0..4W+1 for the widest width W = 16 (the contacts face queue holds up to 2W lanes), sizes
     * around 128 and 256, then two long batches */
    enum { WIDEST = 16, TOP = 4 * WIDEST + 1, NBIG = 6 };
    static const size_t big[NBIG] = {127, 128, 129, 257, 1000, 1001};
    size_t sizes[TOP + 1 + NBIG];
    size_t nsizes = 0;
    for (size_t n = 0; n <= TOP; n++)
        sizes[nsizes++] = n;
    for (size_t i = 0; i < NBIG; i++)
        sizes[nsizes++] = big[i];

    tb_rng r;
    tb_seed(&r, 0x7A115ull);
    int runs = 0;
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        inputs in;
        inputs_make(&in, n, &r);
        run_out ref;
        memset(&ref, 0, sizeof ref);
        CHECK(satbox_isa_force(SATBOX_ISA_SCALAR) == SATBOX_OK, "cannot force scalar");
        run_all(&in, &ref);
        check_guards(&ref, n, "scalar");
        for (int i = 0; i < ref.nrc; i++)
            CHECK(ref.rc[i] >= 0, "n=%zu scalar: call %d returned %td (%s)", n, i, ref.rc[i],
                  satbox_strerror((int)ref.rc[i]));
        for (int isa = 1; isa < SATBOX_ISA_COUNT; isa++) {
            if (!(sup >> isa & 1u))
                continue;
            CHECK(satbox_isa_force((satbox_isa)isa) == SATBOX_OK, "cannot force %s", satbox_isa_name((satbox_isa)isa));
            run_out got;
            memset(&got, 0, sizeof got);
            run_all(&in, &got);
            runs++;
            const char *name = satbox_isa_name((satbox_isa)isa);
            check_guards(&got, n, name);
            CHECK(got.nrc == ref.nrc && got.nslot == ref.nslot, "n=%zu %s: different call sequence", n, name);
            for (int i = 0; i < got.nrc && i < ref.nrc; i++)
                CHECK(got.rc[i] == ref.rc[i], "n=%zu %s: call %d returned %td, scalar %td", n, name, i, got.rc[i],
                      ref.rc[i]);
            for (int i = 0; i < got.nslot && i < ref.nslot; i++)
                CHECK(got.bytes[i] == 0 || memcmp(got.slot[i], ref.slot[i], got.bytes[i]) == 0,
                      "n=%zu %s: output %d (call %d) differs from scalar", n, name, i, got.call[i]);
            run_free(&got);
        }
        run_free(&ref);
        inputs_free(&in);
    }
    satbox_isa_force(initial);
    printf("%d sizes x %d SIMD runs: %d failures\n", (int)nsizes, runs / (int)nsizes, failures);
    return failures ? 1 : 0;
}

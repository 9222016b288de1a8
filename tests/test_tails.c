/* test_tails.c - every public entry point on every ISA path with every array allocated to exactly n elements. */
/* Built in every build; it earns its keep under AddressSanitizer (tests/run stage asan) and
 * valgrind (stage valgrind): each input and output array is its own malloc of exactly n
 * elements (n = 0..40, 1000, 1001), so a kernel whose tail reads or writes element n or beyond
 * hits a redzone / unaddressable byte and the run fails. Every path's outputs are also compared
 * with the scalar path's, bit for bit, and the return codes must match. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox.h"
#include "support.h"

#if defined(SATBOX_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#endif

static int failures = 0;

#include "check.h"

/* Every output array of one run over one n, in call order, so that run k's slot j is comparable
 * with the scalar run's slot j. Return codes are recorded in the same way. */
#define MAX_SLOTS 96
#define MAX_RC 32
typedef struct run_out {
    void *slot[MAX_SLOTS];
    size_t bytes[MAX_SLOTS];
    int nslot;
    ptrdiff_t rc[MAX_RC];
    int nrc;
} run_out;

static void *xmalloc(size_t bytes)
{
    /* malloc(0) may return NULL; the entry points return before touching arrays when n == 0. */
    void *p = malloc(bytes);
    if (!p && bytes) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* An output array of exactly `bytes`, pre-filled with a pattern so that unwritten bytes compare
 * equal between runs only if every run leaves them alone. */
static void *slot(run_out *o, size_t bytes)
{
    if (o->nslot >= MAX_SLOTS) {
        fprintf(stderr, "too many slots\n");
        exit(2);
    }
    void *p = xmalloc(bytes);
    if (p)
        memset(p, 0x5C, bytes);
    o->slot[o->nslot] = p;
    o->bytes[o->nslot] = bytes;
    o->nslot++;
    return p;
}

static void rc(run_out *o, ptrdiff_t v)
{
    if (o->nrc < MAX_RC)
        o->rc[o->nrc++] = v;
}

static void run_free(run_out *o)
{
    for (int i = 0; i < o->nslot; i++)
        free(o->slot[i]);
    memset(o, 0, sizeof *o);
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
} inputs;

static void view(float *const f[15], satbox_boxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = f[c];
        v->half[c] = f[3 + c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            v->axis[k][c] = f[6 + 3 * k + c];
}

static void qview(float *const f[10], satbox_qboxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = f[c];
        v->half[c] = f[3 + c];
    }
    for (int c = 0; c < 4; c++)
        v->quat[c] = f[6 + c];
}

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
        in->a[q] = (float *)xmalloc(n * sizeof(float));
        in->b[q] = (float *)xmalloc(n * sizeof(float));
        in->pool[q] = (float *)xmalloc(n * sizeof(float));
    }
    for (int q = 0; q < 10; q++) {
        in->qa[q] = (float *)xmalloc(n * sizeof(float));
        in->qb[q] = (float *)xmalloc(n * sizeof(float));
    }
    in->pairs = (satbox_pair *)xmalloc(n * sizeof(satbox_pair));
    in->rec = (satbox_rec *)xmalloc(n * sizeof(satbox_rec));
    in->structs = (satbox_box *)xmalloc(n * sizeof(satbox_box));
    in->one = (satbox_box *)xmalloc(sizeof(satbox_box));
    view(in->a, &in->ma);
    view(in->b, &in->mb);
    view(in->pool, &in->mpool);
    qview(in->qa, &in->qva);
    qview(in->qb, &in->qvb);

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
    for (int q = 0; q < 15; q++) {
        free(in->a[q]);
        free(in->b[q]);
        free(in->pool[q]);
    }
    for (int q = 0; q < 10; q++) {
        free(in->qa[q]);
        free(in->qb[q]);
    }
    free(in->pairs);
    free(in->rec);
    free(in->structs);
    free(in->one);
    memset(in, 0, sizeof *in);
}

/* A satbox_result whose every array (bad included) is a fresh slot of exactly n elements. */
static satbox_result result_slots(run_out *o, size_t n)
{
    satbox_result res;
    res.hit = (uint8_t *)slot(o, n);
    res.separation = (float *)slot(o, n * sizeof(float));
    for (int c = 0; c < 3; c++)
        res.normal[c] = (float *)slot(o, n * sizeof(float));
    res.axis = (uint8_t *)slot(o, n);
    res.bad = (uint8_t *)slot(o, n);
    return res;
}

/* Calls every public entry point once (some twice, with optional outputs left out), and checks
 * that the record pool gives the SoA pool's bits. */
static void run_all(const inputs *in, run_out *o)
{
    size_t n = in->n;
    const float margin = 0.03125f;

    rc(o, satbox_overlap(&in->ma, &in->mb, n, (uint8_t *)slot(o, n), (uint8_t *)slot(o, n)));
    satbox_result r1 = result_slots(o, n);
    rc(o, satbox_collide(&in->ma, &in->mb, n, margin, &r1));
    satbox_result r2 = {(uint8_t *)slot(o, n), NULL, {NULL, NULL, NULL}, NULL, NULL}; /* hit only */
    rc(o, satbox_collide(&in->ma, &in->mb, n, 0.0f, &r2));
    satbox_result r3 = {NULL,
                        (float *)slot(o, n * sizeof(float)),
                        {(float *)slot(o, n * sizeof(float)), NULL, NULL},
                        NULL, NULL}; /* no hit */
    rc(o, satbox_collide(&in->ma, &in->mb, n, -margin, &r3));

    rc(o, satbox_overlap_q(&in->qva, &in->qvb, n, (uint8_t *)slot(o, n), (uint8_t *)slot(o, n)));
    satbox_result r4 = result_slots(o, n);
    rc(o, satbox_collide_q(&in->qva, &in->qvb, n, margin, &r4));

    rc(o, satbox_overlap_one(in->one, &in->mb, n, (uint8_t *)slot(o, n), (uint8_t *)slot(o, n)));
    satbox_result r5 = result_slots(o, n);
    rc(o, satbox_collide_one(in->one, &in->mb, n, margin, &r5));

    int s_pool = o->nslot, rc_pool = o->nrc;
    rc(o, satbox_overlap_pairs(&in->mpool, n, in->pairs, n, (uint8_t *)slot(o, n),
                               (uint32_t *)slot(o, n * sizeof(uint32_t)), (uint8_t *)slot(o, n)));
    int s_pool_c = o->nslot, rc_pool_c = o->nrc;
    satbox_result r6 = result_slots(o, n);
    rc(o, satbox_collide_pairs(&in->mpool, n, in->pairs, n, margin, &r6, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    rc(o, satbox_overlap_pairs(&in->mpool, n, in->pairs, n, NULL, (uint32_t *)slot(o, n * sizeof(uint32_t)), NULL));
    rc(o, satbox_collide_pairs(&in->mpool, n, in->pairs, n, margin, NULL, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    /* The same pool as records: the same bits as the SoA pool (3 + 8 outputs). */
    int s_rec = o->nslot, rc_rec = o->nrc;
    rc(o, satbox_overlap_pairs_rec(in->rec, n, in->pairs, n, (uint8_t *)slot(o, n),
                                   (uint32_t *)slot(o, n * sizeof(uint32_t)), (uint8_t *)slot(o, n)));
    int s_rec_c = o->nslot, rc_rec_c = o->nrc;
    satbox_result r7 = result_slots(o, n);
    rc(o, satbox_collide_pairs_rec(in->rec, n, in->pairs, n, margin, &r7, (uint32_t *)slot(o, n * sizeof(uint32_t))));
    CHECK(o->rc[rc_rec] == o->rc[rc_pool] && o->rc[rc_rec_c] == o->rc[rc_pool_c],
          "n=%zu: record pool returned %td/%td, SoA pool %td/%td", n, o->rc[rc_rec], o->rc[rc_rec_c], o->rc[rc_pool],
          o->rc[rc_pool_c]);
    for (int k = 0; k < 3; k++)
        CHECK(n == 0 || memcmp(o->slot[s_rec + k], o->slot[s_pool + k], o->bytes[s_rec + k]) == 0,
              "n=%zu: satbox_overlap_pairs_rec output %d differs from the SoA pool's", n, k);
    for (int k = 0; k < 8; k++)
        CHECK(n == 0 || memcmp(o->slot[s_rec_c + k], o->slot[s_pool_c + k], o->bytes[s_rec_c + k]) == 0,
              "n=%zu: satbox_collide_pairs_rec output %d differs from the SoA pool's", n, k);

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

    rc(o, satbox_validate(&in->ma, n, 1e-4f, (uint8_t *)slot(o, n)));
    rc(o, satbox_validate(&in->mb, n, 1e-4f, NULL));
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

    static const size_t big[] = {1000, 1001};
    size_t sizes[41 + 2];
    size_t nsizes = 0;
    for (size_t n = 0; n <= 40; n++)
        sizes[nsizes++] = n;
    for (size_t i = 0; i < 2; i++)
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
            CHECK(got.nrc == ref.nrc && got.nslot == ref.nslot, "n=%zu %s: different call sequence", n, name);
            for (int i = 0; i < got.nrc && i < ref.nrc; i++)
                CHECK(got.rc[i] == ref.rc[i], "n=%zu %s: call %d returned %td, scalar %td", n, name, i, got.rc[i],
                      ref.rc[i]);
            for (int i = 0; i < got.nslot && i < ref.nslot; i++)
                CHECK(got.bytes[i] == 0 || memcmp(got.slot[i], ref.slot[i], got.bytes[i]) == 0,
                      "n=%zu %s: output %d differs from scalar", n, name, i);
            run_free(&got);
        }
        run_free(&ref);
        inputs_free(&in);
    }
    satbox_isa_force(initial);
    printf("%d sizes x %d SIMD runs: %d failures\n", (int)nsizes, runs / (int)nsizes, failures);
    return failures ? 1 : 0;
}

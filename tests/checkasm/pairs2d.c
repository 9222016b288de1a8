/* pairs2d.c - the checker's 2D area: overlap, collide, the compacted list and the contact manifolds. */
/* SPDX-License-Identifier: MIT */
/* Random pairs of every family of support2d.h (bad data and garbage in unused vertex slots
 * included) through every source of SBX_SOURCES2D (the prepared ones: the polygon pool prepared by
 * satbox2d_poly_prepare(), and as bodies with random transforms, a few of them bad), margins 0, 0.05, -0.05 by turns; every other
 * chunk has polygons of one vertex count (steps whose lanes all stop early). Per batch: collide
 * (hit, bad, separation, normal, axis), overlap (hit, bad) and the manifold records (all 48 bytes,
 * guard bytes after them); over the whole chunk: overlap with no `bad` output (the same hit
 * bytes), the compacted list. overlap == collide(margin 0).hit on every path; the reference's
 * records against its own collide outputs (separation, bad, normal and axis unless the hysteresis
 * kept A's face, count > 0 only on a hit); at the end the argument checks of the contacts entry
 * points (NULL, index, margin, records over an input: an error, nothing written). The reference
 * hash covers the collide and overlap outputs (not the records), chunk by chunk, source by source. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poly2d/contacts2d.h"
#include "sat.h"
#include "scale.h"
#include "support2d.h"

#define CHUNK 4096
#define NV SATBOX2D_MAX_VERTS

/* Inputs of one chunk: rectangles and polygons as A/B batches and as pools of 2n with pairs. */
typedef struct chunk2d {
    size_t n;
    gbuf ra[6], rb[6], rpool[6];                            /* center x y, half x y, axis x y */
    gbuf pa[2 * NV + 1], pb[2 * NV + 1], ppool[2 * NV + 1]; /* x[0..7], y[0..7], count */
    gbuf pairs;
    tb_poly *pool_polys;   /* the polygon pool as drawn (2n), for the bodies */
    tb2_prepared prep;     /* the polygon pool prepared (SBX2D_PREP_POOL) */
    tb2_bodies bodies;     /* the polygon pool as bodies: local shapes + transforms (SBX2D_BODY_POOL) */
} chunk2d;

/* The outputs of one run: collide's and overlap's (sat.h), and the manifold records. */
typedef struct outs2d {
    sat_outs sat;
    gbuf nobad;    /* overlap's hit over the whole chunk with bad == NULL */
    gbuf manifold; /* the records of satbox2d_*contacts */
    ptrdiff_t mcount;
} outs2d;

/* The list's layout: collide's and overlap's outputs (SAT_OUTS, the compacted list the last), then
 * the two below. */
enum { SAT_OUTS = SAT_OUTS_2D, AT_NOBAD = SAT_OUTS, AT_MANIFOLD, NOUT };

typedef struct state2d {
    chunk2d ch;
    outs2d out[2]; /* [1] the reference's, [0] a path's */
    sbx_src2d src;
    float margin;
    uint64_t hits[SBX2D_COUNT], bad[SBX2D_COUNT], with_points[SBX2D_COUNT], two_points[SBX2D_COUNT],
        kept_a[SBX2D_COUNT];
} state2d;

/* The outputs of out[ref] as the driver's list, in the order of the reports and the hash. */
static int outputs(void *p, int ref, ca_out *l)
{
    outs2d *o = &((state2d *)p)->out[ref];
    int n = sat_list(&o->sat, 2, l);
    l[n++] = (ca_out){"overlap hit without bad", &o->nobad, 1};
    l[n++] = (ca_out){"manifold", &o->manifold, sizeof(satbox2d_manifold)};
    return n;
}

static void *open_area(size_t n)
{
    state2d *st = calloc(1, sizeof *st);
    chunk2d *ch = &st->ch;
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
    ch->pool_polys = calloc(2 * n + 1, sizeof(tb_poly));
    return st;
}

static void close_area(void *p)
{
    state2d *st = p;
    chunk2d *ch = &st->ch;
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
    free(ch->pool_polys);
    tb2_prepared_free(&ch->prep);
    tb2_bodies_free(&ch->bodies);
    free(st);
}

static void poly_view(gbuf *f, size_t i0, satbox2d_polys *v);

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

/* Odd chunks: every polygon of the chunk gets the same count (3..8 by turns); even ones mix them. */
static void fill(void *p, tb_rng *r, uint64_t chunk)
{
    state2d *st = p;
    chunk2d *ch = &st->ch;
    int count = chunk % 2 ? 3 + (int)(chunk / 2 % 6) : 0;
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
        ch->pool_polys[i] = pa;
        ch->pool_polys[n + i] = pb;
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
    /* The prepared forms of the pool: world polygons, and bodies (some transforms bad). */
    satbox2d_polys pv;
    poly_view(ch->ppool, 0, &pv);
    tb2_prepared_free(&ch->prep);
    tb2_bodies_free(&ch->bodies);
    if (tb2_prepared_make(&ch->prep, &pv, 2 * n) || tb2_bodies_make(&ch->bodies, r, ch->pool_polys, 2 * n, 1)) {
        printf("out of memory\n");
        exit(2);
    }
}

static int start(void *p, int src, uint64_t chunk, int turn)
{
    (void)turn;
    static const float margins[4] = {0.0f, 0.05f, -0.05f, 0.0f};
    state2d *st = p;
    st->src = (sbx_src2d)src;
    st->margin = margins[chunk % 4];
    return 1;
}

/* Descriptors of a chunk's arrays from element i0 on. */
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

/* The inputs of pairs [i0, i0 + len) (a pool from 0), every output NULL. */
static sbx_job2d job_for(state2d *st, size_t i0, size_t len, satbox2d_rects rv[2], satbox2d_polys pv[2])
{
    chunk2d *ch = &st->ch;
    int pool = sbx_src2d_is_pool(st->src);
    sbx_job2d j;
    memset(&j, 0, sizeof j);
    j.src = st->src;
    j.n = len;
    j.margin = st->margin;
    rect_view(pool ? ch->rpool : ch->ra, pool ? 0 : i0, &rv[0]);
    rect_view(ch->rb, i0, &rv[1]);
    poly_view(pool ? ch->ppool : ch->pa, pool ? 0 : i0, &pv[0]);
    poly_view(ch->pb, i0, &pv[1]);
    j.ra = &rv[0];
    j.rb = &rv[1];
    j.pa = &pv[0];
    j.pb = &pv[1];
    j.pairs = (const satbox_pair *)ch->pairs.p + i0;
    j.pp = ch->prep.rec;
    j.bodies = &ch->bodies.view;
    return j;
}

static void begin(void *p, int ref)
{
    state2d *st = p;
    st->out[ref].sat.count = st->out[ref].sat.ocount = st->out[ref].mcount = 0;
}

/* One batch: collide, overlap, and the manifold records. */
static void run(void *p, const sbx_path *k, int ref, size_t at, size_t len)
{
    state2d *st = p;
    sat_outs *o = &st->out[ref].sat;
    satbox2d_rects rv[2];
    satbox2d_polys pv[2];
    sbx_job2d jc = job_for(st, at, len, rv, pv), *job = &jc;
    SBX_OUTPUTS(SAT_BIND_COLLIDE)
    o->count += k->collide2d(&jc);
    sbx_job2d jo = job_for(st, at, len, rv, pv);
    job = &jo;
    SBX_OUTPUTS(SAT_BIND_OVERLAP)
    o->ocount += k->overlap2d(&jo);
    sbx_cjob2d cj;
    memset(&cj, 0, sizeof cj);
    cj.pair = job_for(st, at, len, rv, pv);
    cj.out = (satbox2d_manifold *)st->out[ref].manifold.p + at;
    st->out[ref].mcount += k->contacts2d(&cj);
}

/* The whole-chunk calls: overlap with no `bad` output (the hit bytes must be those above) and the
 * compacted list of a collide with no per-pair outputs. */
static void end(void *p, const sbx_path *k, int ref)
{
    state2d *st = p;
    outs2d *o = &st->out[ref];
    size_t n = st->ch.n;
    satbox2d_rects rv[2];
    satbox2d_polys pv[2];
    sbx_job2d jn = job_for(st, 0, n, rv, pv);
    jn.hit = (uint8_t *)o->nobad.p;
    ptrdiff_t cn = k->overlap2d(&jn);
    if (cn != o->sat.ocount || memcmp(o->nobad.p, o->sat.ohit.p, n) != 0 || !gb_guard_ok(&o->nobad))
        ca_fail("overlap with bad == NULL: hit bytes or count (%td, %td with bad) differ", cn, o->sat.ocount);
    sbx_job2d jl = job_for(st, 0, n, rv, pv);
    jl.compact = (uint32_t *)o->sat.compact.p;
    sat_check_run(&o->sat, n, st->margin, k->collide2d(&jl));
}

static void print_manifold(const char *who, const satbox2d_manifold *m)
{
    printf("  %s: count %u axis %u bad %u flags %u normal (%a, %a) separation %a\n", who, m->count, m->axis, m->bad,
           m->flags, (double)m->normal[0], (double)m->normal[1], (double)m->separation);
    for (int j = 0; j < 2; j++)
        printf("    point %d: (%a, %a) separation %a id 0x%x\n", j, (double)m->point[j].x, (double)m->point[j].y,
               (double)m->point[j].separation, m->point[j].id);
}

/* The reference's records against its own collide outputs (same margin). */
static void manifold_vs_collide(state2d *st)
{
    const sat_outs *o = &st->out[1].sat;
    const satbox2d_manifold *m = (const satbox2d_manifold *)st->out[1].manifold.p;
    unsigned faces = sbx_src2d_is_rects(st->src) ? 2 : SATBOX2D_MAX_VERTS; /* A's axes: 0 .. faces-1 */
    ptrdiff_t with = 0;
    for (size_t i = 0; i < st->ch.n; i++) {
        float sep = ((const float *)o->separation.p)[i], nx = ((const float *)o->normal[0].p)[i];
        float ny = ((const float *)o->normal[1].p)[i];
        uint8_t axis = ((const uint8_t *)o->axis.p)[i], hit = ((const uint8_t *)o->hit.p)[i];
        uint8_t bad = ((const uint8_t *)o->bad.p)[i];
        int kept_a = (m[i].flags & SATBOX2D_MANIFOLD_KEPT_A) != 0;
        const char *why = NULL;
        if (memcmp(&m[i].separation, &sep, 4) != 0)
            why = "separation != collide's";
        else if (m[i].bad != bad)
            why = "bad != collide's";
        else if (!kept_a && (memcmp(&m[i].normal[0], &nx, 4) || memcmp(&m[i].normal[1], &ny, 4) || m[i].axis != axis))
            why = "normal or axis != collide's (no hysteresis flag)";
        else if (kept_a && (m[i].axis >= faces || axis < faces))
            why = "hysteresis flag but the axes are not A's (manifold) and B's (collide)";
        else if (m[i].count > 2 || (m[i].count > 0 && !hit))
            why = "count > 2, or points on a pair collide does not hit";
        else if (bad && (m[i].count || m[i].flags || m[i].axis != SATBOX_AXIS_INVALID))
            why = "bad pair with points, flags or an axis";
        if (why) {
            ca_fail("pair %zu: manifold %s", i, why);
            print_manifold("reference", &m[i]);
            return;
        }
        with += m[i].count > 0;
        st->two_points[st->src] += m[i].count == 2;
        st->kept_a[st->src] += kept_a;
    }
    ptrdiff_t mcount = st->out[1].mcount;
    if (with != mcount)
        ca_fail("manifold count %td != pairs with points %td", mcount, with);
    st->with_points[st->src] += (uint64_t)mcount;
}

static void check_ref(void *p)
{
    state2d *st = p;
    manifold_vs_collide(st);
    sat_check_ref(&st->out[1].sat, ca_outputs(1), SAT_OUTS, st->ch.n, &st->hits[st->src], &st->bad[st->src]);
}

static void compare(void *p)
{
    state2d *st = p;
    const outs2d *r = &st->out[1], *g = &st->out[0];
    size_t n = st->ch.n;
    sat_compare(&r->sat, ca_outputs(1), &g->sat, ca_outputs(0), SAT_OUTS, n);
    if (!gb_guard_ok(&g->manifold))
        ca_fail("manifold: guard bytes after the records were overwritten");
    const satbox2d_manifold *rm = (const satbox2d_manifold *)r->manifold.p;
    const satbox2d_manifold *gm = (const satbox2d_manifold *)g->manifold.p;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&rm[i], &gm[i], sizeof rm[i]) != 0) {
            ca_fail("manifold differs at pair %zu", i);
            print_manifold("reference", &rm[i]);
            print_manifold("got", &gm[i]);
            break;
        }
    if (r->mcount != g->mcount)
        ca_fail("manifold count %td, reference %td", g->mcount, r->mcount);
}

/* The argument checks of the contacts entry points: an error and nothing written. */
static void contacts_args(state2d *st)
{
    chunk2d *ch = &st->ch;
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
    CASE("rect records over an input",
         satbox2d_contacts(&rv[0], &rv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->rb[3].p), SATBOX_ERR_ALIAS);
    CASE("rect pool index", satbox2d_contacts_pairs(&rv[0], 4, bad_pair, 1, 0.0f, rec), SATBOX_ERR_INDEX);
    CASE("rect pool count", satbox2d_contacts_pairs(&rv[0], (size_t)SATBOX_MAX_COUNT + 1, bad_pair, 1, 0.0f, rec),
         SATBOX_ERR_COUNT);
    CASE("poly NULL b", satbox2d_poly_contacts(&pv[0], NULL, 4, 0.0f, rec), SATBOX_ERR_NULL);
    CASE("poly records over an input",
         satbox2d_poly_contacts(&pv[0], &pv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->pa[5].p), SATBOX_ERR_ALIAS);
    CASE("poly pool index", satbox2d_poly_contacts_pairs(&pv[0], 4, bad_pair, 1, 0.0f, rec), SATBOX_ERR_INDEX);
    CASE("rect-poly inf margin", satbox2d_rect_poly_contacts(&rv[0], &pv[1], 4, INFINITY, rec), SATBOX_ERR_ARG);
    CASE("rect-poly records over an input",
         satbox2d_rect_poly_contacts(&rv[0], &pv[1], 4, 0.0f, (satbox2d_manifold *)(void *)ch->pb[16].p),
         SATBOX_ERR_ALIAS);
    CASE("n = 0", satbox2d_poly_contacts(NULL, NULL, 0, NAN, NULL), 0);
#undef CASE
    for (int c = 0; c < nc; c++)
        if (cases[c].got != cases[c].want)
            ca_fail("contacts arguments: %s returned %td, expected %td", cases[c].what, cases[c].got, cases[c].want);
    /* Nothing written: each case refills the records first, so one error call on its own. */
    memset(rec, 0x5A, sizeof rec);
    (void)satbox2d_poly_contacts_pairs(&pv[0], 4, bad_pair, 1, 0.0f, rec);
    for (size_t b = 0; b < sizeof rec; b++)
        if (((const unsigned char *)rec)[b] != 0x5A) {
            ca_fail("contacts arguments: a rejected call wrote its records");
            break;
        }
}

static void counts(void *p, int src)
{
    state2d *st = p;
    printf(", %" PRIu64 " overlapping, %" PRIu64 " bad; manifolds: %" PRIu64 " with points, %" PRIu64
           " with 2, %" PRIu64 " kept A's face",
           st->hits[src], st->bad[src], st->with_points[src], st->two_points[src], st->kept_a[src]);
}

static void summary(void *p) { contacts_args(p); }

static const char *label(int src) { return sbx_src2d_label((sbx_src2d)src); }

/* As many pairs as the pairs area at a scale (scale.h), at most 2M (the full run). A stage where
 * this area costs far more than the others for the same pairs takes a share of that with
 * SATBOX_CHECKASM_2D_SHARE (0 < share <= 1): under qemu-aarch64 (tests/run's aarch64 stage) the 2D
 * area took 5x the pairs area's time at equal pairs, so that stage sizes it by time. A value that
 * is not such a number ends the program (exit 2), as scale.h's knob does. */
static uint64_t default_pairs(void)
{
    uint64_t n = scaled(10000000);
    n = n > 2000000 ? 2000000 : n;
    const char *share_env = getenv("SATBOX_CHECKASM_2D_SHARE");
    if (share_env && *share_env) {
        char *end;
        double share = strtod(share_env, &end);
        if (*end || !(share > 0.0 && share <= 1.0)) {
            fprintf(stderr, "SATBOX_CHECKASM_2D_SHARE=%s: not a number in (0, 1]\n", share_env);
            exit(2);
        }
        n = (uint64_t)((double)n * share + 0.5);
    }
    return n > 0 ? n : 1;
}

CA_AREA(ca_area_2d, "2d", CA_HASH_BYTES, 0x2D5A7B0Cull, CHUNK, SBX2D_COUNT);

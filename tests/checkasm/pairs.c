/* pairs.c - the checker's 3D pairs area: overlap, collide, the compacted list, AABBs, quaternion axes. */
/* SPDX-License-Identifier: MIT */
/* Random pairs of every family of support.h (bad values mixed in, quaternions far from unit, zero
 * or NaN) through every pair source of SBX_SOURCES: collide (hit, separation, normal, axis, bad)
 * and overlap (hit, bad) per batch, the compacted list of a whole-chunk collide, the count each
 * returns; overlap == collide(margin 0).hit on every path; a record pool's reference equal to the
 * SoA pool's. The box helpers (AABBs, axes from quaternions) run with the sources whose A side is a
 * batch of its own. Margins 0, 0.05, -0.05 by turns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "sat.h"
#include "scale.h"

#define CHUNK 8192

/* The outputs of one run over a chunk: collide's and overlap's (sat.h), and the box helpers'. */
typedef struct pair_outs {
    sat_outs sat;
    gbuf min[3], max[3];  /* the AABBs */
    gbuf quat_axis[3][3]; /* the axes from the chunk's quaternions */
    ptrdiff_t aabb_count, quat_count;
} pair_outs;

/* The list's layout: collide's and overlap's outputs (SAT_OUTS, the compacted list the last),
 * then the AABBs, then the axes. */
enum { SAT_OUTS = SAT_OUTS_3D, AT_AABB = SAT_OUTS, AT_AXES = AT_AABB + 6, NOUT = AT_AXES + 9 };

typedef struct pairs_state {
    box_chunk ch;
    pair_outs out[3];       /* [1] the reference's, [0] a path's, [2] the SoA pool's reference */
    ca_out twin_list[NOUT]; /* out[2] as a list: what a record pool's reference must equal */
    uint64_t twin_chunk;
    sbx_src src;
    uint64_t chunk;
    float margin;
    uint64_t hits[SBX_SRC_COUNT], invalid[SBX_SRC_COUNT];
} pairs_state;

/* The outputs of out[ref] as the driver's list, in the order of the reports and the hash. */
static int outputs(void *p, int ref, ca_out *l)
{
    pair_outs *o = &((pairs_state *)p)->out[ref];
    int n = sat_list(&o->sat, 3, l);
    n = ca_list(l, n, "aabb min", o->min, 3, 4);
    n = ca_list(l, n, "aabb max", o->max, 3, 4);
    for (int k = 0; k < 3; k++)
        n = ca_list(l, n, k == 0 ? "axis 0" : k == 1 ? "axis 1" : "axis 2", o->quat_axis[k], 3, 4);
    return n;
}

/* A box helper run on the sources whose A side is a batch of its own (not a pool, not one box):
 * the AABBs of A in the source's form; the matrix form also converts the chunk's quaternions. */
static int has_helpers(sbx_src s) { return !sbx_src_is_pool(s) && !sbx_src_is_one(s); }

/* The SoA pool: the source a record pool of boxes (not quaternions) must agree with. */
static int is_soa_pool(sbx_src s) { return sbx_src_is_pool(s) && !sbx_src_is_rec(s) && !sbx_src_is_quat(s); }
static int is_box_records(sbx_src s) { return sbx_src_is_rec(s) && !sbx_src_is_quat(s); }

static void *open_area(size_t n)
{
    pairs_state *st = calloc(1, sizeof *st);
    boxes_alloc(&st->ch, n);
    outputs(st, 2, st->twin_list);
    ca_alloc(st->twin_list, NOUT, n);
    st->twin_chunk = UINT64_MAX;
    return st;
}

static void close_area(void *p)
{
    pairs_state *st = p;
    boxes_free(&st->ch);
    ca_free(st->twin_list, NOUT);
    free(st);
}

/* A quaternion as a caller may pass it: random, sometimes zero, NaN, infinite, too short, or far
 * from unit (normalised on the way). */
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
        float s = (float)pow(10.0, tb_range(r, -10, 10));
        for (int c = 0; c < 4; c++)
            q[c] *= s;
    }
}

static void fill(void *p, tb_rng *r, uint64_t chunk)
{
    pairs_state *st = p;
    box_chunk *ch = &st->ch;
    size_t n = ch->n;
    satbox_pair *pp = (satbox_pair *)ch->pairs.p;
    st->chunk = chunk;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        tb_make_pair(r, (tb_family)(tb_next(r) % TB_FAMILY_COUNT), &a, &b);
        boxes_put(ch, i, &a, &b);
        float qa[4], qb[4];
        random_quat(r, qa);
        random_quat(r, qb);
        boxes_put_quat(ch, i, &a, &b, qa, qb);
        /* Pairs: mostly (i, n + i), some random, some duplicates, some a == b. */
        uint64_t x = tb_next(r) % 16;
        if (x == 0) {
            /* One draw per statement: initialiser order is unspecified; replay must not depend on the compiler. */
            pp[i].a = (uint32_t)(tb_next(r) % (2 * n));
            pp[i].b = (uint32_t)(tb_next(r) % (2 * n));
        } else if (x == 1 && i > 0)
            pp[i] = pp[i - 1];
        else if (x == 2)
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)i};
        else
            pp[i] = (satbox_pair){(uint32_t)i, (uint32_t)(n + i)};
    }
}

/* The matrix source on every chunk; each other source on every fourth, by turns: those with the
 * same shape of input (quaternion batches; one box against many; index pairs into a pool) share
 * a turn, so that the record pools run on the chunks of the SoA pool. This keeps the run short
 * under qemu (the sources differ in their loaders, not in the math). */
static int start(void *p, int src, uint64_t chunk, int turn)
{
    (void)turn;
    static const float margins[4] = {0.0f, 0.05f, -0.05f, 0.0f};
    pairs_state *st = p;
    sbx_src s = (sbx_src)src;
    unsigned when = sbx_src_is_pool(s) ? 3 : sbx_src_is_one(s) ? 2 : sbx_src_is_quat(s) ? 1 : 0;
    if (when != 0 && chunk % 4 != when)
        return 0;
    st->src = s;
    st->margin = margins[chunk % 4];
    return 1;
}

static void begin(void *p, int ref)
{
    pairs_state *st = p;
    st->out[ref].sat.count = st->out[ref].sat.ocount = st->out[ref].aabb_count = st->out[ref].quat_count = 0;
}

static void run(void *p, const sbx_path *k, int ref, size_t at, size_t len)
{
    pairs_state *st = p;
    sat_outs *o = &st->out[ref].sat;
    box_views v;
    sbx_job jc = boxes_job(&st->ch, &v, st->src, at, len, st->margin), *job = &jc;
    SBX_OUTPUTS(SAT_BIND_COLLIDE)
    o->count += k->collide(&jc);
    sbx_job jo = boxes_job(&st->ch, &v, st->src, at, len, st->margin);
    job = &jo;
    SBX_OUTPUTS(SAT_BIND_OVERLAP)
    o->ocount += k->overlap(&jo);
}

/* The whole-chunk calls: the compacted list (collide with no per-pair output; its indices are
 * chunk-relative) and the box helpers. */
static void end(void *p, const sbx_path *k, int ref)
{
    pairs_state *st = p;
    pair_outs *o = &st->out[ref];
    box_chunk *ch = &st->ch;
    box_views v;
    sbx_job jl = boxes_job(ch, &v, st->src, 0, ch->n, st->margin);
    jl.compact = (uint32_t *)o->sat.compact.p;
    sat_check_run(&o->sat, ch->n, st->margin, k->collide(&jl));
    if (!has_helpers(st->src))
        return;
    sbx_box_job bj;
    memset(&bj, 0, sizeof bj);
    bj.n = ch->n;
    if (sbx_src_is_quat(st->src)) {
        bj.q = &v.qa;
        bj.margin = 0.25f;
    } else {
        bj.m = &v.ma;
        bj.margin = st->margin < 0 ? 0.0f : st->margin;
    }
    for (int c = 0; c < 3; c++) {
        bj.min[c] = (float *)o->min[c].p;
        bj.max[c] = (float *)o->max[c].p;
    }
    o->aabb_count = k->aabb(&bj);
    if (sbx_src_is_quat(st->src))
        return;
    float *ax[3][3];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            ax[a][c] = (float *)o->quat_axis[a][c].p;
    o->quat_count = k->axes_from_quat(v.qa.quat, ch->n, ax);
}

/* How many of the helpers' outputs this source fills (from AT_AABB on). */
static int helper_outs(sbx_src s)
{
    return !has_helpers(s) ? 0 : sbx_src_is_quat(s) ? AT_AXES - AT_AABB : NOUT - AT_AABB;
}

/* Two runs' outputs and counts (the reference's and a path's, or the pool's and the records'). */
static void same_runs(const pairs_state *st, const ca_out *ref, const pair_outs *r, const ca_out *got,
                      const pair_outs *g)
{
    size_t n = st->ch.n;
    size_t at = sat_compare(&r->sat, ref, &g->sat, got, SAT_OUTS, n);
    if (ca_same(ref + AT_AABB, got + AT_AABB, helper_outs(st->src), n) != SIZE_MAX && at == SIZE_MAX)
        at = 0;
    if (at != SIZE_MAX && has_helpers(st->src))
        boxes_print_pair(&st->ch, at);
    if (r->aabb_count != g->aabb_count || r->quat_count != g->quat_count)
        ca_fail("aabb/quat counts %td/%td, reference %td/%td", g->aabb_count, g->quat_count, r->aabb_count,
                r->quat_count);
}

static void check_ref(void *p)
{
    pairs_state *st = p;
    const pair_outs *o = &st->out[1];
    size_t n = st->ch.n;
    sat_check_ref(&o->sat, ca_outputs(1), SAT_OUTS, n, &st->hits[st->src], &st->invalid[st->src]);
    ca_hash_outs(ca_outputs(1) + AT_AABB, helper_outs(st->src), n);
    if (is_soa_pool(st->src)) {
        for (int q = 0; q < NOUT; q++)
            memcpy(st->twin_list[q].buf->p, ca_outputs(1)[q].buf->p, ca_outputs(1)[q].buf->bytes);
        st->out[2].sat.count = o->sat.count;
        st->out[2].sat.ocount = o->sat.ocount;
        st->twin_chunk = st->chunk;
    } else if (is_box_records(st->src) && st->twin_chunk == st->chunk) {
        same_runs(st, st->twin_list, &st->out[2], ca_outputs(1), o); /* the records hold the pool's boxes */
    }
}

static void compare(void *p)
{
    pairs_state *st = p;
    same_runs(st, ca_outputs(1), &st->out[1], ca_outputs(0), &st->out[0]);
}

static void counts(void *p, int src)
{
    pairs_state *st = p;
    printf(", %" PRIu64 " overlapping, %" PRIu64 " invalid", st->hits[src], st->invalid[src]);
}

static void summary(void *p) { (void)p; }

static const char *label(int src) { return sbx_src_label((sbx_src)src); }

static uint64_t default_pairs(void) { return scaled(10000000); } /* SATBOX_TEST_SCALE of tests/run's stage */

CA_AREA(ca_area_pairs, "pairs", CA_HASH_WORDS, 0x5A7B0C5ull, CHUNK, SBX_SRC_COUNT);

/* contacts.c - the checker's 3D contacts area: every manifold output and the contact stream's records. */
/* SPDX-License-Identifier: MIT */
/* Random pairs of every family of support.h (bad values mixed in) plus crossing edges, through
 * every pair source with a contacts form (SBX_SOURCES' contacts column), margins 0, 1e-3, 0.05 and
 * -1e-3 by turns (a negative margin: the stream form's filter, may_touch, may not read an edge's
 * raw gap against it). Every per-pair output of satbox_contacts must equal the reference's; the stream form
 * runs the same batches, each into its own guarded record array: its records must equal, byte for
 * byte, records assembled here from the reference's outputs (one per pair with hit == 1,
 * ascending), its count their number, its bad bytes the reference's. The reference's own stream
 * is checked the same way against its outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxes.h"
#include "box3d/contacts.h"
#include "scale.h"

#define CHUNK 2000

/* The outputs of satbox_contacts: every output the contacts form carries (SBX_OUTPUTS), named as
 * their job fields. */
#define CONTACT_GBUF(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(gbuf CA_OUT_DECL(name, rows, vec);)
#define CONTACT_OUT_COUNT(name, type, rows, vec, ov, co, ct, flagged) +(ct) * SBX_OUT_COUNT(3, rows, vec)
typedef struct contact_outs {
    SBX_OUTPUTS(CONTACT_GBUF) /* hit, bad, normal[3], axis, count, point[4][3], depth[4], feature[4] */
    gbuf list;                /* the compacted list: batch-relative, so checked through hit only */
    gbuf stream_bad;          /* the stream form's bad bytes */
} contact_outs;

/* The per-pair outputs, then the compacted list and the stream's bad bytes. */
enum { PAIR_OUTS = 0 SBX_OUTPUTS(CONTACT_OUT_COUNT), NOUT = PAIR_OUTS + 2 };

typedef struct contacts_state {
    box_chunk ch;
    contact_outs out[2]; /* [1] the reference's, [0] a path's */
    sbx_src src;
    float margin;
    uint64_t hits[SBX_SRC_COUNT], points[SBX_SRC_COUNT];
} contacts_state;

/* The outputs of out[ref] as the driver's list, in the order of the reports and the hash. */
static int outputs(void *p, int ref, ca_out *l)
{
    contact_outs *o = &((contacts_state *)p)->out[ref];
    int n = 0;
#define CONTACT_LIST(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(CA_LIST_OUT(l, n, #name, o->name, type, rows, vec, 3);)
    SBX_OUTPUTS(CONTACT_LIST)
#undef CONTACT_LIST
    n = ca_list(l, n, "compacted list", &o->list, 1, 4);
    n = ca_list(l, n, "stream bad", &o->stream_bad, 1, 1);
    return n;
}

static void *open_area(size_t n)
{
    contacts_state *st = calloc(1, sizeof *st);
    boxes_alloc(&st->ch, n);
    return st;
}

static void close_area(void *p)
{
    contacts_state *st = p;
    boxes_free(&st->ch);
    free(st);
}

/* Crossing edges: B placed so that edge j of B crosses edge i of A, 1e-3 apart to 1e-2 deep. */
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

static void fill(void *p, tb_rng *r, uint64_t chunk)
{
    (void)chunk;
    contacts_state *st = p;
    box_chunk *ch = &st->ch;
    size_t n = ch->n;
    satbox_pair *pp = (satbox_pair *)ch->pairs.p;
    for (size_t i = 0; i < n; i++) {
        satbox_box a, b;
        uint64_t f = tb_next(r) % (TB_FAMILY_COUNT + 1);
        if (f == TB_FAMILY_COUNT)
            edge_pair(r, &a, &b);
        else
            tb_make_pair(r, (tb_family)f, &a, &b);
        boxes_put(ch, i, &a, &b);
        float qa[4], qb[4];
        for (int c = 0; c < 4; c++) {
            qa[c] = (float)tb_normal(r);
            qb[c] = (float)tb_normal(r);
        }
        boxes_put_quat(ch, i, &a, &b, qa, qb);
        /* the pool's pairs, sometimes reversed */
        uint64_t x = tb_next(r) % 8;
        pp[i] = x == 0 ? (satbox_pair){(uint32_t)(n + i), (uint32_t)i} : (satbox_pair){(uint32_t)i, (uint32_t)(n + i)};
    }
}

/* Every source with a contacts form on every chunk; the margin goes round with the sources. */
static int start(void *p, int src, uint64_t chunk, int turn)
{
    static const float margins[4] = {0.0f, 1e-3f, 0.05f, -1e-3f};
    contacts_state *st = p;
    if (!sbx_src_has_contacts((sbx_src)src))
        return 0;
    st->src = (sbx_src)src;
    st->margin = margins[(chunk + (uint64_t)turn) % 4];
    return 1;
}

static void begin(void *p, int ref) { (void)p, (void)ref; }

/* Points the job's manifold outputs at pair `at` of every array. */
static void bind_outputs(contact_outs *o, size_t at, sbx_cjob *cj)
{
#define CONTACT_BIND(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##ct(CA_BIND_OUT(SBX_IF(co)(&cj->pair, cj), name, type, o->name, at);)
    SBX_OUTPUTS(CONTACT_BIND)
#undef CONTACT_BIND
    cj->pair.compact = (uint32_t *)o->list.p + at;
}

/* The record of pair i (batch-relative index `rel`) from the reference's outputs, field by field
 * as satbox.h describes the stream. */
static satbox_manifold expected_record(const contact_outs *ref, size_t i, size_t rel)
{
    satbox_manifold m;
    memset(&m, 0, sizeof m);
    m.pair = (uint32_t)rel;
    for (int c = 0; c < 3; c++)
        m.normal[c] = ((const float *)ref->normal[c].p)[i];
    m.axis = ((const uint8_t *)ref->axis.p)[i];
    m.count = ((const uint8_t *)ref->count.p)[i];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            m.point[k].position[c] = ((const float *)ref->point[k][c].p)[i];
        m.point[k].depth = ((const float *)ref->depth[k].p)[i];
        m.point[k].feature = ((const uint32_t *)ref->feature[k].p)[i];
    }
    return m;
}

/* The stream's records of pairs [at, at + len) against the reference's outputs (already there:
 * the reference ran this batch just before, a path after the whole reference). */
static void check_stream(const contacts_state *st, const gbuf *rec, ptrdiff_t cnt, size_t at, size_t len)
{
    const contact_outs *ref = &st->out[1];
    const satbox_manifold *r = (const satbox_manifold *)rec->p;
    ptrdiff_t want = 0;
    for (size_t i = at; i < at + len; i++) {
        if (((const uint8_t *)ref->hit.p)[i] != 1)
            continue;
        satbox_manifold e = expected_record(ref, i, i - at);
        if (want >= cnt || memcmp(&e, &r[want], sizeof e) != 0) {
            ca_fail("stream (margin %g): record %td (pair %zu) differs%s", (double)st->margin, want, i,
                    want >= cnt ? " (missing)" : "");
            return;
        }
        want++;
    }
    if (cnt != want)
        ca_fail("stream: %td records returned, %td hit pairs", cnt, want);
    if (!gb_guard_ok(rec))
        ca_fail("stream: guard bytes after the records overwritten");
}

/* One batch: the per-pair outputs, then the stream form into a record array of its own. */
static void run(void *p, const sbx_path *k, int ref, size_t at, size_t len)
{
    contacts_state *st = p;
    contact_outs *o = &st->out[ref];
    box_views v;
    sbx_cjob cj;
    memset(&cj, 0, sizeof cj);
    cj.pair = boxes_job(&st->ch, &v, st->src, at, len, st->margin);
    bind_outputs(o, at, &cj);
    k->contacts(&cj);

    gbuf rec;
    gb_alloc(&rec, len * sizeof(satbox_manifold), 4 * (at % 4));
    memset(&cj, 0, sizeof cj);
    cj.pair = boxes_job(&st->ch, &v, st->src, at, len, st->margin);
    cj.pair.bad = (uint8_t *)o->stream_bad.p + at;
    cj.stream = (satbox_manifold *)rec.p;
    check_stream(st, &rec, k->contacts(&cj), at, len);
    gb_free(&rec);
}

static void end(void *p, const sbx_path *k, int ref) { (void)p, (void)k, (void)ref; }

/* The stream's bad bytes are the per-pair form's (of the reference). */
static void same_stream_bad(const contacts_state *st, const contact_outs *o)
{
    if (memcmp(st->out[1].bad.p, o->stream_bad.p, st->ch.n) != 0 || !gb_guard_ok(&o->stream_bad))
        ca_fail("stream: bad bytes differ or their guard is overwritten");
}

/* The reference hash reads the per-pair outputs in the order this area listed them before the list
 * of outputs (SBX_OUTPUTS): count, hit, axis, bad, then the others in the list's order (normal,
 * point, depth, feature, and any output added since), so that the hash kept its value. */
static void hash_outputs(const ca_out *l, size_t n)
{
    static const char *const first[] = {"count", "hit", "axis", "bad"};
    enum { FIRST = sizeof first / sizeof first[0] };
    for (int f = 0; f < FIRST; f++)
        for (int q = 0; q < PAIR_OUTS; q++)
            if (strcmp(l[q].name, first[f]) == 0)
                ca_hash_outs(l + q, 1, n);
    for (int q = 0; q < PAIR_OUTS; q++) {
        int f = 0;
        while (f < FIRST && strcmp(l[q].name, first[f]) != 0)
            f++;
        if (f == FIRST)
            ca_hash_outs(l + q, 1, n);
    }
}

static void check_ref(void *p)
{
    contacts_state *st = p;
    const contact_outs *o = &st->out[1];
    same_stream_bad(st, o);
    for (size_t i = 0; i < st->ch.n; i++) {
        st->hits[st->src] += ((const uint8_t *)o->hit.p)[i] == 1;
        st->points[st->src] += ((const uint8_t *)o->count.p)[i];
    }
    ca_written(ca_outputs(1), PAIR_OUTS, st->ch.n);
    hash_outputs(ca_outputs(1), st->ch.n);
}

static void compare(void *p)
{
    contacts_state *st = p;
    ca_same(ca_outputs(1), ca_outputs(0), PAIR_OUTS, st->ch.n);
    if (!gb_guard_ok(&st->out[0].list))
        ca_fail("compacted list: guard bytes after the output were overwritten");
    same_stream_bad(st, &st->out[0]);
}

static void counts(void *p, int src)
{
    contacts_state *st = p;
    printf(", %" PRIu64 " hit, %" PRIu64 " contact points", st->hits[src], st->points[src]);
}

static void summary(void *p)
{
    (void)p;
    uint64_t runs = 0;
    int sources = 0;
    for (int s = 0; s < SBX_SRC_COUNT; s++)
        if (sbx_src_has_contacts((sbx_src)s)) {
            runs += ca_source_pairs(s) * (uint64_t)ca_path_count();
            sources++;
        }
    printf("  %" PRIu64 " pair runs compared bit for bit over %d paths x %d sources, SoA and stream\n", runs,
           ca_path_count(), sources);
}

static const char *label(int src) { return sbx_src_has_contacts((sbx_src)src) ? sbx_src_label((sbx_src)src) : NULL; }

/* 200K pairs; the short runs (scale.h) 40K, and in proportion below scale 0.012 (valgrind's 0.003: 10K). */
static uint64_t default_pairs(void)
{
    if (!test_short())
        return 200000;
    size_t n = scaled(3333333);
    return n > 40000 ? 40000 : n;
}

CA_AREA(ca_area_contacts, "contacts", CA_HASH_WORDS, 0xC0C0A5ull, CHUNK, SBX_SRC_COUNT);

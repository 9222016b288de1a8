/* test_small_stack.c - every public entry point on a thread with a 16 KiB stack, on the path SATBOX_ISA names. */
/* SPDX-License-Identifier: MIT */
/* Engines call satbox from job-system threads and fibers with small stacks, and the path (hence
 * the kernels' frames) is chosen from the CPU at run time: a job system tested on an AVX2 machine
 * must not crash on its users' AVX-512 machines. So each per-path test (small-stack-<path>) runs
 * every entry point of satbox.h, satbox2d.h and satbox_planner.h, on batches that run full blocks
 * and a tail, on a
 * pthread created with a 16 KiB stack (and with PTHREAD_STACK_MIN, where that is larger). glibc
 * carves the thread descriptor and the static TLS out of that allocation, so less is left for the
 * calls (about 12 KB, printed as `usable`): that is the user's reality, and the test's.
 *
 * Each entry point runs in a forked child, once on the main thread and once on the small thread:
 * a stack overflow (SIGSEGV on glibc's guard page) fails that entry point and the others still
 * run; the two runs' return values and every output byte must be equal. Inside the thread the
 * stack below the caller is painted first and scanned afterwards: the deepest byte written gives
 * the call's stack use (`peak`), which must stay within SMALL_STACK_BUDGET, the figure that
 * satbox.h states (not under valgrind, which forbids touching memory below the stack pointer).
 *
 * When SATBOX_ISA names a path this machine cannot run (AVX-512 here), the test exits 77
 * (skipped), never passes on a narrower path; tests/hardening/stack_frames.py bounds that path's
 * stack from GCC's call graphs instead. (The portable builds of the kernels cannot stand in for
 * it: SIMDe's portable vectors give them frames of 23 to 241 KB.) `--coverage` with the three
 * headers checks that every function they declare is a case below (or, not exported yet, listed
 * in pending_names), so that a new entry point cannot escape this test. */
#define _GNU_SOURCE /* pthread_getattr_np, RTLD_DEFAULT */
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api_sources.h" /* src/box3d/box3d.h: the pair sources */
#include "core/outputs.h"     /* src/: SBX_OUTPUTS, macros only */
#include "robot.h" /* the planner's arm and scene */
#include "satbox/satbox.h"
#include "satbox/satbox2d.h"
#include "satbox/satbox_planner.h"
#include "support.h"
#include "support2d.h"

#if defined(SATBOX_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() RUNNING_ON_VALGRIND
#else
#define UNDER_VALGRIND() 0
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SS_SANITIZER 1
#endif

/* The stack the library promises never to exceed per call, on every path (satbox.h, "Threads"),
 * counted from the caller's frame; tests/meson.build passes the figure to stack_frames.py too. */
#ifndef SMALL_STACK_BUDGET
#define SMALL_STACK_BUDGET (10 * 1024)
#endif
/* The thread stack the test runs on. */
#define SMALL_STACK 16384
/* Pairs per batch: 1024 (the contacts face queue drained full many times, with lanes left over
 * to move) and a tail of 3 (below every width), so every stage's full and partial code runs. */
#define NPAIRS 1027
#define PAINT 0xA7

/* ---- inputs (built once, before any fork) -------------------------------------------------- */

static struct {
    tb_soa a, b, pool;         /* pair batches and a pool */
    tb_qsoa qa, qb;            /* the pair batches by quaternion */
    satbox_pair pairs[NPAIRS]; /* indices into the pool */
    satbox_rec rec[NPAIRS];    /* the pool as records */
    satbox_qrec qrec[NPAIRS];  /* the pool as quaternion records (its own rotations) */
    satbox_box structs[NPAIRS];
    satbox_box one;
    tb2_rects ra, rb, rpool;
    tb2_polys pa, pb, ppool;
    tb_poly ppool_polys[NPAIRS]; /* the polygon pool as drawn, for the bodies */
    tb2_prepared prep;           /* the polygon pool prepared */
    tb2_bodies bodies;           /* and as bodies */
} in;

static void random_quat(tb_rng *r, float q[4])
{
    for (int c = 0; c < 4; c++)
        q[c] = (float)tb_normal(r);
    if (tb_next(r) % 32 == 0)
        q[tb_next(r) % 4] = NAN; /* an invalid box now and then */
}

static void inputs_make(void)
{
    tb_rng r;
    tb_seed(&r, 16384);
    if (tb_soa_alloc(&in.a, NPAIRS) || tb_soa_alloc(&in.b, NPAIRS) || tb_soa_alloc(&in.pool, NPAIRS) ||
        tb2_rects_alloc(&in.ra, NPAIRS) || tb2_rects_alloc(&in.rb, NPAIRS) || tb2_rects_alloc(&in.rpool, NPAIRS) ||
        tb2_polys_alloc(&in.pa, NPAIRS) || tb2_polys_alloc(&in.pb, NPAIRS) || tb2_polys_alloc(&in.ppool, NPAIRS) ||
        tb_qsoa_alloc(&in.qa, NPAIRS) || tb_qsoa_alloc(&in.qb, NPAIRS)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    satbox_box b0;
    tb_make_pair(&r, TB_UNIFORM, &in.one, &b0);
    /* The pools hold the pairs of the even indices, A at 2k and B at 2k + 1, and the pool pairs
     * mostly join those two (either way round), so that pool pairs hit as often as the others. */
    satbox_box pool_b = b0;
    tb_rect rpool_b;
    tb_poly ppool_b;
    for (size_t i = 0; i < NPAIRS; i++) {
        /* Mostly touching and stacked pairs (face manifolds, queued), some random (edge points,
         * misses) and bad ones. */
        static const tb_family fams[] = {TB_STACKED, TB_TOUCHING, TB_PARALLEL, TB_UNIFORM, TB_STACKED, TB_BAD};
        satbox_box a, b;
        tb_make_pair(&r, fams[i % (sizeof fams / sizeof fams[0])], &a, &b);
        tb_soa_set(&in.a, i, &a);
        tb_soa_set(&in.b, i, &b);
        if (!(i & 1))
            pool_b = b;
        const satbox_box *p = (i & 1) ? &pool_b : &a;
        tb_soa_set(&in.pool, i, p);
        memcpy(in.rec[i].center, p->center, sizeof p->center);
        memcpy(in.rec[i].half, p->half, sizeof p->half);
        memcpy(in.rec[i].axis, p->axis, sizeof p->axis);
        in.rec[i].pad = 0.0f;
        memcpy(in.qrec[i].center, p->center, sizeof p->center);
        memcpy(in.qrec[i].half, p->half, sizeof p->half);
        random_quat(&r, in.qrec[i].quat);
        in.structs[i] = a;
        size_t j = (i & 1) ? i - 1 : (i + 1 < NPAIRS ? i + 1 : i);
        in.pairs[i].a = (uint32_t)i;
        in.pairs[i].b = (uint32_t)(tb_next(&r) % 4 ? j : tb_next(&r) % NPAIRS);
        float qa[4], qb[4];
        random_quat(&r, qa);
        random_quat(&r, qb);
        tb_qsoa_set(&in.qa, i, &a, qa);
        tb_qsoa_set(&in.qb, i, &b, qb);
        tb_rect r0, r1;
        tb2_rect_pair(&r, (tb2_family)(i % TB2_FAMILY_COUNT), &r0, &r1);
        tb2_rects_set(&in.ra, i, &r0);
        tb2_rects_set(&in.rb, i, &r1);
        if (!(i & 1))
            rpool_b = r1;
        tb2_rects_set(&in.rpool, i, (i & 1) ? &rpool_b : &r0);
        tb_poly p0, p1;
        tb2_poly_pair(&r, (tb2_family)(i % TB2_FAMILY_COUNT), 0, 0, &p0, &p1);
        tb2_polys_set(&in.pa, i, &p0);
        tb2_polys_set(&in.pb, i, &p1);
        if (!(i & 1))
            ppool_b = p1;
        tb2_polys_set(&in.ppool, i, (i & 1) ? &ppool_b : &p0);
        in.ppool_polys[i] = (i & 1) ? ppool_b : p0;
    }
    if (tb2_prepared_make(&in.prep, &in.ppool.view, NPAIRS) || tb2_bodies_make(&in.bodies, &r, in.ppool_polys, NPAIRS, 1)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
}

/* ---- outputs: one bump-allocated block per run, pre-filled, compared byte for byte ---------- */

typedef struct outbuf {
    _Alignas(64) unsigned char mem[1 << 20]; /* aligned: a world or chain built in it lies alike in every run */
    size_t used;
    ptrdiff_t rc;
} outbuf;

static void *take(outbuf *o, size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    if (o->used + bytes > sizeof o->mem) {
        fprintf(stderr, "output block too small\n");
        exit(2);
    }
    void *p = o->mem + o->used;
    o->used += bytes;
    return p;
}
static float *take_f(outbuf *o) { return take(o, NPAIRS * sizeof(float)); }
static uint8_t *take_u8(outbuf *o) { return take(o, NPAIRS); }

/* Every array of the outputs a form carries (SBX_OUTPUTS), NPAIRS elements each from the block. */
#define TAKE_OUT(p, name, type)                                    \
    for (size_t k = 0; k < SBX_OUT_ARRAYS(p, name, type); k++)     \
    SBX_OUT_AT(p, name, type, k) = (type *)take(o, NPAIRS * sizeof(type))
#define TAKE_COLLIDE(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(TAKE_OUT(&res, name, type);)
#define TAKE_CONTACTS(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(TAKE_OUT(&res, name, type);)

static satbox_result result_out(outbuf *o)
{
    satbox_result res;
    SBX_OUTPUTS(TAKE_COLLIDE)
    return res;
}

static satbox2d_result result2d_out(outbuf *o)
{
    satbox2d_result res;
    SBX_OUTPUTS(TAKE_COLLIDE)
    return res;
}

/* Not inlined into its one caller (s_contacts): its frame would stay under the call and count
 * in the measured peak (192 bytes more, measured). */
__attribute__((noinline)) static satbox_contacts_out contacts_out(outbuf *o)
{
    satbox_contacts_out res;
    SBX_OUTPUTS(TAKE_CONTACTS)
    return res;
}

static satbox_boxes_out boxes_out(outbuf *o)
{
    satbox_boxes_out b;
    for (int c = 0; c < 3; c++) {
        b.center[c] = take_f(o);
        b.half[c] = take_f(o);
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b.axis[k][c] = take_f(o);
    return b;
}

/* ---- the cases: one per public function, every output asked for ----------------------------- */

#define A (&in.a.view)
#define B (&in.b.view)
#define MARGIN 0.01f

/* The pair sources (SBX_SOURCES, src/box3d/sources.h): each one's overlap, collide and, where it has a
 * contacts form, contacts and contacts_stream are cases made from the list (api_sources.h names
 * the functions), so that a new source has its cases with no edit here. jobs[s]: the inputs of
 * every source, as source s. */
static sbx_job jobs[SBX_SRC_COUNT];

static void jobs_make(void)
{
    for (int s = 0; s < SBX_SRC_COUNT; s++)
        jobs[s] = (sbx_job){.src = (sbx_src)s, .n = NPAIRS, .ma = A, .mb = B, .qa = &in.qa.view, .qb = &in.qb.view,
                            .one = &in.one, .pool = &in.pool.view, .rec = in.rec, .qrec = in.qrec, .pairs = in.pairs,
                            .pool_n = NPAIRS, .margin = MARGIN};
}

/* The compacted list of the pool sources (the others have none). */
static uint32_t *list_out(outbuf *o, sbx_src s) { return sbx_src_is_pool(s) ? take(o, NPAIRS * 4) : NULL; }
static satbox_manifold *records_out(outbuf *o) { return take(o, NPAIRS * sizeof(satbox_manifold)); }
static void s_overlap(outbuf *o, sbx_src s) { o->rc = tb_api_overlap(&jobs[s], take_u8(o), list_out(o, s), take_u8(o)); }
static void s_collide(outbuf *o, sbx_src s)
{
    satbox_result r = result_out(o);
    o->rc = tb_api_collide(&jobs[s], &r, list_out(o, s));
}
static void s_contacts(outbuf *o, sbx_src s)
{
    satbox_contacts_out co = contacts_out(o);
    o->rc = tb_api_contacts(&jobs[s], &co, list_out(o, s));
}
static void s_contacts_stream(outbuf *o, sbx_src s)
{
    satbox_manifold *m = records_out(o);
    o->rc = tb_api_contacts_stream(&jobs[s], m, take_u8(o));
}

static void c_aabb(outbuf *o)
{
    float *mn[3] = {take_f(o), take_f(o), take_f(o)}, *mx[3] = {take_f(o), take_f(o), take_f(o)};
    o->rc = satbox_aabb(A, NPAIRS, MARGIN, mn, mx);
}
static void c_aabb_q(outbuf *o)
{
    float *mn[3] = {take_f(o), take_f(o), take_f(o)}, *mx[3] = {take_f(o), take_f(o), take_f(o)};
    o->rc = satbox_aabb_q(&in.qa.view, NPAIRS, MARGIN, mn, mx);
}
static void c_axes_from_quat(outbuf *o)
{
    float *axis[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = take_f(o);
    o->rc = satbox_axes_from_quat(in.qa.view.quat, NPAIRS, axis);
}
static void c_pack(outbuf *o)
{
    satbox_boxes_out b = boxes_out(o);
    o->rc = satbox_pack(in.structs, NPAIRS, &b);
}
static void c_pack_rec(outbuf *o) { o->rc = satbox_pack_rec(A, NPAIRS, take(o, NPAIRS * sizeof(satbox_rec))); }
static void c_validate(outbuf *o) { o->rc = satbox_validate(A, NPAIRS, 1e-5f, take_u8(o)); }
/* The ISA control and misc functions: tiny, but entry points too. */
static void c_isa_active(outbuf *o) { o->rc = satbox_isa_active(); }
static void c_isa_supported(outbuf *o) { o->rc = (ptrdiff_t)satbox_isa_supported(); }
static void c_isa_force(outbuf *o) { o->rc = satbox_isa_force(satbox_isa_active()); }
static void c_isa_cap(outbuf *o) { o->rc = satbox_isa_cap(satbox_isa_active()); }
static void c_isa_name(outbuf *o) { o->rc = (ptrdiff_t)strlen(satbox_isa_name(satbox_isa_active())); }
static void c_isa_from_name(outbuf *o) { o->rc = satbox_isa_from_name("AVX2"); }
static void c_isa_width(outbuf *o) { o->rc = satbox_isa_width(satbox_isa_active()); }
static void c_version(outbuf *o) { o->rc = (ptrdiff_t)strlen(satbox_version()); }
static void c_checked_active(outbuf *o) { o->rc = satbox_checked_active(); }
static void c_strerror(outbuf *o) { o->rc = (ptrdiff_t)strlen(satbox_strerror(SATBOX_ERR_ALIAS)); }
/* 2D */
/* The 2D sources (SBX_SOURCES2D, src/poly2d/poly2d.h) the same way: overlap, collide and contacts
 * of each from the list. jobs2d[s]: the pair batches, or the pools for a pool source. */
static sbx_job2d jobs2d[SBX2D_COUNT];

static void jobs2d_make(void)
{
    for (int s = 0; s < SBX2D_COUNT; s++) {
        int pool = sbx_src2d_is_pool((sbx_src2d)s);
        jobs2d[s] = (sbx_job2d){.src = (sbx_src2d)s, .n = NPAIRS, .ra = pool ? &in.rpool.view : &in.ra.view,
                                .rb = &in.rb.view, .pa = pool ? &in.ppool.view : &in.pa.view, .pb = &in.pb.view,
                                .pp = in.prep.rec, .bodies = &in.bodies.view, .pairs = in.pairs, .margin = MARGIN};
    }
}

static uint32_t *list2d_out(outbuf *o, sbx_src2d s) { return sbx_src2d_is_pool(s) ? take(o, NPAIRS * 4) : NULL; }
static void s2_overlap(outbuf *o, sbx_src2d s)
{
    o->rc = tb_api2d_overlap(&jobs2d[s], NPAIRS, take_u8(o), list2d_out(o, s), take_u8(o));
}
static void s2_collide(outbuf *o, sbx_src2d s)
{
    satbox2d_result r = result2d_out(o);
    o->rc = tb_api2d_collide(&jobs2d[s], NPAIRS, &r, list2d_out(o, s));
}
static satbox2d_manifold *man2d_out(outbuf *o) { return (satbox2d_manifold *)take(o, NPAIRS * sizeof(satbox2d_manifold)); }
static void s2_contacts(outbuf *o, sbx_src2d s) { o->rc = tb_api2d_contacts(&jobs2d[s], NPAIRS, man2d_out(o)); }

/* Preparing polygons (into records of the output block). */
static void c2_poly_prepare(outbuf *o)
{
    o->rc = satbox2d_poly_prepare(&in.ppool.view, NPAIRS, take(o, NPAIRS * sizeof(satbox2d_prepared)));
}

/* The planner (satbox_planner.h): robot.h's arm as a chain, the table scene of PL_M obstacles,
 * NPAIRS configurations (the states of one motion) and their link boxes, built before any fork;
 * the chain queries' work in `pl_work` (not compared: it holds pointers into itself). */
#define PL_M 100
static struct {
    tb_soa obstacles, poses[RB_LINKS];
    satbox_boxes views[RB_LINKS];
    satbox_world world;
    satbox_joint joints[RB_DOF];
    satbox_link links[RB_LINKS];
    satbox_chain chain;
    float q0[RB_DOF], q1[RB_DOF], q[NPAIRS * RB_DOF];
    const satbox_pair *self;
    size_t nself, work_bytes;
} pl;
static _Alignas(64) unsigned char pl_work[256 << 10];

static void planner_make(void)
{
    rb_box b[PL_M];
    rb_scene(RB_TABLE, PL_M, 7, b);
    if (tb_soa_alloc(&pl.obstacles, PL_M))
        exit(2);
    for (size_t i = 0; i < PL_M; i++) {
        satbox_box f;
        rb_to_float(&b[i], &f);
        tb_soa_set(&pl.obstacles, i, &f);
    }
    size_t wbytes = satbox_world_bytes(PL_M), cbytes = satbox_chain_bytes(RB_DOF, RB_LINKS);
    void *wmem = malloc(wbytes), *cmem = malloc(cbytes);
    rb_chain(pl.joints, pl.links);
    if (!wmem || !cmem || satbox_world_init(&pl.world, wmem, wbytes, &pl.obstacles.view, PL_M) != PL_M ||
        satbox_chain_init(&pl.chain, cmem, cbytes, pl.joints, RB_DOF, pl.links, RB_LINKS) != RB_LINKS) {
        fprintf(stderr, "planner inputs: setup failed\n");
        exit(2);
    }
    /* a free motion between two random configurations (so that the motion queries check every
     * state), a state a configuration */
    pl.nself = rb_self_pairs(&pl.self);
    tb_rng r;
    tb_seed(&r, 36);
    for (int t = 0; t < 1000; t++) {
        double q0[RB_DOF], q1[RB_DOF];
        rb_random_q(&r, q0);
        rb_random_q(&r, q1);
        for (int j = 0; j < RB_DOF; j++) {
            pl.q0[j] = (float)q0[j];
            pl.q1[j] = (float)q1[j];
        }
        if (satbox_chain_motion(&pl.world, &pl.chain, pl.self, pl.nself, pl.q0, pl.q1, NPAIRS, 0, pl_work, sizeof pl_work) ==
            NPAIRS)
            break;
    }
    for (size_t i = 0; i < NPAIRS; i++) {
        float t = (float)(i + 1) / (float)NPAIRS;
        for (int j = 0; j < RB_DOF; j++)
            pl.q[i * RB_DOF + j] = (1.0f - t) * pl.q0[j] + t * pl.q1[j];
    }
    satbox_boxes_out out[RB_LINKS];
    for (int l = 0; l < RB_LINKS; l++) {
        if (tb_soa_alloc(&pl.poses[l], NPAIRS))
            exit(2);
        out[l] = pl.poses[l].out;
        pl.views[l] = pl.poses[l].view;
    }
    satbox_chain_poses(&pl.chain, pl.q, RB_DOF, NPAIRS, out);
    pl.work_bytes = satbox_chain_work_bytes(&pl.chain);
    if (pl.work_bytes > sizeof pl_work) {
        fprintf(stderr, "planner inputs: work too small\n");
        exit(2);
    }
}

static void c_world_bytes(outbuf *o) { o->rc = (ptrdiff_t)satbox_world_bytes(PL_M); }
static void c_world_init(outbuf *o)
{
    size_t bytes = satbox_world_bytes(PL_M);
    satbox_world w;
    o->rc = satbox_world_init(&w, take(o, bytes), bytes, &pl.obstacles.view, PL_M);
}
static void c_configs(outbuf *o)
{
    o->rc = satbox_configs(&pl.world, pl.views, RB_LINKS, pl.self, pl.nself, NPAIRS, SATBOX_PLAN_CONSERVATIVE,
                           take_u8(o));
}
static void c_motion(outbuf *o) { o->rc = satbox_motion(&pl.world, pl.views, RB_LINKS, pl.self, pl.nself, NPAIRS, 0); }
static void c_chain_bytes(outbuf *o) { o->rc = (ptrdiff_t)satbox_chain_bytes(RB_DOF, RB_LINKS); }
static void c_chain_init(outbuf *o)
{
    size_t bytes = satbox_chain_bytes(RB_DOF, RB_LINKS);
    satbox_chain ch;
    o->rc = satbox_chain_init(&ch, take(o, bytes), bytes, pl.joints, RB_DOF, pl.links, RB_LINKS);
    double *e = take(o, 4 * sizeof(double)); /* the bounds and tolerances (the struct's pointer differs) */
    e[0] = ch.err_center, e[1] = ch.err_axis, e[2] = ch.tol_rel, e[3] = ch.tol_abs;
}
static void c_chain_poses(outbuf *o)
{
    static satbox_boxes_out out[RB_LINKS]; /* static: not in the measured frame */
    for (int l = 0; l < RB_LINKS; l++)
        out[l] = boxes_out(o);
    o->rc = satbox_chain_poses(&pl.chain, pl.q, RB_DOF, NPAIRS, out);
}
static void c_chain_work_bytes(outbuf *o) { o->rc = (ptrdiff_t)satbox_chain_work_bytes(&pl.chain); }
static void c_chain_configs(outbuf *o)
{
    o->rc = satbox_chain_configs(&pl.world, &pl.chain, pl.self, pl.nself, pl.q, RB_DOF, NPAIRS,
                                 SATBOX_PLAN_CONSERVATIVE, take_u8(o), pl_work, pl.work_bytes);
}
static void c_chain_motion(outbuf *o)
{
    o->rc = satbox_chain_motion(&pl.world, &pl.chain, pl.self, pl.nself, pl.q0, pl.q1, NPAIRS, 0, pl_work,
                                pl.work_bytes);
}

typedef struct small_case {
    const char *name; /* the public function it calls */
    void (*run)(outbuf *o);
} small_case;

/* A pair source's cases: its overlap, collide and (with a contacts form) contacts and
 * contacts_stream (overlap_<NAME>, ...), and their rows, named "satbox_<function>" and the
 * source's suffix as satbox.h declares them. */
#define SS_SRC_CASES(name, label, kind, quat, contacts)                                          \
    static void overlap_##name(outbuf *o) { s_overlap(o, SBX_SRC_##name); }                      \
    static void collide_##name(outbuf *o) { s_collide(o, SBX_SRC_##name); }                      \
    SBX_WHEN_##contacts(static void contacts_##name(outbuf *o) { s_contacts(o, SBX_SRC_##name); } \
                        static void contacts_stream_##name(outbuf *o) { s_contacts_stream(o, SBX_SRC_##name); })
SBX_SOURCES(SS_SRC_CASES)
#define SS_SRC2D_CASES(name, label, a_rect, b_rect, pool, prep)                 \
    static void overlap2d_##name(outbuf *o) { s2_overlap(o, SBX2D_##name); } \
    static void collide2d_##name(outbuf *o) { s2_collide(o, SBX2D_##name); } \
    static void contacts2d_##name(outbuf *o) { s2_contacts(o, SBX2D_##name); }
SBX_SOURCES2D(SS_SRC2D_CASES)
#define SS_SRC_ROWS(name, label, kind, quat, contacts)                                           \
    {"satbox_overlap" TB_API_APPLY(TB_API_SFX, TB_API_##name), overlap_##name},                  \
    {"satbox_collide" TB_API_APPLY(TB_API_SFX, TB_API_##name), collide_##name},                  \
    SBX_WHEN_##contacts({"satbox_contacts" TB_API_APPLY(TB_API_SFX, TB_API_##name), contacts_##name}, \
                        {"satbox_contacts_stream" TB_API_APPLY(TB_API_SFX, TB_API_##name), contacts_stream_##name},)
#define SS_NAME2D(fn, name) \
    "satbox2d_" TB_API_APPLY(TB_API2D_PRE, TB_API2D_##name) #fn TB_API_APPLY(TB_API2D_SFX, TB_API2D_##name)
#define SS_SRC2D_ROWS(name, label, a_rect, b_rect, pool, prep)                                          \
    {SS_NAME2D(overlap, name), overlap2d_##name}, {SS_NAME2D(collide, name), collide2d_##name}, \
        {SS_NAME2D(contacts, name), contacts2d_##name},

static const small_case cases[] = {
    SBX_SOURCES(SS_SRC_ROWS)
    {"satbox_aabb", c_aabb}, {"satbox_aabb_q", c_aabb_q}, {"satbox_axes_from_quat", c_axes_from_quat},
    {"satbox_pack", c_pack}, {"satbox_pack_rec", c_pack_rec}, {"satbox_validate", c_validate},
    {"satbox_checked_active", c_checked_active},
    {"satbox_isa_active", c_isa_active}, {"satbox_isa_supported", c_isa_supported},
    {"satbox_isa_force", c_isa_force}, {"satbox_isa_cap", c_isa_cap}, {"satbox_isa_name", c_isa_name},
    {"satbox_isa_from_name", c_isa_from_name}, {"satbox_isa_width", c_isa_width}, {"satbox_version", c_version},
    {"satbox_strerror", c_strerror},
    SBX_SOURCES2D(SS_SRC2D_ROWS)
    {"satbox2d_poly_prepare", c2_poly_prepare},
    {"satbox_world_bytes", c_world_bytes}, {"satbox_world_init", c_world_init}, {"satbox_configs", c_configs},
    {"satbox_motion", c_motion}, {"satbox_chain_bytes", c_chain_bytes}, {"satbox_chain_init", c_chain_init},
    {"satbox_chain_poses", c_chain_poses}, {"satbox_chain_work_bytes", c_chain_work_bytes},
    {"satbox_chain_configs", c_chain_configs}, {"satbox_chain_motion", c_chain_motion},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Declared in the headers but not exported by the library yet (being written): --coverage fails
 * as soon as one of them is exported, so that it gets its case above. None today. */
static const char *const pending_names[] = {NULL}; /* NULL-terminated */

/* ---- the small thread --------------------------------------------------------------------- */

typedef struct thread_run {
    const small_case *c;
    outbuf *out;
    int measure;   /* paint and scan the stack (not under valgrind) */
    size_t usable; /* bytes between the lowest stack address and the caller's frame */
    size_t peak;   /* bytes of it the call used (0 when not measured) */
} thread_run;

/* Fills [lo, hi) with PAINT. Not inlined, and through a volatile pointer: the stores must happen. */
__attribute__((noinline)) static void paint(unsigned char *lo, unsigned char *hi)
{
    volatile unsigned char *p = lo;
    for (; p < hi; p++)
        *p = PAINT;
}

static void *small_main(void *arg)
{
    thread_run *t = (thread_run *)arg;
    pthread_attr_t attr;
    void *lo_v = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &lo_v, &size);
        pthread_attr_destroy(&attr);
    }
    unsigned char *lo = (unsigned char *)lo_v, *frame = (unsigned char *)__builtin_frame_address(0);
    t->usable = lo ? (size_t)(frame - lo) : 0;
    /* The painted area ends 512 bytes below this frame: this function's locals and paint()'s
     * frame (a return address and its red zone) lie above it; the 512 bytes count as used. */
    unsigned char *top = frame - 512;
    if (t->measure && lo)
        paint(lo, top);
    t->c->run(t->out);
    if (t->measure && lo) {
        volatile unsigned char *p = lo;
        while (p < top && *p == PAINT)
            p++;
        t->peak = (size_t)(frame - (unsigned char *)p);
    }
    return NULL;
}

/* In a forked child: the case on the main thread and on a thread of `stack` bytes; prints one
 * line and returns the child's exit code (0 pass, 1 differing outputs or over the budget). */
static int child_run(const small_case *c, size_t stack, int measure)
{
    static outbuf ref, got;
    memset(ref.mem, 0x5C, sizeof ref.mem);
    memset(got.mem, 0x5C, sizeof got.mem);
    ref.used = got.used = 0;
    c->run(&ref);
    thread_run t = {.c = c, .out = &got, .measure = measure};
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, stack) ||
        pthread_create(&th, &attr, small_main, &t) || pthread_join(th, NULL)) {
        printf("  %-30s cannot create a thread of %zu bytes\n", c->name, stack);
        return 1;
    }
    pthread_attr_destroy(&attr);
    int same = ref.rc == got.rc && ref.used == got.used && memcmp(ref.mem, got.mem, ref.used) == 0;
    int over = measure && t.peak > SMALL_STACK_BUDGET;
    if (measure)
        printf("  %-30s peak %6zu of %6zu usable  rc %6td  %s\n", c->name, t.peak, t.usable, got.rc,
               !same ? "FAIL: outputs differ from the main thread's" : over ? "FAIL: over the budget" : "ok");
    else
        printf("  %-30s (not measured)      rc %6td  %s\n", c->name, got.rc,
               same ? "ok" : "FAIL: outputs differ from the main thread's");
    return same && !over ? 0 : 1;
}

static int run_all(size_t stack, int measure)
{
    int failed = 0;
    pthread_attr_t attr;
    int e = pthread_attr_init(&attr);
    if (!e) {
        e = pthread_attr_setstacksize(&attr, stack);
        pthread_attr_destroy(&attr);
    }
    if (e) {
        /* AArch64 glibc: PTHREAD_STACK_MIN is 128 KiB. The run at that size still checks every
         * call against the budget, which is what a 16 KiB fiber stack needs. */
        printf("thread stack %zu bytes: not allowed here (%s); see the run at PTHREAD_STACK_MIN\n", stack,
               strerror(e));
        return 0;
    }
    printf("thread stack %zu bytes (budget per call %d bytes)\n", stack, SMALL_STACK_BUDGET);
    for (size_t i = 0; i < NCASES; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            int code = child_run(&cases[i], stack, measure);
            fflush(stdout);
            _exit(code);
        }
        int st = 0;
        if (waitpid(pid, &st, 0) < 0) {
            perror("waitpid");
            return 1;
        }
        if (WIFSIGNALED(st)) {
            printf("  %-30s FAIL: killed by signal %d (%s) on the %zu-byte thread\n", cases[i].name, WTERMSIG(st),
                   strsignal(WTERMSIG(st)), stack);
            failed++;
        } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            failed++;
        }
    }
    return failed;
}

/* ---- --coverage: every declared function has a case ------------------------------------------ */

static unsigned char declared_case[NCASES]; /* the case's name is declared in a header */

static int covered(const char *name)
{
    for (size_t i = 0; i < NCASES; i++)
        if (!strcmp(cases[i].name, name))
            return declared_case[i] = 1;
    return 0;
}

static int pending(const char *name)
{
    for (size_t i = 0; pending_names[i]; i++)
        if (!strcmp(pending_names[i], name))
            return 1;
    return 0;
}

/* Every "SATBOX_API <type> <name>(" of the header; returns the number of problems. */
static int check_header(const char *path, int *declared)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("cannot open %s\n", path);
        return 1;
    }
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    int problems = 0;
    for (char *p = strstr(text, "SATBOX_API "); p; p = strstr(p + 1, "SATBOX_API ")) {
        if (p > text && p[-1] != '\n') /* the macro's own definition lines */
            continue;
        char *paren = strchr(p, '(');
        if (!paren)
            break;
        char *e = paren, *s;
        while (e > p && e[-1] == ' ')
            e--;
        for (s = e; s > p && (s[-1] == '_' || (s[-1] >= 'a' && s[-1] <= 'z') || (s[-1] >= '0' && s[-1] <= '9')); s--)
            ;
        char name[128];
        size_t n = (size_t)(e - s) < sizeof name - 1 ? (size_t)(e - s) : sizeof name - 1;
        memcpy(name, s, n);
        name[n] = 0;
        (*declared)++;
        int exported = dlsym(RTLD_DEFAULT, name) != NULL;
        if (covered(name)) {
            if (!exported) {
                printf("  %s: has a case but the library does not export it\n", name);
                problems++;
            }
        } else if (pending(name)) {
            if (exported) {
                printf("  %s: exported now: give it a case in tests/hardening/test_small_stack.c"
                       " and drop it from pending_names\n",
                       name);
                problems++;
            } else {
                printf("  %s: declared, not exported yet (pending)\n", name);
            }
        } else {
            printf("  %s: declared in %s but has no case in tests/hardening/test_small_stack.c\n", name, path);
            problems++;
        }
    }
    return problems;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--coverage")) {
        int problems = 0, declared = 0;
        for (int i = 2; i < argc; i++)
            problems += check_header(argv[i], &declared);
        for (size_t i = 0; i < NCASES; i++)
            if (!declared_case[i]) { /* a case made under a wrong name covers nothing */
                printf("  %s: a case, but no header declares it\n", cases[i].name);
                problems++;
            }
        size_t npending = 0;
        while (pending_names[npending])
            npending++;
        printf("%d functions declared, %zu with a case, %zu pending; %d problems\n", declared, NCASES, npending,
               problems);
        return problems || declared == 0 ? 1 : 0;
    }
#if defined(SS_SANITIZER)
    printf("SKIP: built with a sanitizer, whose stack redzones and instrumentation enlarge every frame; the "
           "stack budget holds for the release build\n");
    return 77;
#elif !defined(SMALL_STACK_O3)
    printf("SKIP: kernels not built at -O3 (an optimization level chosen for debugging, 1 or s): the stack budget "
           "holds for -O3, which satbox's build gives the kernels at every other level\n");
    return 77;
#else
    tb_require_isa(); /* exit 77 when SATBOX_ISA names a path this machine lacks */
    printf("path: %s, %d pairs a call\n", satbox_isa_name(satbox_isa_active()), NPAIRS);
    inputs_make();
    jobs_make();
    jobs2d_make();
    planner_make();
    int measure = !UNDER_VALGRIND();
    int failed = run_all(SMALL_STACK, measure);
    long min_stack = sysconf(_SC_THREAD_STACK_MIN);
    if (min_stack < PTHREAD_STACK_MIN)
        min_stack = PTHREAD_STACK_MIN;
    if (min_stack > SMALL_STACK)
        failed += run_all((size_t)min_stack, measure);
    else
        printf("PTHREAD_STACK_MIN %ld (sysconf %ld) is not larger than %d: no second run\n", (long)PTHREAD_STACK_MIN,
               sysconf(_SC_THREAD_STACK_MIN), SMALL_STACK);
    printf("%s: %d of %zu entry points failed\n", failed ? "FAIL" : "PASS", failed, NCASES);
    return failed ? 1 : 0;
#endif
}

/* api_planner.c - the planner entry points: the world in the caller's memory, the configuration and motion queries (argument checks, then the active path). */
/* SPDX-License-Identifier: MIT */
#include "planner/planner.h"
#include "box3d/box3d.h"

#include <math.h>
#include <string.h>

/* Floats from one world row to the next: m rounded up to 16 (the widest step), so that a step
 * reads whole vectors of obstacles. */
static size_t world_stride(size_t m) { return (m + 15u) & ~(size_t)15u; }

size_t satbox_world_bytes(size_t m)
{
    if (m > SATBOX_PLAN_MAX_OBSTACLES)
        return 0;
    return world_stride(m) * SBX_WR_ROWS * sizeof(float) + 64u; /* + 64: the rows start 64-byte aligned */
}

ptrdiff_t satbox_world_init(satbox_world *world, void *mem, size_t bytes, const satbox_boxes *obstacles, size_t m)
{
    if (!world || !mem)
        return SATBOX_ERR_NULL;
    if (m > SATBOX_PLAN_MAX_OBSTACLES)
        return SATBOX_ERR_COUNT;
    sbx_spans s = {.nin = 0};
    int e = m ? sbx_check_boxes(obstacles, m, &s) : SATBOX_OK;
    if (e)
        return e;
    if (bytes < satbox_world_bytes(m))
        return SATBOX_ERR_ARG;
    sbx_add_out(&s, mem, bytes);
    sbx_add_out(&s, world, sizeof *world);
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < m; i++)
        if (!sbx_box_ok(obstacles, i))
            return SATBOX_ERR_ARG;
    float *rows = (float *)(((uintptr_t)mem + 63u) & ~(uintptr_t)63u);
    size_t stride = world_stride(m);
    sbx_world_rows(rows, stride, obstacles, m);
    *world = (satbox_world){.n = m, .rows = rows, .stride = stride};
    return (ptrdiff_t)m;
}

/* 1 when [lo, hi) meets the `bytes` bytes at p. */
static int meets(uintptr_t lo, uintptr_t hi, const void *p, size_t bytes)
{
    return p && bytes && lo < (uintptr_t)p + bytes && (uintptr_t)p < hi;
}

/* The world and the self pairs of a query over nlinks link boxes: 0, or SATBOX_ERR_NULL (self
 * missing, a world without rows), SATBOX_ERR_INDEX (a self pair names a link >= nlinks). Shared by
 * the pose queries (plan_check) and the chain queries (chain_query_check). */
static int world_self_check(const satbox_world *world, const satbox_pair *self, size_t nself, size_t nlinks)
{
    if ((nself && !self) || (world && world->n && !world->rows))
        return SATBOX_ERR_NULL;
    for (size_t p = 0; p < nself; p++)
        if (self[p].a >= nlinks || self[p].b >= nlinks)
            return SATBOX_ERR_INDEX;
    return SATBOX_OK;
}

/* The checks of both queries: 1 nothing to do (k = 0), 0 run, else the error. The link arrays are
 * checked one by one (a robot may have more than the span table holds), `out` against each. */
static SBX_NOINLINE int plan_check(const sbx_pjob *job, unsigned allowed)
{
    if (job->k == 0)
        return 1;
    if (job->k > SATBOX_MAX_COUNT || job->nlinks > SATBOX_PLAN_MAX_LINKS)
        return SATBOX_ERR_COUNT;
    if (job->flags & ~allowed)
        return SATBOX_ERR_ARG;
    if (job->nlinks && !job->links)
        return SATBOX_ERR_NULL;
    int e = world_self_check(job->world, job->self, job->nself, job->nlinks);
    if (e)
        return e;
    /* each link's 15 arrays: present, and apart from `out` (without a span table per link: a
     * one-configuration call must not pay more for its checks than for its answer) */
    uintptr_t olo = (uintptr_t)job->out, ohi = olo + job->k;
    size_t bytes = job->k * sizeof(float);
    for (size_t l = 0; l < job->nlinks; l++) {
        const satbox_boxes *b = &job->links[l];
        const float *a[15] = {b->center[0], b->center[1], b->center[2], b->half[0], b->half[1], b->half[2]};
        for (int q = 0; q < 9; q++)
            a[6 + q] = b->axis[q / 3][q % 3];
        for (int q = 0; q < 15; q++) {
            if (!a[q])
                return SATBOX_ERR_NULL;
            if (job->out && meets(olo, ohi, a[q], bytes))
                return SATBOX_ERR_ALIAS;
        }
    }
    if (job->out && (meets(olo, ohi, job->links, job->nlinks * sizeof *job->links) ||
                     meets(olo, ohi, job->self, job->nself * sizeof *job->self) ||
                     (job->world && meets(olo, ohi, job->world->rows, job->world->stride * SBX_WR_ROWS * sizeof(float)))))
        return SATBOX_ERR_ALIAS;
    return SATBOX_OK;
}

ptrdiff_t satbox_configs(const satbox_world *world, const satbox_boxes *links, size_t nlinks, const satbox_pair *self,
                         size_t nself, size_t k, unsigned flags, uint8_t *out)
{
    sbx_pjob job = {world, links, nlinks, self, nself, k, flags, out, SATBOX_PLAN_REL, 0.0f, 0};
    if (k && !out)
        return SATBOX_ERR_NULL;
    int e = plan_check(&job, SATBOX_PLAN_CONSERVATIVE);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_active()->configs(&job);
}

ptrdiff_t satbox_motion(const satbox_world *world, const satbox_boxes *links, size_t nlinks, const satbox_pair *self,
                        size_t nself, size_t k, unsigned flags)
{
    sbx_pjob job = {world, links, nlinks, self, nself, k, flags, NULL, SATBOX_PLAN_REL, 0.0f, 0};
    int e = plan_check(&job, SATBOX_PLAN_CONSERVATIVE | SATBOX_PLAN_ANY);
    if (e)
        return e > 0 ? 0 : e;
    return sbx_active()->configs(&job);
}

/* ---- the chain: forward kinematics in lanes ---- */

static size_t chain_floats(size_t nj, size_t nl) { return nj * SBX_CJ_ROWS + nl * SBX_CL_ROWS; }

/* The start of a caller's block, 64-byte aligned. */
static void *aligned64(void *mem) { return (void *)(((uintptr_t)mem + 63u) & ~(uintptr_t)63u); }

size_t satbox_chain_bytes(size_t njoints, size_t nlinks)
{
    if (njoints > SATBOX_CHAIN_MAX_JOINTS || nlinks > SATBOX_PLAN_MAX_LINKS)
        return 0;
    return chain_floats(njoints, nlinks) * sizeof(float) + 64u;
}

ptrdiff_t satbox_chain_init(satbox_chain *chain, void *mem, size_t bytes, const satbox_joint *joints, size_t njoints,
                            const satbox_link *links, size_t nlinks)
{
    if (!chain || !mem || !links || (njoints && !joints))
        return SATBOX_ERR_NULL;
    if (njoints > SATBOX_CHAIN_MAX_JOINTS || nlinks == 0 || nlinks > SATBOX_PLAN_MAX_LINKS)
        return SATBOX_ERR_COUNT;
    if (bytes < satbox_chain_bytes(njoints, nlinks))
        return SATBOX_ERR_ARG;
    sbx_spans s = {.nin = 0};
    sbx_add_in(&s, joints, njoints * sizeof *joints);
    sbx_add_in(&s, links, nlinks * sizeof *links);
    sbx_add_out(&s, mem, bytes);
    sbx_add_out(&s, chain, sizeof *chain);
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    int e = sbx_chain_build(chain, aligned64(mem), joints, njoints, links, nlinks);
    return e ? e : (ptrdiff_t)nlinks;
}

/* The work of the chain queries: nlinks descriptors (written and read views), the joint values of
 * a block (joint-major, SBX_CHAIN_BLOCK a joint) and two blocks of link boxes (15 arrays of
 * SBX_CHAIN_BLOCK per link): the FK's, and the same sorted (run_block()). */
size_t satbox_chain_work_bytes(const satbox_chain *chain)
{
    if (!chain)
        return 0;
    return chain->nlinks * (sizeof(satbox_boxes_out) + 2u * sizeof(satbox_boxes)) +
           (chain->njoints + 30u * chain->nlinks) * SBX_CHAIN_BLOCK * sizeof(float) + 64u;
}

/* The floats of q that k configurations of stride qstride read. */
static size_t q_floats(const satbox_chain *chain, size_t qstride, size_t k)
{
    return (k - 1) * qstride + chain->njoints;
}

/* The checks every chain entry point shares: 1 nothing to do (k = 0), 0 run, else the error; `out`
 * is the call's output (present when k > 0). */
static int chain_check(const satbox_chain *chain, const float *q, size_t qstride, size_t k, const void *out)
{
    if (k == 0)
        return 1;
    if (!chain || !chain->data || (chain->njoints && !q) || !out)
        return SATBOX_ERR_NULL;
    if (k > SATBOX_MAX_COUNT || chain->nlinks == 0 || chain->nlinks > SATBOX_PLAN_MAX_LINKS ||
        chain->njoints > SATBOX_CHAIN_MAX_JOINTS)
        return SATBOX_ERR_COUNT;
    /* the joint values read, (k - 1) qstride + njoints floats, must be an object's size */
    if (qstride < chain->njoints ||
        (k > 1 && qstride > (PTRDIFF_MAX / sizeof(float) - chain->njoints) / (k - 1)))
        return SATBOX_ERR_ARG;
    return SATBOX_OK;
}

/* The boxes' 15 arrays of descriptor b, in order. */
static void box_arrays(const satbox_boxes_out *b, float *a[15])
{
    for (int c = 0; c < 3; c++) {
        a[c] = b->center[c];
        a[3 + c] = b->half[c];
        for (int q = 0; q < 3; q++)
            a[6 + 3 * c + q] = b->axis[c][q];
    }
}

/* The span [span_lo, span_hi) of a link's 15 output arrays of `bytes` bytes each. */
static uintptr_t span_lo(float *const a[15])
{
    uintptr_t lo = UINTPTR_MAX;
    for (int x = 0; x < 15; x++)
        lo = (uintptr_t)a[x] < lo ? (uintptr_t)a[x] : lo;
    return lo;
}
static uintptr_t span_hi(float *const a[15], size_t bytes)
{
    uintptr_t hi = 0;
    for (int x = 0; x < 15; x++)
        hi = (uintptr_t)a[x] + bytes > hi ? (uintptr_t)a[x] + bytes : hi;
    return hi;
}

ptrdiff_t satbox_chain_poses(const satbox_chain *chain, const float *q, size_t qstride, size_t k,
                             const satbox_boxes_out *links)
{
    int e = chain_check(chain, q, qstride, k, links);
    if (e)
        return e > 0 ? 0 : e;
    /* every output array present, apart from the inputs and from each other (pairwise: 15 nlinks
     * arrays, a few thousand comparisons for a robot of 8 boxes) */
    size_t bytes = k * sizeof(float);
    size_t qbytes = chain->njoints ? q_floats(chain, qstride, k) * sizeof(float) : 0;
    const float *dend = chain->data + chain_floats(chain->njoints, chain->nlinks);
    for (size_t li = 0; li < chain->nlinks; li++) {
        float *a[15];
        box_arrays(&links[li], a);
        for (int x = 0; x < 15; x++) {
            uintptr_t lo = (uintptr_t)a[x], hi = lo + bytes;
            if (!a[x])
                return SATBOX_ERR_NULL;
            if (meets(lo, hi, q, qbytes) ||
                meets(lo, hi, chain->data, (size_t)(dend - chain->data) * sizeof(float)) ||
                meets(lo, hi, links, chain->nlinks * sizeof *links) || meets(lo, hi, chain, sizeof *chain))
                return SATBOX_ERR_ALIAS;
        }
        for (size_t lj = 0; lj <= li; lj++) { /* array by array only where the links' spans meet */
            float *b[15];
            box_arrays(&links[lj], b);
            if (lj < li && !meets(span_lo(a), span_hi(a, bytes), (const void *)span_lo(b), span_hi(b, bytes) - span_lo(b)))
                continue;
            for (int x = 0; x < 15; x++)
                for (int y = 0; y < (lj < li ? 15 : x); y++)
                    if (meets((uintptr_t)a[x], (uintptr_t)a[x] + bytes, b[y], bytes))
                        return SATBOX_ERR_ALIAS;
        }
    }
    /* joint-major blocks of 16 configurations on the stack */
    float qt[SATBOX_CHAIN_MAX_JOINTS * 16];
    ptrdiff_t bad = 0;
    for (size_t i0 = 0; i0 < k; i0 += 16) {
        size_t n = k - i0 < 16 ? k - i0 : 16;
        for (size_t i = 0; i < n; i++) {
            int ok = 1;
            for (size_t j = 0; j < chain->njoints; j++) {
                float v = q[(i0 + i) * qstride + j];
                qt[j * 16 + i] = v;
                ok &= fabsf(v) <= SATBOX_CHAIN_MAX_ANGLE;
            }
            bad += !ok;
        }
        sbx_fkjob job = {chain, qt, 16, n, i0, links, 0};
        sbx_active()->chain_fk(&job);
    }
    return bad;
}

/* A chain query at work: the work (satbox_chain_work_bytes()) and the query's job. */
typedef struct chain_run {
    const sbx_path *path;
    satbox_boxes_out *w; /* the FK's block, written */
    satbox_boxes *va;    /* the FK's block, read */
    satbox_boxes *vb;    /* the sorted block, read */
    float *qt, *a, *b;   /* the joint values; the two blocks' first arrays (15 nlinks arrays each) */
    int filled;          /* the sorted block's views are set (its first use) */
    sbx_pjob job;
} chain_run;

static void run_init(chain_run *r, const satbox_world *world, const satbox_chain *chain, const satbox_pair *self,
                     size_t nself, unsigned flags, void *work)
{
    size_t nl = chain->nlinks;
    r->path = sbx_active();
    r->w = aligned64(work);
    r->va = (satbox_boxes *)(void *)(r->w + nl);
    r->vb = r->va + nl;
    r->qt = (float *)(void *)(r->vb + nl);
    r->a = r->qt + chain->njoints * SBX_CHAIN_BLOCK;
    r->b = r->a + 15u * nl * SBX_CHAIN_BLOCK;
    for (size_t l = 0; l < nl; l++) {
        float *f = r->a + 15u * l * SBX_CHAIN_BLOCK;
        for (int c = 0; c < 3; c++) {
            r->w[l].center[c] = f + (0 + c) * SBX_CHAIN_BLOCK;
            r->w[l].half[c] = f + (3 + c) * SBX_CHAIN_BLOCK;
            for (int a = 0; a < 3; a++)
                r->w[l].axis[c][a] = f + (6 + 3 * c + a) * SBX_CHAIN_BLOCK;
        }
        r->va[l] = satbox_boxes_view(&r->w[l]);
    }
    r->job = (sbx_pjob){world, r->va, nl, self, nself, 0, flags, NULL, chain->tol_rel, chain->tol_abs, 1};
    r->filled = 0;
}

/* Bits 0..9 of v spread to every third bit (a Morton code's one axis). */
static uint64_t spread3(uint64_t v)
{
    v &= 0x3ffu;
    v = (v | v << 16) & 0x30000ffu;
    v = (v | v << 8) & 0x300f00fu;
    v = (v | v << 4) & 0x30c30c3u;
    v = (v | v << 2) & 0x9249249u;
    return v;
}

/* The n configurations of the FK's block in the order of a Morton code (10 bits an axis) of one
 * link's center, two thirds down the chain: the steps of the query then hold configurations whose
 * links are near each other, so that the union boxes of its cull stay small. The order changes no
 * verdict (each configuration's lane decides alone). order[s] = the configuration at place s. */
static SBX_NOINLINE void block_order(const chain_run *r, const satbox_chain *chain, size_t n, uint32_t *order)
{
    uint64_t key[2][SBX_CHAIN_BLOCK];
    const satbox_boxes *v = &r->va[chain->nlinks * 2u / 3u];
    float lo[3], scale[3];
    for (int c = 0; c < 3; c++) {
        float hi = -INFINITY;
        lo[c] = INFINITY;
        for (size_t i = 0; i < n; i++) {
            float x = v->center[c][i];
            lo[c] = x < lo[c] ? x : lo[c];
            hi = x > hi ? x : hi;
        }
        scale[c] = 1023.0f / (hi - lo[c]);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t m = 0;
        for (int c = 0; c < 3; c++) {
            float t = (v->center[c][i] - lo[c]) * scale[c]; /* NaN for a bad configuration */
            uint64_t g = t >= 0.0f && t <= 1023.0f ? (uint64_t)t : 0u;
            m |= spread3(g) << c;
        }
        key[0][i] = m << 32 | i;
    }
    /* least significant digit first, 8 bits a pass over the 30 bits of the code (bits 32 .. 61) */
    int from = 0;
    for (int shift = 32; shift < 62; shift += 8, from ^= 1) {
        uint32_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[key[from][i] >> shift & 0xffu]++;
        for (uint32_t d = 0, sum = 0; d < 256; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            key[from ^ 1][count[key[from][i] >> shift & 0xffu]++] = key[from][i];
    }
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)key[from][i];
}

/* The lane FK of the n configurations in r->qt, then the query: out[0 .. n-1]. A block of
 * configurations against a world is queried in block_order(): its boxes copied to the second block
 * in that order, the verdicts put back. */
static SBX_NOINLINE ptrdiff_t run_block(chain_run *r, const satbox_chain *chain, size_t n, uint8_t *out)
{
    for (size_t j = 0; j < chain->njoints; j++) /* whole vectors: the lanes past n at q = 0 */
        for (size_t i = n; i < ((n + 15u) & ~(size_t)15u); i++)
            r->qt[j * SBX_CHAIN_BLOCK + i] = 0.0f;
    sbx_fkjob fk = {chain, r->qt, SBX_CHAIN_BLOCK, n, 0, r->w, 1};
    r->path->chain_fk(&fk);
    r->job.k = n;
    if (n < 32u || !r->job.world || !r->job.world->n) {
        r->job.links = r->va;
        r->job.out = out;
        return r->path->configs(&r->job);
    }
    uint32_t order[SBX_CHAIN_BLOCK];
    uint8_t v[SBX_CHAIN_BLOCK];
    if (!r->filled)
        for (size_t l = 0; l < chain->nlinks; l++) { /* the second block's arrays */
            satbox_boxes *d = &r->vb[l];
            *d = r->va[l];
            for (int c = 0; c < 3; c++) {
                d->center[c] += r->b - r->a;
                d->half[c] += r->b - r->a;
                for (int a = 0; a < 3; a++)
                    d->axis[c][a] += r->b - r->a;
            }
        }
    r->filled = 1;
    block_order(r, chain, n, order);
    size_t nw = (n + 15u) & ~(size_t)15u; /* whole vectors (job.whole): the places past n repeat the first */
    for (size_t i = n; i < nw; i++)
        order[i] = order[0];
    for (size_t l = 0; l < chain->nlinks; l++) {
        const float *src = r->a + 15u * l * SBX_CHAIN_BLOCK;
        float *dst = r->b + 15u * l * SBX_CHAIN_BLOCK;
        for (size_t i = 0; i < nw; i++) {
            const float *o = src + order[i];
            for (int x = 0; x < 15; x++)
                if (x < 3 || x >= 6) /* the half extents: the link's own, in every configuration */
                    dst[x * SBX_CHAIN_BLOCK + i] = o[x * SBX_CHAIN_BLOCK];
        }
        for (int x = 3; x < 6; x++)
            memcpy(dst + x * SBX_CHAIN_BLOCK, src + x * SBX_CHAIN_BLOCK, nw * sizeof(float));
    }
    r->job.links = r->vb;
    r->job.out = v;
    ptrdiff_t count = r->path->configs(&r->job);
    for (size_t i = 0; i < n; i++)
        out[order[i]] = v[i];
    return count;
}

/* The checks of both chain queries (beyond chain_check): 1 nothing to do, 0 run, else the error. */
static int chain_query_check(const satbox_world *world, const satbox_chain *chain, const satbox_pair *self,
                             size_t nself, unsigned flags, unsigned allowed, void *work, size_t work_bytes,
                             sbx_spans *s)
{
    if (!work)
        return SATBOX_ERR_NULL;
    if (flags & ~allowed)
        return SATBOX_ERR_ARG;
    if (work_bytes < satbox_chain_work_bytes(chain))
        return SATBOX_ERR_ARG;
    int e = world_self_check(world, self, nself, chain->nlinks);
    if (e)
        return e;
    sbx_add_in(s, chain->data, chain_floats(chain->njoints, chain->nlinks) * sizeof(float));
    sbx_add_in(s, chain, sizeof *chain);
    sbx_add_in(s, self, nself * sizeof *self);
    if (world) {
        sbx_add_in(s, world, sizeof *world);
        sbx_add_in(s, world->rows, world->stride * SBX_WR_ROWS * sizeof(float));
    }
    sbx_add_out(s, work, work_bytes);
    return sbx_aliased(s) ? SATBOX_ERR_ALIAS : SATBOX_OK;
}

ptrdiff_t satbox_chain_configs(const satbox_world *world, const satbox_chain *chain, const satbox_pair *self,
                               size_t nself, const float *q, size_t qstride, size_t k, unsigned flags, uint8_t *out,
                               void *work, size_t work_bytes)
{
    int e = chain_check(chain, q, qstride, k, out);
    if (e)
        return e > 0 ? 0 : e;
    sbx_spans s = {.nin = 0};
    if (chain->njoints)
        sbx_add_in(&s, q, q_floats(chain, qstride, k) * sizeof(float));
    sbx_add_out(&s, out, k);
    e = chain_query_check(world, chain, self, nself, flags, SATBOX_PLAN_CONSERVATIVE, work, work_bytes, &s);
    if (e)
        return e;
    chain_run r;
    run_init(&r, world, chain, self, nself, flags, work);
    ptrdiff_t count = 0;
    for (size_t i0 = 0; i0 < k; i0 += SBX_CHAIN_BLOCK) {
        size_t n = k - i0 < SBX_CHAIN_BLOCK ? k - i0 : SBX_CHAIN_BLOCK;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < chain->njoints; j++)
                r.qt[j * SBX_CHAIN_BLOCK + i] = q[(i0 + i) * qstride + j];
        count += run_block(&r, chain, n, out + i0);
    }
    return count;
}

ptrdiff_t satbox_chain_motion(const satbox_world *world, const satbox_chain *chain, const satbox_pair *self,
                              size_t nself, const float *q0, const float *q1, size_t k, unsigned flags, void *work,
                              size_t work_bytes)
{
    int e = chain_check(chain, q0, chain ? chain->njoints : 0, k, work);
    if (e)
        return e > 0 ? 0 : e;
    if (chain->njoints && !q1)
        return SATBOX_ERR_NULL;
    sbx_spans s = {.nin = 0};
    sbx_add_in(&s, q0, chain->njoints * sizeof(float));
    sbx_add_in(&s, q1, chain->njoints * sizeof(float));
    e = chain_query_check(world, chain, self, nself, flags, SATBOX_PLAN_CONSERVATIVE | SATBOX_PLAN_ANY, work,
                          work_bytes, &s);
    if (e)
        return e;
    chain_run r;
    run_init(&r, world, chain, self, nself, flags & SATBOX_PLAN_CONSERVATIVE, work);
    size_t V = (k + SATBOX_PLAN_ROUND - 1) / SATBOX_PLAN_ROUND, best = k;
    float fk_ = (float)k;
    for (size_t v = 0; v < V; v++) {
        size_t state[SATBOX_PLAN_ROUND], n = 0;
        for (size_t j = 0; j < SATBOX_PLAN_ROUND; j++) {
            size_t st = sbx_motion_state(v, j, V);
            if (st >= best)
                continue;
            float t = (float)(st + 1) / fk_;
            for (size_t d = 0; d < chain->njoints; d++)
                r.qt[d * SBX_CHAIN_BLOCK + n] = (1.0f - t) * q0[d] + t * q1[d];
            state[n++] = st;
        }
        uint8_t verdict[SATBOX_PLAN_ROUND];
        if (n && run_block(&r, chain, n, verdict))
            for (size_t i = 0; i < n; i++)
                if (verdict[i] != SATBOX_FREE && state[i] < best)
                    best = state[i];
        if ((flags & SATBOX_PLAN_ANY) && best < k)
            break;
    }
    return (ptrdiff_t)best;
}

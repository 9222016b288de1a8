/* dispatch.c - ISA choice (once, thread-safe), ISA query/cap, argument checks and the public entry points. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

_Static_assert(sizeof(satbox_rec) == 64, "satbox_rec must be one 64-byte cache line");

/* ---- kernel tables ------------------------------------------------------------------------ */

const sbx_kernels *sbx_kernels_for(satbox_isa isa)
{
    switch (isa) {
    case SATBOX_ISA_SCALAR: return &sbx_kernels_scalar;
#if defined(SATBOX_HAVE_SSE41)
    case SATBOX_ISA_SSE41: return &sbx_kernels_sse41;
#endif
#if defined(SATBOX_HAVE_AVX2)
    case SATBOX_ISA_AVX2: return &sbx_kernels_avx2;
#endif
#if defined(SATBOX_HAVE_AVX512)
    case SATBOX_ISA_AVX512: return &sbx_kernels_avx512;
#endif
#if defined(SATBOX_HAVE_NEON)
    case SATBOX_ISA_NEON: return &sbx_kernels_neon;
#endif
    default: return NULL;
    }
}

/* Paths in order of preference, widest first. NEON ranks with SSE4.1 (4 lanes). */
static const satbox_isa ladder[] = {SATBOX_ISA_AVX512, SATBOX_ISA_AVX2, SATBOX_ISA_NEON, SATBOX_ISA_SSE41,
                                    SATBOX_ISA_SCALAR};

static int rank(satbox_isa isa)
{
    switch (isa) {
    case SATBOX_ISA_SCALAR: return 0;
    case SATBOX_ISA_SSE41:
    case SATBOX_ISA_NEON: return 1;
    case SATBOX_ISA_AVX2: return 2;
    case SATBOX_ISA_AVX512: return 3;
    default: return -1;
    }
}

unsigned satbox_isa_supported(void)
{
    unsigned cpu = sbx_cpu_paths(), mask = 0;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if ((cpu >> i & 1u) && sbx_kernels_for((satbox_isa)i))
            mask |= 1u << i;
    return mask;
}

static satbox_isa widest_upto(int max_rank)
{
    unsigned sup = satbox_isa_supported();
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++)
        if ((sup >> ladder[i] & 1u) && rank(ladder[i]) <= max_rank)
            return ladder[i];
    return SATBOX_ISA_SCALAR;
}

/* The one piece of global state: the active path, published atomically. -1 = not chosen yet.
 * Racing first calls compute the same default and only the first store wins. */
static _Atomic int active_isa = -1;

static satbox_isa choose_default(void)
{
    int max_rank = 3;
    const char *env = getenv("SATBOX_ISA");
    if (env && *env) {
        int want = satbox_isa_from_name(env);
        if (want >= 0)
            max_rank = rank((satbox_isa)want);
    }
    return widest_upto(max_rank);
}

satbox_isa satbox_isa_active(void)
{
    int cur = atomic_load_explicit(&active_isa, memory_order_acquire);
    if (cur < 0) {
        int expected = -1, def = (int)choose_default();
        if (atomic_compare_exchange_strong(&active_isa, &expected, def))
            cur = def;
        else
            cur = expected;
    }
    return (satbox_isa)cur;
}

const sbx_kernels *sbx_active(void) { return sbx_kernels_for(satbox_isa_active()); }

int satbox_isa_force(satbox_isa isa)
{
    if (rank(isa) < 0)
        return SATBOX_ERR_ARG;
    if (!(satbox_isa_supported() >> isa & 1u))
        return SATBOX_ERR_UNSUPPORTED;
    atomic_store_explicit(&active_isa, (int)isa, memory_order_release);
    return SATBOX_OK;
}

int satbox_isa_cap(satbox_isa isa)
{
    int r = rank(isa);
    if (r < 0)
        return SATBOX_ERR_ARG;
    satbox_isa pick = widest_upto(r);
    atomic_store_explicit(&active_isa, (int)pick, memory_order_release);
    return (int)pick;
}

static const char *const isa_names[SATBOX_ISA_COUNT] = {"scalar", "sse41", "avx2", "avx512", "neon"};

const char *satbox_isa_name(satbox_isa isa) { return rank(isa) < 0 ? NULL : isa_names[isa]; }

int satbox_isa_from_name(const char *name)
{
    if (!name)
        return SATBOX_ERR_ARG;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if (strcmp(name, isa_names[i]) == 0)
            return i;
    return SATBOX_ERR_ARG;
}

int satbox_isa_width(satbox_isa isa)
{
    static const int widths[SATBOX_ISA_COUNT] = {1, 4, 8, 16, 4};
    return rank(isa) < 0 ? 0 : widths[isa];
}

const char *satbox_version(void) { return "0.1.0"; }

const char *satbox_strerror(int code)
{
    switch (code) {
    case SATBOX_OK: return "success";
    case SATBOX_ERR_NULL: return "a required pointer is NULL";
    case SATBOX_ERR_COUNT: return "count exceeds SATBOX_MAX_COUNT";
    case SATBOX_ERR_INDEX: return "a pair index is outside the pool";
    case SATBOX_ERR_ARG: return "invalid argument";
    case SATBOX_ERR_ALIAS: return "an output array overlaps an input or another output";
    case SATBOX_ERR_UNSUPPORTED: return "ISA path not available on this build or CPU";
    default: return code >= 0 ? "success" : "unknown error";
    }
}

/* ---- argument checks ---------------------------------------------------------------------- */

/* Memory ranges of a call's inputs and outputs, to reject outputs that overlap anything. */
typedef struct span {
    uintptr_t lo, hi; /* [lo, hi) */
} span;

typedef struct spans {
    span in[40], out[16];
    int nin, nout;
} spans;

static void add_in(spans *s, const void *p, size_t bytes)
{
    if (p && bytes)
        s->in[s->nin++] = (span){(uintptr_t)p, (uintptr_t)p + bytes};
}

static void add_out(spans *s, const void *p, size_t bytes)
{
    if (p && bytes)
        s->out[s->nout++] = (span){(uintptr_t)p, (uintptr_t)p + bytes};
}

static int meets(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

static int aliased(const spans *s)
{
    for (int o = 0; o < s->nout; o++) {
        for (int i = 0; i < s->nin; i++)
            if (meets(s->out[o], s->in[i]))
                return 1;
        for (int p = o + 1; p < s->nout; p++)
            if (meets(s->out[o], s->out[p]))
                return 1;
    }
    return 0;
}

/* The 15 arrays of a matrix batch: NULL check, and recorded as inputs of `count` floats. */
static int check_boxes(const satbox_boxes *b, size_t count, spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!b->center[c] || !b->half[c])
            return SATBOX_ERR_NULL;
        add_in(s, b->center[c], count * sizeof(float));
        add_in(s, b->half[c], count * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            if (!b->axis[k][c])
                return SATBOX_ERR_NULL;
            add_in(s, b->axis[k][c], count * sizeof(float));
        }
    return SATBOX_OK;
}

static int check_qboxes(const satbox_qboxes *b, size_t count, spans *s)
{
    if (!b)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!b->center[c] || !b->half[c])
            return SATBOX_ERR_NULL;
        add_in(s, b->center[c], count * sizeof(float));
        add_in(s, b->half[c], count * sizeof(float));
    }
    for (int c = 0; c < 4; c++) {
        if (!b->quat[c])
            return SATBOX_ERR_NULL;
        add_in(s, b->quat[c], count * sizeof(float));
    }
    return SATBOX_OK;
}

static void add_result(spans *s, sbx_job *job, const satbox_result *res, size_t n)
{
    job->hit = res->hit;
    job->separation = res->separation;
    job->axis = res->axis;
    add_out(s, res->hit, n);
    add_out(s, res->separation, n * sizeof(float));
    add_out(s, res->axis, n);
    for (int c = 0; c < 3; c++) {
        job->normal[c] = res->normal[c];
        add_out(s, res->normal[c], n * sizeof(float));
    }
}

/* Pool + pairs (SoA pool, or records when `rec` is set): every index is checked before anything
 * is written. */
static int check_pool(const satbox_boxes *pool, const satbox_rec *rec, size_t pool_n, const satbox_pair *pairs,
                      size_t n, spans *s)
{
    if (pool_n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!pairs)
        return SATBOX_ERR_NULL;
    if (pool_n == 0)
        return SATBOX_ERR_INDEX; /* n > 0 pairs cannot index an empty pool */
    int e = SATBOX_OK;
    if (rec)
        add_in(s, rec, pool_n * sizeof *rec);
    else
        e = check_boxes(pool, pool_n, s);
    if (e)
        return e;
    add_in(s, pairs, n * sizeof *pairs);
    for (size_t i = 0; i < n; i++)
        if (pairs[i].a >= pool_n || pairs[i].b >= pool_n)
            return SATBOX_ERR_INDEX;
    return SATBOX_OK;
}

/* Every pair entry point: fills `job` (source and inputs already set), checks all arguments in
 * one place, then runs the active path. `res` is the collide output (NULL for overlap);
 * `pool_n` is used by the pool source only. Nothing is written unless every check passes. */
static ptrdiff_t pair_call(sbx_job *job, const satbox_result *res, int collide, size_t pool_n)
{
    size_t n = job->n;
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (collide && !isfinite(job->margin))
        return SATBOX_ERR_ARG;
    spans s = {.nin = 0};
    int e = SATBOX_OK;
    switch (job->src) {
    case SBX_SRC_MAT:
        if (!(e = check_boxes(job->ma, n, &s)))
            e = check_boxes(job->mb, n, &s);
        break;
    case SBX_SRC_QUAT:
        if (!(e = check_qboxes(job->qa, n, &s)))
            e = check_qboxes(job->qb, n, &s);
        break;
    case SBX_SRC_ONE:
        e = job->one ? check_boxes(job->mb, n, &s) : SATBOX_ERR_NULL;
        add_in(&s, job->one, sizeof *job->one);
        break;
    case SBX_SRC_POOL:
        e = check_pool(job->pool, NULL, pool_n, job->pairs, n, &s);
        break;
    case SBX_SRC_REC:
        e = job->rec ? check_pool(NULL, job->rec, pool_n, job->pairs, n, &s) : SATBOX_ERR_NULL;
        break;
    }
    if (e)
        return e;
    /* The per-pair outputs are required, except for the pool form, whose list may be enough. */
    if (collide) {
        if (res)
            add_result(&s, job, res, n);
        else if (job->src < SBX_SRC_POOL)
            return SATBOX_ERR_NULL;
    } else {
        if (!job->hit && job->src < SBX_SRC_POOL)
            return SATBOX_ERR_NULL;
        add_out(&s, job->hit, n);
    }
    add_out(&s, job->compact, n * sizeof(uint32_t));
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    const sbx_kernels *k = sbx_active();
    return collide ? k->collide(job) : k->overlap(job);
}

/* ---- pair entry points -------------------------------------------------------------------- */

ptrdiff_t satbox_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit)
{
    sbx_job job = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .hit = hit};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide(const satbox_boxes *a, const satbox_boxes *b, size_t n, float margin,
                         const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_MAT, .n = n, .ma = a, .mb = b, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, uint8_t *hit)
{
    sbx_job job = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .hit = hit};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide_q(const satbox_qboxes *a, const satbox_qboxes *b, size_t n, float margin,
                           const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_QUAT, .n = n, .qa = a, .qb = b, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_one(const satbox_box *box, const satbox_boxes *many, size_t n, uint8_t *hit)
{
    sbx_job job = {.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .hit = hit};
    return pair_call(&job, NULL, 0, 0);
}

ptrdiff_t satbox_collide_one(const satbox_box *box, const satbox_boxes *many, size_t n, float margin,
                             const satbox_result *out)
{
    sbx_job job = {.src = SBX_SRC_ONE, .n = n, .one = box, .mb = many, .margin = margin};
    return pair_call(&job, out, 1, 0);
}

ptrdiff_t satbox_overlap_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                               uint8_t *hit, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .hit = hit, .compact = out};
    return pair_call(&job, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs(const satbox_boxes *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                               float margin, const satbox_result *res, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_POOL, .n = n, .pool = pool, .pairs = pairs, .margin = margin, .compact = out};
    return pair_call(&job, res, 1, pool_n);
}

ptrdiff_t satbox_overlap_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                   uint8_t *hit, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .hit = hit, .compact = out};
    return pair_call(&job, NULL, 0, pool_n);
}

ptrdiff_t satbox_collide_pairs_rec(const satbox_rec *pool, size_t pool_n, const satbox_pair *pairs, size_t n,
                                   float margin, const satbox_result *res, uint32_t *out)
{
    sbx_job job = {.src = SBX_SRC_REC, .n = n, .rec = pool, .pairs = pairs, .margin = margin, .compact = out};
    return pair_call(&job, res, 1, pool_n);
}

/* ---- box helpers -------------------------------------------------------------------------- */

static int check_minmax(float *min[3], float *max[3], size_t n, spans *s)
{
    if (!min || !max)
        return SATBOX_ERR_NULL;
    for (int c = 0; c < 3; c++) {
        if (!min[c] || !max[c])
            return SATBOX_ERR_NULL;
        add_out(s, min[c], n * sizeof(float));
        add_out(s, max[c], n * sizeof(float));
    }
    return SATBOX_OK;
}

ptrdiff_t satbox_aabb(const satbox_boxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!isfinite(margin))
        return SATBOX_ERR_ARG;
    spans s = {.nin = 0};
    int e;
    if ((e = check_boxes(boxes, n, &s)) || (e = check_minmax(min, max, n, &s)))
        return e;
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    sbx_box_job job = {.n = n, .m = boxes, .margin = margin};
    memcpy(job.min, min, sizeof job.min);
    memcpy(job.max, max, sizeof job.max);
    return sbx_active()->aabb(&job);
}

ptrdiff_t satbox_aabb_q(const satbox_qboxes *boxes, size_t n, float margin, float *min[3], float *max[3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!isfinite(margin))
        return SATBOX_ERR_ARG;
    spans s = {.nin = 0};
    int e;
    if ((e = check_qboxes(boxes, n, &s)) || (e = check_minmax(min, max, n, &s)))
        return e;
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    sbx_box_job job = {.n = n, .q = boxes, .margin = margin};
    memcpy(job.min, min, sizeof job.min);
    memcpy(job.max, max, sizeof job.max);
    return sbx_active()->aabb(&job);
}

ptrdiff_t satbox_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!quat || !axis)
        return SATBOX_ERR_NULL;
    spans s = {.nin = 0};
    for (int c = 0; c < 4; c++) {
        if (!quat[c])
            return SATBOX_ERR_NULL;
        add_in(&s, quat[c], n * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            if (!axis[k][c])
                return SATBOX_ERR_NULL;
            add_out(&s, axis[k][c], n * sizeof(float));
        }
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    return sbx_active()->axes_from_quat(quat, n, axis);
}

ptrdiff_t satbox_pack(const satbox_box *src, size_t n, const satbox_boxes_out *dst)
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!src || !dst)
        return SATBOX_ERR_NULL;
    spans s = {.nin = 0};
    add_in(&s, src, n * sizeof *src);
    for (int c = 0; c < 3; c++) {
        if (!dst->center[c] || !dst->half[c])
            return SATBOX_ERR_NULL;
        add_out(&s, dst->center[c], n * sizeof(float));
        add_out(&s, dst->half[c], n * sizeof(float));
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            if (!dst->axis[k][c])
                return SATBOX_ERR_NULL;
            add_out(&s, dst->axis[k][c], n * sizeof(float));
        }
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            dst->center[c][i] = src[i].center[c];
            dst->half[c][i] = src[i].half[c];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                dst->axis[k][c][i] = src[i].axis[k][c];
    }
    return (ptrdiff_t)n;
}

ptrdiff_t satbox_pack_rec(const satbox_boxes *src, size_t n, satbox_rec *dst)
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!dst)
        return SATBOX_ERR_NULL;
    spans s = {.nin = 0};
    int e = check_boxes(src, n, &s);
    if (e)
        return e;
    add_out(&s, dst, n * sizeof *dst);
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            dst[i].center[c] = src->center[c][i];
            dst[i].half[c] = src->half[c][i];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                dst[i].axis[k][c] = src->axis[k][c][i];
        dst[i].pad = 0.0f;
    }
    return (ptrdiff_t)n;
}

ptrdiff_t satbox_validate(const satbox_boxes *boxes, size_t n, float tol, uint8_t *bad)
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!(tol >= 0.0f) || !isfinite(tol))
        return SATBOX_ERR_ARG;
    spans s = {.nin = 0};
    int e = check_boxes(boxes, n, &s);
    if (e)
        return e;
    add_out(&s, bad, n);
    if (aliased(&s))
        return SATBOX_ERR_ALIAS;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        satbox_box b;
        for (int c = 0; c < 3; c++) {
            b.center[c] = boxes->center[c][i];
            b.half[c] = boxes->half[c][i];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                b.axis[k][c] = boxes->axis[k][c][i];
        uint8_t code = 0;
        if (!sbx_ref_box_valid(&b)) {
            code = 1;
        } else {
            for (int k = 0; k < 3 && !code; k++)
                for (int l = k; l < 3; l++) {
                    double dot = 0;
                    for (int c = 0; c < 3; c++)
                        dot += (double)b.axis[k][c] * b.axis[l][c];
                    if (!(fabs(dot - (k == l ? 1.0 : 0.0)) <= tol))
                        code = 2;
                }
        }
        if (bad)
            bad[i] = code;
        count += code != 0;
    }
    return (ptrdiff_t)count;
}

/* sat_kernel.h - the 15-axis SAT kernel and its batch drivers, written once over wide.h. */
/* Included by each kernel_<isa>.c after it has chosen a width (SBX_WIDE_*) and a name (SBX_TABLE).
 * Every expression mirrors src/scalar.c operation for operation; see the comments there. */
#ifndef SATBOX_SAT_KERNEL_H
#define SATBOX_SAT_KERNEL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "wide.h"

#if defined(__GNUC__)
#define SBX_INLINE static inline __attribute__((always_inline))
#else
#define SBX_INLINE static inline
#endif

/* W boxes, one per lane: center, half extents, u[k][c] = component c of axis k. */
typedef struct boxw {
    wf c[3], h[3], u[3][3];
} boxw;

/* ---- box sources -------------------------------------------------------------------------- */

/* Software prefetch distance, in elements, for batches streamed from memory. The 30 input
 * arrays of a pair batch are more streams than the hardware prefetcher follows at once. */
/* Below this many pairs the batch is assumed to be in cache and nothing is prefetched. */
#ifndef SBX_PREFETCH_MIN_N
#define SBX_PREFETCH_MIN_N 32768
#endif
#ifndef SBX_PREFETCH_AHEAD
#define SBX_PREFETCH_AHEAD 512
#endif

SBX_INLINE void prefetch_mat(const satbox_boxes *s, size_t i)
{
    for (int c = 0; c < 3; c++) {
        __builtin_prefetch(s->center[c] + i + SBX_PREFETCH_AHEAD);
        __builtin_prefetch(s->half[c] + i + SBX_PREFETCH_AHEAD);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            __builtin_prefetch(s->axis[a][c] + i + SBX_PREFETCH_AHEAD);
}

SBX_INLINE void prefetch_quat(const satbox_qboxes *s, size_t i)
{
    for (int c = 0; c < 3; c++) {
        __builtin_prefetch(s->center[c] + i + SBX_PREFETCH_AHEAD);
        __builtin_prefetch(s->half[c] + i + SBX_PREFETCH_AHEAD);
    }
    for (int c = 0; c < 4; c++)
        __builtin_prefetch(s->quat[c] + i + SBX_PREFETCH_AHEAD);
}

/* Lanes [i, i + k) of a matrix SoA batch; k == W uses full loads. */
SBX_INLINE void load_mat_w(const satbox_boxes *s, size_t i, int k, boxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = k == W ? wf_loadu(s->center[c] + i) : wf_load_part(s->center[c] + i, k);
        b->h[c] = k == W ? wf_loadu(s->half[c] + i) : wf_load_part(s->half[c] + i, k);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            b->u[a][c] = k == W ? wf_loadu(s->axis[a][c] + i) : wf_load_part(s->axis[a][c] + i, k);
}

/* Quaternion -> axes, as scalar.c quat_axes(): s = 2 / |q|^2; invalid length -> NaN axes. */
SBX_INLINE void quat_axes_w(wf x, wf y, wf z, wf w, wf u[3][3])
{
    wf n2 = wf_add(wf_add(wf_add(wf_mul(x, x), wf_mul(y, y)), wf_mul(z, z)), wf_mul(w, w));
    wm ok = wm_and(wm_ge(n2, wf_set1(SBX_QUAT_MIN_NORM2)), wm_le(n2, wf_set1(SBX_QUAT_MAX_NORM2)));
    wf s = wf_div(wf_set1(2.0f), n2);
    wf xs = wf_mul(x, s), ys = wf_mul(y, s), zs = wf_mul(z, s);
    wf wx = wf_mul(w, xs), wy = wf_mul(w, ys), wz = wf_mul(w, zs);
    wf xx = wf_mul(x, xs), xy = wf_mul(x, ys), xz = wf_mul(x, zs);
    wf yy = wf_mul(y, ys), yz = wf_mul(y, zs), zz = wf_mul(z, zs);
    wf one = wf_set1(1.0f), nan = wf_set1(NAN);
    u[0][0] = wf_select(ok, wf_sub(one, wf_add(yy, zz)), nan);
    u[0][1] = wf_select(ok, wf_add(xy, wz), nan);
    u[0][2] = wf_select(ok, wf_sub(xz, wy), nan);
    u[1][0] = wf_select(ok, wf_sub(xy, wz), nan);
    u[1][1] = wf_select(ok, wf_sub(one, wf_add(xx, zz)), nan);
    u[1][2] = wf_select(ok, wf_add(yz, wx), nan);
    u[2][0] = wf_select(ok, wf_add(xz, wy), nan);
    u[2][1] = wf_select(ok, wf_sub(yz, wx), nan);
    u[2][2] = wf_select(ok, wf_sub(one, wf_add(xx, yy)), nan);
}

SBX_INLINE wf ld(const float *p, size_t i, int k) { return k == W ? wf_loadu(p + i) : wf_load_part(p + i, k); }

SBX_INLINE void load_quat_w(const satbox_qboxes *s, size_t i, int k, boxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = ld(s->center[c], i, k);
        b->h[c] = ld(s->half[c], i, k);
    }
    quat_axes_w(ld(s->quat[0], i, k), ld(s->quat[1], i, k), ld(s->quat[2], i, k), ld(s->quat[3], i, k), b->u);
}

SBX_INLINE void load_one_w(const satbox_box *s, boxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_set1(s->center[c]);
        b->h[c] = wf_set1(s->half[c]);
    }
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++)
            b->u[a][c] = wf_set1(s->axis[a][c]);
}

/* Pool boxes by index: each of the 15 fields gathered for the W lanes' indices.
 * (Lanes past k use box 0 of the pool; their results are discarded.) */
SBX_INLINE void load_pool_box_w(const satbox_boxes *pool, const int32_t *idx, boxw *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = wf_gather(pool->center[c], idx);
        b->h[c] = wf_gather(pool->half[c], idx);
    }
    for (int x = 0; x < 3; x++)
        for (int c = 0; c < 3; c++)
            b->u[x][c] = wf_gather(pool->axis[x][c], idx);
}

SBX_INLINE void load_pool_w(const satbox_boxes *pool, const satbox_pair *pairs, size_t i, int k,
                            boxw *a, boxw *b)
{
    int32_t ia[W], ib[W];
    for (int l = 0; l < W; l++) {
        ia[l] = l < k ? (int32_t)pairs[i + (size_t)l].a : 0;
        ib[l] = l < k ? (int32_t)pairs[i + (size_t)l].b : 0;
    }
    load_pool_box_w(pool, ia, a);
    load_pool_box_w(pool, ib, b);
}

/* Pool of 64-byte records: one cache line per box (wide.h loads and transposes them). */
SBX_INLINE void load_rec_box_w(const float *const *rec, boxw *b)
{
    wf f[15];
    wf_load_records(rec, f);
    for (int c = 0; c < 3; c++) {
        b->c[c] = f[c];
        b->h[c] = f[3 + c];
    }
    for (int x = 0; x < 3; x++)
        for (int c = 0; c < 3; c++)
            b->u[x][c] = f[6 + 3 * x + c];
}

SBX_INLINE void load_rec_w(const satbox_rec *pool, const satbox_pair *pairs, size_t i, int k, boxw *a, boxw *b)
{
    const float *ra[W], *rb[W];
    for (int l = 0; l < W; l++) {
        const satbox_pair p = l < k ? pairs[i + (size_t)l] : pairs[i];
        ra[l] = &pool[p.a].center[0];
        rb[l] = &pool[p.b].center[0];
    }
    load_rec_box_w(ra, a);
    load_rec_box_w(rb, b);
}

/* ---- the math ----------------------------------------------------------------------------- */

/* scalar.c box_valid(). */
SBX_INLINE wm box_valid_w(const boxw *b)
{
    wf size = wf_add(wf_add(wf_add(wf_add(wf_add(wf_abs(b->c[0]), wf_abs(b->c[1])), wf_abs(b->c[2])), b->h[0]),
                            b->h[1]),
                     b->h[2]);
    wf asum = wf_zero();
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = wf_add(asum, wf_abs(b->u[k][c]));
    wf zero = wf_zero();
    wm ok = wm_and(wm_and(wm_ge(b->h[0], zero), wm_ge(b->h[1], zero)), wm_ge(b->h[2], zero));
    ok = wm_and(ok, wm_le(size, wf_set1(SATBOX_COORD_LIMIT)));
    return wm_and(ok, wm_le(asum, wf_set1(SATBOX_AXIS_SUM_LIMIT)));
}

typedef struct axesw {
    wf g[15], proj[15], len2[15];
    wm usable[15]; /* only edge entries [6, 15) are set */
} axesw;

/* scalar.c sat_axes(). */
SBX_INLINE void sat_axes_w(const boxw *A, const boxw *B, axesw *o)
{
    wf R[3][3], AR[3][3], AE[3][3], t[3], d[3];
    wf eps = wf_set1(SATBOX_EPS);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = wf_add(wf_add(wf_mul(A->u[i][0], B->u[j][0]), wf_mul(A->u[i][1], B->u[j][1])),
                             wf_mul(A->u[i][2], B->u[j][2]));
            AR[i][j] = wf_abs(R[i][j]);
            AE[i][j] = wf_add(AR[i][j], eps);
        }
    for (int c = 0; c < 3; c++)
        d[c] = wf_sub(B->c[c], A->c[c]);
    for (int i = 0; i < 3; i++)
        t[i] = wf_add(wf_add(wf_mul(d[0], A->u[i][0]), wf_mul(d[1], A->u[i][1])), wf_mul(d[2], A->u[i][2]));

    for (int i = 0; i < 3; i++) {
        wf rb = wf_add(wf_add(wf_mul(B->h[0], AR[i][0]), wf_mul(B->h[1], AR[i][1])), wf_mul(B->h[2], AR[i][2]));
        o->proj[i] = t[i];
        o->g[i] = wf_sub(wf_abs(t[i]), wf_add(A->h[i], rb));
        o->len2[i] = wf_set1(1.0f);
    }
    for (int j = 0; j < 3; j++) {
        wf ra = wf_add(wf_add(wf_mul(A->h[0], AR[0][j]), wf_mul(A->h[1], AR[1][j])), wf_mul(A->h[2], AR[2][j]));
        wf p = wf_add(wf_add(wf_mul(t[0], R[0][j]), wf_mul(t[1], R[1][j])), wf_mul(t[2], R[2][j]));
        o->proj[3 + j] = p;
        o->g[3 + j] = wf_sub(wf_abs(p), wf_add(ra, B->h[j]));
        o->len2[3 + j] = wf_set1(1.0f);
    }
    wf minlen2 = wf_set1(SATBOX_EDGE_MIN_LEN2);
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, id = 6 + 3 * i + j;
            wf ra = wf_add(wf_mul(A->h[i1], AE[i2][j]), wf_mul(A->h[i2], AE[i1][j]));
            wf rb = wf_add(wf_mul(B->h[j1], AE[i][j2]), wf_mul(B->h[j2], AE[i][j1]));
            wf p = wf_sub(wf_mul(t[i2], R[i1][j]), wf_mul(t[i1], R[i2][j]));
            wf l2 = wf_add(wf_mul(R[i1][j], R[i1][j]), wf_mul(R[i2][j], R[i2][j]));
            o->proj[id] = p;
            o->g[id] = wf_sub(wf_abs(p), wf_add(ra, rb));
            o->len2[id] = l2;
            o->usable[id] = wm_ge(l2, minlen2);
        }
    }
}

/* scalar.c ref_overlap(): *hit = valid & no usable axis with g > 0; *inv = !valid. */
SBX_INLINE void overlap_w(const boxw *A, const boxw *B, unsigned *hit, unsigned *inv)
{
    wm valid = wm_and(box_valid_w(A), box_valid_w(B));
    axesw ax;
    sat_axes_w(A, B, &ax);
    wf zero = wf_zero();
    wm sep = wm_gt(ax.g[0], zero);
    for (int k = 1; k < 6; k++)
        sep = wm_or(sep, wm_gt(ax.g[k], zero));
    for (int k = 6; k < 15; k++)
        sep = wm_or(sep, wm_and(ax.usable[k], wm_gt(ax.g[k], zero)));
    *hit = wm_bits(wm_andnot(valid, sep));
    *inv = wm_bits(wm_not(valid));
}

typedef struct collidew {
    wf sep, n[3], id;
    unsigned hit, inv;
} collidew;

/* scalar.c ref_collide(). */
SBX_INLINE void collide_w(const boxw *A, const boxw *B, wf margin, collidew *o)
{
    wm valid = wm_and(box_valid_w(A), box_valid_w(B));
    axesw ax;
    sat_axes_w(A, B, &ax);
    wf zero = wf_zero();
    wf bg = ax.g[0], bl = ax.len2[0], bs = wf_mul(ax.g[0], wf_abs(ax.g[0])), bp = ax.proj[0];
    wf bid = zero;
    for (int k = 1; k < 15; k++) {
        wf g = ax.g[k], l = ax.len2[k], s = wf_mul(g, wf_abs(g));
        wm pos = wm_gt(g, zero), bpos = wm_gt(bg, zero);
        wm gt = wm_gt(wf_mul(s, bl), wf_mul(bs, l));
        wm better = wm_or(wm_andnot(pos, bpos), wm_andnot(gt, wm_andnot(bpos, pos)));
        if (k >= 6)
            better = wm_and(better, ax.usable[k]);
        bg = wf_select(better, g, bg);
        bl = wf_select(better, l, bl);
        bs = wf_select(better, s, bs);
        bp = wf_select(better, ax.proj[k], bp);
        bid = wf_select(better, wf_set1((float)k), bid);
    }
    wf sep = wf_div(bg, wf_sqrt(bl));
    sep = wf_select(wm_eq(sep, zero), bg, sep);

    /* Normal: the axis of A (face or edge factor) and of B (face or edge factor) chosen by id. */
    wm a0 = wm_or(wm_eq(bid, zero), wm_and(wm_ge(bid, wf_set1(6.0f)), wm_lt(bid, wf_set1(9.0f))));
    wm a1 = wm_or(wm_eq(bid, wf_set1(1.0f)), wm_and(wm_ge(bid, wf_set1(9.0f)), wm_lt(bid, wf_set1(12.0f))));
    wm b0 = wm_or(wm_or(wm_eq(bid, wf_set1(3.0f)), wm_eq(bid, wf_set1(6.0f))),
                  wm_or(wm_eq(bid, wf_set1(9.0f)), wm_eq(bid, wf_set1(12.0f))));
    wm b1 = wm_or(wm_or(wm_eq(bid, wf_set1(4.0f)), wm_eq(bid, wf_set1(7.0f))),
                  wm_or(wm_eq(bid, wf_set1(10.0f)), wm_eq(bid, wf_set1(13.0f))));
    wf a[3], b[3];
    for (int c = 0; c < 3; c++) {
        a[c] = wf_select(a0, A->u[0][c], wf_select(a1, A->u[1][c], A->u[2][c]));
        b[c] = wf_select(b0, B->u[0][c], wf_select(b1, B->u[1][c], B->u[2][c]));
    }
    wf cx = wf_sub(wf_mul(a[1], b[2]), wf_mul(a[2], b[1]));
    wf cy = wf_sub(wf_mul(a[2], b[0]), wf_mul(a[0], b[2]));
    wf cz = wf_sub(wf_mul(a[0], b[1]), wf_mul(a[1], b[0]));
    wf len = wf_sqrt(wf_add(wf_add(wf_mul(cx, cx), wf_mul(cy, cy)), wf_mul(cz, cz)));
    wm len_ok = wm_gt(len, zero); /* false only with axes that break the orthonormal precondition */
    wf e[3] = {wf_select(len_ok, wf_div(cx, len), zero), wf_select(len_ok, wf_div(cy, len), zero),
               wf_select(len_ok, wf_div(cz, len), zero)};
    wm face_a = wm_lt(bid, wf_set1(3.0f)), face_b = wm_lt(bid, wf_set1(6.0f));
    wm flip = wm_lt(bp, zero);
    for (int c = 0; c < 3; c++) {
        wf n = wf_select(face_a, a[c], wf_select(face_b, b[c], e[c]));
        n = wf_select(flip, wf_neg(n), n);
        o->n[c] = wf_select(valid, n, zero);
    }
    o->sep = wf_select(valid, sep, wf_set1(NAN));
    o->id = wf_select(valid, bid, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(wm_and(valid, wm_le(sep, margin)));
    o->inv = wm_bits(wm_not(valid));
}

/* ---- outputs ------------------------------------------------------------------------------ */

/* Lane bits -> bytes (bit l -> byte l is 0 or 1), 8 lanes at a time, no branches. */
static inline uint64_t spread8(unsigned bits)
{
    uint64_t x = bits & 0xFFu;
    x = (x | x << 28) & 0x0000000F0000000Full;
    x = (x | x << 14) & 0x0003000300030003ull;
    x = (x | x << 7) & 0x0101010101010101ull;
    return x;
}

/* hit bytes for lanes [0, k): 1 where hit, SATBOX_INVALID where inv, else 0. */
SBX_INLINE void store_hits(uint8_t *dst, unsigned hit, unsigned inv, int k)
{
    if (k == W && W >= 8) {
        for (int o = 0; o < W; o += 8) {
            uint64_t v = spread8(hit >> o) | spread8(inv >> o) * 0xFFu;
            memcpy(dst + o, &v, 8);
        }
    } else {
        for (int l = 0; l < k; l++)
            dst[l] = (uint8_t)(((inv >> l) & 1u) ? SATBOX_INVALID : ((hit >> l) & 1u));
    }
}

/* Appends i + l for each set bit l of `hit` (ascending) to the compacted list. */
SBX_INLINE size_t push_compact(uint32_t *out, size_t count, size_t i, unsigned hit)
{
    while (hit) {
        out[count++] = (uint32_t)(i + (size_t)__builtin_ctz(hit));
        hit &= hit - 1u;
    }
    return count;
}

SBX_INLINE void store_w(float *p, size_t i, wf v, int k)
{
    if (k == W)
        wf_storeu(p + i, v);
    else
        wf_store_part(p + i, v, k);
}

/* ---- drivers ------------------------------------------------------------------------------ */

/* One prefetch per cache line: every 64 bytes of each stream (W floats are 16 to 64 bytes). */
SBX_INLINE void prefetch_job(const sbx_job *job, sbx_src src, size_t i)
{
    if ((i * sizeof(float)) % 64 != 0 && W < 16)
        return;
    switch (src) {
    case SBX_SRC_MAT:
        prefetch_mat(job->ma, i);
        prefetch_mat(job->mb, i);
        break;
    case SBX_SRC_QUAT:
        prefetch_quat(job->qa, i);
        prefetch_quat(job->qb, i);
        break;
    case SBX_SRC_ONE:
        prefetch_mat(job->mb, i);
        break;
    default:
        break;
    }
}

SBX_INLINE void load_job_w(const sbx_job *job, sbx_src src, size_t i, int k, const boxw *one, boxw *a, boxw *b)
{
    switch (src) {
    case SBX_SRC_MAT:
        load_mat_w(job->ma, i, k, a);
        load_mat_w(job->mb, i, k, b);
        break;
    case SBX_SRC_QUAT:
        load_quat_w(job->qa, i, k, a);
        load_quat_w(job->qb, i, k, b);
        break;
    case SBX_SRC_ONE:
        *a = *one;
        load_mat_w(job->mb, i, k, b);
        break;
    case SBX_SRC_REC:
        load_rec_w(job->rec, job->pairs, i, k, a, b);
        break;
    case SBX_SRC_POOL:
    default:
        load_pool_w(job->pool, job->pairs, i, k, a, b);
        break;
    }
}

/* `src` is a constant at every call site, so each source gets its own specialised loop. */
SBX_INLINE ptrdiff_t run_overlap(const sbx_job *job, sbx_src src)
{
    boxw one;
    if (src == SBX_SRC_ONE)
        load_one_w(job->one, &one);
    size_t count = 0, n = job->n;
    for (size_t i = 0; i < n; i += W) {
        int k = n - i >= (size_t)W ? W : (int)(n - i);
        boxw a, b;
        unsigned hit, inv;
        if (n >= SBX_PREFETCH_MIN_N)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, &one, &a, &b);
        overlap_w(&a, &b, &hit, &inv);
        unsigned live = (1u << k) - 1u;
        hit &= live;
        if (job->hit)
            store_hits(job->hit + i, hit, inv, k);
        if (job->compact)
            count = push_compact(job->compact, count, i, hit);
        else
            count += (size_t)__builtin_popcount(hit);
    }
    return (ptrdiff_t)count;
}

SBX_INLINE ptrdiff_t run_collide(const sbx_job *job, sbx_src src)
{
    boxw one;
    if (src == SBX_SRC_ONE)
        load_one_w(job->one, &one);
    wf margin = wf_set1(job->margin);
    size_t count = 0, n = job->n;
    for (size_t i = 0; i < n; i += W) {
        int k = n - i >= (size_t)W ? W : (int)(n - i);
        boxw a, b;
        collidew o;
        if (n >= SBX_PREFETCH_MIN_N)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, &one, &a, &b);
        collide_w(&a, &b, margin, &o);
        unsigned live = (1u << k) - 1u;
        unsigned hit = o.hit & live;
        if (job->hit)
            store_hits(job->hit + i, hit, o.inv, k);
        if (job->separation)
            store_w(job->separation, i, o.sep, k);
        for (int c = 0; c < 3; c++)
            if (job->normal[c])
                store_w(job->normal[c], i, o.n[c], k);
        if (job->axis) {
            float ids[W];
            wf_storeu(ids, o.id);
            for (int l = 0; l < k; l++)
                job->axis[i + (size_t)l] = (uint8_t)ids[l];
        }
        if (job->compact)
            count = push_compact(job->compact, count, i, hit);
        else
            count += (size_t)__builtin_popcount(hit);
    }
    return (ptrdiff_t)count;
}

static ptrdiff_t kernel_overlap(const sbx_job *job)
{
    switch (job->src) {
    case SBX_SRC_MAT: return run_overlap(job, SBX_SRC_MAT);
    case SBX_SRC_QUAT: return run_overlap(job, SBX_SRC_QUAT);
    case SBX_SRC_ONE: return run_overlap(job, SBX_SRC_ONE);
    case SBX_SRC_REC: return run_overlap(job, SBX_SRC_REC);
    default: return run_overlap(job, SBX_SRC_POOL);
    }
}

static ptrdiff_t kernel_collide(const sbx_job *job)
{
    switch (job->src) {
    case SBX_SRC_MAT: return run_collide(job, SBX_SRC_MAT);
    case SBX_SRC_QUAT: return run_collide(job, SBX_SRC_QUAT);
    case SBX_SRC_ONE: return run_collide(job, SBX_SRC_ONE);
    case SBX_SRC_REC: return run_collide(job, SBX_SRC_REC);
    default: return run_collide(job, SBX_SRC_POOL);
    }
}

/* scalar.c scalar_aabb(). */
static ptrdiff_t kernel_aabb(const sbx_box_job *job)
{
    size_t valid = 0, n = job->n;
    wf margin = wf_set1(job->margin), inf = wf_set1(INFINITY), ninf = wf_set1(-INFINITY);
    for (size_t i = 0; i < n; i += W) {
        int k = n - i >= (size_t)W ? W : (int)(n - i);
        boxw b;
        if (job->m)
            load_mat_w(job->m, i, k, &b);
        else
            load_quat_w(job->q, i, k, &b);
        wm ok = box_valid_w(&b);
        for (int c = 0; c < 3; c++) {
            wf e = wf_add(wf_add(wf_mul(wf_abs(b.u[0][c]), b.h[0]), wf_mul(wf_abs(b.u[1][c]), b.h[1])),
                          wf_mul(wf_abs(b.u[2][c]), b.h[2]));
            wf lo = wf_sub(wf_sub(b.c[c], e), margin), hi = wf_add(wf_add(b.c[c], e), margin);
            store_w(job->min[c], i, wf_select(ok, lo, inf), k);
            store_w(job->max[c], i, wf_select(ok, hi, ninf), k);
        }
        valid += (size_t)__builtin_popcount(wm_bits(ok) & ((1u << k) - 1u));
    }
    return (ptrdiff_t)valid;
}

/* scalar.c scalar_axes_from_quat(). */
static ptrdiff_t kernel_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i += W) {
        int k = n - i >= (size_t)W ? W : (int)(n - i);
        wf u[3][3];
        quat_axes_w(ld(quat[0], i, k), ld(quat[1], i, k), ld(quat[2], i, k), ld(quat[3], i, k), u);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                store_w(axis[a][c], i, u[a][c], k);
        /* Invalid rows are the NaN ones (a valid quaternion gives finite axes). */
        bad += (size_t)__builtin_popcount(wm_bits(wm_not(wm_eq(u[0][0], u[0][0]))) & ((1u << k) - 1u));
    }
    return (ptrdiff_t)bad;
}

const sbx_kernels SBX_TABLE = {kernel_overlap, kernel_collide, kernel_aabb, kernel_axes_from_quat, W};

#endif

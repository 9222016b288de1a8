/* scalar.c - the plain-C reference path: defines the exact operation order every ISA path reproduces. */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* This file is compiled without SIMD headers or flags. Every expression below is written in the
 * order the wide kernel (src/kernel/sat_tpl.h) evaluates it: sums left to right, no fused multiply-add
 * (-ffp-contract=off), IEEE sqrt and division. Changing an expression here means changing it
 * there too; the checker test compares the two bit for bit. */

typedef struct box_v {
    float c[3], h[3], u[3][3]; /* center, half extents, u[k][c] = component c of axis k */
} box_v;

/* Box validity (see satbox.h "Bad data"); sums in a fixed order; NaN fails every comparison. */
static int box_valid(const box_v *b)
{
    float size = ((((fabsf(b->c[0]) + fabsf(b->c[1])) + fabsf(b->c[2])) + b->h[0]) + b->h[1]) + b->h[2];
    float asum = 0.0f;
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = asum + fabsf(b->u[k][c]);
    return b->h[0] >= 0.0f && b->h[1] >= 0.0f && b->h[2] >= 0.0f && size <= SATBOX_COORD_LIMIT &&
           asum <= SATBOX_AXIS_SUM_LIMIT;
}

int sbx_ref_box_valid(const satbox_box *b)
{
    box_v v;
    memcpy(v.c, b->center, sizeof v.c);
    memcpy(v.h, b->half, sizeof v.h);
    memcpy(v.u, b->axis, sizeof v.u);
    return box_valid(&v);
}

/* Quaternion (x, y, z, w) -> axes, normalising through s = 2 / |q|^2. Invalid -> NaN axes. */
static int quat_axes(float x, float y, float z, float w, float u[3][3])
{
    float n2 = ((x * x + y * y) + z * z) + w * w;
    if (!(n2 >= SATBOX_QUAT_MIN_NORM2 && n2 <= SATBOX_QUAT_MAX_NORM2)) {
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                u[k][c] = NAN;
        return 0;
    }
    float s = 2.0f / n2;
    float xs = x * s, ys = y * s, zs = z * s;
    float wx = w * xs, wy = w * ys, wz = w * zs;
    float xx = x * xs, xy = x * ys, xz = x * zs;
    float yy = y * ys, yz = y * zs, zz = z * zs;
    u[0][0] = 1.0f - (yy + zz);
    u[0][1] = xy + wz;
    u[0][2] = xz - wy;
    u[1][0] = xy - wz;
    u[1][1] = 1.0f - (xx + zz);
    u[1][2] = yz + wx;
    u[2][0] = xz + wy;
    u[2][1] = yz - wx;
    u[2][2] = 1.0f - (xx + yy);
    return 1;
}

static void load_mat(const satbox_boxes *s, size_t i, box_v *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->u[k][c] = s->axis[k][c][i];
}

static void load_quat(const satbox_qboxes *s, size_t i, box_v *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    quat_axes(s->quat[0][i], s->quat[1][i], s->quat[2][i], s->quat[3][i], b->u);
}

static void load_one(const satbox_box *s, box_v *b)
{
    memcpy(b->c, s->center, sizeof b->c);
    memcpy(b->h, s->half, sizeof b->h);
    memcpy(b->u, s->axis, sizeof b->u);
}

static void load_rec(const satbox_rec *r, box_v *b)
{
    memcpy(b->c, r->center, sizeof b->c);
    memcpy(b->h, r->half, sizeof b->h);
    memcpy(b->u, r->axis, sizeof b->u);
}

static void load_pair(const sbx_job *job, size_t i, box_v *a, box_v *b)
{
    switch (job->src) {
    case SBX_SRC_MAT:
        load_mat(job->ma, i, a);
        load_mat(job->mb, i, b);
        break;
    case SBX_SRC_QUAT:
        load_quat(job->qa, i, a);
        load_quat(job->qb, i, b);
        break;
    case SBX_SRC_ONE:
        load_one(job->one, a);
        load_mat(job->mb, i, b);
        break;
    case SBX_SRC_REC:
        load_rec(&job->rec[job->pairs[i].a], a);
        load_rec(&job->rec[job->pairs[i].b], b);
        break;
    case SBX_SRC_POOL:
    default:
        load_mat(job->pool, job->pairs[i].a, a);
        load_mat(job->pool, job->pairs[i].b, b);
        break;
    }
}

/* The 15 axis gaps of one pair, in axis-id order, and what collide needs to pick among them. */
typedef struct axes_v {
    float g[15];    /* |proj| - (rA + rB), unnormalised */
    float proj[15]; /* signed projection of cB - cA on the (unnormalised) axis */
    float len2[15]; /* squared axis length (1 for face axes) */
    int usable[15]; /* 0 for skipped near-parallel edge axes */
} axes_v;

static void sat_axes(const box_v *A, const box_v *B, axes_v *o)
{
    float R[3][3], AR[3][3], AE[3][3], t[3], d[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = (A->u[i][0] * B->u[j][0] + A->u[i][1] * B->u[j][1]) + A->u[i][2] * B->u[j][2];
            AR[i][j] = fabsf(R[i][j]);
            AE[i][j] = AR[i][j] + SATBOX_EPS;
        }
    for (int c = 0; c < 3; c++)
        d[c] = B->c[c] - A->c[c];
    for (int i = 0; i < 3; i++)
        t[i] = (d[0] * A->u[i][0] + d[1] * A->u[i][1]) + d[2] * A->u[i][2];

    /* Face axes of A: L = uA_i. */
    for (int i = 0; i < 3; i++) {
        float rb = (B->h[0] * AR[i][0] + B->h[1] * AR[i][1]) + B->h[2] * AR[i][2];
        o->proj[i] = t[i];
        o->g[i] = fabsf(t[i]) - (A->h[i] + rb);
        o->len2[i] = 1.0f;
        o->usable[i] = 1;
    }
    /* Face axes of B: L = uB_j = column j of R in A's frame. */
    for (int j = 0; j < 3; j++) {
        float ra = (A->h[0] * AR[0][j] + A->h[1] * AR[1][j]) + A->h[2] * AR[2][j];
        float p = (t[0] * R[0][j] + t[1] * R[1][j]) + t[2] * R[2][j];
        o->proj[3 + j] = p;
        o->g[3 + j] = fabsf(p) - (ra + B->h[j]);
        o->len2[3 + j] = 1.0f;
        o->usable[3 + j] = 1;
    }
    /* Edge axes: L = e_i x R[.][j] in A's frame. */
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, id = 6 + 3 * i + j;
            float ra = A->h[i1] * AE[i2][j] + A->h[i2] * AE[i1][j];
            float rb = B->h[j1] * AE[i][j2] + B->h[j2] * AE[i][j1];
            float p = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            float l2 = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
            o->proj[id] = p;
            o->g[id] = fabsf(p) - (ra + rb);
            o->len2[id] = l2;
            o->usable[id] = l2 >= SATBOX_EDGE_MIN_LEN2;
        }
    }
}

/* Overlap bit of one pair (0 for bad data, which sets *bad). */
static uint8_t ref_overlap(const box_v *A, const box_v *B, uint8_t *bad)
{
    *bad = !(box_valid(A) && box_valid(B));
    if (*bad)
        return 0;
    axes_v ax;
    sat_axes(A, B, &ax);
    for (int k = 0; k < 15; k++)
        if (ax.usable[k] && ax.g[k] > 0.0f)
            return 0;
    return 1;
}

typedef struct pair_out {
    uint8_t hit, axis, bad;
    float separation, normal[3];
} pair_out;

/* Collide one pair. The largest normalised gap g / sqrt(l2) is found without a square root or a
 * division per axis: x -> x|x| is increasing, so g1/sqrt(l1) > g2/sqrt(l2) iff
 * g1|g1| * l2 > g2|g2| * l1 (l1, l2 > 0). The sign is compared first, so that the chosen gap is
 * positive exactly when some axis separates even if a product underflows. */
static void ref_collide(const box_v *A, const box_v *B, float margin, pair_out *o)
{
    o->bad = !(box_valid(A) && box_valid(B));
    if (o->bad) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->separation = NAN;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    axes_v ax;
    sat_axes(A, B, &ax);
    int best = 0;
    float bg = ax.g[0], bl = ax.len2[0], bs = ax.g[0] * fabsf(ax.g[0]);
    for (int k = 1; k < 15; k++) {
        float g = ax.g[k], l = ax.len2[k], s = g * fabsf(g);
        int pos = g > 0.0f, bpos = bg > 0.0f;
        int gt = s * bl > bs * l;
        int better = (pos && !bpos) || (gt && !(bpos && !pos));
        if (ax.usable[k] && better) {
            best = k;
            bg = g;
            bl = l;
            bs = s;
        }
    }
    float sep = bg / sqrtf(bl);
    if (sep == 0.0f)
        sep = bg; /* keeps the sign of a gap whose quotient underflowed */
    float p = ax.proj[best];
    float n[3];
    if (best < 3) {
        memcpy(n, A->u[best], sizeof n);
    } else if (best < 6) {
        memcpy(n, B->u[best - 3], sizeof n);
    } else {
        const float *a = A->u[(best - 6) / 3], *b = B->u[(best - 6) % 3];
        float cx = a[1] * b[2] - a[2] * b[1];
        float cy = a[2] * b[0] - a[0] * b[2];
        float cz = a[0] * b[1] - a[1] * b[0];
        float len = sqrtf((cx * cx + cy * cy) + cz * cz);
        n[0] = cx / len;
        n[1] = cy / len;
        n[2] = cz / len;
        if (!(len > 0.0f)) /* only with axes that break the orthonormal precondition */
            n[0] = n[1] = n[2] = 0.0f;
    }
    if (p < 0.0f) {
        n[0] = -n[0];
        n[1] = -n[1];
        n[2] = -n[2];
    }
    o->hit = sep <= margin ? 1 : 0;
    o->axis = (uint8_t)best;
    o->separation = sep;
    memcpy(o->normal, n, sizeof n);
}

/* Counts pair i as a hit, appending it to the compacted list if there is one; returns the new count. */
static size_t count_hit(const sbx_job *job, size_t count, size_t i)
{
    if (job->compact)
        job->compact[count] = (uint32_t)i;
    return count + 1;
}

static ptrdiff_t scalar_overlap(const sbx_job *job)
{
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        box_v a, b;
        load_pair(job, i, &a, &b);
        uint8_t bad, h = ref_overlap(&a, &b, &bad);
        if (job->hit)
            job->hit[i] = h;
        if (job->bad)
            job->bad[i] = bad;
        if (h == 1)
            count = count_hit(job, count, i);
    }
    return (ptrdiff_t)count;
}

static ptrdiff_t scalar_collide(const sbx_job *job)
{
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        box_v a, b;
        pair_out o;
        load_pair(job, i, &a, &b);
        ref_collide(&a, &b, job->margin, &o);
        if (job->hit)
            job->hit[i] = o.hit;
        if (job->separation)
            job->separation[i] = o.separation;
        for (int c = 0; c < 3; c++)
            if (job->normal[c])
                job->normal[c][i] = o.normal[c];
        if (job->axis)
            job->axis[i] = o.axis;
        if (job->bad)
            job->bad[i] = o.bad;
        if (o.hit == 1)
            count = count_hit(job, count, i);
    }
    return (ptrdiff_t)count;
}

static ptrdiff_t scalar_aabb(const sbx_box_job *job)
{
    size_t valid = 0;
    for (size_t i = 0; i < job->n; i++) {
        box_v b;
        if (job->m)
            load_mat(job->m, i, &b);
        else
            load_quat(job->q, i, &b);
        int ok = box_valid(&b);
        for (int c = 0; c < 3; c++) {
            float e = (fabsf(b.u[0][c]) * b.h[0] + fabsf(b.u[1][c]) * b.h[1]) + fabsf(b.u[2][c]) * b.h[2];
            float lo = (b.c[c] - e) - job->margin, hi = (b.c[c] + e) + job->margin;
            job->min[c][i] = ok ? lo : INFINITY;
            job->max[c][i] = ok ? hi : -INFINITY;
        }
        valid += (size_t)ok;
    }
    return (ptrdiff_t)valid;
}

static ptrdiff_t scalar_axes_from_quat(const float *const quat[4], size_t n, float *axis[3][3])
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float u[3][3];
        bad += (size_t)!quat_axes(quat[0][i], quat[1][i], quat[2][i], quat[3][i], u);
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                axis[k][c][i] = u[k][c];
    }
    return (ptrdiff_t)bad;
}

const sbx_kernels sbx_kernels_scalar = {scalar_overlap, scalar_collide, scalar_aabb,
                                        scalar_axes_from_quat, 1};

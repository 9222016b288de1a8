/* scene.c - random box scenes (scattered + stacked, both layouts) and a sort-and-sweep broad phase. */
/* SPDX-License-Identifier: MIT */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tb_scene_defaults(tb_scene_params *p, size_t n, uint64_t seed)
{
    p->n = n;
    p->density = 0.15;
    p->stacked = 0.3;
    p->stack_max = 5;
    p->tilt = 1e-3;
    p->gap = 1e-3;
    p->margin = 0.02f;
    p->seed = seed;
}

/* ---- quaternions (x, y, z, w), in double ---------------------------------------------------- */

/* o = a * b (Hamilton product: rotate by b first, then by a). */
static void quat_mul(const double a[4], const double b[4], double o[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    o[0] = x, o[1] = y, o[2] = z, o[3] = w;
}

/* u[k][c]: world component c of local axis k (column k of the rotation); q need not be unit. */
static void quat_axes(const double q[4], double u[3][3])
{
    double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], s = 2.0 / n2;
    double x = q[0], y = q[1], z = q[2], w = q[3];
    u[0][0] = 1 - s * (y * y + z * z), u[0][1] = s * (x * y + w * z), u[0][2] = s * (x * z - w * y);
    u[1][0] = s * (x * y - w * z), u[1][1] = 1 - s * (x * x + z * z), u[1][2] = s * (y * z + w * x);
    u[2][0] = s * (x * z + w * y), u[2][1] = s * (y * z - w * x), u[2][2] = 1 - s * (x * x + y * y);
}

void tb_quat_from_axes(const float axis[3][3], double q[4])
{
    /* Shepperd's method: R[r][c] = axis[c][r]; divide by the largest of 4w^2, 4x^2, 4y^2, 4z^2
     * (read off the diagonal) so that the division is never by a small number. */
#define R(r, c) ((double)axis[c][r])
    double tr = R(0, 0) + R(1, 1) + R(2, 2), s;
    if (tr > 0) {
        s = 2 * sqrt(tr + 1);
        q[3] = s / 4, q[0] = (R(2, 1) - R(1, 2)) / s, q[1] = (R(0, 2) - R(2, 0)) / s, q[2] = (R(1, 0) - R(0, 1)) / s;
    } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
        s = 2 * sqrt(1 + R(0, 0) - R(1, 1) - R(2, 2));
        q[3] = (R(2, 1) - R(1, 2)) / s, q[0] = s / 4, q[1] = (R(0, 1) + R(1, 0)) / s, q[2] = (R(0, 2) + R(2, 0)) / s;
    } else if (R(1, 1) >= R(2, 2)) {
        s = 2 * sqrt(1 + R(1, 1) - R(0, 0) - R(2, 2));
        q[3] = (R(0, 2) - R(2, 0)) / s, q[0] = (R(0, 1) + R(1, 0)) / s, q[1] = s / 4, q[2] = (R(1, 2) + R(2, 1)) / s;
    } else {
        s = 2 * sqrt(1 + R(2, 2) - R(0, 0) - R(1, 1));
        q[3] = (R(1, 0) - R(0, 1)) / s, q[0] = (R(0, 2) + R(2, 0)) / s, q[1] = (R(1, 2) + R(2, 1)) / s, q[2] = s / 4;
    }
#undef R
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
}

/* ---- sorting ------------------------------------------------------------------------------- */

/* LSD radix sort of 64-bit keys, 16 bits a pass; passes whose digit is the same for every key are
 * skipped. Returns 0, or -1 when out of memory. */
static int radix_sort_u64(uint64_t *keys, size_t n)
{
    if (n < 2)
        return 0;
    uint64_t *tmp = (uint64_t *)malloc(n * sizeof *tmp);
    size_t *count = (size_t *)malloc(65536 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    uint64_t *src = keys, *dst = tmp;
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65536 * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(src[i] >> shift) & 0xFFFFu]++;
        if (count[(src[0] >> shift) & 0xFFFFu] == n)
            continue;
        size_t sum = 0;
        for (size_t d = 0; d < 65536; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 0xFFFFu]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
    free(tmp);
    free(count);
    return 0;
}

/* Order-preserving map of a float to uint32 (negative floats reversed below the positive ones). */
static uint32_t float_key(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Growable list of pair keys (a << 32 | b). */
typedef struct keylist {
    uint64_t *k;
    size_t n, cap;
} keylist;

static int keylist_push(keylist *l, uint64_t key)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        uint64_t *k = (uint64_t *)realloc(l->k, cap * sizeof *k);
        if (!k)
            return -1;
        l->k = k;
        l->cap = cap;
    }
    l->k[l->n++] = key;
    return 0;
}

/* Sorts the keys and turns them into a malloc'd satbox_pair array; frees the list. */
static ptrdiff_t keylist_finish(keylist *l, satbox_pair **pairs)
{
    *pairs = NULL;
    if (radix_sort_u64(l->k, l->n) != 0) {
        free(l->k);
        return -1;
    }
    size_t n = l->n;
    if (n) {
        satbox_pair *p = (satbox_pair *)malloc(n * sizeof *p);
        if (!p) {
            free(l->k);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            p[i].a = (uint32_t)(l->k[i] >> 32);
            p[i].b = (uint32_t)l->k[i];
        }
        *pairs = p;
    }
    free(l->k);
    return (ptrdiff_t)n;
}

static int box_empty(const float *const min[3], const float *const max[3], size_t i)
{
    return !(min[0][i] <= max[0][i] && min[1][i] <= max[1][i] && min[2][i] <= max[2][i]);
}

static int overlap_yz(const float *const min[3], const float *const max[3], size_t i, size_t j)
{
    return min[1][i] <= max[1][j] && min[1][j] <= max[1][i] && min[2][i] <= max[2][j] && min[2][j] <= max[2][i];
}

static uint64_t pair_key(size_t i, size_t j)
{
    return i < j ? ((uint64_t)i << 32 | (uint64_t)j) : ((uint64_t)j << 32 | (uint64_t)i);
}

/* One box in sweep order: its AABB and its index, contiguous so that the inner loop streams. */
typedef struct sweep_box {
    float min[3], max[3];
    uint32_t index;
} sweep_box;

ptrdiff_t tb_sweep(const float *const min[3], const float *const max[3], size_t n, satbox_pair **pairs)
{
    *pairs = NULL;
    /* Sort the non-empty boxes by min x (ties by index, so the order is deterministic). */
    uint64_t *order = (uint64_t *)malloc((n ? n : 1) * sizeof *order);
    sweep_box *sb = (sweep_box *)malloc((n ? n : 1) * sizeof *sb);
    if (!order || !sb) {
        free(order);
        free(sb);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!box_empty(min, max, i))
            order[m++] = (uint64_t)float_key(min[0][i]) << 32 | (uint64_t)i;
    if (radix_sort_u64(order, m) != 0) {
        free(order);
        free(sb);
        return -1;
    }
    for (size_t s = 0; s < m; s++) {
        size_t i = (size_t)(uint32_t)order[s];
        for (int c = 0; c < 3; c++) {
            sb[s].min[c] = min[c][i];
            sb[s].max[c] = max[c][i];
        }
        sb[s].index = (uint32_t)i;
    }
    free(order);
    /* Sweep: a box overlaps in x every later box that starts before it ends. */
    keylist l = {NULL, 0, 0};
    for (size_t s = 0; s < m; s++) {
        const sweep_box *bi = &sb[s];
        for (size_t t = s + 1; t < m && sb[t].min[0] <= bi->max[0]; t++) {
            const sweep_box *bj = &sb[t];
            if (bi->min[1] <= bj->max[1] && bj->min[1] <= bi->max[1] && bi->min[2] <= bj->max[2] &&
                bj->min[2] <= bi->max[2] && keylist_push(&l, pair_key(bi->index, bj->index)) != 0) {
                free(l.k);
                free(sb);
                return -1;
            }
        }
    }
    free(sb);
    return keylist_finish(&l, pairs);
}

ptrdiff_t tb_brute_pairs(const float *const min[3], const float *const max[3], size_t n, satbox_pair **pairs)
{
    keylist l = {NULL, 0, 0};
    for (size_t i = 0; i < n; i++) {
        if (box_empty(min, max, i))
            continue;
        for (size_t j = i + 1; j < n; j++) {
            if (box_empty(min, max, j))
                continue;
            int x = min[0][i] <= max[0][j] && min[0][j] <= max[0][i];
            if (x && overlap_yz(min, max, i, j) && keylist_push(&l, pair_key(i, j)) != 0) {
                free(l.k);
                *pairs = NULL;
                return -1;
            }
        }
    }
    return keylist_finish(&l, pairs);
}

void tb_gather_pairs(const satbox_boxes *pool, const satbox_pair *pairs, size_t n, tb_soa *a, tb_soa *b,
                     size_t at)
{
    const float *f[15];
    for (int c = 0; c < 3; c++) {
        f[c] = pool->center[c];
        f[3 + c] = pool->half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            f[6 + 3 * k + c] = pool->axis[k][c];
    for (int q = 0; q < 15; q++) {
        float *da = a->arrays[q] + at, *db = b->arrays[q] + at;
        for (size_t i = 0; i < n; i++) {
            da[i] = f[q][pairs[i].a];
            db[i] = f[q][pairs[i].b];
        }
    }
}

/* ---- the scene ----------------------------------------------------------------------------- */

/* Mixed sizes: 70% small (0.1..0.4), 25% medium (0.4..1.0), 5% large (1.0..2.5) half extents,
 * each extent drawn on its own (cubes, planks and plates). Stacked boxes are small or medium. */
static void draw_half(tb_rng *r, int stacked, double h[3])
{
    double u = tb_unit(r), lo = 0.1, hi = 0.4;
    if (u >= 0.70 && (u < 0.95 || stacked))
        lo = 0.4, hi = 1.0;
    else if (u >= 0.95)
        lo = 1.0, hi = 2.5;
    for (int k = 0; k < 3; k++)
        h[k] = tb_range(r, lo, hi);
}

/* Box data before it is written out, in the order generated. */
typedef struct proto {
    float c[3], h[3], q[4];
    uint8_t stacked;
} proto;

static void round_quat(const double q[4], float out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = (float)q[i];
}

/* Axes of a stored (float) quaternion, in double, as placed: what the library will compute up to
 * float rounding (~1e-7 of the size, far below the stacking gap). */
static void stored_axes(const float qf[4], double u[3][3])
{
    double q[4] = {qf[0], qf[1], qf[2], qf[3]};
    quat_axes(q, u);
}

/* Stacks: each box rests on the one below (the first on the floor z = 0), yawed at random about
 * z, tilted by up to `tilt`, shifted sideways by up to a quarter of the smaller footprint, with a
 * vertical gap uniform in [-gap, gap] (negative: slight penetration, as in a resting contact). */
static void place_stacks(tb_rng *r, const tb_scene_params *p, double side, proto *b, size_t count)
{
    size_t i = 0;
    int max_h = p->stack_max < 2 ? 2 : p->stack_max;
    while (i < count) {
        size_t height = 2 + (size_t)(tb_next(r) % (uint64_t)(max_h - 1));
        double x = tb_range(r, 0, side), y = tb_range(r, 0, side), top = 0, foot = 0;
        for (size_t s = 0; s < height && i < count; s++, i++) {
            double yaw = tb_range(r, 0, 6.283185307179586), dir = tb_range(r, 0, 6.283185307179586);
            double ang = tb_range(r, 0, p->tilt);
            double qy[4] = {0, 0, sin(yaw / 2), cos(yaw / 2)};
            double qt[4] = {cos(dir) * sin(ang / 2), sin(dir) * sin(ang / 2), 0, cos(ang / 2)}, q[4];
            quat_mul(qt, qy, q);
            round_quat(q, b[i].q);
            double u[3][3];
            stored_axes(b[i].q, u);
            double ez = 0;
            for (int k = 0; k < 3; k++)
                ez += fabs(u[k][2]) * b[i].h[k];
            if (s > 0) {
                x += tb_range(r, -0.25, 0.25) * foot;
                y += tb_range(r, -0.25, 0.25) * foot;
            }
            double z = top + ez + tb_range(r, -p->gap, p->gap);
            b[i].c[0] = (float)x, b[i].c[1] = (float)y, b[i].c[2] = (float)z;
            b[i].stacked = 1;
            top = z + ez;
            foot = b[i].h[0] < b[i].h[1] ? b[i].h[0] : b[i].h[1];
        }
    }
}

void tb_scene_free(tb_scene *s)
{
    tb_soa_free(&s->boxes);
    for (int i = 0; i < 10; i++)
        free(s->qarrays[i]);
    for (int c = 0; c < 3; c++) {
        free(s->min[c]);
        free(s->max[c]);
    }
    free(s->pairs);
    free(s->stacked);
    memset(s, 0, sizeof *s);
}

int tb_scene_make(tb_scene *s, const tb_scene_params *p)
{
    memset(s, 0, sizeof *s);
    size_t n = p->n;
    tb_rng r;
    tb_seed(&r, p->seed);
    proto *b = (proto *)calloc(n ? n : 1, sizeof *b);
    size_t *perm = (size_t *)malloc((n ? n : 1) * sizeof *perm);
    if (!b || !perm)
        goto fail;

    /* Sizes first: the side of the cube follows from their total volume and the density. */
    size_t nst = (size_t)(p->stacked * (double)n + 0.5);
    if (nst > n)
        nst = n;
    double volume = 0;
    for (size_t i = 0; i < n; i++) {
        double h[3];
        draw_half(&r, i < nst, h);
        for (int k = 0; k < 3; k++)
            b[i].h[k] = (float)h[k];
        volume += 8.0 * b[i].h[0] * b[i].h[1] * b[i].h[2];
    }
    s->side = n ? cbrt(volume / (p->density > 0 ? p->density : 0.15)) : 0;
    place_stacks(&r, p, s->side, b, nst);
    for (size_t i = nst; i < n; i++) {
        double q[4], n2;
        do {
            n2 = 0;
            for (int k = 0; k < 4; k++) {
                q[k] = tb_normal(&r);
                n2 += q[k] * q[k];
            }
        } while (n2 < 1e-6);
        for (int k = 0; k < 4; k++)
            q[k] /= sqrt(n2);
        round_quat(q, b[i].q);
        for (int c = 0; c < 3; c++)
            b[i].c[c] = (float)tb_range(&r, 0, s->side);
    }
    /* Bodies in random order, as an engine's body list would hold them. */
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(tb_next(&r) % (uint64_t)i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }

    s->n = n;
    if (tb_soa_alloc(&s->boxes, n) != 0)
        goto fail;
    s->stacked = (uint8_t *)malloc(n ? n : 1);
    if (!s->stacked)
        goto fail;
    for (int i = 0; i < 10; i++)
        if (!(s->qarrays[i] = (float *)malloc((n ? n : 1) * sizeof(float))))
            goto fail;
    for (int c = 0; c < 3; c++)
        if (!(s->min[c] = (float *)malloc((n ? n : 1) * sizeof(float))) ||
            !(s->max[c] = (float *)malloc((n ? n : 1) * sizeof(float))))
            goto fail;
    for (size_t i = 0; i < n; i++) {
        size_t d = perm[i];
        for (int c = 0; c < 3; c++) {
            s->qarrays[c][d] = s->boxes.arrays[c][d] = b[i].c[c];
            s->qarrays[3 + c][d] = s->boxes.arrays[3 + c][d] = b[i].h[c];
        }
        for (int k = 0; k < 4; k++)
            s->qarrays[6 + k][d] = b[i].q[k];
        s->stacked[d] = b[i].stacked;
    }
    for (int c = 0; c < 3; c++) {
        s->qview.center[c] = s->qarrays[c];
        s->qview.half[c] = s->qarrays[3 + c];
    }
    for (int k = 0; k < 4; k++)
        s->qview.quat[k] = s->qarrays[6 + k];
    /* The matrix form is the library's own conversion, so both layouts hold the same boxes. */
    if (n && (satbox_axes_from_quat(s->qview.quat, n, s->boxes.out.axis) != 0 ||
              satbox_aabb(&s->boxes.view, n, p->margin, s->min, s->max) != (ptrdiff_t)n))
        goto fail;
    ptrdiff_t np = tb_sweep((const float *const *)s->min, (const float *const *)s->max, n, &s->pairs);
    if (np < 0)
        goto fail;
    s->npairs = (size_t)np;
    free(b);
    free(perm);
    return 0;
fail:
    free(b);
    free(perm);
    tb_scene_free(s);
    return -1;
}

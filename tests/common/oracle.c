/* oracle.c - independent long-double SAT oracle (corner projection), point-in-both check, error band. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 199309L
#include "oracle.h"
#include "satbox/satbox_planner.h"
#include "scale.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef long double ld;

/* A box in long double: center, half extents, axes u[k][c] (oracle.h). */
typedef orc_lbox lbox;

static void to_l(const satbox_box *b, lbox *o)
{
    for (int c = 0; c < 3; c++) {
        o->c[c] = b->center[c];
        o->h[c] = b->half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            o->u[k][c] = b->axis[k][c];
}

static ld dotl(const ld *a, const ld *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void crossl(const ld *a, const ld *b, ld *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static void corners(const lbox *b, ld p[8][3])
{
    for (int m = 0; m < 8; m++)
        for (int c = 0; c < 3; c++) {
            ld v = b->c[c];
            for (int k = 0; k < 3; k++)
                v += ((m >> k) & 1 ? 1.0L : -1.0L) * b->h[k] * b->u[k][c];
            p[m][c] = v;
        }
}

long double orc_sat(const satbox_box *a, const satbox_box *b, orc_result *r)
{
    lbox A, B;
    to_l(a, &A);
    to_l(b, &B);
    return orc_sat_l(&A, &B, r);
}

long double orc_sat_l(const orc_lbox *A, const orc_lbox *B, orc_result *r)
{
    ld pa[8][3], pb[8][3], d[3];
    corners(A, pa);
    corners(B, pb);
    for (int c = 0; c < 3; c++)
        d[c] = B->c[c] - A->c[c];

    ld L[15][3];
    for (int i = 0; i < 3; i++) {
        crossl(A->u[(i + 1) % 3], A->u[(i + 2) % 3], L[i]);
        crossl(B->u[(i + 1) % 3], B->u[(i + 2) % 3], L[3 + i]);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            crossl(A->u[i], B->u[j], L[6 + 3 * i + j]);

    r->s_all = -INFINITY;
    r->best = -1;
    for (int id = 0; id < 15; id++) {
        ld len2 = dotl(L[id], L[id]);
        ld len = sqrtl(len2);
        r->len[id] = len;
        if (!(len2 >= ORC_PARALLEL_LEN2)) {
            r->gap[id] = -INFINITY;
            r->proj[id] = 0;
            for (int c = 0; c < 3; c++)
                r->dir[id][c] = 0;
            continue;
        }
        ld n[3] = {L[id][0] / len, L[id][1] / len, L[id][2] / len};
        ld p = dotl(d, n);
        if (p < 0) {
            p = -p;
            n[0] = -n[0];
            n[1] = -n[1];
            n[2] = -n[2];
        }
        ld amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int m = 0; m < 8; m++) {
            ld x = dotl(pa[m], n), y = dotl(pb[m], n);
            /* plain comparisons, not fminl/fmaxl (library calls here; no NaN reaches this) */
            amin = x < amin ? x : amin;
            amax = x > amax ? x : amax;
            bmin = y < bmin ? y : bmin;
            bmax = y > bmax ? y : bmax;
        }
        ld g1 = bmin - amax, g2 = amin - bmax, g = g1 > g2 ? g1 : g2;
        r->gap[id] = g;
        r->proj[id] = p;
        for (int c = 0; c < 3; c++)
            r->dir[id][c] = n[c];
        if (g > r->s_all) {
            r->s_all = g;
            r->best = id;
        }
    }
    return r->s_all;
}

/* Slabs of a parallelepiped: |n_k . (x - c)| <= w_k, with n_k = u_{k+1} x u_{k+2} (unnormalised)
 * and w_k = h_k |n_k . u_k|; exactly the set {c + sum s_k h_k u_k, |s_k| <= 1}. */
typedef struct slabs {
    ld c[3], n[3][3], w[3];
} slabs;

static void slabs_of(const lbox *b, ld tol, slabs *s)
{
    memcpy(s->c, b->c, sizeof s->c);
    for (int k = 0; k < 3; k++) {
        crossl(b->u[(k + 1) % 3], b->u[(k + 2) % 3], s->n[k]);
        s->w[k] = b->h[k] * fabsl(dotl(s->n[k], b->u[k])) + tol * sqrtl(dotl(s->n[k], s->n[k]));
    }
}

/* Does the segment p0 + tau d, tau in [0, 1], meet the slabs? (Cyrus-Beck clipping.) */
static int segment_meets(const ld *p0, const ld *d, const slabs *s)
{
    ld lo = 0, hi = 1, q[3] = {p0[0] - s->c[0], p0[1] - s->c[1], p0[2] - s->c[2]};
    for (int k = 0; k < 3; k++) {
        ld a = dotl(s->n[k], q), b = dotl(s->n[k], d);
        if (b == 0) {
            if (fabsl(a) > s->w[k])
                return 0;
            continue;
        }
        ld t1 = (-s->w[k] - a) / b, t2 = (s->w[k] - a) / b;
        if (t1 > t2) {
            ld t = t1;
            t1 = t2;
            t2 = t;
        }
        lo = t1 > lo ? t1 : lo;
        hi = t2 < hi ? t2 : hi;
        if (lo > hi)
            return 0;
    }
    return 1;
}

/* Does one of the 12 edges of `e` meet the box of `s`? */
static int edges_meet(const lbox *e, const slabs *s)
{
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        ld d[3];
        for (int c = 0; c < 3; c++)
            d[c] = 2 * e->h[k] * e->u[k][c];
        for (int m = 0; m < 4; m++) {
            ld s1 = (m & 1) ? 1 : -1, s2 = (m & 2) ? 1 : -1, p0[3];
            for (int c = 0; c < 3; c++)
                p0[c] = e->c[c] - e->h[k] * e->u[k][c] + s1 * e->h[k1] * e->u[k1][c] + s2 * e->h[k2] * e->u[k2][c];
            if (segment_meets(p0, d, s))
                return 1;
        }
    }
    return 0;
}

int orc_intersect(const satbox_box *a, const satbox_box *b)
{
    lbox A, B;
    slabs sa, sb;
    to_l(a, &A);
    to_l(b, &B);
    /* Closed sets: the slabs are widened by ORC_MEET_TOL * S so that boundary contact (identical
     * boxes, exact touching) survives the long-double rounding of the corners. */
    ld tol = ORC_MEET_TOL * orc_scale(a, b);
    slabs_of(&A, tol, &sa);
    slabs_of(&B, tol, &sb);
    return edges_meet(&A, &sb) || edges_meet(&B, &sa);
}

long double orc_scale(const satbox_box *a, const satbox_box *b)
{
    ld s = 0;
    for (int c = 0; c < 3; c++)
        s += fabsl((ld)b->center[c] - (ld)a->center[c]) + (ld)a->half[c] + (ld)b->half[c];
    return s;
}

/* satbox's near-parallel rule, evaluated as satbox does: float R_ij in the library's operation
 * order (the tests are built with -ffp-contract=off, like the library). */
int orc_skipped(const satbox_box *a, const satbox_box *b, int id)
{
    if (id < 6)
        return 0;
    const float *x = a->axis[(id - 6) / 3], *y = b->axis[(id - 6) % 3];
    float r = (x[0] * y[0] + x[1] * y[1]) + x[2] * y[2];
    return fabsf(r) >= SATBOX_PARALLEL_ABS_COS;
}

long double orc_axis_err(const satbox_box *a, const satbox_box *b, const orc_result *r, int id, long double P)
{
    ld e = (ld)SATBOX_BOUND_REL * orc_scale(a, b) + P;
    if (id < 6)
        return e;
    return r->len[id] > 0 ? e / r->len[id] : INFINITY;
}

orc_verdict orc_verdict_of(const satbox_box *a, const satbox_box *b, const orc_result *r, long double P,
                           long double *band)
{
    int must_sep = 0, must_hit = 1;
    ld mx = 0;
    for (int id = 0; id < 15; id++) {
        if (orc_skipped(a, b, id) || (id >= 6 && r->len[id] * r->len[id] < ORC_PARALLEL_LEN2))
            continue; /* skipped by satbox's rule, or exactly parallel (cannot separate) */
        ld err = orc_axis_err(a, b, r, id, P);
        if (err > mx)
            mx = err;
        if (r->gap[id] > err)
            must_sep = 1;
        if (!(r->gap[id] < -err))
            must_hit = 0;
    }
    if (band)
        *band = mx;
    return must_sep ? ORC_MUST_SEP : must_hit ? ORC_MUST_HIT : ORC_BAND;
}

long double orc_s_rule(const satbox_box *a, const satbox_box *b, const orc_result *r)
{
    ld s = -INFINITY;
    for (int id = 0; id < 15; id++)
        if (!orc_skipped(a, b, id) && r->gap[id] > s)
            s = r->gap[id];
    return s;
}

void orc_motion_answers(const uint8_t *v, size_t k, size_t *first, size_t *any)
{
    size_t V = (k + SATBOX_PLAN_ROUND - 1) / SATBOX_PLAN_ROUND;
    *first = *any = k;
    for (size_t i = 0; i < k && *first == k; i++)
        if (v[i] != SATBOX_FREE)
            *first = i;
    for (size_t r = 0; r < V && *any == k; r++)
        for (size_t j = 0; j < SATBOX_PLAN_ROUND; j++) {
            size_t i = j * V + r;
            if (i < k && v[i] != SATBOX_FREE && i < *any)
                *any = i;
        }
}

uint64_t orc_cli(int argc, char **argv, const char *test_name, uint64_t default_seed, double quick_div, double *mult)
{
    tb_require_isa();
    uint64_t seed = default_seed;
    double m = 1.0;
    if (test_short())
        m = 1.0 / quick_div;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            m = strtod(argv[++i], NULL);
        } else {
            fprintf(stderr, "usage: %s [--seed N] [--scale F]\n", argv[0]);
            exit(2);
        }
    }
    printf("%s: seed %llu (replay with --seed %llu), count scale %g, satbox path %s\n", test_name,
           (unsigned long long)seed, (unsigned long long)seed, m, satbox_isa_name(satbox_isa_active()));
    if (mult)
        *mult = m;
    return seed;
}

size_t orc_count(size_t n, double mult, size_t min)
{
    double v = (double)n * mult;
    size_t r = v < 0 ? 0 : (size_t)v;
    return r < min ? min : r;
}

double orc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

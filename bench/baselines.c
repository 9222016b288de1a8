/* baselines.c - the seeds' corner-projection test and a textbook early-exit SAT, written from the math. */
/* SPDX-License-Identifier: MIT */
#include "baselines.h"

#include <math.h>

/* One box as the scalar tests see it: center c, half extents h, axes u[k] (world unit vectors). */
typedef struct obb {
    float c[3], h[3], u[3][3];
} obb;

/* Box i of a SoA batch (the baselines read the same bytes as satbox, one pair at a time). */
static void load(const satbox_boxes *s, size_t i, obb *o)
{
    for (int c = 0; c < 3; c++) {
        o->c[c] = s->center[c][i];
        o->h[c] = s->half[c][i];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            o->u[k][c] = s->axis[k][c][i];
}

/* The body of a baseline's batch function (a, b, n, hit): pair i of the batches through the pair
 * test `pair`, hit[i], and the number of hits returned. A macro, not an inline function taking
 * `pair`: through the function pointer (a constant once inlined) GCC 12 compiled the seed test 5%
 * longer (satbox_insns: 2790.3 instructions a pair against 2653.3); with the macro both baselines
 * compile to the same machine code as when each wrote its loop out (commit 9219208). */
#define BASELINE_BATCH(pair)                                                                               \
    do {                                                                                                   \
        size_t count = 0;                                                                                  \
        for (size_t i = 0; i < n; i++) {                                                                   \
            obb A, B;                                                                                      \
            load(a, i, &A);                                                                                \
            load(b, i, &B);                                                                                \
            int h = pair(&A, &B);                                                                          \
            hit[i] = (uint8_t)h;                                                                           \
            count += (size_t)h;                                                                            \
        }                                                                                                  \
        return count;                                                                                      \
    } while (0)

static float dot(const float x[3], const float y[3]) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; }

/* ---- (a) seeds' method: corners on normalised axes ------------------------------------------ */

/* The 8 corners c +- h0 u0 +- h1 u1 +- h2 u2 (bit k of the corner index picks the sign of u_k). */
static void corners(const obb *b, float p[8][3])
{
    for (int s = 0; s < 8; s++)
        for (int c = 0; c < 3; c++) {
            float v = b->c[c];
            for (int k = 0; k < 3; k++)
                v += ((s >> k) & 1 ? b->h[k] : -b->h[k]) * b->u[k][c];
            p[s][c] = v;
        }
}

static void interval(float p[8][3], const float l[3], float *lo, float *hi)
{
    float mn = dot(p[0], l), mx = mn;
    for (int s = 1; s < 8; s++) {
        float d = dot(p[s], l);
        mn = d < mn ? d : mn;
        mx = d > mx ? d : mx;
    }
    *lo = mn;
    *hi = mx;
}

static int seed_pair(const obb *A, const obb *B)
{
    float pa[8][3], pb[8][3], axes[15][3];
    corners(A, pa);
    corners(B, pb);
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            axes[k][c] = A->u[k][c];
            axes[3 + k][c] = B->u[k][c];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const float *x = A->u[i], *y = B->u[j];
            float *l = axes[6 + 3 * i + j];
            l[0] = x[1] * y[2] - x[2] * y[1];
            l[1] = x[2] * y[0] - x[0] * y[2];
            l[2] = x[0] * y[1] - x[1] * y[0];
        }
    for (int k = 0; k < 15; k++) {
        float l[3], len = sqrtf(dot(axes[k], axes[k]));
        if (len < 1e-6f)
            continue; /* parallel edges: no axis */
        for (int c = 0; c < 3; c++)
            l[c] = axes[k][c] / len;
        float alo, ahi, blo, bhi;
        interval(pa, l, &alo, &ahi);
        interval(pb, l, &blo, &bhi);
        if (ahi < blo || bhi < alo)
            return 0;
    }
    return 1;
}

size_t bl_seed_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit)
{
    BASELINE_BATCH(seed_pair);
}

/* ---- (b) textbook SAT with early exit --------------------------------------------------------- */

static int textbook_pair(const obb *A, const obb *B)
{
    const float eps = 1e-6f;
    float R[3][3], AbsR[3][3], d[3], t[3];
    /* R[i][j] = uA_i . uB_j: B's axes in A's frame. */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = dot(A->u[i], B->u[j]);
            AbsR[i][j] = fabsf(R[i][j]) + eps;
        }
    for (int c = 0; c < 3; c++)
        d[c] = B->c[c] - A->c[c];
    for (int i = 0; i < 3; i++)
        t[i] = dot(d, A->u[i]);
    const float *a = A->h, *b = B->h;

    /* L = uA_i */
    for (int i = 0; i < 3; i++) {
        float rb = b[0] * AbsR[i][0] + b[1] * AbsR[i][1] + b[2] * AbsR[i][2];
        if (fabsf(t[i]) > a[i] + rb)
            return 0;
    }
    /* L = uB_j */
    for (int j = 0; j < 3; j++) {
        float ra = a[0] * AbsR[0][j] + a[1] * AbsR[1][j] + a[2] * AbsR[2][j];
        if (fabsf(t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j]) > ra + b[j])
            return 0;
    }
    /* L = uA_i x uB_j (unnormalised: both sides scale alike). */
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            float ra = a[i1] * AbsR[i2][j] + a[i2] * AbsR[i1][j];
            float rb = b[j1] * AbsR[i][j2] + b[j2] * AbsR[i][j1];
            if (fabsf(t[i2] * R[i1][j] - t[i1] * R[i2][j]) > ra + rb)
                return 0;
        }
    }
    return 1;
}

size_t bl_textbook_overlap(const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit)
{
    BASELINE_BATCH(textbook_pair);
}

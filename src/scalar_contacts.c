/* scalar_contacts.c - the plain-C reference of the contact manifolds: defines the operation order every path reproduces. */
#include <math.h>
#include <string.h>

#include "contacts.h"

/* Like scalar.c, this file is compiled without SIMD flags, with -ffp-contract=off, and every
 * expression is written in the order the wide kernel evaluates it. The SAT part (loading, box
 * validity, the 15 gaps, collide's choice of the largest gap and the normal of an axis) repeats
 * scalar.c's expressions exactly, so that hit, normal and axis agree bit for bit with
 * satbox_collide() wherever the same axis wins. */

typedef struct cbox {
    float c[3], h[3], u[3][3]; /* center, half extents, u[k][c] = component c of axis k */
} cbox;

/* ---- loading and validity (scalar.c's expressions) ---------------------------------------- */

static int cbox_valid(const cbox *b)
{
    float size = ((((fabsf(b->c[0]) + fabsf(b->c[1])) + fabsf(b->c[2])) + b->h[0]) + b->h[1]) + b->h[2];
    float asum = 0.0f;
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            asum = asum + fabsf(b->u[k][c]);
    return b->h[0] >= 0.0f && b->h[1] >= 0.0f && b->h[2] >= 0.0f && size <= SATBOX_COORD_LIMIT &&
           asum <= SATBOX_AXIS_SUM_LIMIT;
}

static void quat_axes(float x, float y, float z, float w, float u[3][3])
{
    float n2 = ((x * x + y * y) + z * z) + w * w;
    if (!(n2 >= SATBOX_QUAT_MIN_NORM2 && n2 <= SATBOX_QUAT_MAX_NORM2)) {
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                u[k][c] = NAN;
        return;
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
}

static void load_mat(const satbox_boxes *s, size_t i, cbox *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->u[k][c] = s->axis[k][c][i];
}

static void load_quat(const satbox_qboxes *s, size_t i, cbox *b)
{
    for (int c = 0; c < 3; c++) {
        b->c[c] = s->center[c][i];
        b->h[c] = s->half[c][i];
    }
    quat_axes(s->quat[0][i], s->quat[1][i], s->quat[2][i], s->quat[3][i], b->u);
}

static void load_rec(const satbox_rec *r, cbox *b)
{
    memcpy(b->c, r->center, sizeof b->c);
    memcpy(b->h, r->half, sizeof b->h);
    memcpy(b->u, r->axis, sizeof b->u);
}

static void load_pair(const sbx_job *job, size_t i, cbox *a, cbox *b)
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

/* ---- the SAT step (scalar.c's sat_axes, keeping R) ---------------------------------------- */

typedef struct caxes {
    float R[3][3];  /* R[i][j] = uA_i . uB_j */
    float g[15];    /* |proj| - (rA + rB), unnormalised */
    float proj[15]; /* signed projection of cB - cA on the (unnormalised) axis */
    float len2[15]; /* squared axis length (1 for face axes) */
    int usable[15]; /* 0 for skipped near-parallel edge axes */
} caxes;

static void sat_axes(const cbox *A, const cbox *B, caxes *o)
{
    float AR[3][3], AE[3][3], t[3], d[3];
    float(*R)[3] = o->R;
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
    for (int i = 0; i < 3; i++) {
        float rb = (B->h[0] * AR[i][0] + B->h[1] * AR[i][1]) + B->h[2] * AR[i][2];
        o->proj[i] = t[i];
        o->g[i] = fabsf(t[i]) - (A->h[i] + rb);
        o->len2[i] = 1.0f;
        o->usable[i] = 1;
    }
    for (int j = 0; j < 3; j++) {
        float ra = (A->h[0] * AR[0][j] + A->h[1] * AR[1][j]) + A->h[2] * AR[2][j];
        float p = (t[0] * R[0][j] + t[1] * R[1][j]) + t[2] * R[2][j];
        o->proj[3 + j] = p;
        o->g[3 + j] = fabsf(p) - (ra + B->h[j]);
        o->len2[3 + j] = 1.0f;
        o->usable[3 + j] = 1;
    }
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

/* Collide's choice among axes [from, 15): the largest normalised gap, compared without a square
 * root (see scalar.c ref_collide). Starts from a state that every usable axis beats. Returns the
 * axis (-1 if none is usable) and its gap and squared length. */
static int best_axis(const caxes *ax, int from, float *gap, float *len2)
{
    int best = -1;
    float bg = -INFINITY, bl = 1.0f, bs = -INFINITY;
    for (int k = from; k < 15; k++) {
        float g = ax->g[k], l = ax->len2[k], s = g * fabsf(g);
        int pos = g > 0.0f, bpos = bg > 0.0f;
        int gt = s * bl > bs * l;
        int better = (pos && !bpos) || (gt && !(bpos && !pos));
        if (ax->usable[k] && better) {
            best = k;
            bg = g;
            bl = l;
            bs = s;
        }
    }
    *gap = bg;
    *len2 = bl;
    return best;
}

/* Normalised gap as collide reports it. */
static float separation(float gap, float len2)
{
    float sep = gap / sqrtf(len2);
    return sep == 0.0f ? gap : sep;
}

/* The world normal of axis k from A towards B, exactly as collide computes it. */
static void axis_normal(const cbox *A, const cbox *B, int k, float proj, float n[3])
{
    if (k < 3) {
        memcpy(n, A->u[k], 3 * sizeof(float));
    } else if (k < 6) {
        memcpy(n, B->u[k - 3], 3 * sizeof(float));
    } else {
        const float *a = A->u[(k - 6) / 3], *b = B->u[(k - 6) % 3];
        float cx = a[1] * b[2] - a[2] * b[1];
        float cy = a[2] * b[0] - a[0] * b[2];
        float cz = a[0] * b[1] - a[1] * b[0];
        float len = sqrtf((cx * cx + cy * cy) + cz * cz);
        n[0] = cx / len;
        n[1] = cy / len;
        n[2] = cz / len;
        if (!(len > 0.0f))
            n[0] = n[1] = n[2] = 0.0f;
    }
    if (proj < 0.0f) {
        n[0] = -n[0];
        n[1] = -n[1];
        n[2] = -n[2];
    }
}

/* The larger of a and b (b if a is NaN). */
static float fmaxf_(float a, float b) { return a > b ? a : b; }

/* x clamped to [-h, h] (h >= 0). */
static float clampf(float x, float h) { return x < -h ? -h : (x > h ? h : x); }

static float dot3(const float a[3], const float b[3]) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }

/* ---- one pair ----------------------------------------------------------------------------- */

typedef struct cout {
    uint8_t hit, axis, bad, count;
    float normal[3];
    float point[4][3], depth[4];
    uint32_t feature[4];
} cout;

#define NCAND 24 /* 4 incident corners, 4 edges x 4 side planes, 4 reference corners */

/* Signs of the corners (q or c = 0..3) along the two in-face axes: (-,-), (+,-), (+,+), (-,+). */
static const float corner_s1[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
static const float corner_s2[4] = {-1.0f, -1.0f, 1.0f, 1.0f};

/* 1 if (x, y) lies within ct (in both coordinates) of an incident corner inside the grown side
 * planes: such a crossing or reference corner is the same vertex as that corner, and keeping
 * only the corner keeps the feature ids of nearly coincident edges (aligned stacks) stable. */
static int near_corner(float x, float y, const float x1[4], const float x2[4], const int inq[4], float ct)
{
    int near = 0;
    for (int q = 0; q < 4; q++)
        near |= inq[q] && fabsf(x - x1[q]) <= ct && fabsf(y - x2[q]) <= ct;
    return near;
}

/* Face axis kf (0..5) won: clip the incident face against the reference face's side planes,
 * keep the candidates with depth >= -margin, reduce to 4 (see satbox.h, rules 3, 4 and 6). */
static void face_manifold(const cbox *A, const cbox *B, const caxes *ax, int kf, float margin, float keep_tol,
                          float near_tol, cout *o)
{
    int ref_a = kf < 3;
    const cbox *P = ref_a ? A : B, *Q = ref_a ? B : A;
    int k = kf % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    /* sr: side of P's axis k facing Q (the reference face's outward normal is sr * uP_k). */
    float sr = ax->proj[kf] < 0.0f ? (ref_a ? -1.0f : 1.0f) : (ref_a ? 1.0f : -1.0f);

    /* Incident face: Q's axis m most (anti-)parallel to the reference normal; side sq facing P. */
    float dq[3];
    for (int m = 0; m < 3; m++)
        dq[m] = sr * (ref_a ? ax->R[k][m] : ax->R[m][k]);
    int m = 0;
    for (int j = 1; j < 3; j++)
        if (fabsf(dq[j]) > fabsf(dq[m]))
            m = j;
    float sq = dq[m] > 0.0f ? -1.0f : 1.0f;
    int m1 = (m + 1) % 3, m2 = (m + 2) % 3;

    /* Incident corners (world) and their coordinates in the reference face's frame. */
    float v[4][3], x1[4], x2[4], d[4];
    float hq = sq * Q->h[m];
    for (int q = 0; q < 4; q++) {
        for (int c = 0; c < 3; c++) {
            float fc = Q->c[c] + hq * Q->u[m][c];
            float e1 = Q->h[m1] * Q->u[m1][c], e2 = Q->h[m2] * Q->u[m2][c];
            v[q][c] = (fc + corner_s1[q] * e1) + corner_s2[q] * e2;
        }
        float rel[3] = {v[q][0] - P->c[0], v[q][1] - P->c[1], v[q][2] - P->c[2]};
        x1[q] = dot3(rel, P->u[k1]);
        x2[q] = dot3(rel, P->u[k2]);
        d[q] = P->h[k] - sr * dot3(rel, P->u[k]);
    }
    float H1 = P->h[k1], H2 = P->h[k2], lo = -(margin + keep_tol);

    float cp[NCAND][3], cd[NCAND], cx[NCAND], cy[NCAND];
    int keep[NCAND], inq[4];
    float ct = near_tol;
    /* 0-3: incident corners inside the 4 side planes, grown by ct. */
    for (int q = 0; q < 4; q++) {
        memcpy(cp[q], v[q], sizeof cp[q]);
        cd[q] = d[q];
        cx[q] = x1[q];
        cy[q] = x2[q];
        inq[q] = fabsf(x1[q]) <= H1 + ct && fabsf(x2[q]) <= H2 + ct;
        keep[q] = inq[q] && d[q] >= lo;
    }
    /* 4 + 4e + p: incident edge e (corner e to corner e+1) crossing side plane p (+k1, -k1, +k2,
     * -k2), inside the other two planes. */
    for (int e = 0; e < 4; e++) {
        int q0 = e, q1 = (e + 1) & 3;
        for (int p = 0; p < 4; p++) {
            int id = 4 + 4 * e + p;
            int on1 = p < 2;
            float bound = (p & 1) ? -(on1 ? H1 : H2) : (on1 ? H1 : H2);
            float a0 = on1 ? x1[q0] : x2[q0], a1 = on1 ? x1[q1] : x2[q1];
            float b0 = on1 ? x2[q0] : x1[q0], b1 = on1 ? x2[q1] : x1[q1];
            float hb = on1 ? H2 : H1;
            int in0 = (p & 1) ? a0 >= bound - ct : a0 <= bound + ct;
            int in1 = (p & 1) ? a1 >= bound - ct : a1 <= bound + ct;
            float t = (bound - a0) / (a1 - a0);
            for (int c = 0; c < 3; c++)
                cp[id][c] = v[q0][c] + t * (v[q1][c] - v[q0][c]);
            cd[id] = d[q0] + t * (d[q1] - d[q0]);
            float b = b0 + t * (b1 - b0);
            cx[id] = on1 ? bound : b;
            cy[id] = on1 ? b : bound;
            keep[id] = in0 != in1 && t >= 0.0f && t <= 1.0f && fabsf(b) <= hb && cd[id] >= lo &&
                       !near_corner(cx[id], cy[id], x1, x2, inq, ct);
        }
    }
    /* 20 + c: reference corners inside the incident face seen along the reference normal, lifted
     * onto the incident face: (X, Y) = corner0 + alpha * edge0 + beta * edge3. */
    float E1x = x1[1] - x1[0], E1y = x2[1] - x2[0], E2x = x1[3] - x1[0], E2y = x2[3] - x2[0];
    float det = E1x * E2y - E1y * E2x;
    for (int c = 0; c < 4; c++) {
        int id = 20 + c;
        float X = corner_s1[c] * H1, Y = corner_s2[c] * H2;
        float rx = X - x1[0], ry = Y - x2[0];
        float al = (rx * E2y - ry * E2x) / det;
        float be = (E1x * ry - E1y * rx) / det;
        for (int k3 = 0; k3 < 3; k3++)
            cp[id][k3] = (v[0][k3] + al * (v[1][k3] - v[0][k3])) + be * (v[3][k3] - v[0][k3]);
        cd[id] = (d[0] + al * (d[1] - d[0])) + be * (d[3] - d[0]);
        cx[id] = X;
        cy[id] = Y;
        keep[id] = al >= 0.0f && al <= 1.0f && be >= 0.0f && be <= 1.0f && cd[id] >= lo &&
                   !near_corner(X, Y, x1, x2, inq, ct);
    }

    /* Reduction: deepest, farthest from it, largest positive and negative triangle areas. */
    /* p0: the first candidate within near_tol of the deepest, so that equally deep points
     * (a resting face) do not trade places from frame to frame over rounding-sized tilts. */
    float bd = -INFINITY;
    for (int i = 0; i < NCAND; i++)
        if (keep[i] && cd[i] > bd)
            bd = cd[i];
    int i0 = -1;
    float dmin = bd - near_tol;
    for (int i = NCAND - 1; i >= 0; i--)
        if (keep[i] && cd[i] >= dmin)
            i0 = i;
    int sel[4], ns = 0, fallback = 0;
    if (i0 >= 0) {
        int i1 = -1, i2 = -1, i3 = -1;
        float bf = 0.0f, bp = 0.0f, bn = 0.0f;
        for (int i = 0; i < NCAND; i++) {
            float dx = cx[i] - cx[i0], dy = cy[i] - cy[i0];
            float f = dx * dx + dy * dy;
            if (keep[i] && f > bf) {
                i1 = i;
                bf = f;
            }
        }
        float ux = i1 >= 0 ? cx[i1] - cx[i0] : 0.0f, uy = i1 >= 0 ? cy[i1] - cy[i0] : 0.0f;
        for (int i = 0; i < NCAND; i++) {
            float ar = ux * (cy[i] - cy[i0]) - uy * (cx[i] - cx[i0]);
            if (keep[i] && ar > bp) {
                i2 = i;
                bp = ar;
            }
            if (keep[i] && ar < bn) {
                i3 = i;
                bn = ar;
            }
        }
        sel[ns++] = i0;
        if (i1 >= 0)
            sel[ns++] = i1;
        if (i2 >= 0)
            sel[ns++] = i2;
        if (i3 >= 0)
            sel[ns++] = i3;
    } else {
        /* Fallback (rule 6): the incident corner nearest the side slabs, unclipped. */
        int q = 0;
        float bx = fmaxf_(fabsf(x1[0]) - H1, fabsf(x2[0]) - H2);
        for (int j = 1; j < 4; j++) {
            float ex = fmaxf_(fabsf(x1[j]) - H1, fabsf(x2[j]) - H2);
            if (ex < bx) {
                q = j;
                bx = ex;
            }
        }
        sel[ns++] = q;
        fallback = 1;
    }
    uint32_t base = (uint32_t)((ref_a ? 0 : 6) + 2 * k + (sr < 0.0f)) | (uint32_t)(2 * m + (sq < 0.0f)) << 8;
    for (int s = 0; s < ns; s++) {
        memcpy(o->point[s], cp[sel[s]], sizeof o->point[s]);
        o->depth[s] = cd[sel[s]];
        o->feature[s] = base | (uint32_t)(fallback ? (int)SATBOX_FEATURE_FALLBACK + sel[s] : sel[s]) << 16;
    }
    o->count = (uint8_t)ns;
}

/* Edge axis ke won: one point, the midpoint of the closest points of the supporting edges. */
static void edge_point(const cbox *A, const cbox *B, const caxes *ax, int ke, float sep, cout *o)
{
    int i = (ke - 6) / 3, j = (ke - 6) % 3;
    const float *n = o->normal;
    float pa[3], pb[3];
    unsigned ea = 0, eb = 0;
    /* A's edge: farthest along n; B's edge: farthest against n. */
    float sa1 = dot3(n, A->u[(i + 1) % 3]) < 0.0f ? -1.0f : 1.0f;
    float sa2 = dot3(n, A->u[(i + 2) % 3]) < 0.0f ? -1.0f : 1.0f;
    float sb1 = dot3(n, B->u[(j + 1) % 3]) < 0.0f ? 1.0f : -1.0f;
    float sb2 = dot3(n, B->u[(j + 2) % 3]) < 0.0f ? 1.0f : -1.0f;
    float ha1 = sa1 * A->h[(i + 1) % 3], ha2 = sa2 * A->h[(i + 2) % 3];
    float hb1 = sb1 * B->h[(j + 1) % 3], hb2 = sb2 * B->h[(j + 2) % 3];
    for (int c = 0; c < 3; c++) {
        pa[c] = (A->c[c] + ha1 * A->u[(i + 1) % 3][c]) + ha2 * A->u[(i + 2) % 3][c];
        pb[c] = (B->c[c] + hb1 * B->u[(j + 1) % 3][c]) + hb2 * B->u[(j + 2) % 3][c];
    }
    ea = (unsigned)(4 * i) + (sa1 < 0.0f) + 2u * (sa2 < 0.0f);
    eb = (unsigned)(4 * j) + (sb1 < 0.0f) + 2u * (sb2 < 0.0f);
    float w[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
    float bb = ax->R[i][j], dd = dot3(A->u[i], w), ee = dot3(B->u[j], w), l2 = ax->len2[ke];
    float s = (bb * ee - dd) / l2, t = (ee - bb * dd) / l2;
    s = clampf(s, A->h[i]);
    t = clampf(t, B->h[j]);
    for (int c = 0; c < 3; c++)
        o->point[0][c] = ((pa[c] + s * A->u[i][c]) + (pb[c] + t * B->u[j][c])) * 0.5f;
    o->depth[0] = -sep;
    o->feature[0] = (0x80u + ea) | eb << 8 | SATBOX_FEATURE_EDGE << 16;
    o->count = 1;
}

static void ref_contacts(const cbox *A, const cbox *B, float margin, cout *o)
{
    memset(o->point, 0, sizeof o->point);
    memset(o->depth, 0, sizeof o->depth);
    for (int s = 0; s < 4; s++)
        o->feature[s] = SATBOX_FEATURE_NONE;
    o->count = 0;
    o->bad = !(cbox_valid(A) && cbox_valid(B));
    if (o->bad) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    caxes ax;
    sat_axes(A, B, &ax);
    float bg, bl;
    best_axis(&ax, 0, &bg, &bl);
    o->hit = separation(bg, bl) <= margin ? 1 : 0;

    /* Rule 2: A's best face, B's best face, the best edge, with the hysteresis tolerance. */
    int ka = 0, kb = 3;
    for (int k = 1; k < 3; k++) {
        if (ax.g[k] > ax.g[ka])
            ka = k;
        if (ax.g[3 + k] > ax.g[kb])
            kb = 3 + k;
    }
    float size = ((((A->h[0] + A->h[1]) + A->h[2]) + B->h[0]) + B->h[1]) + B->h[2];
    float abs_tol = SATBOX_CONTACT_ABS_TOL * size;
    float ga = ax.g[ka];
    int kf = ax.g[kb] > ga + (SATBOX_CONTACT_REL_TOL * fabsf(ga) + abs_tol) ? kb : ka;
    float sf = ax.g[kf];
    float eg, el;
    int ke = best_axis(&ax, 6, &eg, &el);
    float se = separation(eg, el);
    int use_edge = ke >= 0 && se > sf + (SATBOX_CONTACT_REL_TOL * fabsf(sf) + abs_tol);
    int k = use_edge ? ke : kf;
    o->axis = (uint8_t)k;
    axis_normal(A, B, k, ax.proj[k], o->normal);
    if (!o->hit)
        return;
    if (use_edge)
        edge_point(A, B, &ax, ke, se, o);
    else
        face_manifold(A, B, &ax, kf, margin, SATBOX_CONTACT_KEEP_TOL * size, abs_tol, o);
}

static ptrdiff_t scalar_contacts(const sbx_cjob *cj)
{
    const sbx_job *job = &cj->pair;
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        cbox a, b;
        cout o;
        load_pair(job, i, &a, &b);
        ref_contacts(&a, &b, job->margin, &o);
        if (job->hit)
            job->hit[i] = o.hit;
        for (int c = 0; c < 3; c++)
            if (job->normal[c])
                job->normal[c][i] = o.normal[c];
        if (job->axis)
            job->axis[i] = o.axis;
        if (job->bad)
            job->bad[i] = o.bad;
        if (cj->count)
            cj->count[i] = o.count;
        for (int s = 0; s < 4; s++) {
            for (int c = 0; c < 3; c++)
                if (cj->point[s][c])
                    cj->point[s][c][i] = o.point[s][c];
            if (cj->depth[s])
                cj->depth[s][i] = o.depth[s];
            if (cj->feature[s])
                cj->feature[s][i] = o.feature[s];
        }
        if (o.hit == 1) {
            if (job->compact)
                job->compact[count] = (uint32_t)i;
            count++;
        }
    }
    return (ptrdiff_t)count;
}

const sbx_contacts_kernels sbx_contacts_scalar = {scalar_contacts, 1};

/* scalar_contacts.c - the plain-C reference of the contact manifolds: defines the operation order every path reproduces. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "contacts.h"
#include "scalar_sat.h"

/* Like scalar.c, this file is compiled without SIMD flags, with -ffp-contract=off, and every
 * expression is written in the order the wide kernel evaluates it. The SAT part (loading, pair
 * validity, the 15 gaps, the normal of an axis) is scalar_sat.h's, the same code as
 * satbox_collide()'s reference, so that hit, normal and axis agree bit for bit with it wherever
 * the same axis wins. */

/* maxps / minps semantics (b unless a is strictly greater / smaller); NaN is kept away. */
static float maxf(float a, float b) { return a > b ? a : b; }
static float minf(float a, float b) { return a < b ? a : b; }

static float dot3(const float a[3], const float b[3]) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }

/* x clamped to [-h, h] (h >= 0). */
static float clampf(float x, float h) { return x < -h ? -h : (x > h ? h : x); }

/* ---- one pair ----------------------------------------------------------------------------- */

typedef struct cout {
    uint8_t hit, axis, bad, count;
    float normal[3];
    float point[4][3], depth[4];
    uint32_t feature[4];
} cout;

/* The SAT part of rule 2: what the axis choice and the manifold need of the 15 axes. */
typedef struct csat {
    sat_pair P;
    float pb[3];              /* projections of d on B's axes (B's face gaps' proj) */
    float ga, gb, se, pe;     /* best face gap of A, of B; best edge separation and its proj */
    int ka, kb, ke;           /* their axes (ke = -1: no usable edge) */
    float sum_h, margin_max;  /* sum of the six extents; max gap over all axes (collide's separation) */
} csat;

static void sat_step(const obox *A, const obox *B, csat *S)
{
    pair_setup(A, B, &S->P);
    S->ka = 0;
    S->ga = gap_face_a(A, B, &S->P, 0);
    for (int i = 1; i < 3; i++) {
        float g = gap_face_a(A, B, &S->P, i);
        if (g > S->ga) {
            S->ga = g;
            S->ka = i;
        }
    }
    S->kb = 3;
    S->gb = gap_face_b(A, B, &S->P, 0, &S->pb[0]);
    for (int j = 1; j < 3; j++) {
        float g = gap_face_b(A, B, &S->P, j, &S->pb[j]);
        if (g > S->gb) {
            S->gb = g;
            S->kb = 3 + j;
        }
    }
    S->ke = -1;
    S->se = -INFINITY;
    S->pe = 0.0f;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float proj, g = gap_edge(A, B, &S->P, i, j, &proj);
            float sv = g / minf(sqrtf(len2_edge(&S->P, i, j)), 1.0f);
            if (S->P.AR[i][j] < SATBOX_PARALLEL_ABS_COS && sv > S->se) {
                S->se = sv;
                S->pe = proj;
                S->ke = 6 + 3 * i + j;
            }
        }
    S->sum_h = ((((A->h[0] + A->h[1]) + A->h[2]) + B->h[0]) + B->h[1]) + B->h[2];
    /* collide's separation is the max of the same values (its running argmax keeps the max). */
    S->margin_max = maxf(maxf(S->ga, S->gb), S->se);
}

#define NCAND 12 /* per incident edge e: its entry point (0-3), its exit crossing (4-7); reference corners (8-11) */

/* Signs of the corners (q or c = 0..3) along the two in-face axes: (-,-), (+,-), (+,+), (-,+). */
static const float corner_s1[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
static const float corner_s2[4] = {-1.0f, -1.0f, 1.0f, 1.0f};

/* 1 if (x, y) lies within ct (in both coordinates) of incident corner q, inside the grown side
 * planes: such a crossing is the same vertex as that corner (rule 3). */
static int near_end(float x, float y, const float x1[4], const float x2[4], const int inq[4], int q, float ct)
{
    return inq[q] && fabsf(x - x1[q]) <= ct && fabsf(y - x2[q]) <= ct;
}

/* Face axis kf (0..5) won with projection pf: clip the incident face against the reference
 * face's side planes in the reference face's frame (x along k1, y along k2, depth below the face),
 * keep, reduce to 4, then place the points in the world (satbox.h, rules 3, 4 and 6). */
static void face_manifold(const obox *A, const obox *B, const csat *S, int kf, float pf, float margin, cout *o)
{
    const sat_pair *P = &S->P;
    int ref_a = kf < 3;
    const obox *Pb = ref_a ? A : B, *Qb = ref_a ? B : A;
    int k = kf % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    /* sr: side of P's axis k facing Q (the reference face's outward normal is sr * uP_k). */
    float sr = pf < 0.0f ? (ref_a ? -1.0f : 1.0f) : (ref_a ? 1.0f : -1.0f);
    /* Q's center and axes in P's frame: from A's frame (t, R) or B's frame (-pb, R^T). */
    float qc[3], qu[3][3];
    for (int a = 0; a < 3; a++) {
        qc[a] = ref_a ? P->t[a] : -S->pb[a];
        for (int j = 0; j < 3; j++)
            qu[j][a] = ref_a ? P->R[a][j] : P->R[j][a];
    }
    /* Incident face: Q's axis m most (anti-)parallel to the reference normal; side sq facing P. */
    float dq[3];
    for (int j = 0; j < 3; j++)
        dq[j] = sr * qu[j][k];
    int m = 0;
    for (int j = 1; j < 3; j++)
        if (fabsf(dq[j]) > fabsf(dq[m]))
            m = j;
    float sq = dq[m] > 0.0f ? -1.0f : 1.0f;
    int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
    /* Face center f and half edges e1, e2 in P's frame, as (z, x, y) = components (k, k1, k2). */
    float hq = sq * Qb->h[m];
    int comp[3] = {k, k1, k2};
    float f[3], e1[3], e2[3];
    for (int r = 0; r < 3; r++) {
        int a = comp[r];
        f[r] = qc[a] + hq * qu[m][a];
        e1[r] = Qb->h[m1] * qu[m1][a];
        e2[r] = Qb->h[m2] * qu[m2][a];
    }
    float hk = Pb->h[k], H1 = Pb->h[k1], H2 = Pb->h[k2];
    float ct = SATBOX_CONTACT_ABS_TOL * S->sum_h;
    float lo = -(margin + SATBOX_CONTACT_KEEP_TOL * S->sum_h);
    float H1c = H1 + ct, H2c = H2 + ct;

    float x1[4], x2[4], d[4];
    int inq[4];
    float cx[NCAND], cy[NCAND], cd[NCAND];
    int keep[NCAND];
    unsigned code[NCAND];
    /* Incident corners; inside when within the 4 side planes grown by ct. */
    for (int q = 0; q < 4; q++) {
        float z = (f[0] + corner_s1[q] * e1[0]) + corner_s2[q] * e2[0];
        x1[q] = (f[1] + corner_s1[q] * e1[1]) + corner_s2[q] * e2[1];
        x2[q] = (f[2] + corner_s1[q] * e1[2]) + corner_s2[q] * e2[2];
        d[q] = hk - sr * z;
        inq[q] = fabsf(x1[q]) <= H1c && fabsf(x2[q]) <= H2c;
    }
    /* Incident edge e runs from corner e along g = +2 e1, +2 e2, -2 e1, -2 e2 (t in [0, 1]). Its
     * part inside the reference face's side planes is [tin, tout] (slab clipping; an edge parallel
     * to a slab and on its boundary counts as inside: the NaN of 0 * inf is dropped by the max/min
     * order). Candidate e: corner e if inside (grown), else the entry crossing; candidate 4 + e: the
     * exit crossing if corner e+1 is outside (grown). A crossing lies exactly on its side plane. */
    float gx[2] = {2.0f * e1[1], 2.0f * e2[1]}, gy[2] = {2.0f * e1[2], 2.0f * e2[2]};
    float gd[2] = {-(sr * (2.0f * e1[0])), -(sr * (2.0f * e2[0]))};
    float sgx[2], sgy[2], ivx[2], ivy[2];
    for (int a = 0; a < 2; a++) {
        sgx[a] = gx[a] < 0.0f ? -1.0f : 1.0f;
        sgy[a] = gy[a] < 0.0f ? -1.0f : 1.0f;
        ivx[a] = 1.0f / fabsf(gx[a]);
        ivy[a] = 1.0f / fabsf(gy[a]);
    }
    for (int e = 0; e < 4; e++) {
        int q0 = e, q1 = (e + 1) & 3, a = e & 1;
        if (inq[q0] && inq[q1]) {
            /* both ends inside: the corner, and no crossing (the wide kernel computes the
             * crossings and masks them out; a candidate not kept is never read) */
            cx[e] = x1[q0];
            cy[e] = x2[q0];
            cd[e] = d[q0];
            code[e] = (unsigned)q0;
            keep[e] = d[q0] >= lo;
            keep[4 + e] = 0;
            continue;
        }
        float flip = e < 2 ? 1.0f : -1.0f;
        float sx = flip * sgx[a], sy = flip * sgy[a], dx = flip * gx[a], dy = flip * gy[a], dd = flip * gd[a];
        float enx = (-H1 - sx * x1[q0]) * ivx[a], exx = (H1 - sx * x1[q0]) * ivx[a];
        float eny = (-H2 - sy * x2[q0]) * ivy[a], exy = (H2 - sy * x2[q0]) * ivy[a];
        float eny0 = maxf(eny, 0.0f), exy1 = minf(exy, 1.0f);
        float tin = maxf(enx, eny0), tout = minf(exx, exy1);
        int seg = tin <= tout;
        /* entry */
        int px = enx > eny0;
        float xi = px ? -(sx * H1) : x1[q0] + tin * dx;
        float yi = px ? x2[q0] + tin * dy : -(sy * H2);
        float di = d[q0] + tin * dd;
        unsigned pi = px ? (sx > 0.0f ? 1u : 0u) : (sy > 0.0f ? 3u : 2u);
        if (inq[q0]) {
            cx[e] = x1[q0];
            cy[e] = x2[q0];
            cd[e] = d[q0];
            code[e] = (unsigned)q0;
            keep[e] = d[q0] >= lo;
        } else {
            cx[e] = xi;
            cy[e] = yi;
            cd[e] = di;
            code[e] = 4u + 4u * (unsigned)e + pi;
            keep[e] = seg && di >= lo && !near_end(xi, yi, x1, x2, inq, q1, ct);
        }
        /* exit */
        int qx = exx < exy1;
        float xo = qx ? sx * H1 : x1[q0] + tout * dx;
        float yo = qx ? x2[q0] + tout * dy : sy * H2;
        float dout = d[q0] + tout * dd;
        cx[4 + e] = xo;
        cy[4 + e] = yo;
        cd[4 + e] = dout;
        code[4 + e] = 4u + 4u * (unsigned)e + (qx ? (sx > 0.0f ? 0u : 1u) : (sy > 0.0f ? 2u : 3u));
        keep[4 + e] = !inq[q1] && seg && dout >= lo && !near_end(xo, yo, x1, x2, inq, q0, ct);
    }
    /* Reference corners c inside the incident face seen along the reference normal:
     * (X, Y) = corner 0 + al g(e1) + be g(e2), al, be in [0, 1]; dropped when an inside incident
     * corner lies within ct of it (in its ct square: |x1| >= H1 - ct, |x2| >= H2 - ct, same signs). */
    int nearc[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4; q++)
        if (inq[q] && fabsf(x1[q]) >= H1 - ct && fabsf(x2[q]) >= H2 - ct)
            nearc[x2[q] > 0.0f ? (x1[q] > 0.0f ? 2 : 3) : (x1[q] > 0.0f ? 1 : 0)] = 1;
    float idet = 1.0f / (gx[0] * gy[1] - gy[0] * gx[1]);
    for (int c = 0; c < 4; c++) {
        int id = 8 + c;
        float X = corner_s1[c] * H1, Y = corner_s2[c] * H2;
        float rx = X - x1[0], ry = Y - x2[0];
        float al = (rx * gy[1] - ry * gx[1]) * idet;
        float be = (gx[0] * ry - gy[0] * rx) * idet;
        cd[id] = (d[0] + al * gd[0]) + be * gd[1];
        cx[id] = X;
        cy[id] = Y;
        code[id] = 20u + (unsigned)c;
        keep[id] = al >= 0.0f && al <= 1.0f && be >= 0.0f && be <= 1.0f && cd[id] >= lo && !nearc[c];
    }

    /* Reduction (rule 4), over the kept candidates in index order (the wide kernel's passes
     * over all 12 with masks pick the same ones). p0: the first candidate within ct of the deepest. */
    int kl[NCAND], nk = 0;
    float bd = -INFINITY;
    for (int i = 0; i < NCAND; i++)
        if (keep[i]) {
            kl[nk++] = i;
            if (cd[i] > bd)
                bd = cd[i];
        }
    float dmin = bd - ct;
    int i0 = -1;
    for (int t = 0; t < nk; t++)
        if (cd[kl[t]] >= dmin) {
            i0 = kl[t];
            break;
        }
    float sx_[4], sy_[4], sd_[4];
    unsigned sc_[4];
    int ns = 0;
    if (i0 >= 0) {
        int i1 = -1, i2 = -1, i3 = -1;
        float bf = 0.0f, bp = 0.0f, bn = 0.0f;
        for (int t = 0; t < nk; t++) {
            int i = kl[t];
            float dx = cx[i] - cx[i0], dy = cy[i] - cy[i0];
            float fd = dx * dx + dy * dy;
            if (fd > bf) {
                i1 = i;
                bf = fd;
            }
        }
        /* No two points within ct of each other (the earlier point stays): p1 only beyond ct of
         * p0, p2 and p3 only beyond ct of the line p0 p1 (area > ct |p1 - p0|). */
        float lf = sqrtf(bf);
        if (!(lf > ct))
            i1 = -1;
        int j1 = i1 >= 0 ? i1 : i0;
        float ux = cx[j1] - cx[i0], uy = cy[j1] - cy[i0];
        for (int t = 0; t < nk; t++) {
            int i = kl[t];
            float ar = ux * (cy[i] - cy[i0]) - uy * (cx[i] - cx[i0]);
            if (ar > bp) {
                i2 = i;
                bp = ar;
            }
            if (ar < bn) {
                i3 = i;
                bn = ar;
            }
        }
        float amin = ct * lf;
        if (!(bp > amin))
            i2 = -1;
        if (!(bn < -amin))
            i3 = -1;
        /* Around the contact polygon (rule 4): p2 and p3 lie on either side of the diagonal p0 p1. */
        int sel[4] = {i0, i2, i1, i3};
        for (int s = 0; s < 4; s++)
            if (sel[s] >= 0) {
                sx_[ns] = cx[sel[s]];
                sy_[ns] = cy[sel[s]];
                sd_[ns] = cd[sel[s]];
                sc_[ns++] = code[sel[s]];
            }
    } else {
        /* Fallback (rule 6): the incident corner nearest the side slabs, unclipped. */
        int q = 0;
        float bx = maxf(fabsf(x1[0]) - H1, fabsf(x2[0]) - H2);
        for (int j = 1; j < 4; j++) {
            float ex = maxf(fabsf(x1[j]) - H1, fabsf(x2[j]) - H2);
            if (ex < bx) {
                q = j;
                bx = ex;
            }
        }
        sx_[0] = x1[q];
        sy_[0] = x2[q];
        sd_[0] = d[q];
        sc_[0] = SATBOX_FEATURE_FALLBACK + (unsigned)q;
        ns = 1;
    }
    uint32_t base = SBX_FEATURE((ref_a ? 0 : 6) + 2 * k + (sr < 0.0f), 2 * m + (sq < 0.0f), 0);
    for (int s = 0; s < ns; s++) {
        /* world = cP + x uP_k1 + y uP_k2 + z uP_k, with z = sr (hk - depth) */
        float z = (hk - sd_[s]) * sr;
        for (int c = 0; c < 3; c++)
            o->point[s][c] = ((Pb->c[c] + sx_[s] * Pb->u[k1][c]) + sy_[s] * Pb->u[k2][c]) + z * Pb->u[k][c];
        o->depth[s] = sd_[s];
        o->feature[s] = base | SBX_FEATURE(0, 0, sc_[s]);
    }
    o->count = (uint8_t)ns;
}

/* Edge axis ke won: one point, the midpoint of the closest points of the supporting edge
 * segments. Worked relative to A's center (from the center difference), so that the error
 * follows the pair's size, not its distance from the origin: the line parameters divide it by
 * |uA_i x uB_j|^2. */
static void edge_point(const obox *A, const obox *B, const csat *S, int ke, cout *o)
{
    int i = (ke - 6) / 3, j = (ke - 6) % 3, ia = (i + 1) % 3, ib = (i + 2) % 3, ja = (j + 1) % 3, jb = (j + 2) % 3;
    const float *n = o->normal;
    /* A's edge: farthest along n; B's edge: farthest against n. */
    float sa1 = dot3(n, A->u[ia]) < 0.0f ? -1.0f : 1.0f;
    float sa2 = dot3(n, A->u[ib]) < 0.0f ? -1.0f : 1.0f;
    float sb1 = dot3(n, B->u[ja]) < 0.0f ? 1.0f : -1.0f;
    float sb2 = dot3(n, B->u[jb]) < 0.0f ? 1.0f : -1.0f;
    float ha1 = sa1 * A->h[ia], ha2 = sa2 * A->h[ib];
    float hb1 = sb1 * B->h[ja], hb2 = sb2 * B->h[jb];
    float pa[3], pb[3], w[3];
    for (int c = 0; c < 3; c++) {
        pa[c] = ha1 * A->u[ia][c] + ha2 * A->u[ib][c];
        pb[c] = ((B->c[c] - A->c[c]) + hb1 * B->u[ja][c]) + hb2 * B->u[jb][c];
        w[c] = pa[c] - pb[c];
    }
    /* Closest points of the segments pa + s uA_i (|s| <= hA_i), pb + t uB_j (|t| <= hB_j): the
     * lines' s clamped, t of the point of B's line nearest to it clamped, and s again from t
     * when t was clamped. */
    float bb = S->P.R[i][j], dd = dot3(A->u[i], w), ee = dot3(B->u[j], w), l2 = len2_edge(&S->P, i, j);
    float sp = clampf((bb * ee - dd) / l2, A->h[i]);
    float tu = ee + bb * sp, tp = clampf(tu, B->h[j]);
    if (!(tp == tu))
        sp = clampf(bb * tp - dd, A->h[i]);
    for (int c = 0; c < 3; c++)
        o->point[0][c] = A->c[c] + ((pa[c] + sp * A->u[i][c]) + (pb[c] + tp * B->u[j][c])) * 0.5f;
    o->depth[0] = -S->se;
    unsigned ea = (unsigned)(4 * i) + (sa1 < 0.0f) + 2u * (sa2 < 0.0f);
    unsigned eb = (unsigned)(4 * j) + (sb1 < 0.0f) + 2u * (sb2 < 0.0f);
    o->feature[0] = SBX_FEATURE(SBX_FEAT_EDGE_A + ea, eb, SATBOX_FEATURE_EDGE);
    o->count = 1;
}

static void ref_contacts(const obox *A, const obox *B, float margin, cout *o)
{
    memset(o->point, 0, sizeof o->point);
    memset(o->depth, 0, sizeof o->depth);
    for (int s = 0; s < 4; s++)
        o->feature[s] = SATBOX_FEATURE_NONE;
    o->count = 0;
    csat S;
    sat_step(A, B, &S);
    o->bad = !S.P.valid;
    if (o->bad) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    o->hit = S.margin_max <= margin ? 1 : 0;
    /* Rule 2: B's face only if better than A's by tol; an edge only if better than that face by tol. */
    float abs_tol = SATBOX_CONTACT_ABS_TOL * S.sum_h;
    int use_b = S.gb > S.ga + (SATBOX_CONTACT_REL_TOL * fabsf(S.ga) + abs_tol);
    float sf = use_b ? S.gb : S.ga;
    float pf = use_b ? S.pb[S.kb - 3] : S.P.t[S.ka];
    int kf = use_b ? S.kb : S.ka;
    int use_edge = S.ke >= 0 && S.se > sf + (SATBOX_CONTACT_REL_TOL * fabsf(sf) + abs_tol);
    int k = use_edge ? S.ke : kf;
    o->axis = (uint8_t)k;
    axis_normal(A, B, k, use_edge ? S.pe : pf, o->normal);
    if (!o->hit)
        return;
    if (use_edge)
        edge_point(A, B, &S, S.ke, o);
    else
        face_manifold(A, B, &S, kf, pf, margin, o);
}

static ptrdiff_t scalar_contacts(const sbx_cjob *cj)
{
    const sbx_job *job = &cj->pair;
    size_t count = 0;
    for (size_t i = 0; i < job->n; i++) {
        obox a, b;
        cout o;
        load_pair(job, i, &a, &b);
        ref_contacts(&a, &b, job->margin, &o);
        if (cj->stream) {
            if (job->bad)
                job->bad[i] = o.bad;
            if (o.hit == 1)
                sbx_put_manifold(&cj->stream[count++], i, o.normal, o.axis, o.count, o.point, o.depth, o.feature);
            continue;
        }
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

/* The contacts of the scalar path's table (scalar.c). */
ptrdiff_t sbx_scalar_contacts(const sbx_cjob *job) { return scalar_contacts(job); }

/* contacts_ref.c - the reference of contacts_tpl.h: the 3D contact manifold in named steps, in the operation order every path reproduces. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "box3d/contacts.h"
#include "box3d/sat_ref.h"

/* Like batch_ref.c, this file is compiled without SIMD flags, with -ffp-contract=off, and every
 * expression is written in the order the wide kernel evaluates it. The SAT part (loading, pair
 * validity, the 15 gaps, the normal of an axis) is sat_ref.h's and sources_ref.h's, the same code
 * as satbox_collide()'s reference, so that hit, normal and axis agree bit for bit with it wherever
 * the same axis wins. */

/* maxps / minps semantics (b unless a is strictly greater / smaller); NaN is kept away. */
static float maxf(float a, float b) { return a > b ? a : b; }
static float minf(float a, float b) { return a < b ? a : b; }

static float dot3(const float a[3], const float b[3]) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }

/* x clamped to [-h, h] (h >= 0). */
static float clampf(float x, float h) { return x < -h ? -h : (x > h ? h : x); }

/* ---- one pair, in the steps of the manifold --------------------------------------------------
 * sat_axes      the 15 gaps: the best face axis of A, of B, the best usable edge axis (rule 1)
 * choose_axis   rule 2's hysteresis between them; the axis id and its normal
 * face axis:
 *   reference_frame  the reference face, the incident face, and the frame they are clipped in
 *   clip_incident    the incident corners, the incident edges against the side planes, the
 *                    reference corners: 12 candidates, each kept or not (rule 3)
 *   reduce_to_4      p0, p1, p2, p3 among the kept candidates, or the fallback (rules 4, 6)
 *   to_world         the slots in the world, with their depths and feature ids
 * edge axis:
 *   edge_point       the one point of rule 5
 * The stream form first asks may_touch, which stops at the first axis that proves the pair
 * apart by more than the margin (a pair without contact writes no record, only its bad byte).
 * contacts_tpl.h has the same steps under the same names (with _w), in this order. */

typedef struct cout {
    uint8_t hit, axis, bad, count;
    float normal[3];
    float point[4][3], depth[4];
    uint32_t feature[4];
} cout;

/* What the axis choice and the manifold need of the 15 axes, beside the pair's set-up P
 * (sat_pair: R, |R|, t, validity). */
typedef struct best_axes {
    float proj_b[3];           /* projections of d on B's axes (B's face gaps' projections) */
    float gap_a, gap_b;        /* the best face gap of A, of B */
    float gap_edge, proj_edge; /* the best normalised edge gap and its projection */
    int axis_a, axis_b;        /* their axes: 0..2, 3..5 */
    int axis_edge;             /* 6..14, -1: no usable edge axis */
    float sum_h;               /* hA0 + hA1 + hA2 + hB0 + hB1 + hB2 */
    float separation;          /* the largest gap over all axes (collide's separation) */
} best_axes;

static void sat_axes(const obox *A, const obox *B, sat_pair *P, best_axes *S)
{
    pair_setup(A, B, P);
    S->axis_a = 0;
    S->gap_a = gap_face_a(A, B, P, 0);
    for (int i = 1; i < 3; i++) {
        float g = gap_face_a(A, B, P, i);
        if (g > S->gap_a) {
            S->gap_a = g;
            S->axis_a = i;
        }
    }
    S->axis_b = 3;
    S->gap_b = gap_face_b(A, B, P, 0, &S->proj_b[0]);
    for (int j = 1; j < 3; j++) {
        float g = gap_face_b(A, B, P, j, &S->proj_b[j]);
        if (g > S->gap_b) {
            S->gap_b = g;
            S->axis_b = 3 + j;
        }
    }
    S->axis_edge = -1;
    S->gap_edge = -INFINITY;
    S->proj_edge = 0.0f;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float proj, g = gap_edge(A, B, P, i, j, &proj);
            float sv = g / minf(sqrtf(len2_edge(P, i, j)), 1.0f);
            if (P->AR[i][j] < SATBOX_PARALLEL_ABS_COS && sv > S->gap_edge) {
                S->gap_edge = sv;
                S->proj_edge = proj;
                S->axis_edge = 6 + 3 * i + j;
            }
        }
    S->sum_h = ((((A->h[0] + A->h[1]) + A->h[2]) + B->h[0]) + B->h[1]) + B->h[2];
    /* collide's separation is the max of the same values (its running argmax keeps the max). */
    S->separation = maxf(maxf(S->gap_a, S->gap_b), S->gap_edge);
}

/* The stream form's filter: 0 when the pair is bad (*bad = 1) or when some axis proves it apart
 * by more than the margin, so that pair_contacts would give hit 0; 1 otherwise (then
 * pair_contacts decides). The gaps are sat_axes' own values, tested in id order until one
 * separates. A face gap g is a lower bound of the separation; an edge's normalised gap
 * s = g / min(|L|, 1) is >= g when g > 0, so a raw edge gap proves a miss only above
 * max(margin, 0) (with a negative margin, g in (margin, 0] can give s <= margin). */
static int may_touch(const obox *A, const obox *B, float margin, int *bad)
{
    uint8_t invalid;
    int touch = overlap_within(A, B, margin, maxf(margin, 0.0f), &invalid);
    *bad = invalid;
    return touch;
}

/* Rule 2's answer. */
typedef struct axis_choice {
    int axis;        /* the chosen axis id (the `axis` output) */
    int use_edge;    /* 1: axis is the edge axis */
    float proj;      /* its projection (the sign of its normal) */
    int face_axis;   /* the winning face axis (0..5), its gap and projection */
    float face_gap, face_proj;
} axis_choice;

/* Rule 2: B's face only if better than A's by tol; an edge only if better than that face by tol. */
static void choose_axis(const sat_pair *P, const best_axes *S, axis_choice *ch)
{
    float abs_tol = SATBOX_CONTACT_ABS_TOL * S->sum_h;
    int use_b = S->gap_b > S->gap_a + (SATBOX_CONTACT_REL_TOL * fabsf(S->gap_a) + abs_tol);
    ch->face_gap = use_b ? S->gap_b : S->gap_a;
    ch->face_proj = use_b ? S->proj_b[S->axis_b - 3] : P->t[S->axis_a];
    ch->face_axis = use_b ? S->axis_b : S->axis_a;
    ch->use_edge =
        S->axis_edge >= 0 && S->gap_edge > ch->face_gap + (SATBOX_CONTACT_REL_TOL * fabsf(ch->face_gap) + abs_tol);
    ch->axis = ch->use_edge ? S->axis_edge : ch->face_axis;
    ch->proj = ch->use_edge ? S->proj_edge : ch->face_proj;
}

/* The frame a face axis' manifold is worked in (satbox.h, "Numbering"): P is the box of the
 * reference face (local axis k), Q the other one (incident face, local axis m); coordinates
 * (z, x, y) along (uP_k, uP_k1, uP_k2) from P's center, depth below the reference face. */
typedef struct face_frame {
    float f[3], e1[3], e2[3]; /* incident face center and half edges along m1, m2, as (z, x, y) */
    float hk, H1, H2;         /* P's half extents along k, k1, k2 */
    float sr;                 /* side of uP_k facing Q: the reference face's outward normal is sr uP_k */
    float ct;                 /* the snapping distance of rule 3 */
    float lo;                 /* the lowest depth kept, -(margin + keep tolerance) */
    const float *u[3];        /* uP_k, uP_k1, uP_k2 (world) */
    const float *cp;          /* P's center (world) */
    unsigned faces;           /* the feature id's bytes 0 and 1 (the reference and incident faces) */
} face_frame;

/* Face axis ch->face_axis won with projection ch->face_proj (rule 3): the reference face, the
 * incident face and the frame. */
static void reference_frame(const obox *A, const obox *B, const sat_pair *P, const best_axes *S,
                            const axis_choice *ch, float margin, face_frame *F)
{
    int ref_a = ch->face_axis < 3;
    const obox *Pb = ref_a ? A : B, *Qb = ref_a ? B : A;
    int k = ch->face_axis % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    float sr = ch->face_proj < 0.0f ? (ref_a ? -1.0f : 1.0f) : (ref_a ? 1.0f : -1.0f);
    /* Q's center and axes in P's frame: from A's frame (t, R) or B's frame (-proj_b, R^T). */
    float qc[3], qu[3][3];
    for (int a = 0; a < 3; a++) {
        qc[a] = ref_a ? P->t[a] : -S->proj_b[a];
        for (int j = 0; j < 3; j++)
            qu[j][a] = ref_a ? P->R[a][j] : P->R[j][a];
    }
    /* Incident face: Q's axis m most (anti-)parallel to the reference normal; side si facing P. */
    float dq[3];
    for (int j = 0; j < 3; j++)
        dq[j] = sr * qu[j][k];
    int m = 0;
    for (int j = 1; j < 3; j++)
        if (fabsf(dq[j]) > fabsf(dq[m]))
            m = j;
    float si = dq[m] > 0.0f ? -1.0f : 1.0f;
    int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
    /* Face center f and half edges e1, e2 in P's frame, as (z, x, y) = components (k, k1, k2). */
    float h_inc = si * Qb->h[m];
    int comp[3] = {k, k1, k2};
    for (int r = 0; r < 3; r++) {
        int a = comp[r];
        F->f[r] = qc[a] + h_inc * qu[m][a];
        F->e1[r] = Qb->h[m1] * qu[m1][a];
        F->e2[r] = Qb->h[m2] * qu[m2][a];
    }
    F->hk = Pb->h[k];
    F->H1 = Pb->h[k1];
    F->H2 = Pb->h[k2];
    F->sr = sr;
    F->ct = SATBOX_CONTACT_ABS_TOL * S->sum_h;
    F->lo = -(margin + SATBOX_CONTACT_KEEP_TOL * S->sum_h);
    F->u[0] = Pb->u[k];
    F->u[1] = Pb->u[k1];
    F->u[2] = Pb->u[k2];
    F->cp = Pb->c;
    unsigned ref = (unsigned)((ref_a ? 0 : 6) + 2 * k + (sr < 0.0f)), inc = (unsigned)(2 * m + (si < 0.0f));
    F->faces = SBX_FEATURE_FACES(ref, inc);
}

/* Signs of the corners (q or c = 0..3) along the two in-face axes: (-,-), (+,-), (+,+), (-,+). */
static const float corner_s1[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
static const float corner_s2[4] = {-1.0f, -1.0f, 1.0f, 1.0f};

/* The incident face's corners q in the frame: x along k1, y along k2, depth d; `in` when within
 * the 4 side planes grown by ct. */
typedef struct corners {
    float x1[4], x2[4], d[4];
    int in[4];
} corners;

/* A candidate point: (x, y) in the frame, depth d, candidate code (the feature id's byte 2). */
typedef struct cand {
    float x, y, d;
    unsigned code;
} cand;

/* clip_incident's answer: the corners, the SBX_NCAND candidates (per incident edge e its entry
 * point e and its exit crossing 4 + e; reference corners 8 + c), which are kept, and the deepest
 * kept depth (-inf: none kept). */
typedef struct clipped {
    corners Q;
    cand c[SBX_NCAND];
    int keep[SBX_NCAND];
    float deepest;
} clipped;

/* 1 if (x, y) lies within ct (in both coordinates) of incident corner q, inside the grown side
 * planes: such a crossing is the same vertex as that corner (rule 3). */
static int near_end(const corners *Q, float x, float y, int q, float ct)
{
    return Q->in[q] && fabsf(x - Q->x1[q]) <= ct && fabsf(y - Q->x2[q]) <= ct;
}

/* Rule 3: the incident face clipped against the reference face's side planes, the candidates
 * kept. */
static void clip_incident(const face_frame *F, clipped *C)
{
    corners *Q = &C->Q;
    cand *cd = C->c;
    int *keep = C->keep;
    float H1 = F->H1, H2 = F->H2, ct = F->ct, lo = F->lo;
    float H1c = H1 + ct, H2c = H2 + ct;
    /* Incident corners; inside when within the 4 side planes grown by ct. */
    for (int q = 0; q < 4; q++) {
        float z = (F->f[0] + corner_s1[q] * F->e1[0]) + corner_s2[q] * F->e2[0];
        Q->x1[q] = (F->f[1] + corner_s1[q] * F->e1[1]) + corner_s2[q] * F->e2[1];
        Q->x2[q] = (F->f[2] + corner_s1[q] * F->e1[2]) + corner_s2[q] * F->e2[2];
        Q->d[q] = F->hk - F->sr * z;
        Q->in[q] = fabsf(Q->x1[q]) <= H1c && fabsf(Q->x2[q]) <= H2c;
    }
    /* Incident edge e runs from corner e along g = +2 e1, +2 e2, -2 e1, -2 e2 (t in [0, 1]). Its
     * part inside the reference face's side planes is [tin, tout] (slab clipping; an edge parallel
     * to a slab and on its boundary counts as inside: the NaN of 0 * inf is dropped by the max/min
     * order). Candidate e: corner e if inside (grown), else the entry crossing; candidate 4 + e: the
     * exit crossing if corner e+1 is outside (grown). A crossing lies exactly on its side plane. */
    float gx[2] = {2.0f * F->e1[1], 2.0f * F->e2[1]}, gy[2] = {2.0f * F->e1[2], 2.0f * F->e2[2]};
    float gd[2] = {-(F->sr * (2.0f * F->e1[0])), -(F->sr * (2.0f * F->e2[0]))};
    float sgx[2], sgy[2], ivx[2], ivy[2];
    for (int a = 0; a < 2; a++) {
        sgx[a] = gx[a] < 0.0f ? -1.0f : 1.0f;
        sgy[a] = gy[a] < 0.0f ? -1.0f : 1.0f;
        ivx[a] = 1.0f / fabsf(gx[a]);
        ivy[a] = 1.0f / fabsf(gy[a]);
    }
    for (int e = 0; e < 4; e++) {
        int q0 = e, q1 = (e + 1) & 3, a = e & 1;
        if (Q->in[q0] && Q->in[q1]) {
            /* both ends inside: the corner, and no crossing (the wide kernel computes the
             * crossings and masks them out; a candidate not kept is never read) */
            cd[e] = (cand){Q->x1[q0], Q->x2[q0], Q->d[q0], (unsigned)q0};
            keep[e] = Q->d[q0] >= lo;
            keep[4 + e] = 0;
            continue;
        }
        float flip = e < 2 ? 1.0f : -1.0f;
        float sx = flip * sgx[a], sy = flip * sgy[a], dx = flip * gx[a], dy = flip * gy[a], dd = flip * gd[a];
        float enx = (-H1 - sx * Q->x1[q0]) * ivx[a], exx = (H1 - sx * Q->x1[q0]) * ivx[a];
        float eny = (-H2 - sy * Q->x2[q0]) * ivy[a], exy = (H2 - sy * Q->x2[q0]) * ivy[a];
        float eny0 = maxf(eny, 0.0f), exy1 = minf(exy, 1.0f);
        float tin = maxf(enx, eny0), tout = minf(exx, exy1);
        int seg = tin <= tout;
        /* entry */
        int px = enx > eny0;
        float xi = px ? -(sx * H1) : Q->x1[q0] + tin * dx;
        float yi = px ? Q->x2[q0] + tin * dy : -(sy * H2);
        float di = Q->d[q0] + tin * dd;
        unsigned pi = px ? (sx > 0.0f ? 1u : 0u) : (sy > 0.0f ? 3u : 2u);
        if (Q->in[q0]) {
            cd[e] = (cand){Q->x1[q0], Q->x2[q0], Q->d[q0], (unsigned)q0};
            keep[e] = Q->d[q0] >= lo;
        } else {
            cd[e] = (cand){xi, yi, di, 4u + 4u * (unsigned)e + pi};
            keep[e] = seg && di >= lo && !near_end(Q, xi, yi, q1, ct);
        }
        /* exit */
        int qx = exx < exy1;
        float xo = qx ? sx * H1 : Q->x1[q0] + tout * dx;
        float yo = qx ? Q->x2[q0] + tout * dy : sy * H2;
        float dout = Q->d[q0] + tout * dd;
        unsigned po = qx ? (sx > 0.0f ? 0u : 1u) : (sy > 0.0f ? 2u : 3u);
        cd[4 + e] = (cand){xo, yo, dout, 4u + 4u * (unsigned)e + po};
        keep[4 + e] = !Q->in[q1] && seg && dout >= lo && !near_end(Q, xo, yo, q0, ct);
    }
    /* Reference corners c inside the incident face seen along the reference normal:
     * (X, Y) = corner 0 + al g(e1) + be g(e2), al, be in [0, 1]; dropped when an inside incident
     * corner lies within ct of it (in its ct square: |x1| >= H1 - ct, |x2| >= H2 - ct, same signs). */
    int nearc[4] = {0, 0, 0, 0};
    for (int q = 0; q < 4; q++)
        if (Q->in[q] && fabsf(Q->x1[q]) >= H1 - ct && fabsf(Q->x2[q]) >= H2 - ct)
            nearc[Q->x2[q] > 0.0f ? (Q->x1[q] > 0.0f ? 2 : 3) : (Q->x1[q] > 0.0f ? 1 : 0)] = 1;
    float idet = 1.0f / (gx[0] * gy[1] - gy[0] * gx[1]);
    for (int c = 0; c < 4; c++) {
        int id = 8 + c;
        float X = corner_s1[c] * H1, Y = corner_s2[c] * H2;
        float rx = X - Q->x1[0], ry = Y - Q->x2[0];
        float al = (rx * gy[1] - ry * gx[1]) * idet;
        float be = (gx[0] * ry - gy[0] * rx) * idet;
        cd[id] = (cand){X, Y, (Q->d[0] + al * gd[0]) + be * gd[1], 20u + (unsigned)c};
        keep[id] = al >= 0.0f && al <= 1.0f && be >= 0.0f && be <= 1.0f && cd[id].d >= lo && !nearc[c];
    }
    C->deepest = -INFINITY;
    for (int i = 0; i < SBX_NCAND; i++)
        if (keep[i] && cd[i].d > C->deepest)
            C->deepest = cd[i].d;
}

/* The manifold in the frame: slots 0..count-1 (p0, p2, p1, p3, those missing left out). */
typedef struct reduced {
    cand slot[4];
    int count;
} reduced;

/* Rule 4 over the kept candidates in index order (the wide kernel's passes over all 12 with masks
 * pick the same ones), or rule 6's fallback when none is kept. */
static void reduce_to_4(const face_frame *F, const clipped *C, reduced *R)
{
    const cand *cd = C->c;
    float ct = F->ct;
    int kl[SBX_NCAND], nk = 0;
    for (int i = 0; i < SBX_NCAND; i++)
        if (C->keep[i])
            kl[nk++] = i;
    /* p0: the first candidate within ct of the deepest. */
    float dmin = C->deepest - ct;
    int i0 = -1;
    for (int t = 0; t < nk; t++)
        if (cd[kl[t]].d >= dmin) {
            i0 = kl[t];
            break;
        }
    R->count = 0;
    if (i0 < 0) {
        /* Fallback (rule 6): the incident corner nearest the side slabs, unclipped. */
        const corners *Q = &C->Q;
        int q = 0;
        float bx = maxf(fabsf(Q->x1[0]) - F->H1, fabsf(Q->x2[0]) - F->H2);
        for (int j = 1; j < 4; j++) {
            float ex = maxf(fabsf(Q->x1[j]) - F->H1, fabsf(Q->x2[j]) - F->H2);
            if (ex < bx) {
                q = j;
                bx = ex;
            }
        }
        R->slot[0] = (cand){Q->x1[q], Q->x2[q], Q->d[q], SATBOX_FEATURE_FALLBACK + (unsigned)q};
        R->count = 1;
        return;
    }
    const cand *p0 = &cd[i0];
    int i1 = -1, i2 = -1, i3 = -1;
    float bf = 0.0f, bp = 0.0f, bn = 0.0f;
    for (int t = 0; t < nk; t++) {
        int i = kl[t];
        float dx = cd[i].x - p0->x, dy = cd[i].y - p0->y;
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
    const cand *p1 = i1 >= 0 ? &cd[i1] : p0;
    float ux = p1->x - p0->x, uy = p1->y - p0->y;
    for (int t = 0; t < nk; t++) {
        int i = kl[t];
        float ar = ux * (cd[i].y - p0->y) - uy * (cd[i].x - p0->x);
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
        if (sel[s] >= 0)
            R->slot[R->count++] = cd[sel[s]];
}

/* The slots in the world: cP + x uP_k1 + y uP_k2 + z uP_k, with z = sr (hk - depth). */
static void to_world(const face_frame *F, const reduced *R, cout *o)
{
    for (int s = 0; s < R->count; s++) {
        const cand *p = &R->slot[s];
        float z = (F->hk - p->d) * F->sr;
        for (int c = 0; c < 3; c++)
            o->point[s][c] = ((F->cp[c] + p->x * F->u[1][c]) + p->y * F->u[2][c]) + z * F->u[0][c];
        o->depth[s] = p->d;
        o->feature[s] = SBX_FEATURE(F->faces, p->code);
    }
    o->count = (uint8_t)R->count;
}

/* Edge axis 6 + 3 i + j won (rule 5): one point, the midpoint of the closest points of the
 * supporting edge segments. Worked relative to A's center (from the center difference), so that
 * the error follows the pair's size, not its distance from the origin: the line parameters divide
 * it by |uA_i x uB_j|^2. */
static void edge_point(const obox *A, const obox *B, const sat_pair *P, const best_axes *S, cout *o)
{
    int i = (S->axis_edge - 6) / 3, j = (S->axis_edge - 6) % 3;
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    const float *n = o->normal;
    /* A's edge: farthest along n; B's edge: farthest against n (signs along i1, i2 and j1, j2). */
    float sa1 = dot3(n, A->u[i1]) < 0.0f ? -1.0f : 1.0f;
    float sa2 = dot3(n, A->u[i2]) < 0.0f ? -1.0f : 1.0f;
    float sb1 = dot3(n, B->u[j1]) < 0.0f ? 1.0f : -1.0f;
    float sb2 = dot3(n, B->u[j2]) < 0.0f ? 1.0f : -1.0f;
    float ha1 = sa1 * A->h[i1], ha2 = sa2 * A->h[i2];
    float hb1 = sb1 * B->h[j1], hb2 = sb2 * B->h[j2];
    float pa[3], pb[3], w[3];
    for (int c = 0; c < 3; c++) {
        pa[c] = ha1 * A->u[i1][c] + ha2 * A->u[i2][c];
        pb[c] = ((B->c[c] - A->c[c]) + hb1 * B->u[j1][c]) + hb2 * B->u[j2][c];
        w[c] = pa[c] - pb[c];
    }
    /* Closest points of the segments pa + s uA_i (|s| <= hA_i), pb + t uB_j (|t| <= hB_j): the
     * lines' s clamped, t of the point of B's line nearest to it clamped, and s again from t
     * when t was clamped. */
    float r_ij = P->R[i][j], w_ai = dot3(A->u[i], w), w_bj = dot3(B->u[j], w), l2 = len2_edge(P, i, j);
    float sp = clampf((r_ij * w_bj - w_ai) / l2, A->h[i]);
    float tu = w_bj + r_ij * sp, tp = clampf(tu, B->h[j]);
    if (!(tp == tu))
        sp = clampf(r_ij * tp - w_ai, A->h[i]);
    for (int c = 0; c < 3; c++)
        o->point[0][c] = A->c[c] + ((pa[c] + sp * A->u[i][c]) + (pb[c] + tp * B->u[j][c])) * 0.5f;
    o->depth[0] = -S->gap_edge;
    unsigned ea = (unsigned)(4 * i) + (sa1 < 0.0f) + 2u * (sa2 < 0.0f);
    unsigned eb = (unsigned)(4 * j) + (sb1 < 0.0f) + 2u * (sb2 < 0.0f);
    o->feature[0] = SBX_FEATURE(SBX_FEATURE_FACES(SBX_FEAT_EDGE_A + ea, eb), SATBOX_FEATURE_EDGE);
    o->count = 1;
}

static void pair_contacts(const obox *A, const obox *B, float margin, cout *o)
{
    memset(o->point, 0, sizeof o->point);
    memset(o->depth, 0, sizeof o->depth);
    for (int s = 0; s < 4; s++)
        o->feature[s] = SATBOX_FEATURE_NONE;
    o->count = 0;
    sat_pair P;
    best_axes S;
    sat_axes(A, B, &P, &S);
    o->bad = !P.valid;
    if (o->bad) {
        o->hit = 0;
        o->axis = SATBOX_AXIS_INVALID;
        o->normal[0] = o->normal[1] = o->normal[2] = 0.0f;
        return;
    }
    o->hit = S.separation <= margin ? 1 : 0;
    axis_choice ch;
    choose_axis(&P, &S, &ch);
    o->axis = (uint8_t)ch.axis;
    axis_normal(A, B, ch.axis, ch.proj, o->normal);
    if (!o->hit)
        return;
    if (ch.use_edge) {
        edge_point(A, B, &P, &S, o);
        return;
    }
    face_frame F;
    clipped C;
    reduced R;
    reference_frame(A, B, &P, &S, &ch, margin, &F);
    clip_incident(&F, &C);
    reduce_to_4(&F, &C, &R);
    to_world(&F, &R, o);
}

static ptrdiff_t scalar_contacts(const sbx_cjob *cj)
{
    const sbx_job *job = &cj->pair;
    size_t count = 0;
    obox a, b;
    SBX_FOR_EACH_PAIR(job, i, a, b) {
        cout o;
        int bad;
        if (cj->stream && !may_touch(&a, &b, job->margin, &bad)) {
            if (job->bad)
                job->bad[i] = (uint8_t)bad;
            continue;
        }
        pair_contacts(&a, &b, job->margin, &o);
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

/* The contacts of the scalar path's table (kernel_scalar.c). */
ptrdiff_t sbx_scalar_contacts(const sbx_cjob *job) { return scalar_contacts(job); }

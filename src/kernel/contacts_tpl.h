/* contacts_tpl.h - contact manifolds of SBX_W pairs per step, over the SAT math of sat_tpl.h (scalar_contacts.c line for line). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS_TPL_H
#define SATBOX_CONTACTS_TPL_H

#include "tpl_common.h"
#include "../contacts.h"

/* Included after sat_tpl.h and batch_tpl.h (it reuses pair_setup_w, the gap functions, the
 * loaders and the output helpers). The face manifold runs on queued lanes only (kernel_contacts),
 * each with a fixed 12 candidates; masks choose, no lane branches. Each expression is the one of
 * src/scalar_contacts.c in the same order, so every path gives the same bits. */

/* SBX_BARE (benchmarks only, never in the library): no manifold at all (no face lane is queued,
 * no edge point), while the SAT part, the axis, the normal and every output store stay; with the
 * rest of SBX_BARE (no validity test, no near-parallel rule) this is a lower bound on what any
 * manifold code in this kernel structure can cost (bench contacts_floor/<path>). With
 * SBX_MANIFOLD 1 the library's code is unchanged (same instructions). */
#if defined(SBX_BARE)
#define SBX_MANIFOLD 0
#else
#define SBX_MANIFOLD 1
#endif

/* v[idx] for a per-lane index idx in {0, 1, 2} held as a float. */
SBX_INLINE wf sel3(wf idx, wf v0, wf v1, wf v2)
{
    return wf_select(wm_eq(idx, wf_zero()), v0, wf_select(wm_eq(idx, wf_set1(1.0f)), v1, v2));
}

/* scalar_contacts.c maxf / clampf. */
SBX_INLINE wf c_maxf(wf a, wf b) { return wf_select(wm_gt(a, b), a, b); }
SBX_INLINE wf c_clampf(wf x, wf h)
{
    wf nh = wf_neg(h);
    return wf_select(wm_lt(x, nh), nh, wf_select(wm_gt(x, h), h, x));
}
SBX_INLINE wf c_dot3(const wf a[3], const wf b[3])
{
    return wf_add(wf_add(wf_mul(a[0], b[0]), wf_mul(a[1], b[1])), wf_mul(a[2], b[2]));
}

/* A lane's candidate or chosen point: 2D coordinates in the reference face's frame, depth, code. */
typedef struct candw {
    wf x, y, d, c;
} candw;

SBX_INLINE void take_cand(wm m, const candw *src, candw *dst)
{
    dst->x = wf_select(m, src->x, dst->x);
    dst->y = wf_select(m, src->y, dst->y);
    dst->d = wf_select(m, src->d, dst->d);
    dst->c = wf_select(m, src->c, dst->c);
}

/* What the first stage gives of one step: the per-pair outputs, and slot 0 / count of the
 * lanes not in the face queue (edge points; zero elsewhere). */
typedef struct contactsw {
    wf n[3], id, count;
    wf pt0[3], depth0, feat0; /* feat: the feature id as an exact float (< 2^21), -1 if unused */
    unsigned hit, inv, face;  /* face: live lanes with a face axis (their manifold is queued) */
} contactsw;

/* The face queue: stage 1 appends the face lanes of each step to it (compressed) and the face
 * manifold runs on full vectors of queued lanes, SBX_W at a time, whichever steps they came from;
 * its results go straight to their pairs (SoA form) or records (stream form). Lanes that do not
 * hit, or that have an edge axis, cost no clipping, and no vector of the face manifold runs part
 * empty but the last of a call. The queue lives in kernel_contacts' frame, and every entry point
 * must fit in a 16 KiB thread stack (satbox.h; engines call this from job-system threads and
 * fibers): SBX_QCAP columns of FI_N rows (a step starts only with fewer than SBX_W lanes queued
 * and queues at most SBX_W), 0.9 / 1.8 / 3.6 KB at 4 / 8 / 16 lanes, and no per-step state is
 * kept (blocks of 32 to 64 pairs held 4.4 to 6.7 KB before, and ran the face manifold on part
 * empty vectors at the end of every block: 21% / 44% of AVX-512's lanes used on random / stacked
 * pairs in blocks of one step). */
#define SBX_QCAP (2 * SBX_W)

/* The face manifold's inputs per lane (the queue's rows) and outputs (the results' rows). */
enum {
    FI_F = 0, FI_E1 = 3, FI_E2 = 6, /* incident face center and half edges, (z, x, y) in P's frame */
    FI_HK = 9, FI_H1 = 10, FI_H2 = 11, FI_SR = 12, FI_CT = 13, FI_LO = 14,
    FI_U = 15,   /* uP_k, uP_k1, uP_k2 (world, 3 each) */
    FI_CP = 24,  /* P's center */
    FI_BASE = 27, /* feature id bits 0-15 (reference and incident faces) as a float */
    FI_N = 28
};
enum { FR_PT = 0 /* slot s, coordinate c: 3 s + c */, FR_DEPTH = 12, FR_FEAT = 16, FR_COUNT = 20, FR_N = 21 };

/* scalar_contacts.c ref_contacts() for SBX_W pairs, first stage: the SAT part, the axis, the
 * normal, the edge points; the face manifold's inputs of the face lanes among `lanes` are
 * appended (compressed) to the queue rows qin at qn. Returns the new queue length. */
SBX_INLINE size_t contacts_sat_w(const oboxw *A, const oboxw *B, wf margin, unsigned lanes, contactsw *o,
                                 float (*qin)[SBX_QCAP], size_t qn)
{
    wf zero = wf_zero(), one = wf_set1(1.0f), mone = wf_set1(-1.0f);
    /* ---- SAT step (sat_step) ---- */
    sat_pairw P;
    pair_setup_w(A, B, &P);
    wf ga = gap_face_a(A, B, &P, 0), ka = zero;
    for (int i = 1; i < 3; i++) {
        wf g = gap_face_a(A, B, &P, i);
        wm m = wm_gt(g, ga);
        ga = wf_select(m, g, ga);
        ka = wf_select(m, wf_set1((float)i), ka);
    }
    wf pb[3];
    wf gb = gap_face_b(A, B, &P, 0, &pb[0]), kb = wf_set1(3.0f);
    for (int j = 1; j < 3; j++) {
        wf g = gap_face_b(A, B, &P, j, &pb[j]);
        wm m = wm_gt(g, gb);
        gb = wf_select(m, g, gb);
        kb = wf_select(m, wf_set1((float)(3 + j)), kb);
    }
    wf se = wf_set1(-INFINITY), pe = zero, ke = zero, le = one, re = zero;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            wf proj, g = gap_edge(A, B, &P, i, j, &proj), l2 = len2_edge(&P, i, j);
            wf sv = wf_div(g, wf_min(wf_sqrt(l2), one));
            wm m = wm_and(wm_lt(P.AR[i][j], wf_set1(SATBOX_PARALLEL_ABS_COS)), wm_gt(sv, se));
            se = wf_select(m, sv, se);
            pe = wf_select(m, proj, pe);
            ke = wf_select(m, wf_set1((float)(6 + 3 * i + j)), ke);
            le = wf_select(m, l2, le);
            re = wf_select(m, P.R[i][j], re);
        }
    wm has_edge = wm_gt(se, wf_set1(-INFINITY));
    wf sum_h = wf_add(wf_add(wf_add(wf_add(wf_add(A->h[0], A->h[1]), A->h[2]), B->h[0]), B->h[1]), B->h[2]);
    wf mmax = c_maxf(c_maxf(ga, gb), se);
    wm hit = wm_and(P.valid, wm_le(mmax, margin));

    /* ---- rule 2 ---- */
    wf rel = wf_set1(SATBOX_CONTACT_REL_TOL);
    wf abs_tol = wf_mul(wf_set1(SATBOX_CONTACT_ABS_TOL), sum_h);
    wm use_b = wm_gt(gb, wf_add(ga, wf_add(wf_mul(rel, wf_abs(ga)), abs_tol)));
    wf sf = wf_select(use_b, gb, ga);
    wf pa_sel = sel3(ka, P.t[0], P.t[1], P.t[2]);
    wf pb_sel = sel3(wf_sub(kb, wf_set1(3.0f)), pb[0], pb[1], pb[2]);
    wf pf = wf_select(use_b, pb_sel, pa_sel);
    wf kf = wf_select(use_b, kb, ka);
    wm use_edge = wm_and(has_edge, wm_gt(se, wf_add(sf, wf_add(wf_mul(rel, wf_abs(sf)), abs_tol))));
    wf kid = wf_select(use_edge, ke, kf);
    wf kproj = wf_select(use_edge, pe, pf);

    /* ---- the normal of axis kid (collide's) ---- */
    axis_normal_w(A, B, kid, kproj, o->n);

    /* ---- face manifold inputs (face_manifold's set-up) of the live lanes with a face axis,
     * queued for face_core_w ---- */
    wm live = wm_and(hit, P.valid);
    o->face = SBX_MANIFOLD ? wm_bits(wm_andnot(live, use_edge)) & lanes : 0u;
    if (o->face) {
        unsigned qm = o->face; /* each input row is queued as soon as it is known (no array of them) */
#define SBX_QPUT(row, v) wf_storeu(qin[row] + qn, wf_compress((v), qm))
        wm ref_a = wm_lt(kf, wf_set1(3.0f));
        wf kp = wf_select(ref_a, kf, wf_sub(kf, wf_set1(3.0f)));
        wf sr = wf_select(wm_lt(pf, zero), wf_select(ref_a, mone, one), wf_select(ref_a, one, mone));
        wf qc[3], qu[3][3], hP[3], hQ[3];
        for (int a = 0; a < 3; a++) {
            qc[a] = wf_select(ref_a, P.t[a], wf_neg(pb[a]));
            hP[a] = wf_select(ref_a, A->h[a], B->h[a]);
            hQ[a] = wf_select(ref_a, B->h[a], A->h[a]);
            for (int j = 0; j < 3; j++)
                qu[j][a] = wf_select(ref_a, P.R[a][j], P.R[j][a]);
        }
        wf dqm = wf_mul(sr, sel3(kp, qu[0][0], qu[0][1], qu[0][2])), bm = wf_abs(dqm), mm = zero;
        for (int j = 1; j < 3; j++) {
            wf dq = wf_mul(sr, sel3(kp, qu[j][0], qu[j][1], qu[j][2]));
            wm m = wm_gt(wf_abs(dq), bm);
            bm = wf_select(m, wf_abs(dq), bm);
            dqm = wf_select(m, dq, dqm);
            mm = wf_select(m, wf_set1((float)j), mm);
        }
        wf sq = wf_select(wm_gt(dqm, zero), mone, one);
        wf quM[3], quM1[3], quM2[3];
        for (int a = 0; a < 3; a++) {
            quM[a] = sel3(mm, qu[0][a], qu[1][a], qu[2][a]);
            quM1[a] = sel3(mm, qu[1][a], qu[2][a], qu[0][a]);
            quM2[a] = sel3(mm, qu[2][a], qu[0][a], qu[1][a]);
        }
        wf hq = wf_mul(sq, sel3(mm, hQ[0], hQ[1], hQ[2]));
        wf hm1 = sel3(mm, hQ[1], hQ[2], hQ[0]), hm2 = sel3(mm, hQ[2], hQ[0], hQ[1]);
        /* (z, x, y) = components (k, k1, k2) */
        {
            wf comp_qc[3] = {sel3(kp, qc[0], qc[1], qc[2]), sel3(kp, qc[1], qc[2], qc[0]), sel3(kp, qc[2], qc[0], qc[1])};
            wf comp_m[3] = {sel3(kp, quM[0], quM[1], quM[2]), sel3(kp, quM[1], quM[2], quM[0]),
                            sel3(kp, quM[2], quM[0], quM[1])};
            wf comp_m1[3] = {sel3(kp, quM1[0], quM1[1], quM1[2]), sel3(kp, quM1[1], quM1[2], quM1[0]),
                             sel3(kp, quM1[2], quM1[0], quM1[1])};
            wf comp_m2[3] = {sel3(kp, quM2[0], quM2[1], quM2[2]), sel3(kp, quM2[1], quM2[2], quM2[0]),
                             sel3(kp, quM2[2], quM2[0], quM2[1])};
            for (int r = 0; r < 3; r++) {
                SBX_QPUT(FI_F + r, wf_add(comp_qc[r], wf_mul(hq, comp_m[r])));
                SBX_QPUT(FI_E1 + r, wf_mul(hm1, comp_m1[r]));
                SBX_QPUT(FI_E2 + r, wf_mul(hm2, comp_m2[r]));
            }
        }
        /* world: cP + x uP_k1 + y uP_k2 + z uP_k, z = (hk - depth) * sr */
        for (int c = 0; c < 3; c++) {
            wf u0 = wf_select(ref_a, A->u[0][c], B->u[0][c]), u1 = wf_select(ref_a, A->u[1][c], B->u[1][c]);
            wf u2 = wf_select(ref_a, A->u[2][c], B->u[2][c]);
            SBX_QPUT(FI_U + c, sel3(kp, u0, u1, u2));
            SBX_QPUT(FI_U + 3 + c, sel3(kp, u1, u2, u0));
            SBX_QPUT(FI_U + 6 + c, sel3(kp, u2, u0, u1));
            SBX_QPUT(FI_CP + c, wf_select(ref_a, A->c[c], B->c[c]));
        }
        wf face_ref = wf_add(wf_add(wf_select(ref_a, zero, wf_set1(6.0f)), wf_mul(wf_set1(2.0f), kp)),
                             wf_select(wm_lt(sr, zero), one, zero));
        wf face_inc = wf_add(wf_mul(wf_set1(2.0f), mm), wf_select(wm_lt(sq, zero), one, zero));
        SBX_QPUT(FI_HK, sel3(kp, hP[0], hP[1], hP[2]));
        SBX_QPUT(FI_H1, sel3(kp, hP[1], hP[2], hP[0]));
        SBX_QPUT(FI_H2, sel3(kp, hP[2], hP[0], hP[1]));
        SBX_QPUT(FI_SR, sr);
        SBX_QPUT(FI_CT, wf_mul(wf_set1(SATBOX_CONTACT_ABS_TOL), sum_h));
        SBX_QPUT(FI_LO, wf_neg(wf_add(margin, wf_mul(wf_set1(SATBOX_CONTACT_KEEP_TOL), sum_h))));
        SBX_QPUT(FI_BASE, wf_add(face_ref, wf_mul(face_inc, wf_set1(SBX_FEAT_INC))));
#undef SBX_QPUT
        qn += (size_t)__builtin_popcount(qm);
    }

    /* ---- edge point (edge_point); skipped when no live lane uses an edge axis ---- */
    wf edge_pt[3] = {zero, zero, zero}, edge_ref = zero, edge_inc = zero;
    if (SBX_MANIFOLD && wm_bits(wm_and(live, use_edge))) {
        wf ei = wf_add(wf_select(wm_ge(ke, wf_set1(9.0f)), one, zero), wf_select(wm_ge(ke, wf_set1(12.0f)), one, zero));
        wf ej = wf_sub(wf_sub(ke, wf_set1(6.0f)), wf_mul(wf_set1(3.0f), ei));
        wf uAi[3], uAa[3], uAb[3], uBj[3], uBa[3], uBb[3];
        for (int c = 0; c < 3; c++) {
            uAi[c] = sel3(ei, A->u[0][c], A->u[1][c], A->u[2][c]);
            uAa[c] = sel3(ei, A->u[1][c], A->u[2][c], A->u[0][c]);
            uAb[c] = sel3(ei, A->u[2][c], A->u[0][c], A->u[1][c]);
            uBj[c] = sel3(ej, B->u[0][c], B->u[1][c], B->u[2][c]);
            uBa[c] = sel3(ej, B->u[1][c], B->u[2][c], B->u[0][c]);
            uBb[c] = sel3(ej, B->u[2][c], B->u[0][c], B->u[1][c]);
        }
        wm sa1n = wm_lt(c_dot3(o->n, uAa), zero), sa2n = wm_lt(c_dot3(o->n, uAb), zero);
        wm sb1n = wm_lt(c_dot3(o->n, uBa), zero), sb2n = wm_lt(c_dot3(o->n, uBb), zero);
        wf sa1 = wf_select(sa1n, mone, one), sa2 = wf_select(sa2n, mone, one);
        wf sb1 = wf_select(sb1n, one, mone), sb2 = wf_select(sb2n, one, mone);
        wf ha1 = wf_mul(sa1, sel3(ei, A->h[1], A->h[2], A->h[0])), ha2 = wf_mul(sa2, sel3(ei, A->h[2], A->h[0], A->h[1]));
        wf hb1 = wf_mul(sb1, sel3(ej, B->h[1], B->h[2], B->h[0])), hb2 = wf_mul(sb2, sel3(ej, B->h[2], B->h[0], B->h[1]));
        /* relative to A's center: the error follows the pair's size (edge_point) */
        wf epa[3], epb[3], w[3];
        for (int c = 0; c < 3; c++) {
            epa[c] = wf_add(wf_mul(ha1, uAa[c]), wf_mul(ha2, uAb[c]));
            epb[c] = wf_add(wf_add(wf_sub(B->c[c], A->c[c]), wf_mul(hb1, uBa[c])), wf_mul(hb2, uBb[c]));
            w[c] = wf_sub(epa[c], epb[c]);
        }
        /* closest points of the segments: s clamped, t from s clamped, s from t if t was clamped */
        wf ddv = c_dot3(uAi, w), eev = c_dot3(uBj, w);
        wf hAi = sel3(ei, A->h[0], A->h[1], A->h[2]), hBj = sel3(ej, B->h[0], B->h[1], B->h[2]);
        wf sp = c_clampf(wf_div(wf_sub(wf_mul(re, eev), ddv), le), hAi);
        wf tu = wf_add(eev, wf_mul(re, sp)), tp = c_clampf(tu, hBj);
        sp = wf_select(wm_eq(tp, tu), sp, c_clampf(wf_sub(wf_mul(re, tp), ddv), hAi));
        for (int c = 0; c < 3; c++)
            edge_pt[c] = wf_add(A->c[c], wf_mul(wf_add(wf_add(epa[c], wf_mul(sp, uAi[c])), wf_add(epb[c], wf_mul(tp, uBj[c]))),
                                                wf_set1(0.5f)));
        edge_ref = wf_add(wf_add(wf_add(wf_set1((float)SBX_FEAT_EDGE_A), wf_mul(wf_set1(4.0f), ei)), wf_select(sa1n, one, zero)),
                             wf_select(sa2n, wf_set1(2.0f), zero));
        edge_inc = wf_add(wf_add(wf_mul(wf_set1(4.0f), ej), wf_select(sb1n, zero, one)), wf_select(sb2n, zero, wf_set1(2.0f)));
    }

    /* ---- first-stage outputs (the face lanes get theirs from face_core_w) ---- */
    wm edge_live = wm_and(live, use_edge);
    o->count = wf_keep(edge_live, one);
    for (int c = 0; c < 3; c++)
        o->pt0[c] = wf_keep(edge_live, edge_pt[c]);
    o->depth0 = wf_keep(edge_live, wf_neg(se));
    wf edge_feat = wf_add(wf_add(edge_ref, wf_mul(edge_inc, wf_set1(SBX_FEAT_INC))), wf_set1(SBX_FEAT_CAND * SATBOX_FEATURE_EDGE));
    o->feat0 = wf_select(edge_live, edge_feat, wf_set1(-1.0f));
    for (int c = 0; c < 3; c++)
        o->n[c] = wf_select(P.valid, o->n[c], zero);
    o->id = wf_select(P.valid, kid, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(live);
    o->inv = wm_bits(wm_not(P.valid));
    return qn;
}

/* scalar_contacts.c face_manifold() for the SBX_W queued lanes at column pos of the queue rows q:
 * clip, reduce, place in the world. Reads the lanes' FI_N inputs there and writes their FR_N
 * results (FR_*) over the first FR_N rows (every input is read before the first result is
 * written). A function of its own, which reads its inputs where it uses them, and whose loops
 * over edges and candidates are unrolled: its frame is then the same whatever loop calls it
 * (inlined, GCC's spills varied from 3.4 to 5.4 KB on AVX2 with the caller's loop), and small
 * (AVX-512: 4.2 KB instead of 7.3 KB with the loops rolled). */
SBX_NOINLINE void face_core_w(float (*q)[SBX_QCAP], size_t pos)
{
    wf zero = wf_zero(), one = wf_set1(1.0f), mone = wf_set1(-1.0f);
    wf f[3], e1[3], e2[3];
    for (int r = 0; r < 3; r++) {
        f[r] = wf_loadu(q[FI_F + r] + pos);
        e1[r] = wf_loadu(q[FI_E1 + r] + pos);
        e2[r] = wf_loadu(q[FI_E2 + r] + pos);
    }
    wf hk = wf_loadu(q[FI_HK] + pos), H1 = wf_loadu(q[FI_H1] + pos), H2 = wf_loadu(q[FI_H2] + pos);
    wf sr = wf_loadu(q[FI_SR] + pos), ct = wf_loadu(q[FI_CT] + pos), lo = wf_loadu(q[FI_LO] + pos);
    candw slot[4];
    wf H1c = wf_add(H1, ct), H2c = wf_add(H2, ct);
    static const float cs1[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, cs2[4] = {-1.0f, -1.0f, 1.0f, 1.0f};

    wf x1[4], x2[4], d[4];
    wm inq[4];
    for (int q = 0; q < 4; q++) {
        wf s1 = wf_set1(cs1[q]), s2 = wf_set1(cs2[q]);
        wf z = wf_add(wf_add(f[0], wf_mul(s1, e1[0])), wf_mul(s2, e2[0]));
        x1[q] = wf_add(wf_add(f[1], wf_mul(s1, e1[1])), wf_mul(s2, e2[1]));
        x2[q] = wf_add(wf_add(f[2], wf_mul(s1, e1[2])), wf_mul(s2, e2[2]));
        d[q] = wf_sub(hk, wf_mul(sr, z));
        inq[q] = wm_and(wm_le(wf_abs(x1[q]), H1c), wm_le(wf_abs(x2[q]), H2c));
    }
    #define SBX_NEAR1(X, Y, q) wm_and(inq[q], wm_and(wm_le(wf_abs(wf_sub(X, x1[q])), ct), wm_le(wf_abs(wf_sub(Y, x2[q])), ct)))
    /* incident edges: slab clipping (scalar_contacts.c); candidates e and 4 + e */
    candw cand[12];
    wm keep[12];
    wf two = wf_set1(2.0f), three = wf_set1(3.0f), ninf = wf_set1(-INFINITY);
    wf gx[2] = {wf_mul(two, e1[1]), wf_mul(two, e2[1])}, gy[2] = {wf_mul(two, e1[2]), wf_mul(two, e2[2])};
    wf gd[2] = {wf_neg(wf_mul(sr, wf_mul(two, e1[0]))), wf_neg(wf_mul(sr, wf_mul(two, e2[0])))};
    wf sgx[2], sgy[2], ivx[2], ivy[2];
    for (int a = 0; a < 2; a++) {
        sgx[a] = wf_select(wm_lt(gx[a], zero), mone, one);
        sgy[a] = wf_select(wm_lt(gy[a], zero), mone, one);
        ivx[a] = wf_div(one, wf_abs(gx[a]));
        ivy[a] = wf_div(one, wf_abs(gy[a]));
    }
    wf nH1 = wf_neg(H1), nH2 = wf_neg(H2), bd = ninf;
    SBX_UNROLL
    for (int e = 0; e < 4; e++) {
        int q0 = e, q1 = (e + 1) & 3, a = e & 1;
        wf sx = e < 2 ? sgx[a] : wf_neg(sgx[a]), sy = e < 2 ? sgy[a] : wf_neg(sgy[a]);
        wf dx = e < 2 ? gx[a] : wf_neg(gx[a]), dy = e < 2 ? gy[a] : wf_neg(gy[a]);
        wf dd = e < 2 ? gd[a] : wf_neg(gd[a]);
        wf ax = wf_mul(sx, x1[q0]), ay = wf_mul(sy, x2[q0]);
        wf enx = wf_mul(wf_sub(nH1, ax), ivx[a]), exx = wf_mul(wf_sub(H1, ax), ivx[a]);
        wf eny = wf_mul(wf_sub(nH2, ay), ivy[a]), exy = wf_mul(wf_sub(H2, ay), ivy[a]);
        wf eny0 = c_maxf(eny, zero), exy1 = wf_min(exy, one);
        wf tin = c_maxf(enx, eny0), tout = wf_min(exx, exy1);
        wm seg = wm_le(tin, tout);
        wm sxp = wm_gt(sx, zero), syp = wm_gt(sy, zero);
        wf sxH = wf_mul(sx, H1), syH = wf_mul(sy, H2);
        /* entry */
        wm px = wm_gt(enx, eny0);
        wf xi = wf_select(px, wf_neg(sxH), wf_add(x1[q0], wf_mul(tin, dx)));
        wf yi = wf_select(px, wf_add(x2[q0], wf_mul(tin, dy)), wf_neg(syH));
        wf di = wf_add(d[q0], wf_mul(tin, dd));
        wf pi = wf_select(px, wf_select(sxp, one, zero), wf_select(syp, three, two));
        wm kc = wm_andnot(wm_and(seg, wm_ge(di, lo)), wm_or(inq[q0], SBX_NEAR1(xi, yi, q1)));
        cand[e].x = wf_select(inq[q0], x1[q0], xi);
        cand[e].y = wf_select(inq[q0], x2[q0], yi);
        cand[e].d = wf_select(inq[q0], d[q0], di);
        cand[e].c = wf_select(inq[q0], wf_set1((float)q0), wf_add(wf_set1((float)(4 + 4 * e)), pi));
        keep[e] = wm_or(wm_and(inq[q0], wm_ge(d[q0], lo)), kc);
        /* exit */
        wm qx = wm_lt(exx, exy1);
        wf xo = wf_select(qx, sxH, wf_add(x1[q0], wf_mul(tout, dx)));
        wf yo = wf_select(qx, wf_add(x2[q0], wf_mul(tout, dy)), syH);
        wf dout = wf_add(d[q0], wf_mul(tout, dd));
        wf po = wf_select(qx, wf_select(sxp, zero, one), wf_select(syp, two, three));
        cand[4 + e] = (candw){xo, yo, dout, wf_add(wf_set1((float)(4 + 4 * e)), po)};
        keep[4 + e] = wm_andnot(wm_and(seg, wm_ge(dout, lo)), wm_or(inq[q1], SBX_NEAR1(xo, yo, q0)));
        bd = wf_select(wm_and(keep[e], wm_gt(cand[e].d, bd)), cand[e].d, bd);
        bd = wf_select(wm_and(keep[4 + e], wm_gt(dout, bd)), dout, bd);
    }
    #undef SBX_NEAR1
    /* reference corners; the ct-square code of each inside incident corner (-1: none) */
    wf ncode[4];
    {
        wf H1m = wf_sub(H1, ct), H2m = wf_sub(H2, ct);
        for (int q = 0; q < 4; q++) {
            wm nq = wm_and(inq[q], wm_and(wm_ge(wf_abs(x1[q]), H1m), wm_ge(wf_abs(x2[q]), H2m)));
            wm xp = wm_gt(x1[q], zero);
            wf qc4 = wf_select(wm_gt(x2[q], zero), wf_select(xp, two, three), wf_select(xp, one, zero));
            ncode[q] = wf_select(nq, qc4, mone);
        }
    }
    wf idet = wf_div(one, wf_sub(wf_mul(gx[0], gy[1]), wf_mul(gy[0], gx[1])));
    for (int c = 0; c < 4; c++) {
        int id = 8 + c;
        wf X = wf_mul(wf_set1(cs1[c]), H1), Y = wf_mul(wf_set1(cs2[c]), H2);
        wf rx = wf_sub(X, x1[0]), ry = wf_sub(Y, x2[0]);
        wf al = wf_mul(wf_sub(wf_mul(rx, gy[1]), wf_mul(ry, gx[1])), idet);
        wf be = wf_mul(wf_sub(wf_mul(gx[0], ry), wf_mul(gy[0], rx)), idet);
        wf dd = wf_add(wf_add(d[0], wf_mul(al, gd[0])), wf_mul(be, gd[1]));
        cand[id] = (candw){X, Y, dd, wf_set1((float)(20 + c))};
        wf cc = wf_set1((float)c);
        wm nc = wm_or(wm_or(wm_eq(ncode[0], cc), wm_eq(ncode[1], cc)), wm_or(wm_eq(ncode[2], cc), wm_eq(ncode[3], cc)));
        wm k = wm_and(wm_and(wm_ge(al, zero), wm_le(al, one)), wm_and(wm_ge(be, zero), wm_le(be, one)));
        keep[id] = wm_andnot(wm_and(k, wm_ge(dd, lo)), nc);
        bd = wf_select(wm_and(keep[id], wm_gt(dd, bd)), dd, bd);
    }

    /* reduction (rule 4) */
    wf dmin = wf_sub(bd, ct);
    candw p0 = {zero, zero, zero, zero};
    SBX_UNROLL
    for (int i = 11; i >= 0; i--)
        take_cand(wm_and(keep[i], wm_ge(cand[i].d, dmin)), &cand[i], &p0);
    wm has0 = wm_gt(bd, ninf);
    candw p1 = p0, p2 = p0, p3 = p0;
    wf bf = zero, bp = zero, bn = zero;
    SBX_UNROLL
    for (int i = 0; i < 12; i++) {
        wf dx = wf_sub(cand[i].x, p0.x), dy = wf_sub(cand[i].y, p0.y);
        wf fd = wf_add(wf_mul(dx, dx), wf_mul(dy, dy));
        wm m = wm_and(keep[i], wm_gt(fd, bf));
        bf = wf_select(m, fd, bf);
        take_cand(m, &cand[i], &p1);
    }
    /* no two points within ct of each other (the earlier point stays): p1 only beyond ct of p0,
     * p2 and p3 only beyond ct of the line p0 p1 (area > ct |p1 - p0|) */
    wf lf = wf_sqrt(bf);
    wm has1 = wm_gt(lf, ct);
    candw p1k = p0;
    take_cand(has1, &p1, &p1k);
    p1 = p1k;
    wf ux = wf_sub(p1.x, p0.x), uy = wf_sub(p1.y, p0.y);
    SBX_UNROLL
    for (int i = 0; i < 12; i++) {
        wf ar = wf_sub(wf_mul(ux, wf_sub(cand[i].y, p0.y)), wf_mul(uy, wf_sub(cand[i].x, p0.x)));
        wm mp = wm_and(keep[i], wm_gt(ar, bp)), mn = wm_and(keep[i], wm_lt(ar, bn));
        bp = wf_select(mp, ar, bp);
        bn = wf_select(mn, ar, bn);
        take_cand(mp, &cand[i], &p2);
        take_cand(mn, &cand[i], &p3);
    }
    wf amin = wf_mul(ct, lf);
    wm has2 = wm_gt(bp, amin), has3 = wm_lt(bn, wf_neg(amin));
    /* fallback: the incident corner nearest the side slabs */
    candw fb = {x1[0], x2[0], d[0], wf_set1((float)SATBOX_FEATURE_FALLBACK)};
    wf bx = c_maxf(wf_sub(wf_abs(x1[0]), H1), wf_sub(wf_abs(x2[0]), H2));
    for (int q = 1; q < 4; q++) {
        wf ex = c_maxf(wf_sub(wf_abs(x1[q]), H1), wf_sub(wf_abs(x2[q]), H2));
        wm m = wm_lt(ex, bx);
        bx = wf_select(m, ex, bx);
        candw cq = {x1[q], x2[q], d[q], wf_set1((float)(SATBOX_FEATURE_FALLBACK + q))};
        take_cand(m, &cq, &fb);
    }
    /* slots, around the contact polygon: p0 (or the fallback), p2, p1, p3, those missing left out
     * (has2 or has3 implies has1) */
    slot[0] = fb;
    take_cand(has0, &p0, &slot[0]);
    slot[1] = p1;
    take_cand(has2, &p2, &slot[1]);
    slot[2] = p3;
    take_cand(has2, &p1, &slot[2]);
    slot[3] = p3;
    wf cnt3 = wf_add(wf_add(wf_add(one, wf_keep(has1, one)), wf_keep(has2, one)), wf_keep(has3, one));
    wf count_face = wf_select(has0, cnt3, one);
    wf face_pt[4][3], uPk[3], uPk1[3], uPk2[3], cP[3];
    for (int c = 0; c < 3; c++) {
        uPk[c] = wf_loadu(q[FI_U + c] + pos);
        uPk1[c] = wf_loadu(q[FI_U + 3 + c] + pos);
        uPk2[c] = wf_loadu(q[FI_U + 6 + c] + pos);
        cP[c] = wf_loadu(q[FI_CP + c] + pos);
    }
    wf base = wf_loadu(q[FI_BASE] + pos);
    for (int s = 0; s < 4; s++) {
        wf z = wf_mul(wf_sub(hk, slot[s].d), sr);
        for (int c = 0; c < 3; c++)
            face_pt[s][c] = wf_add(wf_add(wf_add(cP[c], wf_mul(slot[s].x, uPk1[c])), wf_mul(slot[s].y, uPk2[c])),
                                   wf_mul(z, uPk[c]));
    }

    for (int s = 0; s < 4; s++) {
        wm act = wm_gt(count_face, wf_set1((float)s));
        for (int c = 0; c < 3; c++)
            wf_storeu(q[FR_PT + 3 * s + c] + pos, wf_keep(act, face_pt[s][c]));
        wf_storeu(q[FR_DEPTH + s] + pos, wf_keep(act, slot[s].d));
        wf_storeu(q[FR_FEAT + s] + pos, wf_select(act, wf_add(base, wf_mul(slot[s].c, wf_set1(SBX_FEAT_CAND))), mone));
    }
    wf_storeu(q[FR_COUNT] + pos, count_face);
}


typedef struct cqueue {
    float q[FI_N][SBX_QCAP]; /* the queued lanes' inputs; face_core_w's results over the first FR_N rows */
    uint32_t dst[SBX_QCAP];  /* per queued lane: its pair (SoA form) or its record (stream form) */
    size_t qn;               /* lanes queued */
} cqueue;

/* The manifold outputs of one step for the lanes not queued (edge points, zeros where there is
 * no manifold), and for the stream form the records of its hit lanes in pair order, the face
 * lanes' records reserved (their pair, normal and axis written; the points come from
 * queue_drain). Queues the destinations of the step's face lanes, which the caller appended to
 * cq->q at `qpos`. */
SBX_INLINE void put_step(const sbx_cjob *cj, size_t i, int k, const contactsw *o, cqueue *cq, size_t qpos,
                         size_t *nrec)
{
    unsigned lanes = (1u << k) - 1u, face = o->face & lanes;
    if (cj->stream) {
        unsigned hit = o->hit & lanes;
        if (!hit)
            return;
        float rows[10][SBX_W]; /* normal, axis id, count, point 0, depth 0, feature 0 */
        for (int c = 0; c < 3; c++) {
            wf_storeu(rows[c], o->n[c]);
            wf_storeu(rows[5 + c], o->pt0[c]);
        }
        wf_storeu(rows[3], o->id);
        wf_storeu(rows[4], o->count);
        wf_storeu(rows[8], o->depth0);
        wf_storeu(rows[9], o->feat0);
        while (hit) {
            int l = __builtin_ctz(hit);
            hit &= hit - 1u;
            satbox_manifold *r = &cj->stream[*nrec];
            float normal[3] = {rows[0][l], rows[1][l], rows[2][l]};
            if (face >> l & 1u) {
                sbx_put_manifold_head(r, i + (size_t)l, normal, (unsigned)rows[3][l], 0);
                cq->dst[qpos++] = (uint32_t)*nrec;
            } else {
                float point[4][3] = {{rows[5][l], rows[6][l], rows[7][l]}};
                float depth[4] = {rows[8][l], 0.0f, 0.0f, 0.0f};
                uint32_t feature[4] = {(uint32_t)(int32_t)rows[9][l], SATBOX_FEATURE_NONE, SATBOX_FEATURE_NONE,
                                       SATBOX_FEATURE_NONE};
                sbx_put_manifold(r, i + (size_t)l, normal, (unsigned)rows[3][l], (unsigned)rows[4][l], point, depth,
                                 feature);
            }
            (*nrec)++;
        }
        return;
    }
    for (unsigned f = face; f; f &= f - 1u)
        cq->dst[qpos++] = (uint32_t)(i + (size_t)__builtin_ctz(f));
    if (face == lanes) /* every lane's outputs come from the queue */
        return;
    wf zero = wf_zero(), mone = wf_set1(-1.0f);
    for (int s = 0; s < 4; s++) {
        for (int c = 0; c < 3; c++)
            if (cj->point[s][c])
                store_w(cj->point[s][c], i, s ? zero : o->pt0[c], k);
        if (cj->depth[s])
            store_w(cj->depth[s], i, s ? zero : o->depth0, k);
        if (cj->feature[s])
            wf_store_i32(cj->feature[s] + i, s ? mone : o->feat0, k);
    }
    if (cj->count)
        wf_store_u8(cj->count + i, o->count, k);
}

/* Stage 1 from pair i: SAT, axis, normal, edge points and the per-pair outputs, step by step,
 * while fewer than SBX_W lanes are queued; the face lanes queued. Adds the hits to *count and the
 * records to *nrec; returns the first pair not done. `pf`: prefetch the sources ahead
 * (prefetch_wanted). */
SBX_INLINE size_t contacts_stage1(const sbx_cjob *cj, sbx_src src, int pf, size_t i, cqueue *cq, size_t *count_io,
                                  size_t *nrec)
{
    const sbx_job *job = &cj->pair;
    wf margin = wf_set1(job->margin);
    size_t count = *count_io, n = job->n;
    for (; i < n && cq->qn < SBX_W; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        oboxw a, b;
        contactsw o;
        if (pf)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, NULL, &a, &b);
        unsigned live = (1u << k) - 1u;
        size_t qpos = cq->qn;
        cq->qn = contacts_sat_w(&a, &b, margin, live, &o, cq->q, qpos);
        unsigned hit = o.hit & live;
        if (job->hit)
            wm_store_bits(job->hit + i, hit, k);
        if (job->bad)
            wm_store_bits(job->bad + i, o.inv, k);
        for (int c = 0; c < 3; c++)
            if (job->normal[c])
                store_w(job->normal[c], i, o.n[c], k);
        if (job->axis)
            wf_store_u8(job->axis + i, o.id, k);
        if (job->compact)
            count = push_compact(job->compact, count, i, hit);
        else
            count += (size_t)__builtin_popcount(hit);
        put_step(cj, i, k, &o, cq, qpos, nrec);
    }
    *count_io = count;
    return i;
}

/* Stage 1 with the source's loaders fixed, one function per source (one function holding all
 * the loops took their sum again): contacts_stage1_MAT, _QUAT, ... from SBX_SOURCES. */
#define SBX_STAGE1(name, label, kind, quat, contacts) SBX_WHEN_##contacts(SBX_STAGE1_FN(name))
#define SBX_STAGE1_FN(name)                                                                               \
    SBX_NOINLINE size_t contacts_stage1_##name(const sbx_cjob *cj, int pf, size_t i, cqueue *cq, size_t *count, \
                                               size_t *nrec)                                              \
    {                                                                                                     \
        return contacts_stage1(cj, SBX_SRC_##name, pf, i, cq, count, nrec);                               \
    }
SBX_SOURCES(SBX_STAGE1)
#undef SBX_STAGE1
#undef SBX_STAGE1_FN

/* Stage 2: the face manifolds of the first `take` queued lanes (SBX_W, or the last lanes of the
 * call), their results written to their pairs or records; the lanes queued after them move to
 * the front. The lanes from `take` to SBX_W are zeros then: computed, never read. */
SBX_NOINLINE void queue_drain(const sbx_cjob *cj, cqueue *cq, size_t take)
{
    if (take < SBX_W) {
        SBX_UNROLL
        for (int v = 0; v < FI_N; v++)
            wf_storeu(cq->q[v], wf_load_part(cq->q[v], (int)take));
    }
    face_core_w(cq->q, 0);
    if (cj->stream) {
        for (size_t j = 0; j < take; j++) {
            satbox_manifold *r = &cj->stream[cq->dst[j]];
            float point[4][3], depth[4];
            uint32_t feature[4];
            for (int s = 0; s < 4; s++) {
                for (int c = 0; c < 3; c++)
                    point[s][c] = cq->q[FR_PT + 3 * s + c][j];
                depth[s] = cq->q[FR_DEPTH + s][j];
                feature[s] = (uint32_t)(int32_t)cq->q[FR_FEAT + s][j]; /* exact integers; -1 is NONE */
            }
            sbx_put_manifold_points(r, (unsigned)cq->q[FR_COUNT][j], point, depth, feature);
        }
    } else if (cq->dst[take - 1] - cq->dst[0] == take - 1) {
        /* the lanes are consecutive pairs (all of a step's lanes had a face axis, as in resting
         * stacks): whole vectors go to their pairs instead of one lane at a time */
        size_t i = cq->dst[0];
        int k = (int)take;
        for (int s = 0; s < 4; s++) {
            for (int c = 0; c < 3; c++)
                if (cj->point[s][c])
                    store_w(cj->point[s][c], i, wf_loadu(cq->q[FR_PT + 3 * s + c]), k);
            if (cj->depth[s])
                store_w(cj->depth[s], i, wf_loadu(cq->q[FR_DEPTH + s]), k);
            if (cj->feature[s])
                wf_store_i32(cj->feature[s] + i, wf_loadu(cq->q[FR_FEAT + s]), k);
        }
        if (cj->count)
            wf_store_u8(cj->count + i, wf_loadu(cq->q[FR_COUNT]), k);
    } else {
        for (int s = 0; s < 4; s++) {
            for (int c = 0; c < 3; c++)
                if (cj->point[s][c])
                    for (size_t j = 0; j < take; j++)
                        cj->point[s][c][cq->dst[j]] = cq->q[FR_PT + 3 * s + c][j];
            if (cj->depth[s])
                for (size_t j = 0; j < take; j++)
                    cj->depth[s][cq->dst[j]] = cq->q[FR_DEPTH + s][j];
            if (cj->feature[s])
                for (size_t j = 0; j < take; j++)
                    cj->feature[s][cq->dst[j]] = (uint32_t)(int32_t)cq->q[FR_FEAT + s][j];
        }
        if (cj->count)
            for (size_t j = 0; j < take; j++)
                cj->count[cq->dst[j]] = (uint8_t)cq->q[FR_COUNT][j];
    }
    cq->qn -= take;
    if (cq->qn) { /* take == SBX_W: the rest moves to the front */
        SBX_UNROLL
        for (int v = 0; v < FI_N; v++)
            wf_storeu(cq->q[v], wf_loadu(cq->q[v] + SBX_W));
        for (size_t j = 0; j < cq->qn; j++)
            cq->dst[j] = cq->dst[SBX_W + j];
    }
}

static ptrdiff_t kernel_contacts(const sbx_cjob *cj)
{
    sbx_src src = cj->pair.src;
    cqueue cq;
    cq.qn = 0;
    size_t count = 0, nrec = 0, n = cj->pair.n;
    const int pf = prefetch_wanted(&cj->pair, src); /* as the pair kernels: large record pools, long batches */
    for (size_t i = 0; i < n;) {
        switch (src) {
#define SBX_RUN(name, label, kind, quat, contacts) SBX_WHEN_##contacts(SBX_RUN_CASE(name))
#define SBX_RUN_CASE(name)                                             \
    case SBX_SRC_##name:                                               \
        i = contacts_stage1_##name(cj, pf, i, &cq, &count, &nrec); \
        break;
            SBX_SOURCES(SBX_RUN)
#undef SBX_RUN
#undef SBX_RUN_CASE
        default: return SATBOX_ERR_ARG; /* a source without a contacts form */
        }
        if (cq.qn >= SBX_W)
            queue_drain(cj, &cq, SBX_W);
    }
    if (cq.qn)
        queue_drain(cj, &cq, cq.qn);
    return (ptrdiff_t)count;
}

#endif

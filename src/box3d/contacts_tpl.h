/* contacts_tpl.h - the template of contacts_ref.c: contact manifolds of SBX_W pairs per step over the SAT math of sat_tpl.h, step for step. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS_TPL_H
#define SATBOX_CONTACTS_TPL_H

#include "core/tpl_common.h"
#include "box3d/contacts.h"

/* Included after sat_tpl.h and batch_tpl.h (it reuses pair_setup_w, the gap functions, the
 * loaders and the output helpers). The steps are contacts_ref.c's, under the same names with
 * _w and in the same order: sat_axes_w, choose_axis_w, then for a face axis reference_frame_w,
 * clip_incident_w, reduce_to_4_w, to_world_w, for an edge axis edge_point_w; each expression is
 * the scalar one in the same order, so every path gives the same bits. The face axis' steps run
 * on queued lanes only (kernel_contacts), each with a fixed SBX_NCAND candidates; masks choose,
 * no lane branches. */

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

/* contacts_ref.c maxf / clampf / dot3. */
SBX_INLINE wf maxf_w(wf a, wf b) { return wf_select(wm_gt(a, b), a, b); }
SBX_INLINE wf clampf_w(wf x, wf h)
{
    wf nh = wf_neg(h);
    return wf_select(wm_lt(x, nh), nh, wf_select(wm_gt(x, h), h, x));
}
SBX_INLINE wf dot3_w(const wf a[3], const wf b[3])
{
    return wf_add(wf_add(wf_mul(a[0], b[0]), wf_mul(a[1], b[1])), wf_mul(a[2], b[2]));
}

/* SBX_FEATURE_FACES(ref, inc) and SBX_FEATURE(faces, cand) as exact floats (contacts.h), the one
 * packing of the kernels: the face bytes, which a face lane keeps in one queue row (not two, as
 * ref and inc apart would take), then the candidate code. */
SBX_INLINE wf feature_faces_w(wf ref, wf inc)
{
    return wf_add(ref, wf_mul(inc, wf_set1(SBX_FEAT_INC)));
}
SBX_INLINE wf feature_w(wf faces, wf cand)
{
    return wf_add(faces, wf_mul(cand, wf_set1(SBX_FEAT_CAND)));
}

/* ---- the face queue -------------------------------------------------------------------------
 * Stage 1 (pair_contacts_w) appends the face lanes of each step to it (compressed) and the face
 * axis' steps run on full vectors of queued lanes, SBX_W at a time, whichever steps they came
 * from (face_manifold_w); its results go straight to their pairs (SoA form) or records (stream
 * form). Lanes that do not hit, or that have an edge axis, cost no clipping, and no vector of the
 * face manifold runs part empty but the last of a call. The queue lives in kernel_contacts'
 * frame, and every entry point must fit in a 16 KiB thread stack (satbox.h; engines call this
 * from job-system threads and fibers): SBX_QCAP columns of the frame rows (a step starts only
 * with fewer than SBX_W lanes queued and queues at most SBX_W), 0.9 / 1.8 / 3.6 KB at 4 / 8 / 16
 * lanes, and no per-step state is kept (a block of pairs held at once would take more stack and
 * end with the face manifold on part empty vectors). */
#define SBX_QCAP (2 * SBX_W)

/* The face manifold's inputs, one column per queued lane: contacts_ref.c's face_frame. */
typedef struct frame_rows {
    float f[3][SBX_QCAP], e1[3][SBX_QCAP], e2[3][SBX_QCAP]; /* incident face center, half edges: (z, x, y) */
    float hk[SBX_QCAP], H1[SBX_QCAP], H2[SBX_QCAP];          /* P's half extents along k, k1, k2 */
    float sr[SBX_QCAP], ct[SBX_QCAP], lo[SBX_QCAP];          /* reference side, snapping distance, lowest depth */
    float u[3][3][SBX_QCAP];                                 /* uP_k, uP_k1, uP_k2 (world) */
    float cp[3][SBX_QCAP];                                   /* P's center (world) */
    float faces[SBX_QCAP];                                   /* feature id bytes 0 and 1: feature_faces_w */
} frame_rows;

/* Its results, one column per queued lane (written over the inputs once they are read). */
typedef struct result_rows {
    float point[4][3][SBX_QCAP], depth[4][SBX_QCAP];
    float feature[4][SBX_QCAP]; /* exact integers as floats; -1 is SATBOX_FEATURE_NONE */
    float count[SBX_QCAP];
} result_rows;

#define SBX_FRAME_ROWS (sizeof(frame_rows) / sizeof(float[SBX_QCAP]))
typedef union queue_rows {
    frame_rows in;
    result_rows out;
    float row[SBX_FRAME_ROWS][SBX_QCAP]; /* the same rows by number, to move them all */
} queue_rows;
_Static_assert(sizeof(result_rows) <= sizeof(frame_rows), "the results fit over the inputs");

/* What stage 1 gives of one step: the per-pair outputs, and slot 0 / count of the lanes not in
 * the face queue (edge points; zero elsewhere). */
typedef struct coutw {
    wf normal[3], axis, count;
    wf point0[3], depth0, feature0; /* feature0: the feature id as an exact float, -1 if unused */
    unsigned hit, bad, face;        /* face: live lanes with a face axis (their manifold is queued) */
} coutw;

/* ---- sat_axes_w, choose_axis_w --------------------------------------------------------------- */

/* contacts_ref.c best_axes; the axis ids as floats. The pair's set-up P (sat_pairw) is a
 * struct of its own beside it: held inside this one, it makes GCC's AVX-512 stage 1 take more
 * stack, which puts the contacts chain over its budget (stack_frames.py). */
typedef struct best_axesw {
    wf proj_b[3];
    wf gap_a, gap_b, gap_edge, proj_edge;
    wf axis_a, axis_b, axis_edge;   /* axis_edge 0 where there is no usable edge axis (gap_edge -inf) */
    wf edge_len2, edge_r;           /* len2_edge_w and R[i][j] of that edge axis (the scalar reads
                                       them from P by index) */
    wf sum_h, separation;
} best_axesw;

SBX_INLINE void sat_axes_w(const oboxw *A, const oboxw *B, sat_pairw *P, best_axesw *S)
{
    wf zero = wf_zero(), one = wf_set1(1.0f);
    pair_setup_w(A, B, P);
    S->gap_a = gap_face_a_w(A, B, P, 0);
    S->axis_a = zero;
    for (int i = 1; i < 3; i++) {
        wf g = gap_face_a_w(A, B, P, i);
        wm m = wm_gt(g, S->gap_a);
        S->gap_a = wf_select(m, g, S->gap_a);
        S->axis_a = wf_select(m, wf_set1((float)i), S->axis_a);
    }
    S->gap_b = gap_face_b_w(A, B, P, 0, &S->proj_b[0]);
    S->axis_b = wf_set1(3.0f);
    for (int j = 1; j < 3; j++) {
        wf g = gap_face_b_w(A, B, P, j, &S->proj_b[j]);
        wm m = wm_gt(g, S->gap_b);
        S->gap_b = wf_select(m, g, S->gap_b);
        S->axis_b = wf_select(m, wf_set1((float)(3 + j)), S->axis_b);
    }
    S->gap_edge = wf_set1(-INFINITY);
    S->proj_edge = zero;
    S->axis_edge = zero;
    S->edge_len2 = one;
    S->edge_r = zero;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            wf proj, g = gap_edge_w(A, B, P, i, j, &proj), l2 = len2_edge_w(P, i, j);
            wf sv = wf_div(g, wf_min(wf_sqrt(l2), one));
            wm m = wm_and(wm_lt(P->AR[i][j], wf_set1(SATBOX_PARALLEL_ABS_COS)), wm_gt(sv, S->gap_edge));
            S->gap_edge = wf_select(m, sv, S->gap_edge);
            S->proj_edge = wf_select(m, proj, S->proj_edge);
            S->axis_edge = wf_select(m, wf_set1((float)(6 + 3 * i + j)), S->axis_edge);
            S->edge_len2 = wf_select(m, l2, S->edge_len2);
            S->edge_r = wf_select(m, P->R[i][j], S->edge_r);
        }
    S->sum_h = wf_add(wf_add(wf_add(wf_add(wf_add(A->h[0], A->h[1]), A->h[2]), B->h[0]), B->h[1]), B->h[2]);
    S->separation = maxf_w(maxf_w(S->gap_a, S->gap_b), S->gap_edge);
}

/* contacts_ref.c axis_choice. */
typedef struct axis_choicew {
    wf axis, proj;
    wm use_edge;
    wf face_axis, face_gap, face_proj;
} axis_choicew;

SBX_INLINE void choose_axis_w(const sat_pairw *P, const best_axesw *S, axis_choicew *ch)
{
    wf rel = wf_set1(SATBOX_CONTACT_REL_TOL);
    wf abs_tol = wf_mul(wf_set1(SATBOX_CONTACT_ABS_TOL), S->sum_h);
    wm use_b = wm_gt(S->gap_b, wf_add(S->gap_a, wf_add(wf_mul(rel, wf_abs(S->gap_a)), abs_tol)));
    ch->face_gap = wf_select(use_b, S->gap_b, S->gap_a);
    wf proj_a = sel3(S->axis_a, P->t[0], P->t[1], P->t[2]);
    wf proj_b = sel3(wf_sub(S->axis_b, wf_set1(3.0f)), S->proj_b[0], S->proj_b[1], S->proj_b[2]);
    ch->face_proj = wf_select(use_b, proj_b, proj_a);
    ch->face_axis = wf_select(use_b, S->axis_b, S->axis_a);
    wm has_edge = wm_gt(S->gap_edge, wf_set1(-INFINITY));
    ch->use_edge =
        wm_and(has_edge, wm_gt(S->gap_edge, wf_add(ch->face_gap, wf_add(wf_mul(rel, wf_abs(ch->face_gap)), abs_tol))));
    ch->axis = wf_select(ch->use_edge, S->axis_edge, ch->face_axis);
    ch->proj = wf_select(ch->use_edge, S->proj_edge, ch->face_proj);
}

/* ---- may_touch_w ------------------------------------------------------------------------------ */

/* contacts_ref.c may_touch(): the lanes that may touch (valid, and no axis proves them apart by
 * more than the margin: a face gap above margin, a used edge's raw gap above max(margin, 0)), the
 * bad lanes in *bad. The overlap test's work (overlap_w): the set-up and the 15 gaps folded by
 * max, for which the order does not matter (the scalar stops at the first). */
SBX_INLINE unsigned may_touch_w(const oboxw *A, const oboxw *B, wf margin, unsigned *bad)
{
    sat_pairw P;
    pair_setup_w(A, B, &P);
    wf face = max_face_gap_w(A, B, &P);
    /* a skipped edge axis enters as 0, which never exceeds max(margin, 0) */
    wf edge = P.near_par ? max_edges(A, B, &P, wf_zero(), 1) : max_edges(A, B, &P, wf_zero(), 0);
    wm apart = wm_or(wm_gt(face, margin), wm_gt(edge, maxf_w(margin, wf_zero())));
    *bad = wm_bits(wm_not(P.valid));
    return wm_bits(wm_andnot(P.valid, apart));
}

/* ---- reference_frame_w ----------------------------------------------------------------------- */

/* contacts_ref.c reference_frame() for the lanes qm, each row appended (compressed) to the
 * queue's rows at column qn as soon as it is known (an array of them all spilled). */
SBX_INLINE void reference_frame_w(const oboxw *A, const oboxw *B, const sat_pairw *P, const best_axesw *S,
                                  const axis_choicew *ch, wf margin, frame_rows *F, size_t qn, unsigned qm)
{
#define SBX_QPUT(row, v) wf_storeu((row) + qn, wf_compress((v), qm))
    wf zero = wf_zero(), one = wf_set1(1.0f), mone = wf_set1(-1.0f);
    wm ref_a = wm_lt(ch->face_axis, wf_set1(3.0f));
    wf k = wf_select(ref_a, ch->face_axis, wf_sub(ch->face_axis, wf_set1(3.0f)));
    wf sr = wf_select(wm_lt(ch->face_proj, zero), wf_select(ref_a, mone, one), wf_select(ref_a, one, mone));
    /* Q's center and axes in P's frame, and both boxes' extents */
    wf qc[3], qu[3][3], hP[3], hQ[3];
    for (int a = 0; a < 3; a++) {
        qc[a] = wf_select(ref_a, P->t[a], wf_neg(S->proj_b[a]));
        hP[a] = wf_select(ref_a, A->h[a], B->h[a]);
        hQ[a] = wf_select(ref_a, B->h[a], A->h[a]);
        for (int j = 0; j < 3; j++)
            qu[j][a] = wf_select(ref_a, P->R[a][j], P->R[j][a]);
    }
    /* incident face: Q's axis m most (anti-)parallel to the reference normal; side si facing P */
    wf dq_m = wf_mul(sr, sel3(k, qu[0][0], qu[0][1], qu[0][2])), adq_m = wf_abs(dq_m), m = zero;
    for (int j = 1; j < 3; j++) {
        wf dq = wf_mul(sr, sel3(k, qu[j][0], qu[j][1], qu[j][2]));
        wm better = wm_gt(wf_abs(dq), adq_m);
        adq_m = wf_select(better, wf_abs(dq), adq_m);
        dq_m = wf_select(better, dq, dq_m);
        m = wf_select(better, wf_set1((float)j), m);
    }
    wf si = wf_select(wm_gt(dq_m, zero), mone, one);
    wf qu_m[3], qu_m1[3], qu_m2[3];
    for (int a = 0; a < 3; a++) {
        qu_m[a] = sel3(m, qu[0][a], qu[1][a], qu[2][a]);
        qu_m1[a] = sel3(m, qu[1][a], qu[2][a], qu[0][a]);
        qu_m2[a] = sel3(m, qu[2][a], qu[0][a], qu[1][a]);
    }
    wf h_inc = wf_mul(si, sel3(m, hQ[0], hQ[1], hQ[2]));
    wf h_m1 = sel3(m, hQ[1], hQ[2], hQ[0]), h_m2 = sel3(m, hQ[2], hQ[0], hQ[1]);
    /* face center f and half edges e1, e2, (z, x, y) = components (k, k1, k2) */
    {
        wf comp_qc[3] = {sel3(k, qc[0], qc[1], qc[2]), sel3(k, qc[1], qc[2], qc[0]), sel3(k, qc[2], qc[0], qc[1])};
        wf comp_m[3] = {sel3(k, qu_m[0], qu_m[1], qu_m[2]), sel3(k, qu_m[1], qu_m[2], qu_m[0]),
                        sel3(k, qu_m[2], qu_m[0], qu_m[1])};
        wf comp_m1[3] = {sel3(k, qu_m1[0], qu_m1[1], qu_m1[2]), sel3(k, qu_m1[1], qu_m1[2], qu_m1[0]),
                         sel3(k, qu_m1[2], qu_m1[0], qu_m1[1])};
        wf comp_m2[3] = {sel3(k, qu_m2[0], qu_m2[1], qu_m2[2]), sel3(k, qu_m2[1], qu_m2[2], qu_m2[0]),
                         sel3(k, qu_m2[2], qu_m2[0], qu_m2[1])};
        for (int r = 0; r < 3; r++) {
            SBX_QPUT(F->f[r], wf_add(comp_qc[r], wf_mul(h_inc, comp_m[r])));
            SBX_QPUT(F->e1[r], wf_mul(h_m1, comp_m1[r]));
            SBX_QPUT(F->e2[r], wf_mul(h_m2, comp_m2[r]));
        }
    }
    /* P's axes k, k1, k2 and center, for to_world_w */
    for (int c = 0; c < 3; c++) {
        wf u0 = wf_select(ref_a, A->u[0][c], B->u[0][c]), u1 = wf_select(ref_a, A->u[1][c], B->u[1][c]);
        wf u2 = wf_select(ref_a, A->u[2][c], B->u[2][c]);
        SBX_QPUT(F->u[0][c], sel3(k, u0, u1, u2));
        SBX_QPUT(F->u[1][c], sel3(k, u1, u2, u0));
        SBX_QPUT(F->u[2][c], sel3(k, u2, u0, u1));
        SBX_QPUT(F->cp[c], wf_select(ref_a, A->c[c], B->c[c]));
    }
    SBX_QPUT(F->hk, sel3(k, hP[0], hP[1], hP[2]));
    SBX_QPUT(F->H1, sel3(k, hP[1], hP[2], hP[0]));
    SBX_QPUT(F->H2, sel3(k, hP[2], hP[0], hP[1]));
    SBX_QPUT(F->sr, sr);
    SBX_QPUT(F->ct, wf_mul(wf_set1(SATBOX_CONTACT_ABS_TOL), S->sum_h));
    SBX_QPUT(F->lo, wf_neg(wf_add(margin, wf_mul(wf_set1(SATBOX_CONTACT_KEEP_TOL), S->sum_h))));
    wf ref = wf_add(wf_add(wf_select(ref_a, zero, wf_set1(6.0f)), wf_mul(wf_set1(2.0f), k)),
                    wf_select(wm_lt(sr, zero), one, zero));
    wf inc = wf_add(wf_mul(wf_set1(2.0f), m), wf_select(wm_lt(si, zero), one, zero));
    SBX_QPUT(F->faces, feature_faces_w(ref, inc));
#undef SBX_QPUT
}

/* ---- edge_point_w ------------------------------------------------------------------------------ */

/* contacts_ref.c edge_point() for the lanes whose axis is edge axis axis_edge (normal n): the
 * point and its feature id (the other lanes' values are never used). */
SBX_INLINE void edge_point_w(const oboxw *A, const oboxw *B, const best_axesw *S, const wf n[3], wf point[3],
                             wf *feature)
{
    wf zero = wf_zero(), one = wf_set1(1.0f), mone = wf_set1(-1.0f);
    wf i = wf_add(wf_select(wm_ge(S->axis_edge, wf_set1(9.0f)), one, zero),
                  wf_select(wm_ge(S->axis_edge, wf_set1(12.0f)), one, zero));
    wf j = wf_sub(wf_sub(S->axis_edge, wf_set1(6.0f)), wf_mul(wf_set1(3.0f), i));
    wf uA_i[3], uA_i1[3], uA_i2[3], uB_j[3], uB_j1[3], uB_j2[3];
    for (int c = 0; c < 3; c++) {
        uA_i[c] = sel3(i, A->u[0][c], A->u[1][c], A->u[2][c]);
        uA_i1[c] = sel3(i, A->u[1][c], A->u[2][c], A->u[0][c]);
        uA_i2[c] = sel3(i, A->u[2][c], A->u[0][c], A->u[1][c]);
        uB_j[c] = sel3(j, B->u[0][c], B->u[1][c], B->u[2][c]);
        uB_j1[c] = sel3(j, B->u[1][c], B->u[2][c], B->u[0][c]);
        uB_j2[c] = sel3(j, B->u[2][c], B->u[0][c], B->u[1][c]);
    }
    /* A's edge: farthest along n; B's edge: farthest against n (n . u < 0 decides each sign) */
    wm n_a1_neg = wm_lt(dot3_w(n, uA_i1), zero), n_a2_neg = wm_lt(dot3_w(n, uA_i2), zero);
    wm n_b1_neg = wm_lt(dot3_w(n, uB_j1), zero), n_b2_neg = wm_lt(dot3_w(n, uB_j2), zero);
    wf sa1 = wf_select(n_a1_neg, mone, one), sa2 = wf_select(n_a2_neg, mone, one);
    wf sb1 = wf_select(n_b1_neg, one, mone), sb2 = wf_select(n_b2_neg, one, mone);
    wf ha1 = wf_mul(sa1, sel3(i, A->h[1], A->h[2], A->h[0])), ha2 = wf_mul(sa2, sel3(i, A->h[2], A->h[0], A->h[1]));
    wf hb1 = wf_mul(sb1, sel3(j, B->h[1], B->h[2], B->h[0])), hb2 = wf_mul(sb2, sel3(j, B->h[2], B->h[0], B->h[1]));
    /* relative to A's center: the error follows the pair's size */
    wf pa[3], pb[3], w[3];
    for (int c = 0; c < 3; c++) {
        pa[c] = wf_add(wf_mul(ha1, uA_i1[c]), wf_mul(ha2, uA_i2[c]));
        pb[c] = wf_add(wf_add(wf_sub(B->c[c], A->c[c]), wf_mul(hb1, uB_j1[c])), wf_mul(hb2, uB_j2[c]));
        w[c] = wf_sub(pa[c], pb[c]);
    }
    /* closest points of the segments: s clamped, t from s clamped, s from t if t was clamped */
    wf r_ij = S->edge_r, w_ai = dot3_w(uA_i, w), w_bj = dot3_w(uB_j, w);
    wf hA_i = sel3(i, A->h[0], A->h[1], A->h[2]), hB_j = sel3(j, B->h[0], B->h[1], B->h[2]);
    wf sp = clampf_w(wf_div(wf_sub(wf_mul(r_ij, w_bj), w_ai), S->edge_len2), hA_i);
    wf tu = wf_add(w_bj, wf_mul(r_ij, sp)), tp = clampf_w(tu, hB_j);
    sp = wf_select(wm_eq(tp, tu), sp, clampf_w(wf_sub(wf_mul(r_ij, tp), w_ai), hA_i));
    for (int c = 0; c < 3; c++)
        point[c] = wf_add(A->c[c], wf_mul(wf_add(wf_add(pa[c], wf_mul(sp, uA_i[c])), wf_add(pb[c], wf_mul(tp, uB_j[c]))),
                                          wf_set1(0.5f)));
    /* edge ids: 4 * local axis + 1 (negative side along the first other axis) + 2 (the second) */
    wf ea = wf_add(wf_add(wf_mul(wf_set1(4.0f), i), wf_select(n_a1_neg, one, zero)),
                   wf_select(n_a2_neg, wf_set1(2.0f), zero));
    wf eb = wf_add(wf_add(wf_mul(wf_set1(4.0f), j), wf_select(n_b1_neg, zero, one)),
                   wf_select(n_b2_neg, zero, wf_set1(2.0f)));
    *feature = feature_w(feature_faces_w(wf_add(wf_set1((float)SBX_FEAT_EDGE_A), ea), eb),
                         wf_set1((float)SATBOX_FEATURE_EDGE));
}

/* ---- stage 1: pair_contacts_w -------------------------------------------------------------- */

/* contacts_ref.c pair_contacts() for SBX_W pairs, first stage: the SAT part, the axis, the
 * normal, the edge points; the face lanes among `lanes` get their frame appended (compressed) to
 * the queue's rows F at column qn. Returns the new queue length. */
SBX_INLINE size_t pair_contacts_w(const oboxw *A, const oboxw *B, wf margin, unsigned lanes, coutw *o,
                                  frame_rows *F, size_t qn)
{
    wf zero = wf_zero(), one = wf_set1(1.0f);
    sat_pairw P;
    best_axesw S;
    sat_axes_w(A, B, &P, &S);
    wm hit = wm_and(P.valid, wm_le(S.separation, margin));
    axis_choicew ch;
    choose_axis_w(&P, &S, &ch);
    axis_normal_w(A, B, ch.axis, ch.proj, o->normal);

    wm live = wm_and(hit, P.valid);
    o->face = SBX_MANIFOLD ? wm_bits(wm_andnot(live, ch.use_edge)) & lanes : 0u;
    if (o->face) {
        reference_frame_w(A, B, &P, &S, &ch, margin, F, qn, o->face);
        qn += (size_t)wm_count(o->face);
    }

    /* skipped when no live lane uses an edge axis */
    wm edge_live = wm_and(live, ch.use_edge);
    wf edge_pt[3] = {zero, zero, zero}, edge_feature = wf_set1(-1.0f);
    if (SBX_MANIFOLD && wm_bits(edge_live))
        edge_point_w(A, B, &S, o->normal, edge_pt, &edge_feature);

    /* the step's outputs (the face lanes get their manifold from face_manifold_w) */
    o->count = wf_keep(edge_live, one);
    for (int c = 0; c < 3; c++)
        o->point0[c] = wf_keep(edge_live, edge_pt[c]);
    o->depth0 = wf_keep(edge_live, wf_neg(S.gap_edge));
    o->feature0 = wf_select(edge_live, edge_feature, wf_set1(-1.0f));
    for (int c = 0; c < 3; c++)
        o->normal[c] = wf_select(P.valid, o->normal[c], zero);
    o->axis = wf_select(P.valid, ch.axis, wf_set1((float)SATBOX_AXIS_INVALID));
    o->hit = wm_bits(live);
    o->bad = wm_bits(wm_not(P.valid));
    return qn;
}

/* ---- stage 2: the face axis' steps ----------------------------------------------------------- */

/* The frame rows clip_incident_w and reduce_to_4_w use, loaded once per vector of lanes. */
typedef struct face_framew {
    wf f[3], e1[3], e2[3], hk, H1, H2, sr, ct, lo;
} face_framew;

SBX_INLINE void load_frame_w(const frame_rows *r, size_t pos, face_framew *F)
{
    for (int c = 0; c < 3; c++) {
        F->f[c] = wf_loadu(r->f[c] + pos);
        F->e1[c] = wf_loadu(r->e1[c] + pos);
        F->e2[c] = wf_loadu(r->e2[c] + pos);
    }
    F->hk = wf_loadu(r->hk + pos);
    F->H1 = wf_loadu(r->H1 + pos);
    F->H2 = wf_loadu(r->H2 + pos);
    F->sr = wf_loadu(r->sr + pos);
    F->ct = wf_loadu(r->ct + pos);
    F->lo = wf_loadu(r->lo + pos);
}

/* contacts_ref.c corners, cand, clipped, reduced. */
typedef struct cornersw {
    wf x1[4], x2[4], d[4];
    wm in[4];
} cornersw;

typedef struct candw {
    wf x, y, d, code;
} candw;

typedef struct clippedw {
    cornersw Q;
    candw c[SBX_NCAND];
    wm keep[SBX_NCAND];
    wf deepest;
} clippedw;

typedef struct reducedw {
    candw slot[4];
    wf count;
} reducedw;

/* dst = m ? src : dst, per lane. */
SBX_INLINE void take_cand(wm m, const candw *src, candw *dst)
{
    dst->x = wf_select(m, src->x, dst->x);
    dst->y = wf_select(m, src->y, dst->y);
    dst->d = wf_select(m, src->d, dst->d);
    dst->code = wf_select(m, src->code, dst->code);
}

/* contacts_ref.c near_end(). */
SBX_INLINE wm near_end_w(const cornersw *Q, wf x, wf y, int q, wf ct)
{
    return wm_and(Q->in[q], wm_and(wm_le(wf_abs(wf_sub(x, Q->x1[q])), ct), wm_le(wf_abs(wf_sub(y, Q->x2[q])), ct)));
}

/* contacts_ref.c clip_incident(); the deepest kept depth is kept as the candidates come. */
SBX_INLINE void clip_incident_w(const face_framew *F, clippedw *C)
{
    static const float corner_s1[4] = {-1.0f, 1.0f, 1.0f, -1.0f}, corner_s2[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
    wf zero = wf_zero(), one = wf_set1(1.0f), mone = wf_set1(-1.0f);
    wf two = wf_set1(2.0f), three = wf_set1(3.0f);
    wf H1 = F->H1, H2 = F->H2, ct = F->ct, lo = F->lo;
    wf H1c = wf_add(H1, ct), H2c = wf_add(H2, ct);
    cornersw *Q = &C->Q;
    candw *cd = C->c;
    wm *keep = C->keep;
    /* incident corners; inside when within the 4 side planes grown by ct */
    for (int q = 0; q < 4; q++) {
        wf s1 = wf_set1(corner_s1[q]), s2 = wf_set1(corner_s2[q]);
        wf z = wf_add(wf_add(F->f[0], wf_mul(s1, F->e1[0])), wf_mul(s2, F->e2[0]));
        Q->x1[q] = wf_add(wf_add(F->f[1], wf_mul(s1, F->e1[1])), wf_mul(s2, F->e2[1]));
        Q->x2[q] = wf_add(wf_add(F->f[2], wf_mul(s1, F->e1[2])), wf_mul(s2, F->e2[2]));
        Q->d[q] = wf_sub(F->hk, wf_mul(F->sr, z));
        Q->in[q] = wm_and(wm_le(wf_abs(Q->x1[q]), H1c), wm_le(wf_abs(Q->x2[q]), H2c));
    }
    /* incident edges: slab clipping; candidates e and 4 + e */
    wf gx[2] = {wf_mul(two, F->e1[1]), wf_mul(two, F->e2[1])}, gy[2] = {wf_mul(two, F->e1[2]), wf_mul(two, F->e2[2])};
    wf gd[2] = {wf_neg(wf_mul(F->sr, wf_mul(two, F->e1[0]))), wf_neg(wf_mul(F->sr, wf_mul(two, F->e2[0])))};
    wf sgx[2], sgy[2], ivx[2], ivy[2];
    for (int a = 0; a < 2; a++) {
        sgx[a] = wf_select(wm_lt(gx[a], zero), mone, one);
        sgy[a] = wf_select(wm_lt(gy[a], zero), mone, one);
        ivx[a] = wf_div(one, wf_abs(gx[a]));
        ivy[a] = wf_div(one, wf_abs(gy[a]));
    }
    wf nH1 = wf_neg(H1), nH2 = wf_neg(H2), deepest = wf_set1(-INFINITY);
    SBX_UNROLL
    for (int e = 0; e < 4; e++) {
        int q0 = e, q1 = (e + 1) & 3, a = e & 1;
        wf sx = e < 2 ? sgx[a] : wf_neg(sgx[a]), sy = e < 2 ? sgy[a] : wf_neg(sgy[a]);
        wf dx = e < 2 ? gx[a] : wf_neg(gx[a]), dy = e < 2 ? gy[a] : wf_neg(gy[a]);
        wf dd = e < 2 ? gd[a] : wf_neg(gd[a]);
        wf ax = wf_mul(sx, Q->x1[q0]), ay = wf_mul(sy, Q->x2[q0]);
        wf enx = wf_mul(wf_sub(nH1, ax), ivx[a]), exx = wf_mul(wf_sub(H1, ax), ivx[a]);
        wf eny = wf_mul(wf_sub(nH2, ay), ivy[a]), exy = wf_mul(wf_sub(H2, ay), ivy[a]);
        wf eny0 = maxf_w(eny, zero), exy1 = wf_min(exy, one);
        wf tin = maxf_w(enx, eny0), tout = wf_min(exx, exy1);
        wm seg = wm_le(tin, tout);
        wm sxp = wm_gt(sx, zero), syp = wm_gt(sy, zero);
        wf sxH = wf_mul(sx, H1), syH = wf_mul(sy, H2);
        /* entry: corner e if inside, else the entry crossing */
        wm px = wm_gt(enx, eny0);
        wf xi = wf_select(px, wf_neg(sxH), wf_add(Q->x1[q0], wf_mul(tin, dx)));
        wf yi = wf_select(px, wf_add(Q->x2[q0], wf_mul(tin, dy)), wf_neg(syH));
        wf di = wf_add(Q->d[q0], wf_mul(tin, dd));
        wf pi = wf_select(px, wf_select(sxp, one, zero), wf_select(syp, three, two));
        wm kc = wm_andnot(wm_and(seg, wm_ge(di, lo)), wm_or(Q->in[q0], near_end_w(Q, xi, yi, q1, ct)));
        cd[e].x = wf_select(Q->in[q0], Q->x1[q0], xi);
        cd[e].y = wf_select(Q->in[q0], Q->x2[q0], yi);
        cd[e].d = wf_select(Q->in[q0], Q->d[q0], di);
        cd[e].code = wf_select(Q->in[q0], wf_set1((float)q0), wf_add(wf_set1((float)(4 + 4 * e)), pi));
        keep[e] = wm_or(wm_and(Q->in[q0], wm_ge(Q->d[q0], lo)), kc);
        /* exit crossing, if corner e+1 is outside */
        wm qx = wm_lt(exx, exy1);
        wf xo = wf_select(qx, sxH, wf_add(Q->x1[q0], wf_mul(tout, dx)));
        wf yo = wf_select(qx, wf_add(Q->x2[q0], wf_mul(tout, dy)), syH);
        wf dout = wf_add(Q->d[q0], wf_mul(tout, dd));
        wf po = wf_select(qx, wf_select(sxp, zero, one), wf_select(syp, two, three));
        cd[4 + e] = (candw){xo, yo, dout, wf_add(wf_set1((float)(4 + 4 * e)), po)};
        keep[4 + e] = wm_andnot(wm_and(seg, wm_ge(dout, lo)), wm_or(Q->in[q1], near_end_w(Q, xo, yo, q0, ct)));
        deepest = wf_select(wm_and(keep[e], wm_gt(cd[e].d, deepest)), cd[e].d, deepest);
        deepest = wf_select(wm_and(keep[4 + e], wm_gt(dout, deepest)), dout, deepest);
    }
    /* reference corners; the ct-square (-1: none) of each inside incident corner */
    wf nearc_of[4];
    {
        wf H1m = wf_sub(H1, ct), H2m = wf_sub(H2, ct);
        for (int q = 0; q < 4; q++) {
            wm nq = wm_and(Q->in[q], wm_and(wm_ge(wf_abs(Q->x1[q]), H1m), wm_ge(wf_abs(Q->x2[q]), H2m)));
            wm xp = wm_gt(Q->x1[q], zero);
            wf c4 = wf_select(wm_gt(Q->x2[q], zero), wf_select(xp, two, three), wf_select(xp, one, zero));
            nearc_of[q] = wf_select(nq, c4, mone);
        }
    }
    wf idet = wf_div(one, wf_sub(wf_mul(gx[0], gy[1]), wf_mul(gy[0], gx[1])));
    for (int c = 0; c < 4; c++) {
        int id = 8 + c;
        wf X = wf_mul(wf_set1(corner_s1[c]), H1), Y = wf_mul(wf_set1(corner_s2[c]), H2);
        wf rx = wf_sub(X, Q->x1[0]), ry = wf_sub(Y, Q->x2[0]);
        wf al = wf_mul(wf_sub(wf_mul(rx, gy[1]), wf_mul(ry, gx[1])), idet);
        wf be = wf_mul(wf_sub(wf_mul(gx[0], ry), wf_mul(gy[0], rx)), idet);
        wf dd = wf_add(wf_add(Q->d[0], wf_mul(al, gd[0])), wf_mul(be, gd[1]));
        cd[id] = (candw){X, Y, dd, wf_set1((float)(20 + c))};
        wf cc = wf_set1((float)c);
        wm nearc = wm_or(wm_or(wm_eq(nearc_of[0], cc), wm_eq(nearc_of[1], cc)),
                         wm_or(wm_eq(nearc_of[2], cc), wm_eq(nearc_of[3], cc)));
        wm inside = wm_and(wm_and(wm_ge(al, zero), wm_le(al, one)), wm_and(wm_ge(be, zero), wm_le(be, one)));
        keep[id] = wm_andnot(wm_and(inside, wm_ge(dd, lo)), nearc);
        deepest = wf_select(wm_and(keep[id], wm_gt(dd, deepest)), dd, deepest);
    }
    C->deepest = deepest;
}

/* contacts_ref.c reduce_to_4(): passes over all candidates with masks pick the scalar's. */
SBX_INLINE void reduce_to_4_w(const face_framew *F, const clippedw *C, reducedw *R)
{
    wf zero = wf_zero(), one = wf_set1(1.0f), ct = F->ct;
    const candw *cd = C->c;
    const wm *keep = C->keep;
    /* p0: the first candidate within ct of the deepest */
    wf dmin = wf_sub(C->deepest, ct);
    candw p0 = {zero, zero, zero, zero};
    SBX_UNROLL
    for (int i = SBX_NCAND - 1; i >= 0; i--)
        take_cand(wm_and(keep[i], wm_ge(cd[i].d, dmin)), &cd[i], &p0);
    wm has0 = wm_gt(C->deepest, wf_set1(-INFINITY));
    candw p1 = p0, p2 = p0, p3 = p0;
    wf bf = zero, bp = zero, bn = zero;
    SBX_UNROLL
    for (int i = 0; i < SBX_NCAND; i++) {
        wf dx = wf_sub(cd[i].x, p0.x), dy = wf_sub(cd[i].y, p0.y);
        wf fd = wf_add(wf_mul(dx, dx), wf_mul(dy, dy));
        wm m = wm_and(keep[i], wm_gt(fd, bf));
        bf = wf_select(m, fd, bf);
        take_cand(m, &cd[i], &p1);
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
    for (int i = 0; i < SBX_NCAND; i++) {
        wf ar = wf_sub(wf_mul(ux, wf_sub(cd[i].y, p0.y)), wf_mul(uy, wf_sub(cd[i].x, p0.x)));
        wm mp = wm_and(keep[i], wm_gt(ar, bp)), mn = wm_and(keep[i], wm_lt(ar, bn));
        bp = wf_select(mp, ar, bp);
        bn = wf_select(mn, ar, bn);
        take_cand(mp, &cd[i], &p2);
        take_cand(mn, &cd[i], &p3);
    }
    wf amin = wf_mul(ct, lf);
    wm has2 = wm_gt(bp, amin), has3 = wm_lt(bn, wf_neg(amin));
    /* fallback (rule 6): the incident corner nearest the side slabs */
    const cornersw *Q = &C->Q;
    candw fb = {Q->x1[0], Q->x2[0], Q->d[0], wf_set1((float)SATBOX_FEATURE_FALLBACK)};
    wf bx = maxf_w(wf_sub(wf_abs(Q->x1[0]), F->H1), wf_sub(wf_abs(Q->x2[0]), F->H2));
    for (int q = 1; q < 4; q++) {
        wf ex = maxf_w(wf_sub(wf_abs(Q->x1[q]), F->H1), wf_sub(wf_abs(Q->x2[q]), F->H2));
        wm m = wm_lt(ex, bx);
        bx = wf_select(m, ex, bx);
        candw cq = {Q->x1[q], Q->x2[q], Q->d[q], wf_set1((float)(SATBOX_FEATURE_FALLBACK + q))};
        take_cand(m, &cq, &fb);
    }
    /* slots, around the contact polygon: p0 (or the fallback), p2, p1, p3, those missing left out
     * (has2 or has3 implies has1) */
    R->slot[0] = fb;
    take_cand(has0, &p0, &R->slot[0]);
    R->slot[1] = p1;
    take_cand(has2, &p2, &R->slot[1]);
    R->slot[2] = p3;
    take_cand(has2, &p1, &R->slot[2]);
    R->slot[3] = p3;
    wf cnt3 = wf_add(wf_add(wf_add(one, wf_keep(has1, one)), wf_keep(has2, one)), wf_keep(has3, one));
    R->count = wf_select(has0, cnt3, one);
}

/* contacts_ref.c to_world(): the slots in the world, with depth and feature id, into the
 * result rows (over the frame rows: every input is read before the first result is written). */
SBX_INLINE void to_world_w(queue_rows *q, size_t pos, const face_framew *F, const reducedw *R)
{
    wf point[4][3], u[3][3], cp[3];
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++)
            u[r][c] = wf_loadu(q->in.u[r][c] + pos);
        cp[c] = wf_loadu(q->in.cp[c] + pos);
    }
    wf faces = wf_loadu(q->in.faces + pos);
    for (int s = 0; s < 4; s++) {
        wf z = wf_mul(wf_sub(F->hk, R->slot[s].d), F->sr);
        for (int c = 0; c < 3; c++)
            point[s][c] = wf_add(wf_add(wf_add(cp[c], wf_mul(R->slot[s].x, u[1][c])), wf_mul(R->slot[s].y, u[2][c])),
                                 wf_mul(z, u[0][c]));
    }
    for (int s = 0; s < 4; s++) {
        wm act = wm_gt(R->count, wf_set1((float)s));
        for (int c = 0; c < 3; c++)
            wf_storeu(q->out.point[s][c] + pos, wf_keep(act, point[s][c]));
        wf_storeu(q->out.depth[s] + pos, wf_keep(act, R->slot[s].d));
        wf_storeu(q->out.feature[s] + pos, wf_select(act, feature_w(faces, R->slot[s].code), wf_set1(-1.0f)));
    }
    wf_storeu(q->out.count + pos, R->count);
}

/* The face axis' steps for the SBX_W queued lanes at column pos: clip, reduce, place in the
 * world. A function of its own, which reads its inputs where it uses them, and whose loops over
 * edges and candidates are unrolled: its frame is then the same whatever loop calls it (inlined,
 * GCC's spills vary with the caller's loop), and small (rolled, the loops spill far more). */
static SBX_NOINLINE void face_manifold_w(queue_rows *q, size_t pos)
{
    face_framew F;
    clippedw C;
    reducedw R;
    load_frame_w(&q->in, pos, &F);
    clip_incident_w(&F, &C);
    reduce_to_4_w(&F, &C, &R);
    to_world_w(q, pos, &F, &R);
}

typedef struct cqueue {
    queue_rows q;            /* the queued lanes' frames; face_manifold_w's results over them */
    uint32_t dst[SBX_QCAP];  /* per queued lane: its pair (SoA form) or its record (stream form) */
    size_t qn;               /* lanes queued */
} cqueue;

/* The stream form's records of one step's hit lanes (`hit`), in lane order, lane l being pair
 * pair[l]: the face lanes' records reserved (their pair, normal and axis written; the points come
 * from queue_drain, which the face lanes' destinations queued here at `qpos` tell where), the
 * other lanes' records whole (edge points). */
SBX_INLINE void put_records(const sbx_cjob *cj, const uint32_t *pair, unsigned hit, unsigned face, const coutw *o,
                            cqueue *cq, size_t qpos, size_t *nrec)
{
    struct {
        float normal[3][SBX_W], axis[SBX_W], count[SBX_W], point0[3][SBX_W], depth0[SBX_W], feature0[SBX_W];
    } row;
    for (int c = 0; c < 3; c++) {
        wf_storeu(row.normal[c], o->normal[c]);
        wf_storeu(row.point0[c], o->point0[c]);
    }
    wf_storeu(row.axis, o->axis);
    wf_storeu(row.count, o->count);
    wf_storeu(row.depth0, o->depth0);
    wf_storeu(row.feature0, o->feature0);
    while (hit) {
        int l = __builtin_ctz(hit);
        hit &= hit - 1u;
        satbox_manifold *r = &cj->stream[*nrec];
        float normal[3] = {row.normal[0][l], row.normal[1][l], row.normal[2][l]};
        if (face >> l & 1u) {
            sbx_put_manifold_head(r, pair[l], normal, (unsigned)row.axis[l], 0);
            cq->dst[qpos++] = (uint32_t)*nrec;
        } else {
            float point[4][3] = {{row.point0[0][l], row.point0[1][l], row.point0[2][l]}};
            float depth[4] = {row.depth0[l], 0.0f, 0.0f, 0.0f};
            uint32_t feature[4] = {(uint32_t)(int32_t)row.feature0[l], SATBOX_FEATURE_NONE, SATBOX_FEATURE_NONE,
                                   SATBOX_FEATURE_NONE};
            sbx_put_manifold(r, pair[l], normal, (unsigned)row.axis[l], (unsigned)row.count[l], point, depth,
                             feature);
        }
        (*nrec)++;
    }
}

/* The SoA form's manifold outputs of one step for the lanes not queued (edge points, zeros where
 * there is no manifold). Queues the destinations (pairs) of the step's face lanes, which the
 * caller appended to cq->q at `qpos`. */
SBX_INLINE void put_step(const sbx_cjob *cj, size_t i, int k, const coutw *o, cqueue *cq, size_t qpos)
{
    unsigned lanes = (1u << k) - 1u, face = o->face & lanes;
    for (unsigned f = face; f; f &= f - 1u)
        cq->dst[qpos++] = (uint32_t)(i + (size_t)__builtin_ctz(f));
    if (face == lanes) /* every lane's outputs come from the queue */
        return;
    wf zero = wf_zero(), mone = wf_set1(-1.0f);
    for (int s = 0; s < 4; s++) {
        for (int c = 0; c < 3; c++)
            if (cj->point[s][c])
                store_w(cj->point[s][c], i, s ? zero : o->point0[c], k);
        if (cj->depth[s])
            store_w(cj->depth[s], i, s ? zero : o->depth0, k);
        if (cj->feature[s])
            wf_store_i32(cj->feature[s] + i, s ? mone : o->feature0, k);
    }
    if (cj->count)
        wf_store_u8(cj->count + i, o->count, k);
}

/* Stage 1 from pair i (SoA form): SAT, axis, normal, edge points and the per-pair outputs, step
 * by step, while fewer than SBX_W lanes are queued; the face lanes queued. Adds the hits to
 * *count; returns the first pair not done. `pf`: prefetch the sources ahead (prefetch_wanted). */
SBX_INLINE size_t contacts_stage1(const sbx_cjob *cj, sbx_src src, int pf, size_t i, cqueue *cq, size_t *count_io)
{
    const sbx_job *job = &cj->pair;
    wf margin = wf_set1(job->margin);
    size_t count = *count_io, n = job->n;
    for (; i < n && cq->qn < SBX_W; i += SBX_W) {
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        oboxw a, b;
        coutw o;
        if (pf)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, NULL, &a, &b);
        unsigned live = (1u << k) - 1u;
        size_t qpos = cq->qn;
        cq->qn = pair_contacts_w(&a, &b, margin, live, &o, &cq->q.in, qpos);
        unsigned hit = o.hit & live;
        if (job->hit)
            wm_store_bits(job->hit + i, hit, k);
        if (job->bad)
            wm_store_bits(job->bad + i, o.bad, k);
        for (int c = 0; c < 3; c++)
            if (job->normal[c])
                store_w(job->normal[c], i, o.normal[c], k);
        if (job->axis)
            wf_store_u8(job->axis + i, o.axis, k);
        if (job->compact)
            count = push_compact(job->compact, count, i, hit);
        else
            count += (size_t)wm_count(hit);
        put_step(cj, i, k, &o, cq, qpos);
    }
    *count_io = count;
    return i;
}

/* The stream form's pairs that may touch (may_touch_w), in pair order, waiting for a full vector
 * of stage 1: each one's index and, for the sources with index pairs, its pair (the boxes are
 * loaded again from it: one pair's indices take less stack than its 30 floats). A step starts
 * with fewer than SBX_W queued and queues at most SBX_W. */
typedef struct pqueue {
    uint32_t pair[SBX_QCAP];
    satbox_pair ab[SBX_QCAP];
    size_t n;
} pqueue;

/* The first k queued pairs as lanes (the lanes past k repeat a queued pair: computed, never
 * used), by the source's kind (SBX_SOURCES): an SoA pool or records through their loaders over
 * the queued pairs, two batches gathered lane by lane at the queued indices. */
SBX_INLINE void load_queued_w(const sbx_job *job, sbx_src src, const pqueue *pq, int k, oboxw *a, oboxw *b)
{
    if (sbx_src_is_rec(src)) {
        if (sbx_src_is_quat(src))
            load_qrec_w(job->qrec, pq->ab, 0, k, a, b);
        else
            load_rec_w(job->rec, pq->ab, 0, k, a, b);
    } else if (sbx_src_is_pool(src)) { /* (a record source is a pool source too) */
        load_pool_w(job->pool, pq->ab, 0, k, a, b);
    } else {
        int32_t idx[SBX_W];
        for (int l = 0; l < SBX_W; l++)
            idx[l] = (int32_t)pq->pair[l < k ? l : 0];
        if (sbx_src_is_quat(src)) {
            load_qpool_box_w(job->qa, idx, a);
            load_qpool_box_w(job->qb, idx, b);
        } else {
            load_pool_box_w(job->ma, idx, a);
            load_pool_box_w(job->mb, idx, b);
        }
    }
}

/* Stage 1 of the stream form from pair i: each step of the source first asks may_touch_w (the
 * overlap test's work), writes its bad bytes and queues the pairs that may touch; a pair without
 * contact costs no more (it writes no record). Each full vector of queued pairs (and the last,
 * part full) then runs stage 1 proper, its records written in pair order, its face lanes
 * queued; while fewer than SBX_W face lanes are queued. Adds the records to *nrec; returns the
 * first pair not filtered. */
SBX_INLINE size_t stream_stage1(const sbx_cjob *cj, sbx_src src, int pf, size_t i, cqueue *cq, pqueue *pq,
                                size_t *nrec)
{
    const sbx_job *job = &cj->pair;
    wf margin = wf_set1(job->margin);
    size_t n = job->n;
    const int has_pairs = sbx_src_is_pool(src); /* index pairs: the pool and record sources */
    while (cq->qn < SBX_W) {
        if (pq->n >= (size_t)SBX_W || (i >= n && pq->n)) {
            int k = pq->n >= (size_t)SBX_W ? SBX_W : (int)pq->n;
            oboxw a, b;
            coutw o;
            load_queued_w(job, src, pq, k, &a, &b);
            unsigned live = (1u << k) - 1u;
            size_t qpos = cq->qn;
            cq->qn = pair_contacts_w(&a, &b, margin, live, &o, &cq->q.in, qpos);
            put_records(cj, pq->pair, o.hit & live, o.face & live, &o, cq, qpos, nrec);
            pq->n -= (size_t)k;
            for (size_t j = 0; j < pq->n; j++) {
                pq->pair[j] = pq->pair[(size_t)k + j];
                pq->ab[j] = pq->ab[(size_t)k + j];
            }
            continue;
        }
        if (i >= n)
            break;
        int k = n - i >= (size_t)SBX_W ? SBX_W : (int)(n - i);
        oboxw a, b;
        unsigned bad;
        if (pf)
            prefetch_job(job, src, i);
        load_job_w(job, src, i, k, NULL, &a, &b);
        unsigned touch = may_touch_w(&a, &b, margin, &bad) & ((1u << k) - 1u);
        if (job->bad)
            wm_store_bits(job->bad + i, bad, k);
        for (; touch; touch &= touch - 1u) {
            size_t p = i + (size_t)__builtin_ctz(touch);
            pq->pair[pq->n] = (uint32_t)p;
            if (has_pairs)
                pq->ab[pq->n] = job->pairs[p];
            pq->n++;
        }
        i += SBX_W;
    }
    return i;
}

/* Stage 1 with the source's loaders fixed, one function per source and form (one function
 * holding all the loops would need the sum of their frames): contacts_stage1_MAT,
 * stream_stage1_MAT, ... from SBX_SOURCES. */
#define SBX_STAGE1(name, label, kind, quat, contacts) SBX_WHEN_##contacts(SBX_STAGE1_FN(name))
#define SBX_STAGE1_FN(name)                                                                                \
    static SBX_NOINLINE size_t contacts_stage1_##name(const sbx_cjob *cj, int pf, size_t i, cqueue *cq,  \
                                                      size_t *count)                                       \
    {                                                                                                      \
        return contacts_stage1(cj, SBX_SRC_##name, pf, i, cq, count);                                      \
    }                                                                                                      \
    static SBX_NOINLINE size_t stream_stage1_##name(const sbx_cjob *cj, int pf, size_t i, cqueue *cq,    \
                                                    pqueue *pq, size_t *nrec)                              \
    {                                                                                                      \
        return stream_stage1(cj, SBX_SRC_##name, pf, i, cq, pq, nrec);                                     \
    }
SBX_SOURCES(SBX_STAGE1)
#undef SBX_STAGE1
#undef SBX_STAGE1_FN

/* Stage 2: the face manifolds of the first `take` queued lanes (SBX_W, or the last lanes of the
 * call), their results written to their pairs or records; the lanes queued after them move to
 * the front. The lanes from `take` to SBX_W are zeros then: computed, never read. */
static SBX_NOINLINE void queue_drain(const sbx_cjob *cj, cqueue *cq, size_t take)
{
    if (take < SBX_W) {
        SBX_UNROLL
        for (size_t v = 0; v < SBX_FRAME_ROWS; v++)
            wf_storeu(cq->q.row[v], wf_load_part(cq->q.row[v], (int)take));
    }
    face_manifold_w(&cq->q, 0);
    if (cj->stream) {
        for (size_t j = 0; j < take; j++) {
            satbox_manifold *r = &cj->stream[cq->dst[j]];
            float point[4][3], depth[4];
            uint32_t feature[4];
            for (int s = 0; s < 4; s++) {
                for (int c = 0; c < 3; c++)
                    point[s][c] = cq->q.out.point[s][c][j];
                depth[s] = cq->q.out.depth[s][j];
                feature[s] = (uint32_t)(int32_t)cq->q.out.feature[s][j]; /* exact integers; -1 is NONE */
            }
            sbx_put_manifold_points(r, (unsigned)cq->q.out.count[j], point, depth, feature);
        }
    } else if (cq->dst[take - 1] - cq->dst[0] == take - 1) {
        /* the lanes are consecutive pairs (all of a step's lanes had a face axis, as in resting
         * stacks): whole vectors go to their pairs instead of one lane at a time */
        size_t i = cq->dst[0];
        int k = (int)take;
        for (int s = 0; s < 4; s++) {
            for (int c = 0; c < 3; c++)
                if (cj->point[s][c])
                    store_w(cj->point[s][c], i, wf_loadu(cq->q.out.point[s][c]), k);
            if (cj->depth[s])
                store_w(cj->depth[s], i, wf_loadu(cq->q.out.depth[s]), k);
            if (cj->feature[s])
                wf_store_i32(cj->feature[s] + i, wf_loadu(cq->q.out.feature[s]), k);
        }
        if (cj->count)
            wf_store_u8(cj->count + i, wf_loadu(cq->q.out.count), k);
    } else {
        for (int s = 0; s < 4; s++) {
            for (int c = 0; c < 3; c++)
                if (cj->point[s][c])
                    for (size_t j = 0; j < take; j++)
                        cj->point[s][c][cq->dst[j]] = cq->q.out.point[s][c][j];
            if (cj->depth[s])
                for (size_t j = 0; j < take; j++)
                    cj->depth[s][cq->dst[j]] = cq->q.out.depth[s][j];
            if (cj->feature[s])
                for (size_t j = 0; j < take; j++)
                    cj->feature[s][cq->dst[j]] = (uint32_t)(int32_t)cq->q.out.feature[s][j];
        }
        if (cj->count)
            for (size_t j = 0; j < take; j++)
                cj->count[cq->dst[j]] = (uint8_t)cq->q.out.count[j];
    }
    cq->qn -= take;
    if (cq->qn) { /* take == SBX_W: the rest moves to the front */
        SBX_UNROLL
        for (size_t v = 0; v < SBX_FRAME_ROWS; v++)
            wf_storeu(cq->q.row[v], wf_loadu(cq->q.row[v] + SBX_W));
        for (size_t j = 0; j < cq->qn; j++)
            cq->dst[j] = cq->dst[SBX_W + j];
    }
}

static ptrdiff_t kernel_contacts(const sbx_cjob *cj)
{
    sbx_src src = cj->pair.src;
    cqueue cq;
    pqueue pq;
    cq.qn = 0;
    pq.n = 0;
    size_t count = 0, nrec = 0, n = cj->pair.n, i = 0;
    const int pf = prefetch_wanted(&cj->pair, src); /* as the pair kernels: large record pools, long batches */
    while (i < n || pq.n) {
        switch (src) {
#define SBX_RUN(name, label, kind, quat, contacts) SBX_WHEN_##contacts(SBX_RUN_CASE(name))
#define SBX_RUN_CASE(name)                                                                   \
    case SBX_SRC_##name:                                                                     \
        i = cj->stream ? stream_stage1_##name(cj, pf, i, &cq, &pq, &nrec)                   \
                       : contacts_stage1_##name(cj, pf, i, &cq, &count);                    \
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
    return (ptrdiff_t)(cj->stream ? nrec : count);
}

#endif

/* chain_ref.c - the lane FK's reference (one configuration at a time), its sine and cosine, and the chain's library form and error bounds (derived in double). */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "planner/planner.h"

/* Compiled like the other _ref files (no SIMD flags, -ffp-contract=off): every expression in the
 * order chain_tpl.h evaluates it, so that both give the same bits. */

/* ---- sine and cosine of |x| <= SATBOX_CHAIN_MAX_ANGLE ----
 * k = x (2/pi) rounded to the nearest integer (|k| <= 5: the add-and-subtract of 1.5 2^23 rounds
 * in round-to-nearest); r = x - k pi/2 in three parts (Cody and Waite): P1 and P2 have 21
 * significant bits, so k P1 and k P2 are exact and x - k P1 is exact (Sterbenz); |r| <= pi/4 + a
 * few ulps. Taylor polynomials to r^9 and r^10 (truncation below 2^-28 on |r| <= 0.8); the
 * quadrant k mod 4 as k4 = k - 4 round(k / 4) in {-2, ..., 2}. The tests measure the error
 * against double sin and cos (below 2^-22, the value the bound of sbx_chain_build() takes).
 * The constants: planner.h. */

void sbx_sincos_ref(float x, float *s, float *c)
{
    float k = (x * SBX_2_PI + SBX_ROUND_MAGIC) - SBX_ROUND_MAGIC;
    float r = ((x - k * SBX_PIO2_1) - k * SBX_PIO2_2) - k * SBX_PIO2_3;
    float r2 = r * r;
    float ps = ((0x1.71de3ap-19f * r2 - 0x1.a01a02p-13f) * r2 + 0x1.111112p-7f) * r2 - 0x1.555556p-3f;
    float pc = (((-0x1.27e4fcp-22f * r2 + 0x1.a01a02p-16f) * r2 - 0x1.6c16c2p-10f) * r2 + 0x1.555556p-5f) * r2 -
               0x1p-1f;
    float sn = r + (r * r2) * ps;
    float cs = 1.0f + r2 * pc;
    float k4 = k - 4.0f * ((k * 0.25f + SBX_ROUND_MAGIC) - SBX_ROUND_MAGIC);
    float a4 = fabsf(k4);
    int swap = a4 == 1.0f, neg_s = k4 == -1.0f || a4 == 2.0f, neg_c = k4 == 1.0f || a4 == 2.0f;
    float so = swap ? cs : sn, co = swap ? sn : cs;
    *s = neg_s ? -so : so;
    *c = neg_c ? -co : co;
}

/* ---- the lane FK, one configuration ----
 * R (R[k][c]: component c of column k) and p: the turned frame of the joint, in the base frame.
 * Joint 0: M = F, p = t; joint j > 0: p += R t, M = R F; then R = M Rz, Rz the turn by q about z: column 0 c M0 + s M1,
 * column 1 c M1 - s M0. A link box of the joint: center p + R c_l, axis k R u_k; of the base: as
 * stored. */
static void put_box(const sbx_fkjob *job, const float *row, size_t i, const float c[3], float u[3][3])
{
    const satbox_boxes_out *o = &job->out[(size_t)row[SBX_CL_INDEX]];
    for (int a = 0; a < 3; a++) {
        o->center[a][i] = c[a];
        o->half[a][i] = row[SBX_CL_H + a];
        for (int k = 0; k < 3; k++)
            o->axis[k][a][i] = u[k][a];
    }
}

static void link_box(const sbx_fkjob *job, const float *row, size_t i, float R[3][3], float p[3],
                     int valid)
{
    float c[3], u[3][3];
    for (int a = 0; a < 3; a++) {
        if (row[SBX_CL_JOINT] < 0.0f) {
            c[a] = row[SBX_CL_C + a];
            for (int k = 0; k < 3; k++)
                u[k][a] = row[SBX_CL_U + 3 * k + a];
        } else {
            c[a] = p[a] + ((R[0][a] * row[SBX_CL_C] + R[1][a] * row[SBX_CL_C + 1]) + R[2][a] * row[SBX_CL_C + 2]);
            for (int k = 0; k < 3; k++)
                u[k][a] = (R[0][a] * row[SBX_CL_U + 3 * k] + R[1][a] * row[SBX_CL_U + 3 * k + 1]) +
                          R[2][a] * row[SBX_CL_U + 3 * k + 2];
        }
    }
    if (!valid) {
        for (int a = 0; a < 3; a++) {
            c[a] = NAN;
            for (int k = 0; k < 3; k++)
                u[k][a] = NAN;
        }
    }
    put_box(job, row, i, c, u);
}

void sbx_scalar_chain_fk(const sbx_fkjob *job)
{
    const satbox_chain *ch = job->chain;
    const float *J = ch->data, *L = ch->data + ch->njoints * SBX_CJ_ROWS;
    for (size_t i = 0; i < job->n; i++) {
        int valid = 1;
        for (size_t j = 0; j < ch->njoints; j++)
            valid &= fabsf(job->q[j * job->ld + i]) <= SATBOX_CHAIN_MAX_ANGLE;
        float R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, p[3] = {0, 0, 0};
        size_t l = 0;
        for (; l < ch->nlinks && L[l * SBX_CL_ROWS + SBX_CL_JOINT] < 0.0f; l++)
            link_box(job, L + l * SBX_CL_ROWS, job->at + i, R, p, valid);
        for (size_t j = 0; j < ch->njoints; j++) {
            const float *F = J + j * SBX_CJ_ROWS, *t = F + SBX_CJ_T;
            float M[3][3], s, c;
            for (int a = 0; a < 3; a++) {
                if (j == 0) {
                    p[a] = t[a];
                    for (int b = 0; b < 3; b++)
                        M[b][a] = F[3 * a + b];
                } else {
                    p[a] = p[a] + ((R[0][a] * t[0] + R[1][a] * t[1]) + R[2][a] * t[2]);
                    for (int b = 0; b < 3; b++)
                        M[b][a] = (R[0][a] * F[b] + R[1][a] * F[3 + b]) + R[2][a] * F[6 + b];
                }
            }
            sbx_sincos_ref(job->q[j * job->ld + i], &s, &c);
            for (int a = 0; a < 3; a++) {
                R[0][a] = c * M[0][a] + s * M[1][a];
                R[1][a] = c * M[1][a] - s * M[0][a];
                R[2][a] = M[2][a];
            }
            for (; l < ch->nlinks && L[l * SBX_CL_ROWS + SBX_CL_JOINT] == (float)j; l++)
                link_box(job, L + l * SBX_CL_ROWS, job->at + i, R, p, valid);
        }
    }
}

/* ---- the chain's library form and its error bounds (double) ---- */

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

/* 1 when the three rows (or columns) m[0..2] are orthonormal within 1e-9 and finite. */
static int orthonormal(const double m[3][3])
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double d = dot3(m[a], m[b]) - (a == b);
            if (!(fabs(d) <= 1e-9))
                return 0;
        }
    return 1;
}

static int finite_within(const double *v, int n, double lim)
{
    for (int i = 0; i < n; i++)
        if (!(fabs(v[i]) <= lim))
            return 0;
    return 1;
}

/* A (columns x, y, axis): a right-handed frame whose z is the unit `axis`. */
static void axis_frame(const double axis[3], double A[3][3])
{
    int m = 0;
    for (int c = 1; c < 3; c++)
        if (fabs(axis[c]) < fabs(axis[m]))
            m = c;
    double e[3] = {0, 0, 0}, x[3], y[3];
    e[m] = 1.0;
    double d = dot3(e, axis);
    for (int c = 0; c < 3; c++)
        x[c] = e[c] - d * axis[c];
    double n = norm3(x);
    for (int c = 0; c < 3; c++)
        x[c] /= n;
    y[0] = axis[1] * x[2] - axis[2] * x[1];
    y[1] = axis[2] * x[0] - axis[0] * x[2];
    y[2] = axis[0] * x[1] - axis[1] * x[0];
    for (int r = 0; r < 3; r++) {
        A[r][0] = x[r];
        A[r][1] = y[r];
        A[r][2] = axis[r];
    }
}

/* out = A^T v */
static void mul_t(double A[3][3], const double v[3], double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = A[0][c] * v[0] + A[1][c] * v[1] + A[2][c] * v[2];
}

/* The smallest float >= v (v >= 0, finite). */
static float up(double v)
{
    float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

/* The error bounds. u = 2^-24 (float rounding), sigma = 2^-21 bounds |s^ - sin q| and |c^ - cos q|:
 * the polynomial's error (below 2^-22, measured by the tests) plus the rounding of a double joint
 * value of |q| <= 8 to float (2^-22). Spectral norms; R the exact turned frame, R^ the computed;
 * f_j = sqrt(|F|_1 |F|_inf) of |F| (entry by entry), a bound on the spectral norm of |F|: 1 for
 * the signed permutations of DH joints, sqrt(3) at most.
 *  - eps_j >= |R^_j - R_j|: the fixed rotation rounded to float (|Phi| <= u f_j), the product
 *    R^ F^ (each entry three products and two sums: 3 u |R^||F^|, and | |R^||F^| | <= sqrt(3) f_j),
 *    the turn about z's error (sqrt(2) sigma) and the product M Rz (2 u | |M||Rz| | <= 2 sqrt(3)
 *    f_j sqrt(2) u): eps_j <= eps_{j-1} (1 + 8 u) + 11.2 f_j u + 1.42 sigma.
 *  - dp_j >= |p^_j - p_j|: R^ t^ carries eps_{j-1} |t| + u |t| (t rounded) + 3 sqrt(3) u |t|, the
 *    sum sqrt(3) u |p_j|, |p_j| <= reach (the sum of |t| so far): dp_j <= dp_{j-1} + |t| (eps_{j-1}
 *    + 7 u) + 2 u (reach + |t|).
 *  - a link box on joint j: center dp_j + |c| (eps_j + 7 u) + 2 u (reach + |c|); each axis
 *    component eps_j + sqrt(3) u (the axis rounded) + 3 sqrt(3) u <= eps_j + 8 u. On the base:
 *    only the rounding, u |c| and u.
 * Every bound grows by 2^-20 of itself for the roundings of this derivation.
 * The pair tolerance (satbox_planner.h): moving A's center by dc and each component of its axes by
 * du changes t_i = d . u_i by dc + |d|_1 du and R_ij = u_i . v_j by 3 du; an edge gap
 * |t_i2 R_i1j - t_i1 R_i2j| - r_A - r_B by at most 2 (dc + |d|_1 du)(1 + 3 du) + 6 |d|_1 du +
 * 3 du (sum h), below 2.05 dc + 8.2 du S'; a face gap by less. Both boxes of a self pair move:
 * tol_abs = 4.1 max dc, tol_rel = SATBOX_PLAN_REL + 16.5 max du (obstacle pairs take the same). */
int sbx_chain_build(satbox_chain *chain, float *data, const satbox_joint *joints, size_t nj, const satbox_link *links,
                    size_t nl)
{
    const double u = 0x1p-24, sigma = 0x1p-21, lim = 1e6;
    for (size_t j = 0; j < nj; j++) {
        const satbox_joint *J = &joints[j];
        double cols[3][3];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                cols[a][b] = J->rot[b][a];
        if (!finite_within(J->origin, 3, lim) || !finite_within(&J->rot[0][0], 9, 2.0) || !orthonormal(J->rot) ||
            !orthonormal((const double(*)[3])cols) || !(fabs(dot3(J->axis, J->axis) - 1.0) <= 1e-9))
            return SATBOX_ERR_ARG;
    }
    for (size_t l = 0; l < nl; l++) {
        const satbox_link *K = &links[l];
        if (K->joint < -1 || K->joint >= (int64_t)nj)
            return SATBOX_ERR_INDEX;
        if (!finite_within(K->center, 3, lim) || !finite_within(K->half, 3, lim) || !finite_within(&K->axis[0][0], 9, 2.0) ||
            !orthonormal(K->axis) || !(K->half[0] >= 0 && K->half[1] >= 0 && K->half[2] >= 0))
            return SATBOX_ERR_ARG;
    }
    double prev[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double eps = 0.0, dp = 0.0, reach = 0.0, ec = 0.0, eu = u;
    double eps_at[SATBOX_CHAIN_MAX_JOINTS], dp_at[SATBOX_CHAIN_MAX_JOINTS], reach_at[SATBOX_CHAIN_MAX_JOINTS];
    for (size_t j = 0; j < nj; j++) {
        const satbox_joint *J = &joints[j];
        double A[3][3];
        axis_frame(J->axis, A);
        double t[3], RA[3][3], F[3][3];
        mul_t(prev, J->origin, t);
        for (int r = 0; r < 3; r++) /* rot A_j */
            for (int c = 0; c < 3; c++)
                RA[r][c] = J->rot[r][0] * A[0][c] + J->rot[r][1] * A[1][c] + J->rot[r][2] * A[2][c];
        for (int r = 0; r < 3; r++) /* A_{j-1}^T rot A_j */
            for (int c = 0; c < 3; c++)
                F[r][c] = prev[0][r] * RA[0][c] + prev[1][r] * RA[1][c] + prev[2][r] * RA[2][c];
        float *row = data + j * SBX_CJ_ROWS;
        for (int r = 0; r < 3; r++) {
            row[SBX_CJ_T + r] = (float)t[r];
            for (int c = 0; c < 3; c++)
                row[SBX_CJ_F + 3 * r + c] = (float)F[r][c];
        }
        double tn = norm3(t);
        dp = dp + tn * (eps + 7 * u) + 2 * u * (reach + tn);
        reach += tn;
        double col = 0.0, rowmax = 0.0;
        for (int a = 0; a < 3; a++) {
            double cs = fabs(F[0][a]) + fabs(F[1][a]) + fabs(F[2][a]), rs = fabs(F[a][0]) + fabs(F[a][1]) + fabs(F[a][2]);
            col = fmax(col, cs);
            rowmax = fmax(rowmax, rs);
        }
        double f = sqrt(col * rowmax) * (1 + 4 * u);
        eps = eps * (1 + 8 * u) + 11.2 * f * u + 1.42 * sigma;
        eps_at[j] = eps;
        dp_at[j] = dp;
        reach_at[j] = reach;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                prev[r][c] = A[r][c];
    }
    /* the links, sorted by joint (stable) */
    float *rows = data + nj * SBX_CJ_ROWS;
    size_t at = 0;
    for (int64_t j = -1; j < (int64_t)nj; j++)
        for (size_t l = 0; l < nl; l++) {
            const satbox_link *K = &links[l];
            if (K->joint != j)
                continue;
            double c[3], U[3][3], cn;
            if (j < 0) {
                for (int a = 0; a < 3; a++) {
                    c[a] = K->center[a];
                    for (int k = 0; k < 3; k++)
                        U[k][a] = K->axis[k][a];
                }
                cn = norm3(c);
                ec = fmax(ec, u * cn);
            } else {
                double A[3][3];
                axis_frame(joints[j].axis, A);
                mul_t(A, K->center, c);
                for (int k = 0; k < 3; k++)
                    mul_t(A, K->axis[k], U[k]);
                cn = norm3(c);
                ec = fmax(ec, dp_at[j] + cn * (eps_at[j] + 7 * u) + 2 * u * (reach_at[j] + cn));
                eu = fmax(eu, eps_at[j] + 8 * u);
            }
            float *row = rows + at++ * SBX_CL_ROWS;
            for (int a = 0; a < 3; a++) {
                row[SBX_CL_C + a] = (float)c[a];
                row[SBX_CL_H + a] = (float)K->half[a];
                for (int k = 0; k < 3; k++)
                    row[SBX_CL_U + 3 * k + a] = (float)U[k][a];
            }
            row[SBX_CL_JOINT] = (float)j;
            row[SBX_CL_INDEX] = (float)l;
        }
    ec *= 1 + 0x1p-20;
    eu *= 1 + 0x1p-20;
    *chain = (satbox_chain){.njoints = nj,
                            .nlinks = nl,
                            .data = data,
                            .err_center = ec,
                            .err_axis = eu,
                            .tol_rel = up((double)SATBOX_PLAN_REL + 16.5 * eu),
                            .tol_abs = up(4.1 * ec)};
    return SATBOX_OK;
}

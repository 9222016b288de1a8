/* test_chain.c - the lane forward kinematics (satbox_chain): its sine and cosine, the link poses against a long-double FK within the chain's bounds, every path bit for bit, the chain queries against the long-double oracle and satbox_configs(), motions, bad data and arguments. */
/* SPDX-License-Identifier: MIT */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox_planner.h"
#include "planner/planner.h"
#include "oracle.h"
#include "paths.h"
#include "robot.h"
#include "scale.h"
#include "support.h"

/* What is checked, on every path (the scalar reference, the native paths of this CPU and the
 * portable twins of paths.h):
 *  1. sbx_sincos_ref() against double sin and cos on a dense sweep of [-8, 8] plus its edges:
 *     below 2^-22, the error sbx_chain_build() assumes; each path's chain_fk through a one-joint
 *     chain gives the same values.
 *  2. the lane poses against fk_ld() below, our long-double FK written from satbox_planner.h's
 *     definition of a chain (Rodrigues' turn about each axis), on the Panda-like arm of robot.h
 *     (checked against rb_fk() first) and on chains with general axes, turned and reflected fixed
 *     frames, links on the base and out of joint order, 64 joints, joints 50 to 200 m apart: every
 *     center within err_center, every axis component within err_axis.
 *  3. every path's chain_fk bit for bit equal to the scalar reference, at every tail size and with
 *     bad joint values, writing nothing outside its boxes; satbox_chain_poses() likewise.
 *  4. the conservative chain query never calls free a configuration whose exact link boxes (fk_ld()
 *     of the float joint values, the chain as given in double) touch or overlap an obstacle (the
 *     scene as the planner holds it in double, less RB_BASE) or each other: orc_sat_l(), the
 *     long-double oracle, separation <= 0. The configurations: random ones and ones placed within
 *     a hair of contact by bisection in joint space; the false alarms are counted.
 *  5. the default chain query gives satbox_configs()'s verdicts on satbox_chain_poses()' boxes.
 *  6. satbox_chain_motion() is the first state not free of satbox_chain_configs() over the states
 *     computed here from the documented formula (and the SATBOX_PLAN_ANY answer), on the native
 *     paths (the public functions; the twins run the same kernels in 3 to 5).
 *  7. bad joint values (their configuration SATBOX_CONFIG_BAD, the rest unchanged) and every
 *     argument error of the chain entry points, which write nothing. */

typedef long double ld;

static int failures;
#define FAIL(...) (failures++, fprintf(stderr, "FAIL: " __VA_ARGS__), fputc('\n', stderr))

/* ---- the paths: the scalar reference first, then paths_list()'s; isa >= 0 for those the public
 * functions run on (satbox_isa_force()) ---- */

typedef struct tpath {
    const char *name;
    const sbx_path *path;
    int isa;
} tpath;
static tpath P[17];
static int NP;

static void paths_init(void)
{
    test_path t[16];
    int n = paths_list(t);
    P[0] = (tpath){"scalar", &sbx_path_scalar, SATBOX_ISA_SCALAR};
    for (int i = 0; i < n; i++)
        P[1 + i] = (tpath){t[i].name, t[i].path, satbox_isa_from_name(t[i].name)};
    NP = n + 1;
}

static void force(const tpath *p)
{
    if (satbox_isa_force((satbox_isa)p->isa) != SATBOX_OK) {
        fprintf(stderr, "cannot switch to %s\n", p->name);
        exit(2);
    }
}

/* ---- chains ---- */

#define MAXJ SATBOX_CHAIN_MAX_JOINTS
#define MAXL 16

typedef struct tchain {
    const char *name;
    satbox_joint J[MAXJ];
    satbox_link L[MAXL];
    size_t nj, nl;
    satbox_chain ch;
    void *mem;
} tchain;

static void chain_build(tchain *c)
{
    size_t bytes = satbox_chain_bytes(c->nj, c->nl);
    c->mem = tb_xmalloc(bytes);
    ptrdiff_t rc = satbox_chain_init(&c->ch, c->mem, bytes, c->J, c->nj, c->L, c->nl);
    if (rc != (ptrdiff_t)c->nl) {
        fprintf(stderr, "chain %s: satbox_chain_init returned %td\n", c->name, rc);
        exit(2);
    }
}

/* Row-major rotation of the unit quaternion (x, y, z, w). */
static void rot_of_quat(const double q[4], double m[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memcpy(m, r, sizeof r);
}

static void random_rot(tb_rng *r, double m[3][3])
{
    double q[4];
    tb_random_quat(r, q);
    rot_of_quat(q, m);
}

static void unit(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int c = 0; c < 3; c++)
        v[c] /= n;
}

static void random_link(tb_rng *r, satbox_link *l, int joint, double reach, double hmax)
{
    l->joint = joint;
    for (int c = 0; c < 3; c++) {
        l->center[c] = tb_range(r, -reach, reach);
        l->half[c] = tb_range(r, 0.01, hmax);
    }
    random_rot(r, l->axis);
}

/* The arm of robot.h. */
static void chain_rb(tchain *c)
{
    c->name = "panda";
    c->nj = RB_DOF;
    c->nl = RB_LINKS;
    rb_chain(c->J, c->L);
    chain_build(c);
}

/* General axes (x, -y, -z, near y, random), turned fixed frames (one a reflection, which is
 * orthonormal too), links on the base, several on one joint, out of joint order, a flat one. */
static void chain_general(tchain *c, tb_rng *r)
{
    static const int link_joint[] = {3, -1, 0, 3, 8, 1, 5, 2, 3, -1, 7, 6, 4, 8};
    c->name = "general";
    c->nj = 9;
    c->nl = sizeof link_joint / sizeof link_joint[0];
    for (size_t j = 0; j < c->nj; j++) {
        satbox_joint *J = &c->J[j];
        for (int a = 0; a < 3; a++)
            J->origin[a] = tb_range(r, -0.3, 0.3);
        random_rot(r, J->rot);
        double ax[9][3] = {{0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {0}, {1e-3, 1, 0}, {0}, {0, 0, -1}, {0}, {0.6, 0, 0.8}};
        if (ax[j][0] == 0 && ax[j][1] == 0 && ax[j][2] == 0)
            for (int a = 0; a < 3; a++)
                ax[j][a] = tb_normal(r);
        unit(ax[j]);
        memcpy(J->axis, ax[j], sizeof J->axis);
    }
    for (int a = 0; a < 3; a++) /* joint 4: a reflection */
        c->J[4].rot[a][1] = -c->J[4].rot[a][1];
    memset(c->J[2].rot, 0, sizeof c->J[2].rot); /* joint 2: unturned */
    for (int a = 0; a < 3; a++)
        c->J[2].rot[a][a] = 1;
    for (size_t l = 0; l < c->nl; l++)
        random_link(r, &c->L[l], link_joint[l], 0.25, 0.2);
    c->L[5].half[2] = 0; /* a flat box */
    chain_build(c);
}

/* c->nj joints at random directions and distances in [lo, hi], random axes and frames. */
static void random_joints(tchain *c, tb_rng *r, double lo, double hi)
{
    for (size_t j = 0; j < c->nj; j++) {
        satbox_joint *J = &c->J[j];
        double d[3] = {tb_normal(r), tb_normal(r), tb_normal(r)}, len = tb_range(r, lo, hi);
        unit(d);
        for (int a = 0; a < 3; a++) {
            J->origin[a] = len * d[a];
            J->axis[a] = tb_normal(r);
        }
        unit(J->axis);
        random_rot(r, J->rot);
    }
}

/* 64 joints of 3 to 6 cm; links on the base, every 8th joint and the last. */
static void chain_long(tchain *c, tb_rng *r)
{
    c->name = "long64";
    c->nj = MAXJ;
    c->nl = 0;
    random_joints(c, r, 0.03, 0.06);
    random_link(r, &c->L[c->nl++], -1, 0.1, 0.1);
    for (int j = 0; j < (int)MAXJ; j += 8)
        random_link(r, &c->L[c->nl++], j, 0.05, 0.05);
    random_link(r, &c->L[c->nl++], (int)MAXJ - 1, 0.05, 0.05);
    chain_build(c);
}

/* A crane: 6 joints 50 to 200 m apart, links 10 m off their joints. */
static void chain_big(tchain *c, tb_rng *r)
{
    c->name = "big";
    c->nj = 6;
    c->nl = 7;
    random_joints(c, r, 50, 200);
    for (size_t l = 0; l < c->nl; l++)
        random_link(r, &c->L[l], (int)l - 1, 10, 5);
    chain_build(c);
}

/* ---- the long-double forward kinematics ----
 * Written from satbox_planner.h's definition of the chain, not from chain_ref.c: joint j's frame is
 * the previous joint's moved frame (the base for j = 0) times (rot_j, origin_j), then turned by q_j
 * about its axis (Rodrigues: cos q I + sin q [a]x + (1 - cos q) a a^T); a link box on joint j is
 * that frame times its center and axes, one on the base (joint -1) is as given. */
static void fk_ld(const tchain *c, const ld *q, orc_lbox *out)
{
    static ld FR[MAXJ][3][3], Fp[MAXJ][3];
    ld R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, p[3] = {0, 0, 0};
    for (size_t j = 0; j < c->nj; j++) {
        const satbox_joint *J = &c->J[j];
        ld M[3][3], T[3][3], a[3] = {J->axis[0], J->axis[1], J->axis[2]};
        for (int r = 0; r < 3; r++) {
            p[r] += (R[r][0] * J->origin[0] + R[r][1] * J->origin[1]) + R[r][2] * J->origin[2];
            for (int k = 0; k < 3; k++)
                M[r][k] = (R[r][0] * J->rot[0][k] + R[r][1] * J->rot[1][k]) + R[r][2] * J->rot[2][k];
        }
        ld s = sinl(q[j]), co = cosl(q[j]), v = 1.0L - co;
        ld K[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                T[r][k] = (r == k ? co : 0.0L) + v * a[r] * a[k] + s * K[r][k];
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                R[r][k] = (M[r][0] * T[0][k] + M[r][1] * T[1][k]) + M[r][2] * T[2][k];
        memcpy(FR[j], R, sizeof R);
        memcpy(Fp[j], p, sizeof p);
    }
    for (size_t l = 0; l < c->nl; l++) {
        const satbox_link *K = &c->L[l];
        orc_lbox *o = &out[l];
        for (int r = 0; r < 3; r++) {
            o->h[r] = K->half[r];
            if (K->joint < 0) {
                o->c[r] = K->center[r];
                for (int k = 0; k < 3; k++)
                    o->u[k][r] = K->axis[k][r];
                continue;
            }
            ld(*Rj)[3] = FR[K->joint];
            o->c[r] = Fp[K->joint][r] + ((Rj[r][0] * K->center[0] + Rj[r][1] * K->center[1]) + Rj[r][2] * K->center[2]);
            for (int k = 0; k < 3; k++)
                o->u[k][r] = (Rj[r][0] * K->axis[k][0] + Rj[r][1] * K->axis[k][1]) + Rj[r][2] * K->axis[k][2];
        }
    }
}

static void fk_ld_f(const tchain *c, const float *q, orc_lbox *out)
{
    ld qq[MAXJ];
    for (size_t j = 0; j < c->nj; j++)
        qq[j] = q[j];
    fk_ld(c, qq, out);
}

/* ---- link poses: nl descriptors over blocks of `cap` boxes ---- */

typedef struct poses {
    size_t nl, cap;
    float *f;
    satbox_boxes_out out[MAXL];
    satbox_boxes in[MAXL];
} poses;

static void poses_alloc(poses *p, size_t nl, size_t cap)
{
    p->nl = nl;
    p->cap = cap;
    p->f = tb_xmalloc(nl * 15 * cap * sizeof(float));
    for (size_t l = 0; l < nl; l++) {
        float *f = p->f + l * 15 * cap;
        for (int c = 0; c < 3; c++) {
            p->out[l].center[c] = f + (size_t)c * cap;
            p->out[l].half[c] = f + (size_t)(3 + c) * cap;
            for (int k = 0; k < 3; k++)
                p->out[l].axis[k][c] = f + (size_t)(6 + 3 * k + c) * cap;
        }
        p->in[l] = satbox_boxes_view(&p->out[l]);
    }
}

/* 1 when the first n boxes of every array are the same bits. */
static int poses_same(const poses *a, const poses *b, size_t n)
{
    for (size_t f = 0; f < a->nl * 15; f++)
        if (memcmp(a->f + f * a->cap, b->f + f * b->cap, n * sizeof(float)))
            return 0;
    return 1;
}

/* Joint-major copy (qt[j * n + i]) of n row-major configurations of stride qs. */
static void transpose(const float *q, size_t qs, size_t nj, size_t n, float *qt)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < nj; j++)
            qt[j * n + i] = q[i * qs + j];
}

static void run_fk(const sbx_path *path, const tchain *c, const float *qt, size_t n, const poses *out)
{
    sbx_fkjob job = {&c->ch, qt, n, n, 0, out->out, 0};
    path->chain_fk(&job);
}

/* ---- 1. sine and cosine ---- */

static void check_sincos(size_t n)
{
    /* the values: n evenly over [-8, 8], then the edges */
    size_t cap = n + 2000, m = 0;
    float *x = tb_xmalloc(cap * sizeof(float));
    for (size_t i = 0; i < n; i++)
        x[m++] = (float)(-8.0 + 16.0 * (double)i / (double)(n - 1));
    const float special[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, FLT_TRUE_MIN, -FLT_TRUE_MIN, 1e-30f, -1e-30f, 1e-20f,
                             -1e-20f, 1e-10f, -1e-10f, 1e-5f, -1e-5f, 8.0f, -8.0f};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        x[m++] = special[i];
    for (int u = 1; u <= 64; u++) {
        float v = nextafterf(8.0f, 0.0f) - (float)(u - 1) * 0x1p-21f;
        x[m++] = v;
        x[m++] = -v;
    }
    /* multiples of pi/4 (where the quadrant and the sign change) and 24 floats either side */
    for (int k = -10; k <= 10; k++) {
        float c = (float)(k * 0.78539816339744830962);
        for (int u = -24; u <= 24; u++) {
            float v = c;
            for (int s = 0; s < (u < 0 ? -u : u); s++)
                v = nextafterf(v, u < 0 ? -INFINITY : INFINITY);
            if (fabsf(v) <= 8.0f)
                x[m++] = v;
        }
    }
    double worst = 0;
    float worst_x = 0;
    for (size_t i = 0; i < m; i++) {
        float s, c;
        sbx_sincos_ref(x[i], &s, &c);
        double e = fmax(fabs((double)s - sin((double)x[i])), fabs((double)c - cos((double)x[i])));
        if (!(e <= worst))
            worst = e, worst_x = x[i];
    }
    printf("1. sincos: %zu values in [-8, 8]: max |error| %.3g = 2^%.2f at q = %.9g (bound assumed 2^-22 = %.3g)\n", m,
           worst, log2(worst), (double)worst_x, 0x1p-22);
    if (!(worst < 0x1p-22))
        FAIL("sbx_sincos_ref: error %.3g at q = %.9g exceeds 2^-22", worst, (double)worst_x);

    /* every path's chain_fk through one joint about z at the origin: link axis 0 = (cos q, sin q, 0) */
    tchain c = {.name = "one joint", .nj = 1, .nl = 1};
    c.J[0] = (satbox_joint){.origin = {0, 0, 0}, .rot = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, .axis = {0, 0, 1}};
    c.L[0] = (satbox_link){.joint = 0, .center = {0, 0, 0}, .axis = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, .half = {1, 1, 1}};
    chain_build(&c);
    const size_t B = 65536;
    poses ref, got;
    poses_alloc(&ref, 1, B);
    poses_alloc(&got, 1, B);
    size_t bad[17] = {0};
    for (size_t i0 = 0; i0 < m; i0 += B) {
        size_t k = m - i0 < B ? m - i0 : B;
        run_fk(&sbx_path_scalar, &c, x + i0, k, &ref);
        for (size_t i = 0; i < k; i++) {
            float s, co;
            sbx_sincos_ref(x[i0 + i], &s, &co);
            if (!(ref.out[0].axis[0][0][i] == co && ref.out[0].axis[0][1][i] == s && ref.out[0].axis[0][2][i] == 0))
                bad[0]++;
        }
        for (int p = 1; p < NP; p++) {
            memset(got.f, 0x5A, 15 * B * sizeof(float));
            run_fk(P[p].path, &c, x + i0, k, &got);
            bad[p] += !poses_same(&ref, &got, k);
        }
    }
    for (int p = 0; p < NP; p++)
        if (bad[p])
            FAIL("sincos through %s's chain_fk: %zu %s", P[p].name, bad[p],
                 p ? "blocks differ from the scalar reference" : "values differ from sbx_sincos_ref");
    free(x), free(ref.f), free(got.f), free(c.mem);
}

/* ---- 2 and 3. the poses against the long-double FK; every path against the reference ---- */

typedef struct fk_err {
    double dc, du;     /* max over links and configurations: |center - exact|, |axis component - exact| */
    double dc_d, du_d; /* against the FK of the double joint values before their rounding to float */
} fk_err;

static void pose_err(const poses *p, size_t i, const orc_lbox *lb, size_t nl, double *dc, double *du)
{
    for (size_t l = 0; l < nl; l++) {
        ld d2 = 0;
        for (int c = 0; c < 3; c++) {
            ld d = (ld)p->out[l].center[c][i] - lb[l].c[c];
            d2 += d * d;
            for (int k = 0; k < 3; k++) {
                double e = (double)fabsl((ld)p->out[l].axis[k][c][i] - lb[l].u[k][c]);
                if (!(e <= *du))
                    *du = e;
            }
        }
        double e = (double)sqrtl(d2);
        if (!(e <= *dc))
            *dc = e;
    }
}

/* n configurations in blocks: joint values within robot.h's limits (`limits`, also compared as
 * double) or uniform in [-8, 8]. The scalar poses against fk_ld(); every path's chain_fk and, on the
 * native paths, satbox_chain_poses() (stride nj + 1, the extra value a NaN that must not be read)
 * bit for bit against the scalar ones. */
static void check_fk(const tchain *c, tb_rng *r, size_t n, int limits, fk_err *e)
{
    const size_t B = 2047, qs = c->nj + 1; /* blocks of 2047: satbox_chain_poses' own blocks of 16 end in a tail */
    float *q = tb_xmalloc(B * qs * sizeof(float)), *qt = tb_xmalloc(B * c->nj * sizeof(float));
    double *qd = tb_xmalloc(B * c->nj * sizeof(double));
    poses ref, got;
    poses_alloc(&ref, c->nl, B);
    poses_alloc(&got, c->nl, B);
    orc_lbox lb[MAXL];
    size_t bad[17] = {0}, bad_pub[17] = {0};
    for (size_t i0 = 0; i0 < n; i0 += B) {
        size_t k = n - i0 < B ? n - i0 : B;
        for (size_t i = 0; i < k; i++) {
            if (limits)
                rb_random_q(r, qd + i * c->nj);
            for (size_t j = 0; j < c->nj; j++)
                q[i * qs + j] = limits ? (float)qd[i * c->nj + j] : (float)tb_range(r, -8.0, 8.0);
            q[i * qs + c->nj] = NAN;
        }
        transpose(q, qs, c->nj, k, qt);
        run_fk(&sbx_path_scalar, c, qt, k, &ref);
        for (size_t i = 0; i < k; i++) {
            fk_ld_f(c, q + i * qs, lb);
            pose_err(&ref, i, lb, c->nl, &e->dc, &e->du);
            if (limits) {
                ld qq[MAXJ];
                for (size_t j = 0; j < c->nj; j++)
                    qq[j] = qd[i * c->nj + j];
                fk_ld(c, qq, lb);
                pose_err(&ref, i, lb, c->nl, &e->dc_d, &e->du_d);
            }
        }
        for (int p = 0; p < NP; p++) {
            if (p) {
                memset(got.f, 0x5A, c->nl * 15 * B * sizeof(float));
                run_fk(P[p].path, c, qt, k, &got);
                bad[p] += !poses_same(&ref, &got, k);
            }
            if (P[p].isa >= 0) {
                force(&P[p]);
                memset(got.f, 0x5A, c->nl * 15 * B * sizeof(float));
                ptrdiff_t rc = satbox_chain_poses(&c->ch, q, qs, k, got.out);
                bad_pub[p] += rc != 0 || !poses_same(&ref, &got, k);
            }
        }
    }
    for (int p = 0; p < NP; p++) {
        if (bad[p])
            FAIL("chain %s: %s's chain_fk differs from the scalar reference in %zu blocks", c->name, P[p].name, bad[p]);
        if (bad_pub[p])
            FAIL("chain %s: satbox_chain_poses on %s differs from the scalar reference in %zu blocks", c->name,
                 P[p].name, bad_pub[p]);
    }
    free(q), free(qt), free(qd), free(ref.f), free(got.f);
}

/* The chain queries' tolerance as satbox_planner.h states it: tol_rel >= SATBOX_PLAN_REL + 16.5
 * err_axis, tol_abs >= 4.1 err_center (the test above holds err_center and err_axis to the
 * measured errors). */
static void check_tol(const tchain *c)
{
    double rel = (double)SATBOX_PLAN_REL + 16.5 * c->ch.err_axis, abs_ = 4.1 * c->ch.err_center;
    if (!((double)c->ch.tol_rel >= rel) || !((double)c->ch.tol_abs >= abs_))
        FAIL("chain %s: tol_rel %.6g, tol_abs %.6g below the stated SATBOX_PLAN_REL + 16.5 err_axis = %.6g, 4.1 "
             "err_center = %.6g",
             c->name, (double)c->ch.tol_rel, (double)c->ch.tol_abs, rel, abs_);
}

static void report_fk(const tchain *c, const char *what, size_t n, const fk_err *e)
{
    check_tol(c);
    printf("   %-8s %7zu configurations (%s): center %.3g (%.3f of err_center %.3g), axis %.3g (%.3f of err_axis %.3g)\n",
           c->name, n, what, e->dc, e->dc / c->ch.err_center, c->ch.err_center, e->du, e->du / c->ch.err_axis,
           c->ch.err_axis);
    if (!(e->dc <= c->ch.err_center) || !(e->du <= c->ch.err_axis))
        FAIL("chain %s (%s): the lane FK's error (center %.3g, axis %.3g) exceeds its bound (%.3g, %.3g)", c->name,
             what, e->dc, e->du, c->ch.err_center, c->ch.err_axis);
    if (e->dc_d > 0) {
        printf("   %-8s %7s against the FK of the double joint values: center %.3g (%.3f), axis %.3g (%.3f)\n", "", "",
               e->dc_d, e->dc_d / c->ch.err_center, e->du_d, e->du_d / c->ch.err_axis);
        if (!(e->dc_d <= c->ch.err_center) || !(e->du_d <= c->ch.err_axis))
            FAIL("chain %s: the lane FK's error against the double joint values (center %.3g, axis %.3g) exceeds its "
                 "bound",
                 c->name, e->dc_d, e->du_d);
    }
}

/* fk_ld() against robot.h's double FK (world frame, less RB_BASE): the same arm, so that fk_ld()
 * reads the chain as the DH parameters mean it. */
static void check_fk_ld(const tchain *c, tb_rng *r)
{
    double worst = 0;
    for (int t = 0; t < 200; t++) {
        double q[RB_DOF];
        ld qq[RB_DOF];
        rb_random_q(r, q);
        for (int j = 0; j < RB_DOF; j++)
            qq[j] = q[j];
        rb_box w[RB_LINKS];
        orc_lbox lb[RB_LINKS];
        rb_fk(q, w);
        fk_ld(c, qq, lb);
        for (int l = 0; l < RB_LINKS; l++)
            for (int a = 0; a < 3; a++) {
                worst = fmax(worst, fabs((double)(lb[l].c[a] - ((ld)w[l].center[a] - (ld)RB_BASE[a]))));
                for (int k = 0; k < 3; k++)
                    worst = fmax(worst, fabs((double)(lb[l].u[k][a] - w[l].axis[k][a])));
            }
    }
    if (!(worst < 1e-12))
        FAIL("the test's long-double FK and rb_fk() disagree by %.3g", worst);
}

/* Tails and bad lanes: k = 1..17 and a few more, at box offset 3 with joint stride k + 5, a bad
 * joint value in one lane of seven (NaN, infinities, just beyond 8, 1e30), exactly +-8 in
 * another: every path's chain_fk (and satbox_chain_poses on the native paths) bit for bit equal
 * to the reference, nothing written outside boxes [3, 3 + k); the reference's bad lanes NaN
 * (centers and axes) with their half extents, the others finite. */
/* The chain queries' form of chain_fk (whole vectors: joint values zero past k, room for whole
 * vectors of 16 in q and in the boxes): lanes 0 .. k-1 bit for bit those of `ref` (the scalar
 * reference's boxes at `at`), on every path. */
static void check_whole(const tchain *c, const float *q, size_t ldq, size_t k, const poses *ref, size_t at)
{
    size_t ld = (k + 15) & ~(size_t)15;
    float *qw = tb_xmalloc(c->nj * ld * sizeof(float));
    for (size_t j = 0; j < c->nj; j++)
        for (size_t i = 0; i < ld; i++)
            qw[j * ld + i] = i < k ? q[j * ldq + i] : 0.0f;
    poses w;
    poses_alloc(&w, c->nl, ld);
    for (int p = 0; p < NP; p++) {
        memset(w.f, 0x5A, c->nl * 15 * ld * sizeof(float));
        sbx_fkjob job = {&c->ch, qw, ld, k, 0, w.out, 1};
        P[p].path->chain_fk(&job);
        for (size_t f = 0; f < c->nl * 15; f++)
            if (memcmp(w.f + f * ld, ref->f + f * ref->cap + at, k * sizeof(float)))
                FAIL("%s, k = %zu: chain_fk with whole vectors differs from the scalar reference", P[p].name, k);
    }
    free(w.f);
    free(qw);
}

static void check_tails(const tchain *c, tb_rng *r)
{
    static const size_t ks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 33, 64, 65, 100};
    const float badv[] = {NAN, INFINITY, -INFINITY, 0x1.000002p3f, -0x1.000002p3f, 1e30f, -9.0f};
    const size_t at = 3, cap = 100 + at + 8;
    poses ref, got;
    poses_alloc(&ref, c->nl, cap);
    poses_alloc(&got, c->nl, cap);
    float *q = tb_xmalloc(c->nj * (100 + 5) * sizeof(float)), *qrow = tb_xmalloc((c->nj + 1) * 100 * sizeof(float));
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        size_t k = ks[t], ldq = k + 5;
        int is_bad[100];
        for (size_t i = 0; i < k; i++) {
            for (size_t j = 0; j < c->nj; j++)
                q[j * ldq + i] = (float)tb_range(r, -8.0, 8.0);
            size_t j = (size_t)(tb_next(r) % c->nj);
            is_bad[i] = i % 7 == 3 || (k < 7 && i == k - 1 && t % 2);
            if (is_bad[i])
                q[j * ldq + i] = badv[(t + i) % (sizeof badv / sizeof badv[0])];
            else if (i % 7 == 5)
                q[j * ldq + i] = i % 2 ? 8.0f : -8.0f;
        }
        size_t nbad = 0;
        for (size_t i = 0; i < k; i++) {
            nbad += (size_t)is_bad[i];
            for (size_t j = 0; j <= c->nj; j++)
                qrow[i * (c->nj + 1) + j] = j < c->nj ? q[j * ldq + i] : NAN;
        }
        for (int p = 0; p < 2 * NP; p++) { /* p >= NP: satbox_chain_poses on path p - NP */
            if (p >= NP && P[p - NP].isa < 0)
                continue;
            const char *pname = P[p % NP].name;
            poses *o = p ? &got : &ref;
            memset(o->f, 0x5A, c->nl * 15 * cap * sizeof(float));
            if (p < NP) {
                sbx_fkjob job = {&c->ch, q, ldq, k, at, o->out, 0};
                P[p].path->chain_fk(&job);
            } else {
                force(&P[p - NP]);
                satbox_boxes_out sh[MAXL];
                for (size_t l = 0; l < c->nl; l++) {
                    for (int a = 0; a < 3; a++) {
                        sh[l].center[a] = o->out[l].center[a] + at;
                        sh[l].half[a] = o->out[l].half[a] + at;
                        for (int b = 0; b < 3; b++)
                            sh[l].axis[b][a] = o->out[l].axis[b][a] + at;
                    }
                }
                ptrdiff_t rc = satbox_chain_poses(&c->ch, qrow, c->nj + 1, k, sh);
                if (rc != (ptrdiff_t)nbad)
                    FAIL("satbox_chain_poses on %s, k = %zu: returned %td, want %zu bad", pname, k, rc, nbad);
            }
            int outside = 0;
            for (size_t f = 0; f < c->nl * 15; f++)
                for (size_t i = 0; i < cap; i++) {
                    uint32_t bits;
                    memcpy(&bits, o->f + f * cap + i, 4);
                    outside += (i < at || i >= at + k) && bits != 0x5A5A5A5Au;
                }
            const char *fn = p < NP ? "chain_fk" : "satbox_chain_poses";
            if (outside)
                FAIL("%s, k = %zu: %s wrote %d floats outside its boxes", pname, k, fn, outside);
            if (p && !poses_same(&ref, &got, cap))
                FAIL("%s, k = %zu: %s differs from the scalar reference", pname, k, fn);
        }
        check_whole(c, q, ldq, k, &ref, at);
        for (size_t i = 0; i < k; i++)
            for (size_t l = 0; l < c->nl; l++)
                for (int a = 0; a < 3; a++) {
                    int nan = isnan(ref.out[l].center[a][at + i]), finite = isfinite(ref.out[l].center[a][at + i]);
                    for (int b = 0; b < 3; b++) {
                        nan &= isnan(ref.out[l].axis[b][a][at + i]);
                        finite &= isfinite(ref.out[l].axis[b][a][at + i]);
                    }
                    if (is_bad[i] ? !nan : !finite)
                        FAIL("k = %zu, lane %zu, link %zu: %s", k, i, l,
                             is_bad[i] ? "a bad joint value must make the center and axes NaN" : "a good lane is not finite");
                    if (ref.out[l].half[a][at + i] != (float)c->L[l].half[a])
                        FAIL("k = %zu, lane %zu, link %zu: half extent %g, want %g", k, i, l,
                             (double)ref.out[l].half[a][at + i], c->L[l].half[a]);
                }
    }
    free(q), free(qrow), free(ref.f), free(got.f);
}

/* ---- 4 and 5. the chain queries against the oracle and against satbox_configs() ---- */

/* An obstacle world: satbox's (float, relative to the base) and the oracle's (the double scene,
 * less RB_BASE in long double) with the oracle boxes' AABBs. */
typedef struct oworld {
    const char *name;
    size_t m;
    satbox_world w;
    void *mem;
    tb_soa soa;
    orc_lbox *lb;
    ld (*mn)[3], (*mx)[3];
} oworld;

static void lbox_aabb(const orc_lbox *b, ld mn[3], ld mx[3])
{
    for (int c = 0; c < 3; c++) {
        ld e = fabsl(b->u[0][c]) * b->h[0] + fabsl(b->u[1][c]) * b->h[1] + fabsl(b->u[2][c]) * b->h[2];
        mn[c] = b->c[c] - e;
        mx[c] = b->c[c] + e;
    }
}

static void world_make(oworld *w, rb_scene_kind kind, size_t m)
{
    rb_box *b = tb_xmalloc(m * sizeof *b);
    rb_scene(kind, m, 36, b);
    w->name = rb_scene_name(kind);
    w->m = m;
    w->lb = tb_xmalloc(m * sizeof *w->lb);
    w->mn = tb_xmalloc(m * sizeof *w->mn);
    w->mx = tb_xmalloc(m * sizeof *w->mx);
    if (tb_soa_alloc(&w->soa, m))
        exit(2);
    for (size_t i = 0; i < m; i++) {
        satbox_box f;
        rb_to_float(&b[i], &f);
        tb_soa_set(&w->soa, i, &f);
        for (int c = 0; c < 3; c++) {
            w->lb[i].c[c] = (ld)b[i].center[c] - (ld)RB_BASE[c];
            w->lb[i].h[c] = b[i].half[c];
            for (int k = 0; k < 3; k++)
                w->lb[i].u[k][c] = b[i].axis[k][c];
        }
        lbox_aabb(&w->lb[i], w->mn[i], w->mx[i]);
    }
    size_t bytes = satbox_world_bytes(m);
    w->mem = tb_xmalloc(bytes);
    if (satbox_world_init(&w->w, w->mem, bytes, &w->soa.view, m) != (ptrdiff_t)m) {
        fprintf(stderr, "satbox_world_init failed\n");
        exit(2);
    }
    free(b);
}

static void world_free(oworld *w)
{
    free(w->lb), free(w->mn), free(w->mx), free(w->mem);
    tb_soa_free(&w->soa);
}

/* Pairs whose exact AABBs are farther apart than this are not given to the oracle: they are
 * apart, and their AABB gap (which is below their distance) stands for their separation. */
#define NEAR 1e-2L

static ld aabb_gap(const ld amn[3], const ld amx[3], const ld bmn[3], const ld bmx[3])
{
    ld g = -INFINITY;
    for (int c = 0; c < 3; c++) {
        g = fmaxl(g, bmn[c] - amx[c]);
        g = fmaxl(g, amn[c] - bmx[c]);
    }
    return g;
}

/* The oracle's separation of configuration q (float joint values): the least orc_sat_l() of the
 * exact link boxes (fk_ld()) against the obstacles of w (may be NULL) and of the self pairs (the
 * AABB gap for the pairs whose AABBs are NEAR apart or more). <= 0: some pair touches or overlaps. */
static ld config_sep(const tchain *c, const oworld *w, const satbox_pair *self, size_t nself, const float *q)
{
    orc_lbox lb[MAXL];
    ld mn[MAXL][3], mx[MAXL][3], sep = INFINITY;
    orc_result res;
    fk_ld_f(c, q, lb);
    for (size_t l = 0; l < c->nl; l++)
        lbox_aabb(&lb[l], mn[l], mx[l]);
    for (size_t l = 0; w && l < c->nl; l++)
        for (size_t m = 0; m < w->m; m++) {
            ld g = aabb_gap(mn[l], mx[l], w->mn[m], w->mx[m]);
            sep = fminl(sep, g < NEAR ? orc_sat_l(&lb[l], &w->lb[m], &res) : g);
        }
    for (size_t p = 0; p < nself; p++) {
        size_t a = self[p].a, b = self[p].b;
        ld g = aabb_gap(mn[a], mx[a], mn[b], mx[b]);
        sep = fminl(sep, g < NEAR ? orc_sat_l(&lb[a], &lb[b], &res) : g);
    }
    return sep;
}

/* Configurations (row-major, stride nj + 1 with a NaN after the joints) and their separations. */
typedef struct cset {
    size_t n, cap, nj, qs, nrandom;
    float *q;
    ld *sep;
} cset;

static void cset_add(cset *s, const float *q, ld sep)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->q = realloc(s->q, s->cap * s->qs * sizeof(float));
        s->sep = realloc(s->sep, s->cap * sizeof(ld));
        if (!s->q || !s->sep)
            exit(2);
    }
    memcpy(s->q + s->n * s->qs, q, s->nj * sizeof(float));
    s->q[s->n * s->qs + s->nj] = NAN;
    s->sep[s->n++] = sep;
}

/* The float joint values at t on the segment from a to b (in double, then rounded). */
static void interp(const float *a, const float *b, size_t nj, double t, float *q)
{
    for (size_t j = 0; j < nj; j++)
        q[j] = (float)((1.0 - t) * a[j] + t * b[j]);
}

/* nrand random configurations within the limits, then nbis bisections in joint space between a
 * free one and a touching one (32 halvings: the joint values then differ by about their last bit):
 * each gives the last free and the first touching configuration and 6 either side, moved along
 * the segment by 10^U(-10, -3) of it: separations from about 1e-11 m to about 1e-3 m. */
static void cset_make(cset *s, const tchain *c, const oworld *w, const satbox_pair *self, size_t nself, tb_rng *r,
                      size_t nrand, size_t nbis)
{
    *s = (cset){.nj = c->nj, .qs = c->nj + 1};
    float q[MAXJ], a[MAXJ], b[MAXJ];
    size_t *fr = tb_xmalloc(nrand * sizeof *fr), *hit = tb_xmalloc(nrand * sizeof *hit), nf = 0, nh = 0;
    for (size_t i = 0; i < nrand; i++) {
        double qd[RB_DOF];
        rb_random_q(r, qd);
        for (size_t j = 0; j < c->nj; j++)
            q[j] = (float)qd[j];
        ld sep = config_sep(c, w, self, nself, q);
        if (sep > 0)
            fr[nf++] = i;
        else
            hit[nh++] = i;
        cset_add(s, q, sep);
    }
    s->nrandom = s->n;
    for (size_t i = 0; i < nbis && nf && nh; i++) {
        memcpy(a, s->q + fr[tb_next(r) % nf] * s->qs, c->nj * sizeof(float));
        memcpy(b, s->q + hit[tb_next(r) % nh] * s->qs, c->nj * sizeof(float));
        double lo = 0, hi = 1;
        for (int it = 0; it < 32; it++) {
            double mid = 0.5 * (lo + hi);
            interp(a, b, c->nj, mid, q);
            if (config_sep(c, w, self, nself, q) > 0)
                lo = mid;
            else
                hi = mid;
        }
        for (int e = 0; e < 14; e++) {
            double d = e < 2 ? 0.0 : pow(10.0, tb_range(r, -10.0, -3.0));
            double t = e % 2 ? hi + d : lo - d;
            interp(a, b, c->nj, t < 0 ? 0 : t > 1 ? 1 : t, q);
            cset_add(s, q, config_sep(c, w, self, nself, q));
        }
    }
    free(fr), free(hit);
}

/* Histogram bands of the separation (m) for the false alarms. */
#define NBANDS 7
static const double band_hi[NBANDS] = {1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, INFINITY};

/* The chain queries on set s, every path: the lane FK then the path's query (chain tolerance and
 * satbox_configs()' tolerance, both modes), and on the native paths the public functions. */
static void check_queries(const tchain *c, const oworld *w, const satbox_pair *self, size_t nself, const cset *s,
                          void *work, size_t work_bytes)
{
    size_t n = s->n;
    const satbox_world *world = w ? &w->w : NULL;
    const char *name = w ? w->name : "self only";
    float *qt = tb_xmalloc(n * c->nj * sizeof(float));
    transpose(s->q, s->qs, c->nj, n, qt);
    poses ref, got;
    poses_alloc(&ref, c->nl, n);
    poses_alloc(&got, c->nl, n);
    /* v[mode]: 0 default chain, 1 default satbox_configs, 2 conservative chain, 3 conservative
     * satbox_configs; ref: the scalar path's */
    uint8_t *v[4], *vr[4], *pub = tb_xmalloc(n);
    ptrdiff_t cnt[4], cnt_r[4];
    for (int m = 0; m < 4; m++)
        v[m] = tb_xmalloc(n), vr[m] = tb_xmalloc(n);
    for (int p = 0; p < NP; p++) {
        poses *ps = p ? &got : &ref;
        run_fk(P[p].path, c, qt, n, ps);
        if (p && !poses_same(&ref, &got, n))
            FAIL("%s, %s: chain_fk differs from the scalar reference", name, P[p].name);
        for (int m = 0; m < 4; m++) {
            int chain_tol = !(m & 1);
            sbx_pjob job = {world, ps->in, c->nl, self, nself, n, m >= 2 ? SATBOX_PLAN_CONSERVATIVE : 0u,
                            p ? v[m] : vr[m], chain_tol ? c->ch.tol_rel : SATBOX_PLAN_REL,
                            chain_tol ? c->ch.tol_abs : 0.0f, 0};
            (p ? cnt : cnt_r)[m] = P[p].path->configs(&job);
        }
        uint8_t **vv = p ? v : vr;
        ptrdiff_t *cc = p ? cnt : cnt_r;
        for (int m = 0; m < 4 && p; m++)
            if (cnt[m] != cnt_r[m] || memcmp(v[m], vr[m], n))
                FAIL("%s, %s: the verdicts (mode %d) differ from the scalar reference", name, P[p].name, m);
        if (P[p].isa >= 0) {
            force(&P[p]);
            for (int m = 0; m < 4; m++) {
                unsigned fl = m >= 2 ? SATBOX_PLAN_CONSERVATIVE : 0u;
                memset(pub, 0xAB, n);
                ptrdiff_t rc = m & 1 ? satbox_configs(world, ps->in, c->nl, self, nself, n, fl, pub)
                                     : satbox_chain_configs(world, &c->ch, self, nself, s->q, s->qs, n, fl, pub, work,
                                                            work_bytes);
                if (rc != cc[m] || memcmp(pub, vv[m], n))
                    FAIL("%s, %s: %s (%s mode) differs from the path's FK and query", name, P[p].name,
                         m & 1 ? "satbox_configs" : "satbox_chain_configs", m >= 2 ? "conservative" : "default");
                size_t fn = 0;
                for (size_t i = 0; i < n && m == 2; i++)
                    if (s->sep[i] <= 0 && pub[i] == SATBOX_FREE && fn++ < 5)
                        FAIL("%s, %s: configuration %zu (separation %.3Lg) called free by satbox_chain_configs "
                             "(conservative)",
                             name, P[p].name, i, s->sep[i]);
                if (fn)
                    FAIL("%s, %s: %zu false negatives of satbox_chain_configs (conservative)", name, P[p].name, fn);
            }
        }
        /* 5: the default chain query is satbox_configs() on the same poses; the conservative
         * modes call free no configuration the default mode does not, the chain's none that
         * satbox_configs()' does not; 4: no false negative against the oracle */
        size_t diff = 0, wider = 0, fn = 0, deep_missed = 0;
        for (size_t i = 0; i < n; i++) {
            diff += vv[0][i] != vv[1][i];
            wider += (vv[1][i] != SATBOX_FREE && vv[3][i] == SATBOX_FREE) ||
                     (vv[3][i] != SATBOX_FREE && vv[2][i] == SATBOX_FREE);
            if (s->sep[i] <= 0 && vv[2][i] == SATBOX_FREE && fn++ < 5)
                FAIL("%s, %s: configuration %zu (separation %.3Lg) called free by the conservative chain query", name,
                     P[p].name, i, s->sep[i]);
            deep_missed += s->sep[i] < -1e-3L && vv[0][i] != SATBOX_COLLIDES;
        }
        if (diff)
            FAIL("%s, %s: the default chain query differs from satbox_configs on %zu configurations", name, P[p].name,
                 diff);
        if (wider)
            FAIL("%s, %s: a conservative mode frees %zu configurations a narrower mode does not", name, P[p].name,
                 wider);
        if (fn)
            FAIL("%s, %s: %zu false negatives of the conservative chain query", name, P[p].name, fn);
        if (deep_missed)
            FAIL("%s, %s: the default chain query frees %zu configurations overlapping by more than 1 mm", name,
                 P[p].name, deep_missed);
    }
    /* the statistics (the scalar reference's verdicts: the same on every path) */
    size_t touch = 0, near = 0, fr_rand = 0, fa_rand = 0, band_n[NBANDS] = {0}, band_fa[NBANDS] = {0}, fa_def = 0;
    ld closest_free = INFINITY, closest_touch = -INFINITY, widest_fa = 0, widest_def = 0;
    for (size_t i = 0; i < n; i++) {
        ld sp = s->sep[i];
        near += fabsl(sp) <= 1e-4L;
        if (sp <= 0) {
            touch++;
            closest_touch = fmaxl(closest_touch, sp);
            continue;
        }
        closest_free = fminl(closest_free, sp);
        int fa = vr[2][i] != SATBOX_FREE;
        fa_def += vr[0][i] != SATBOX_FREE;
        if (fa)
            widest_fa = fmaxl(widest_fa, sp);
        if (vr[0][i] != SATBOX_FREE)
            widest_def = fmaxl(widest_def, sp);
        if (i < s->nrandom)
            fr_rand++, fa_rand += fa;
        int b = 0;
        while ((double)sp > band_hi[b])
            b++;
        band_n[b]++, band_fa[b] += fa;
    }
    printf("   %-9s %5zu configurations (%zu random): %zu touch or overlap (nearest %.2Lg m), all reported by the "
           "conservative chain query on %d paths;\n",
           name, n, s->nrandom, touch, closest_touch, NP);
    printf("             %zu within 1e-4 m of contact, nearest free one at %.2Lg m; default mode: %zu free ones not "
           "free (up to %.2Lg m apart)\n",
           near, closest_free, fa_def, widest_def);
    printf("             false alarms (conservative, exactly free): random configurations %zu of %zu (%.2f%%); by "
           "separation:",
           fa_rand, fr_rand, fr_rand ? 100.0 * (double)fa_rand / (double)fr_rand : 0.0);
    for (int b = 0; b < NBANDS; b++)
        printf(" <=%.0e %zu/%zu", band_hi[b], band_fa[b], band_n[b]);
    printf("\n");
    size_t in_mm = 0, fa_mm = 0;
    for (int b = 0; b < NBANDS - 2; b++)
        in_mm += band_n[b], fa_mm += band_fa[b];
    printf("             within 1 mm: %zu of %zu free configurations called not free (%.1f%%); the farthest false "
           "alarm %.2Lg m apart\n",
           fa_mm, in_mm, in_mm ? 100.0 * (double)fa_mm / (double)in_mm : 0.0, widest_fa);
    if (touch < s->nrandom / 20 || near < s->nrandom / 10 || n - touch < s->nrandom / 20)
        FAIL("%s: the set lacks contacts (%zu touching, %zu within 1e-4 m, %zu free)", name, touch, near, n - touch);
    for (int m = 0; m < 4; m++)
        free(v[m]), free(vr[m]);
    free(pub), free(qt), free(ref.f), free(got.f);
}

/* ---- 6. motions ---- */

static void check_motions(const tchain *c, const oworld *w, const satbox_pair *self, size_t nself, const cset *s,
                          tb_rng *r, void *work, size_t work_bytes, size_t nmot)
{
    static const size_t ks[] = {1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 129, 250};
    const size_t nks = sizeof ks / sizeof ks[0], nj = c->nj;
    float *st = tb_xmalloc(250 * nj * sizeof(float)), q0[MAXJ], q1[MAXJ];
    uint8_t v[250], v2[250];
    size_t hits = 0, bad_motions = 0;
    for (size_t mi = 0; mi < nmot; mi++) {
        size_t k = ks[mi % nks];
        double qd[RB_DOF];
        rb_random_q(r, qd);
        for (size_t j = 0; j < nj; j++)
            q0[j] = (float)qd[j];
        if (mi % 3 == 1) { /* towards a configuration near contact */
            memcpy(q1, s->q + (s->nrandom + (size_t)(tb_next(r) % (s->n - s->nrandom))) * s->qs, nj * sizeof(float));
        } else {
            rb_random_q(r, qd);
            for (size_t j = 0; j < nj; j++)
                q1[j] = (float)qd[j];
        }
        if (mi % 11 == 5) /* out of range from some state on */
            q1[mi % nj] = 9.0f;
        if (mi % 17 == 8) /* every state bad */
            q1[mi % nj] = NAN;
        if (mi % 13 == 7) /* standing still */
            memcpy(q1, q0, sizeof q0);
        for (size_t i = 0; i < k; i++) {
            float t = (float)(i + 1) / (float)k;
            for (size_t j = 0; j < nj; j++)
                st[i * nj + j] = (1.0f - t) * q0[j] + t * q1[j];
        }
        for (int mode = 0; mode < 2; mode++) {
            unsigned fl = mode ? SATBOX_PLAN_CONSERVATIVE : 0u;
            force(&P[0]);
            satbox_chain_configs(&w->w, &c->ch, self, nself, st, nj, k, fl, v, work, work_bytes);
            size_t first, any;
            orc_motion_answers(v, k, &first, &any);
            hits += first < k;
            bad_motions += first < k && v[first] == SATBOX_CONFIG_BAD;
            for (int p = 0; p < NP; p++) {
                if (P[p].isa < 0)
                    continue;
                force(&P[p]);
                satbox_chain_configs(&w->w, &c->ch, self, nself, st, nj, k, fl, v2, work, work_bytes);
                ptrdiff_t f = satbox_chain_motion(&w->w, &c->ch, self, nself, q0, q1, k, fl, work, work_bytes);
                ptrdiff_t a = satbox_chain_motion(&w->w, &c->ch, self, nself, q0, q1, k, fl | SATBOX_PLAN_ANY, work,
                                                  work_bytes);
                if (memcmp(v, v2, k))
                    FAIL("motion %zu on %s: the states' verdicts differ from the scalar path's", mi, P[p].name);
                if (f != (ptrdiff_t)first || a != (ptrdiff_t)any)
                    FAIL("motion %zu of %zu states on %s (%s): first %td (want %zu), any %td (want %zu)", mi, k,
                         P[p].name, mode ? "conservative" : "default", f, first, a, any);
            }
        }
    }
    printf("6. %zu motions x 2 modes on the %s (1 to 250 states): %zu not free (%zu at a bad state), "
           "satbox_chain_motion = the states' satbox_chain_configs on every native path\n",
           nmot, w->name, hits, bad_motions);
    free(st);
}

/* ---- 7. bad data and arguments ---- */

/* Bad joint values in a batch: their configurations SATBOX_CONFIG_BAD, the others' verdicts and
 * poses those of the clean batch, on every path (native: the public functions; all: chain_fk and
 * configs through the tables). */
static void check_bad_values(const tchain *c, const oworld *w, const satbox_pair *self, size_t nself, const cset *s,
                             void *work, size_t work_bytes)
{
    const size_t n = 100, qs = s->qs;
    struct {
        size_t i, j;
        float v;
    } poison[] = {{5, 2, NAN}, {17, 0, 0x1.000002p3f}, {18, 6, -INFINITY}, {40, 3, -8.5f}, {63, 1, INFINITY},
                  {64, 4, -NAN}, {99, 6, 1e30f}};
    const size_t np = sizeof poison / sizeof poison[0];
    float *q = tb_xmalloc(n * qs * sizeof(float)), *qt = tb_xmalloc(n * c->nj * sizeof(float));
    memcpy(q, s->q + (s->n - n) * qs, n * qs * sizeof(float)); /* near-contact configurations */
    uint8_t clean[2][100], got[100];
    poses cl, ps;
    poses_alloc(&cl, c->nl, n);
    poses_alloc(&ps, c->nl, n);
    force(&P[0]);
    satbox_chain_poses(&c->ch, q, qs, n, cl.out);
    for (int mode = 0; mode < 2; mode++)
        satbox_chain_configs(&w->w, &c->ch, self, nself, q, qs, n, mode ? SATBOX_PLAN_CONSERVATIVE : 0u, clean[mode],
                             work, work_bytes);
    for (size_t e = 0; e < np; e++)
        q[poison[e].i * qs + poison[e].j] = poison[e].v;
    q[41 * qs + 1] = 8.0f; /* exactly the limit: valid */
    transpose(q, qs, c->nj, n, qt);
    for (int p = 0; p < NP; p++)
        for (int mode = 0; mode < 2; mode++) {
            unsigned fl = mode ? SATBOX_PLAN_CONSERVATIVE : 0u;
            ptrdiff_t nbad = -1;
            memset(got, 0xAB, n);
            if (P[p].isa >= 0) {
                force(&P[p]);
                nbad = satbox_chain_poses(&c->ch, q, qs, n, ps.out);
                satbox_chain_configs(&w->w, &c->ch, self, nself, q, qs, n, fl, got, work, work_bytes);
            } else {
                run_fk(P[p].path, c, qt, n, &ps);
                sbx_pjob job = {&w->w, ps.in, c->nl, self, nself, n, fl, got, c->ch.tol_rel, c->ch.tol_abs, 0};
                P[p].path->configs(&job);
            }
            if (nbad >= 0 && nbad != (ptrdiff_t)np)
                FAIL("%s: satbox_chain_poses counts %td bad configurations, want %zu", P[p].name, nbad, np);
            for (size_t i = 0; i < n; i++) {
                int is_bad = 0;
                for (size_t e = 0; e < np; e++)
                    is_bad |= poison[e].i == i;
                if (is_bad ? got[i] != SATBOX_CONFIG_BAD : i == 41 ? got[i] > SATBOX_COLLIDES : got[i] != clean[mode][i])
                    FAIL("%s, %s mode: configuration %zu gets %u (%s)", P[p].name, mode ? "conservative" : "default", i,
                         got[i], is_bad ? "bad joint value, want SATBOX_CONFIG_BAD" : "want its clean verdict");
                if (is_bad || i == 41)
                    continue;
                for (size_t f = 0; f < c->nl * 15; f++)
                    if (memcmp(cl.f + f * n + i, ps.f + f * n + i, sizeof(float))) {
                        FAIL("%s: configuration %zu's poses changed by its neighbours' bad values", P[p].name, i);
                        break;
                    }
            }
        }
    free(q), free(qt), free(cl.f), free(ps.f);
}

/* The argument errors: each call returns its error and writes nothing (its outputs, the chain, the
 * work keep their bytes). */
static void expect(const char *what, ptrdiff_t got, ptrdiff_t want)
{
    if (got != want)
        FAIL("%s: returned %td, want %td (%s)", what, got, want, satbox_strerror((int)want));
}

static void check_arguments(const tchain *c, const oworld *w, const cset *s)
{
    const satbox_pair *self;
    size_t nself = rb_self_pairs(&self);
    /* satbox_chain_init */
    satbox_joint J[MAXJ + 1];
    static satbox_link L[SATBOX_PLAN_MAX_LINKS + 1];
    memcpy(J, c->J, c->nj * sizeof *J);
    for (size_t l = 0; l < sizeof L / sizeof L[0]; l++)
        L[l] = c->L[l % c->nl];
    size_t nj = c->nj, nl = c->nl, bytes = satbox_chain_bytes(nj, nl);
    unsigned char *mem = tb_xmalloc(bytes + 4096), pattern[sizeof(satbox_chain)];
    satbox_chain ch;
    memset(pattern, 0x5C, sizeof pattern);
#define INIT_EXPECT(what, want, ...)                                                     \
    do {                                                                                 \
        memset(&ch, 0x5C, sizeof ch);                                                    \
        memset(mem, 0xA5, bytes + 4096);                                                 \
        expect("satbox_chain_init: " what, satbox_chain_init(__VA_ARGS__), want);        \
        int touched = memcmp(&ch, pattern, sizeof ch) != 0;                              \
        for (size_t b_ = 0; b_ < bytes + 4096; b_++)                                     \
            touched |= mem[b_] != 0xA5;                                                  \
        if (touched)                                                                     \
            FAIL("satbox_chain_init: " what ": a refused call wrote the chain or memory"); \
    } while (0)
    INIT_EXPECT("chain NULL", SATBOX_ERR_NULL, NULL, mem, bytes, J, nj, L, nl);
    INIT_EXPECT("mem NULL", SATBOX_ERR_NULL, &ch, NULL, bytes, J, nj, L, nl);
    INIT_EXPECT("joints NULL", SATBOX_ERR_NULL, &ch, mem, bytes, NULL, nj, L, nl);
    INIT_EXPECT("links NULL", SATBOX_ERR_NULL, &ch, mem, bytes, J, nj, NULL, nl);
    INIT_EXPECT("65 joints", SATBOX_ERR_COUNT, &ch, mem, bytes + 4096, J, MAXJ + 1, L, nl);
    INIT_EXPECT("no link", SATBOX_ERR_COUNT, &ch, mem, bytes, J, nj, L, 0);
    INIT_EXPECT("257 links", SATBOX_ERR_COUNT, &ch, mem, bytes + 4096, J, nj, L, SATBOX_PLAN_MAX_LINKS + 1);
    INIT_EXPECT("bytes short", SATBOX_ERR_ARG, &ch, mem, bytes - 1, J, nj, L, nl);
    INIT_EXPECT("chain inside mem", SATBOX_ERR_ALIAS, (satbox_chain *)(void *)(mem + 64), mem, bytes, J, nj, L, nl);
    /* one bad field at a time */
    struct {
        const char *what;
        int target; /* 0 joint 3, 1 link 5 */
        size_t off;  /* double index into the struct's doubles */
        double v;
        ptrdiff_t want;
    } bad[] = {
        {"joint rot not orthonormal", 0, 3 + 0, 1.001, SATBOX_ERR_ARG},
        {"joint rot NaN", 0, 3 + 4, NAN, SATBOX_ERR_ARG},
        {"joint axis not unit", 0, 12 + 2, 1.001, SATBOX_ERR_ARG},
        {"joint axis NaN", 0, 12 + 0, NAN, SATBOX_ERR_ARG},
        {"joint origin NaN", 0, 0, NAN, SATBOX_ERR_ARG},
        {"joint origin infinite", 0, 1, INFINITY, SATBOX_ERR_ARG},
        {"joint origin 2e6", 0, 2, 2e6, SATBOX_ERR_ARG},
        {"link half negative", 1, 12 + 1, -0.01, SATBOX_ERR_ARG},
        {"link half NaN", 1, 12 + 0, NAN, SATBOX_ERR_ARG},
        {"link center NaN", 1, 0, NAN, SATBOX_ERR_ARG},
        {"link center infinite", 1, 2, -INFINITY, SATBOX_ERR_ARG},
        {"link axes not orthonormal", 1, 3 + 1, 0.01, SATBOX_ERR_ARG},
        {"link axis NaN", 1, 3 + 8, NAN, SATBOX_ERR_ARG},
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        satbox_joint J2[MAXJ];
        satbox_link L2[MAXL];
        memcpy(J2, J, nj * sizeof *J2);
        memcpy(L2, L, nl * sizeof *L2);
        double *f = bad[b].target ? &L2[5].center[0] : &J2[3].origin[0]; /* origin, rot, axis; center, axis, half */
        f[bad[b].off] = bad[b].v;
        int before = failures;
        INIT_EXPECT("a bad field", bad[b].want, &ch, mem, bytes, J2, nj, L2, nl);
        if (failures != before)
            fprintf(stderr, "  (the bad field: %s)\n", bad[b].what);
    }
    {
        satbox_link L2[MAXL];
        memcpy(L2, L, nl * sizeof *L2);
        L2[2].joint = (int32_t)nj;
        INIT_EXPECT("link on joint 7 of 7", SATBOX_ERR_INDEX, &ch, mem, bytes, J, nj, L2, nl);
        L2[2].joint = -2;
        INIT_EXPECT("link on joint -2", SATBOX_ERR_INDEX, &ch, mem, bytes, J, nj, L2, nl);
    }
    /* a chain of no joint: its base links as given, whatever q (NULL here) */
    {
        satbox_link L2[2] = {L[0], L[3]};
        L2[0].joint = L2[1].joint = -1;
        satbox_chain c0;
        expect("satbox_chain_init, no joint", satbox_chain_init(&c0, mem, bytes, NULL, 0, L2, 2), 2);
        poses p0;
        poses_alloc(&p0, 2, 3);
        expect("satbox_chain_poses, no joint", satbox_chain_poses(&c0, NULL, 0, 3, p0.out), 0);
        for (int l = 0; l < 2; l++)
            for (int a = 0; a < 3; a++)
                if (p0.out[l].center[a][2] != (float)L2[l].center[a] || p0.out[l].axis[1][a][2] != (float)L2[l].axis[1][a])
                    FAIL("a chain of no joint: base link %d is not as given", l);
        free(p0.f);
    }
    free(mem);

    /* satbox_chain_poses */
    const size_t k = 40, qs = s->qs;
    float *q = tb_xmalloc(k * qs * sizeof(float));
    memcpy(q, s->q, k * qs * sizeof(float));
    poses po;
    poses_alloc(&po, c->nl, k);
    satbox_boxes_out o2[MAXL];
#define POSES_EXPECT(what, want, call)                                                \
    do {                                                                              \
        memset(po.f, 0x5C, c->nl * 15 * k * sizeof(float));                          \
        expect("satbox_chain_poses: " what, call, want);                              \
        for (size_t b_ = 0; b_ < c->nl * 15 * k; b_++) {                               \
            uint32_t bits_;                                                            \
            memcpy(&bits_, po.f + b_, 4);                                              \
            if (bits_ != 0x5C5C5C5Cu) {                                                \
                FAIL("satbox_chain_poses: " what ": a refused call wrote its output"); \
                break;                                                                 \
            }                                                                          \
        }                                                                              \
    } while (0)
    POSES_EXPECT("chain NULL", SATBOX_ERR_NULL, satbox_chain_poses(NULL, q, qs, k, po.out));
    POSES_EXPECT("q NULL", SATBOX_ERR_NULL, satbox_chain_poses(&c->ch, NULL, qs, k, po.out));
    POSES_EXPECT("links NULL", SATBOX_ERR_NULL, satbox_chain_poses(&c->ch, q, qs, k, NULL));
    memcpy(o2, po.out, sizeof o2);
    o2[3].axis[1][2] = NULL;
    POSES_EXPECT("an output array NULL", SATBOX_ERR_NULL, satbox_chain_poses(&c->ch, q, qs, k, o2));
    POSES_EXPECT("qstride < njoints", SATBOX_ERR_ARG, satbox_chain_poses(&c->ch, q, nj - 1, k, po.out));
    POSES_EXPECT("k too large", SATBOX_ERR_COUNT, satbox_chain_poses(&c->ch, q, qs, (size_t)SATBOX_MAX_COUNT + 1, po.out));
    /* (k - 1) qstride wraps around: configuration 1 would be read at q again (review finding) */
    POSES_EXPECT("qstride 2^62", SATBOX_ERR_ARG, satbox_chain_poses(&c->ch, q, (size_t)1 << 62, 2, po.out));
    satbox_chain c0 = c->ch;
    c0.nlinks = 0; /* a chain struct changed by hand: refused, not read */
    POSES_EXPECT("a chain of no link", SATBOX_ERR_COUNT, satbox_chain_poses(&c0, q, qs, k, po.out));
    memcpy(o2, po.out, sizeof o2);
    o2[7].center[1] = q + 5; /* over q */
    POSES_EXPECT("an output over q", SATBOX_ERR_ALIAS, satbox_chain_poses(&c->ch, q, qs, k, o2));
    memcpy(o2, po.out, sizeof o2);
    o2[6].half[2] = o2[1].axis[2][0] + 3; /* two outputs overlapping */
    POSES_EXPECT("two outputs overlapping", SATBOX_ERR_ALIAS, satbox_chain_poses(&c->ch, q, qs, k, o2));
    memcpy(o2, po.out, sizeof o2);
    o2[0].axis[0][0] = (float *)(uintptr_t)c->ch.data; /* over the chain (not written: refused) */
    POSES_EXPECT("an output over the chain", SATBOX_ERR_ALIAS, satbox_chain_poses(&c->ch, q, qs, k, o2));
    expect("satbox_chain_poses: k = 0", satbox_chain_poses(&c->ch, NULL, 0, 0, NULL), 0);

    /* satbox_chain_configs, satbox_chain_motion */
    size_t wb = satbox_chain_work_bytes(&c->ch);
    unsigned char *work = tb_xmalloc(wb + 256);
    uint8_t out[40];
    satbox_pair bad_pair[2] = {{0, 4}, {0, (uint32_t)nl}}, bad_pair2[1] = {{(uint32_t)nl + 3, 1}};
    satbox_world wn = w->w;
    wn.rows = NULL;
#define WORK_UNTOUCHED(what)                                                   \
    do {                                                                       \
        for (size_t b_ = 0; b_ < wb + 256; b_++)                               \
            if (work[b_] != 0xC3) {                                            \
                FAIL(what ": a refused call wrote its work memory");           \
                break;                                                         \
            }                                                                  \
    } while (0)
#define CONFIGS_EXPECT(what, want, call)                                       \
    do {                                                                       \
        memset(out, 0xAB, sizeof out);                                         \
        memset(work, 0xC3, wb + 256);                                          \
        expect("satbox_chain_configs: " what, call, want);                     \
        for (size_t b_ = 0; b_ < sizeof out; b_++)                             \
            if (out[b_] != 0xAB) {                                             \
                FAIL("satbox_chain_configs: " what ": a refused call wrote out"); \
                break;                                                         \
            }                                                                  \
        WORK_UNTOUCHED("satbox_chain_configs: " what);                         \
    } while (0)
    const satbox_world *W = &w->w;
    const satbox_chain *C = &c->ch;
    CONFIGS_EXPECT("chain NULL", SATBOX_ERR_NULL, satbox_chain_configs(W, NULL, self, nself, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("q NULL", SATBOX_ERR_NULL, satbox_chain_configs(W, C, self, nself, NULL, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("out NULL", SATBOX_ERR_NULL, satbox_chain_configs(W, C, self, nself, q, qs, k, 0, NULL, work, wb));
    CONFIGS_EXPECT("work NULL", SATBOX_ERR_NULL, satbox_chain_configs(W, C, self, nself, q, qs, k, 0, out, NULL, wb));
    CONFIGS_EXPECT("self NULL", SATBOX_ERR_NULL, satbox_chain_configs(W, C, NULL, 2, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("world rows NULL", SATBOX_ERR_NULL, satbox_chain_configs(&wn, C, self, nself, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("flag SATBOX_PLAN_ANY", SATBOX_ERR_ARG,
                   satbox_chain_configs(W, C, self, nself, q, qs, k, SATBOX_PLAN_ANY, out, work, wb));
    CONFIGS_EXPECT("flag 4", SATBOX_ERR_ARG, satbox_chain_configs(W, C, self, nself, q, qs, k, 4u, out, work, wb));
    CONFIGS_EXPECT("work too small", SATBOX_ERR_ARG, satbox_chain_configs(W, C, self, nself, q, qs, k, 0, out, work, wb - 1));
    CONFIGS_EXPECT("qstride < njoints", SATBOX_ERR_ARG, satbox_chain_configs(W, C, self, nself, q, nj - 1, k, 0, out, work, wb));
    CONFIGS_EXPECT("qstride 2^62", SATBOX_ERR_ARG, satbox_chain_configs(W, C, self, nself, q, (size_t)1 << 62, 2, 0, out, work, wb));
    satbox_chain cz = *C;
    cz.nlinks = 0; /* the crash the review found: a chain struct changed by hand to no link */
    CONFIGS_EXPECT("a chain of no link", SATBOX_ERR_COUNT, satbox_chain_configs(W, &cz, NULL, 0, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("k too large", SATBOX_ERR_COUNT,
                   satbox_chain_configs(W, C, self, nself, q, qs, (size_t)SATBOX_MAX_COUNT + 1, 0, out, work, wb));
    CONFIGS_EXPECT("self pair b = nlinks", SATBOX_ERR_INDEX, satbox_chain_configs(W, C, bad_pair, 2, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("self pair a > nlinks", SATBOX_ERR_INDEX, satbox_chain_configs(W, C, bad_pair2, 1, q, qs, k, 0, out, work, wb));
    CONFIGS_EXPECT("out over q", SATBOX_ERR_ALIAS,
                   satbox_chain_configs(W, C, self, nself, q, qs, k, 0, (uint8_t *)(q + 8), work, wb));
    CONFIGS_EXPECT("out over work", SATBOX_ERR_ALIAS,
                   satbox_chain_configs(W, C, self, nself, q, qs, k, 0, work + wb - 8, work, wb));
    {
        float *qw = (float *)(void *)(work + 128);
        memcpy(qw, q, k * qs * sizeof(float));
        memset(out, 0xAB, sizeof out);
        expect("satbox_chain_configs: q in work", satbox_chain_configs(W, C, self, nself, qw, qs, k, 0, out, work, wb),
               SATBOX_ERR_ALIAS);
    }
    expect("satbox_chain_configs: k = 0", satbox_chain_configs(W, C, self, nself, NULL, qs, 0, 0, NULL, NULL, 0), 0);

    const float *q0 = q, *q1 = q + qs;
#define MOTION_EXPECT(what, want, call)                       \
    do {                                                      \
        memset(work, 0xC3, wb + 256);                         \
        expect("satbox_chain_motion: " what, call, want);     \
        WORK_UNTOUCHED("satbox_chain_motion: " what);         \
    } while (0)
    MOTION_EXPECT("chain NULL", SATBOX_ERR_NULL, satbox_chain_motion(W, NULL, self, nself, q0, q1, 20, 0, work, wb));
    MOTION_EXPECT("q0 NULL", SATBOX_ERR_NULL, satbox_chain_motion(W, C, self, nself, NULL, q1, 20, 0, work, wb));
    MOTION_EXPECT("q1 NULL", SATBOX_ERR_NULL, satbox_chain_motion(W, C, self, nself, q0, NULL, 20, 0, work, wb));
    MOTION_EXPECT("work NULL", SATBOX_ERR_NULL, satbox_chain_motion(W, C, self, nself, q0, q1, 20, 0, NULL, wb));
    MOTION_EXPECT("self NULL", SATBOX_ERR_NULL, satbox_chain_motion(W, C, NULL, 1, q0, q1, 20, 0, work, wb));
    MOTION_EXPECT("flag 4", SATBOX_ERR_ARG, satbox_chain_motion(W, C, self, nself, q0, q1, 20, 4u, work, wb));
    MOTION_EXPECT("work too small", SATBOX_ERR_ARG, satbox_chain_motion(W, C, self, nself, q0, q1, 20, 0, work, wb - 1));
    MOTION_EXPECT("self pair b = nlinks", SATBOX_ERR_INDEX, satbox_chain_motion(W, C, bad_pair, 2, q0, q1, 20, 0, work, wb));
    MOTION_EXPECT("k too large", SATBOX_ERR_COUNT,
                  satbox_chain_motion(W, C, self, nself, q0, q1, (size_t)SATBOX_MAX_COUNT + 1, 0, work, wb));
    {
        float *qw = (float *)(void *)(work + 128);
        memcpy(qw, q1, nj * sizeof(float));
        expect("satbox_chain_motion: q1 in work", satbox_chain_motion(W, C, self, nself, q0, qw, 20, 0, work, wb),
               SATBOX_ERR_ALIAS);
        satbox_pair *sw = (satbox_pair *)(void *)(work + 64);
        *sw = (satbox_pair){0, 4};
        expect("satbox_chain_motion: self in work",
               satbox_chain_motion(W, C, sw, 1, q0, q1, 20, 0, work, wb),
               SATBOX_ERR_ALIAS);
    }
    expect("satbox_chain_motion: k = 0", satbox_chain_motion(W, C, self, nself, q0, q1, 0, 0, NULL, 0), 0);
    expect("satbox_chain_work_bytes(NULL)", (ptrdiff_t)satbox_chain_work_bytes(NULL), 0);
    expect("satbox_chain_bytes(65 joints)", (ptrdiff_t)satbox_chain_bytes(MAXJ + 1, 1), 0);
    free(q), free(po.f), free(work);
}

int main(int argc, char **argv)
{
    double mult;
    uint64_t seed = orc_cli(argc, argv, "test_chain", 36, 40.0, &mult);
    tb_rng r;
    tb_seed(&r, seed);
    paths_init();
    satbox_isa active = satbox_isa_active();
    printf("paths:");
    for (int p = 0; p < NP; p++)
        printf(" %s%s", P[p].name, P[p].isa >= 0 ? "" : " (tables only)");
    printf("\n");

    check_sincos(orc_count(2000000, mult, 20000));

    printf("2. lane FK against the long-double FK (max over configurations and links):\n");
    tchain rb, gen, lng, big;
    chain_rb(&rb);
    check_fk_ld(&rb, &r);
    chain_general(&gen, &r);
    chain_long(&lng, &r);
    chain_big(&big, &r);
    struct {
        tchain *c;
        size_t n;
        int limits;
        const char *what;
    } runs[] = {{&rb, orc_count(100000, mult, 1000), 1, "joint limits"},
                {&rb, orc_count(20000, mult, 500), 0, "|q| <= 8"},
                {&gen, orc_count(40000, mult, 500), 0, "|q| <= 8"},
                {&lng, orc_count(5000, mult, 100), 0, "|q| <= 8"},
                {&big, orc_count(20000, mult, 500), 0, "|q| <= 8"}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        fk_err e = {0, 0, 0, 0};
        check_fk(runs[i].c, &r, runs[i].n, runs[i].limits, &e);
        report_fk(runs[i].c, runs[i].what, runs[i].n, &e);
    }
    printf("3. chain_fk of every path = the scalar reference bit for bit (those blocks, satbox_chain_poses on the "
           "native paths, tails k = 1..17, 31, 33, 64, 65, 100 with bad lanes)\n");
    check_tails(&rb, &r);
    check_tails(&gen, &r);
    check_tails(&lng, &r);

    printf("4. conservative chain query against the oracle (exact link boxes of the float joint values); 5. default "
           "chain query = satbox_configs on its poses:\n");
    printf("   the arm's tolerance: tol_rel %.3g, tol_abs %.3g m\n", (double)rb.ch.tol_rel, (double)rb.ch.tol_abs);
    const satbox_pair *self;
    size_t nself = rb_self_pairs(&self);
    size_t wb = satbox_chain_work_bytes(&rb.ch);
    void *work = tb_xmalloc(wb);
    size_t nrand = orc_count(1500, mult, 60), nbis = orc_count(250, mult, 10);
    oworld worlds[RB_SCENE_COUNT];
    cset sets[RB_SCENE_COUNT + 1];
    for (int k = 0; k <= RB_SCENE_COUNT; k++) {
        oworld *w = k < RB_SCENE_COUNT ? &worlds[k] : NULL;
        if (w)
            world_make(w, (rb_scene_kind)k, 100);
        cset_make(&sets[k], &rb, w, self, nself, &r, nrand, nbis);
        check_queries(&rb, w, self, nself, &sets[k], work, wb);
    }

    check_motions(&rb, &worlds[RB_BOOKSHELF], self, nself, &sets[RB_BOOKSHELF], &r, work, wb, orc_count(150, mult, 15));

    check_bad_values(&rb, &worlds[RB_TABLE], self, nself, &sets[RB_TABLE], work, wb);
    check_arguments(&rb, &worlds[RB_TABLE], &sets[RB_TABLE]);
    printf("7. bad joint values (SATBOX_CONFIG_BAD, neighbours unchanged) and argument errors checked\n");

    satbox_isa_force(active);
    for (int k = 0; k <= RB_SCENE_COUNT; k++) {
        if (k < RB_SCENE_COUNT)
            world_free(&worlds[k]);
        free(sets[k].q), free(sets[k].sep);
    }
    free(work), free(rb.mem), free(gen.mem), free(lng.mem), free(big.mem);
    if (failures)
        printf("%d failures\n", failures);
    return failures ? 1 : 0;
}

/* test_stack.c - the physics test: a small sequential-impulse stepper stacks boxes with satbox_contacts_pairs. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_stack [--steps N] [--verbose]
 * A test fixture, not library API: rigid boxes with gravity, contact constraints (normal +
 * Coulomb friction on two tangents), warm starting matched by (pair, feature id), 60 Hz.
 * Scenes: a stack of 10 unit cubes and a 4-level pyramid of 10 cubes on a static ground slab,
 * 10 simulated seconds each. Passes when the top box drifts sideways by < 1% of its size and
 * no box sinks into its support by more than 2% of its height (sink = penetration along z at
 * the end; the absolute drop of every box is printed too).
 * Solver: 80 Gauss-Seidel sweeps a step, alternating direction, split-impulse position correction
 * (beta 0.2, slop 0.002), friction 0.6, speculative margin 0.02. A 10-high stack needs that many
 * sweeps without a block solver or substeps (20 sweeps leave it leaning: ~7-18% drift).
 * Knobs for experiments: TS_IT, TS_FR, TS_BETA, TS_SLOP, TS_N (stack height); TS_DEBUG, TS_TRACE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox.h"
#include "support.h"
#include "views.h"

static int failures = 0;

#include "check.h"
#include "scale.h"

#define MAXB 32
#define MAXP (MAXB * (MAXB - 1) / 2)

typedef struct body {
    double x[3], q[4], v[3], w[3]; /* position, orientation (x, y, z, w), velocities (world) */
    double vp[3], wp[3];           /* pseudo velocities of the position correction (split impulse) */
    double h[3], inv_m, inv_i[3];  /* half extents, inverse mass, inverse principal inertia */
    double R[3][3];                /* R[k][c]: world component c of local axis k */
} body;

typedef struct contact {
    int a, b;
    double p[3], n[3], depth;
    uint32_t feature;
    double t1[3], t2[3], ra[3], rb[3];
    double mn, mt1, mt2, target; /* effective masses, velocity target along n */
    double target_p, lp;         /* split impulse: pseudo-velocity target and impulse */
    double ln, lt1, lt2;         /* accumulated impulses */
} contact;

typedef struct world {
    int nb;
    body b[MAXB];
    /* warm-start cache per pair slot: last frame's feature ids and impulses */
    int np;
    satbox_pair pairs[MAXP];
    uint32_t prev_feat[MAXP][4];
    double prev_l[MAXP][4][3];
    int prev_n[MAXP];
} world;

static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void update_axes(body *bd)
{
    double x = bd->q[0], y = bd->q[1], z = bd->q[2], w = bd->q[3];
    bd->R[0][0] = 1 - 2 * (y * y + z * z), bd->R[0][1] = 2 * (x * y + w * z), bd->R[0][2] = 2 * (x * z - w * y);
    bd->R[1][0] = 2 * (x * y - w * z), bd->R[1][1] = 1 - 2 * (x * x + z * z), bd->R[1][2] = 2 * (y * z + w * x);
    bd->R[2][0] = 2 * (x * z + w * y), bd->R[2][1] = 2 * (y * z - w * x), bd->R[2][2] = 1 - 2 * (x * x + y * y);
}

/* World inverse inertia times v: R^T diag(inv_i) R v, with R's rows the local axes. */
static void inv_inertia(const body *bd, const double v[3], double o[3])
{
    double l[3];
    for (int k = 0; k < 3; k++)
        l[k] = dot(bd->R[k], v) * bd->inv_i[k];
    for (int c = 0; c < 3; c++)
        o[c] = bd->R[0][c] * l[0] + bd->R[1][c] * l[1] + bd->R[2][c] * l[2];
}

static void add_box(world *wd, double x, double y, double z, double hx, double hy, double hz, double mass)
{
    body *bd = &wd->b[wd->nb++];
    memset(bd, 0, sizeof *bd);
    bd->x[0] = x, bd->x[1] = y, bd->x[2] = z;
    bd->q[3] = 1;
    bd->h[0] = hx, bd->h[1] = hy, bd->h[2] = hz;
    if (mass > 0) {
        bd->inv_m = 1 / mass;
        double sx = 4 * hx * hx, sy = 4 * hy * hy, sz = 4 * hz * hz;
        bd->inv_i[0] = 12 / (mass * (sy + sz));
        bd->inv_i[1] = 12 / (mass * (sx + sz));
        bd->inv_i[2] = 12 / (mass * (sx + sy));
    }
    update_axes(bd);
}

static void finish_world(world *wd)
{
    wd->np = 0;
    for (int i = 0; i < wd->nb; i++)
        for (int j = i + 1; j < wd->nb; j++)
            if (wd->b[i].inv_m > 0 || wd->b[j].inv_m > 0)
                wd->pairs[wd->np++] = (satbox_pair){(uint32_t)i, (uint32_t)j};
    memset(wd->prev_n, 0, sizeof wd->prev_n);
}

static double point_vel_dot(const body *bd, const double r[3], const double d[3], int pseudo)
{
    const double *v = pseudo ? bd->vp : bd->v, *w = pseudo ? bd->wp : bd->w;
    double wr[3];
    cross(w, r, wr);
    return (v[0] + wr[0]) * d[0] + (v[1] + wr[1]) * d[1] + (v[2] + wr[2]) * d[2];
}

static double eff_mass(const body *A, const body *B, const double ra[3], const double rb[3], const double d[3])
{
    double c[3], ic[3], k = A->inv_m + B->inv_m;
    cross(ra, d, c);
    inv_inertia(A, c, ic);
    k += dot(c, ic);
    cross(rb, d, c);
    inv_inertia(B, c, ic);
    k += dot(c, ic);
    return k > 0 ? 1 / k : 0;
}

static void apply_to(body *A, body *B, const double ra[3], const double rb[3], const double d[3], double l, int pseudo)
{
    double P[3] = {d[0] * l, d[1] * l, d[2] * l}, c[3], ic[3];
    double *va = pseudo ? A->vp : A->v, *wa = pseudo ? A->wp : A->w;
    double *vb = pseudo ? B->vp : B->v, *wb = pseudo ? B->wp : B->w;
    for (int k = 0; k < 3; k++) {
        va[k] -= P[k] * A->inv_m;
        vb[k] += P[k] * B->inv_m;
    }
    cross(ra, P, c);
    inv_inertia(A, c, ic);
    for (int k = 0; k < 3; k++)
        wa[k] -= ic[k];
    cross(rb, P, c);
    inv_inertia(B, c, ic);
    for (int k = 0; k < 3; k++)
        wb[k] += ic[k];
}

static void apply(body *A, body *B, const double ra[3], const double rb[3], const double d[3], double l)
{
    apply_to(A, B, ra, rb, d, l, 0);
}

typedef struct params {
    double dt, gravity, friction, beta, slop_rel, margin_rel;
    int iterations;
    int warm; /* 1: warm start by feature id; 0: cold (for comparison) */
} params;

static contact cs[MAXP * 4];
static long warm_hits, warm_total;

/* One step: contacts through satbox_contacts_pairs, warm start, iterate, integrate. */
static int step(world *wd, const params *pr, int *ncontacts)
{
    float pool[15][MAXB];
    satbox_boxes view;
    for (int i = 0; i < wd->nb; i++) {
        const body *bd = &wd->b[i];
        for (int c = 0; c < 3; c++) {
            pool[c][i] = (float)bd->x[c];
            pool[3 + c][i] = (float)bd->h[c];
            for (int k = 0; k < 3; k++)
                pool[6 + 3 * k + c][i] = (float)bd->R[k][c];
        }
    }
    for (int f = 0; f < TB_BOX_FIELDS; f++)
        *tb_boxes_slot(&view, f) = pool[f];
    static uint8_t count[MAXP], hit[MAXP], axis[MAXP];
    static float nrm[3][MAXP], pt[4][3][MAXP], dep[4][MAXP];
    static uint32_t feat[4][MAXP], list[MAXP];
    satbox_contacts_out out = {.count = count, .hit = hit, .axis = axis, .normal = {nrm[0], nrm[1], nrm[2]}};
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            out.point[k][c] = pt[k][c];
        out.depth[k] = dep[k];
        out.feature[k] = feat[k];
    }
    double margin = pr->margin_rel; /* boxes are about unit size */
    ptrdiff_t nhit = satbox_contacts_pairs(&view, (size_t)wd->nb, wd->pairs, (size_t)wd->np, (float)margin, &out, list);
    if (nhit < 0)
        return -1;

    /* gravity */
    for (int i = 0; i < wd->nb; i++)
        if (wd->b[i].inv_m > 0)
            wd->b[i].v[2] -= pr->gravity * pr->dt;

    int nc = 0;
    for (ptrdiff_t h = 0; h < nhit; h++) {
        int pi = (int)list[h];
        if (getenv("TS_DEBUG") && count[pi] != 4)
            printf("pair %d-%d: count %d axis %d n (%g %g %g) f %08x %08x depth %g %g\n", wd->pairs[pi].a,
                   wd->pairs[pi].b, count[pi], axis[pi], nrm[0][pi], nrm[1][pi], nrm[2][pi], feat[0][pi], feat[1][pi],
                   dep[0][pi], dep[1][pi]);
        body *A = &wd->b[wd->pairs[pi].a], *B = &wd->b[wd->pairs[pi].b];
        for (int k = 0; k < count[pi]; k++) {
            contact *c = &cs[nc++];
            c->a = (int)wd->pairs[pi].a;
            c->b = (int)wd->pairs[pi].b;
            for (int d = 0; d < 3; d++) {
                c->n[d] = nrm[d][pi];
                c->p[d] = pt[k][d][pi];
                c->ra[d] = c->p[d] - A->x[d];
                c->rb[d] = c->p[d] - B->x[d];
            }
            c->depth = dep[k][pi];
            warm_total++;
            c->feature = feat[k][pi];
            double ax[3] = {1, 0, 0};
            if (fabs(c->n[0]) > 0.57)
                ax[0] = 0, ax[1] = 1;
            cross(c->n, ax, c->t1);
            double l = sqrt(dot(c->t1, c->t1));
            for (int d = 0; d < 3; d++)
                c->t1[d] /= l;
            cross(c->n, c->t1, c->t2);
            c->mn = eff_mass(A, B, c->ra, c->rb, c->n);
            c->mt1 = eff_mass(A, B, c->ra, c->rb, c->t1);
            c->mt2 = eff_mass(A, B, c->ra, c->rb, c->t2);
            double slop = pr->slop_rel;
            /* speculative (depth < 0): may close the gap this step; penetration beyond the slop is
             * pushed out by pseudo velocities that move positions only (split impulse) */
            c->target = c->depth < 0 ? c->depth / pr->dt : 0;
            c->target_p = c->depth > slop ? pr->beta * (c->depth - slop) / pr->dt : 0;
            c->lp = 0;
            /* warm start: last frame's impulses of the same pair and feature id */
            c->ln = c->lt1 = c->lt2 = 0;
            for (int m = 0; m < wd->prev_n[pi] * pr->warm; m++)
                if (wd->prev_feat[pi][m] == c->feature) {
                    warm_hits++;
                    c->ln = wd->prev_l[pi][m][0];
                    c->lt1 = wd->prev_l[pi][m][1];
                    c->lt2 = wd->prev_l[pi][m][2];
                }
            if (getenv("TS_DEBUG") && c->ln == 0) {
                printf("miss pair %d-%d f %08x depth %g, prev:", c->a, c->b, c->feature, c->depth);
                for (int m = 0; m < wd->prev_n[pi]; m++)
                    printf(" %08x", wd->prev_feat[pi][m]);
                printf("\n");
            }
            apply(A, B, c->ra, c->rb, c->n, c->ln);
            apply(A, B, c->ra, c->rb, c->t1, c->lt1);
            apply(A, B, c->ra, c->rb, c->t2, c->lt2);
        }
    }
    for (int it = 0; it < pr->iterations; it++)
        for (int ii = 0; ii < nc; ii++) {
            /* sweep forwards on even iterations, backwards on odd ones: a one-way sweep leaves a
             * one-sided residual (a torque) in tall stacks */
            contact *c = &cs[(it & 1) ? nc - 1 - ii : ii];
            body *A = &wd->b[c->a], *B = &wd->b[c->b];
            /* friction first, bounded by the current normal impulse */
            double lim = pr->friction * c->ln;
            for (int t = 0; t < 2; t++) {
                const double *td = t ? c->t2 : c->t1;
                double *acc = t ? &c->lt2 : &c->lt1, mt = t ? c->mt2 : c->mt1;
                double vt = point_vel_dot(B, c->rb, td, 0) - point_vel_dot(A, c->ra, td, 0);
                double nl = *acc - vt * mt;
                nl = nl > lim ? lim : (nl < -lim ? -lim : nl);
                apply(A, B, c->ra, c->rb, td, nl - *acc);
                *acc = nl;
            }
            double vn = point_vel_dot(B, c->rb, c->n, 0) - point_vel_dot(A, c->ra, c->n, 0);
            double nl = c->ln + (c->target - vn) * c->mn;
            nl = nl < 0 ? 0 : nl;
            apply(A, B, c->ra, c->rb, c->n, nl - c->ln);
            c->ln = nl;
        }
    for (int i = 0; i < wd->nb; i++)
        memset(wd->b[i].vp, 0, sizeof wd->b[i].vp), memset(wd->b[i].wp, 0, sizeof wd->b[i].wp);
    for (int it = 0; it < pr->iterations; it++)
        for (int ii = 0; ii < nc; ii++) {
            contact *c = &cs[(it & 1) ? nc - 1 - ii : ii];
            if (c->target_p == 0)
                continue;
            body *A = &wd->b[c->a], *B = &wd->b[c->b];
            double vn = point_vel_dot(B, c->rb, c->n, 1) - point_vel_dot(A, c->ra, c->n, 1);
            double nl = c->lp + (c->target_p - vn) * c->mn;
            nl = nl < 0 ? 0 : nl;
            apply_to(A, B, c->ra, c->rb, c->n, nl - c->lp, 1);
            c->lp = nl;
        }
    /* store impulses for the next frame's warm start */
    memset(wd->prev_n, 0, sizeof wd->prev_n);
    for (int i = 0; i < nc; i++) {
        const contact *c = &cs[i];
        for (int pi = 0; pi < wd->np; pi++)
            if ((int)wd->pairs[pi].a == c->a && (int)wd->pairs[pi].b == c->b && wd->prev_n[pi] < 4) {
                int m = wd->prev_n[pi]++;
                wd->prev_feat[pi][m] = c->feature;
                wd->prev_l[pi][m][0] = c->ln;
                wd->prev_l[pi][m][1] = c->lt1;
                wd->prev_l[pi][m][2] = c->lt2;
            }
    }
    /* integrate */
    for (int i = 0; i < wd->nb; i++) {
        body *bd = &wd->b[i];
        if (bd->inv_m == 0)
            continue;
        double w[3];
        for (int d = 0; d < 3; d++) {
            bd->x[d] += (bd->v[d] + bd->vp[d]) * pr->dt;
            w[d] = bd->w[d] + bd->wp[d];
        }
        double *q = bd->q, h = 0.5 * pr->dt;
        double dq[4] = {h * (w[0] * q[3] + w[1] * q[2] - w[2] * q[1]), h * (w[1] * q[3] + w[2] * q[0] - w[0] * q[2]),
                        h * (w[2] * q[3] + w[0] * q[1] - w[1] * q[0]), h * (-w[0] * q[0] - w[1] * q[1] - w[2] * q[2])};
        double l = 0;
        for (int d = 0; d < 4; d++) {
            q[d] += dq[d];
            l += q[d] * q[d];
        }
        l = sqrt(l);
        for (int d = 0; d < 4; d++)
            q[d] /= l;
        update_axes(bd);
    }
    *ncontacts = nc;
    return 0;
}

typedef struct report {
    double drift, sink, drop;
    int top, contacts;
} report;

/* Runs `steps` steps; measures the top box's sideways drift, each box's penetration into what
 * is under it (sink) and its absolute drop, relative to its size. */
static report run(world *wd, const params *pr, int steps, int top, int verbose)
{
    double x0[MAXB][3];
    for (int i = 0; i < wd->nb; i++)
        memcpy(x0[i], wd->b[i].x, sizeof x0[i]);
    report rp = {0, 0, 0, top, 0};
    for (int s = 0; s < steps; s++) {
        int nc = 0;
        if (step(wd, pr, &nc) < 0) {
            CHECK(0, "satbox_contacts_pairs failed");
            return rp;
        }
        rp.contacts = nc;
        if (getenv("TS_TRACE") && s < 40)
            printf("step %d top (%.7f %.7f %.7f) w (%.2e %.2e %.2e)\n", s, wd->b[top].x[0], wd->b[top].x[1],
                   wd->b[top].x[2], wd->b[top].w[0], wd->b[top].w[1], wd->b[top].w[2]);
        if (verbose && s % 60 == 59) {
            printf("    t=%4.1fs top at (%.5f %.5f %.5f), %d contacts, %ld of %ld warm started\n", (s + 1) * pr->dt,
                   wd->b[top].x[0], wd->b[top].x[1], wd->b[top].x[2], nc, warm_hits, warm_total);
            warm_hits = warm_total = 0;
        }
    }
    const body *t = &wd->b[top];
    rp.drift = sqrt((t->x[0] - x0[top][0]) * (t->x[0] - x0[top][0]) + (t->x[1] - x0[top][1]) * (t->x[1] - x0[top][1])) /
               (2 * t->h[0]);
    for (int i = 0; i < wd->nb; i++) {
        const body *bd = &wd->b[i];
        if (bd->inv_m == 0)
            continue;
        /* support: the highest top face below this box's center among overlapping bodies (in xy) */
        double bottom = bd->x[2] - bd->h[2], support = -1e30;
        for (int j = 0; j < wd->nb; j++) {
            const body *o = &wd->b[j];
            if (j == i || o->x[2] >= bd->x[2])
                continue;
            if (fabs(o->x[0] - bd->x[0]) < o->h[0] + bd->h[0] && fabs(o->x[1] - bd->x[1]) < o->h[1] + bd->h[1])
                support = fmax(support, o->x[2] + o->h[2]);
        }
        double sink = (support - bottom) / (2 * bd->h[2]);
        double drop = (x0[i][2] - bd->x[2]) / (2 * bd->h[2]);
        rp.sink = fmax(rp.sink, sink);
        rp.drop = fmax(rp.drop, drop);
    }
    return rp;
}

/* A floor and `height` unit cubes, each resting exactly on the one below. */
static void build_stack(world *wd, int height)
{
    memset(wd, 0, sizeof *wd);
    add_box(wd, 0, 0, -0.5, 20, 20, 0.5, 0);
    for (int i = 0; i < height; i++)
        add_box(wd, 0, 0, 0.5 + i, 0.5, 0.5, 0.5, 1.0);
    finish_world(wd);
}

/* Prints one scene's report under `title` and holds it to the bounds: the top box drifts
 * less than 1% of its size, no box sinks 2% of its height, and the boxes still touch at the end
 * (a scene whose boxes fell through each other has no drift and no sink to show, only no contacts). */
static void judge(const char *title, const char *name, report r)
{
    printf("%-16s top drift %.4f%% of its size, largest sink %.4f%% of a height, largest drop %.4f%%, "
           "%d contacts at the end\n",
           title, 100 * r.drift, 100 * r.sink, 100 * r.drop, r.contacts);
    CHECK(r.drift < 0.01, "%s: top box drifted %.3f%% of its size", name, 100 * r.drift);
    CHECK(r.sink < 0.02, "%s: a box sank %.3f%% of its height", name, 100 * r.sink);
    CHECK(r.contacts > 0, "%s: no contact at the end", name);
}

int main(int argc, char **argv)
{
    tb_require_isa(); /* exit 77 when SATBOX_ISA names a path this machine lacks */
    /* 600 steps (10 s), fewer only below scale 0.015 (scale.h; valgrind's 0.003: 120). */
    int steps = (int)(scaled(40000) < 600 ? scaled(40000) : 600), verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
    }
    params pr = {.dt = 1.0 / 60, .gravity = 9.81, .friction = 0.6, .beta = 0.2, .slop_rel = 0.002, .warm = 1,
                 .margin_rel = 0.02, .iterations = 80}; if (getenv("TS_IT")) pr.iterations = atoi(getenv("TS_IT")); if (getenv("TS_FR")) pr.friction = atof(getenv("TS_FR")); if (getenv("TS_BETA")) pr.beta = atof(getenv("TS_BETA")); if (getenv("TS_SLOP")) pr.slop_rel = atof(getenv("TS_SLOP"));
    printf("path %s, %d steps at 60 Hz, %d iterations, friction %.1f, slop %.3f, margin %.2f\n",
           satbox_isa_name(satbox_isa_active()), steps, pr.iterations, pr.friction, pr.slop_rel, pr.margin_rel);

    static world wd;
    /* a stack of 10 unit cubes, each resting exactly on the one below */
    int height = getenv("TS_N") ? atoi(getenv("TS_N")) : 10;
    build_stack(&wd, height);
    judge("stack of 10:", "stack", run(&wd, &pr, steps, height, verbose));

    /* the same stack without warm starting: how much the feature ids matter (printed only) */
    params cold = pr;
    cold.warm = 0;
    build_stack(&wd, height);
    report ac = run(&wd, &cold, steps, height, 0);
    printf("  (same stack, no warm start: top drift %.4f%%, largest sink %.4f%%)\n", 100 * ac.drift, 100 * ac.sink);

    /* a 4-level pyramid: 4, 3, 2, 1 unit cubes, 0.05 apart in a row, each upper box on two */
    memset(&wd, 0, sizeof wd);
    add_box(&wd, 0, 0, -0.5, 20, 20, 0.5, 0);
    int top = 0;
    for (int level = 0; level < 4; level++)
        for (int i = 0; i < 4 - level; i++) {
            double x = (i - (3 - level) * 0.5) * 1.05;
            add_box(&wd, x, 0, 0.5 + level, 0.5, 0.5, 0.5, 1.0);
            top = wd.nb - 1;
        }
    finish_world(&wd);
    judge("pyramid of 4:", "pyramid", run(&wd, &pr, steps, top, verbose));
    printf("%s: %d failures\n", failures ? "FAIL" : "OK", failures);
    return failures ? 1 : 0;
}

/* world2d_stack.c - a tower of 10 rectangles and a 10-row pyramid under gravity, resting on satbox2d's contact manifolds with a small sequential-impulse solver. */
/* SPDX-License-Identifier: MIT */
/* Usage: world2d_stack [--seconds T] [--verbose]
 * The solver is written here for the test (no engine): per step, the pairs whose bounding boxes
 * (grown by the margin) meet go to satbox2d_contacts_pairs() (margin 0.02: speculative contacts);
 * each point is a non-penetration constraint along the manifold normal with Coulomb friction,
 * solved by sequential impulses (30 iterations; with 10 the tower leans by 0.09 of a box in 4 s; the
 * normal impulses of a manifold's two points as one 2x2 complementarity problem), warm started from the previous step's impulses
 * of the point with the same pair and feature id, with a Baumgarte bias of 0.2 beyond a slop of
 * 0.005 and the speculative rule (a point at separation s > 0 lets the shapes approach by s this
 * step). Semi-implicit Euler, dt = 1/60, gravity 10.
 * Boxes are 1 x 1 (the tower) and 1 x 1 spaced 1.05 apart (the pyramid), placed touching. After
 * the simulated time (12 s by default) every box must rest: its center within 2% of its size of
 * where it started (sinking into the slop included), turned less than 0.02 rad, and slower than
 * 0.05 size/s; none may have fallen (below its start by more than the drift bound); and the drift
 * at the end may not exceed the drift at a third of the time (no creep). The largest
 * drift, turn and speed are printed. The feature ids are what makes warm starting work: the run
 * is repeated without warm starting and must then settle worse (a larger drift), so the ids are
 * shown to carry over from step to step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox2d.h"

#define MAXB 80
#define DT (1.0f / 60.0f)
#define ITERS 30
#define MARGIN 0.02f
#define SLOP 0.005f
#define BETA 0.2f
#define FRICTION 0.6f

typedef struct body {
    float x, y, a;       /* center, angle */
    float vx, vy, w;     /* velocity, angular velocity */
    float hx, hy;        /* half extents */
    float im, ii;        /* inverse mass, inverse inertia (0: static) */
    float x0, y0, a0;    /* start */
} body;

typedef struct world {
    int n;
    body b[MAXB];
    /* warm starting: per ordered pair (i, j), the previous step's points (id, normal and
     * tangent impulses) */
    struct cache {
        int count;
        uint32_t id[2];
        float pn[2], pt[2];
    } cache[MAXB * MAXB];
    int warm;
} world;

static void add_box(world *wd, float x, float y, float hx, float hy, int dynamic)
{
    body *b = &wd->b[wd->n++];
    memset(b, 0, sizeof *b);
    b->x = b->x0 = x;
    b->y = b->y0 = y;
    b->hx = hx;
    b->hy = hy;
    if (dynamic) {
        float m = 4.0f * hx * hy;
        b->im = 1.0f / m;
        b->ii = 12.0f / (m * (4.0f * hx * hx + 4.0f * hy * hy));
    }
}

/* A contact point of this step, with its solver state. */
typedef struct cpoint {
    int i, j;          /* bodies A, B */
    float nx, ny;      /* normal A to B */
    float rax, ray, rbx, rby;
    float mn, mt;      /* effective masses */
    float bias;        /* target normal velocity */
    float pn, pt;      /* accumulated impulses */
    uint32_t id;
} cpoint;

static float cross(float ax, float ay, float bx, float by) { return ax * by - ay * bx; }

static void apply(world *wd, const cpoint *c, float px, float py)
{
    body *a = &wd->b[c->i], *b = &wd->b[c->j];
    a->vx -= a->im * px;
    a->vy -= a->im * py;
    a->w -= a->ii * cross(c->rax, c->ray, px, py);
    b->vx += b->im * px;
    b->vy += b->im * py;
    b->w += b->ii * cross(c->rbx, c->rby, px, py);
}

/* Relative velocity of B's point against A's at the contact. */
static void rel_vel(const world *wd, const cpoint *c, float *vx, float *vy)
{
    const body *a = &wd->b[c->i], *b = &wd->b[c->j];
    *vx = (b->vx - b->w * c->rby) - (a->vx - a->w * c->ray);
    *vy = (b->vy + b->w * c->rbx) - (a->vy + a->w * c->rax);
}

/* The normal impulses of a manifold's two points solved together: the 2x2 linear complementarity
 * problem x >= 0, w = K x + b >= 0, x . w = 0 (K the points' coupled effective mass matrix, b the
 * normal velocities less the bias at the present impulses), by trying its four cases in turn (both
 * points pushing, the first only, the second only, none). A stack's box resting on two corners
 * then gets both impulses at once instead of seesawing between them. Returns 0 (the caller solves
 * the points one by one) when K is nearly singular or no case holds. */
static int block_normal(world *wd, cpoint *c1, cpoint *c2)
{
    const body *a = &wd->b[c1->i], *b = &wd->b[c1->j];
    float r1a = cross(c1->rax, c1->ray, c1->nx, c1->ny), r1b = cross(c1->rbx, c1->rby, c1->nx, c1->ny);
    float r2a = cross(c2->rax, c2->ray, c2->nx, c2->ny), r2b = cross(c2->rbx, c2->rby, c2->nx, c2->ny);
    float m = a->im + b->im;
    float k11 = m + a->ii * r1a * r1a + b->ii * r1b * r1b, k22 = m + a->ii * r2a * r2a + b->ii * r2b * r2b;
    float k12 = m + a->ii * r1a * r2a + b->ii * r1b * r2b;
    float det = k11 * k22 - k12 * k12;
    if (!(det > 1e-3f * k11 * k22))
        return 0;
    float v1x, v1y, v2x, v2y;
    rel_vel(wd, c1, &v1x, &v1y);
    rel_vel(wd, c2, &v2x, &v2y);
    float p1 = c1->pn, p2 = c2->pn;
    /* b = vn - bias - K p: the velocities the present impulses would give without them */
    float b1 = (v1x * c1->nx + v1y * c1->ny) - c1->bias - (k11 * p1 + k12 * p2);
    float b2 = (v2x * c2->nx + v2y * c2->ny) - c2->bias - (k12 * p1 + k22 * p2);
    float x1, x2;
    x1 = -(k22 * b1 - k12 * b2) / det; /* both pushing: K x = -b */
    x2 = -(k11 * b2 - k12 * b1) / det;
    if (!(x1 >= 0 && x2 >= 0)) {
        x1 = -b1 / k11, x2 = 0; /* the first only: w2 = k12 x1 + b2 >= 0 */
        if (!(x1 >= 0 && k12 * x1 + b2 >= 0)) {
            x1 = 0, x2 = -b2 / k22; /* the second only */
            if (!(x2 >= 0 && k12 * x2 + b1 >= 0)) {
                x1 = x2 = 0; /* none: both separating */
                if (!(b1 >= 0 && b2 >= 0))
                    return 0;
            }
        }
    }
    float d1 = x1 - p1, d2 = x2 - p2;
    c1->pn = x1;
    c2->pn = x2;
    apply(wd, c1, d1 * c1->nx, d1 * c1->ny);
    apply(wd, c2, d2 * c2->nx, d2 * c2->ny);
    return 1;
}

static int step(world *wd, cpoint *cp, int maxcp)
{
    int n = wd->n;
    /* Gravity. */
    for (int k = 0; k < n; k++)
        if (wd->b[k].im > 0)
            wd->b[k].vy -= 10.0f * DT;
    /* Pool of rectangles and the pairs whose grown bounding boxes meet. */
    static float cx[MAXB], cy[MAXB], h0[MAXB], h1[MAXB], cs[MAXB], sn[MAXB];
    static satbox_pair pairs[MAXB * MAXB];
    static satbox2d_manifold man[MAXB * MAXB];
    float ex[MAXB], ey[MAXB];
    for (int k = 0; k < n; k++) {
        body *b = &wd->b[k];
        cx[k] = b->x, cy[k] = b->y, h0[k] = b->hx, h1[k] = b->hy, cs[k] = cosf(b->a), sn[k] = sinf(b->a);
        ex[k] = fabsf(cs[k]) * b->hx + fabsf(sn[k]) * b->hy + MARGIN;
        ey[k] = fabsf(sn[k]) * b->hx + fabsf(cs[k]) * b->hy + MARGIN;
    }
    size_t np = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((wd->b[i].im > 0 || wd->b[j].im > 0) && fabsf(cx[i] - cx[j]) <= ex[i] + ex[j] &&
                fabsf(cy[i] - cy[j]) <= ey[i] + ey[j])
                pairs[np++] = (satbox_pair){(uint32_t)i, (uint32_t)j};
    satbox2d_rects pool = {.center = {cx, cy}, .half = {h0, h1}, .axis = {cs, sn}};
    ptrdiff_t r = satbox2d_contacts_pairs(&pool, (size_t)n, pairs, np, MARGIN, man);
    if (r < 0) {
        printf("FAIL: satbox2d_contacts_pairs returned %td\n", r);
        exit(1);
    }
    /* Contact points, warm started by feature id. */
    int nc = 0;
    static struct cache fresh[MAXB * MAXB];
    for (size_t q = 0; q < np; q++) {
        int i = (int)pairs[q].a, j = (int)pairs[q].b;
        const satbox2d_manifold *m = &man[q];
        struct cache *old = &wd->cache[i * MAXB + j], *nw = &fresh[i * MAXB + j];
        nw->count = 0;
        for (int k = 0; k < m->count && nc < maxcp; k++) {
            cpoint *c = &cp[nc++];
            const body *a = &wd->b[i], *b = &wd->b[j];
            c->i = i, c->j = j;
            c->nx = m->normal[0], c->ny = m->normal[1];
            c->rax = m->point[k].x - a->x, c->ray = m->point[k].y - a->y;
            c->rbx = m->point[k].x - b->x, c->rby = m->point[k].y - b->y;
            float tx = -c->ny, ty = c->nx;
            float rna = cross(c->rax, c->ray, c->nx, c->ny), rnb = cross(c->rbx, c->rby, c->nx, c->ny);
            float rta = cross(c->rax, c->ray, tx, ty), rtb = cross(c->rbx, c->rby, tx, ty);
            c->mn = 1.0f / (a->im + b->im + a->ii * rna * rna + b->ii * rnb * rnb);
            c->mt = 1.0f / (a->im + b->im + a->ii * rta * rta + b->ii * rtb * rtb);
            float s = m->point[k].separation;
            c->bias = s > 0 ? -s / DT : -BETA / DT * fminf(0.0f, s + SLOP);
            c->id = m->point[k].id;
            c->pn = c->pt = 0;
            for (int o = 0; wd->warm && o < old->count; o++)
                if (old->id[o] == c->id) {
                    c->pn = old->pn[o];
                    c->pt = old->pt[o];
                }
            apply(wd, c, c->pn * c->nx + c->pt * tx, c->pn * c->ny + c->pt * ty);
        }
    }
    /* Sequential impulses: friction point by point, then the normal impulses, the two points of
     * one manifold together (block_normal) and a single point alone. */
    for (int it = 0; it < ITERS; it++)
        for (int k = 0; k < nc;) {
            int two = k + 1 < nc && cp[k + 1].i == cp[k].i && cp[k + 1].j == cp[k].j;
            for (int q = k; q < k + 1 + two; q++) {
                cpoint *c = &cp[q];
                float tx = -c->ny, ty = c->nx, vx, vy;
                rel_vel(wd, c, &vx, &vy);
                float vt = vx * tx + vy * ty;
                float dt = -c->mt * vt, lim = FRICTION * c->pn;
                float pt = fmaxf(-lim, fminf(lim, c->pt + dt));
                dt = pt - c->pt;
                c->pt = pt;
                apply(wd, c, dt * tx, dt * ty);
            }
            if (!two || !block_normal(wd, &cp[k], &cp[k + 1]))
                for (int q = k; q < k + 1 + two; q++) {
                    cpoint *c = &cp[q];
                    float vx, vy;
                    rel_vel(wd, c, &vx, &vy);
                    float vn = vx * c->nx + vy * c->ny;
                    float pn = fmaxf(0.0f, c->pn + c->mn * (c->bias - vn));
                    float dn = pn - c->pn;
                    c->pn = pn;
                    apply(wd, c, dn * c->nx, dn * c->ny);
                }
            k += 1 + two;
        }
    /* Store the impulses for the next step, by pair and feature id. */
    for (size_t q = 0; q < np; q++)
        fresh[pairs[q].a * MAXB + pairs[q].b].count = 0;
    for (int k = 0; k < nc; k++) {
        struct cache *nw = &fresh[cp[k].i * MAXB + cp[k].j];
        nw->id[nw->count] = cp[k].id;
        nw->pn[nw->count] = cp[k].pn;
        nw->pt[nw->count] = cp[k].pt;
        nw->count++;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            wd->cache[i * MAXB + j].count = 0;
    for (size_t q = 0; q < np; q++)
        wd->cache[pairs[q].a * MAXB + pairs[q].b] = fresh[pairs[q].a * MAXB + pairs[q].b];
    /* Integrate. */
    for (int k = 0; k < n; k++) {
        body *b = &wd->b[k];
        b->x += b->vx * DT;
        b->y += b->vy * DT;
        b->a += b->w * DT;
    }
    return nc;
}

typedef struct result {
    float drift, turn, speed, fell; /* worst over the dynamic boxes (drift, fell in box sizes) */
} result;

static result simulate(float seconds, int warm, int verbose)
{
    static world wd;
    static cpoint cp[4 * MAXB * 4];
    memset(&wd, 0, sizeof wd);
    wd.warm = warm;
    add_box(&wd, 0.0f, -0.5f, 40.0f, 0.5f, 0); /* ground, top at y = 0 */
    for (int k = 0; k < 10; k++)            /* the tower at x = -10 */
        add_box(&wd, -10.0f, 0.5f + (float)k, 0.5f, 0.5f, 1);
    for (int row = 0; row < 10; row++)      /* the pyramid at x = 10 */
        for (int k = 0; k < 10 - row; k++)
            add_box(&wd, 10.0f + 1.05f * ((float)k - 0.5f * (float)(9 - row)), 0.5f + (float)row, 0.5f, 0.5f, 1);
    int steps = (int)(seconds / DT + 0.5f), contacts = 0;
    for (int s = 0; s < steps; s++)
        contacts = step(&wd, cp, (int)(sizeof cp / sizeof cp[0]));
    result r = {0, 0, 0, 0};
    for (int k = 0; k < wd.n; k++) {
        const body *b = &wd.b[k];
        if (b->im == 0)
            continue;
        float size = 2.0f * b->hy;
        float d = hypotf(b->x - b->x0, b->y - b->y0) / size;
        r.drift = fmaxf(r.drift, d);
        r.turn = fmaxf(r.turn, fabsf(b->a - b->a0));
        r.speed = fmaxf(r.speed, (hypotf(b->vx, b->vy) + fabsf(b->w) * b->hx) / size);
        r.fell = fmaxf(r.fell, (b->y0 - b->y) / size);
        if (verbose)
            printf("  box %2d: moved (%+.4f, %+.4f), turned %+.5f\n", k, b->x - b->x0, b->y - b->y0, b->a - b->a0);
    }
    printf("%s warm starting: %d bodies, %d steps, %d contact points at the end; worst drift %.4f size, sunk %.4f size, "
           "turn %.5f rad, speed %.5f size/s\n",
           warm ? "with" : "without", wd.n - 1, steps, contacts, (double)r.drift, (double)r.fell, (double)r.turn,
           (double)r.speed);
    return r;
}

int main(int argc, char **argv)
{
    float seconds = 12.0f;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = (float)atof(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
    }
    printf("world2d_stack: path %s, %.1f s of simulated time\n", satbox_isa_name(satbox_isa_active()), (double)seconds);
    int failures = 0;
    result w = simulate(seconds, 1, verbose);
    if (!(w.drift <= 0.02f && w.turn <= 0.02f && w.speed <= 0.05f && w.fell <= 0.02f)) {
        printf("FAIL: the stacks do not rest (bounds: drift 0.02 size, turn 0.02 rad, speed 0.05 size/s)\n");
        failures++;
    }
    /* Held without growth (issue 34: the lean grew from 0.0099 at 4 s to 0.0164 at 12 s before the
     * two points of a manifold were solved together): the drift at the end no larger than at a
     * third of the time, but for 1e-4 of a size. */
    result early = simulate(seconds / 3.0f, 1, 0);
    if (!(w.drift <= early.drift + 1e-4f)) {
        printf("FAIL: the drift grows: %.4f at %.1f s, %.4f at %.1f s\n", (double)early.drift, (double)seconds / 3.0,
               (double)w.drift, (double)seconds);
        failures++;
    }
    result c = simulate(seconds, 0, 0);
    if (!(c.drift > w.drift)) {
        printf("FAIL: without warm starting the stacks settle as well (drift %.4f <= %.4f): the feature ids carry nothing\n",
               (double)c.drift, (double)w.drift);
        failures++;
    }
    printf("%d failures\n", failures);
    return failures ? 1 : 0;
}

/* support.c - test/bench support: seeded RNG, random box families, owning SoA arrays. */
/* SPDX-License-Identifier: MIT */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void tb_seed(tb_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tb_next(tb_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tb_unit(tb_rng *r) { return (double)(tb_next(r) >> 11) * (1.0 / 9007199254740992.0); }
double tb_range(tb_rng *r, double lo, double hi) { return lo + (hi - lo) * tb_unit(r); }

double tb_normal(tb_rng *r)
{
    double u = tb_unit(r), v = tb_unit(r);
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

const char *tb_family_name(tb_family f)
{
    static const char *names[TB_FAMILY_COUNT] = {"uniform", "stacked", "touching", "parallel",
                                                 "identical", "scales", "flat", "bad"};
    return (unsigned)f < TB_FAMILY_COUNT ? names[f] : "?";
}

/* Rotation matrix (columns = local axes in world) of the unit quaternion (x, y, z, w), in double. */
static void quat_to_axes(double x, double y, double z, double w, double m[3][3])
{
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y + w * z); m[0][2] = 2 * (x * z - w * y);
    m[1][0] = 2 * (x * y - w * z); m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z + w * x);
    m[2][0] = 2 * (x * z + w * y); m[2][1] = 2 * (y * z - w * x); m[2][2] = 1 - 2 * (x * x + y * y);
}

void tb_random_quat(tb_rng *r, double q[4])
{
    /* A normalised 4D Gaussian is uniform on the unit 3-sphere, hence a Haar-random rotation. */
    double n2 = 0;
    do {
        n2 = 0;
        for (int i = 0; i < 4; i++) {
            q[i] = tb_normal(r);
            n2 += q[i] * q[i];
        }
    } while (n2 < 1e-6);
    double inv = 1.0 / sqrt(n2);
    for (int i = 0; i < 4; i++)
        q[i] *= inv;
}

void tb_random_rotation(tb_rng *r, float axis[3][3])
{
    double q[4], m[3][3];
    tb_random_quat(r, q);
    quat_to_axes(q[0], q[1], q[2], q[3], m);
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = (float)m[k][c];
}

void tb_rotate(float axis[3][3], double x, double y, double z, double angle)
{
    double n = sqrt(x * x + y * y + z * z);
    if (n == 0)
        return;
    double s = sin(angle / 2) / n, m[3][3];
    quat_to_axes(x * s, y * s, z * s, cos(angle / 2), m);
    float in[3][3];
    memcpy(in, axis, sizeof in);
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            double v = 0;
            for (int l = 0; l < 3; l++)
                v += m[l][c] * in[k][l];
            axis[k][c] = (float)v;
        }
}

static void random_box(tb_rng *r, satbox_box *b, double lo, double hi)
{
    for (int k = 0; k < 3; k++)
        b->half[k] = (float)tb_range(r, lo, hi);
    tb_random_rotation(r, b->axis);
}

static double dot3(const float *a, const float *b)
{
    return (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
}

/* B's projected radius on A's face axis k (B's extent along uA_k), in double. */
static double radius_on(const satbox_box *a, const satbox_box *b, int k)
{
    double rb = 0;
    for (int j = 0; j < 3; j++)
        rb += b->half[j] * fabs(dot3(a->axis[k], b->axis[j]));
    return rb;
}

/* B's center = A's center + dist * uA_k + a lateral shift in the plane of face k, drawn once per
 * axis (not per world component, so that it stays in the plane and the gap along uA_k is set by
 * `dist` alone), uniform in +-lat * hA_l along each other axis l. */
static void place_on_face(tb_rng *r, const satbox_box *a, satbox_box *b, int k, double dist, double lat)
{
    double off[3] = {0, 0, 0};
    for (int l = 0; l < 3; l++)
        if (l != k)
            off[l] = tb_range(r, -lat, lat) * a->half[l];
    for (int c = 0; c < 3; c++) {
        double lateral = 0;
        for (int l = 0; l < 3; l++)
            lateral += a->axis[l][c] * off[l];
        b->center[c] = (float)(a->center[c] + dist * a->axis[k][c] + lateral);
    }
}

void tb_make_pair(tb_rng *r, tb_family f, satbox_box *a, satbox_box *b)
{
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    switch (f) {
    case TB_UNIFORM:
    case TB_SCALES:
    case TB_FLAT:
    case TB_BAD: {
        random_box(r, a, 0.1, 1.5);
        random_box(r, b, 0.1, 1.5);
        for (int c = 0; c < 3; c++) {
            a->center[c] = (float)tb_range(r, -10, 10);
            b->center[c] = (float)(a->center[c] + tb_range(r, -2.5, 2.5));
        }
        if (f == TB_SCALES) {
            double s = pow(10.0, tb_range(r, -3, 4));
            for (int c = 0; c < 3; c++) {
                a->center[c] = (float)(a->center[c] * s);
                b->center[c] = (float)(b->center[c] * s);
                a->half[c] = (float)(a->half[c] * s);
                b->half[c] = (float)(b->half[c] * s);
            }
        } else if (f == TB_FLAT) {
            int zeros = 1 + (int)(tb_next(r) % 3);
            for (int z = 0; z < zeros; z++) {
                satbox_box *x = (tb_next(r) & 1) ? a : b;
                x->half[tb_next(r) % 3] = 0.0f;
            }
        } else if (f == TB_BAD) {
            static const float bad[] = {NAN, INFINITY, -INFINITY, -1.0f, -0.0f, 1e30f, -1e30f, 3e38f};
            int hits = 1 + (int)(tb_next(r) % 2);
            for (int h = 0; h < hits; h++) {
                satbox_box *x = (tb_next(r) & 1) ? a : b;
                float *fields = (float *)x;
                /* One draw per statement: argument/operand order is unspecified in C, and the
                 * same seed must give the same boxes with every compiler. */
                uint64_t field = tb_next(r) % 15;
                fields[field] = bad[tb_next(r) % (sizeof bad / sizeof bad[0])];
            }
        }
        break;
    }
    case TB_STACKED: {
        random_box(r, a, 0.2, 1.5);
        for (int c = 0; c < 3; c++)
            a->center[c] = (float)tb_range(r, -10, 10);
        memcpy(b->axis, a->axis, sizeof b->axis);
        double ax = tb_normal(r), ay = tb_normal(r), az = tb_normal(r); /* in order: see above */
        tb_rotate(b->axis, ax, ay, az, tb_range(r, 0, 1e-3));
        int k = (int)(tb_next(r) % 3);
        double sgn = (tb_next(r) & 1) ? 1.0 : -1.0;
        for (int j = 0; j < 3; j++)
            b->half[j] = (float)tb_range(r, 0.2, 1.5);
        /* B's extent along uA_k, from its tilted axes, so that the gap along uA_k is `gap`. */
        double rb = radius_on(a, b, k);
        double gap = tb_range(r, -1e-3, 1e-3);
        double dist = a->half[k] + rb + gap;
        place_on_face(r, a, b, k, sgn * dist, 0.5);
        break;
    }
    case TB_TOUCHING: {
        random_box(r, a, 0.1, 1.5);
        random_box(r, b, 0.1, 1.5);
        for (int c = 0; c < 3; c++)
            a->center[c] = (float)tb_range(r, -10, 10);
        /* Move B along a random face axis of A so that this axis's gap is ~0 (+-1e-5). */
        int k = (int)(tb_next(r) % 3);
        double rb = radius_on(a, b, k);
        double sgn = (tb_next(r) & 1) ? 1 : -1;
        double dist = (a->half[k] + rb) * sgn + tb_range(r, -1e-5, 1e-5);
        place_on_face(r, a, b, k, dist, 1.0);
        break;
    }
    case TB_PARALLEL: {
        float rot[3][3];
        if (tb_next(r) & 1)
            tb_random_rotation(r, rot);
        else
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    rot[k][c] = k == c ? 1.0f : 0.0f;
        int perm = (int)(tb_next(r) % 3);
        for (int k = 0; k < 3; k++) {
            a->half[k] = (float)(0.5 * (1 + tb_next(r) % 3));
            b->half[k] = (float)(0.5 * (1 + tb_next(r) % 3));
            for (int c = 0; c < 3; c++) {
                a->axis[k][c] = rot[k][c];
                b->axis[k][c] = rot[(k + perm) % 3][c]; /* same frame, axes relabelled */
            }
        }
        for (int c = 0; c < 3; c++) {
            a->center[c] = (float)(0.5 * (double)(tb_next(r) % 9) - 2.0);
            b->center[c] = a->center[c];
        }
        /* Offsets along the shared axes on a half-unit grid: many exact touches. */
        for (int k = 0; k < 3; k++) {
            double off = 0.5 * (double)((int)(tb_next(r) % 13) - 6);
            for (int c = 0; c < 3; c++)
                b->center[c] = (float)(b->center[c] + off * rot[k][c]);
        }
        break;
    }
    case TB_IDENTICAL:
    default:
        random_box(r, a, 0.1, 1.5);
        for (int c = 0; c < 3; c++)
            a->center[c] = (float)tb_range(r, -10, 10);
        *b = *a;
        break;
    }
}

int tb_soa_alloc(tb_soa *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int a = 0; a < 15; a++) {
        if (n) {
            s->arrays[a] = (float *)malloc(n * sizeof(float));
            if (!s->arrays[a]) {
                tb_soa_free(s);
                return -1;
            }
        }
    }
    for (int c = 0; c < 3; c++) {
        s->view.center[c] = s->out.center[c] = s->arrays[c];
        s->view.half[c] = s->out.half[c] = s->arrays[3 + c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            s->view.axis[k][c] = s->out.axis[k][c] = s->arrays[6 + 3 * k + c];
    return 0;
}

void tb_soa_free(tb_soa *s)
{
    for (int a = 0; a < 15; a++)
        free(s->arrays[a]);
    memset(s, 0, sizeof *s);
}

void tb_soa_set(tb_soa *s, size_t i, const satbox_box *b)
{
    for (int c = 0; c < 3; c++) {
        s->arrays[c][i] = b->center[c];
        s->arrays[3 + c][i] = b->half[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            s->arrays[6 + 3 * k + c][i] = b->axis[k][c];
}

int tb_qsoa_alloc(tb_qsoa *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int a = 0; a < 10; a++) {
        if (n && !(s->arrays[a] = (float *)calloc(n, sizeof(float)))) {
            tb_qsoa_free(s);
            return -1;
        }
    }
    for (int c = 0; c < 3; c++) {
        s->view.center[c] = s->arrays[c];
        s->view.half[c] = s->arrays[3 + c];
    }
    for (int c = 0; c < 4; c++)
        s->view.quat[c] = s->arrays[6 + c];
    return 0;
}

void tb_qsoa_free(tb_qsoa *s)
{
    for (int a = 0; a < 10; a++)
        free(s->arrays[a]);
    memset(s, 0, sizeof *s);
}

void tb_qsoa_set(tb_qsoa *s, size_t i, const satbox_box *b, const float q[4])
{
    for (int c = 0; c < 3; c++) {
        s->arrays[c][i] = b->center[c];
        s->arrays[3 + c][i] = b->half[c];
    }
    for (int c = 0; c < 4; c++)
        s->arrays[6 + c][i] = q[c];
}

void tb_box_from(const satbox_boxes *v, size_t i, satbox_box *b)
{
    for (int c = 0; c < 3; c++) {
        b->center[c] = v->center[c][i];
        b->half[c] = v->half[c][i];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->axis[k][c] = v->axis[k][c][i];
}

void tb_soa_get(const tb_soa *s, size_t i, satbox_box *b) { tb_box_from(&s->view, i, b); }

/* ---- adversarial families of the precision tests (see support.h) ---------------------------- */

const char *tb_extra_name(tb_extra f)
{
    static const char *names[TB_X_COUNT] = {"nearpar", "edgepar", "stk_1e-3", "stk_1e4", "far"};
    return (unsigned)f < TB_X_COUNT ? names[f] : "?";
}

static void make_nearpar(tb_rng *r, satbox_box *a, satbox_box *b)
{
    tb_random_rotation(r, a->axis);
    memcpy(b->axis, a->axis, sizeof b->axis);
    double tilt = pow(10.0, tb_range(r, -7, -2)), sum = 0;
    double ax = tb_normal(r), ay = tb_normal(r), az = tb_normal(r); /* one draw per statement: same boxes on every compiler */
    tb_rotate(b->axis, ax, ay, az, tilt);
    for (int k = 0; k < 3; k++) {
        a->half[k] = (float)tb_range(r, 0.1, 1.5);
        b->half[k] = (float)tb_range(r, 0.1, 1.5);
        a->center[k] = (float)tb_range(r, -10, 10);
        sum += a->half[k] + b->half[k];
    }
    /* Offsets along A's axes: along i1 and i2 the face gaps are g1, g2 (ridge to ridge), along i
     * a lateral shift. */
    int i = (int)(tb_next(r) % 3);
    double off[3];
    for (int k = 0; k < 3; k++) {
        double rb = radius_on(a, b, k);
        double sgn = (tb_next(r) & 1) ? 1 : -1;
        off[k] = k == i ? tb_range(r, -1, 1) * (a->half[k] + b->half[k])
                        : sgn * (a->half[k] + rb + tb_range(r, -2, 2) * tilt * sum);
    }
    for (int c = 0; c < 3; c++) {
        double v = a->center[c];
        for (int k = 0; k < 3; k++)
            v += off[k] * a->axis[k][c];
        b->center[c] = (float)v;
    }
}

static void cross3d(const double *x, const double *y, double *o)
{
    o[0] = x[1] * y[2] - x[2] * y[1];
    o[1] = x[2] * y[0] - x[0] * y[2];
    o[2] = x[0] * y[1] - x[1] * y[0];
}

/* Edge i of A (at the corner of signs s1, s2 on axes i1, i2) and edge j of B, theta apart, built
 * in double: w, the unit outward direction of A's edge (inside the edge's normal cone), is their
 * cross product direction; B's edge direction is uA_i turned by theta about w; B's frame is turned
 * about that edge so that -w is inside B's edge cone. The edges cross (seen along w) at tauA, tauB
 * from their middles, and B is moved by `gap` along w. */
static void make_edgepar(tb_rng *r, satbox_box *a, satbox_box *b)
{
    tb_random_rotation(r, a->axis);
    double size = 0;
    for (int k = 0; k < 3; k++) {
        a->half[k] = (float)tb_range(r, 0.1, 1.5);
        b->half[k] = (float)tb_range(r, 0.1, 1.5);
        a->center[k] = (float)tb_range(r, -10, 10);
        size += (double)a->half[k] + b->half[k];
    }
    int i = (int)(tb_next(r) % 3), j = (int)(tb_next(r) % 3);
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    double s1 = (tb_next(r) & 1) ? 1 : -1, s2 = (tb_next(r) & 1) ? 1 : -1;
    double phi = tb_range(r, 0.05, 1.52), psi = tb_range(r, 0.05, 1.52);
    double theta = pow(10.0, tb_range(r, -6, -2));
    double tau_a = tb_range(r, -0.8, 0.8) * a->half[i], tau_b = tb_range(r, -0.8, 0.8) * b->half[j];
    /* Three pairs in four touch within +-1e-5 of the size (rounding decides); one in four is
     * placed within +-theta * size / 8, where the edge axis alone separates by more than its bound
     * B = 2^-19 S / |L| once theta exceeds a few 1e-3 (the face axes lean by ~theta * size). */
    double rel = (tb_next(r) & 3) ? 1e-5 : theta / 8;
    double gap = tb_range(r, -1, 1) * rel * size;
    double ua[3][3], w[3], wn = 0, wxu[3], e[3], p[3], q[3], ub[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            ua[k][c] = a->axis[k][c];
    for (int c = 0; c < 3; c++) {
        w[c] = cos(phi) * s1 * ua[i1][c] + sin(phi) * s2 * ua[i2][c];
        wn += w[c] * w[c];
    }
    for (int c = 0; c < 3; c++)
        w[c] /= sqrt(wn);
    cross3d(w, ua[i], wxu);
    for (int c = 0; c < 3; c++) {
        e[c] = cos(theta) * ua[i][c] + sin(theta) * wxu[c];
        p[c] = -w[c];
    }
    cross3d(e, p, q);
    for (int c = 0; c < 3; c++) {
        ub[j][c] = e[c];
        ub[j1][c] = cos(psi) * p[c] - sin(psi) * q[c];
        ub[j2][c] = sin(psi) * p[c] + cos(psi) * q[c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            b->axis[k][c] = (float)ub[k][c];
    for (int c = 0; c < 3; c++) {
        double xa = a->center[c] + s1 * a->half[i1] * ua[i1][c] + s2 * a->half[i2] * ua[i2][c] + tau_a * ua[i][c];
        b->center[c] = (float)(xa + gap * w[c] - tau_b * e[c] - b->half[j1] * ub[j1][c] - b->half[j2] * ub[j2][c]);
    }
}

/* Far from the origin: B placed against face k of A (as TB_TOUCHING); the centers rounded to
 * float move it by up to half a unit in the last place, so A's extent along k is then recomputed
 * from the float centers to make the gap along uA_k exactly `gap` (before A's extent is rounded).
 * Placements whose recomputed extent leaves 0.004..0.6 are drawn again. */
static void make_far(tb_rng *r, satbox_box *a, satbox_box *b)
{
    for (int tries = 0;; tries++) {
        memset(a, 0, sizeof *a);
        memset(b, 0, sizeof *b);
        random_box(r, a, 0.005, 0.5);
        random_box(r, b, 0.005, 0.5);
        for (int c = 0; c < 3; c++) {
            double m = pow(10.0, tb_range(r, 5, 7));
            a->center[c] = (float)((tb_next(r) & 1) ? m : -m);
        }
        int k = (int)(tb_next(r) % 3);
        double sgn = (tb_next(r) & 1) ? 1 : -1, rb = radius_on(a, b, k), size = 0;
        for (int j = 0; j < 3; j++)
            size += (double)a->half[j] + b->half[j];
        place_on_face(r, a, b, k, sgn * (a->half[k] + rb), 1.0);
        double t = 0, gap = tb_range(r, -1e-5, 1e-5) * size;
        for (int c = 0; c < 3; c++)
            t += ((double)b->center[c] - (double)a->center[c]) * a->axis[k][c];
        double h = fabs(t) - rb - gap;
        if ((h >= 0.004 && h <= 0.6) || tries >= 1000) {
            a->half[k] = (float)fmax(h, 0.0);
            return;
        }
    }
}

void tb_make_extra(tb_rng *r, tb_extra f, satbox_box *a, satbox_box *b)
{
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    switch (f) {
    case TB_X_NEARPAR: make_nearpar(r, a, b); break;
    case TB_X_EDGEPAR: make_edgepar(r, a, b); break;
    case TB_X_STACK_SMALL:
    case TB_X_STACK_LARGE: {
        double s = f == TB_X_STACK_SMALL ? 1e-3 : 1e4;
        tb_make_pair(r, TB_STACKED, a, b);
        for (int c = 0; c < 3; c++) {
            a->center[c] = (float)(a->center[c] * s);
            b->center[c] = (float)(b->center[c] * s);
            a->half[c] = (float)(a->half[c] * s);
            b->half[c] = (float)(b->half[c] * s);
        }
        break;
    }
    case TB_X_FAR:
    default: make_far(r, a, b); break;
    }
}

void *tb_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

void tb_require_isa(void)
{
    const char *want = getenv("SATBOX_ISA");
    if (!want || !*want)
        return;
    int isa = satbox_isa_from_name(want);
    if (isa < 0) {
        fprintf(stderr, "SATBOX_ISA=%s is not a path name\n", want);
        exit(2);
    }
    satbox_isa active = satbox_isa_active();
    if (active != (satbox_isa)isa) {
        printf("SKIP: SATBOX_ISA=%s but the active path is %s (this CPU, OS or build lacks %s)\n", want,
               satbox_isa_name(active), satbox_isa_name((satbox_isa)isa));
        exit(77);
    }
}

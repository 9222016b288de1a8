/* world_scene.c - the engine-neutral world scenes and quality measures (see world_scene.h). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "world_scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "satbox/satbox.h"
#include "scene.h"
#include "support.h"

#define WS_DT (1.0 / 60.0)

static void set_body(ws_body *b, double x, double y, double z, double hx, double hy, double hz, int is_static)
{
    b->position[0] = x, b->position[1] = y, b->position[2] = z;
    b->half[0] = hx, b->half[1] = hy, b->half[2] = hz;
    b->quat[0] = b->quat[1] = b->quat[2] = 0.0, b->quat[3] = 1.0;
    b->is_static = is_static;
}

/* R[c][k]: world component c of local axis k of the unit quaternion q = (x, y, z, w). */
static void quat_to_matrix(const double q[4], double R[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    R[0][0] = 1 - 2 * (y * y + z * z), R[0][1] = 2 * (x * y - z * w), R[0][2] = 2 * (x * z + y * w);
    R[1][0] = 2 * (x * y + z * w), R[1][1] = 1 - 2 * (x * x + z * z), R[1][2] = 2 * (y * z - x * w);
    R[2][0] = 2 * (x * z - y * w), R[2][1] = 2 * (y * z + x * w), R[2][2] = 1 - 2 * (x * x + y * y);
}

/* The static ground slab: top face at z = 0, 0.5 thick, covering [-hx, hx] x [-hy, hy]. */
static void set_ground(ws_body *b, double hx, double hy)
{
    set_body(b, 0, 0, -0.5, hx, hy, 0.5, 1);
}

static int make_pile(ws_scene *s, size_t n, uint64_t seed)
{
    size_t side = (size_t)ceil(sqrt((double)n / 10.0)) + 1; /* inner side L, in cells of 1 m */
    size_t per_layer = side * side;
    size_t layers = (n + per_layer - 1) / per_layer;
    double L = (double)side, half_L = 0.5 * L;
    double spawn_z0 = 0.55; /* center of the lowest layer: its cells start 0.05 above the ground */
    double wall_h = spawn_z0 + (double)layers + 1.0;
    s->n_static = 5;
    s->n_dynamic = n;
    s->n_bodies = 5 + n;
    s->bodies = (ws_body *)calloc(s->n_bodies, sizeof *s->bodies);
    if (!s->bodies)
        return -1;
    set_ground(&s->bodies[0], half_L + 1.0, half_L + 1.0);
    /* Walls 1 m thick standing on the ground: the x walls span the full depth, the y walls fit between. */
    set_body(&s->bodies[1], half_L + 0.5, 0, 0.5 * wall_h, 0.5, half_L + 1.0, 0.5 * wall_h, 1);
    set_body(&s->bodies[2], -half_L - 0.5, 0, 0.5 * wall_h, 0.5, half_L + 1.0, 0.5 * wall_h, 1);
    set_body(&s->bodies[3], 0, half_L + 0.5, 0.5 * wall_h, half_L, 0.5, 0.5 * wall_h, 1);
    set_body(&s->bodies[4], 0, -half_L - 0.5, 0.5 * wall_h, half_L, 0.5, 0.5 * wall_h, 1);
    tb_rng rng;
    tb_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        ws_body *b = &s->bodies[5 + i];
        size_t layer = i / per_layer, cell = i % per_layer;
        b->position[0] = -half_L + 0.5 + (double)(cell % side);
        b->position[1] = -half_L + 0.5 + (double)(cell / side);
        b->position[2] = spawn_z0 + (double)layer;
        b->is_static = 0;
        /* Redraw until the AABB fits the unit cell (then no two spawned boxes overlap); an upright
         * box always fits (half <= 0.45), so the loop ends with one after 64 tries at worst. */
        int fits = 0;
        for (int attempt = 0; attempt < 64 && !fits; attempt++) {
            for (int k = 0; k < 3; k++)
                b->half[k] = tb_range(&rng, 0.1, 0.45);
            tb_random_quat(&rng, b->quat);
            double R[3][3];
            quat_to_matrix(b->quat, R);
            fits = 1;
            for (int c = 0; c < 3; c++) {
                double extent = fabs(R[c][0]) * b->half[0] + fabs(R[c][1]) * b->half[1] + fabs(R[c][2]) * b->half[2];
                fits &= extent <= 0.5;
            }
        }
        if (!fits)
            b->quat[0] = b->quat[1] = b->quat[2] = 0.0, b->quat[3] = 1.0;
    }
    /* Lost: the center left the bin's inside or went below the ground's top or far above the walls. */
    s->keep_min[0] = s->keep_min[1] = -half_L, s->keep_min[2] = 0.0;
    s->keep_max[0] = s->keep_max[1] = half_L, s->keep_max[2] = wall_h + 10.0;
    return 0;
}

static int make_pyramids(ws_scene *s, size_t n, uint64_t seed)
{
    enum { BASE = 10, PER_PYRAMID = BASE * (BASE + 1) / 2 };
    const double gap = 0.01, jitter = 1e-3, pitch_x = 12.0, pitch_y = 2.0;
    size_t count = (size_t)floor((double)n / PER_PYRAMID + 0.5);
    if (count < 1)
        count = 1;
    /* Columns along x and rows along y in a roughly square layout (a pyramid takes 12 x 2 m). */
    size_t cols = (size_t)ceil(sqrt((double)count * pitch_y / pitch_x));
    size_t rows = (count + cols - 1) / cols;
    s->n_static = 1;
    s->n_dynamic = count * PER_PYRAMID;
    s->n_bodies = 1 + s->n_dynamic;
    s->bodies = (ws_body *)calloc(s->n_bodies, sizeof *s->bodies);
    if (!s->bodies)
        return -1;
    double span_x = (double)cols * pitch_x, span_y = (double)rows * pitch_y;
    set_ground(&s->bodies[0], 0.5 * span_x + 5.0, 0.5 * span_y + 5.0);
    tb_rng rng;
    tb_seed(&rng, seed);
    size_t at = 1;
    for (size_t p = 0; p < count; p++) {
        double px = -0.5 * span_x + 0.5 * pitch_x + (double)(p % cols) * pitch_x;
        double py = -0.5 * span_y + 0.5 * pitch_y + (double)(p / cols) * pitch_y;
        for (int row = 0; row < BASE; row++) {
            int in_row = BASE - row;
            for (int i = 0; i < in_row; i++) {
                double x = px + ((double)i - 0.5 * (in_row - 1)) * (1.0 + gap) + tb_range(&rng, -jitter, jitter);
                double y = py + tb_range(&rng, -jitter, jitter);
                set_body(&s->bodies[at++], x, y, 0.5 + (double)row, 0.5, 0.5, 0.5, 0);
            }
        }
    }
    s->keep_min[0] = -0.5 * span_x - 5.0, s->keep_min[1] = -0.5 * span_y - 5.0, s->keep_min[2] = 0.0;
    s->keep_max[0] = 0.5 * span_x + 5.0, s->keep_max[1] = 0.5 * span_y + 5.0, s->keep_max[2] = BASE + 10.0;
    return 0;
}

int ws_scene_make(ws_scene *s, const char *name, size_t n, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->gravity[2] = -9.81;
    s->dt = WS_DT;
    int rc = -1;
    if (strcmp(name, "pile") == 0) {
        s->name = "pile";
        rc = make_pile(s, n, seed);
    } else if (strcmp(name, "pyramid") == 0) {
        s->name = "pyramid";
        rc = make_pyramids(s, n, seed);
    }
    if (rc != 0)
        ws_scene_free(s);
    return rc;
}

void ws_scene_free(ws_scene *s)
{
    free(s->bodies);
    memset(s, 0, sizeof *s);
}

static int state_finite(const ws_state *st)
{
    double sum = 0;
    for (int c = 0; c < 3; c++)
        sum += st->position[c] + st->lin_vel[c] + st->ang_vel[c];
    for (int c = 0; c < 4; c++)
        sum += st->quat[c];
    return isfinite(sum); /* a NaN or an infinity anywhere makes the sum non-finite */
}

static int state_kept(const ws_scene *s, const ws_state *st)
{
    for (int c = 0; c < 3; c++)
        if (!(st->position[c] >= s->keep_min[c] && st->position[c] <= s->keep_max[c]))
            return 0;
    return 1;
}

double ws_kinetic_energy(const ws_scene *s, const ws_state *states)
{
    double energy = 0;
    for (size_t i = s->n_static; i < s->n_bodies; i++) {
        const double *h = s->bodies[i].half;
        const ws_state *st = &states[i];
        double mass = 8.0 * h[0] * h[1] * h[2];
        double inertia[3] = {mass / 3.0 * (h[1] * h[1] + h[2] * h[2]), mass / 3.0 * (h[0] * h[0] + h[2] * h[2]),
                             mass / 3.0 * (h[0] * h[0] + h[1] * h[1])};
        double R[3][3];
        quat_to_matrix(st->quat, R);
        for (int k = 0; k < 3; k++) {
            double w_local = R[0][k] * st->ang_vel[0] + R[1][k] * st->ang_vel[1] + R[2][k] * st->ang_vel[2];
            energy += 0.5 * inertia[k] * w_local * w_local;
            energy += 0.5 * mass * st->lin_vel[k] * st->lin_vel[k];
        }
    }
    return energy;
}

double ws_drift(const ws_scene *s, const ws_state *before, const ws_state *after)
{
    double largest = 0;
    for (size_t i = s->n_static; i < s->n_bodies; i++) {
        if (!state_finite(&before[i]) || !state_finite(&after[i]) || !state_kept(s, &before[i]) ||
            !state_kept(s, &after[i]))
            continue;
        double d2 = 0;
        for (int c = 0; c < 3; c++)
            d2 += (after[i].position[c] - before[i].position[c]) * (after[i].position[c] - before[i].position[c]);
        largest = fmax(largest, sqrt(d2));
    }
    return largest;
}

size_t ws_lost(const ws_scene *s, const ws_state *states)
{
    size_t lost = 0;
    for (size_t i = s->n_static; i < s->n_bodies; i++)
        lost += state_finite(&states[i]) && !state_kept(s, &states[i]);
    return lost;
}

size_t ws_nan_count(const ws_scene *s, const ws_state *states)
{
    size_t bad = 0;
    for (size_t i = s->n_static; i < s->n_bodies; i++)
        bad += !state_finite(&states[i]);
    return bad;
}

double ws_max_penetration(const ws_scene *s, const ws_state *states)
{
    size_t n = s->n_bodies;
    double deepest = 0;
    float *arrays = (float *)malloc((n ? n : 1) * 16 * sizeof(float));
    satbox_pair *pairs = NULL;
    if (!arrays)
        return -1;
    /* SoA: center 0..2, half 3..5, quat 6..9, AABB min 10..12, max 13..15. */
    float *f[16];
    for (int k = 0; k < 16; k++)
        f[k] = arrays + (size_t)k * n;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            f[c][i] = (float)states[i].position[c];
            f[3 + c][i] = (float)s->bodies[i].half[c];
        }
        for (int c = 0; c < 4; c++)
            f[6 + c][i] = (float)states[i].quat[c];
    }
    satbox_qboxes pool = {{f[0], f[1], f[2]}, {f[3], f[4], f[5]}, {f[6], f[7], f[8], f[9]}};
    float *min[3] = {f[10], f[11], f[12]}, *max[3] = {f[13], f[14], f[15]};
    ptrdiff_t np = satbox_aabb_q(&pool, n, 0.0f, min, max);
    if (np >= 0)
        np = tb_sweep((const float *const *)min, (const float *const *)max, n, &pairs);
    if (np < 0) {
        free(arrays);
        return -1;
    }
    /* Static-static pairs (ground and walls touch by construction) are not the engines' business. */
    size_t kept = 0;
    for (size_t k = 0; k < (size_t)np; k++)
        if (!(s->bodies[pairs[k].a].is_static && s->bodies[pairs[k].b].is_static))
            pairs[kept++] = pairs[k];
    float *separation = (float *)malloc((kept ? kept : 1) * sizeof *separation);
    float *axes_store = (float *)malloc((n ? n : 1) * 9 * sizeof(float));
    if (!separation || !axes_store) {
        free(separation), free(axes_store), free(pairs), free(arrays);
        return -1;
    }
    float *axis[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = axes_store + (size_t)(3 * k + c) * n;
    const float *quat[4] = {f[6], f[7], f[8], f[9]};
    satbox_axes_from_quat(quat, n, axis);
    satbox_boxes boxes = {{f[0], f[1], f[2]}, {f[3], f[4], f[5]},
                          {{axis[0][0], axis[0][1], axis[0][2]}, {axis[1][0], axis[1][1], axis[1][2]},
                           {axis[2][0], axis[2][1], axis[2][2]}}};
    satbox_result res;
    memset(&res, 0, sizeof res);
    res.separation = separation;
    if (satbox_collide_pairs(&boxes, n, pairs, kept, 0.0f, &res, NULL) < 0) {
        deepest = -1;
    } else {
        for (size_t k = 0; k < kept; k++)
            if (separation[k] < 0) /* NaN (a bad box) fails the test and is counted by ws_nan_count */
                deepest = fmax(deepest, -(double)separation[k]);
    }
    free(separation), free(axes_store), free(pairs), free(arrays);
    return deepest;
}

uint64_t ws_state_hash(const ws_scene *s, const ws_state *states)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = s->n_static; i < s->n_bodies; i++) {
        const unsigned char *bytes = (const unsigned char *)&states[i];
        for (size_t k = 0; k < sizeof states[i]; k++) {
            h ^= bytes[k];
            h *= 0x100000001b3u;
        }
    }
    return h;
}

void ws_print_report(FILE *f, const ws_report *r)
{
    fprintf(f,
            "WORLD {\"engine\":\"%s\",\"scene\":\"%s\",\"n\":%zu,\"narrow\":\"%s\",\"steps\":%d,"
            "\"broad_ms\":%.6g,\"narrow_ms\":%.6g,\"joints_ms\":%.6g,\"solver_ms\":%.6g,\"step_ms\":%.6g,"
            "\"points\":%.6g,\"pairs\":%.6g,\"max_pen\":%.6g,\"ke\":%.6g,\"drift\":%.6g,\"lost\":%zu,\"nan\":%zu,"
            "\"hash\":\"%016llx\"}\n",
            r->engine, r->scene, r->n, r->narrow, r->steps, r->broad_ms, r->narrow_ms, r->joints_ms, r->solver_ms,
            r->step_ms, r->points, r->pairs, r->max_pen, r->ke, r->drift, r->lost, r->nan, (unsigned long long)r->hash);
}

double ws_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double ws_thread_cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

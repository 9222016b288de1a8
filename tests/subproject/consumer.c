/* consumer.c - a small narrow phase over satbox as integrators build it (Meson subproject, installed CMake/pkg-config package). */
/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "satbox/satbox.h"

#define N 3

/* The speed of satbox_contacts_pairs as this build of satbox delivers it: tests/run prints it
 * beside the release build's, because a parent's default (debug) build type once compiled the
 * kernels at -O0, 40 times slower. Printed, never asserted (a shared machine's time is noise). */
#define GRID 8
#define POOL (GRID * GRID * GRID)
#define NPAIRS (3 * GRID * GRID * (GRID - 1)) /* each box with its +x, +y and +z neighbour */

static float pool_fields[15][POOL];
static float pool_quat[4][POOL];
static satbox_pair pairs[NPAIRS];
static uint8_t out_count[NPAIRS], out_hit[NPAIRS], out_axis[NPAIRS], out_bad[NPAIRS];
static float out_normal[3][NPAIRS], out_point[4][3][NPAIRS], out_depth[4][NPAIRS];
static uint32_t out_feature[4][NPAIRS], out_list[NPAIRS];

/* FNV-1a over the bytes of an output array: tests/run compares the digest of every build of this
 * program (debug parent, installed release), since the paths promise the same bits at any
 * optimization level. */
static uint64_t digest(uint64_t h, const void *data, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ ((const unsigned char *)data)[i]) * 0x100000001b3ull;
    return h;
}

static double now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int time_contacts_pairs(void)
{
    /* A grid of boxes one unit apart, half extents 0.25 to 0.49, each turned its own way (quaternions
     * need not be unit): neighbours touch, overlap or miss, so every stage of the kernel runs. */
    satbox_boxes_out pool;
    float *quat[4];
    for (int f = 0; f < 3; f++) {
        pool.center[f] = pool_fields[f];
        pool.half[f] = pool_fields[3 + f];
    }
    for (int f = 0; f < 9; f++)
        pool.axis[f / 3][f % 3] = pool_fields[6 + f];
    for (int q = 0; q < 4; q++)
        quat[q] = pool_quat[q];
    for (int i = 0; i < POOL; i++) {
        pool.center[0][i] = (float)(i % GRID);
        pool.center[1][i] = (float)(i / GRID % GRID);
        pool.center[2][i] = (float)(i / (GRID * GRID));
        for (int k = 0; k < 3; k++)
            pool.half[k][i] = 0.25f + 0.12f * (float)((i + k) % 3);
        quat[0][i] = (float)(i % 5 - 2);
        quat[1][i] = (float)(i % 7 - 3);
        quat[2][i] = (float)(i % 3 - 1);
        quat[3][i] = 4.0f;
    }
    if (satbox_axes_from_quat((const float *const *)quat, POOL, pool.axis) != 0)
        return 1;
    int np = 0;
    for (int i = 0; i < POOL; i++) {
        int x = i % GRID, y = i / GRID % GRID, z = i / (GRID * GRID);
        if (x + 1 < GRID) pairs[np++] = (satbox_pair){(uint32_t)i, (uint32_t)(i + 1)};
        if (y + 1 < GRID) pairs[np++] = (satbox_pair){(uint32_t)i, (uint32_t)(i + GRID)};
        if (z + 1 < GRID) pairs[np++] = (satbox_pair){(uint32_t)i, (uint32_t)(i + GRID * GRID)};
    }
    satbox_contacts_out out = {.count = out_count, .hit = out_hit, .axis = out_axis, .bad = out_bad};
    for (int c = 0; c < 3; c++)
        out.normal[c] = out_normal[c];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            out.point[k][c] = out_point[k][c];
        out.depth[k] = out_depth[k];
        out.feature[k] = out_feature[k];
    }
    satbox_boxes view = satbox_boxes_view(&pool);

    /* The best of repeated calls (at least 5, about 0.2 s in all): the least disturbed one. */
    double best = INFINITY, spent = 0;
    ptrdiff_t hits = 0;
    int calls = 0;
    for (; calls < 5 || (spent < 2e8 && calls < 10000); calls++) {
        double t0 = now_ns();
        hits = satbox_contacts_pairs(&view, POOL, pairs, (size_t)np, 0.01f, &out, out_list);
        double t = now_ns() - t0;
        if (hits < 0) {
            printf("satbox_contacts_pairs: %s\n", satbox_strerror((int)hits));
            return 1;
        }
        spent += t;
        best = t < best ? t : best;
    }
    uint64_t h = 0xcbf29ce484222325ull;
    h = digest(h, out_count, sizeof out_count);
    h = digest(h, out_hit, sizeof out_hit);
    h = digest(h, out_axis, sizeof out_axis);
    h = digest(h, out_bad, sizeof out_bad);
    h = digest(h, out_normal, sizeof out_normal);
    h = digest(h, out_point, sizeof out_point);
    h = digest(h, out_depth, sizeof out_depth);
    h = digest(h, out_feature, sizeof out_feature);
    h = digest(h, out_list, (size_t)hits * sizeof out_list[0]);
    printf("satbox_contacts_pairs: %.1f ns per pair (best of %d calls over %d pairs, %td hit, outputs %016" PRIx64 ")\n",
           best / np, calls, np, hits, h);
    /* A workload where every pair hits or none does would time a shortcut, not the manifolds. */
    return hits > 0 && hits < np ? 0 : 1;
}

int main(void)
{
    /* Three pairs of unit cubes: B at x = 0.5 (overlap), x = 3 (apart), and a NaN center (bad data). */
    satbox_box a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = (satbox_box){{0, 0, 0}, {0.5f, 0.5f, 0.5f}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
        b[i] = a[i];
    }
    b[0].center[0] = 0.5f;
    b[1].center[0] = 3.0f;
    b[2].center[0] = NAN;

    float fa[15][N], fb[15][N];
    satbox_boxes_out sa, sb;
    for (int f = 0; f < 15; f++) {
        float **pa = f < 3 ? &sa.center[f] : f < 6 ? &sa.half[f - 3] : &sa.axis[(f - 6) / 3][(f - 6) % 3];
        float **pb = f < 3 ? &sb.center[f] : f < 6 ? &sb.half[f - 3] : &sb.axis[(f - 6) / 3][(f - 6) % 3];
        *pa = fa[f];
        *pb = fb[f];
    }
    satbox_pack(a, N, &sa);
    satbox_pack(b, N, &sb);
    satbox_boxes va = satbox_boxes_view(&sa), vb = satbox_boxes_view(&sb);

    uint8_t hit[N], bad[N];
    ptrdiff_t count = satbox_overlap(&va, &vb, N, hit, bad);
    if (count < 0) {
        printf("satbox_overlap: %s\n", satbox_strerror((int)count));
        return 1;
    }
    int contacts = 0;
    for (int i = 0; i < N; i++)
        if (hit[i])
            contacts++;
    printf("satbox %s, path %s: %td overlapping, %d contacts, bad data in pair 2: %u\n", satbox_version(),
           satbox_isa_name(satbox_isa_active()), count, contacts, bad[2]);
    int overlap_ok = count == 1 && contacts == 1 && hit[0] == 1 && bad[2] == 1 && bad[0] == 0;
    /* The configured header installed (or found in the subproject's build) with this library. */
    int version_ok = strcmp(satbox_version(), SATBOX_VERSION_STRING) == 0;
    if (!version_ok)
        printf("satbox_version() %s, header %s\n", satbox_version(), SATBOX_VERSION_STRING);
    return !overlap_ok || !version_ok || time_contacts_pairs() != 0;
}

/* readme_planner.c - the README's planner pattern: robot configurations against a box world, checked against the geometry. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>

#include "satbox/satbox_planner.h"

/* A planar arm of two links (0.4 long, 0.05 thick) on a base 0.5 above a table top (z <= 0).
 * Configuration k: shoulder angle a (from the horizontal) and elbow angle b, both from -90 to 90
 * degrees. Poses in double, relative to the base, rounded to float at the end. */
#define K 64
#define DEG 0.017453292519943295 /* radians a degree */
#define LINKS 2
static float cx[LINKS][K], cy[LINKS][K], cz[LINKS][K], hx[LINKS][K], hy[LINKS][K], hz[LINKS][K];
static float ux[LINKS][3][K], uy[LINKS][3][K], uz[LINKS][3][K];

static void pose(int k, int l, double *low) /* sets link l of configuration k, *low its lowest z */
{
    double a = (-90.0 + 180.0 * (k % 8) / 7.0) * DEG, b = (-90.0 + 180.0 * (k / 8) / 7.0) * DEG;
    double th = l == 0 ? a : a + b, x0 = l == 0 ? 0.0 : 0.4 * cos(a), z0 = l == 0 ? 0.0 : 0.4 * sin(a);
    double c = cos(th), s = sin(th);
    cx[l][k] = (float)(x0 + 0.2 * c), cy[l][k] = 0.0f, cz[l][k] = (float)(z0 + 0.2 * s);
    hx[l][k] = 0.2f, hy[l][k] = 0.025f, hz[l][k] = 0.025f;
    ux[l][0][k] = (float)c, ux[l][1][k] = 0.0f, ux[l][2][k] = (float)s;     /* axis 0: along the link */
    uy[l][0][k] = 0.0f, uy[l][1][k] = 1.0f, uy[l][2][k] = 0.0f;              /* axis 1: y */
    uz[l][0][k] = (float)-s, uz[l][1][k] = 0.0f, uz[l][2][k] = (float)c;    /* axis 2 */
    *low = z0 + 0.2 * s - 0.2 * fabs(s) - 0.025 * fabs(c);
}

int main(void)
{
    /* the world: the table top, 2 x 2 x 0.1, its top face 0.5 below the base */
    const float tc[3][1] = {{0.5f}, {0.0f}, {-0.55f}}, th[3][1] = {{1.0f}, {1.0f}, {0.05f}};
    const float ax0[3][1] = {{1}, {0}, {0}}, ax1[3][1] = {{0}, {1}, {0}}, ax2[3][1] = {{0}, {0}, {1}};
    satbox_boxes table = {{tc[0], tc[1], tc[2]}, {th[0], th[1], th[2]},
                          {{ax0[0], ax0[1], ax0[2]}, {ax1[0], ax1[1], ax1[2]}, {ax2[0], ax2[1], ax2[2]}}};
    static unsigned char mem[2048];
    satbox_world world;
    if (satbox_world_bytes(1) > sizeof mem || satbox_world_init(&world, mem, sizeof mem, &table, 1) != 1)
        return 1;
    double low[K][LINKS];
    satbox_boxes links[LINKS];
    for (int l = 0; l < LINKS; l++) {
        for (int k = 0; k < K; k++)
            pose(k, l, &low[k][l]);
        links[l] = (satbox_boxes){{cx[l], cy[l], cz[l]}, {hx[l], hy[l], hz[l]},
                                  {{ux[l][0], ux[l][1], ux[l][2]}, {uy[l][0], uy[l][1], uy[l][2]},
                                   {uz[l][0], uz[l][1], uz[l][2]}}};
    }
    uint8_t out[K];
    ptrdiff_t n = satbox_configs(&world, links, LINKS, NULL, 0, K, SATBOX_PLAN_CONSERVATIVE, out);
    ptrdiff_t first = satbox_motion(&world, links, LINKS, NULL, 0, 8, 0); /* configurations 0..7 as a motion */
    printf("%td of %d configurations may collide; the motion through 0..7 first collides at %td\n", n, K, first);
    int ok = n >= 0;
    for (int k = 0; k < K; k++) { /* the geometry: a link below the table top collides */
        double z = low[k][0] < low[k][1] ? low[k][0] : low[k][1];
        ok &= z < -0.5 - 1e-4 ? out[k] == SATBOX_COLLIDES : z > -0.5 + 1e-4 ? out[k] == SATBOX_FREE : 1;
    }
    printf("%s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

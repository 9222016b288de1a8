/* readme_manifold2d.c - the README's 2D contact-manifold example: a box resting on a plank, checked against its geometry. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>

#include "satbox/satbox2d.h"

int main(void)
{
    /* A: a 2 x 1 plank at the origin. B: a unit box whose bottom (y = 0.49) sinks 0.01 into
     * the plank's top (y = 0.5), from x = -0.25 to 0.75. */
    const float ax[1] = {0}, ay[1] = {0}, ah0[1] = {1}, ah1[1] = {0.5f};
    const float bx[1] = {0.25f}, by[1] = {0.99f}, bh[1] = {0.5f}, one[1] = {1}, zero[1] = {0};
    satbox2d_rects a = {.center = {ax, ay}, .half = {ah0, ah1}, .axis = {one, zero}};
    satbox2d_rects b = {.center = {bx, by}, .half = {bh, bh}, .axis = {one, zero}};
    satbox2d_manifold m;
    ptrdiff_t n = satbox2d_contacts(&a, &b, 1, 0.02f, &m); /* margin 0.02: speculative points */
    printf("pairs with points %td: count %u, normal (%+.3f, %+.3f), axis %u\n", n, m.count, m.normal[0], m.normal[1],
           m.axis);
    for (int j = 0; j < m.count; j++)
        printf("  point %d: (%+.4f, %+.4f) separation %+.4f id 0x%03x\n", j, m.point[j].x, m.point[j].y,
               m.point[j].separation, (unsigned)m.point[j].id);

    /* The geometry: the normal is A's +y (A's top face, edge 2 of its corner polygon, is the
     * reference: equal gaps keep A's face), the points are B's bottom corners (edge 0 of B,
     * the incident edge), 0.01 deep. */
    int ok = n == 1 && m.count == 2 && m.normal[0] == 0.0f && m.normal[1] == 1.0f && m.axis == 1;
    const float want_x[2] = {-0.25f, 0.75f};
    for (int j = 0; ok && j < 2; j++)
        ok = fabsf(m.point[j].x - want_x[j]) < 1e-6f && fabsf(m.point[j].y - 0.49f) < 1e-6f &&
             fabsf(m.point[j].separation + 0.01f) < 1e-6f && m.point[j].id == SATBOX2D_FEATURE_ID(0, 2, 0, j);
    printf("%s\n", ok ? "ok" : "FAIL: the manifold does not match the geometry");
    return ok ? 0 : 1;
}

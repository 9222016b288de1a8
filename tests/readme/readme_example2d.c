/* readme_example2d.c - the README's 2D example: rectangles and polygons through satbox2d, checked against geometry. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>

#include "satbox/satbox2d.h"

int main(void)
{
    /* Two pairs of rectangles. A: unit squares (half extent 0.5) at the origin, axis-aligned.
     * B: at x = 2 (apart by 1) and at x = 0.8 turned 45 degrees (overlapping). */
    const float c45 = 0.70710678f;
    const float zero[2] = {0, 0}, half[2] = {0.5f, 0.5f}, one[2] = {1, 1};
    const float bx[2] = {2.0f, 0.8f}, bcos[2] = {1, c45}, bsin[2] = {0, c45};
    satbox2d_rects a = {.center = {zero, zero}, .half = {half, half}, .axis = {one, zero}};
    satbox2d_rects b = {.center = {bx, zero}, .half = {half, half}, .axis = {bcos, bsin}};
    uint8_t hit[2], axis[2];
    float sep[2], nx[2], ny[2];
    satbox2d_result out = {.hit = hit, .separation = sep, .normal = {nx, ny}, .axis = axis};
    ptrdiff_t n = satbox2d_collide(&a, &b, 2, 0.0f, &out);
    for (int i = 0; i < 2; i++)
        printf("rects %d: hit %u separation %+.4f normal (%+.3f, %+.3f) axis %u\n", i, hit[i], sep[i], nx[i], ny[i],
               axis[i]);

    /* One pair of polygons in world coordinates, counter-clockwise, padded to 8 slots: the
     * triangle (0,0) (2,0) (0,2) against the unit square with its lower left corner at (0.75, 0.75). */
    const float tx[3] = {0, 2, 0}, ty[3] = {0, 0, 2}, sx[4] = {0.75f, 1.75f, 1.75f, 0.75f}, sy[4] = {0.75f, 0.75f, 1.75f, 1.75f};
    const uint8_t tri_n = 3, sq_n = 4;
    satbox2d_polys tri = {.count = &tri_n}, sq = {.count = &sq_n};
    for (int k = 0; k < SATBOX2D_MAX_VERTS; k++) { /* unused slots may point anywhere readable */
        tri.x[k] = &tx[k < 3 ? k : 0];
        tri.y[k] = &ty[k < 3 ? k : 0];
        sq.x[k] = &sx[k < 4 ? k : 0];
        sq.y[k] = &sy[k < 4 ? k : 0];
    }
    uint8_t phit, paxis;
    float psep, pnx, pny;
    satbox2d_result pout = {.hit = &phit, .separation = &psep, .normal = {&pnx, &pny}, .axis = &paxis};
    satbox2d_poly_collide(&tri, &sq, 1, 0.0f, &pout);
    printf("polygons: hit %u separation %+.4f normal (%+.3f, %+.3f) axis %u\n", phit, psep, pnx, pny, paxis);

    /* The expected answers, from the geometry: the first rectangles are 1 apart along +x; the
     * turned square reaches sqrt(2)/2 towards A, so the depth along x is 0.5 + 0.7071 - 0.8; the
     * square's corner (0.75, 0.75) is 1/sqrt(8) inside the triangle's hypotenuse x + y = 2. */
    int ok = n == 1 && hit[0] == 0 && fabsf(sep[0] - 1.0f) < 1e-6f && nx[0] == 1 && axis[0] == 0 && hit[1] == 1 &&
             fabsf(sep[1] + (0.5f + c45 - 0.8f)) < 1e-5f && phit == 1 && fabsf(psep + 1.0f / sqrtf(8.0f)) < 1e-6f &&
             paxis == 1;
    printf("%s\n", ok ? "as expected" : "UNEXPECTED");
    return ok ? 0 : 1;
}

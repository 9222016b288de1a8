/* readme_example.c - the README example: four box pairs through satbox_collide, checked against geometry. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>

#include "satbox/satbox.h"

#define N 4

int main(void)
{
    /* Pair i is A[i] vs B[i]. Every box is a cube of half extent 0.5. A is at the origin, axis-aligned;
     * B is at x = 2, 1, 0.8 (axis-aligned) and 1.2 (turned 45 degrees about z). */
    const float c = 0.70710678f; /* cos 45 = sin 45 */
    const float zero[N] = {0}, one[N] = {1, 1, 1, 1}, half[N] = {0.5f, 0.5f, 0.5f, 0.5f};
    const float bx[N] = {2.0f, 1.0f, 0.8f, 1.2f};
    const float b0x[N] = {1, 1, 1, c}, b0y[N] = {0, 0, 0, c}, b1x[N] = {0, 0, 0, -c}, b1y[N] = {1, 1, 1, c};
    satbox_boxes a = {
        .center = {zero, zero, zero},
        .half = {half, half, half},
        .axis = {{one, zero, zero}, {zero, one, zero}, {zero, zero, one}}, /* axis[k][c]: component c of axis k */
    };
    satbox_boxes b = {
        .center = {bx, zero, zero},
        .half = {half, half, half},
        .axis = {{b0x, b0y, zero}, {b1x, b1y, zero}, {zero, zero, one}},
    };

    uint8_t hit[N], axis[N];
    float separation[N], nx[N], ny[N], nz[N];
    satbox_result out = {.hit = hit, .separation = separation, .normal = {nx, ny, nz}, .axis = axis};
    ptrdiff_t count = satbox_collide(&a, &b, N, 0.0f, &out); /* margin 0: hit = separation <= 0 */

    /* By hand: gaps along x of 2 - 1 = 1, 1 - 1 = 0 (contact counts as a hit), 0.8 - 1 = -0.2 deep,
     * and 1.2 - 0.5 - 0.5 * sqrt(2) = -0.00711 for the turned cube; all on axis 0 (A's x), normal +x. */
    const float want_sep[N] = {1.0f, 0.0f, -0.2f, 0.7f - 0.5f * 1.41421356f};
    int ok = count == 3;
    for (int i = 0; i < N; i++) {
        printf("pair %d: hit %u  separation %+.5f  normal (%+.3f, %+.3f, %+.3f)  axis %u\n", i, hit[i], separation[i],
               nx[i], ny[i], nz[i], axis[i]);
        ok = ok && hit[i] == (i > 0) && fabsf(separation[i] - want_sep[i]) < 1e-6f && axis[i] == 0 && nx[i] == 1.0f;
    }
    printf("%td overlapping pairs: %s\n", count, ok ? "as expected" : "UNEXPECTED");
    return ok ? 0 : 1;
}

/* readme_contacts.c - the README's contacts example: one cube resting on a slab, its 4 contact points. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "satbox/satbox.h"

int main(void)
{
    /* A: a 4 x 4 x 1 slab at the origin. B: a unit cube sunk 1/16 into the slab's top face at
     * (1/4, -1/8). All values are exact in binary, so the answer is exact. */
    const float zero = 0, one = 1, h_slab[3] = {2, 2, 0.5f}, h_cube = 0.5f;
    const float bx = 0.25f, by = -0.125f, bz = 0.9375f;
    satbox_boxes a = {{&zero, &zero, &zero}, {&h_slab[0], &h_slab[1], &h_slab[2]},
                      {{&one, &zero, &zero}, {&zero, &one, &zero}, {&zero, &zero, &one}}};
    satbox_boxes b = {{&bx, &by, &bz}, {&h_cube, &h_cube, &h_cube},
                      {{&one, &zero, &zero}, {&zero, &one, &zero}, {&zero, &zero, &one}}};

    uint8_t count, hit, axis;
    float n[3], p[4][3], depth[4];
    uint32_t feature[4];
    satbox_contacts_out out = {.count = &count, .hit = &hit, .normal = {&n[0], &n[1], &n[2]}, .axis = &axis};
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            out.point[k][c] = &p[k][c];
        out.depth[k] = &depth[k];
        out.feature[k] = &feature[k];
    }
    if (satbox_contacts(&a, &b, 1, 0.0f, &out) != 1)
        return 1;
    printf("hit %u, %u points, axis %u, normal (%g, %g, %g)\n", hit, count, axis, n[0], n[1], n[2]);
    int ok = hit == 1 && count == 4 && axis == 2 && n[2] == 1.0f;
    for (int k = 0; k < count; k++) {
        printf("  (%g, %g, %g)  depth %g  feature %08x\n", p[k][0], p[k][1], p[k][2], depth[k], (unsigned)feature[k]);
        /* on the cube's bottom face (z = 0.4375), at the corners x in {-0.25, 0.75}, y in {-0.625, 0.375} */
        ok = ok && p[k][2] == 0.4375f && depth[k] == 0.0625f && (p[k][0] == -0.25f || p[k][0] == 0.75f) &&
             (p[k][1] == -0.625f || p[k][1] == 0.375f);
    }
    printf("%s\n", ok ? "as expected" : "UNEXPECTED");
    return ok ? 0 : 1;
}

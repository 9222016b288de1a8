/* test_header_c.c - satbox.h compiles alone as strict C11 (-Wall -Wextra -pedantic -Werror) and links. */
/* SPDX-License-Identifier: MIT */
#include "satbox/satbox.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    /* One box pair through the public API: two unit cubes 1.5 apart along y are separated by 0.5. */
    const float zero[1] = {0.0f}, one[1] = {1.0f}, half[1] = {0.5f}, y[1] = {1.5f};
    satbox_boxes a = {
        {zero, zero, zero}, {half, half, half}, {{one, zero, zero}, {zero, one, zero}, {zero, zero, one}}};
    satbox_boxes b = a;
    uint8_t hit[1] = {7}, axis[1] = {99};
    float sep[1] = {0.0f}, nx[1], ny[1], nz[1];
    satbox_result out = {hit, sep, {nx, ny, nz}, axis, NULL};
    b.center[1] = y;
    ptrdiff_t n = satbox_collide(&a, &b, 1, 0.0f, &out);
    const char *name = satbox_isa_name(SATBOX_ISA_SCALAR);
    int ok = n == 0 && hit[0] == 0 && sep[0] == 0.5f && axis[0] == 1 && ny[0] == 1.0f && name != NULL &&
             strcmp(name, "scalar") == 0 && satbox_overlap(&a, &b, 1, NULL, NULL) == SATBOX_ERR_NULL;
    printf("header C: satbox %s, path %s, separation %g: %s\n", satbox_version(), satbox_isa_name(satbox_isa_active()),
           (double)sep[0], ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

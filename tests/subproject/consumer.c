/* consumer.c - a 25-line narrow phase over satbox, built by tests/subproject as a satbox subproject. */
#include <math.h>
#include <stdio.h>

#include "satbox/satbox.h"

#define N 3

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
    return count == 1 && contacts == 1 && hit[0] == 1 && bad[2] == 1 && bad[0] == 0 ? 0 : 1;
}

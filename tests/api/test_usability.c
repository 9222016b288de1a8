/* test_usability.c - what a new integrator trips over first: ISA names in any case, the pack view, error texts. */
/* SPDX-License-Identifier: MIT */
/* Usage: test_usability [--expect-active PATH]
 *  - satbox_isa_from_name() takes every path name in lower, upper and mixed case, and refuses
 *    near misses ("avx 2", "avx5120", "", prefixes);
 *  - with --expect-active, the active path must be PATH (meson runs it with SATBOX_ISA in upper
 *    and mixed case, so the environment variable is case-insensitive too); exits 77 (skipped)
 *    when the CPU does not support PATH;
 *  - satbox_boxes_view() of the arrays satbox_pack() filled gives the same pointers and the same
 *    overlap bits as a descriptor written field by field; the result is expected by construction
 *    (cubes along x at known distances);
 *  - satbox_strerror() gives a distinct text for every error code and for an unknown one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox.h"

static int failures = 0;

#include "check.h"

static void test_names(void)
{
    static const char *const forms[][3] = {{"scalar", "SCALAR", "Scalar"},
                                                           {"sse41", "SSE41", "Sse41"},
                                                           {"avx2", "AVX2", "aVx2"},
                                                           {"avx512", "AVX512", "Avx512"},
                                                           {"neon", "NEON", "nEoN"}};
    _Static_assert(sizeof forms / sizeof forms[0] == SATBOX_ISA_COUNT, "a new path needs its spellings here");
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        for (int f = 0; f < 3; f++)
            CHECK(satbox_isa_from_name(forms[i][f]) == i, "satbox_isa_from_name(\"%s\") = %d, expected %d", forms[i][f],
                  satbox_isa_from_name(forms[i][f]), i);
    static const char *const wrong[] = {"", "avx 2", "avx5120", "avx", "AVX-512", "scalar ", "sse4", "x"};
    for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++)
        CHECK(satbox_isa_from_name(wrong[k]) == SATBOX_ERR_ARG, "satbox_isa_from_name(\"%s\") accepted", wrong[k]);
    CHECK(satbox_isa_from_name(NULL) == SATBOX_ERR_ARG, "satbox_isa_from_name(NULL) accepted");
}

static void test_view(void)
{
    enum { N = 5 };
    /* Unit cubes; B along x at 0.5, 0.99, 1.0 (touching counts), 1.01 and 3: hits 1 1 1 0 0. */
    const float bx[N] = {0.5f, 0.99f, 1.0f, 1.01f, 3.0f};
    const uint8_t want[N] = {1, 1, 1, 0, 0};
    satbox_box a[N], b[N];
    for (int i = 0; i < N; i++) {
        memset(&a[i], 0, sizeof a[i]);
        for (int k = 0; k < 3; k++) {
            a[i].half[k] = 0.5f;
            a[i].axis[k][k] = 1.0f;
        }
        b[i] = a[i];
        b[i].center[0] = bx[i];
    }
    float fa[15][N], fb[15][N];
    satbox_boxes_out oa, ob;
    satbox_boxes by_hand_a, by_hand_b;
    for (int c = 0; c < 3; c++) {
        oa.center[c] = fa[c], ob.center[c] = fb[c];
        oa.half[c] = fa[3 + c], ob.half[c] = fb[3 + c];
        by_hand_a.center[c] = fa[c], by_hand_b.center[c] = fb[c];
        by_hand_a.half[c] = fa[3 + c], by_hand_b.half[c] = fb[3 + c];
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++) {
            oa.axis[k][c] = fa[6 + 3 * k + c], ob.axis[k][c] = fb[6 + 3 * k + c];
            by_hand_a.axis[k][c] = fa[6 + 3 * k + c], by_hand_b.axis[k][c] = fb[6 + 3 * k + c];
        }
    CHECK(satbox_pack(a, N, &oa) == N && satbox_pack(b, N, &ob) == N, "satbox_pack failed");
    satbox_boxes va = satbox_boxes_view(&oa), vb = satbox_boxes_view(&ob);
    CHECK(memcmp(&va, &by_hand_a, sizeof va) == 0 && memcmp(&vb, &by_hand_b, sizeof vb) == 0,
          "satbox_boxes_view does not hold the pointers of satbox_boxes_out");
    uint8_t hit[N];
    ptrdiff_t r = satbox_overlap(&va, &vb, N, hit, NULL);
    CHECK(r == 3, "overlap through the view returned %td, expected 3", r);
    for (int i = 0; i < N; i++)
        CHECK(hit[i] == want[i], "pair %d (B at x = %g): hit %u, expected %u", i, (double)bx[i], hit[i], want[i]);
}

static void test_strerror(void)
{
    const int codes[] = {SATBOX_OK,         SATBOX_ERR_NULL,  SATBOX_ERR_COUNT,      SATBOX_ERR_INDEX,
                         SATBOX_ERR_ARG,    SATBOX_ERR_ALIAS, SATBOX_ERR_UNSUPPORTED, -1000};
    const int n = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < n; i++) {
        const char *t = satbox_strerror(codes[i]);
        CHECK(t && *t, "satbox_strerror(%d) is empty", codes[i]);
        for (int j = 0; j < i && t; j++)
            CHECK(strcmp(t, satbox_strerror(codes[j])) != 0, "satbox_strerror(%d) == satbox_strerror(%d): \"%s\"",
                  codes[i], codes[j], t);
    }
}

int main(int argc, char **argv)
{
    const char *expect = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect-active") == 0 && i + 1 < argc) {
            expect = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--expect-active PATH]\n", argv[0]);
            return 2;
        }
    }
    if (expect) {
        int want = satbox_isa_from_name(expect);
        if (want < 0 || !(satbox_isa_supported() >> want & 1u)) {
            printf("SKIP: path %s not supported here\n", expect);
            return 77;
        }
        const char *env = getenv("SATBOX_ISA");
        CHECK(satbox_isa_active() == (satbox_isa)want, "SATBOX_ISA=%s: active path %s, expected %s", env ? env : "",
              satbox_isa_name(satbox_isa_active()), expect);
    }
    test_names();
    test_view();
    test_strerror();
    printf("test_usability: path %s, %d failures\n", satbox_isa_name(satbox_isa_active()), failures);
    return failures ? 1 : 0;
}

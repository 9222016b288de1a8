// test_header_cpp.cpp - satbox.h compiles alone as C++ (-Wall -Wextra -pedantic -Werror) and links.
// SPDX-License-Identifier: MIT
#include "satbox/satbox.h"

#include <cstdio>
#include <cstring>

int main()
{
    // Two unit cubes 1.5 apart along z: separated by 0.5 on A's z axis (id 2).
    const float zero[1] = {0.0f}, one[1] = {1.0f}, half[1] = {0.5f}, z[1] = {1.5f};
    satbox_boxes a = {
        {zero, zero, zero}, {half, half, half}, {{one, zero, zero}, {zero, one, zero}, {zero, zero, one}}};
    satbox_boxes b = a;
    b.center[2] = z;
    uint8_t hit[1] = {7};
    ptrdiff_t n = satbox_overlap(&a, &b, 1, hit, nullptr);
    uint8_t axis[1] = {99};
    float sep[1] = {0.0f}, nx[1], ny[1], nz[1];
    satbox_result out = {hit, sep, {nx, ny, nz}, axis, nullptr};
    ptrdiff_t m = satbox_collide(&a, &b, 1, 0.0f, &out);
    satbox_error e = static_cast<satbox_error>(satbox_overlap(&a, &b, 1, nullptr, nullptr));
    bool ok = n == 0 && m == 0 && hit[0] == 0 && sep[0] == 0.5f && axis[0] == 2 && nz[0] == 1.0f &&
              e == SATBOX_ERR_NULL && std::strcmp(satbox_isa_name(SATBOX_ISA_AVX2), "avx2") == 0;
    std::printf("header C++: satbox %s: %s\n", satbox_version(), ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

// test_header2d_cpp.cpp - satbox2d.h compiles alone as C++ (-Wall -Wextra -pedantic -Werror) and links.
// SPDX-License-Identifier: MIT
#include "satbox/satbox2d.h"

#include <cstdio>

int main()
{
    // Two axis-aligned unit squares 1.5 apart along y: separated by 0.5 on A's y axis (id 1).
    const float zero[1] = {0.0f}, one[1] = {1.0f}, half[1] = {0.5f}, y[1] = {1.5f};
    satbox2d_rects a = {{zero, zero}, {half, half}, {one, zero}};
    satbox2d_rects b = a;
    b.center[1] = y;
    uint8_t hit[1] = {7}, axis[1] = {99};
    float sep[1] = {0.0f}, nx[1], ny[1];
    satbox2d_result out = {hit, sep, {nx, ny}, axis, nullptr};
    ptrdiff_t n = satbox2d_collide(&a, &b, 1, 0.0f, &out);
    bool ok = n == 0 && hit[0] == 0 && sep[0] == 0.5f && axis[0] == 1 && ny[0] == 1.0f &&
              satbox2d_overlap(&a, &b, 1, nullptr, nullptr) == SATBOX_ERR_NULL;
    std::printf("header2d C++: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

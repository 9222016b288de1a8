/* scale.h - the one size knob of the tests: SATBOX_TEST_SCALE (a number, default 1). */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_SCALE_H
#define SATBOX_TEST_SCALE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SATBOX_TEST_SCALE from the environment: 1 when unset; a value that is not a positive finite
 * number ends the program with a message and exit code 2 (never a silent default). tests/run
 * sets it per stage (its stage table): 1 native, 0.1 native --quick, 0.05 asan, noavx512 and
 * buildtypes, 0.03 aarch64 under qemu, 0.003 valgrind. */
double test_scale(void);

/* base x scale, rounded to the nearest whole number, at least 1: the sizes that shrink in
 * proportion (the checkers' pairs, the stacking test's steps). */
size_t scaled(size_t base);

/* 1 below scale 0.1: the short runs of the slow stages (sanitizers, qemu, valgrind). The tests
 * whose short sizes are not a fixed fraction of their full ones (fewer seeds and smaller worlds,
 * a count divided by 5 in one test and by 20 in another) pick them with this; the native
 * --quick stage (0.1) keeps their full sizes and shortens only the checkers. */
int test_short(void);

/* 1 below scale 0.01: tests/run's valgrind stage, where memcheck makes every step 20-50x slower.
 * The engine worlds then run one seed a scene at their short sizes and print their quality ratios
 * without judging them: the asan and aarch64 stages judge the same short sizes, and what valgrind
 * adds is memcheck over the same code (every scene, both narrow phases, every path's hash). */
int test_tiny(void);

#ifdef __cplusplus
}
#endif

#endif

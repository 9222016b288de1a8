/* check.h - the tests' assertion: counts a failure in the file's `failures` and says where and why. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_CHECK_H
#define SATBOX_TEST_CHECK_H

#include <stdio.h>

/* A file that also counts the checks it makes defines CHECK_COUNT() (e.g. `(checks++)`) first. */
#ifndef CHECK_COUNT
#define CHECK_COUNT() ((void)0)
#endif

/* Prints the first 60 failures (function, line, message); every one is counted. */
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        CHECK_COUNT();                                                                                                 \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            if (failures <= 60) {                                                                                      \
                printf("  FAIL %s:%d: ", __func__, __LINE__);                                                          \
                printf(__VA_ARGS__);                                                                                   \
                printf("\n");                                                                                          \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

/* A test program's last line and exit status: "ok (0 failures)" or "FAILED (n failures)". */
static inline int check_report(int failures)
{
    printf("%s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}

#endif

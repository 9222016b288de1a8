/* scale.c - SATBOX_TEST_SCALE: parsed once, in one place, for every test (see scale.h). */
/* SPDX-License-Identifier: MIT */
#include "scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double test_scale(void)
{
    const char *env = getenv("SATBOX_TEST_SCALE");
    if (!env || !*env)
        return 1.0;
    char *end;
    double s = strtod(env, &end);
    if (*end != '\0' || !isfinite(s) || s <= 0) {
        fprintf(stderr, "SATBOX_TEST_SCALE='%s': not a positive number\n", env);
        exit(2);
    }
    return s;
}

size_t scaled(size_t base)
{
    double n = llround((double)base * test_scale());
    return n < 1 ? 1 : (size_t)n;
}

int test_short(void) { return test_scale() < 0.1; }

int test_tiny(void) { return test_scale() < 0.01; }

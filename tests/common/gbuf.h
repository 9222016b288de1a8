/* gbuf.h - guarded test buffers: a deliberately misaligned payload followed by sentinel guard bytes. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_GBUF_H
#define SATBOX_TEST_GBUF_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GB_GUARD 64
#define GB_SENTINEL 0xA5

typedef struct gbuf {
    unsigned char *raw;
    size_t bytes;
    void *p; /* payload: 64-byte boundary + misalign, then `bytes`, then GB_GUARD sentinels */
} gbuf;

static inline void gb_alloc(gbuf *g, size_t bytes, size_t misalign)
{
    g->raw = (unsigned char *)malloc(bytes + misalign + GB_GUARD + 64);
    if (!g->raw) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    uintptr_t base = ((uintptr_t)g->raw + 63u) & ~(uintptr_t)63u;
    g->p = (void *)(base + misalign);
    g->bytes = bytes;
    memset(g->p, GB_SENTINEL, bytes + GB_GUARD);
}

static inline void gb_free(gbuf *g)
{
    free(g->raw);
    g->raw = NULL;
    g->p = NULL;
}

static inline void gb_reset(gbuf *g) { memset(g->p, GB_SENTINEL, g->bytes + GB_GUARD); }

static inline int gb_guard_ok(const gbuf *g)
{
    const unsigned char *q = (const unsigned char *)g->p + g->bytes;
    for (int i = 0; i < GB_GUARD; i++)
        if (q[i] != GB_SENTINEL)
            return 0;
    return 1;
}

/* A checker's comparison of one output array: the first `upto` elements (`elem` bytes each) of
 * `got` against `ref`, and got's guard bytes. Prints "FAIL <path>/<src>: <what>: guard bytes ..."
 * or "FAIL <path>/<src>: <what> differs at pair i (seed S): reference x, got y" (4-byte elements
 * as floats in %a, 1-byte ones as numbers). Returns 1 when both hold; *at is the first differing
 * pair, or SIZE_MAX when the payloads agree. */
static inline int gb_same(const char *what, const gbuf *ref, const gbuf *got, size_t elem, size_t upto, const char *path,
                          const char *src, uint64_t seed, size_t *at)
{
    int ok = 1;
    *at = SIZE_MAX;
    if (!gb_guard_ok(got)) {
        printf("FAIL %s/%s: %s: guard bytes after the output were overwritten\n", path, src, what);
        ok = 0;
    }
    if (memcmp(ref->p, got->p, upto * elem) != 0) {
        size_t i = 0;
        while (memcmp((const char *)ref->p + i * elem, (const char *)got->p + i * elem, elem) == 0)
            i++;
        printf("FAIL %s/%s: %s differs at pair %zu (seed %" PRIu64 ")", path, src, what, i, seed);
        if (elem == 4) {
            float x, y;
            memcpy(&x, (const char *)ref->p + i * elem, 4);
            memcpy(&y, (const char *)got->p + i * elem, 4);
            printf(": reference %a, got %a", (double)x, (double)y);
        } else if (elem == 1) {
            printf(": reference %u, got %u", ((const uint8_t *)ref->p)[i], ((const uint8_t *)got->p)[i]);
        }
        printf("\n");
        *at = i;
        ok = 0;
    }
    return ok;
}

#endif

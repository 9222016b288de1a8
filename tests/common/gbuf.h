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

#endif

/* contacts.h - what the contact-manifold entry points, the scalar reference and the kernels share. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS_H
#define SATBOX_CONTACTS_H

#include "internal.h"

/* One checked call of a contacts entry point. `pair` holds the source (src, n, inputs, margin)
 * and the outputs the pair functions share (hit, normal, axis, bad, compact); the rest are the
 * manifold outputs. Any output may be NULL. */
typedef struct sbx_cjob {
    sbx_job pair;
    uint8_t *count;
    float *point[4][3];
    float *depth[4];
    uint32_t *feature[4];
    satbox_manifold *stream; /* the stream form: one record per pair with hit == 1 (then the
                                per-pair outputs above are NULL but for pair.bad) */
} sbx_cjob;

/* One stream record from a pair's outputs (every path fills its records through these): the
 * head (pair, normal, axis, count), then the points. The wide kernels write a face lane's head in
 * pair order and its points once its manifold is done. */
static inline void sbx_put_manifold_head(satbox_manifold *r, size_t pair, const float normal[3], unsigned axis,
                                         unsigned count)
{
    r->pair = (uint32_t)pair;
    for (int c = 0; c < 3; c++)
        r->normal[c] = normal[c];
    r->axis = (uint8_t)axis;
    r->count = (uint8_t)count;
    r->reserved[0] = r->reserved[1] = 0;
    r->reserved2[0] = r->reserved2[1] = 0;
}

static inline void sbx_put_manifold_points(satbox_manifold *r, unsigned count, float point[4][3],
                                           const float depth[4], const uint32_t feature[4])
{
    r->count = (uint8_t)count;
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            r->point[k].position[c] = point[k][c];
        r->point[k].depth = depth[k];
        r->point[k].feature = feature[k];
    }
}

static inline void sbx_put_manifold(satbox_manifold *r, size_t pair, const float normal[3], unsigned axis,
                                    unsigned count, float point[4][3], const float depth[4],
                                    const uint32_t feature[4])
{
    sbx_put_manifold_head(r, pair, normal, axis, count);
    sbx_put_manifold_points(r, count, point, depth, feature);
}

/* The contacts kernel of one path; returns the number of pairs with hit == 1. */
typedef struct sbx_contacts_kernels {
    ptrdiff_t (*contacts)(const sbx_cjob *job);
    int width;
} sbx_contacts_kernels;

extern const sbx_contacts_kernels sbx_contacts_scalar;
/* The wide kernels: src/kernel/contacts_tpl.h, instantiated by each kernel_<isa>.c. */
extern const sbx_contacts_kernels sbx_kernels_sse41_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx2_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx512_contacts;
extern const sbx_contacts_kernels sbx_kernels_neon_contacts;
/* The same as portable C (SIMDE_NO_NATIVE); linked into the tests only. */
extern const sbx_contacts_kernels sbx_kernels_sse41_portable_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx2_portable_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx512_portable_contacts;
extern const sbx_contacts_kernels sbx_kernels_neon_portable_contacts;

/* Benchmarks only (-DSBX_BARE, never in the library): no manifold, the floor under one. */
extern const sbx_contacts_kernels sbx_kernels_sse41_bare_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx2_bare_contacts;
extern const sbx_contacts_kernels sbx_kernels_avx512_bare_contacts;
extern const sbx_contacts_kernels sbx_kernels_neon_bare_contacts;

/* checked.c: sbx_checked_pairs() for the contacts functions (manifold outputs, stream records). */
ptrdiff_t sbx_checked_contacts(const sbx_cjob *cj, ptrdiff_t count);

/* The contacts table of a path if compiled in, else NULL (api_contacts.c). */
const sbx_contacts_kernels *sbx_contacts_for(satbox_isa isa);

#endif

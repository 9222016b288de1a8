/* contacts.h - what the contact-manifold entry points, the scalar reference and the kernels share. */
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
} sbx_cjob;

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

/* The contacts table of a path if compiled in, else NULL (api_contacts.c). */
const sbx_contacts_kernels *sbx_contacts_for(satbox_isa isa);

#endif

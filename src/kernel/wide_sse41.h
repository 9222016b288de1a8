/* wide_sse41.h - the wide-float layer for SSE4.1: 4 lanes of simde__m128. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_SSE41_H
#define SATBOX_WIDE_SSE41_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/x86/sse4.1.h>
#define SBX_W 4
typedef simde__m128 wf;
typedef simde__m128 wm;
static inline wf wf_loadu(const float *p) { return simde_mm_loadu_ps(p); }
static inline void wf_storeu(float *p, wf v) { simde_mm_storeu_ps(p, v); }
static inline wf wf_set1(float x) { return simde_mm_set1_ps(x); }
static inline wf wf_add(wf a, wf b) { return simde_mm_add_ps(a, b); }
static inline wf wf_sub(wf a, wf b) { return simde_mm_sub_ps(a, b); }
static inline wf wf_mul(wf a, wf b) { return simde_mm_mul_ps(a, b); }
static inline wf wf_div(wf a, wf b) { return simde_mm_div_ps(a, b); }
static inline wf wf_sqrt(wf a) { return simde_mm_sqrt_ps(a); }
static inline wf wf_abs(wf a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
static inline wf wf_neg(wf a) { return simde_mm_xor_ps(simde_mm_set1_ps(-0.0f), a); }
static inline wm wm_gt(wf a, wf b) { return simde_mm_cmpgt_ps(a, b); }
static inline wm wm_ge(wf a, wf b) { return simde_mm_cmpge_ps(a, b); }
static inline wm wm_le(wf a, wf b) { return simde_mm_cmple_ps(a, b); }
static inline wm wm_lt(wf a, wf b) { return simde_mm_cmplt_ps(a, b); }
static inline wm wm_eq(wf a, wf b) { return simde_mm_cmpeq_ps(a, b); }
static inline wm wm_and(wm a, wm b) { return simde_mm_and_ps(a, b); }
static inline wm wm_or(wm a, wm b) { return simde_mm_or_ps(a, b); }
static inline wm wm_andnot(wm a, wm b) { return simde_mm_andnot_ps(b, a); }
static inline wm wm_not(wm a) { return simde_mm_xor_ps(a, simde_mm_castsi128_ps(simde_mm_set1_epi32(-1))); }
static inline wf wf_select(wm m, wf a, wf b) { return simde_mm_blendv_ps(b, a, m); }
static inline wf wf_keep(wm m, wf a) { return simde_mm_and_ps(m, a); }
static inline wf wf_max_nonneg(wf a, wf b) { return simde_mm_castsi128_ps(simde_mm_max_epi32(simde_mm_castps_si128(a), simde_mm_castps_si128(b))); }
static inline wf wf_max(wf a, wf b) { return simde_mm_max_ps(a, b); }
static inline unsigned wm_bits(wm m) { return (unsigned)simde_mm_movemask_ps(m); }
/* minps: a < b ? a : b per lane, as the generic wf_min of wide_common.h (SIMDe's portable form too). */
#define SBX_HAVE_MIN 1
static inline wf wf_min(wf a, wf b) { return simde_mm_min_ps(a, b); }

/* Lanes [0, k) of v (small whole numbers >= 0, as floats) stored as bytes. */
static inline void wf_store_u8(uint8_t *dst, wf v, int k)
{
    simde__m128i i = simde_mm_cvttps_epi32(v);
    i = simde_mm_packus_epi16(simde_mm_packs_epi32(i, i), simde_mm_setzero_si128());
    int32_t w = simde_mm_cvtsi128_si32(i);
    memcpy(dst, &w, (size_t)k);
}

/* Lanes [0, k) of v (whole numbers in int32 range, as floats) stored as 32-bit integers. */
static inline void wf_store_i32(uint32_t *dst, wf v, int k)
{
    simde__m128i i = simde_mm_cvttps_epi32(v);
    if (k == SBX_W) {
        simde_mm_storeu_si128((simde__m128i *)(void *)dst, i);
    } else {
        uint32_t b[SBX_W];
        simde_mm_storeu_si128((simde__m128i *)(void *)b, i);
        memcpy(dst, b, (size_t)k * sizeof b[0]);
    }
}

/* wf_compress / wf_expand (wide_common.h) as one pshufb each, the byte order from lut4.h. */
#include "lut4.h"
#define SBX_HAVE_COMPRESS 1
static inline wf wf_compress(wf v, unsigned m)
{
    simde__m128i t = simde_mm_loadu_si128((const simde__m128i *)(const void *)sbx_compress4[m & 15u]);
    return simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), t));
}
static inline wf wf_expand(wf v, unsigned m)
{
    simde__m128i t = simde_mm_loadu_si128((const simde__m128i *)(const void *)sbx_expand4[m & 15u]);
    return simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), t));
}

#include "wide_common.h"

#endif

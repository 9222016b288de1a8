/* wide_sse41.h - the wide-float layer for SSE4.1: 4 lanes of simde__m128. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_SSE41_H
#define SATBOX_WIDE_SSE41_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/x86/sse4.1.h>
#include "simd/wide_x86.h"
#define SBX_W 4
typedef simde__m128 wf;
typedef simde__m128 wm;
SBX_WIDE_X86_ARITH(simde_mm, 128)
SBX_WIDE_X86_VECTOR_MASKS(simde_mm, 128)
static inline wm wm_gt(wf a, wf b) { return simde_mm_cmpgt_ps(a, b); }
static inline wm wm_ge(wf a, wf b) { return simde_mm_cmpge_ps(a, b); }
static inline wm wm_le(wf a, wf b) { return simde_mm_cmple_ps(a, b); }
static inline wm wm_lt(wf a, wf b) { return simde_mm_cmplt_ps(a, b); }
static inline wm wm_eq(wf a, wf b) { return simde_mm_cmpeq_ps(a, b); }

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

/* wf_compress / wf_expand (wide_common.h) as one pshufb each, the byte order from lanes.h. */
#include "simd/lanes.h"
static const uint8_t sbx_compress4[16][16] = {SBX_LIST16(SBX_COMPRESS_ROW4, 0)};
static const uint8_t sbx_expand4[16][16] = {SBX_LIST16(SBX_EXPAND_ROW4, 0)};
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

#include "simd/wide_common.h"

#endif

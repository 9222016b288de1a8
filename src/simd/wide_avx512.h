/* wide_avx512.h - the wide-float layer for AVX-512 (F, DQ, BW, VL): 16 lanes, __mmask16 masks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_AVX512_H
#define SATBOX_WIDE_AVX512_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/x86/avx512.h>
#include "simd/wide_x86.h"
#define SBX_W 16
typedef simde__m512 wf;
typedef simde__mmask16 wm;
SBX_WIDE_X86_ARITH(simde_mm512, 512)
/* Not simde_mm512_abs_ps: its portable fallback keeps the sign of -0.0; clear the bit instead. */
static inline wf wf_abs(wf a) { return simde_mm512_castsi512_ps(simde_mm512_and_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32(0x7FFFFFFF))); }
static inline wf wf_neg(wf a) { return simde_mm512_castsi512_ps(simde_mm512_xor_si512(simde_mm512_castps_si512(a), simde_mm512_set1_epi32((int32_t)0x80000000u))); }
static inline wm wm_gt(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline wm wm_ge(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline wm wm_le(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline wm wm_lt(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline wm wm_eq(wf a, wf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline wm wm_and(wm a, wm b) { return (wm)(a & b); }
static inline wm wm_or(wm a, wm b) { return (wm)(a | b); }
static inline wm wm_andnot(wm a, wm b) { return (wm)(a & (wm)~b); }
static inline wm wm_not(wm a) { return (wm)~a; }
static inline wf wf_select(wm m, wf a, wf b) { return simde_mm512_mask_blend_ps(m, b, a); }
static inline wf wf_keep(wm m, wf a) { return simde_mm512_maskz_mov_ps(m, a); }
static inline unsigned wm_bits(wm m) { return (unsigned)m; }
/* SIMDe 0.7.4 has no masked loads/stores: native intrinsics where AVX-512F is native. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define SBX_HAVE_PART 1
static inline wf wf_load_part(const float *p, int k) { return _mm512_maskz_loadu_ps((__mmask16)((1u << k) - 1u), p); }
static inline void wf_store_part(float *p, wf v, int k) { _mm512_mask_storeu_ps(p, (__mmask16)((1u << k) - 1u), v); }
#endif

/* wf_load_records natively: the 16 records of a step are loaded whole and transposed
 * (4 rounds of 16 shuffles) instead of 240 scalar moves. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define SBX_HAVE_RECORDS 1
static inline void wf_load_records(const float *const *rec, wf out[15])
{
    __m512 r[16], a[16], b[16], e[4][2], f[4][2];
    for (int l = 0; l < 16; l++)
        r[l] = _mm512_loadu_ps(rec[l]);
    /* 1: interleave rows 2i, 2i+1 (32-bit, inside each 128-bit lane). */
    for (int i = 0; i < 8; i++) {
        a[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        a[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    /* 2: 64-bit interleave: b[4j + m] holds field 4L + m of rows 4j..4j+3 in 128-bit lane L. */
    for (int j = 0; j < 4; j++) {
        __m512d x0 = _mm512_castps_pd(a[4 * j]), x1 = _mm512_castps_pd(a[4 * j + 1]);
        __m512d x2 = _mm512_castps_pd(a[4 * j + 2]), x3 = _mm512_castps_pd(a[4 * j + 3]);
        b[4 * j + 0] = _mm512_castpd_ps(_mm512_unpacklo_pd(x0, x2));
        b[4 * j + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(x0, x2));
        b[4 * j + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(x1, x3));
        b[4 * j + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(x1, x3));
    }
    /* 3 and 4: gather the 128-bit lanes L of b[m], b[4+m], b[8+m], b[12+m] into field 4L + m. */
    for (int m = 0; m < 4; m++) {
        e[m][0] = _mm512_shuffle_f32x4(b[m], b[4 + m], 0x88);      /* lanes 0, 2 | 0, 2 */
        e[m][1] = _mm512_shuffle_f32x4(b[m], b[4 + m], 0xDD);      /* lanes 1, 3 | 1, 3 */
        f[m][0] = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0x88);
        f[m][1] = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0xDD);
    }
    for (int m = 0; m < 4; m++) {
        out[m] = _mm512_shuffle_f32x4(e[m][0], f[m][0], 0x88);     /* field m      (lane 0) */
        out[4 + m] = _mm512_shuffle_f32x4(e[m][1], f[m][1], 0x88); /* field 4 + m  (lane 1) */
        out[8 + m] = _mm512_shuffle_f32x4(e[m][0], f[m][0], 0xDD); /* field 8 + m  (lane 2) */
        if (m < 3)
            out[12 + m] = _mm512_shuffle_f32x4(e[m][1], f[m][1], 0xDD); /* field 12 + m (lane 3) */
    }
}
#endif

/* Bits [0, k) of `bits` stored as k bytes 0 or 1: one masked byte broadcast (AVX-512 BW + VL). */
#if defined(SIMDE_X86_AVX512F_NATIVE) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define SBX_HAVE_STORE_BITS 1
static inline void wm_store_bits(uint8_t *dst, unsigned bits, int k)
{
    _mm_mask_storeu_epi8(dst, (__mmask16)((1u << k) - 1u), _mm_maskz_set1_epi8((__mmask16)bits, 1));
}
#endif

/* Lanes [0, k) of v (small whole numbers >= 0, as floats) stored as bytes. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
static inline void wf_store_u8(uint8_t *dst, wf v, int k)
{
    _mm_mask_storeu_epi8(dst, (__mmask16)((1u << k) - 1u), _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(v)));
}
#else
static inline void wf_store_u8(uint8_t *dst, wf v, int k)
{
    float f[16];
    simde_mm512_storeu_ps(f, v);
    for (int l = 0; l < k; l++)
        dst[l] = (uint8_t)f[l];
}
#endif

/* Lanes [0, k) of v (whole numbers in int32 range, as floats) stored as 32-bit integers. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
static inline void wf_store_i32(uint32_t *dst, wf v, int k)
{
    _mm512_mask_storeu_epi32(dst, (__mmask16)((1u << k) - 1u), _mm512_cvttps_epi32(v));
}
#else
static inline void wf_store_i32(uint32_t *dst, wf v, int k)
{
    float f[16];
    simde_mm512_storeu_ps(f, v);
    for (int l = 0; l < k; l++)
        dst[l] = (uint32_t)(int32_t)f[l];
}
#endif

/* wf_compress / wf_expand (wide_common.h): vcompressps / vexpandps (unused lanes zero). */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define SBX_HAVE_COMPRESS 1
static inline wf wf_compress(wf v, unsigned m) { return _mm512_maskz_compress_ps((__mmask16)m, v); }
static inline wf wf_expand(wf v, unsigned m) { return _mm512_maskz_expand_ps((__mmask16)m, v); }
#endif

#include "simd/wide_common.h"

#endif

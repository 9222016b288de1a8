/* wide.h - the thin wide-float layer over SIMDe: one small set of ops per width, chosen by SBX_WIDE_*. */
#ifndef SATBOX_WIDE_H
#define SATBOX_WIDE_H

/* Define exactly one of SBX_WIDE_SSE41 (4 lanes), SBX_WIDE_AVX2 (8), SBX_WIDE_AVX512 (16),
 * SBX_WIDE_NEON (4) before including this file. Each section defines:
 *   W                       lanes
 *   wf, wm                  a vector of W floats, a mask of W lanes
 *   wf_loadu / wf_storeu    unaligned load / store of W floats
 *   wf_load_part / wf_store_part   the first k < W lanes only (never touches memory past k)
 *   wf_set1, wf_zero, wf_add, wf_sub, wf_mul, wf_div, wf_sqrt, wf_abs, wf_neg (sign flip)
 *   wm_gt, wm_ge, wm_le, wm_lt, wm_eq   ordered compares (false when either side is NaN)
 *   wm_and, wm_or, wm_andnot(a, b) = a & ~b, wm_not
 *   wf_select(m, a, b)      m ? a : b per lane
 *   wm_bits(m)              lane l -> bit l of an unsigned
 * Only IEEE-exact operations are used (no approximations, no FMA), so every width gives the
 * same bits per lane as the scalar reference. */

#include <string.h>

#if defined(SBX_WIDE_SSE41)
#include <simde/x86/sse4.1.h>
#define W 4
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
static inline unsigned wm_bits(wm m) { return (unsigned)simde_mm_movemask_ps(m); }

#elif defined(SBX_WIDE_AVX2)
#include <simde/x86/avx2.h>
#define W 8
typedef simde__m256 wf;
typedef simde__m256 wm;
static inline wf wf_loadu(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void wf_storeu(float *p, wf v) { simde_mm256_storeu_ps(p, v); }
static inline wf wf_set1(float x) { return simde_mm256_set1_ps(x); }
static inline wf wf_add(wf a, wf b) { return simde_mm256_add_ps(a, b); }
static inline wf wf_sub(wf a, wf b) { return simde_mm256_sub_ps(a, b); }
static inline wf wf_mul(wf a, wf b) { return simde_mm256_mul_ps(a, b); }
static inline wf wf_div(wf a, wf b) { return simde_mm256_div_ps(a, b); }
static inline wf wf_sqrt(wf a) { return simde_mm256_sqrt_ps(a); }
static inline wf wf_abs(wf a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline wf wf_neg(wf a) { return simde_mm256_xor_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline wm wm_gt(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline wm wm_ge(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline wm wm_le(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline wm wm_lt(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline wm wm_eq(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
static inline wm wm_and(wm a, wm b) { return simde_mm256_and_ps(a, b); }
static inline wm wm_or(wm a, wm b) { return simde_mm256_or_ps(a, b); }
static inline wm wm_andnot(wm a, wm b) { return simde_mm256_andnot_ps(b, a); }
static inline wm wm_not(wm a) { return simde_mm256_xor_ps(a, simde_mm256_castsi256_ps(simde_mm256_set1_epi32(-1))); }
static inline wf wf_select(wm m, wf a, wf b) { return simde_mm256_blendv_ps(b, a, m); }
static inline unsigned wm_bits(wm m) { return (unsigned)simde_mm256_movemask_ps(m); }

#elif defined(SBX_WIDE_AVX512)
#include <simde/x86/avx512.h>
#define W 16
typedef simde__m512 wf;
typedef simde__mmask16 wm;
static inline wf wf_loadu(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void wf_storeu(float *p, wf v) { simde_mm512_storeu_ps(p, v); }
static inline wf wf_set1(float x) { return simde_mm512_set1_ps(x); }
static inline wf wf_add(wf a, wf b) { return simde_mm512_add_ps(a, b); }
static inline wf wf_sub(wf a, wf b) { return simde_mm512_sub_ps(a, b); }
static inline wf wf_mul(wf a, wf b) { return simde_mm512_mul_ps(a, b); }
static inline wf wf_div(wf a, wf b) { return simde_mm512_div_ps(a, b); }
static inline wf wf_sqrt(wf a) { return simde_mm512_sqrt_ps(a); }
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
static inline unsigned wm_bits(wm m) { return (unsigned)m; }
/* SIMDe 0.7.4 has no masked loads/stores: native intrinsics where AVX-512F is native. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define SBX_HAVE_PART 1
static inline wf wf_load_part(const float *p, int k) { return _mm512_maskz_loadu_ps((__mmask16)((1u << k) - 1u), p); }
static inline void wf_store_part(float *p, wf v, int k) { _mm512_mask_storeu_ps(p, (__mmask16)((1u << k) - 1u), v); }
#endif

#elif defined(SBX_WIDE_NEON)
#include <simde/arm/neon.h>
#define W 4
typedef simde_float32x4_t wf;
typedef simde_uint32x4_t wm;
static inline wf wf_loadu(const float *p) { return simde_vld1q_f32(p); }
static inline void wf_storeu(float *p, wf v) { simde_vst1q_f32(p, v); }
static inline wf wf_set1(float x) { return simde_vdupq_n_f32(x); }
static inline wf wf_add(wf a, wf b) { return simde_vaddq_f32(a, b); }
static inline wf wf_sub(wf a, wf b) { return simde_vsubq_f32(a, b); }
static inline wf wf_mul(wf a, wf b) { return simde_vmulq_f32(a, b); }
/* SIMDe 0.7.4 lacks vdivq_f32 / vsqrtq_f32 (AArch64-only): native there, lane by lane (IEEE) elsewhere. */
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
static inline wf wf_div(wf a, wf b) { return vdivq_f32(a, b); }
static inline wf wf_sqrt(wf a) { return vsqrtq_f32(a); }
#else
static inline wf wf_div(wf a, wf b)
{
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int l = 0; l < 4; l++)
        x[l] = x[l] / y[l];
    return simde_vld1q_f32(x);
}
static inline wf wf_sqrt(wf a)
{
    float x[4];
    simde_vst1q_f32(x, a);
    for (int l = 0; l < 4; l++)
        x[l] = __builtin_sqrtf(x[l]);
    return simde_vld1q_f32(x);
}
#endif
/* Sign bit cleared as an integer op: exact for -0.0 and NaN on every implementation. */
static inline wf wf_abs(wf a) { return simde_vreinterpretq_f32_u32(simde_vandq_u32(simde_vreinterpretq_u32_f32(a), simde_vdupq_n_u32(0x7FFFFFFFu))); }
static inline wf wf_neg(wf a) { return simde_vnegq_f32(a); }
static inline wm wm_gt(wf a, wf b) { return simde_vcgtq_f32(a, b); }
static inline wm wm_ge(wf a, wf b) { return simde_vcgeq_f32(a, b); }
static inline wm wm_le(wf a, wf b) { return simde_vcleq_f32(a, b); }
static inline wm wm_lt(wf a, wf b) { return simde_vcltq_f32(a, b); }
static inline wm wm_eq(wf a, wf b) { return simde_vceqq_f32(a, b); }
static inline wm wm_and(wm a, wm b) { return simde_vandq_u32(a, b); }
static inline wm wm_or(wm a, wm b) { return simde_vorrq_u32(a, b); }
static inline wm wm_andnot(wm a, wm b) { return simde_vbicq_u32(a, b); }
static inline wm wm_not(wm a) { return simde_vmvnq_u32(a); }
static inline wf wf_select(wm m, wf a, wf b) { return simde_vbslq_f32(m, a, b); }
static inline unsigned wm_bits(wm m)
{
    static const uint32_t lane_bit[4] = {1u, 2u, 4u, 8u};
    return (unsigned)simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(lane_bit)));
}

#else
#error "define one of SBX_WIDE_SSE41, SBX_WIDE_AVX2, SBX_WIDE_AVX512, SBX_WIDE_NEON"
#endif

static inline wf wf_zero(void) { return wf_set1(0.0f); }

#if !defined(SBX_HAVE_PART)
/* Partial load / store through a zeroed W-lane buffer: touches only the first k elements. */
static inline wf wf_load_part(const float *p, int k)
{
    float buf[W];
    memset(buf, 0, sizeof buf);
    memcpy(buf, p, (size_t)k * sizeof(float));
    return wf_loadu(buf);
}
static inline void wf_store_part(float *p, wf v, int k)
{
    float buf[W];
    wf_storeu(buf, v);
    memcpy(p, buf, (size_t)k * sizeof(float));
}
#endif

/* wf_gather(base, idx): lane l = base[idx[l]]. Lane by lane on purpose: on the Xeon we measure
 * on, this beat the native vgatherdps of AVX-512 (28.7 vs 32.6 ns/pair for pool + random pairs)
 * and of AVX2 (29.1 vs 62.3). Loads only: the bits are the same either way. */
static inline wf wf_gather(const float *base, const int32_t *idx)
{
    float buf[W];
    for (int l = 0; l < W; l++)
        buf[l] = base[idx[l]];
    return wf_loadu(buf);
}

/* wf_load_records(rec, out): lane l of out[q] = rec[l][q] for q < 15, where each rec[l] points to a
 * 64-byte record of 16 floats (satbox_rec). With native AVX-512 the 16 records are loaded whole and
 * transposed (4 rounds of 16 shuffles) instead of 240 scalar moves; elsewhere lane by lane.
 * Loads and shuffles only: the bits are the same either way. */
#if defined(SBX_WIDE_AVX512) && defined(SIMDE_X86_AVX512F_NATIVE)
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
#else
static inline void wf_load_records(const float *const *rec, wf out[15])
{
    float buf[15][W];
    for (int l = 0; l < W; l++)
        for (int q = 0; q < 15; q++)
            buf[q][l] = rec[l][q];
    for (int q = 0; q < 15; q++)
        out[q] = wf_loadu(buf[q]);
}
#endif

#endif

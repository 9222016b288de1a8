/* wide_avx2.h - the wide-float layer for AVX2: 8 lanes of simde__m256. */
#ifndef SATBOX_WIDE_AVX2_H
#define SATBOX_WIDE_AVX2_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/x86/avx2.h>
#define SBX_W 8
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
static inline wf wf_keep(wm m, wf a) { return simde_mm256_and_ps(m, a); }
static inline wf wf_max_nonneg(wf a, wf b) { return simde_mm256_castsi256_ps(simde_mm256_max_epi32(simde_mm256_castps_si256(a), simde_mm256_castps_si256(b))); }
static inline wf wf_max(wf a, wf b) { return simde_mm256_max_ps(a, b); }
static inline unsigned wm_bits(wm m) { return (unsigned)simde_mm256_movemask_ps(m); }
/* minps: a < b ? a : b per lane, as the generic wf_min of wide_common.h (SIMDe's portable form too). */
#define SBX_HAVE_MIN 1
static inline wf wf_min(wf a, wf b) { return simde_mm256_min_ps(a, b); }

/* Lanes [0, k) of v (small whole numbers >= 0, as floats) stored as bytes. */
static inline void wf_store_u8(uint8_t *dst, wf v, int k)
{
    simde__m256i i = simde_mm256_cvttps_epi32(v);
    simde__m128i p = simde_mm_packs_epi32(simde_mm256_castsi256_si128(i), simde_mm256_extracti128_si256(i, 1));
    p = simde_mm_packus_epi16(p, p);
    int64_t w = simde_mm_cvtsi128_si64(p);
    memcpy(dst, &w, (size_t)k);
}

/* Lanes [0, k) of v (whole numbers in int32 range, as floats) stored as 32-bit integers. */
static inline void wf_store_i32(uint32_t *dst, wf v, int k)
{
    simde__m256i i = simde_mm256_cvttps_epi32(v);
    if (k == SBX_W) {
        simde_mm256_storeu_si256((simde__m256i *)(void *)dst, i);
    } else {
        uint32_t b[SBX_W];
        simde_mm256_storeu_si256((simde__m256i *)(void *)b, i);
        memcpy(dst, b, (size_t)k * sizeof b[0]);
    }
}

#include "wide_common.h"

#endif

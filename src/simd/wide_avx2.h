/* wide_avx2.h - the wide-float layer for AVX2: 8 lanes of simde__m256. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_AVX2_H
#define SATBOX_WIDE_AVX2_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/x86/avx2.h>
#include "simd/wide_x86.h"
#define SBX_W 8
typedef simde__m256 wf;
typedef simde__m256 wm;
SBX_WIDE_X86_ARITH(simde_mm256, 256)
SBX_WIDE_X86_VECTOR_MASKS(simde_mm256, 256)
static inline wm wm_gt(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline wm wm_ge(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline wm wm_le(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline wm wm_lt(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline wm wm_eq(wf a, wf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }

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

/* Lane permutations of wf_compress / wf_expand for 8 lanes: entry m holds, in nibble d, the source
 * lane of destination lane d (lanes.h has the rule). */
#include "simd/lanes.h"
static const uint32_t sbx_compress8[256] = {SBX_LIST256(SBX_COMPRESS8)};
static const uint32_t sbx_expand8[256] = {SBX_LIST256(SBX_EXPAND8)};

/* wf_compress / wf_expand (wide_common.h) as one vpermps each, the lane order from the tables. */
#define SBX_HAVE_COMPRESS 1
static inline simde__m256i sbx_perm8(uint32_t nib)
{
    simde__m256i v = simde_mm256_srlv_epi32(simde_mm256_set1_epi32((int32_t)nib),
                                            simde_mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28));
    return simde_mm256_and_si256(v, simde_mm256_set1_epi32(7));
}
static inline wf wf_compress(wf v, unsigned m) { return simde_mm256_permutevar8x32_ps(v, sbx_perm8(sbx_compress8[m & 0xFFu])); }
static inline wf wf_expand(wf v, unsigned m) { return simde_mm256_permutevar8x32_ps(v, sbx_perm8(sbx_expand8[m & 0xFFu])); }

/* wf_load_rows8 (wide_common.h) natively: the 8 rows loaded whole and transposed (8x8: unpack,
 * shuffle, 128-bit permute); loads and moves only, the same bits as lane by lane. */
#define SBX_HAVE_ROWS8 1
static inline void wf_load_rows8(const float *const *rows, wf out[8])
{
    simde__m256 r[8], t[8], u[8];
    for (int l = 0; l < 8; l++)
        r[l] = simde_mm256_loadu_ps(rows[l]);
    for (int i = 0; i < 4; i++) { /* rows 2i, 2i + 1 interleaved: columns 0 1 (4 5), 2 3 (6 7) */
        t[2 * i] = simde_mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = simde_mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; h++) { /* rows 4h..4h+3: u[4h + c] = column c | column c + 4 */
        u[4 * h + 0] = simde_mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
        u[4 * h + 1] = simde_mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
        u[4 * h + 2] = simde_mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
        u[4 * h + 3] = simde_mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
    }
    for (int c = 0; c < 4; c++) {
        out[c] = simde_mm256_permute2f128_ps(u[c], u[4 + c], 0x20);
        out[c + 4] = simde_mm256_permute2f128_ps(u[c], u[4 + c], 0x31);
    }
}

#include "simd/wide_common.h"

#endif

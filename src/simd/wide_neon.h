/* wide_neon.h - the wide-float layer for AArch64 NEON: 4 lanes of float32x4_t. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_NEON_H
#define SATBOX_WIDE_NEON_H

/* The operations every wide_<isa>.h defines are listed in wide_common.h. */
#include <string.h>
#include <simde/arm/neon.h>
#define SBX_W 4
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
static inline wf wf_keep(wm m, wf a) { return simde_vreinterpretq_f32_u32(simde_vandq_u32(m, simde_vreinterpretq_u32_f32(a))); }
static inline wf wf_max_nonneg(wf a, wf b) { return simde_vreinterpretq_f32_s32(simde_vmaxq_s32(simde_vreinterpretq_s32_f32(a), simde_vreinterpretq_s32_f32(b))); }
static inline wf wf_max(wf a, wf b) { return simde_vmaxq_f32(a, b); }
static inline unsigned wm_bits(wm m)
{
    static const uint32_t lane_bit[4] = {1u, 2u, 4u, 8u};
    return (unsigned)simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(lane_bit)));
}

/* Lanes [0, k) of v (small whole numbers >= 0, as floats) stored as bytes. */
static inline void wf_store_u8(uint8_t *dst, wf v, int k)
{
    simde_uint16x4_t h = simde_vmovn_u32(simde_vcvtq_u32_f32(v));
    simde_uint8x8_t b = simde_vmovn_u16(simde_vcombine_u16(h, h));
    uint8_t w[8];
    simde_vst1_u8(w, b);
    memcpy(dst, w, (size_t)k);
}

/* Lanes [0, k) of v (whole numbers in int32 range, as floats) stored as 32-bit integers. */
static inline void wf_store_i32(uint32_t *dst, wf v, int k)
{
    uint32_t b[SBX_W];
    simde_vst1q_u32(b, simde_vreinterpretq_u32_s32(simde_vcvtq_s32_f32(v)));
    memcpy(dst, b, (size_t)k * sizeof b[0]);
}

/* wf_compress / wf_expand (wide_common.h) as one tbl each, the byte order from lanes.h. */
#include "simd/lanes.h"
static const uint8_t sbx_compress4[16][16] = {SBX_LIST16(SBX_COMPRESS_ROW4, 0)};
static const uint8_t sbx_expand4[16][16] = {SBX_LIST16(SBX_EXPAND_ROW4, 0)};
#define SBX_HAVE_COMPRESS 1
static inline wf wf_compress(wf v, unsigned m)
{
    simde_uint8x16_t t = simde_vld1q_u8(sbx_compress4[m & 15u]);
    return simde_vreinterpretq_f32_u8(simde_vqtbl1q_u8(simde_vreinterpretq_u8_f32(v), t));
}
static inline wf wf_expand(wf v, unsigned m)
{
    simde_uint8x16_t t = simde_vld1q_u8(sbx_expand4[m & 15u]);
    return simde_vreinterpretq_f32_u8(simde_vqtbl1q_u8(simde_vreinterpretq_u8_f32(v), t));
}

#include "simd/wide_common.h"

#endif

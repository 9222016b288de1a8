/* wide_avx2.h - the wide-float layer for AVX2: 8 lanes of simde__m256. */
/* SPDX-License-Identifier: MIT */
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

/* Lane permutations of wf_compress / wf_expand for 8 lanes: entry m holds, in nibble l, the source
 * lane of destination lane l (compress: the set lanes of m in order; expand: lane l set in m takes
 * source lane popcount(m & ((1 << l) - 1))). Unused lanes read lane 0. */
static const uint32_t sbx_compress8[256] = {
    0x00000000u, 0x00000000u, 0x00000001u, 0x00000010u, 0x00000002u, 0x00000020u, 0x00000021u, 0x00000210u,
    0x00000003u, 0x00000030u, 0x00000031u, 0x00000310u, 0x00000032u, 0x00000320u, 0x00000321u, 0x00003210u,
    0x00000004u, 0x00000040u, 0x00000041u, 0x00000410u, 0x00000042u, 0x00000420u, 0x00000421u, 0x00004210u,
    0x00000043u, 0x00000430u, 0x00000431u, 0x00004310u, 0x00000432u, 0x00004320u, 0x00004321u, 0x00043210u,
    0x00000005u, 0x00000050u, 0x00000051u, 0x00000510u, 0x00000052u, 0x00000520u, 0x00000521u, 0x00005210u,
    0x00000053u, 0x00000530u, 0x00000531u, 0x00005310u, 0x00000532u, 0x00005320u, 0x00005321u, 0x00053210u,
    0x00000054u, 0x00000540u, 0x00000541u, 0x00005410u, 0x00000542u, 0x00005420u, 0x00005421u, 0x00054210u,
    0x00000543u, 0x00005430u, 0x00005431u, 0x00054310u, 0x00005432u, 0x00054320u, 0x00054321u, 0x00543210u,
    0x00000006u, 0x00000060u, 0x00000061u, 0x00000610u, 0x00000062u, 0x00000620u, 0x00000621u, 0x00006210u,
    0x00000063u, 0x00000630u, 0x00000631u, 0x00006310u, 0x00000632u, 0x00006320u, 0x00006321u, 0x00063210u,
    0x00000064u, 0x00000640u, 0x00000641u, 0x00006410u, 0x00000642u, 0x00006420u, 0x00006421u, 0x00064210u,
    0x00000643u, 0x00006430u, 0x00006431u, 0x00064310u, 0x00006432u, 0x00064320u, 0x00064321u, 0x00643210u,
    0x00000065u, 0x00000650u, 0x00000651u, 0x00006510u, 0x00000652u, 0x00006520u, 0x00006521u, 0x00065210u,
    0x00000653u, 0x00006530u, 0x00006531u, 0x00065310u, 0x00006532u, 0x00065320u, 0x00065321u, 0x00653210u,
    0x00000654u, 0x00006540u, 0x00006541u, 0x00065410u, 0x00006542u, 0x00065420u, 0x00065421u, 0x00654210u,
    0x00006543u, 0x00065430u, 0x00065431u, 0x00654310u, 0x00065432u, 0x00654320u, 0x00654321u, 0x06543210u,
    0x00000007u, 0x00000070u, 0x00000071u, 0x00000710u, 0x00000072u, 0x00000720u, 0x00000721u, 0x00007210u,
    0x00000073u, 0x00000730u, 0x00000731u, 0x00007310u, 0x00000732u, 0x00007320u, 0x00007321u, 0x00073210u,
    0x00000074u, 0x00000740u, 0x00000741u, 0x00007410u, 0x00000742u, 0x00007420u, 0x00007421u, 0x00074210u,
    0x00000743u, 0x00007430u, 0x00007431u, 0x00074310u, 0x00007432u, 0x00074320u, 0x00074321u, 0x00743210u,
    0x00000075u, 0x00000750u, 0x00000751u, 0x00007510u, 0x00000752u, 0x00007520u, 0x00007521u, 0x00075210u,
    0x00000753u, 0x00007530u, 0x00007531u, 0x00075310u, 0x00007532u, 0x00075320u, 0x00075321u, 0x00753210u,
    0x00000754u, 0x00007540u, 0x00007541u, 0x00075410u, 0x00007542u, 0x00075420u, 0x00075421u, 0x00754210u,
    0x00007543u, 0x00075430u, 0x00075431u, 0x00754310u, 0x00075432u, 0x00754320u, 0x00754321u, 0x07543210u,
    0x00000076u, 0x00000760u, 0x00000761u, 0x00007610u, 0x00000762u, 0x00007620u, 0x00007621u, 0x00076210u,
    0x00000763u, 0x00007630u, 0x00007631u, 0x00076310u, 0x00007632u, 0x00076320u, 0x00076321u, 0x00763210u,
    0x00000764u, 0x00007640u, 0x00007641u, 0x00076410u, 0x00007642u, 0x00076420u, 0x00076421u, 0x00764210u,
    0x00007643u, 0x00076430u, 0x00076431u, 0x00764310u, 0x00076432u, 0x00764320u, 0x00764321u, 0x07643210u,
    0x00000765u, 0x00007650u, 0x00007651u, 0x00076510u, 0x00007652u, 0x00076520u, 0x00076521u, 0x00765210u,
    0x00007653u, 0x00076530u, 0x00076531u, 0x00765310u, 0x00076532u, 0x00765320u, 0x00765321u, 0x07653210u,
    0x00007654u, 0x00076540u, 0x00076541u, 0x00765410u, 0x00076542u, 0x00765420u, 0x00765421u, 0x07654210u,
    0x00076543u, 0x00765430u, 0x00765431u, 0x07654310u, 0x00765432u, 0x07654320u, 0x07654321u, 0x76543210u,
};
static const uint32_t sbx_expand8[256] = {
    0x00000000u, 0x00000000u, 0x00000000u, 0x00000010u, 0x00000000u, 0x00000100u, 0x00000100u, 0x00000210u,
    0x00000000u, 0x00001000u, 0x00001000u, 0x00002010u, 0x00001000u, 0x00002100u, 0x00002100u, 0x00003210u,
    0x00000000u, 0x00010000u, 0x00010000u, 0x00020010u, 0x00010000u, 0x00020100u, 0x00020100u, 0x00030210u,
    0x00010000u, 0x00021000u, 0x00021000u, 0x00032010u, 0x00021000u, 0x00032100u, 0x00032100u, 0x00043210u,
    0x00000000u, 0x00100000u, 0x00100000u, 0x00200010u, 0x00100000u, 0x00200100u, 0x00200100u, 0x00300210u,
    0x00100000u, 0x00201000u, 0x00201000u, 0x00302010u, 0x00201000u, 0x00302100u, 0x00302100u, 0x00403210u,
    0x00100000u, 0x00210000u, 0x00210000u, 0x00320010u, 0x00210000u, 0x00320100u, 0x00320100u, 0x00430210u,
    0x00210000u, 0x00321000u, 0x00321000u, 0x00432010u, 0x00321000u, 0x00432100u, 0x00432100u, 0x00543210u,
    0x00000000u, 0x01000000u, 0x01000000u, 0x02000010u, 0x01000000u, 0x02000100u, 0x02000100u, 0x03000210u,
    0x01000000u, 0x02001000u, 0x02001000u, 0x03002010u, 0x02001000u, 0x03002100u, 0x03002100u, 0x04003210u,
    0x01000000u, 0x02010000u, 0x02010000u, 0x03020010u, 0x02010000u, 0x03020100u, 0x03020100u, 0x04030210u,
    0x02010000u, 0x03021000u, 0x03021000u, 0x04032010u, 0x03021000u, 0x04032100u, 0x04032100u, 0x05043210u,
    0x01000000u, 0x02100000u, 0x02100000u, 0x03200010u, 0x02100000u, 0x03200100u, 0x03200100u, 0x04300210u,
    0x02100000u, 0x03201000u, 0x03201000u, 0x04302010u, 0x03201000u, 0x04302100u, 0x04302100u, 0x05403210u,
    0x02100000u, 0x03210000u, 0x03210000u, 0x04320010u, 0x03210000u, 0x04320100u, 0x04320100u, 0x05430210u,
    0x03210000u, 0x04321000u, 0x04321000u, 0x05432010u, 0x04321000u, 0x05432100u, 0x05432100u, 0x06543210u,
    0x00000000u, 0x10000000u, 0x10000000u, 0x20000010u, 0x10000000u, 0x20000100u, 0x20000100u, 0x30000210u,
    0x10000000u, 0x20001000u, 0x20001000u, 0x30002010u, 0x20001000u, 0x30002100u, 0x30002100u, 0x40003210u,
    0x10000000u, 0x20010000u, 0x20010000u, 0x30020010u, 0x20010000u, 0x30020100u, 0x30020100u, 0x40030210u,
    0x20010000u, 0x30021000u, 0x30021000u, 0x40032010u, 0x30021000u, 0x40032100u, 0x40032100u, 0x50043210u,
    0x10000000u, 0x20100000u, 0x20100000u, 0x30200010u, 0x20100000u, 0x30200100u, 0x30200100u, 0x40300210u,
    0x20100000u, 0x30201000u, 0x30201000u, 0x40302010u, 0x30201000u, 0x40302100u, 0x40302100u, 0x50403210u,
    0x20100000u, 0x30210000u, 0x30210000u, 0x40320010u, 0x30210000u, 0x40320100u, 0x40320100u, 0x50430210u,
    0x30210000u, 0x40321000u, 0x40321000u, 0x50432010u, 0x40321000u, 0x50432100u, 0x50432100u, 0x60543210u,
    0x10000000u, 0x21000000u, 0x21000000u, 0x32000010u, 0x21000000u, 0x32000100u, 0x32000100u, 0x43000210u,
    0x21000000u, 0x32001000u, 0x32001000u, 0x43002010u, 0x32001000u, 0x43002100u, 0x43002100u, 0x54003210u,
    0x21000000u, 0x32010000u, 0x32010000u, 0x43020010u, 0x32010000u, 0x43020100u, 0x43020100u, 0x54030210u,
    0x32010000u, 0x43021000u, 0x43021000u, 0x54032010u, 0x43021000u, 0x54032100u, 0x54032100u, 0x65043210u,
    0x21000000u, 0x32100000u, 0x32100000u, 0x43200010u, 0x32100000u, 0x43200100u, 0x43200100u, 0x54300210u,
    0x32100000u, 0x43201000u, 0x43201000u, 0x54302010u, 0x43201000u, 0x54302100u, 0x54302100u, 0x65403210u,
    0x32100000u, 0x43210000u, 0x43210000u, 0x54320010u, 0x43210000u, 0x54320100u, 0x54320100u, 0x65430210u,
    0x43210000u, 0x54321000u, 0x54321000u, 0x65432010u, 0x54321000u, 0x65432100u, 0x65432100u, 0x76543210u,
};

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

#include "wide_common.h"

#endif

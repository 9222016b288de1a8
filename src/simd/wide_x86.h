/* wide_x86.h - the part of the wide-float layer that SSE4.1, AVX2 and AVX-512 spell alike. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_X86_H
#define SATBOX_WIDE_X86_H

/* The arithmetic of wide_common.h's list for an x86 vector whose intrinsics are P##_op_ps, P
 * one of simde_mm, simde_mm256, simde_mm512, and whose integer view is P##_castps_##SI (SI one
 * of si128, si256, si512). wf_max_nonneg compares the bits as int32 (equal to the float order
 * for values >= 0); wf_min is minps (a < b ? a : b per lane, as wide_common.h's generic one). */
#define SBX_WIDE_X86_ARITH(P, SI)                                                                    \
    static inline wf wf_loadu(const float *p) { return P##_loadu_ps(p); }                           \
    static inline void wf_storeu(float *p, wf v) { P##_storeu_ps(p, v); }                           \
    static inline wf wf_set1(float x) { return P##_set1_ps(x); }                                     \
    static inline wf wf_add(wf a, wf b) { return P##_add_ps(a, b); }                                 \
    static inline wf wf_sub(wf a, wf b) { return P##_sub_ps(a, b); }                                 \
    static inline wf wf_mul(wf a, wf b) { return P##_mul_ps(a, b); }                                 \
    static inline wf wf_div(wf a, wf b) { return P##_div_ps(a, b); }                                 \
    static inline wf wf_sqrt(wf a) { return P##_sqrt_ps(a); }                                        \
    static inline wf wf_max(wf a, wf b) { return P##_max_ps(a, b); }                                 \
    static inline wf wf_max_nonneg(wf a, wf b)                                                       \
    {                                                                                                \
        return P##_castsi##SI##_ps(P##_max_epi32(P##_castps_si##SI(a), P##_castps_si##SI(b)));       \
    }                                                                                                \
    static inline wf wf_min(wf a, wf b) { return P##_min_ps(a, b); }
#define SBX_HAVE_MIN 1

/* The masks of SSE4.1 and AVX2: a vector of all-ones / all-zeros lanes, like wf. */
#define SBX_WIDE_X86_VECTOR_MASKS(P, SI)                                                             \
    static inline wf wf_abs(wf a) { return P##_andnot_ps(P##_set1_ps(-0.0f), a); }                  \
    static inline wf wf_neg(wf a) { return P##_xor_ps(P##_set1_ps(-0.0f), a); }                     \
    static inline wm wm_and(wm a, wm b) { return P##_and_ps(a, b); }                                 \
    static inline wm wm_or(wm a, wm b) { return P##_or_ps(a, b); }                                   \
    static inline wm wm_andnot(wm a, wm b) { return P##_andnot_ps(b, a); }                           \
    static inline wm wm_not(wm a) { return P##_xor_ps(a, P##_castsi##SI##_ps(P##_set1_epi32(-1))); } \
    static inline wf wf_select(wm m, wf a, wf b) { return P##_blendv_ps(b, a, m); }                  \
    static inline wf wf_keep(wm m, wf a) { return P##_and_ps(m, a); }                                \
    static inline unsigned wm_bits(wm m) { return (unsigned)P##_movemask_ps(m); }

#endif

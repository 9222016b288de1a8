/* wide_common.h - the wide-float operations shared by every width, built on each ISA's primitives. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_WIDE_COMMON_H
#define SATBOX_WIDE_COMMON_H

/* Included at the end of each wide_<isa>.h, which has defined:
 *   SBX_W                   lanes (4, 8 or 16)
 *   wf, wm                  a vector of SBX_W floats, a mask of SBX_W lanes
 *   wf_loadu / wf_storeu    unaligned load / store of SBX_W floats
 *   wf_set1, wf_add, wf_sub, wf_mul, wf_div, wf_sqrt, wf_abs, wf_neg (sign flip)
 *   wm_gt, wm_ge, wm_le, wm_lt, wm_eq   ordered compares (false when either side is NaN)
 *   wm_and, wm_or, wm_andnot(a, b) = a & ~b, wm_not
 *   wf_select(m, a, b)      m ? a : b per lane
 *   wf_keep(m, a)           m ? a : +0.0 per lane
 *   wf_max_nonneg(a, b)     max of two floats with the sign bit clear, compared as integers: exact,
 *                           and a NaN or infinity always wins (the same on every ISA)
 *   wf_max                  per-lane max (callers keep NaN away: ISAs differ on it); wf_min below
 *   wm_bits(m)              lane l -> bit l of an unsigned
 *   wf_store_u8(dst, v, k)  lanes [0, k) of v (small whole numbers >= 0) stored as k bytes
 *   wf_store_i32(dst, v, k) lanes [0, k) of v (whole numbers, |v| < 2^31) stored as k int32 (in
 *                           uint32_t: -1.0f gives 0xFFFFFFFF)
 * and may have defined native versions of the optional ones below (SBX_HAVE_PART: masked
 * wf_load_part / wf_store_part; SBX_HAVE_RECORDS: wf_load_records; SBX_HAVE_ROWS8: wf_load_rows8; SBX_HAVE_STORE_BITS:
 * wm_store_bits; SBX_HAVE_COMPRESS: wf_compress / wf_expand).
 * Only IEEE-exact operations are used (no approximations, no FMA), so every width gives the
 * same bits per lane as the scalar reference. */

#include <stdint.h>
#include <string.h>

#if !defined(SBX_W)
#error "include a wide_<isa>.h, not wide_common.h"
#endif

static inline wf wf_zero(void) { return wf_set1(0.0f); }

#if !defined(SBX_HAVE_MIN)
/* wf_min(a, b) = a < b ? a : b per lane (b when equal or unordered): the semantics of x86 minps,
 * which the x86 layers use natively (SBX_HAVE_MIN); NEON's vminq differs on -0/+0 and NaN. */
static inline wf wf_min(wf a, wf b) { return wf_select(wm_lt(a, b), a, b); }
#endif

#if !defined(SBX_HAVE_PART)
/* Partial load / store through a zeroed SBX_W-lane buffer: touches only the first k elements. */
static inline wf wf_load_part(const float *p, int k)
{
    float buf[SBX_W];
    memset(buf, 0, sizeof buf);
    memcpy(buf, p, (size_t)k * sizeof(float));
    return wf_loadu(buf);
}
static inline void wf_store_part(float *p, wf v, int k)
{
    float buf[SBX_W];
    wf_storeu(buf, v);
    memcpy(p, buf, (size_t)k * sizeof(float));
}
#endif

#if !defined(SBX_HAVE_STORE_BITS)
/* Bit l of x moved to byte l (8 bits -> 8 bytes 0 or 1), no branches. */
static inline uint64_t sbx_spread8(unsigned bits)
{
    uint64_t x = bits & 0xFFu;
    x = (x | x << 28) & 0x0000000F0000000Full;
    x = (x | x << 14) & 0x0003000300030003ull;
    x = (x | x << 7) & 0x0101010101010101ull;
    return x;
}
/* wm_store_bits(dst, bits, k): bits [0, k) of `bits` stored as k bytes 0 or 1 (hit, bad). A
 * whole step of 4 lanes is one multiply: bits * 0x204081 = bits | bits << 7 | bits << 14 |
 * bits << 21 (no two copies overlap, so no carries), which puts bit l at bit 8l: byte l on a
 * little-endian target, as the 8-lane spread below assumes too. */
static inline void wm_store_bits(uint8_t *dst, unsigned bits, int k)
{
    if (k == SBX_W && SBX_W == 4) {
        uint32_t v = ((bits & 15u) * 0x204081u) & 0x01010101u;
        memcpy(dst, &v, 4);
    } else if (k == SBX_W && SBX_W >= 8) {
        for (int o = 0; o < SBX_W; o += 8) {
            uint64_t v = sbx_spread8(bits >> o);
            memcpy(dst + o, &v, 8);
        }
    } else {
        for (int l = 0; l < k; l++)
            dst[l] = (uint8_t)((bits >> l) & 1u);
    }
}
#endif

/* wm_count(bits): the number of lanes set in `bits` (a wm_bits value, < 2^SBX_W), an int as
 * __builtin_popcount gives it. At 4 lanes a shift of a 64-bit constant whose nibble b holds
 * popcount(b): SSE4.1 has no popcnt instruction (GCC enables it with -mavx2, not with -msse4.1),
 * so __builtin_popcount there is a call to libgcc, and a call clobbers every vector register
 * (what is live across it is spilled). */
static inline int wm_count(unsigned bits)
{
    if (SBX_W == 4)
        return (int)((0x4332322132212110ull >> (4u * (bits & 15u))) & 15u);
    return __builtin_popcount(bits);
}

/* wf_gather(base, idx): lane l = base[idx[l]]. Lane by lane on purpose: faster than the native
 * vgatherdps of AVX2 and AVX-512 (pool sources, random pairs; bench/). Loads only: the bits are
 * the same either way. */
static inline wf wf_gather(const float *base, const int32_t *idx)
{
    float buf[SBX_W];
    for (int l = 0; l < SBX_W; l++)
        buf[l] = base[idx[l]];
    return wf_loadu(buf);
}

#if !defined(SBX_HAVE_ROWS8)
/* wf_load_rows8(rows, out): lane l of out[v] = rows[l][v] for v < 8, where each rows[l] points to 8
 * floats (a field of a satbox2d_prepared record). Lane by lane; loads only. */
static inline void wf_load_rows8(const float *const *rows, wf out[8])
{
    for (int v = 0; v < 8; v++) { /* one slot at a time: a small buffer (the 16 KiB stack, satbox.h) */
        float buf[SBX_W];
        for (int l = 0; l < SBX_W; l++)
            buf[l] = rows[l][v];
        out[v] = wf_loadu(buf);
    }
}
#endif

#if !defined(SBX_HAVE_RECORDS)
/* wf_load_records(rec, out): lane l of out[q] = rec[l][q] for q < 15, where each rec[l] points to
 * a 64-byte record of 16 floats (satbox_rec). Lane by lane; loads only. */
static inline void wf_load_records(const float *const *rec, wf out[15])
{
    float buf[15][SBX_W];
    for (int l = 0; l < SBX_W; l++)
        for (int q = 0; q < 15; q++)
            buf[q][l] = rec[l][q];
    for (int q = 0; q < 15; q++)
        out[q] = wf_loadu(buf[q]);
}
#endif

#if !defined(SBX_HAVE_COMPRESS)
/* wf_compress(v, m): the lanes of v set in m, packed into the low lanes in order; wf_expand(v, m):
 * the inverse, lane l set in m takes lane popcount(m & ((1 << l) - 1)) of v. The other lanes are
 * unspecified (ISAs differ: callers never read them). Lane by lane. */
static inline wf wf_move_lanes(wf v, unsigned m, int expand)
{
    float in[SBX_W], out[SBX_W];
    wf_storeu(in, v);
    memset(out, 0, sizeof out);
    int n = 0;
    for (int l = 0; l < SBX_W; l++, m >>= 1)
        if (m & 1u) {
            if (expand)
                out[l] = in[n++];
            else
                out[n++] = in[l];
        }
    return wf_loadu(out);
}
static inline wf wf_compress(wf v, unsigned m) { return wf_move_lanes(v, m, 0); }
static inline wf wf_expand(wf v, unsigned m) { return wf_move_lanes(v, m, 1); }
#endif

#endif

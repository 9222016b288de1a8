/* lanes.h - the lane orders of wf_compress / wf_expand, computed by the compiler from their rule. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_LANES_H
#define SATBOX_LANES_H

#include <stdint.h>

/* The rule, for a mask m of lanes: compress puts the set lanes first, in order; expand gives
 * set lane l the source lane SBX_RANK(m, l), the number of set lanes below l. A lane with no
 * source reads lane 0. Both tables are written as that rule, not as numbers, so they cannot
 * drift from it (the checkers compare every path's outputs, which go through them). */
#define SBX_BIT(m, l) (((unsigned)(m) >> (l)) & 1u)
#define SBX_POP8(x)                                                                                 \
    (SBX_BIT(x, 0) + SBX_BIT(x, 1) + SBX_BIT(x, 2) + SBX_BIT(x, 3) + SBX_BIT(x, 4) + SBX_BIT(x, 5) + \
     SBX_BIT(x, 6) + SBX_BIT(x, 7))
#define SBX_RANK(m, l) SBX_POP8((unsigned)(m) & ((1u << (l)) - 1u))

/* Source lane of destination lane d: compress (the set lane of rank d) and expand. */
#define SBX_PICK(m, d, l) (SBX_BIT(m, l) && SBX_RANK(m, l) == (d) ? (l) : 0u)
#define SBX_COMPRESS_SRC(m, d)                                                                      \
    (SBX_PICK(m, d, 0) + SBX_PICK(m, d, 1) + SBX_PICK(m, d, 2) + SBX_PICK(m, d, 3) + SBX_PICK(m, d, 4) + \
     SBX_PICK(m, d, 5) + SBX_PICK(m, d, 6) + SBX_PICK(m, d, 7))
#define SBX_EXPAND_SRC(m, l) (SBX_BIT(m, l) ? SBX_RANK(m, l) : 0u)

/* F(0..15) and F(0..255), each followed by a comma: whole tables; SBX_ROW16 a row of 16 bytes. */
#define SBX_LIST4(F, b) F((b)), F((b) + 1), F((b) + 2), F((b) + 3),
#define SBX_LIST16(F, b) SBX_LIST4(F, (b)) SBX_LIST4(F, (b) + 4) SBX_LIST4(F, (b) + 8) SBX_LIST4(F, (b) + 12)
#define SBX_LIST256(F)                                                                              \
    SBX_LIST16(F, 0) SBX_LIST16(F, 16) SBX_LIST16(F, 32) SBX_LIST16(F, 48) SBX_LIST16(F, 64)         \
    SBX_LIST16(F, 80) SBX_LIST16(F, 96) SBX_LIST16(F, 112) SBX_LIST16(F, 128) SBX_LIST16(F, 144)     \
    SBX_LIST16(F, 160) SBX_LIST16(F, 176) SBX_LIST16(F, 192) SBX_LIST16(F, 208) SBX_LIST16(F, 224)   \
    SBX_LIST16(F, 240)
#define SBX_ROW16(F, m)                                                                             \
    F(m, 0), F(m, 1), F(m, 2), F(m, 3), F(m, 4), F(m, 5), F(m, 6), F(m, 7), F(m, 8), F(m, 9), F(m, 10), \
        F(m, 11), F(m, 12), F(m, 13), F(m, 14), F(m, 15)

/* 4 lanes of 4 bytes (SSE4.1 pshufb, NEON tbl): entry m holds the 16 source bytes of the
 * destination, byte b of lane d taken from byte b of its source lane. */
#define SBX_BYTE4(SRC, m, b) (uint8_t)(4u * SRC(m, (b) / 4) + (b) % 4u)
#define SBX_COMPRESS_BYTE4(m, b) SBX_BYTE4(SBX_COMPRESS_SRC, m, b)
#define SBX_EXPAND_BYTE4(m, b) SBX_BYTE4(SBX_EXPAND_SRC, m, b)
#define SBX_COMPRESS_ROW4(m) {SBX_ROW16(SBX_COMPRESS_BYTE4, m)}
#define SBX_EXPAND_ROW4(m) {SBX_ROW16(SBX_EXPAND_BYTE4, m)}

/* 8 lanes (AVX2 vpermps): entry m holds, in nibble d, the source lane of destination lane d. */
#define SBX_NIBBLE(x, d) ((x) << (4u * (d)))
#define SBX_COMPRESS8(m)                                                                         \
    (SBX_BIT(m, 0) * SBX_NIBBLE(0u, SBX_RANK(m, 0)) + SBX_BIT(m, 1) * SBX_NIBBLE(1u, SBX_RANK(m, 1)) + \
     SBX_BIT(m, 2) * SBX_NIBBLE(2u, SBX_RANK(m, 2)) + SBX_BIT(m, 3) * SBX_NIBBLE(3u, SBX_RANK(m, 3)) + \
     SBX_BIT(m, 4) * SBX_NIBBLE(4u, SBX_RANK(m, 4)) + SBX_BIT(m, 5) * SBX_NIBBLE(5u, SBX_RANK(m, 5)) + \
     SBX_BIT(m, 6) * SBX_NIBBLE(6u, SBX_RANK(m, 6)) + SBX_BIT(m, 7) * SBX_NIBBLE(7u, SBX_RANK(m, 7)))
#define SBX_EXPAND8(m)                                                                           \
    (SBX_NIBBLE(SBX_EXPAND_SRC(m, 0), 0) + SBX_NIBBLE(SBX_EXPAND_SRC(m, 1), 1) +                    \
     SBX_NIBBLE(SBX_EXPAND_SRC(m, 2), 2) + SBX_NIBBLE(SBX_EXPAND_SRC(m, 3), 3) +                    \
     SBX_NIBBLE(SBX_EXPAND_SRC(m, 4), 4) + SBX_NIBBLE(SBX_EXPAND_SRC(m, 5), 5) +                    \
     SBX_NIBBLE(SBX_EXPAND_SRC(m, 6), 6) + SBX_NIBBLE(SBX_EXPAND_SRC(m, 7), 7))

#endif

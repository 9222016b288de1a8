/* isa.h - the one list of ISA paths; the dispatch, the kernel tables, the tests' and the bench's path lists expand it. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_ISA_H
#define SATBOX_ISA_H

/* X(name, ENUM, width, rank, arch, detect, flags), one row per path, in the order of satbox.h's satbox_isa
 * (dispatch.c checks it):
 *   name    lower case: satbox_isa_name(), SATBOX_ISA=name, its table sbx_path_<name>, its files
 *           src/kernel_<name>.c and simd/wide_<name>.h, its static library satbox_<name>, its
 *           feature option in meson_options.txt
 *   ENUM    SATBOX_ISA_<ENUM> (public), and the build's defines: SATBOX_HAVE_<ENUM> (in the
 *           library), SATBOX_PORTABLE_<ENUM> (portable twin linked: tests), SATBOX_BARE_<ENUM>
 *           (bare twin linked: bench), each set by src/meson.build
 *   width   pairs per step (satbox_isa_width(); the kernels' SBX_W, checked where they are built)
 *   rank    the order of satbox_isa_cap() and of the default choice (the highest rank the CPU
 *           runs); paths of one rank never meet on one CPU (NEON ranks with SSE4.1: 4 lanes)
 *   arch    the processors it can exist on: any, x86 or arm64 (SBX_ARCH_<arch> is 1 on them)
 *   detect  the field of cpu.c's sbx_cpu that says this CPU and OS run the path
 *   flags   the compiler flags its kernel is built with (src/meson.build; a string for meson)
 * The files that cannot include this one read it as text: src/meson.build (the rows' name, arch
 * and flags), stack_frames.py (tests) and bench/isa_order.py. Keep one row a line, as below.
 * Adding a path: src/README.md, Recipes. */
#define SBX_ISAS(X)                                                                                 \
    X(scalar, SCALAR, 1, 0, any, scalar, "")                                                        \
    X(sse41, SSE41, 4, 1, x86, sse41, "-msse4.1")                                                   \
    X(avx2, AVX2, 8, 2, x86, avx2, "-mavx2")                                                        \
    X(avx512, AVX512, 16, 3, x86, avx512, "-mavx512f -mavx512dq -mavx512bw -mavx512vl")              \
    X(neon, NEON, 4, 1, arm64, neon, "")

#define SBX_ARCH_any 1
#if defined(__x86_64__) || defined(__i386__)
#define SBX_ARCH_x86 1
#else
#define SBX_ARCH_x86 0
#endif
#if defined(__aarch64__)
#define SBX_ARCH_arm64 1
#else
#define SBX_ARCH_arm64 0
#endif

/* The scalar reference is always built (kernel_scalar.c and the _ref files) and has no portable or
 * bare twin. */
#define SATBOX_HAVE_SCALAR 1

/* SBX_IF(SBX_DEFINED(M))(yes, no): `yes` when macro M is defined as 1 (as meson's -DM does), else
 * `no`; so that a registry expansion can leave out the tables a build lacks (#if cannot sit in a
 * macro). */
#define SBX_CAT_(a, b) a##b
#define SBX_CAT(a, b) SBX_CAT_(a, b)
#define SBX_CAT3(a, b, c) SBX_CAT(SBX_CAT(a, b), c)
#define SBX_SECOND_(a, b, ...) b
#define SBX_SECOND(...) SBX_SECOND_(__VA_ARGS__)
#define SBX_ONE_IF_1_1 ~, 1
#define SBX_DEFINED_(v) SBX_SECOND(SBX_ONE_IF_1_##v, 0, ~)
#define SBX_DEFINED(m) SBX_DEFINED_(m)
#define SBX_IF_1(yes, no) yes
#define SBX_IF_0(yes, no) no
#define SBX_IF(c) SBX_CAT(SBX_IF_, c)

/* &table when the build defines flag (SATBOX_HAVE_<E>, ...), else NULL. */
#define SBX_TABLE_IF(flag, table) SBX_IF(SBX_DEFINED(flag))(&table, NULL)

/* Each path's width as a constant, for the kernels' check of SBX_W: SBX_WIDTH_<name>. */
enum sbx_isa_width {
#define SBX_ISA_WIDTH_ENUM(name, E, width, rank, arch, detect, flags) SBX_WIDTH_##name = width,
    SBX_ISAS(SBX_ISA_WIDTH_ENUM)
#undef SBX_ISA_WIDTH_ENUM
};

#endif

/* cpu.c - which ISA paths this CPU and operating system can run. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

/* What this CPU and OS can run, one field per `detect` column of core/isa.h (1: runs it). */
typedef struct sbx_cpu {
    int scalar, sse41, avx2, avx512, neon;
} sbx_cpu;

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 through xgetbv, written as bytes so that no -mxsave flag is needed for this file. */
static unsigned long long xgetbv0(void)
{
    unsigned eax, edx;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

/* valgrind cannot execute AVX-512 (it may or may not hide it from CPUID/XCR0): under valgrind
 * (seen by its preloaded vgpreload_*.so helpers) we stop at AVX2. */
static int under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

static sbx_cpu detect(void)
{
    sbx_cpu cpu = {.scalar = 1};
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return cpu;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    cpu.sse41 = (c >> 19) & 1;
    if (!osxsave || !avx)
        return cpu;
    unsigned long long xcr0 = xgetbv0();
    int ymm_os = (xcr0 & 0x6) == 0x6;    /* XMM and YMM state saved by the OS */
    int zmm_os = (xcr0 & 0xE6) == 0xE6;  /* + opmask, ZMM_Hi256, Hi16_ZMM */
    if (__get_cpuid_max(0, NULL) < 7)
        return cpu;
    __cpuid_count(7, 0, a, b, c, d);
    int avx2 = (b >> 5) & 1;
    int avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1); /* F DQ BW VL */
    cpu.avx2 = avx2 && ymm_os;
    cpu.avx512 = avx512 && zmm_os && avx2 && !under_valgrind();
    return cpu;
}

#elif defined(__aarch64__)

/* Advanced SIMD is mandatory on AArch64: chosen at compile time. */
static sbx_cpu detect(void) { return (sbx_cpu){.scalar = 1, .neon = 1}; }

#else

static sbx_cpu detect(void) { return (sbx_cpu){.scalar = 1}; }

#endif

unsigned sbx_cpu_paths(void)
{
    sbx_cpu cpu = detect();
    unsigned paths = 0;
#define PATH_BIT(name, E, width, rank, arch, detect, flags) paths |= cpu.detect ? 1u << SATBOX_ISA_##E : 0u;
    SBX_ISAS(PATH_BIT)
#undef PATH_BIT
    return paths;
}

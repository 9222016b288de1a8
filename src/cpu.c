/* cpu.c - which ISA paths this CPU and operating system can run. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0 through xgetbv, written as bytes so that no -mxsave flag is needed for this file. */
static unsigned long long xgetbv0(void)
{
    unsigned eax, edx;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}

/* valgrind 3.19 cannot execute AVX-512. On our Xeon it also hides it from CPUID/XCR0, but we do
 * not rely on that: under valgrind (seen by its preloaded vgpreload_*.so helpers) we stop at AVX2. */
static int under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

unsigned sbx_cpu_paths(void)
{
    unsigned paths = 1u << SATBOX_ISA_SCALAR;
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return paths;
    int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (sse41)
        paths |= 1u << SATBOX_ISA_SSE41;
    if (!osxsave || !avx)
        return paths;
    unsigned long long xcr0 = xgetbv0();
    int ymm_os = (xcr0 & 0x6) == 0x6;    /* XMM and YMM state saved by the OS */
    int zmm_os = (xcr0 & 0xE6) == 0xE6;  /* + opmask, ZMM_Hi256, Hi16_ZMM */
    if (__get_cpuid_max(0, NULL) < 7)
        return paths;
    __cpuid_count(7, 0, a, b, c, d);
    int avx2 = (b >> 5) & 1;
    int avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1); /* F DQ BW VL */
    if (avx2 && ymm_os)
        paths |= 1u << SATBOX_ISA_AVX2;
    if (avx512 && zmm_os && avx2 && !under_valgrind())
        paths |= 1u << SATBOX_ISA_AVX512;
    return paths;
}

#elif defined(__aarch64__)

unsigned sbx_cpu_paths(void)
{
    /* Advanced SIMD is mandatory on AArch64: chosen at compile time. */
    return (1u << SATBOX_ISA_SCALAR) | (1u << SATBOX_ISA_NEON);
}

#else

unsigned sbx_cpu_paths(void) { return 1u << SATBOX_ISA_SCALAR; }

#endif

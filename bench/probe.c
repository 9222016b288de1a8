/* probe.c - machine probes for the roofline: streaming read bandwidth and the core clock. */
/* SPDX-License-Identifier: MIT */
#include "probe.h"

/* Eight independent sums so that the adds never limit the loads; integer adds may be reordered,
 * so the compiler vectorises the loop at the width of the clone the CPU selects. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
uint64_t probe_read(const uint64_t *p, size_t n)
{
    uint64_t s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            s[k] += p[i + (size_t)k];
    for (; i < n; i++)
        s[0] += p[i];
    return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

void probe_cycles(uint64_t n)
{
    /* n / 8 loop passes of 8 dependent adds: the chain through `x` is 8 cycles a pass (1-cycle
     * latency each), and the loop counter and branch run beside it, so n adds take n cycles
     * whatever the core's taken-branch rate. */
    uint64_t x = 0, passes = n / 8;
    if (passes == 0)
        return;
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("1:\n\t"
                     "add $1, %1\n\tadd $1, %1\n\tadd $1, %1\n\tadd $1, %1\n\t"
                     "add $1, %1\n\tadd $1, %1\n\tadd $1, %1\n\tadd $1, %1\n\t"
                     "dec %0\n\tjnz 1b"
                     : "+r"(passes), "+r"(x) : : "cc");
#elif defined(__aarch64__) && defined(__GNUC__)
    __asm__ volatile("1:\n\t"
                     "add %1, %1, #1\n\tadd %1, %1, #1\n\tadd %1, %1, #1\n\tadd %1, %1, #1\n\t"
                     "add %1, %1, #1\n\tadd %1, %1, #1\n\tadd %1, %1, #1\n\tadd %1, %1, #1\n\t"
                     "subs %0, %0, #1\n\tb.ne 1b"
                     : "+r"(passes), "+r"(x) : : "cc");
#else
    volatile uint64_t v = x;
    for (uint64_t i = 0; i < passes * 8; i++)
        v = v + 1;
#endif
}

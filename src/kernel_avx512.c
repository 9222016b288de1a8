/* kernel_avx512.c - the SAT kernel instantiated for AVX-512 (F, DQ, BW, VL), 16 pairs per step. */
#define SBX_WIDE_AVX512 1
#if defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_avx512_portable
#else
#define SBX_TABLE sbx_kernels_avx512
#endif
#include "sat_kernel.h"

/* kernel_avx2.c - the SAT kernel instantiated for AVX2, 8 pairs per step. */
#define SBX_WIDE_AVX2 1
#if defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_avx2_portable
#else
#define SBX_TABLE sbx_kernels_avx2
#endif
#include "sat_kernel.h"

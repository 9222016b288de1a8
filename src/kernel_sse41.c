/* kernel_sse41.c - the SAT kernel instantiated for SSE4.1, 4 pairs per step. */
#define SBX_WIDE_SSE41 1
#if defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_sse41_portable
#else
#define SBX_TABLE sbx_kernels_sse41
#endif
#include "sat_kernel.h"

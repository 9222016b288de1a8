/* kernel_neon.c - the SAT kernel instantiated for NEON, 4 pairs per step. */
#define SBX_WIDE_NEON 1
#if defined(SATBOX_PORTABLE)
#define SBX_TABLE sbx_kernels_neon_portable
#else
#define SBX_TABLE sbx_kernels_neon
#endif
#include "sat_kernel.h"

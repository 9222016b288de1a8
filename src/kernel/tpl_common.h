/* tpl_common.h - what every kernel template needs: the internal types and the instantiation checks. */
#ifndef SATBOX_TPL_COMMON_H
#define SATBOX_TPL_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../internal.h"

#if !defined(SBX_W)
#error "include a wide_<isa>.h before the kernel templates"
#endif
#if !defined(SBX_TABLE)
#error "define SBX_TABLE (the name of this instantiation's kernel table) before the kernel templates"
#endif

#define SBX_INLINE SBX_ALWAYS_INLINE

#endif

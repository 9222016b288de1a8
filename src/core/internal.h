/* internal.h - what every room shares: the kernel list (SBX_KERNELS) and path table, dispatch, the argument checks. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_INTERNAL_H
#define SATBOX_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"
#include "core/isa.h"
#include "core/outputs.h"

/* Inlining that the scalar reference's speed depends on (it must not pay a call per pair). */
#if defined(__GNUC__)
#define SBX_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define SBX_ALWAYS_INLINE static inline
#endif
/* A function kept out of line so that its frame is gone before its caller's next call: the
 * argument checks before a kernel, the stages of a kernel (every call fits in a 16 KiB thread
 * stack, satbox.h). */
#if defined(__GNUC__)
#define SBX_NOINLINE __attribute__((noinline))
#else
#define SBX_NOINLINE
#endif

/* A hint to fetch the cache line at p (no effect on results). */
#if defined(__GNUC__)
#define SBX_PREFETCH(p) __builtin_prefetch(p)
#else
#define SBX_PREFETCH(p) ((void)(p))
#endif


/* One ISA path: every kernel it has, in one table (sbx_path_<name>, core/isa.h). THE list of
 * kernels: X(name, return type, arguments), what it returns beside it. A path defines
 * <prefix><name> for each (kernel_<name> in the templates, sbx_scalar_<name> in the scalar
 * reference) and fills its table with SBX_PATH_TABLE. Adding a kernel: src/README.md, Recipes.
 * The rooms' jobs are declared in their headers (below: only their names). */
typedef struct sbx_job sbx_job;         /* box3d/box3d.h */
typedef struct sbx_box_job sbx_box_job; /* box3d/box3d.h */
struct sbx_cjob;                        /* box3d/contacts.h */
struct sbx_job2d;                       /* poly2d/poly2d.h */
struct sbx_cjob2d;                      /* poly2d/contacts2d.h */
struct sbx_pjob;                        /* planner/planner.h */
struct sbx_fkjob;                       /* planner/planner.h */
#define SBX_KERNELS(X)                                                                                            \
    X(overlap, ptrdiff_t, (const sbx_job *job))                  /* number of pairs with hit == 1 */              \
    X(collide, ptrdiff_t, (const sbx_job *job))                  /* number of pairs with hit == 1 */              \
    X(aabb, ptrdiff_t, (const sbx_box_job *job))                 /* number of valid boxes */                      \
    X(axes_from_quat, ptrdiff_t, (const float *const quat[4], size_t n, float *axis[3][3])) /* invalid count */   \
    X(contacts, ptrdiff_t, (const struct sbx_cjob *job))         /* number of pairs with hit == 1 */              \
    X(overlap2d, ptrdiff_t, (const struct sbx_job2d *job))       /* number of pairs with hit == 1 */              \
    X(collide2d, ptrdiff_t, (const struct sbx_job2d *job))       /* number of pairs with hit == 1 */              \
    X(contacts2d, ptrdiff_t, (const struct sbx_cjob2d *job))     /* number of pairs with count > 0 */             \
    X(configs, ptrdiff_t, (const struct sbx_pjob *job))          /* configurations not free, or a motion's state */ \
    X(chain_fk, void, (const struct sbx_fkjob *job))             /* the link boxes of n configurations */

typedef struct sbx_path {
#define SBX_KERNEL_FIELD(name, ret, args) ret(*name) args;
    SBX_KERNELS(SBX_KERNEL_FIELD)
#undef SBX_KERNEL_FIELD
    int width; /* pairs per step */
} sbx_path;

/* The table of a path whose kernels are <prefix><name> (SBX_KERNELS), `width` pairs per step. */
#define SBX_KERNEL_INIT(name, ret, args) .name = SBX_KERNEL_PREFIXED(name),
#define SBX_PATH_TABLE(width_) {SBX_KERNELS(SBX_KERNEL_INIT).width = (width_)}

/* The library's tables: the scalar reference (kernel_scalar.c) and each kernel_<name>.c. Their portable
 * and bare twins (tests and bench only) are declared in variants.h. */
#define SBX_PATH_DECL(name, E, width, rank, arch, detect, flags) extern const sbx_path sbx_path_##name;
SBX_ISAS(SBX_PATH_DECL)
#undef SBX_PATH_DECL

/* The table of the active path (dispatch.c): one atomic load and one table pointer. */
const sbx_path *sbx_active(void);
/* The table of a given path if compiled in (supported by the CPU or not), else NULL. */
const sbx_path *sbx_path_for(satbox_isa isa);

/* cpu.c: bit mask (1u << isa) of the paths this CPU and OS can execute (ignores the build). */
unsigned sbx_cpu_paths(void);


/* ---- argument checks (core/args.c), shared by every public function ---- */

/* Memory ranges of a call's inputs and outputs, to reject outputs that overlap anything. */
typedef struct sbx_span {
    uintptr_t lo, hi; /* [lo, hi) */
} sbx_span;

/* The most output arrays a call records: the collide or contacts form's (SBX_OUTPUTS), whichever
 * has more (the contacts form: 27), and a compacted list; at least satbox_axes_from_quat's 9
 * (args.c checks). */
#define SBX_OUT_N_CO(name, type, rows, vec, ov, co, ct, flagged) +(co) * SBX_OUT_COUNT(3, rows, vec)
#define SBX_OUT_N_CT(name, type, rows, vec, ov, co, ct, flagged) +(ct) * SBX_OUT_COUNT(3, rows, vec)
#define SBX_OUT_N_MAX_(co, ct) (1 + ((co) > (ct) ? (co) : (ct)))
#define SBX_MAX_OUT_SPANS SBX_OUT_N_MAX_(0 SBX_OUTPUTS(SBX_OUT_N_CO), 0 SBX_OUTPUTS(SBX_OUT_N_CT))

typedef struct sbx_spans {
    sbx_span in[40], out[SBX_MAX_OUT_SPANS];
    int nin, nout;
} sbx_spans;

void sbx_add_in(sbx_spans *s, const void *p, size_t bytes);
void sbx_add_out(sbx_spans *s, const void *p, size_t bytes);
/* 1 when an output range meets an input range or another output range. */
int sbx_aliased(const sbx_spans *s);
/* `na` arrays of `bytes` bytes each: SATBOX_ERR_NULL if one is NULL, else each recorded as an input
 * (output = 0) or an output span. */
int sbx_add_arrays(sbx_spans *s, int output, const void *const *arrays, int na, size_t bytes);
/* An output array bound to its job field and recorded as an output span (NULL: skipped, not recorded). */
#define SBX_BIND(s, field, array, bytes) ((field) = (array), sbx_add_out((s), (array), (bytes)))
/* Output `name` of the public result struct *pub bound to the same field of the job *job, each of
 * its arrays recorded as an output span of n elements (expanded per entry of SBX_OUTPUTS). */
#define SBX_BIND_OUT(s, job, pub, name, type, n)                                                           \
    for (size_t k_ = 0; k_ < SBX_OUT_ARRAYS(pub, name, type); k_++)                                          \
        SBX_BIND(s, SBX_OUT_AT(job, name, type, k_), SBX_OUT_AT_C(pub, name, type, k_), (n) * sizeof(type))
/* What every batch call checks first: n == 0 -> 1 (nothing to do, nothing checked); n (or the
 * pool size) above SATBOX_MAX_COUNT -> SATBOX_ERR_COUNT; a margin that is not finite, when the
 * call takes one -> SATBOX_ERR_ARG; else SATBOX_OK. */
int sbx_check_batch(size_t n, size_t pool_n, int takes_margin, float margin);
/* Pool + pairs, in this order: the pool's size and the pair list's pointer (sbx_check_pool),
 * then the caller checks the pool's arrays, then every index (sbx_check_indices, which records
 * the pair list in s). */
int sbx_check_pool(const satbox_pair *pairs, size_t pool_n);
int sbx_check_indices(const satbox_pair *pairs, size_t n, size_t pool_n, sbx_spans *s);
/* The outputs' rule of every pair call, 3D and 2D, after its inputs' checks: when the collide
 * result was given, its caller has bound it (`bound`); else the overlap arrays hit and bad are
 * recorded, and hit (collide: the result) is required unless the source is a pool, whose compacted
 * list may be all the caller wants. Then the list; returns SATBOX_ERR_NULL, _ALIAS or SATBOX_OK. */
int sbx_pair_outputs(sbx_spans *s, int collide, int bound, int pool, const uint8_t *hit, const uint8_t *bad,
                     const uint32_t *compact, size_t n);
#endif

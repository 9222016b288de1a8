/* internal.h - what the scalar reference, the ISA kernels and the dispatcher share. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_INTERNAL_H
#define SATBOX_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "satbox/satbox.h"
#include "isa.h"
#include "outputs.h"

/* Inlining that the scalar reference's speed depends on (a call per pair costs a third of it). */
#if defined(__GNUC__)
#define SBX_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define SBX_ALWAYS_INLINE static inline
#endif
/* A function kept out of line so that its frame is gone before its caller's next call: the
 * argument checks before a kernel, the stages of a kernel (every call fits in a 16 KiB thread
 * stack, satbox.h). */
#if defined(__GNUC__)
#define SBX_NOINLINE static __attribute__((noinline))
#else
#define SBX_NOINLINE static
#endif

/* A hint to fetch the cache line at p (no effect on results). */
#if defined(__GNUC__)
#define SBX_PREFETCH(p) __builtin_prefetch(p)
#else
#define SBX_PREFETCH(p) ((void)(p))
#endif
/* Record pools of at least this many boxes (1 MiB) are assumed not to be in cache: the record
 * forms then fetch the two records of the pair SBX_REC_AHEAD pairs ahead of the one they test,
 * so that random slots in a pool far larger than the caches cost little more than sweep order. */
#ifndef SBX_REC_PREFETCH_MIN_POOL
#define SBX_REC_PREFETCH_MIN_POOL 16384
#endif
#define SBX_REC_AHEAD 48

#include "sources.h" /* THE list of pair sources (SBX_SOURCES) and its predicates */

/* sbx_job's fields: the outputs collide carries (sbx_job2d's: SBX_OUT_FIELD2, sbx_cjob's: SBX_OUT_CFIELD). */
#define SBX_OUT_FIELD3(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##co(type *SBX_OUT_DECL(3, name, rows, vec);)

/* One call's worth of work, already checked by the public entry point. The kernels process
 * pairs [0, n) and write only the outputs that are not NULL. */
typedef struct sbx_job {
    sbx_src src;
    size_t n;
    const satbox_boxes *ma, *mb;   /* SBX_SRC_MAT; mb also for SBX_SRC_ONE */
    const satbox_qboxes *qa, *qb;  /* SBX_SRC_QUAT */
    const satbox_box *one;         /* SBX_SRC_ONE */
    const satbox_boxes *pool;      /* SBX_SRC_POOL */
    const satbox_rec *rec;         /* SBX_SRC_REC */
    const satbox_qrec *qrec;       /* SBX_SRC_QREC */
    const satbox_pair *pairs;      /* pool sources */
    size_t pool_n;                 /* pool sources: boxes in the pool */
    float margin;                  /* collide only */
    SBX_OUTPUTS(SBX_OUT_FIELD3)    /* hit, bad, separation, normal[3], axis: each may be NULL (overlap: hit, bad) */
    uint32_t *compact;             /* may be NULL: indices of pairs with hit == 1, ascending */
} sbx_job;

/* A box job (AABB): either matrix or quaternion source. */
typedef struct sbx_box_job {
    size_t n;
    const satbox_boxes *m;   /* non-NULL: matrix source */
    const satbox_qboxes *q;  /* otherwise: quaternion source */
    float margin;
    float *min[3], *max[3];
} sbx_box_job;

/* One ISA path: every kernel it has, in one table (sbx_path_<name>, src/isa.h). THE list of
 * kernels: X(name, return type, arguments, what it returns). A path defines <prefix><name> for
 * each (kernel_<name> in the templates, sbx_scalar_<name> in the scalar reference) and fills its
 * table with SBX_PATH_TABLE. Adding a capability: one line here, its template and scalar twin.
 * The contacts and 2D jobs are declared in contacts.h and internal2d.h. */
struct sbx_cjob;
struct sbx_job2d;
struct sbx_cjob2d;
#define SBX_KERNELS(X)                                                                                            \
    X(overlap, ptrdiff_t, (const sbx_job *job))                  /* number of pairs with hit == 1 */              \
    X(collide, ptrdiff_t, (const sbx_job *job))                  /* number of pairs with hit == 1 */              \
    X(aabb, ptrdiff_t, (const sbx_box_job *job))                 /* number of valid boxes */                      \
    X(axes_from_quat, ptrdiff_t, (const float *const quat[4], size_t n, float *axis[3][3])) /* invalid count */   \
    X(contacts, ptrdiff_t, (const struct sbx_cjob *job))         /* number of pairs with hit == 1 */              \
    X(overlap2d, ptrdiff_t, (const struct sbx_job2d *job))       /* number of pairs with hit == 1 */              \
    X(collide2d, ptrdiff_t, (const struct sbx_job2d *job))       /* number of pairs with hit == 1 */              \
    X(contacts2d, ptrdiff_t, (const struct sbx_cjob2d *job))     /* number of pairs with count > 0 */

typedef struct sbx_path {
#define SBX_KERNEL_FIELD(name, ret, args) ret(*name) args;
    SBX_KERNELS(SBX_KERNEL_FIELD)
#undef SBX_KERNEL_FIELD
    int width; /* pairs per step */
} sbx_path;

/* The table of a path whose kernels are <prefix><name> (SBX_KERNELS), `width` pairs per step. */
#define SBX_KERNEL_INIT(name, ret, args) .name = SBX_KERNEL_PREFIXED(name),
#define SBX_PATH_TABLE(width_) {SBX_KERNELS(SBX_KERNEL_INIT).width = (width_)}

/* The library's tables: the scalar reference (scalar.c) and each kernel_<name>.c. Their portable
 * and bare twins (tests and bench only) are declared in variants.h. */
#define SBX_PATH_DECL(name, E, width, rank, arch, detect, flags) extern const sbx_path sbx_path_##name;
SBX_ISAS(SBX_PATH_DECL)
#undef SBX_PATH_DECL

/* The scalar reference's collide (its table's entry), called directly by the checked mode: a
 * direct call keeps its depth visible in the call graphs tests/stack_frames.py reads. */
ptrdiff_t sbx_scalar_collide(const sbx_job *job);

/* The table of the active path (dispatch.c): one atomic load and one table pointer. */
const sbx_path *sbx_active(void);
/* The table of a given path if compiled in (supported by the CPU or not), else NULL. */
const sbx_path *sbx_path_for(satbox_isa isa);

/* layout.c: box i of a batch as a struct; 1 when b's axes are unit and orthogonal within tol
 * (|u_k . u_l - delta_kl| <= tol, in double: satbox_validate()'s code 2 and the checked mode). */
void sbx_box_at(const satbox_boxes *v, size_t i, satbox_box *b);
int sbx_axes_orthonormal(const satbox_box *b, double tol);

/* scalar.c: the validity rule of satbox.h ("Bad data") for one box; 1 valid, 0 invalid. */
int sbx_ref_box_valid(const satbox_box *b);

/* checked.c: the checked mode (satbox_checked_active()). After a kernel ran over a checked job
 * with result `count`, these flag the pairs whose boxes break the axes' precondition (outputs as
 * for bad data, bad = SATBOX_BAD_AXES, dropped from the list) and return the corrected count. */
ptrdiff_t sbx_checked_pairs(const sbx_job *job, ptrdiff_t count);

/* cpu.c: bit mask (1u << isa) of the paths this CPU and OS can execute (ignores the build). */
unsigned sbx_cpu_paths(void);


/* ---- argument checks (args.c), shared by every public function ---- */

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
/* NULL checks of a batch descriptor; its arrays recorded as inputs of `count` floats. */
int sbx_check_boxes(const satbox_boxes *b, size_t count, sbx_spans *s);
int sbx_check_qboxes(const satbox_qboxes *b, size_t count, sbx_spans *s);
/* What every batch call checks first: n == 0 -> 1 (nothing to do, nothing checked); n (or the
 * pool size) above SATBOX_MAX_COUNT -> SATBOX_ERR_COUNT; a margin that is not finite, when the
 * call takes one -> SATBOX_ERR_ARG; else SATBOX_OK. */
int sbx_check_batch(size_t n, size_t pool_n, int takes_margin, float margin);
/* Pool + pairs, in this order: the pool's size and the pair list's pointer (sbx_check_pool),
 * then the caller checks the pool's arrays, then every index (sbx_check_indices, which records
 * the pair list in s). */
int sbx_check_pool(const satbox_pair *pairs, size_t pool_n);
int sbx_check_indices(const satbox_pair *pairs, size_t n, size_t pool_n, sbx_spans *s);
/* The inputs of a pair job (n = job->n > 0 pairs, every source; pool_n: the pool forms' size):
 * NULL and index checks, arrays recorded in s. */
int sbx_check_sources(const sbx_job *job, size_t pool_n, sbx_spans *s);
/* The outputs' rule of every pair call, 3D and 2D, after its inputs' checks: when the collide
 * result was given, its caller has bound it (`bound`); else the overlap arrays hit and bad are
 * recorded, and hit (collide: the result) is required unless the source is a pool, whose compacted
 * list may be all the caller wants. Then the list; returns SATBOX_ERR_NULL, _ALIAS or SATBOX_OK. */
int sbx_pair_outputs(sbx_spans *s, int collide, int bound, int pool, const uint8_t *hit, const uint8_t *bad,
                     const uint32_t *compact, size_t n);
/* What every pair and contacts call checks first: sbx_check_batch (with the pool's size; 1 when
 * n == 0), then sbx_check_sources. */
int sbx_check_pair_job(const sbx_job *job, size_t pool_n, int takes_margin, sbx_spans *s);

#endif

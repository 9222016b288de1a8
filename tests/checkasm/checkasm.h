/* checkasm.h - the checker driver: every path against the scalar reference, bit for bit, one area at a time. */
/* SPDX-License-Identifier: MIT */
/* The driver (checkasm.c) owns what every check shares: the command line (--area, --seed, --pairs,
 * --path) and SATBOX_TEST_SCALE, the paths (tests/common/paths.h: the native ones this CPU runs,
 * then the portable twins), the chunks of seeded inputs, the batch sizes around each path's width
 * processed last to first, the guarded outputs and their comparison, the failure count, the
 * reference hash and the replay line. An area (pairs.c, contacts.c, pairs2d.c) says what a chunk
 * holds, which sources it checks and how one batch of a path runs; the driver calls it:
 *
 *   at the start:        open, outputs (the driver allocates them)
 *   for each chunk:      fill
 *     for each source:   start (0: not on this chunk)
 *       for the reference, then each path:
 *                        (outputs reset) begin, run on every batch (last to first), end,
 *                        then check_ref or compare
 *   at the end:          a line per source (pairs, reference hash, counts), summary, close
 *
 * Messages go through ca_fail() (the path, source and chunk come from the driver), outputs are
 * compared with ca_same(); both count the failures. */
#ifndef SATBOX_CHECKASM_H
#define SATBOX_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

#include "gbuf.h"
#include "paths.h"
#include "support.h"

/* One output array of an area: its name in the reports and its element size. */
typedef struct ca_out {
    const char *name;
    gbuf *buf;
    size_t elem;
} ca_out;

/* The reference hash: FNV-1a over 8-byte words (the last bytes one by one), or byte by byte (the
 * 2D area's, whose value checkasm2d printed before the driver: 8ad3456c86ae6ff1 at full size). */
enum { CA_HASH_WORDS, CA_HASH_BYTES };

/* An area's callbacks; `st` is what open() returned. `ref` is 1 while the reference runs (its
 * outputs are the ones the paths are compared with), 0 for a path. */
typedef struct ca_area {
    const char *name;              /* --area NAME */
    int hash;                      /* CA_HASH_WORDS or CA_HASH_BYTES */
    uint64_t seed;                 /* default seed */
    uint64_t (*pairs)(void);       /* default pairs per path and source, at SATBOX_TEST_SCALE */
    size_t chunk;                  /* pairs per chunk */
    int sources;                   /* sources 0 .. sources-1 */
    const char *(*label)(int src); /* a source's name, NULL for one the area does not check */
    void *(*open)(size_t n);
    void (*close)(void *st);
    /* The outputs of the reference's run (ref 1) or a path's (ref 0) as a list (at most
     * CA_MAX_OUTS); returns how many. The driver allocates them, resets them before each run
     * (ca_reset) and frees them; ca_outputs() gives the lists back. */
    int (*outputs)(void *st, int ref, ca_out *list);
    /* Draws the chunk's inputs (chunk: its number, from 0). */
    void (*fill)(void *st, tb_rng *r, uint64_t chunk);
    /* Whether source src is checked on this chunk; `turn` counts the sources checked so far on
     * it. Sets what the runs share (the margin). */
    int (*start)(void *st, int src, uint64_t chunk, int turn);
    void (*begin)(void *st, int ref); /* before a path's batches: reset its counts */
    void (*run)(void *st, const sbx_path *p, int ref, size_t at, size_t len); /* one batch */
    void (*end)(void *st, const sbx_path *p, int ref);                        /* after them: the whole-chunk calls */
    void (*check_ref)(void *st);       /* the reference's own consistency, counts, hash */
    void (*compare)(void *st);         /* the path's outputs against the reference's */
    void (*counts)(void *st, int src); /* more of a source's report line: ", <counts>" */
    void (*summary)(void *st);         /* the area's last checks and lines */
} ca_area;

#define CA_MAX_OUTS 40

/* Appends to list l (n outputs so far) `count` outputs of `elem` bytes from the buffers v[0..]:
 * named `what` alone when count is 1, "what x", "what y", "what z" up to 3, else "what 0" ...;
 * returns the new n. */
int ca_list(ca_out *l, int n, const char *what, gbuf *v, int count, size_t elem);

/* ca_list for an output of `rows` rows (1, or one per contact point) of `count` arrays each (1, or a
 * vector's components), the rows `stride` buffers apart in v: a row's outputs are named as ca_list
 * names them, after "what r" when there are rows. */
int ca_list_rows(ca_out *l, int n, const char *what, gbuf *v, int rows, int stride, int count, size_t elem);

/* The areas' output buffers and jobs from the list of outputs (SBX_OUTPUTS, src/core/outputs.h), one
 * entry at a time (in an expansion of the list; the area includes internal.h). An output's
 * buffers are named as its field and shaped as in 3D (`gbuf CA_OUT_DECL(name, rows, vec);`: a vector
 * has three, of which 2D uses two). */
#define CA_OUT_DECL(name, rows, vec) SBX_OUT_DECL(3, name, rows, vec)
/* Appends the output's buffers `bufs` (CA_OUT_DECL) to list l (n so far) as `what`; n grows. */
#define CA_LIST_OUT(l, n, what, bufs, type, rows, vec, dims)                                                  \
    ((n) = ca_list_rows((l), (n), (what), (gbuf *)(void *)&(bufs), (int)sizeof(char rows), (vec) ? 3 : 1,   \
                        (vec) ? (dims) : 1, sizeof(type)))
/* Binds the job's output field `name` to pair `at` of the buffers `bufs` (CA_OUT_DECL). */
#define CA_BIND_OUT(job, name, type, bufs, at)                                                                \
    for (size_t k_ = 0; k_ < SBX_OUT_ARRAYS(job, name, type); k_++)                                           \
    SBX_OUT_AT(job, name, type, k_) = (type *)((gbuf *)(void *)&(bufs))[k_].p + (at)

/* The output list of the reference's runs (ref 1) or the paths' (ref 0). */
const ca_out *ca_outputs(int ref);

extern const ca_area ca_area_pairs, ca_area_contacts, ca_area_2d;

/* An area's table: each area file names its callbacks as the fields they fill (open_area and
 * close_area for open and close, default_pairs for pairs), BLAKE3 style, its output count NOUT
 * (at most CA_MAX_OUTS, checked here), and ends with this. */
#define CA_AREA(var, area_name, hash_kind, area_seed, chunk_pairs, source_count)                                       \
    _Static_assert(NOUT <= CA_MAX_OUTS, "the driver keeps CA_MAX_OUTS outputs");                                       \
    const ca_area var = {.name = area_name,                                                                            \
                         .hash = hash_kind,                                                                            \
                         .seed = area_seed,                                                                            \
                         .pairs = default_pairs,                                                                       \
                         .chunk = chunk_pairs,                                                                         \
                         .sources = source_count,                                                                      \
                         .label = label,                                                                               \
                         .open = open_area,                                                                            \
                         .close = close_area,                                                                          \
                         .outputs = outputs,                                                                           \
                         .fill = fill,                                                                                 \
                         .start = start,                                                                               \
                         .begin = begin,                                                                               \
                         .run = run,                                                                                   \
                         .end = end,                                                                                   \
                         .check_ref = check_ref,                                                                       \
                         .compare = compare,                                                                           \
                         .counts = counts,                                                                             \
                         .summary = summary}

/* One failure: "FAIL <path>/<source> (chunk c): <message>", with the path being checked ("scalar"
 * while the reference runs), the source and the chunk from the driver; the first 60 printed,
 * every one counted. */
void ca_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Compares the first `upto` elements of every output of `got` with `ref`'s and `got`'s guard
 * bytes (ca_fail on each difference, with the first differing pair and its values). Returns the
 * first differing pair of the first output that differs, or SIZE_MAX. */
size_t ca_same(const ca_out *ref, const ca_out *got, int k, size_t upto);

/* Guarded buffers for k outputs of n elements each. ca_reset() fills them with the sentinel and
 * places each off vector alignment in its own way, which changes from path to path (an element
 * size times 1..7 past a 64-byte boundary: floats at 4 + 4j bytes, bytes at odd addresses). */
void ca_alloc(const ca_out *o, int k, size_t n);
void ca_reset(const ca_out *o, int k);
void ca_free(const ca_out *o, int k);

/* The reference wrote every one of the k outputs: an output whose first `upto` elements all still
 * hold the sentinel bytes of ca_reset was not bound to its run (ca_fail; upto 0: nothing to say). */
void ca_written(const ca_out *o, int k, size_t upto);

/* Adds bytes to the reference hash of the current source and to the area's (FNV-1a, in call order). */
void ca_hash(const void *p, size_t len);
/* The first `upto` elements of every output. */
void ca_hash_outs(const ca_out *o, int k, size_t upto);

/* Pairs checked so far per source (by the driver: chunk sizes of the chunks the source ran on). */
uint64_t ca_source_pairs(int src);
/* Paths checked (not counting the reference). */
int ca_path_count(void);

#endif

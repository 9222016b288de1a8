/* checkasm.c - the checker driver and its main: paths, chunks, batches, guarded outputs, failures, report. */
/* SPDX-License-Identifier: MIT */
/* Usage: checkasm [--area pairs|contacts|2d] [--seed S] [--pairs N] [--path NAME]
 * Without --area every area runs, one after the other (meson runs them as three tests: checkasm,
 * check_contacts, checkasm2d). For each chunk of seeded random inputs the area's scalar reference
 * runs once per source, then every path (the native ones this CPU runs, then the portable
 * SIMDE_NO_NATIVE twins) on the same inputs, split into batches of 0, 1, W-1, W, W+1, 2W+1, 31,
 * 1000, 0, 3 and the rest (W the path's width) processed last to first, so that a tail writing
 * past its n clobbers results already checked; every output is off vector alignment and followed
 * by guard bytes. Every output must equal the reference's byte for byte. The seed is printed, and
 * on a failure the line to replay it. */
#include "checkasm.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"

#define MAX_FAILURES 20 /* an area stops at the end of the chunk where it reached this many */
#define MAX_PRINTED 60

static const ca_area *const areas[] = {&ca_area_pairs, &ca_area_contacts, &ca_area_2d};
#define NAREAS (int)(sizeof areas / sizeof areas[0])
#define MAX_SOURCES 8

/* The driver's state: the paths, the report's context, the counts and hashes of the area running. */
static struct {
    test_path paths[16];
    int np;
    const char *path; /* the path being checked, for the messages */
    const char *source;
    uint64_t chunk, seed;
    int src;
    int path_index; /* 0 the reference, 1 + i for paths[i] */
    int failures, printed;
    const char *first_failed; /* the path of the first failure, for the replay line */
    uint64_t hash, src_hash[MAX_SOURCES], src_pairs[MAX_SOURCES];
    ca_out list[2][CA_MAX_OUTS]; /* the area's outputs: [1] the reference's, [0] the paths' */
    int nout[2];
    int hash_bytes; /* the area's hash is CA_HASH_BYTES */
} ca;

const ca_out *ca_outputs(int ref) { return ca.list[ref != 0]; }

int ca_path_count(void) { return ca.np; }
uint64_t ca_source_pairs(int src) { return src >= 0 && src < MAX_SOURCES ? ca.src_pairs[src] : 0; }

void ca_fail(const char *fmt, ...)
{
    ca.failures++;
    if (!ca.first_failed)
        ca.first_failed = ca.path;
    if (++ca.printed > MAX_PRINTED)
        return;
    printf("FAIL %s/%s (chunk %" PRIu64 "): ", ca.path, ca.source, ca.chunk);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

size_t ca_same(const ca_out *ref, const ca_out *got, int k, size_t upto)
{
    size_t first = SIZE_MAX;
    for (int q = 0; q < k; q++) {
        const unsigned char *r = ref[q].buf->p, *g = got[q].buf->p;
        size_t e = got[q].elem;
        if (!gb_guard_ok(got[q].buf))
            ca_fail("%s: guard bytes after the output were overwritten", got[q].name);
        if (memcmp(r, g, upto * e) == 0)
            continue;
        size_t i = 0;
        while (memcmp(r + i * e, g + i * e, e) == 0)
            i++;
        if (e == 4) {
            float x, y;
            memcpy(&x, r + i * e, 4);
            memcpy(&y, g + i * e, 4);
            ca_fail("%s differs at pair %zu (seed %" PRIu64 "): reference %a, got %a", got[q].name, i, ca.seed,
                    (double)x, (double)y);
        } else if (e == 1) {
            ca_fail("%s differs at pair %zu (seed %" PRIu64 "): reference %u, got %u", got[q].name, i, ca.seed, r[i],
                    g[i]);
        } else {
            ca_fail("%s differs at pair %zu (seed %" PRIu64 ")", got[q].name, i, ca.seed);
        }
        if (first == SIZE_MAX)
            first = i;
    }
    return first;
}

/* A name that lives as long as the lists: "what" followed by the suffix (none when empty). */
static const char *kept_name(const char *what, const char *suffix)
{
    static char names[512][32]; /* every area's lists, twice, fit */
    static int used = 0;
    if (!*suffix)
        return what;
    if (used == 512) {
        fprintf(stderr, "checkasm: more output names than ca_list keeps\n");
        exit(2);
    }
    char *nm = names[used++];
    snprintf(nm, sizeof names[0], "%s %s", what, suffix);
    return nm;
}

int ca_list(ca_out *l, int n, const char *what, gbuf *v, int count, size_t elem)
{
    for (int i = 0; i < count; i++) {
        char suffix[16] = "";
        if (count > 1 && count <= 3)
            snprintf(suffix, sizeof suffix, "%c", "xyz"[i]);
        else if (count > 3)
            snprintf(suffix, sizeof suffix, "%d", i);
        l[n++] = (ca_out){kept_name(what, suffix), &v[i], elem};
    }
    return n;
}

int ca_list_rows(ca_out *l, int n, const char *what, gbuf *v, int rows, int stride, int count, size_t elem)
{
    if (rows == 1)
        return ca_list(l, n, what, v, count, elem);
    for (int r = 0; r < rows; r++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "%d", r);
        n = ca_list(l, n, kept_name(what, suffix), v + r * stride, count, elem);
    }
    return n;
}

void ca_alloc(const ca_out *o, int k, size_t n)
{
    for (int q = 0; q < k; q++)
        gb_alloc(o[q].buf, n * o[q].elem, 8 * o[q].elem); /* room for ca_reset's offsets */
}

/* Output q of the path checked j-th (the reference 0th) starts (1 + (j + q) % 7) elements past a
 * 64-byte boundary: each output sees every offset over the paths. */
void ca_reset(const ca_out *o, int k)
{
    for (int q = 0; q < k; q++) {
        gbuf *g = o[q].buf;
        uintptr_t base = ((uintptr_t)g->raw + 63u) & ~(uintptr_t)63u;
        g->p = (void *)(base + o[q].elem * (1 + ((size_t)ca.path_index + (size_t)q) % 7));
        gb_reset(g);
    }
}

void ca_written(const ca_out *o, int k, size_t upto)
{
    for (int q = 0; q < k; q++) {
        const unsigned char *b = o[q].buf->p;
        size_t i = 0, bytes = upto * o[q].elem;
        while (i < bytes && b[i] == GB_SENTINEL)
            i++;
        if (bytes && i == bytes)
            ca_fail("%s: the reference wrote none of its %zu elements (is the output bound?)", o[q].name, upto);
    }
}

void ca_free(const ca_out *o, int k)
{
    for (int q = 0; q < k; q++)
        gb_free(o[q].buf);
}

/* FNV-1a continuing from h: over 8-byte little-endian words then the last bytes one by one, or
 * over every byte one by one (CA_HASH_BYTES: 8 times slower). */
static uint64_t fnv1a(uint64_t h, const void *p, size_t len, int bytes)
{
    const unsigned char *b = p;
    size_t i = 0;
    if (!bytes)
        for (; i + 8 <= len; i += 8) {
            uint64_t w;
            memcpy(&w, b + i, 8);
            h = (h ^ w) * 0x100000001b3ull;
        }
    for (; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

#define FNV_START 0xcbf29ce484222325ull

void ca_hash(const void *p, size_t len)
{
    ca.hash = fnv1a(ca.hash, p, len, ca.hash_bytes);
    ca.src_hash[ca.src] = fnv1a(ca.src_hash[ca.src], p, len, ca.hash_bytes);
}

void ca_hash_outs(const ca_out *o, int k, size_t upto)
{
    for (int q = 0; q < k; q++)
        ca_hash(o[q].buf->p, upto * o[q].elem);
}

/* Batch sizes around the width w, then the rest of n; returns how many (their starts in `at`). */
static int batches(int w, size_t n, size_t at[16], size_t len[16])
{
    const size_t W = (size_t)w, pattern[] = {0, 1, W - 1, W, W + 1, 2 * W + 1, 31, 1000, 0, 3};
    int k = 0;
    size_t used = 0;
    for (size_t i = 0; i < sizeof pattern / sizeof pattern[0] && used < n; i++) {
        at[k] = used;
        len[k] = pattern[i] > n - used ? n - used : pattern[i];
        used += len[k++];
    }
    if (used < n) {
        at[k] = used;
        len[k++] = n - used;
    }
    return k;
}

/* One path over the chunk: its batches last to first, then the area's whole-chunk calls. */
static void run_path(const ca_area *a, void *st, const sbx_path *p, const char *name, int index, size_t n)
{
    size_t at[16], len[16];
    int ref = index == 0;
    ca.path = name;
    ca.path_index = index;
    ca_reset(ca.list[ref], ca.nout[ref]);
    a->begin(st, ref);
    for (int b = batches(p->width, n, at, len); b-- > 0;)
        a->run(st, p, ref, at[b], len[b]);
    a->end(st, p, ref);
    if (ref)
        a->check_ref(st);
    else
        a->compare(st);
}

static int run_area(const ca_area *a, uint64_t seed, uint64_t pairs)
{
    ca.seed = seed;
    ca.failures = ca.printed = 0;
    ca.first_failed = NULL;
    ca.hash = FNV_START;
    ca.hash_bytes = a->hash == CA_HASH_BYTES;
    for (int s = 0; s < MAX_SOURCES; s++) {
        ca.src_hash[s] = FNV_START;
        ca.src_pairs[s] = 0;
    }
    printf("%s: seed %" PRIu64 ", %" PRIu64 " pairs per path and source, paths:", a->name, seed, pairs);
    for (int i = 0; i < ca.np; i++)
        printf(" %s(W=%d)", ca.paths[i].name, ca.paths[i].path->width);
    printf("\n");
    if (ca.np == 0) {
        printf("FAIL: no SIMD path to check\n");
        return 1;
    }
    if (a->sources > MAX_SOURCES) {
        printf("FAIL: area %s has %d sources, the driver keeps %d\n", a->name, a->sources, MAX_SOURCES);
        return 1;
    }
    void *st = a->open(a->chunk);
    for (int r = 0; r < 2; r++) {
        ca.nout[r] = a->outputs(st, r, ca.list[r]);
        ca_alloc(ca.list[r], ca.nout[r], a->chunk);
    }
    tb_rng r;
    tb_seed(&r, seed);
    uint64_t done = 0;
    for (ca.chunk = 0; done < pairs && ca.failures < MAX_FAILURES; ca.chunk++) {
        a->fill(st, &r, ca.chunk);
        int turn = 0;
        for (int s = 0; s < a->sources; s++) {
            if (!a->label(s) || !a->start(st, s, ca.chunk, turn))
                continue;
            turn++;
            ca.src = s;
            ca.source = a->label(s);
            ca.src_pairs[s] += a->chunk;
            run_path(a, st, &sbx_path_scalar, "scalar", 0, a->chunk);
            for (int p = 0; p < ca.np; p++)
                run_path(a, st, ca.paths[p].path, ca.paths[p].name, 1 + p, a->chunk);
        }
        done += a->chunk;
    }
    ca.path = "scalar";
    ca.source = "-";
    for (int s = 0; s < a->sources; s++)
        if (a->label(s) && ca.src_pairs[s]) {
            printf("  %-18s %9" PRIu64 " pairs, reference hash %016" PRIx64, a->label(s), ca.src_pairs[s],
                   ca.src_hash[s]);
            a->counts(st, s);
            printf("\n");
        }
    a->summary(st);
    for (int r = 0; r < 2; r++)
        ca_free(ca.list[r], ca.nout[r]);
    a->close(st);
    printf("%s: %" PRIu64 " pairs on %d paths; reference hash %016" PRIx64 "; %d failures\n", a->name, done, ca.np,
           ca.hash, ca.failures);
    if (ca.failures)
        printf("replay with: --area %s --seed %" PRIu64 " --path %s\n", a->name, seed, ca.first_failed);
    return ca.failures != 0;
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--area NAME] [--seed S] [--pairs N] [--path NAME]; areas:", argv0);
    for (int i = 0; i < NAREAS; i++)
        fprintf(stderr, " %s", areas[i]->name);
    fprintf(stderr, "\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *only = NULL, *area = NULL;
    uint64_t seed = 0, pairs = 0;
    int have_seed = 0, have_pairs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0), have_seed = 1;
        else if (!strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = strtoull(argv[++i], NULL, 0), have_pairs = 1;
        else if (!strcmp(argv[i], "--path") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--area") && i + 1 < argc)
            area = argv[++i];
        else
            return usage(argv[0]);
    }
    int found = 0;
    for (int i = 0; i < NAREAS; i++)
        found |= !area || !strcmp(area, areas[i]->name);
    if (!found) {
        fprintf(stderr, "no area named %s\n", area);
        return usage(argv[0]);
    }
    ca.np = paths_only(ca.paths, paths_list(ca.paths), only);
    if (only && !ca.np) {
        fprintf(stderr, "no path named %s here\n", only);
        return 2;
    }
    int failed = 0;
    for (int i = 0; i < NAREAS; i++)
        if (!area || !strcmp(area, areas[i]->name))
            failed |= run_area(areas[i], have_seed ? seed : areas[i]->seed, have_pairs ? pairs : areas[i]->pairs());
    return failed;
}

/* boxes.h - the 3D areas' chunk of inputs: every pair source's form of the same n pairs of boxes. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CHECKASM_BOXES_H
#define SATBOX_CHECKASM_BOXES_H

#include "checkasm.h"
#include "box3d/box3d.h"

/* Pair i is A_i vs B_i. Every array is guarded and off vector alignment. */
typedef struct box_chunk {
    size_t n;
    gbuf a[15], b[15];   /* A and B as matrix SoA, in satbox_box's field order */
    gbuf qa[10], qb[10]; /* their centers and half extents with quaternions (x, y, z, w) */
    gbuf pool[15];       /* 2n boxes: A_i at i, B_i at n + i */
    gbuf pairs;          /* n index pairs into the pool (and into the record pools) */
    gbuf rec;            /* the pool as 64-byte records */
    gbuf qrec;           /* the quaternion boxes as 48-byte records, at the pool's slots */
    satbox_box one;      /* box A of the one-vs-many source: A_0 */
} box_chunk;

void boxes_alloc(box_chunk *ch, size_t n);
void boxes_free(box_chunk *ch);

/* Pair i: A and B into the matrix arrays, the pool and the records. */
void boxes_put(box_chunk *ch, size_t i, const satbox_box *a, const satbox_box *b);
/* Pair i's quaternion form: A's and B's centers and half extents with the quaternions qa, qb. */
void boxes_put_quat(box_chunk *ch, size_t i, const satbox_box *a, const satbox_box *b, const float qa[4],
                    const float qb[4]);

/* The descriptors a job points at (pairs [at, at + len) of the chunk; the pools from 0). */
typedef struct box_views {
    satbox_boxes ma, mb, pool;
    satbox_qboxes qa, qb;
} box_views;

/* A job of source src over pairs [at, at + len): the inputs and the margin, every output NULL. */
sbx_job boxes_job(const box_chunk *ch, box_views *v, sbx_src src, size_t at, size_t len, float margin);

/* Prints the centers and half extents of A_i and B_i (hex floats), for a failure's report. */
void boxes_print_pair(const box_chunk *ch, size_t i);

#endif

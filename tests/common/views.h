/* views.h - a box descriptor's array pointers by one field index, in satbox_box's float order. */
/* SPDX-License-Identifier: MIT */
/* The tests and benchmarks keep boxes as 15 arrays (matrix form: center 0..2, half 3..5, axis
 * 6 + 3k + c, the order of satbox_box's floats) or 10 (quaternion form: center, half, quat 6..9).
 * Field f of a descriptor is one pointer; these helpers name it once, so that building a
 * descriptor over arrays, moving one to a sub-range, or nulling one field is a loop over f
 * instead of the center / half / axis loops written out again. Header-only (static inline), so
 * that the programs that link nothing but the library (test_naive, fuzz_diff) can use it too. */
#ifndef SATBOX_TEST_VIEWS_H
#define SATBOX_TEST_VIEWS_H

#include <stddef.h>

#include "satbox/satbox.h"

#define TB_BOX_FIELDS 15
#define TB_QBOX_FIELDS 10

/** Where descriptor v holds the pointer of field f (0 <= f < TB_BOX_FIELDS). */
static inline const float **tb_boxes_slot(satbox_boxes *v, int f)
{
    return f < 3 ? &v->center[f] : f < 6 ? &v->half[f - 3] : &v->axis[(f - 6) / 3][(f - 6) % 3];
}

/** Where descriptor v holds the pointer of field f (0 <= f < TB_QBOX_FIELDS). */
static inline const float **tb_qboxes_slot(satbox_qboxes *v, int f)
{
    return f < 3 ? &v->center[f] : f < 6 ? &v->half[f - 3] : &v->quat[f - 6];
}

/** The descriptor of the arrays f[0..14], from element `at` on. */
static inline satbox_boxes tb_boxes_of(float *const *f, size_t at)
{
    satbox_boxes v;
    for (int j = 0; j < TB_BOX_FIELDS; j++)
        *tb_boxes_slot(&v, j) = f[j] + at;
    return v;
}

/** The descriptor of the arrays f[0..9], from element `at` on. */
static inline satbox_qboxes tb_qboxes_of(float *const *f, size_t at)
{
    satbox_qboxes v;
    for (int j = 0; j < TB_QBOX_FIELDS; j++)
        *tb_qboxes_slot(&v, j) = f[j] + at;
    return v;
}

/** Descriptor v moved on by `at` elements (its boxes at, at + 1, ...). */
static inline satbox_boxes tb_boxes_from(satbox_boxes v, size_t at)
{
    for (int j = 0; j < TB_BOX_FIELDS; j++)
        *tb_boxes_slot(&v, j) += at;
    return v;
}

/** Descriptor v moved on by `at` elements. */
static inline satbox_qboxes tb_qboxes_from(satbox_qboxes v, size_t at)
{
    for (int c = 0; c < 3; c++) { /* by name: through tb_qboxes_slot GCC 12 saw center[3] in the loop */
        v.center[c] += at;
        v.half[c] += at;
    }
    for (int c = 0; c < 4; c++)
        v.quat[c] += at;
    return v;
}

#endif

/* layout.c - moving boxes between layouts (structs, SoA, records) and checking their precondition. */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "box3d/box3d.h"
#include "box3d/sat_ref.h"

void sbx_box_at(const satbox_boxes *v, size_t i, satbox_box *b)
{
    obox x;
    load_mat(v, i, &x);
    box_to_struct(&x, b);
}

int sbx_axes_orthonormal(const satbox_box *b, double tol)
{
    for (int k = 0; k < 3; k++)
        for (int l = k; l < 3; l++) {
            double dot = 0;
            for (int c = 0; c < 3; c++)
                dot += (double)b->axis[k][c] * b->axis[l][c];
            if (!(fabs(dot - (k == l ? 1.0 : 0.0)) <= tol))
                return 0;
        }
    return 1;
}

ptrdiff_t satbox_pack(const satbox_box *src, size_t n, const satbox_boxes_out *dst)
{
    int e = sbx_check_batch(n, 0, 0, 0.0f);
    if (e)
        return e > 0 ? 0 : e;
    if (!src || !dst)
        return SATBOX_ERR_NULL;
    sbx_spans s = {.nin = 0};
    sbx_add_in(&s, src, n * sizeof *src);
    const void *arrays[15] = {dst->center[0], dst->center[1], dst->center[2], dst->half[0], dst->half[1], dst->half[2]};
    for (int k = 0; k < 9; k++)
        arrays[6 + k] = dst->axis[k / 3][k % 3];
    if ((e = sbx_add_arrays(&s, 1, arrays, 15, n * sizeof(float))))
        return e;
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            dst->center[c][i] = src[i].center[c];
            dst->half[c][i] = src[i].half[c];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                dst->axis[k][c][i] = src[i].axis[k][c];
    }
    return (ptrdiff_t)n;
}

ptrdiff_t satbox_pack_rec(const satbox_boxes *src, size_t n, satbox_rec *dst)
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!dst)
        return SATBOX_ERR_NULL;
    sbx_spans s = {.nin = 0};
    int e = sbx_check_boxes(src, n, &s);
    if (e)
        return e;
    sbx_add_out(&s, dst, n * sizeof *dst);
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            dst[i].center[c] = src->center[c][i];
            dst[i].half[c] = src->half[c][i];
        }
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                dst[i].axis[k][c] = src->axis[k][c][i];
        dst[i].pad = 0.0f;
    }
    return (ptrdiff_t)n;
}

ptrdiff_t satbox_validate(const satbox_boxes *boxes, size_t n, float tol, uint8_t *bad)
{
    if (n == 0)
        return 0;
    if (n > SATBOX_MAX_COUNT)
        return SATBOX_ERR_COUNT;
    if (!(tol >= 0.0f) || !isfinite(tol))
        return SATBOX_ERR_ARG;
    sbx_spans s = {.nin = 0};
    int e = sbx_check_boxes(boxes, n, &s);
    if (e)
        return e;
    sbx_add_out(&s, bad, n);
    if (sbx_aliased(&s))
        return SATBOX_ERR_ALIAS;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        satbox_box b;
        sbx_box_at(boxes, i, &b);
        uint8_t code = !sbx_ref_box_valid(&b) ? 1 : !sbx_axes_orthonormal(&b, tol) ? 2 : 0;
        if (bad)
            bad[i] = code;
        count += code != 0;
    }
    return (ptrdiff_t)count;
}

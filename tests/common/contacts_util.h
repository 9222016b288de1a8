/* contacts_util.h - owning output arrays for satbox_contacts() and small geometry helpers for its tests. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_TEST_CONTACTS_UTIL_H
#define SATBOX_TEST_CONTACTS_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outputs.h" /* src/: SBX_OUTPUTS, macros only */
#include "satbox/satbox.h"

/* The outputs of satbox_contacts: the contacts entries of SBX_OUTPUTS (src/core/outputs.h), one
 * pointer per array: TC_NARRAYS of them (27). */
#define TC_OUT_FIELD(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(type *SBX_OUT_DECL(3, name, rows, vec);)
#define TC_OUT_COUNT(name, type, rows, vec, ov, co, ct, flagged) +(ct) * SBX_OUT_COUNT(3, rows, vec)
#define TC_NARRAYS (0 SBX_OUTPUTS(TC_OUT_COUNT))

/* Every output array of a batch of n pairs, malloc'ed to exactly n elements each. */
typedef struct tc_out {
    size_t n;
    SBX_OUTPUTS(TC_OUT_FIELD) /* hit, bad, normal[3], axis, count, point[4][3], depth[4], feature[4] */
    satbox_contacts_out view;
} tc_out;

/* The arrays of a satbox_contacts_out in one fixed order, the list's (TC_NARRAYS), with their
 * element sizes; for tests that treat every output alike (fill, guard, compare, allocate).
 * tc_arrays_view() is the inverse of tc_arrays(). */
static inline void tc_arrays(const satbox_contacts_out *v, void *p[TC_NARRAYS])
{
    int q = 0;
#define TC_TO_ARRAYS(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##ct(for (size_t k = 0; k < SBX_OUT_ARRAYS(v, name, type); k++) p[q++] = SBX_OUT_AT_C(v, name, type, k);)
    SBX_OUTPUTS(TC_TO_ARRAYS)
#undef TC_TO_ARRAYS
}

static inline satbox_contacts_out tc_arrays_view(void *const p[TC_NARRAYS])
{
    satbox_contacts_out v;
    int q = 0;
#define TC_FROM_ARRAYS(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##ct(for (size_t k = 0; k < SBX_OUT_ARRAYS(&v, name, type); k++) SBX_OUT_AT(&v, name, type, k) = (type *)p[q++];)
    SBX_OUTPUTS(TC_FROM_ARRAYS)
#undef TC_FROM_ARRAYS
    return v;
}

/* Element size of array q of that order. */
static inline size_t tc_elem(int q)
{
#define TC_ELEM(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_WHEN_##ct(if ((q -= SBX_OUT_COUNT(3, rows, vec)) < 0) return sizeof(type);)
    SBX_OUTPUTS(TC_ELEM)
#undef TC_ELEM
    return 0;
}

/* Name of array q of that order, for messages ("point[2][1]"; in a buffer of the calling thread). */
static inline const char *tc_array_name(int q)
{
    static _Thread_local char name[32];
    if (q < 0)
        return "?";
#define TC_NAME(name_, type, rows, vec, ov, co, ct, flagged)                                                 \
    SBX_WHEN_##ct(if (q < SBX_OUT_COUNT(3, rows, vec)) {                                                    \
        int rows_ = (int)sizeof(char rows), per_ = SBX_OUT_COUNT(3, rows, vec) / rows_;                     \
        if (rows_ > 1 && per_ > 1)                                                                          \
            snprintf(name, sizeof name, "%s[%d][%d]", #name_, q / per_, q % per_);                        \
        else if (rows_ * per_ > 1)                                                                          \
            snprintf(name, sizeof name, "%s[%d]", #name_, q);                                              \
        else                                                                                                \
            snprintf(name, sizeof name, "%s", #name_);                                                     \
        return name;                                                                                        \
    } q -= SBX_OUT_COUNT(3, rows, vec);)
    SBX_OUTPUTS(TC_NAME)
#undef TC_NAME
    return "?";
}

/* Allocates every array of o (n elements each, at least 1) and its view. */
static inline void tc_alloc(tc_out *o, size_t n)
{
    memset(o, 0, sizeof *o);
    o->n = n;
    size_t m = n ? n : 1;
    void *p[TC_NARRAYS];
    for (int q = 0; q < TC_NARRAYS; q++)
        p[q] = malloc(m * tc_elem(q));
    o->view = tc_arrays_view(p);
#define TC_OWN(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(memcpy(&o->name, &o->view.name, sizeof o->name);)
    SBX_OUTPUTS(TC_OWN)
#undef TC_OWN
}

static inline void tc_free(tc_out *o)
{
    satbox_contacts_out own;
#define TC_OWNED(name, type, rows, vec, ov, co, ct, flagged) SBX_WHEN_##ct(memcpy(&own.name, &o->name, sizeof own.name);)
    SBX_OUTPUTS(TC_OWNED)
#undef TC_OWNED
    void *p[TC_NARRAYS];
    tc_arrays(&own, p);
    for (int q = 0; q < TC_NARRAYS; q++)
        free(p[q]);
}

/* The manifold of pair i as plain values. */
typedef struct tc_pair {
    int count, hit, axis, bad;
    float normal[3], point[4][3], depth[4];
    uint32_t feature[4];
} tc_pair;

static inline void tc_get(const tc_out *o, size_t i, tc_pair *p)
{
    p->count = o->count[i];
    p->hit = o->hit[i];
    p->axis = o->axis[i];
    p->bad = o->bad[i];
    for (int c = 0; c < 3; c++)
        p->normal[c] = o->normal[c][i];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            p->point[k][c] = o->point[k][c][i];
        p->depth[k] = o->depth[k][i];
        p->feature[k] = o->feature[k][i];
    }
}

/* The same outputs moved to start at pair `at` (NULL arrays stay NULL). */
static inline satbox_contacts_out tc_offset(const satbox_contacts_out *v, size_t at)
{
    void *p[TC_NARRAYS];
    tc_arrays(v, p);
    for (int q = 0; q < TC_NARRAYS; q++)
        if (p[q])
            p[q] = (unsigned char *)p[q] + at * tc_elem(q);
    return tc_arrays_view(p);
}

/* Fills pairs [0, n) of every non-NULL array with the byte `b` / checks that they still hold it. */
static inline void tc_fill(const satbox_contacts_out *v, size_t n, unsigned char b)
{
    void *p[TC_NARRAYS];
    tc_arrays(v, p);
    for (int q = 0; q < TC_NARRAYS; q++)
        if (p[q])
            memset(p[q], b, n * tc_elem(q));
}

static inline int tc_untouched(const satbox_contacts_out *v, size_t n, unsigned char b)
{
    void *p[TC_NARRAYS];
    tc_arrays(v, p);
    for (int q = 0; q < TC_NARRAYS; q++)
        for (size_t i = 0; p[q] && i < n * tc_elem(q); i++)
            if (((const unsigned char *)p[q])[i] != b)
                return 0;
    return 1;
}

/* 1 when pair i of x and pair j of y hold the same bytes in all 27 outputs (every array non-NULL). */
static inline int tc_pair_equal(const satbox_contacts_out *x, size_t i, const satbox_contacts_out *y, size_t j)
{
    void *p[TC_NARRAYS], *q[TC_NARRAYS];
    tc_arrays(x, p);
    tc_arrays(y, q);
    for (int k = 0; k < TC_NARRAYS; k++) {
        size_t e = tc_elem(k);
        if (memcmp((const unsigned char *)p[k] + i * e, (const unsigned char *)q[k] + j * e, e) != 0)
            return 0;
    }
    return 1;
}

/* The documented shape of pair i's outputs whatever the input (all arrays non-NULL): count <= 4,
 * hit 0 or 1, count >= 1 exactly when hit, bad 0 or 1; slots k >= count hold point 0, depth 0 and
 * SATBOX_FEATURE_NONE; a bad pair has count 0, hit 0, axis SATBOX_AXIS_INVALID and normal 0, a
 * good one an axis < 15. Returns NULL when all hold, else what broke. */
static inline const char *tc_shape_error(const satbox_contacts_out *v, size_t i)
{
    int count = v->count[i], hit = v->hit[i], bad = v->bad[i];
    if (count > SATBOX_MAX_CONTACTS)
        return "count > 4";
    if (hit > 1 || bad > 1)
        return "hit or bad byte not 0/1";
    if ((count >= 1) != (hit == 1))
        return "count >= 1 not exactly when hit";
    for (int k = count; k < SATBOX_MAX_CONTACTS; k++) {
        if (v->depth[k][i] != 0.0f || v->feature[k][i] != SATBOX_FEATURE_NONE)
            return "unused slot with depth or feature";
        for (int c = 0; c < 3; c++)
            if (v->point[k][c][i] != 0.0f)
                return "unused slot with a point";
    }
    if (bad) {
        if (count || hit || v->axis[i] != SATBOX_AXIS_INVALID)
            return "bad pair with count, hit or axis";
        for (int c = 0; c < 3; c++)
            if (v->normal[c][i] != 0.0f)
                return "bad pair with a normal";
    } else if (v->axis[i] >= 15) {
        return "good pair with axis >= 15";
    }
    return NULL;
}

/* Coordinates of world point p in box b's frame, in double. */
static inline void tc_local(const satbox_box *b, const double p[3], double l[3])
{
    for (int k = 0; k < 3; k++) {
        l[k] = 0;
        for (int c = 0; c < 3; c++)
            l[k] += (p[c] - b->center[c]) * b->axis[k][c];
    }
}

/* How far p lies outside box b (0 inside), in double: the largest excess over the half extents. */
static inline double tc_outside(const satbox_box *b, const float p[3])
{
    double q[3] = {p[0], p[1], p[2]}, l[3], worst = 0;
    tc_local(b, q, l);
    for (int k = 0; k < 3; k++) {
        double e = fabs(l[k]) - b->half[k];
        if (e > worst)
            worst = e;
    }
    return worst;
}

/* Support of box b along unit n: max over the box of x . n, in double. */
static inline double tc_support(const satbox_box *b, const float n[3])
{
    double s = 0;
    for (int c = 0; c < 3; c++)
        s += (double)b->center[c] * n[c];
    for (int k = 0; k < 3; k++) {
        double d = 0;
        for (int c = 0; c < 3; c++)
            d += (double)b->axis[k][c] * n[c];
        s += b->half[k] * fabs(d);
    }
    return s;
}

#endif

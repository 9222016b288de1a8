/* contacts_util.h - owning output arrays for satbox_contacts() and small geometry helpers for its tests. */
#ifndef SATBOX_TEST_CONTACTS_UTIL_H
#define SATBOX_TEST_CONTACTS_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "satbox/satbox.h"

/* All 29 outputs of a batch of n pairs, malloc'ed to exactly n elements each. */
typedef struct tc_out {
    size_t n;
    uint8_t *count, *hit, *axis, *bad;
    float *normal[3], *point[4][3], *depth[4];
    uint32_t *feature[4];
    satbox_contacts_out view;
} tc_out;

static inline void tc_alloc(tc_out *o, size_t n)
{
    memset(o, 0, sizeof *o);
    o->n = n;
    size_t m = n ? n : 1;
    o->count = malloc(m);
    o->hit = malloc(m);
    o->axis = malloc(m);
    o->bad = malloc(m);
    for (int c = 0; c < 3; c++)
        o->normal[c] = malloc(m * sizeof(float));
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            o->point[k][c] = malloc(m * sizeof(float));
        o->depth[k] = malloc(m * sizeof(float));
        o->feature[k] = malloc(m * sizeof(uint32_t));
    }
    satbox_contacts_out v = {.count = o->count, .hit = o->hit, .axis = o->axis, .bad = o->bad};
    for (int c = 0; c < 3; c++)
        v.normal[c] = o->normal[c];
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            v.point[k][c] = o->point[k][c];
        v.depth[k] = o->depth[k];
        v.feature[k] = o->feature[k];
    }
    o->view = v;
}

static inline void tc_free(tc_out *o)
{
    free(o->count);
    free(o->hit);
    free(o->axis);
    free(o->bad);
    for (int c = 0; c < 3; c++)
        free(o->normal[c]);
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            free(o->point[k][c]);
        free(o->depth[k]);
        free(o->feature[k]);
    }
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

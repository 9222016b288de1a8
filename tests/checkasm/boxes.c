/* boxes.c - the 3D areas' chunk of inputs (boxes.h). */
/* SPDX-License-Identifier: MIT */
#include "boxes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void boxes_alloc(box_chunk *ch, size_t n)
{
    ch->n = n;
    for (int q = 0; q < 15; q++) {
        gb_alloc(&ch->a[q], n * 4, 4 + (size_t)q % 3 * 4);
        gb_alloc(&ch->b[q], n * 4, 8);
        gb_alloc(&ch->pool[q], 2 * n * 4, 12);
    }
    for (int q = 0; q < 10; q++) {
        gb_alloc(&ch->qa[q], n * 4, 4);
        gb_alloc(&ch->qb[q], n * 4, 12);
    }
    gb_alloc(&ch->pairs, n * sizeof(satbox_pair), 8);
    gb_alloc(&ch->rec, 2 * n * sizeof(satbox_rec), 0);
    gb_alloc(&ch->qrec, 2 * n * sizeof(satbox_qrec), 16);
}

void boxes_free(box_chunk *ch)
{
    for (int q = 0; q < 15; q++) {
        gb_free(&ch->a[q]);
        gb_free(&ch->b[q]);
        gb_free(&ch->pool[q]);
    }
    for (int q = 0; q < 10; q++) {
        gb_free(&ch->qa[q]);
        gb_free(&ch->qb[q]);
    }
    gb_free(&ch->pairs);
    gb_free(&ch->rec);
    gb_free(&ch->qrec);
}

static void put_box(gbuf *f, size_t i, const satbox_box *b)
{
    const float *src = (const float *)b; /* center, half, axis: 15 floats in field order */
    for (int q = 0; q < 15; q++)
        ((float *)f[q].p)[i] = src[q];
}

static void put_rec(satbox_rec *r, const satbox_box *b)
{
    memcpy(r, b, sizeof *b);
    r->pad = NAN; /* never read */
}

void boxes_put(box_chunk *ch, size_t i, const satbox_box *a, const satbox_box *b)
{
    put_box(ch->a, i, a);
    put_box(ch->b, i, b);
    put_box(ch->pool, i, a);
    put_box(ch->pool, ch->n + i, b);
    put_rec((satbox_rec *)ch->rec.p + i, a);
    put_rec((satbox_rec *)ch->rec.p + ch->n + i, b);
    if (i == 0)
        ch->one = *a;
}

static void put_qbox(gbuf *f, satbox_qrec *r, size_t i, const satbox_box *b, const float q[4])
{
    for (int c = 0; c < 3; c++) {
        ((float *)f[c].p)[i] = r->center[c] = b->center[c];
        ((float *)f[3 + c].p)[i] = r->half[c] = b->half[c];
    }
    for (int c = 0; c < 4; c++)
        ((float *)f[6 + c].p)[i] = r->quat[c] = q[c];
    r->pad[0] = r->pad[1] = NAN; /* never read */
}

void boxes_put_quat(box_chunk *ch, size_t i, const satbox_box *a, const satbox_box *b, const float qa[4],
                    const float qb[4])
{
    put_qbox(ch->qa, (satbox_qrec *)ch->qrec.p + i, i, a, qa);
    put_qbox(ch->qb, (satbox_qrec *)ch->qrec.p + ch->n + i, i, b, qb);
}

static void view_of(const gbuf *f, size_t at, satbox_boxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p + at;
        v->half[c] = (const float *)f[3 + c].p + at;
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            v->axis[k][c] = (const float *)f[6 + 3 * k + c].p + at;
}

static void qview_of(const gbuf *f, size_t at, satbox_qboxes *v)
{
    for (int c = 0; c < 3; c++) {
        v->center[c] = (const float *)f[c].p + at;
        v->half[c] = (const float *)f[3 + c].p + at;
    }
    for (int c = 0; c < 4; c++)
        v->quat[c] = (const float *)f[6 + c].p + at;
}

sbx_job boxes_job(const box_chunk *ch, box_views *v, sbx_src src, size_t at, size_t len, float margin)
{
    view_of(ch->a, at, &v->ma);
    view_of(ch->b, at, &v->mb);
    view_of(ch->pool, 0, &v->pool);
    qview_of(ch->qa, at, &v->qa);
    qview_of(ch->qb, at, &v->qb);
    sbx_job j;
    memset(&j, 0, sizeof j);
    j.src = src;
    j.n = len;
    j.margin = margin;
    j.ma = &v->ma;
    j.mb = &v->mb;
    j.qa = &v->qa;
    j.qb = &v->qb;
    j.one = &ch->one;
    j.pool = &v->pool;
    j.rec = (const satbox_rec *)ch->rec.p;
    j.qrec = (const satbox_qrec *)ch->qrec.p;
    j.pairs = (const satbox_pair *)ch->pairs.p + at;
    j.pool_n = 2 * ch->n;
    return j;
}

void boxes_print_pair(const box_chunk *ch, size_t i)
{
    satbox_boxes a, b;
    view_of(ch->a, 0, &a);
    view_of(ch->b, 0, &b);
    satbox_box box[2];
    tb_box_from(&a, i, &box[0]);
    tb_box_from(&b, i, &box[1]);
    for (int k = 0; k < 2; k++)
        printf("    %c: c=(%a %a %a) h=(%a %a %a)\n", "AB"[k], box[k].center[0], box[k].center[1], box[k].center[2],
               box[k].half[0], box[k].half[1], box[k].half[2]);
}

/* chain_tpl.h - the template of chain_ref.c: forward kinematics of SBX_W configurations per step, one a lane. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CHAIN_TPL_H
#define SATBOX_CHAIN_TPL_H

#include "core/tpl_common.h"
#include "planner/planner.h"

/* Every operation of chain_ref.c in the same order, on lanes: the same bits on every path. The
 * chain's rows are broadcast; R and p stay in registers (12 vectors) from joint to joint, and the
 * link boxes of a joint are written as soon as its frame is known. */

/* chain_ref.c sbx_sincos_ref(). */
SBX_INLINE void sincos_w(wf x, wf *s, wf *c)
{
    wf magic = wf_set1(SBX_ROUND_MAGIC);
    wf k = wf_sub(wf_add(wf_mul(x, wf_set1(SBX_2_PI)), magic), magic);
    wf r = wf_sub(wf_sub(wf_sub(x, wf_mul(k, wf_set1(SBX_PIO2_1))), wf_mul(k, wf_set1(SBX_PIO2_2))),
                  wf_mul(k, wf_set1(SBX_PIO2_3)));
    wf r2 = wf_mul(r, r);
    wf ps = wf_sub(wf_mul(wf_add(wf_mul(wf_sub(wf_mul(wf_set1(0x1.71de3ap-19f), r2), wf_set1(0x1.a01a02p-13f)), r2),
                                 wf_set1(0x1.111112p-7f)),
                          r2),
                   wf_set1(0x1.555556p-3f));
    wf pc = wf_sub(
        wf_mul(wf_add(wf_mul(wf_sub(wf_mul(wf_add(wf_mul(wf_set1(-0x1.27e4fcp-22f), r2), wf_set1(0x1.a01a02p-16f)), r2),
                                    wf_set1(0x1.6c16c2p-10f)),
                             r2),
                      wf_set1(0x1.555556p-5f)),
               r2),
        wf_set1(0x1p-1f));
    wf sn = wf_add(r, wf_mul(wf_mul(r, r2), ps));
    wf cs = wf_add(wf_set1(1.0f), wf_mul(r2, pc));
    wf k4 = wf_sub(k, wf_mul(wf_set1(4.0f), wf_sub(wf_add(wf_mul(k, wf_set1(0.25f)), magic), magic)));
    wf a4 = wf_abs(k4);
    wm two = wm_eq(a4, wf_set1(2.0f)), swap = wm_eq(a4, wf_set1(1.0f));
    wm neg_s = wm_or(wm_eq(k4, wf_set1(-1.0f)), two), neg_c = wm_or(wm_eq(k4, wf_set1(1.0f)), two);
    wf so = wf_select(swap, cs, sn), co = wf_select(swap, sn, cs);
    *s = wf_select(neg_s, wf_neg(so), so);
    *c = wf_select(neg_c, wf_neg(co), co);
}

/* chain_ref.c link_box() and put_box(): lanes [0, k) of configurations at, at + 1, ... */
SBX_INLINE void link_box_w(const sbx_fkjob *job, const float *row, size_t at, int k, wf R[3][3], wf p[3],
                           wm valid)
{
    const satbox_boxes_out *o = &job->out[(size_t)row[SBX_CL_INDEX]];
    wf nan = wf_set1(NAN);
    for (int a = 0; a < 3; a++) {
        wf c, u[3];
        if (row[SBX_CL_JOINT] < 0.0f) {
            c = wf_set1(row[SBX_CL_C + a]);
            for (int q = 0; q < 3; q++)
                u[q] = wf_set1(row[SBX_CL_U + 3 * q + a]);
        } else {
            c = wf_add(p[a], wf_add(wf_add(wf_mul(R[0][a], wf_set1(row[SBX_CL_C])),
                                           wf_mul(R[1][a], wf_set1(row[SBX_CL_C + 1]))),
                                    wf_mul(R[2][a], wf_set1(row[SBX_CL_C + 2]))));
            for (int q = 0; q < 3; q++)
                u[q] = wf_add(wf_add(wf_mul(R[0][a], wf_set1(row[SBX_CL_U + 3 * q])),
                                     wf_mul(R[1][a], wf_set1(row[SBX_CL_U + 3 * q + 1]))),
                              wf_mul(R[2][a], wf_set1(row[SBX_CL_U + 3 * q + 2])));
        }
        if (k == SBX_W || job->whole) {
            wf_storeu(o->center[a] + at, wf_select(valid, c, nan));
            wf_storeu(o->half[a] + at, wf_set1(row[SBX_CL_H + a]));
            for (int q = 0; q < 3; q++)
                wf_storeu(o->axis[q][a] + at, wf_select(valid, u[q], nan));
        } else {
            wf_store_part(o->center[a] + at, wf_select(valid, c, nan), k);
            wf_store_part(o->half[a] + at, wf_set1(row[SBX_CL_H + a]), k);
            for (int q = 0; q < 3; q++)
                wf_store_part(o->axis[q][a] + at, wf_select(valid, u[q], nan), k);
        }
    }
}

static void kernel_chain_fk(const sbx_fkjob *job)
{
    _Static_assert(SBX_CHAIN_BLOCK % 16 == 0 && SBX_W <= 16, "whole vectors of a step stay inside a block");
    const satbox_chain *ch = job->chain;
    const float *J = ch->data, *L = ch->data + ch->njoints * SBX_CJ_ROWS;
    for (size_t i = 0; i < job->n; i += SBX_W) {
        int k = job->n - i >= (size_t)SBX_W ? SBX_W : (int)(job->n - i);
        size_t at = job->at + i;
        wm valid = wm_eq(wf_zero(), wf_zero());
        for (size_t j = 0; j < ch->njoints; j++) {
            const float *q = job->q + j * job->ld + i;
            wf qj = k == SBX_W || job->whole ? wf_loadu(q) : wf_load_part(q, k);
            valid = wm_and(valid, wm_le(wf_abs(qj), wf_set1(SATBOX_CHAIN_MAX_ANGLE)));
        }
        wf R[3][3], p[3];
        for (int a = 0; a < 3; a++) {
            p[a] = wf_zero();
            for (int b = 0; b < 3; b++)
                R[b][a] = wf_set1(a == b ? 1.0f : 0.0f);
        }
        size_t l = 0;
        for (; l < ch->nlinks && L[l * SBX_CL_ROWS + SBX_CL_JOINT] < 0.0f; l++)
            link_box_w(job, L + l * SBX_CL_ROWS, at, k, R, p, valid);
        for (size_t j = 0; j < ch->njoints; j++) {
            const float *F = J + j * SBX_CJ_ROWS, *t = F + SBX_CJ_T;
            wf M[3][3], s, c;
            for (int a = 0; a < 3; a++) {
                if (j == 0) {
                    p[a] = wf_set1(t[a]);
                    for (int b = 0; b < 3; b++)
                        M[b][a] = wf_set1(F[3 * a + b]);
                } else {
                    p[a] = wf_add(p[a], wf_add(wf_add(wf_mul(R[0][a], wf_set1(t[0])), wf_mul(R[1][a], wf_set1(t[1]))),
                                               wf_mul(R[2][a], wf_set1(t[2]))));
                    for (int b = 0; b < 3; b++)
                        M[b][a] = wf_add(wf_add(wf_mul(R[0][a], wf_set1(F[b])), wf_mul(R[1][a], wf_set1(F[3 + b]))),
                                         wf_mul(R[2][a], wf_set1(F[6 + b])));
                }
            }
            const float *q = job->q + j * job->ld + i;
            sincos_w(k == SBX_W || job->whole ? wf_loadu(q) : wf_load_part(q, k), &s, &c);
            for (int a = 0; a < 3; a++) {
                R[0][a] = wf_add(wf_mul(c, M[0][a]), wf_mul(s, M[1][a]));
                R[1][a] = wf_sub(wf_mul(c, M[1][a]), wf_mul(s, M[0][a]));
                R[2][a] = M[2][a];
            }
            for (; l < ch->nlinks && L[l * SBX_CL_ROWS + SBX_CL_JOINT] == (float)j; l++)
                link_box_w(job, L + l * SBX_CL_ROWS, at, k, R, p, valid);
        }
    }
}

#endif

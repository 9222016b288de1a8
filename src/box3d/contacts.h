/* contacts.h - what the 3D contacts entry points, reference and kernels share: the contacts job, feature ids, the stream record writer. */
/* SPDX-License-Identifier: MIT */
#ifndef SATBOX_CONTACTS_H
#define SATBOX_CONTACTS_H

#include "box3d/box3d.h"

/* One checked call of a contacts entry point. `pair` holds the source (src, n, inputs, margin)
 * and the outputs the pair functions share (hit, normal, axis, bad, compact); the rest are the
 * manifold outputs (the contacts-only entries of SBX_OUTPUTS). Any output may be NULL. */
#define SBX_OUT_CFIELD(name, type, rows, vec, ov, co, ct, flagged) \
    SBX_IF(co)(, SBX_WHEN_##ct(type *SBX_OUT_DECL(3, name, rows, vec);))
typedef struct sbx_cjob {
    sbx_job pair;
    SBX_OUTPUTS(SBX_OUT_CFIELD) /* the contacts-only outputs (SBX_OUTPUTS): count, point[4][3], depth[4], feature[4] */
    satbox_manifold *stream; /* the stream form: one record per pair with hit == 1 (then the
                                per-pair outputs above are NULL but for pair.bad) */
} sbx_cjob;

/* Feature ids (satbox.h, "Depth and feature ids"): byte 0 the reference feature, byte 1 the
 * incident one, byte 2 the candidate code. Packed in two parts, as a face lane keeps the first
 * two bytes from its reference frame to its points: SBX_FEATURE_FACES(ref, inc), then
 * SBX_FEATURE(faces, cand), in the scalar reference; the kernels' feature_faces_w() and
 * feature_w() (contacts_tpl.h) build the same numbers as exact floats, ref + inc * SBX_FEAT_INC,
 * then faces + cand * SBX_FEAT_CAND (every id < 2^24, so every step is exact). An edge axis'
 * reference byte is SBX_FEAT_EDGE_A + ea. */
#define SBX_FEAT_INC_SHIFT 8
#define SBX_FEAT_CAND_SHIFT 16
#define SBX_FEATURE_FACES(ref, inc) ((uint32_t)(ref) | (uint32_t)(inc) << SBX_FEAT_INC_SHIFT)
#define SBX_FEATURE(faces, cand) ((uint32_t)(faces) | (uint32_t)(cand) << SBX_FEAT_CAND_SHIFT)
#define SBX_FEAT_INC ((float)(1u << SBX_FEAT_INC_SHIFT))
#define SBX_FEAT_CAND ((float)(1u << SBX_FEAT_CAND_SHIFT))
#define SBX_FEAT_EDGE_A 0x80u /* an edge axis' reference byte: bit 7 set, then A's edge id */

/* A face axis' candidates (satbox.h rule 3): per incident edge e its entry point (e) and exit
 * crossing (4 + e), then the 4 reference corners (8 + c). */
#define SBX_NCAND 12

/* One stream record from a pair's outputs (every path fills its records through these): the
 * head (pair, normal, axis, count), then the points. The wide kernels write a face lane's head in
 * pair order and its points once its manifold is done. */
static inline void sbx_put_manifold_head(satbox_manifold *r, size_t pair, const float normal[3], unsigned axis,
                                         unsigned count)
{
    r->pair = (uint32_t)pair;
    for (int c = 0; c < 3; c++)
        r->normal[c] = normal[c];
    r->axis = (uint8_t)axis;
    r->count = (uint8_t)count;
    r->reserved[0] = r->reserved[1] = 0;
    r->reserved2[0] = r->reserved2[1] = 0;
}

static inline void sbx_put_manifold_points(satbox_manifold *r, unsigned count, float point[4][3],
                                           const float depth[4], const uint32_t feature[4])
{
    r->count = (uint8_t)count;
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++)
            r->point[k].position[c] = point[k][c];
        r->point[k].depth = depth[k];
        r->point[k].feature = feature[k];
    }
}

static inline void sbx_put_manifold(satbox_manifold *r, size_t pair, const float normal[3], unsigned axis,
                                    unsigned count, float point[4][3], const float depth[4],
                                    const uint32_t feature[4])
{
    sbx_put_manifold_head(r, pair, normal, axis, count);
    sbx_put_manifold_points(r, count, point, depth, feature);
}

/* The scalar reference's contacts kernel (contacts_ref.c), the `contacts` of sbx_path_scalar;
 * the wide ones are the `contacts` of each kernel_<name>.c's table (contacts_tpl.h). */
ptrdiff_t sbx_scalar_contacts(const sbx_cjob *job);

/* checked.c: sbx_checked_pairs() for the contacts functions (manifold outputs, stream records). */
ptrdiff_t sbx_checked_contacts(const sbx_cjob *cj, ptrdiff_t count);

#endif

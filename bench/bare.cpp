// bare.cpp - one-call wrappers of the bare kernels (see bare.h).
// SPDX-License-Identifier: MIT
#include "bare.h"

namespace sbb {

ptrdiff_t bare_call(bool collide, const satbox_boxes *a, const satbox_boxes *b, size_t n, uint8_t *hit,
                    const satbox_result *res)
{
    const sbx_path *k = sbx_twin_for(satbox_isa_active(), SBX_TWIN_BARE);
    if (!k)
        return -1;
    sbx_job job = {};
    job.src = SBX_SRC_MAT;
    job.n = n;
    job.ma = a;
    job.mb = b;
    if (collide) {
        job.hit = res->hit;
        job.separation = res->separation;
        for (int c = 0; c < 3; c++)
            job.normal[c] = res->normal[c];
        job.axis = res->axis;
        return k->collide(&job);
    }
    job.hit = hit;
    return k->overlap(&job);
}

ptrdiff_t bare_contacts_call(const sbx_path *k, const satbox_boxes *a, const satbox_boxes *b, size_t n,
                             float margin, const satbox_contacts_out *out)
{
    sbx_cjob cj = {};
    cj.pair.src = SBX_SRC_MAT;
    cj.pair.n = n;
    cj.pair.ma = a;
    cj.pair.mb = b;
    cj.pair.margin = margin;
    // every output of `out` (the contacts entries of SBX_OUTPUTS): collide's in cj.pair, the manifold's in cj
#define SBB_BIND(name, type, rows, vec, ov, co, ct, flagged)                                                 \
    SBX_WHEN_##ct(for (size_t q = 0; q < SBX_OUT_ARRAYS(out, name, type); q++)                              \
                      SBX_OUT_AT(SBX_IF(co)(&cj.pair, &cj), name, type, q) = SBX_OUT_AT_C(out, name, type, q);)
    SBX_OUTPUTS(SBB_BIND)
#undef SBB_BIND
    return k->contacts(&cj);
}

} // namespace sbb

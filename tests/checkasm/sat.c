/* sat.c - the outputs of collide and overlap and their checks, for the 3D and 2D pairs areas (sat.h). */
/* SPDX-License-Identifier: MIT */
#include "sat.h"

#include <string.h>

int sat_list(sat_outs *o, int dims, ca_out *l)
{
    int n = 0;
#define SAT_LIST(name, type, rows, vec, ov, co, ct, flagged)                    \
    SBX_WHEN_##co(CA_LIST_OUT(l, n, #name, o->name, type, rows, vec, dims);)    \
    SBX_WHEN_##ov(CA_LIST_OUT(l, n, "overlap " #name, o->o##name, type, rows, vec, dims);)
    SBX_OUTPUTS(SAT_LIST)
#undef SAT_LIST
    l[n++] = (ca_out){"compacted list", &o->compact, 4};
    return n;
}

void sat_check_run(const sat_outs *o, size_t n, float margin, ptrdiff_t listed)
{
    if (listed != o->count)
        ca_fail("compacted count %td != per-batch count %td", listed, o->count);
    if (memcmp(o->bad.p, o->obad.p, n) != 0)
        ca_fail("overlap bad != collide bad");
    if (margin == 0.0f && memcmp(o->hit.p, o->ohit.p, n) != 0)
        ca_fail("overlap hit != collide(margin 0) hit");
}

static size_t listed(const sat_outs *o) { return (size_t)(o->count > 0 ? o->count : 0); }

void sat_check_ref(const sat_outs *o, const ca_out *list, int k, size_t n, uint64_t *hits, uint64_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t h = ((const uint8_t *)o->ohit.p)[i], b = ((const uint8_t *)o->obad.p)[i];
        *hits += h == 1;
        *bad += b == 1;
        if (h > 1 || b > 1 || (b && h))
            ca_fail("pair %zu hit %u bad %u (a bad pair must read 0)", i, h, b);
    }
    ca_written(list, k - 1, n);
    ca_hash_outs(list, k - 1, n);
    ca_hash_outs(list + k - 1, 1, listed(o));
    ca_hash(&o->count, sizeof o->count);
    ca_hash(&o->ocount, sizeof o->ocount);
}

size_t sat_compare(const sat_outs *ref, const ca_out *ref_list, const sat_outs *got, const ca_out *got_list, int k,
                   size_t n)
{
    size_t at = ca_same(ref_list, got_list, k - 1, n);
    ca_same(ref_list + k - 1, got_list + k - 1, 1, listed(ref));
    if (ref->count != got->count || ref->ocount != got->ocount)
        ca_fail("counts %td/%td, reference %td/%td", got->count, got->ocount, ref->count, ref->ocount);
    return at;
}

// agree.cpp - agreement of every method (satbox's paths and entry points, the baselines, the peers) with the long-double oracle.
// SPDX-License-Identifier: MIT
//
// For each family of pairs (the benchmarks' own pools: near-parallel stacks with gaps in +-1e-3,
// random rotations at 50% overlap, broad-phase scene pairs) the oracle of tests/common/oracle.c gives
// the true separation s of every pair (> 0 apart, <= 0 touching or overlapping). A method's false
// positive is a pair it reports overlapping with s > 0, a false negative one it reports separated
// with s <= 0; we also keep the worst true gap of a false positive and the deepest true overlap
// of a false negative. The quaternion entry points are judged on the boxes they see (the
// quaternions turned into axes by satbox_axes_from_quat, as the header promises they are).
// Usage: satbox_agree [out.json] [--pairs N]   (prints the table on stderr)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "peers.h"
#include "workloads.h"

extern "C" {
#include "api_sources.h"
#include "baselines.h"
#include "oracle.h"
}

using namespace sbb;

namespace {

// Each pair source's suffix of its public names ("", "_q", ...), in SBX_SOURCES' order.
#define AGREE_SUFFIX(name, label, kind, quat, contacts) TB_API_APPLY(TB_API_SFX, TB_API_##name),
const char *const kSuffix[] = {SBX_SOURCES(AGREE_SUFFIX)};
#undef AGREE_SUFFIX

struct Family {
    const char *name;
    Work w;
    size_t n = 0;
    std::vector<long double> s, s_q; // true separation of the matrix pairs and of the quaternion pairs
};

struct Tally {
    size_t fp = 0, fn = 0;
    long double worst_fp_gap = 0, deepest_fn = 0;
};

// The oracle's separation of pairs [0, n) of two SoA views.
std::vector<long double> truth(const satbox_boxes &a, const satbox_boxes &b, size_t n)
{
    std::vector<long double> s(n);
    for (size_t i = 0; i < n; i++) {
        satbox_box A, B;
        tb_box_from(&a, i, &A);
        tb_box_from(&b, i, &B);
        orc_result r;
        s[i] = orc_sat(&A, &B, &r);
    }
    return s;
}

// The matrix form of quaternion boxes, as the _q entry points see them.
struct Converted {
    Fields f;
    satbox_boxes v;
};
void from_quat(const satbox_qboxes &q, size_t n, Converted &out)
{
    for (auto &v : out.f.f)
        v.resize(n);
    for (int c = 0; c < 3; c++) {
        std::copy(q.center[c], q.center[c] + n, out.f.f[c].begin());
        std::copy(q.half[c], q.half[c] + n, out.f.f[3 + c].begin());
    }
    out.v = view(out.f, 0);
    float *axis[3][3];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            axis[k][c] = out.f.f[6 + 3 * k + c].data();
    satbox_axes_from_quat(q.quat, n, axis);
}

Tally judge(const std::vector<long double> &s, const std::vector<uint8_t> &hit)
{
    Tally t;
    for (size_t i = 0; i < s.size(); i++) {
        bool apart = s[i] > 0;
        if (hit[i] && apart) {
            t.fp++;
            t.worst_fp_gap = std::max(t.worst_fp_gap, s[i]);
        } else if (!hit[i] && !apart) {
            t.fn++;
            t.deepest_fn = std::max(t.deepest_fn, -s[i]);
        }
    }
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    const char *out_path = nullptr;
    size_t pairs = 65536;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--pairs") && i + 1 < argc)
            pairs = std::strtoul(argv[++i], nullptr, 10);
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: satbox_agree [out.json] [--pairs N]\n");
            return 2;
        } else
            out_path = argv[i];
    }
    present_paths(); // fixes the default path before any force
    std::vector<Family> fams(3);
    fams[0].name = "stacked", fams[0].w = STACKED;
    fams[1].name = "random", fams[1].w = UNIFORM50;
    fams[2].name = "scene", fams[2].w = SCENE;
    for (Family &f : fams) {
        const PairPool &p = pair_pool(f.w, pairs, true);
        f.n = pairs;
        f.s = truth(view(p.a, 0), view(p.b, 0), pairs);
        Converted qa, qb;
        from_quat(qview(p.qa, 0), pairs, qa);
        from_quat(qview(p.qb, 0), pairs, qb);
        f.s_q = truth(qa.v, qb.v, pairs);
    }

    // A method writes hit[0..n) for the pairs of a pool (matrix and quaternion views, and the
    // same boxes as one pool A[0..n) B[0..n) with the index pairs (i, n + i), as SoA and as
    // records, the quaternion boxes as quaternion records).
    struct Input {
        satbox_boxes a, b, pool;
        satbox_qboxes qa, qb;
        const satbox_rec *rec;
        const satbox_qrec *qrec;
        const satbox_pair *pairs;
        size_t n;
        const PairPool *p;
        Work w;
        // The pairs as a job of pair source s (src/box3d/box3d.h), margin 0.
        sbx_job job(int s) const
        {
            sbx_job j{};
            j.src = (sbx_src)s, j.n = n, j.ma = &a, j.mb = &b, j.qa = &qa, j.qb = &qb, j.pool = &pool, j.rec = rec;
            j.qrec = qrec, j.pairs = pairs, j.pool_n = 2 * n;
            return j;
        }
    };
    struct Method {
        std::string name;
        bool quat;
        std::function<void(const Input &, uint8_t *)> run;
    };
    std::vector<Method> methods;
    std::string left_out;
    std::vector<int> paths = present_paths(&left_out);
    if (!left_out.empty())
        std::fprintf(stderr, "paths left out: %s\n", left_out.c_str());
    for (int path : paths) {
        std::string pn = satbox_isa_name((satbox_isa)path);
        auto force = [path] { satbox_isa_force((satbox_isa)path); };
        auto res = [](uint8_t *hit) { return satbox_result{hit, nullptr, {nullptr, nullptr, nullptr}, nullptr, nullptr}; };
        // overlap<suffix> and collide<suffix> of every pair source (SBX_SOURCES) but one-vs-many,
        // whose pairs are not the families' pairs.
        for (int s = 0; s < SBX_SRC_COUNT; s++) {
            if (sbx_src_is_one((sbx_src)s))
                continue;
            bool quat = sbx_src_is_quat((sbx_src)s);
            methods.push_back({"overlap" + std::string(kSuffix[s]) + "/" + pn, quat, [=](const Input &in, uint8_t *hit) {
                                   force();
                                   sbx_job j = in.job(s);
                                   tb_api_overlap(&j, hit, nullptr, nullptr);
                               }});
            methods.push_back({"collide" + std::string(kSuffix[s]) + "/" + pn, quat, [=](const Input &in, uint8_t *hit) {
                                   force();
                                   sbx_job j = in.job(s);
                                   satbox_result r = res(hit);
                                   tb_api_collide(&j, &r, nullptr);
                               }});
        }
    }
    methods.push_back({"overlap/seed", false, [](const Input &in, uint8_t *hit) { bl_seed_overlap(&in.a, &in.b, in.n, hit); }});
    methods.push_back({"overlap/textbook", false,
                       [](const Input &in, uint8_t *hit) { bl_textbook_overlap(&in.a, &in.b, in.n, hit); }});
    for (const Peer &peer : peers())
        methods.push_back({std::string(peer.entry) + "/" + peer.name, false, [&peer](const Input &in, uint8_t *hit) {
                               auto batch = peer.convert(in.a, in.b, in.n);
                               peer.run(*batch, 0, in.n, hit);
                           }});

    std::vector<std::vector<Tally>> tally(methods.size(), std::vector<Tally>(fams.size()));
    for (size_t f = 0; f < fams.size(); f++) {
        const PairPool &p = pair_pool(fams[f].w, pairs, true);
        const size_t n = pairs;
        Fields both; // A[0..n) then B[0..n)
        for (int k = 0; k < 15; k++) {
            both.f[k] = FloatArray(p.a.f[k].begin(), p.a.f[k].begin() + (ptrdiff_t)n);
            both.f[k].insert(both.f[k].end(), p.b.f[k].begin(), p.b.f[k].begin() + (ptrdiff_t)n);
        }
        std::vector<satbox_pair> idx(n);
        for (size_t i = 0; i < n; i++)
            idx[i] = {(uint32_t)i, (uint32_t)(n + i)};
        Input in{view(p.a, 0), view(p.b, 0), view(both, 0), qview(p.qa, 0), qview(p.qb, 0), nullptr, nullptr,
                 idx.data(), n, &p, fams[f].w};
        std::vector<satbox_rec> rec(2 * n);
        satbox_pack_rec(&in.pool, 2 * n, rec.data());
        in.rec = rec.data();
        std::vector<satbox_qrec> qrec(2 * n);
        for (size_t i = 0; i < 2 * n; i++) {
            const satbox_qboxes &q = i < n ? in.qa : in.qb;
            size_t k = i < n ? i : i - n;
            for (int c = 0; c < 3; c++)
                qrec[i].center[c] = q.center[c][k], qrec[i].half[c] = q.half[c][k];
            for (int c = 0; c < 4; c++)
                qrec[i].quat[c] = q.quat[c][k];
            qrec[i].pad[0] = qrec[i].pad[1] = 0.0f;
        }
        in.qrec = qrec.data();
        std::vector<uint8_t> hit(n);
        for (size_t m = 0; m < methods.size(); m++) {
            std::fill(hit.begin(), hit.end(), 0);
            methods[m].run(in, hit.data());
            tally[m][f] = judge(methods[m].quat ? fams[f].s_q : fams[f].s, hit);
        }
    }

    // Table on stderr, JSON to the file (or stdout).
    std::fprintf(stderr, "agreement with the long-double oracle, %zu pairs per family: FP/FN (worst FP gap, deepest FN)\n", pairs);
    std::fprintf(stderr, "%-26s", "method");
    for (const Family &f : fams)
        std::fprintf(stderr, " %-34s", f.name);
    std::fprintf(stderr, "\n");
    std::string json = "{\n  \"oracle\": \"tests/common/oracle.c orc_sat (corner projection, long double); s > 0 apart\",\n"
                       "  \"pairs_per_family\": " + std::to_string(pairs) + ",\n  \"families\": {";
    for (size_t f = 0; f < fams.size(); f++) {
        size_t over = 0;
        for (long double v : fams[f].s)
            over += v <= 0;
        json += std::string(f ? ", " : "") + "\"" + fams[f].name + "\": {\"overlapping\": " + std::to_string(over) + "}";
    }
    json += "},\n  \"methods\": {";
    for (size_t m = 0; m < methods.size(); m++) {
        std::fprintf(stderr, "%-26s", methods[m].name.c_str());
        json += std::string(m ? "," : "") + "\n    \"" + methods[m].name + "\": {";
        for (size_t f = 0; f < fams.size(); f++) {
            const Tally &t = tally[m][f];
            char cell[80], js[200];
            std::snprintf(cell, sizeof cell, "%zu/%zu (%.2Lg, %.2Lg)", t.fp, t.fn, t.worst_fp_gap, t.deepest_fn);
            std::fprintf(stderr, " %-34s", cell);
            std::snprintf(js, sizeof js, "%s\"%s\": {\"fp\": %zu, \"fn\": %zu, \"worst_fp_gap\": %.6Lg, \"deepest_fn\": %.6Lg}",
                          f ? ", " : "", fams[f].name, t.fp, t.fn, t.worst_fp_gap, t.deepest_fn);
            json += js;
        }
        json += "}";
        std::fprintf(stderr, "\n");
    }
    json += "\n  }\n}\n";
    if (!write_text(out_path, json))
        return 1;
    release_all();
    return 0;
}

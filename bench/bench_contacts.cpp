// bench_contacts.cpp - contact manifolds in the satbox_bench suite: every contacts entry point on every path, and ODE's box-box on the same pairs.
// SPDX-License-Identifier: MIT
//
// Benchmark names (same scheme as bench_main.cpp, so they sort beside overlap/ and collide/):
// contacts/<path>/<workload>/4096, contacts_q/<path>/uniform50/4096,
// contacts_pairs/<path>/scene/4096, contacts_pairs_rec/<path>/scene/4096,
// contacts_pairs_qrec/<path>/scene/4096 (quaternion records), the stream forms
// contacts_stream/<path>/<workload>/4096 and contacts_stream_pairs_{rec,qrec}/<path>/scene/4096
// (one satbox_manifold per hit pair instead of the SoA arrays),
// contacts_floor/<path>/<workload>/4096 (the SIMD paths' bare contacts kernel, bench only: the SAT
// part, axis, normal and every output store of satbox_contacts with no manifold work and no
// validity test, i.e. the floor under any manifold code in this kernel structure), and the peer
// ode_boxbox/<workload>/4096: dCollide on two ODE box geoms per pair (geoms built before timing,
// at most 8 contacts asked as satbox's margin-0 manifold needs at most 4). Registered statically,
// so they are in the suite without touching bench_main.cpp. One line to see them side by side:
//   satbox_bench --benchmark_filter='^(overlap|collide|contacts|ode_boxbox)[a-z_]*/[a-z0-9]+/(uniform50|stacked|scene)/4096$'
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <ode/ode.h>

#include "bare.h"
#include "counters.h"
#include "workloads.h"

using namespace sbb;

namespace {

enum CEntry {
    CONTACTS, CONTACTS_Q, CONTACTS_PAIRS, CONTACTS_PAIRS_REC, CONTACTS_FLOOR, CONTACTS_STREAM,
    CONTACTS_PAIRS_QREC, STREAM_PAIRS_REC, STREAM_PAIRS_QREC
};
const char *const kCName[] = {"contacts", "contacts_q", "contacts_pairs", "contacts_pairs_rec", "contacts_floor",
                              "contacts_stream", "contacts_pairs_qrec", "contacts_stream_pairs_rec",
                              "contacts_stream_pairs_qrec"};
constexpr size_t kN = 4096;

// A box as a quaternion record: the rotation matrix's quaternion (Shepperd's choice of the
// largest of w, x, y, z to divide by, for accuracy).
void qrec_from_box(const satbox_box &b, satbox_qrec *r)
{
    const float(*u)[3] = b.axis; // column k of the rotation = u[k]; m(row, col) = u[col][row]
    double m00 = u[0][0], m11 = u[1][1], m22 = u[2][2], tr = m00 + m11 + m22, q[4];
    if (tr > 0) {
        double s = 2.0 * std::sqrt(1.0 + tr);
        q[3] = 0.25 * s;
        q[0] = (u[1][2] - u[2][1]) / s;
        q[1] = (u[2][0] - u[0][2]) / s;
        q[2] = (u[0][1] - u[1][0]) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = 2.0 * std::sqrt(1.0 + m00 - m11 - m22);
        q[3] = (u[1][2] - u[2][1]) / s;
        q[0] = 0.25 * s;
        q[1] = (u[1][0] + u[0][1]) / s;
        q[2] = (u[2][0] + u[0][2]) / s;
    } else if (m11 > m22) {
        double s = 2.0 * std::sqrt(1.0 + m11 - m00 - m22);
        q[3] = (u[2][0] - u[0][2]) / s;
        q[0] = (u[1][0] + u[0][1]) / s;
        q[1] = 0.25 * s;
        q[2] = (u[2][1] + u[1][2]) / s;
    } else {
        double s = 2.0 * std::sqrt(1.0 + m22 - m00 - m11);
        q[3] = (u[0][1] - u[1][0]) / s;
        q[0] = (u[2][0] + u[0][2]) / s;
        q[1] = (u[2][1] + u[1][2]) / s;
        q[2] = 0.25 * s;
    }
    for (int c = 0; c < 3; c++) {
        r->center[c] = b.center[c];
        r->half[c] = b.half[c];
    }
    for (int c = 0; c < 4; c++)
        r->quat[c] = (float)q[c];
    r->pad[0] = r->pad[1] = 0.0f;
}

// Owning outputs of the manifold (every array: the full cost of what an engine reads).
struct Out {
    std::vector<uint8_t> count, hit, axis;
    std::vector<float> f[3 + 12 + 4];
    std::vector<uint32_t> feat[4], list;
    std::vector<satbox_manifold> rec;
    satbox_contacts_out v{};
    explicit Out(size_t n) : count(n), hit(n), axis(n), list(n), rec(n)
    {
        for (auto &x : f)
            x.assign(n, 0.0f);
        for (auto &x : feat)
            x.assign(n, 0u);
        v.count = count.data();
        v.hit = hit.data();
        v.axis = axis.data();
        for (int c = 0; c < 3; c++)
            v.normal[c] = f[c].data();
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 3; c++)
                v.point[k][c] = f[3 + 3 * k + c].data();
            v.depth[k] = f[15 + k].data();
            v.feature[k] = feat[k].data();
        }
    }
};

bool pick_path(benchmark::State &st, int path)
{
    if (!(satbox_isa_supported() & (1u << path)) || satbox_isa_force((satbox_isa)path) != SATBOX_OK) {
        st.SkipWithError((std::string("CPU lacks ") + satbox_isa_name((satbox_isa)path)).c_str());
        return false;
    }
    return true;
}

// points_per_hit: contact points per hitting pair (satbox: of the last window).
void counters(benchmark::State &st, double hits, double points_per_hit)
{
    pair_counters(st, (double)kN, hits);
    st.counters["points/hit"] = points_per_hit;
}

void run_contacts(benchmark::State &st, CEntry e, int path, Work w)
{
    if (!pick_path(st, path))
        return;
    const size_t pool = pool_pairs_for(kN), K = pool / kN;
    Out o(kN);
    double hits = 0;
    size_t win = 0;
    const float margin = 0.0f;
    const sbx_path *floor_k = e == CONTACTS_FLOOR ? sbx_twin_for((satbox_isa)path, SBX_TWIN_BARE) : nullptr;
    if (e == CONTACTS || e == CONTACTS_Q || e == CONTACTS_FLOOR || e == CONTACTS_STREAM) {
        const PairPool &p = pair_pool(w, pool, e == CONTACTS_Q);
        std::vector<satbox_boxes> va(K), vb(K);
        std::vector<satbox_qboxes> qa(K), qb(K);
        for (size_t k = 0; k < K; k++) {
            va[k] = view(p.a, k * kN);
            vb[k] = view(p.b, k * kN);
            if (e == CONTACTS_Q) {
                qa[k] = qview(p.qa, k * kN);
                qb[k] = qview(p.qb, k * kN);
            }
        }
        for (auto _ : st) {
            ptrdiff_t r = e == CONTACTS         ? satbox_contacts(&va[win], &vb[win], kN, margin, &o.v)
                          : e == CONTACTS_FLOOR ? bare_contacts_call(floor_k, &va[win], &vb[win], kN, margin, &o.v)
                          : e == CONTACTS_STREAM
                              ? satbox_contacts_stream(&va[win], &vb[win], kN, margin, o.rec.data(), nullptr)
                              : satbox_contacts_q(&qa[win], &qb[win], kN, margin, &o.v);
            benchmark::DoNotOptimize(r);
            hits += (double)r;
            if (++win == K)
                win = 0;
        }
    } else {
        const ScenePool &sc = scene_pool(pool);
        satbox_boxes boxes = view(sc.boxes, 0);
        std::vector<satbox_rec> recs(sc.nboxes);
        satbox_pack_rec(&boxes, sc.nboxes, recs.data());
        std::vector<satbox_qrec> qrecs(sc.nboxes);
        for (size_t i = 0; i < sc.nboxes; i++) { // the scene's rotations as quaternions
            satbox_box b;
            tb_box_from(&boxes, i, &b);
            qrec_from_box(b, &qrecs[i]);
        }
        const size_t KS = sc.pairs.size() / kN;
        for (auto _ : st) {
            const satbox_pair *pairs = sc.pairs.data() + win * kN;
            ptrdiff_t r;
            switch (e) {
            case CONTACTS_PAIRS:
                r = satbox_contacts_pairs(&boxes, sc.nboxes, pairs, kN, margin, &o.v, o.list.data());
                break;
            case CONTACTS_PAIRS_QREC:
                r = satbox_contacts_pairs_qrec(qrecs.data(), sc.nboxes, pairs, kN, margin, &o.v, o.list.data());
                break;
            case STREAM_PAIRS_REC:
                r = satbox_contacts_stream_pairs_rec(recs.data(), sc.nboxes, pairs, kN, margin, o.rec.data(), nullptr);
                break;
            case STREAM_PAIRS_QREC:
                r = satbox_contacts_stream_pairs_qrec(qrecs.data(), sc.nboxes, pairs, kN, margin, o.rec.data(), nullptr);
                break;
            default:
                r = satbox_contacts_pairs_rec(recs.data(), sc.nboxes, pairs, kN, margin, &o.v, o.list.data());
            }
            benchmark::DoNotOptimize(r);
            hits += (double)r;
            if (++win == KS)
                win = 0;
        }
    }
    double pts = 0, h = 0;
    for (size_t i = 0; i < kN; i++) {
        pts += o.count[i];
        h += o.hit[i];
    }
    if (e == CONTACTS_STREAM || e == STREAM_PAIRS_REC || e == STREAM_PAIRS_QREC) { // the last window's records
        pts = h = 0;
        for (size_t i = 0; i < kN && o.rec[i].count > 0 && o.rec[i].count <= 4; i++) {
            pts += o.rec[i].count;
            h += 1;
        }
    }
    counters(st, hits, h > 0 ? pts / h : 0);
}

// ODE: one geom per box of the pool, positioned before timing; the timed loop is dCollide only.
void run_ode(benchmark::State &st, Work w)
{
    const size_t pool = pool_pairs_for(kN), K = pool / kN;
    const PairPool &p = pair_pool(w, pool, false);
    dInitODE2(0);
    std::vector<dGeomID> ga(pool), gb(pool);
    auto make = [](const Fields &f, size_t i) {
        dGeomID g = dCreateBox(nullptr, 2.0 * f.f[3][i], 2.0 * f.f[4][i], 2.0 * f.f[5][i]);
        dGeomSetPosition(g, f.f[0][i], f.f[1][i], f.f[2][i]);
        dMatrix3 R;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                R[r * 4 + c] = f.f[6 + 3 * c + r][i]; // column c = local axis c
            R[r * 4 + 3] = 0;
        }
        dGeomSetRotation(g, R);
        return g;
    };
    for (size_t i = 0; i < pool; i++) {
        ga[i] = make(p.a, i);
        gb[i] = make(p.b, i);
    }
    dContactGeom cg[8];
    double hits = 0, points = 0;
    size_t win = 0;
    for (auto _ : st) {
        int h = 0, pts = 0;
        for (size_t i = win * kN; i < (win + 1) * kN; i++) {
            int n = dCollide(ga[i], gb[i], 8, cg, sizeof cg[0]);
            h += n > 0;
            pts += n;
        }
        benchmark::DoNotOptimize(h);
        hits += h;
        points += pts;
        if (++win == K)
            win = 0;
    }
    for (size_t i = 0; i < pool; i++) {
        dGeomDestroy(ga[i]);
        dGeomDestroy(gb[i]);
    }
    counters(st, hits, hits > 0 ? points / hits : 0);
}

// The paths present (built, supported, not above SATBOX_ISA): bench_main.cpp's rule.
std::vector<int> paths() { return sbb::present_paths(); }

// Static registration: runs before bench_main.cpp's main() registers the rest.
const bool registered = [] {
    for (int p : paths()) {
        for (CEntry e : {CONTACTS, CONTACTS_FLOOR, CONTACTS_STREAM}) {
            if (e == CONTACTS_FLOOR && !sbx_twin_for((satbox_isa)p, SBX_TWIN_BARE))
                continue;
            for (Work w : {UNIFORM50, STACKED})
                benchmark::RegisterBenchmark((std::string(kCName[e]) + "/" + satbox_isa_name((satbox_isa)p) + "/" +
                                              work_name(w) + "/4096").c_str(),
                                             [e, p, w](benchmark::State &st) { run_contacts(st, e, p, w); })
                    ->Unit(benchmark::kMicrosecond);
        }
        for (CEntry e : {CONTACTS_Q, CONTACTS_PAIRS, CONTACTS_PAIRS_REC, CONTACTS_PAIRS_QREC, STREAM_PAIRS_REC,
                         STREAM_PAIRS_QREC}) {
            Work w = e == CONTACTS_Q ? UNIFORM50 : SCENE;
            benchmark::RegisterBenchmark((std::string(kCName[e]) + "/" + satbox_isa_name((satbox_isa)p) + "/" +
                                          work_name(w) + "/4096").c_str(),
                                         [e, p, w](benchmark::State &st) { run_contacts(st, e, p, w); })
                ->Unit(benchmark::kMicrosecond);
        }
    }
    for (Work w : {UNIFORM50, STACKED})
        benchmark::RegisterBenchmark((std::string("ode_boxbox/") + work_name(w) + "/4096").c_str(),
                                     [w](benchmark::State &st) { run_ode(st, w); })
            ->Unit(benchmark::kMicrosecond);
    return true;
}();

} // namespace

// bench_2d.cpp - 2D benchmarks of satbox_bench: every satbox2d path vs a textbook rectangle test, the classic vertex-projection SAT and Box2D.
// SPDX-License-Identifier: MIT
//
// Names: 2d/<entry>/<path>/<workload>/<pairs>, e.g. 2d/poly_collide/avx512/uniform/4096. Entries:
// rect_overlap, rect_collide, poly_overlap, poly_collide, rect_poly_collide, poly_overlap_pairs,
// rect_contacts, poly_contacts (contact manifolds at margin 0; box2d: b2CollidePolygons, which
// builds Box2D's whole manifold, the same call as poly_collide's box2d row); the prepared forms over
// the pool's pairs (random order, as a broad phase hands them over): prep_overlap, prep_collide,
// prep_contacts (world polygons prepared once by satbox2d_poly_prepare(), outside the timed loop;
// baseline: classic on the same world polygons) and body_overlap, body_collide, body_contacts (the
// same polygons as body-local shapes with a random rotation each, prepared once; box2d: the same
// shapes as b2PolygonShape, set once, with b2Transforms of the same floats: Box2D on its own terms,
// neither side converting anything in the timed loop).
// Paths: the satbox paths this CPU runs, "textbook" (rectangles: 4 axes, radii from the axes,
// early exit), "classic" (polygons: every vertex of both projected on every edge normal of both,
// early exit; collide normalises and keeps the smallest overlap) and "box2d" (Box2D 2.4 from
// Debian's libbox2d-dev: b2TestOverlap for overlap, b2CollidePolygons for collide, on
// b2PolygonShape + b2Transform converted outside the timed region; rectangles as SetAsBox). The baselines are plain
// scalar C++ written for this suite. Counter "agree": the fraction of pairs whose overlap answer
// equals satbox's (Box2D's polygons carry a 0.01 skin, so it differs near contact).
// bench/summary_2d.py prints the table.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "counters.h"
#include "workloads.h"

extern "C" {
#include "support2d.h"
}

#if defined(SATBOX_HAVE_BOX2D)
#include "box2d_conv.h" // tb2_to_box2d(), shared with tests/agree/test_box2d_agree.cpp
#endif

namespace {

constexpr size_t kPairs = 4096;
constexpr int kTextbook = sbb::kFirstBaseline, kClassic = sbb::kFirstBaseline + 1, kBox2d = sbb::kFirstBaseline + 2;

enum Entry2d { RECT_OVERLAP, RECT_COLLIDE, POLY_OVERLAP, POLY_COLLIDE, RECT_POLY_COLLIDE, POLY_OVERLAP_PAIRS,
               RECT_CONTACTS, POLY_CONTACTS, PREP_OVERLAP, PREP_COLLIDE, PREP_CONTACTS, BODY_OVERLAP, BODY_COLLIDE,
               BODY_CONTACTS, ENTRY2D_COUNT };
const char *const kEntry2d[] = {"rect_overlap", "rect_collide", "poly_overlap", "poly_collide", "rect_poly_collide",
                                "poly_overlap_pairs", "rect_contacts", "poly_contacts", "prep_overlap", "prep_collide",
                                "prep_contacts", "body_overlap", "body_collide", "body_contacts"};
bool is_prep(int e) { return e >= PREP_OVERLAP && e <= PREP_CONTACTS; }
bool is_body(int e) { return e >= BODY_OVERLAP && e <= BODY_CONTACTS; }
bool is_contacts(int e) { return e == RECT_CONTACTS || e == POLY_CONTACTS || e == PREP_CONTACTS || e == BODY_CONTACTS; }

// ---- baselines ----------------------------------------------------------------------------

// Textbook oriented-rectangle test: for each of the 4 axes L, |d . L| > rA + rB separates.
bool textbook_rect_overlap(const tb_rect &a, const tb_rect &b)
{
    const float ax[2][2] = {{a.u[0], a.u[1]}, {-a.u[1], a.u[0]}}, bx[2][2] = {{b.u[0], b.u[1]}, {-b.u[1], b.u[0]}};
    const float d[2] = {b.c[0] - a.c[0], b.c[1] - a.c[1]};
    for (int k = 0; k < 4; k++) {
        const float *L = k < 2 ? ax[k] : bx[k - 2];
        float ra = a.h[0] * std::fabs(ax[0][0] * L[0] + ax[0][1] * L[1]) + a.h[1] * std::fabs(ax[1][0] * L[0] + ax[1][1] * L[1]);
        float rb = b.h[0] * std::fabs(bx[0][0] * L[0] + bx[0][1] * L[1]) + b.h[1] * std::fabs(bx[1][0] * L[0] + bx[1][1] * L[1]);
        if (std::fabs(d[0] * L[0] + d[1] * L[1]) > ra + rb)
            return false;
    }
    return true;
}

// Textbook collide: the smallest overlap over the 4 axes (or the first separating gap).
float textbook_rect_collide(const tb_rect &a, const tb_rect &b, float n[2])
{
    const float ax[2][2] = {{a.u[0], a.u[1]}, {-a.u[1], a.u[0]}}, bx[2][2] = {{b.u[0], b.u[1]}, {-b.u[1], b.u[0]}};
    const float d[2] = {b.c[0] - a.c[0], b.c[1] - a.c[1]};
    float best = -INFINITY;
    for (int k = 0; k < 4; k++) {
        const float *L = k < 2 ? ax[k] : bx[k - 2];
        float ra = a.h[0] * std::fabs(ax[0][0] * L[0] + ax[0][1] * L[1]) + a.h[1] * std::fabs(ax[1][0] * L[0] + ax[1][1] * L[1]);
        float rb = b.h[0] * std::fabs(bx[0][0] * L[0] + bx[0][1] * L[1]) + b.h[1] * std::fabs(bx[1][0] * L[0] + bx[1][1] * L[1]);
        float p = d[0] * L[0] + d[1] * L[1], g = std::fabs(p) - (ra + rb);
        if (g > best) {
            best = g;
            n[0] = p < 0 ? -L[0] : L[0];
            n[1] = p < 0 ? -L[1] : L[1];
        }
    }
    return best;
}

void interval(const tb_poly &p, float nx, float ny, float &lo, float &hi)
{
    lo = hi = nx * p.x[0] + ny * p.y[0];
    for (int k = 1; k < p.n; k++) {
        float v = nx * p.x[k] + ny * p.y[k];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
}

// The classic polygon SAT: every edge normal of both polygons, both polygons projected on it.
bool classic_poly_overlap(const tb_poly &a, const tb_poly &b)
{
    for (int s = 0; s < 2; s++) {
        const tb_poly &p = s ? b : a;
        for (int k = 0; k < p.n; k++) {
            int k1 = k + 1 == p.n ? 0 : k + 1;
            float nx = p.y[k1] - p.y[k], ny = p.x[k] - p.x[k1];
            float alo, ahi, blo, bhi;
            interval(a, nx, ny, alo, ahi);
            interval(b, nx, ny, blo, bhi);
            if (blo > ahi || alo > bhi)
                return false;
        }
    }
    return true;
}

// Classic collide: normalised axes, the least overlap (the MTV), or the first separating gap.
float classic_poly_collide(const tb_poly &a, const tb_poly &b, float n[2])
{
    float best = -INFINITY;
    for (int s = 0; s < 2; s++) {
        const tb_poly &p = s ? b : a;
        for (int k = 0; k < p.n; k++) {
            int k1 = k + 1 == p.n ? 0 : k + 1;
            float nx = p.y[k1] - p.y[k], ny = p.x[k] - p.x[k1], len = std::sqrt(nx * nx + ny * ny);
            if (!(len > 0))
                continue;
            nx /= len;
            ny /= len;
            float alo, ahi, blo, bhi;
            interval(a, nx, ny, alo, ahi);
            interval(b, nx, ny, blo, bhi);
            float g1 = blo - ahi, g2 = alo - bhi, g = g1 > g2 ? g1 : g2;
            if (g > best) {
                best = g;
                n[0] = g1 > g2 ? nx : -nx;
                n[1] = g1 > g2 ? ny : -ny;
            }
        }
    }
    return best;
}

// ---- workload -----------------------------------------------------------------------------

struct Work2d {
    std::vector<tb_rect> ra, rb;
    std::vector<tb_poly> pa, pb, rp; // rp: rectangle A as its float polygon (tb2_rect_as_poly)
    std::vector<tb_poly> poolp;      // the pool's polygons (A's at i, B's at n + i)
    tb2_prepared prep;               // the pool prepared (prep_*)
    tb2_bodies bodies;               // the pool as bodies (body_*)
    std::vector<uint8_t> ref_pairs;  // satbox2d_poly_overlap_pairs' answers on the pool's pairs
    tb2_rects sra, srb;
    tb2_polys spa, spb, pool;
    std::vector<satbox_pair> pairs;
    std::vector<uint8_t> hit, bad, axis, ref_rect, ref_poly, ref_rect_poly;
    std::vector<float> sep, nx, ny;
    std::vector<uint32_t> list;
    std::vector<satbox2d_manifold> man;
#if defined(SATBOX_HAVE_BOX2D)
    std::vector<b2PolygonShape> ba, bb, brect_a, brect_b; // brect: b2PolygonShape::SetAsBox in world
    std::vector<b2Transform> xa, xb;
    std::vector<b2PolygonShape> bbody; // the bodies' shapes (their body-local vertices)
    std::vector<b2Transform> xbody;    // and transforms (the same floats)
    b2Transform identity;
#endif
};

Work2d *work2d()
{
    static Work2d *w = nullptr;
    if (w)
        return w;
    w = new Work2d;
    size_t n = kPairs;
    tb_rng r;
    tb_seed(&r, 2024);
    w->ra.resize(n), w->rb.resize(n), w->pa.resize(n), w->pb.resize(n), w->rp.resize(n);
    tb2_rects_alloc(&w->sra, n), tb2_rects_alloc(&w->srb, n);
    tb2_polys_alloc(&w->spa, n), tb2_polys_alloc(&w->spb, n), tb2_polys_alloc(&w->pool, 2 * n);
    w->pairs.resize(n);
    for (size_t i = 0; i < n; i++) {
        tb2_rect_pair(&r, TB2_UNIFORM, &w->ra[i], &w->rb[i]);
        tb2_poly_pair(&r, TB2_UNIFORM, 0, 0, &w->pa[i], &w->pb[i]);
        tb2_rect_as_poly(&w->ra[i], &w->rp[i]);
        tb2_rects_set(&w->sra, i, &w->ra[i]);
        tb2_rects_set(&w->srb, i, &w->rb[i]);
        tb2_polys_set(&w->spa, i, &w->pa[i]);
        tb2_polys_set(&w->spb, i, &w->pb[i]);
        tb2_polys_set(&w->pool, i, &w->pa[i]);
        tb2_polys_set(&w->pool, n + i, &w->pb[i]);
    }
    w->poolp.resize(2 * n);
    for (size_t i = 0; i < n; i++)
        w->poolp[i] = w->pa[i], w->poolp[n + i] = w->pb[i];
    tb2_prepared_make(&w->prep, &w->pool.view, 2 * n);
    tb2_bodies_make(&w->bodies, &r, w->poolp.data(), 2 * n, 0);
    // Pairs in a random order over the pool, as a broad phase would hand them over.
    for (size_t i = 0; i < n; i++) {
        size_t j = (size_t)(tb_next(&r) % n);
        w->pairs[i] = satbox_pair{(uint32_t)j, (uint32_t)(n + j)};
    }
    w->hit.resize(n), w->bad.resize(n), w->axis.resize(n), w->sep.resize(n), w->nx.resize(n), w->ny.resize(n);
    w->list.resize(n), w->ref_rect.resize(n), w->ref_poly.resize(n), w->ref_rect_poly.resize(n);
    satbox2d_overlap(&w->sra.view, &w->srb.view, n, w->ref_rect.data(), nullptr);
    satbox2d_poly_overlap(&w->spa.view, &w->spb.view, n, w->ref_poly.data(), nullptr);
    satbox2d_rect_poly_overlap(&w->sra.view, &w->spb.view, n, w->ref_rect_poly.data(), nullptr);
    w->ref_pairs.resize(n);
    satbox2d_poly_overlap_pairs(&w->pool.view, 2 * n, w->pairs.data(), n, w->ref_pairs.data(), nullptr, nullptr);
#if defined(SATBOX_HAVE_BOX2D)
    w->ba.resize(n), w->bb.resize(n), w->brect_a.resize(n), w->brect_b.resize(n), w->xa.resize(n), w->xb.resize(n);
    w->identity.SetIdentity();
    for (size_t i = 0; i < n; i++) {
        tb2_to_box2d(w->pa[i], w->ba[i], w->xa[i]);
        tb2_to_box2d(w->pb[i], w->bb[i], w->xb[i]);
        const tb_rect *q[2] = {&w->ra[i], &w->rb[i]};
        b2PolygonShape *bs[2] = {&w->brect_a[i], &w->brect_b[i]};
        for (int s2 = 0; s2 < 2; s2++)
            bs[s2]->SetAsBox(q[s2]->h[0], q[s2]->h[1], b2Vec2(q[s2]->c[0], q[s2]->c[1]), std::atan2(q[s2]->u[1], q[s2]->u[0]));
    }
    w->bbody.resize(2 * n), w->xbody.resize(2 * n);
    for (size_t i = 0; i < 2 * n; i++) {
        tb_poly l;
        float xf[4];
        tb2_body_get(&w->bodies, i, &l, xf);
        b2Vec2 v[b2_maxPolygonVertices];
        for (int k = 0; k < l.n; k++)
            v[k].Set(l.x[k], l.y[k]);
        w->bbody[i].Set(v, l.n);
        w->xbody[i].p.Set(xf[0], xf[1]);
        w->xbody[i].q.c = xf[2];
        w->xbody[i].q.s = xf[3];
    }
#endif
    return w;
}

// ---- the benchmarks -----------------------------------------------------------------------

std::string path2d_name(int p) { return sbb::path_label(p, {"textbook", "classic", "box2d"}); }

void run2d(benchmark::State &st, Entry2d e, int path)
{
    Work2d *w = work2d();
    size_t n = kPairs;
    satbox_isa before = satbox_isa_active();
    if (path < SATBOX_ISA_COUNT && satbox_isa_force((satbox_isa)path) != SATBOX_OK) {
        st.SkipWithError("path not supported here");
        return;
    }
    satbox2d_result res = {w->hit.data(), w->sep.data(), {w->nx.data(), w->ny.data()}, w->axis.data(), nullptr};
    const std::vector<uint8_t> &ref = e <= RECT_COLLIDE || e == RECT_CONTACTS ? w->ref_rect
                                      : e == RECT_POLY_COLLIDE             ? w->ref_rect_poly
                                      : is_prep(e) || is_body(e)           ? w->ref_pairs
                                                                           : w->ref_poly;
    const satbox_pair *pairs = w->pairs.data();
    if (w->man.size() < n)
        w->man.resize(n);
    double hits = 0;
    std::vector<uint8_t> got(n);
    for (auto _ : st) {
        ptrdiff_t h = 0;
        if (path < SATBOX_ISA_COUNT) {
            switch (e) {
            case RECT_OVERLAP: h = satbox2d_overlap(&w->sra.view, &w->srb.view, n, w->hit.data(), nullptr); break;
            case RECT_COLLIDE: h = satbox2d_collide(&w->sra.view, &w->srb.view, n, 0.0f, &res); break;
            case POLY_OVERLAP: h = satbox2d_poly_overlap(&w->spa.view, &w->spb.view, n, w->hit.data(), nullptr); break;
            case POLY_COLLIDE: h = satbox2d_poly_collide(&w->spa.view, &w->spb.view, n, 0.0f, &res); break;
            case RECT_POLY_COLLIDE: h = satbox2d_rect_poly_collide(&w->sra.view, &w->spb.view, n, 0.0f, &res); break;
            case POLY_OVERLAP_PAIRS:
                h = satbox2d_poly_overlap_pairs(&w->pool.view, 2 * n, w->pairs.data(), n, nullptr, w->list.data(), nullptr);
                break;
            case RECT_CONTACTS: h = satbox2d_contacts(&w->sra.view, &w->srb.view, n, 0.0f, w->man.data()); break;
            case POLY_CONTACTS: h = satbox2d_poly_contacts(&w->spa.view, &w->spb.view, n, 0.0f, w->man.data()); break;
            case PREP_OVERLAP:
                h = satbox2d_prep_overlap_pairs(w->prep.rec, 2 * n, pairs, n, w->hit.data(), nullptr, nullptr);
                break;
            case PREP_COLLIDE: h = satbox2d_prep_collide_pairs(w->prep.rec, 2 * n, pairs, n, 0.0f, &res, nullptr); break;
            case PREP_CONTACTS: h = satbox2d_prep_contacts_pairs(w->prep.rec, 2 * n, pairs, n, 0.0f, w->man.data()); break;
            case BODY_OVERLAP:
                h = satbox2d_body_overlap_pairs(&w->bodies.view, 2 * n, pairs, n, w->hit.data(), nullptr, nullptr);
                break;
            case BODY_COLLIDE: h = satbox2d_body_collide_pairs(&w->bodies.view, 2 * n, pairs, n, 0.0f, &res, nullptr); break;
            case BODY_CONTACTS: h = satbox2d_body_contacts_pairs(&w->bodies.view, 2 * n, pairs, n, 0.0f, w->man.data()); break;
            default: break;
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                bool o = false;
                float nn[2];
                if (path == kTextbook)
                    o = e == RECT_OVERLAP ? textbook_rect_overlap(w->ra[i], w->rb[i])
                                          : textbook_rect_collide(w->ra[i], w->rb[i], nn) <= 0.0f;
                else if (path == kClassic && is_prep(e)) {
                    const tb_poly &a = w->poolp[pairs[i].a], &b = w->poolp[pairs[i].b];
                    o = e == PREP_OVERLAP ? classic_poly_overlap(a, b) : classic_poly_collide(a, b, nn) <= 0.0f;
                } else if (path == kClassic) {
                    const tb_poly &a = e == RECT_POLY_COLLIDE ? w->rp[i] : w->pa[i];
                    o = e == POLY_OVERLAP ? classic_poly_overlap(a, w->pb[i]) : classic_poly_collide(a, w->pb[i], nn) <= 0.0f;
                }
#if defined(SATBOX_HAVE_BOX2D)
                else if (e == BODY_OVERLAP)
                    o = b2TestOverlap(&w->bbody[pairs[i].a], 0, &w->bbody[pairs[i].b], 0, w->xbody[pairs[i].a],
                                      w->xbody[pairs[i].b]);
                else if (is_body(e)) {
                    b2Manifold m;
                    b2CollidePolygons(&m, &w->bbody[pairs[i].a], w->xbody[pairs[i].a], &w->bbody[pairs[i].b],
                                      w->xbody[pairs[i].b]);
                    o = m.pointCount > 0;
                } else if (e == POLY_OVERLAP)
                    o = b2TestOverlap(&w->ba[i], 0, &w->bb[i], 0, w->xa[i], w->xb[i]);
                else if (e == RECT_OVERLAP)
                    o = b2TestOverlap(&w->brect_a[i], 0, &w->brect_b[i], 0, w->identity, w->identity);
                else {
                    b2Manifold m;
                    if (e == RECT_COLLIDE || e == RECT_CONTACTS)
                        b2CollidePolygons(&m, &w->brect_a[i], w->identity, &w->brect_b[i], w->identity);
                    else
                        b2CollidePolygons(&m, &w->ba[i], w->xa[i], &w->bb[i], w->xb[i]);
                    o = m.pointCount > 0;
                }
#endif
                got[i] = o;
                h += o;
            }
        }
        benchmark::DoNotOptimize(h);
        benchmark::ClobberMemory();
        hits += (double)h;
    }
    if (path < SATBOX_ISA_COUNT) {
        satbox_isa_force(before);
        if (is_contacts(e))
            for (size_t i = 0; i < n; i++)
                got[i] = w->man[i].count > 0;
        else if (e != POLY_OVERLAP_PAIRS)
            std::memcpy(got.data(), w->hit.data(), n);
    }
    double agree = 0;
    if (e != POLY_OVERLAP_PAIRS)
        for (size_t i = 0; i < n; i++)
            agree += got[i] == ref[i];
    sbb::pair_counters(st, (double)n, hits);
    st.counters["agree"] = e == POLY_OVERLAP_PAIRS ? 1.0 : agree / (double)n;
    st.counters["lanes"] = path < SATBOX_ISA_COUNT ? satbox_isa_width((satbox_isa)path) : 1;
}

// Registered before main() runs (static initialisation), ahead of the 3D suite.
struct Register2d {
    Register2d()
    {
        for (int e = 0; e < ENTRY2D_COUNT; e++) {
            std::vector<int> paths = sbb::present_paths(); // built, supported, not above SATBOX_ISA
            if (e <= RECT_COLLIDE)
                paths.push_back(kTextbook);
            else if (e < POLY_OVERLAP_PAIRS || e == PREP_OVERLAP || e == PREP_COLLIDE)
                paths.push_back(kClassic);
#if defined(SATBOX_HAVE_BOX2D)
            if (e <= POLY_COLLIDE || e == POLY_CONTACTS || is_body(e))
                paths.push_back(kBox2d);
#endif
            for (int p : paths) {
                std::string name = std::string("2d/") + kEntry2d[e] + "/" + path2d_name(p) + "/uniform/" + std::to_string(kPairs);
                Entry2d en = (Entry2d)e;
                benchmark::RegisterBenchmark(name.c_str(), [en, p](benchmark::State &st) { run2d(st, en, p); })
                    ->Unit(benchmark::kMicrosecond);
            }
        }
    }
} register2d;

} // namespace

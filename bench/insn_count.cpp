// insn_count.cpp - instructions per pair of every path and entry point, counted exactly by single-stepping the call (ptrace).
//
// Why: the compute floor of a path is (instructions per pair) / (IPC * clock). No PMU is needed:
// a forked child runs one call between two SIGSTOPs while the parent single-steps it
// (PTRACE_SINGLESTEP) and counts the steps. Two calls, of n1 and n2 pairs, on the same data
// (uniform50 pool; scene pool for the pairs forms) give (steps(n2) - steps(n1)) / (n2 - n1): the
// steady-state count per pair, with call overhead, dispatch and argument checks cancelled out.
// Usage: satbox_insns [out.json] [--quick]  (Linux only; --quick: overlap only, baselines over 64 pairs)
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "workloads.h"

extern "C" {
#include "baselines.h"
}

using namespace sbb;

namespace {

// Steps between the child's two SIGSTOPs, or -1 when ptrace fails.
long long steps_of(const std::function<void()> &call)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
            _exit(3);
        raise(SIGSTOP);
        call();
        raise(SIGSTOP);
        _exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    long long steps = 0;
    for (;;) {
        if (ptrace(PTRACE_SINGLESTEP, pid, nullptr, nullptr) != 0) {
            steps = -1;
            break;
        }
        if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
            steps = -1;
            break;
        }
        int sig = WSTOPSIG(status);
        if (sig == SIGSTOP)
            break;
        if (sig != SIGTRAP) {
            steps = -1;
            break;
        }
        steps++;
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return steps;
}

} // namespace

int main(int argc, char **argv)
{
    const char *out_path = nullptr;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else
            out_path = argv[i];
    }
    // Multiples of every path's width. satbox's paths run the same instructions for every pair
    // (no early exit; only the compacted output depends on the data), so 64 pairs suffice; the
    // early-exit baselines average over 256 pairs.
    const size_t n1 = 16, n2 = 16 + 64, n2_baseline = quick ? n2 : 16 + 256;
    const PairPool &p = pair_pool(UNIFORM50, 65536, true);
    const ScenePool &sc = scene_pool(65536);
    satbox_boxes a = view(p.a, 0), b = view(p.b, 0), pool = view(sc.boxes, 0);
    satbox_qboxes qa = qview(p.qa, 0), qb = qview(p.qb, 0);
    satbox_box one;
    tb_box_from(&a, 0, &one);
    const size_t cap = n2_baseline;
    std::vector<uint8_t> hit(cap), axis(cap);
    std::vector<float> sep(cap), nx(cap), ny(cap), nz(cap), m0(cap), m1(cap), m2(cap);
    std::vector<uint32_t> compact(cap);
    satbox_result res = {hit.data(), sep.data(), {nx.data(), ny.data(), nz.data()}, axis.data(), nullptr};
    float *mn[3] = {nx.data(), ny.data(), nz.data()}, *mx[3] = {m0.data(), m1.data(), m2.data()};
    const satbox_pair *pairs = sc.pairs.data();

    struct Job {
        std::string entry;
        std::function<void(size_t)> call;
    };
    std::vector<Job> jobs = {
        {"overlap", [&](size_t n) { satbox_overlap(&a, &b, n, hit.data(), nullptr); }},
        {"collide", [&](size_t n) { satbox_collide(&a, &b, n, 0.0f, &res); }},
        {"overlap_q", [&](size_t n) { satbox_overlap_q(&qa, &qb, n, hit.data(), nullptr); }},
        {"collide_q", [&](size_t n) { satbox_collide_q(&qa, &qb, n, 0.0f, &res); }},
        {"overlap_one", [&](size_t n) { satbox_overlap_one(&one, &b, n, hit.data(), nullptr); }},
        {"overlap_pairs", [&](size_t n) { satbox_overlap_pairs(&pool, sc.nboxes, pairs, n, nullptr, compact.data(), nullptr); }},
        {"collide_pairs", [&](size_t n) { satbox_collide_pairs(&pool, sc.nboxes, pairs, n, 0.0f, &res, compact.data()); }},
        {"aabb", [&](size_t n) { satbox_aabb(&a, n, 0.0f, mn, mx); }},
    };
    if (quick)
        jobs.resize(1);

    std::string json = "{\n  \"method\": \"ptrace single-step, (steps(n2) - steps(" + std::to_string(n1) +
                       ")) / (n2 - " + std::to_string(n1) + "), n2 = " + std::to_string(n2) + " (baselines " +
                       std::to_string(n2_baseline) + "), uniform50 / scene data\",\n  \"counts\": {";
    bool first = true;
    auto emit = [&](const std::string &key, double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        json += std::string(first ? "\n" : ",\n") + "    \"" + key + "\": " + buf;
        first = false;
        std::fprintf(stderr, "  %-24s %8.1f instructions/pair\n", key.c_str(), v);
    };
    auto measure = [&](const std::string &key, const std::function<void(size_t)> &call, size_t n2) {
        call(n1); // warm: lazy binding and the dispatch's first-use initialisation happen here
        long long s1 = steps_of([&] { call(n1); }), s2 = steps_of([&] { call(n2); });
        if (s1 < 0 || s2 < 0) {
            std::fprintf(stderr, "  %-24s ptrace failed (not allowed here?)\n", key.c_str());
            return false;
        }
        emit(key, (double)(s2 - s1) / (double)(n2 - n1));
        return true;
    };

    std::vector<int> paths;
    for (int i = 0; i < SATBOX_ISA_COUNT; i++)
        if (satbox_isa_supported() & (1u << i))
            paths.push_back(i);
    for (const Job &j : jobs)
        for (int path : paths) {
            satbox_isa_force((satbox_isa)path);
            if (!measure(j.entry + "/" + satbox_isa_name((satbox_isa)path), j.call, n2))
                return 1;
        }
    measure("overlap/seed", [&](size_t n) { bl_seed_overlap(&a, &b, n, hit.data()); }, n2_baseline);
    measure("overlap/textbook", [&](size_t n) { bl_textbook_overlap(&a, &b, n, hit.data()); }, n2_baseline);
    json += "\n  }\n}\n";
    if (out_path) {
        FILE *f = std::fopen(out_path, "w");
        if (!f || std::fputs(json.c_str(), f) < 0 || std::fclose(f) != 0) {
            std::perror(out_path);
            return 1;
        }
    } else {
        std::fputs(json.c_str(), stdout);
    }
    release_all();
    return 0;
}

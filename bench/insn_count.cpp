// insn_count.cpp - instructions per pair of every entry point and path: callgrind where valgrind runs the path, ptrace single-step elsewhere.
// SPDX-License-Identifier: MIT
//
// Why: timings on a shared machine are noisy, instruction counts are not; and the compute floor
// of a path is (instructions per pair) / (IPC * clock). Method: one entry point is called on n1
// and on n2 pairs of the same data (uniform50 pool; scene pool for the pairs forms), and the
// count per pair is (I(n2) - I(n1)) / (n2 - n1): call overhead, dispatch and argument checks
// cancel out. I(n) is counted
//   - by callgrind (valgrind --tool=callgrind): this program re-runs itself under valgrind with
//     collection off (--collect-atstart=no) and switches it on around the one call (client
//     requests), dumping Ir once per call; valgrind runs scalar, SSE4.1 and AVX2 and the
//     baselines (under valgrind satbox hides AVX-512);
//   - by single-stepping the call with ptrace in a forked child, for the paths callgrind cannot
//     run (AVX-512) and for everything when valgrind is missing (no PMU needed either way).
// Usage: satbox_insns [out.json] [--quick] [--no-callgrind]
//   --quick: ptrace counts only overlap and collide (callgrind always counts every entry point).
// The JSON maps "<entry>/<path>" to instructions per pair and "<entry>/<path>" in "how" to the counter used.
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SBB_HAVE_CALLGRIND 1
#else // no valgrind headers at build time: ptrace only
#define SBB_HAVE_CALLGRIND 0
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(label) (void)(label)
#endif

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bare.h"
#include "workloads.h"

extern "C" {
#include "baselines.h"
}

using namespace sbb;

namespace {

// Multiples of every path's width. satbox's paths run the same instructions for every pair (no
// early exit; only the compacted output depends on the data), so 64 pairs suffice; the
// early-exit baselines average over 256 pairs.
constexpr size_t kN1 = 16, kN2 = 16 + 64, kN2Baseline = 16 + 256;

struct Job {
    std::string entry; // "overlap", ...; for a baseline "overlap/textbook" (no path)
    bool baseline;
    std::function<void(size_t)> call;
};

// The data and the calls, built once per process.
struct Bench {
    const PairPool &p = pair_pool(UNIFORM50, 65536, true);
    const ScenePool &sc = scene_pool(65536);
    satbox_boxes a = view(p.a, 0), b = view(p.b, 0), pool = view(sc.boxes, 0);
    satbox_qboxes qa = qview(p.qa, 0), qb = qview(p.qb, 0);
    satbox_box one;
    std::vector<uint8_t> hit = std::vector<uint8_t>(kN2Baseline), axis = hit;
    std::vector<float> sep = std::vector<float>(kN2Baseline), nx = sep, ny = sep, nz = sep, m0 = sep, m1 = sep, m2 = sep;
    std::vector<uint32_t> compact = std::vector<uint32_t>(kN2Baseline);
    std::vector<satbox_rec> rec;
    satbox_result res;
    std::vector<Job> jobs;

    Bench()
    {
        tb_box_from(&a, 0, &one);
        rec.resize(sc.nboxes);
        satbox_pack_rec(&pool, sc.nboxes, rec.data());
        res = {hit.data(), sep.data(), {nx.data(), ny.data(), nz.data()}, axis.data(), nullptr};
        const satbox_pair *pairs = sc.pairs.data();
        const size_t np = sc.nboxes;
        // One line per entry point (the benchmark names' <entry>); baselines last. A variant that is
        // not a public entry point (the bare kernel of bench_kernel.cpp) is one more line named as
        // its benchmarks, "overlap_bare" / "collide_bare": the summary shows it beside overlap.
        jobs = {
            {"overlap", false, [=](size_t n) { satbox_overlap(&a, &b, n, hit.data(), nullptr); }},
            {"collide", false, [=](size_t n) { satbox_collide(&a, &b, n, 0.0f, &res); }},
            {"overlap_q", false, [=](size_t n) { satbox_overlap_q(&qa, &qb, n, hit.data(), nullptr); }},
            {"collide_q", false, [=](size_t n) { satbox_collide_q(&qa, &qb, n, 0.0f, &res); }},
            {"overlap_one", false, [=](size_t n) { satbox_overlap_one(&one, &b, n, hit.data(), nullptr); }},
            {"overlap_bare", false, [=](size_t n) { bare_call(false, &a, &b, n, hit.data(), nullptr); }},
            {"collide_bare", false, [=](size_t n) { bare_call(true, &a, &b, n, nullptr, &res); }},
            {"overlap_pairs", false, [=](size_t n) { satbox_overlap_pairs(&pool, np, pairs, n, nullptr, compact.data(), nullptr); }},
            {"collide_pairs", false, [=](size_t n) { satbox_collide_pairs(&pool, np, pairs, n, 0.0f, &res, compact.data()); }},
            {"overlap_pairs_rec", false,
             [=](size_t n) { satbox_overlap_pairs_rec(rec.data(), np, pairs, n, nullptr, compact.data(), nullptr); }},
            {"collide_pairs_rec", false,
             [=](size_t n) { satbox_collide_pairs_rec(rec.data(), np, pairs, n, 0.0f, &res, compact.data()); }},
            {"aabb", false, [=](size_t n) {
                 float *mn[3] = {nx.data(), ny.data(), nz.data()}, *mx[3] = {m0.data(), m1.data(), m2.data()};
                 satbox_aabb(&a, n, 0.0f, mn, mx);
             }},
            {"overlap/seed", true, [=](size_t n) { bl_seed_overlap(&a, &b, n, hit.data()); }},
            {"overlap/textbook", true, [=](size_t n) { bl_textbook_overlap(&a, &b, n, hit.data()); }},
        };
    }
    Bench(const Bench &) = delete;
};

std::string key_of(const Job &j, int path) { return j.baseline ? j.entry : j.entry + "/" + satbox_isa_name((satbox_isa)path); }
size_t n2_of(const Job &j) { return j.baseline ? kN2Baseline : kN2; }
// The bare kernel jobs run only on the paths that have one (not scalar).
bool runs_on(const Job &j, int path)
{
    bool bare = j.entry.size() > 5 && j.entry.compare(j.entry.size() - 5, 5, "_bare") == 0;
    return !bare || sbx_twin_for((satbox_isa)path, SBX_TWIN_BARE) != nullptr;
}

// ---- callgrind: the child side (runs under valgrind) --------------------------------------------

// Every job on every path valgrind runs, and the baselines; one dump per call, named
// "<key> <n>" (the parent reads the dumps' "desc: Trigger: Client Request:" lines).
int callgrind_child()
{
    Bench bench;
    auto count = [](const std::string &key, const std::function<void(size_t)> &call, size_t n2) {
        call(kN1); // warm: lazy binding and the dispatch's first use happen here
        for (size_t n : {kN1, n2}) {
            CALLGRIND_ZERO_STATS;
            CALLGRIND_TOGGLE_COLLECT;
            call(n);
            CALLGRIND_TOGGLE_COLLECT;
            std::string label = key + " " + std::to_string(n);
            CALLGRIND_DUMP_STATS_AT(label.c_str());
        }
    };
    for (int path : present_paths())
        for (const Job &j : bench.jobs)
            if (!j.baseline && runs_on(j, path)) {
                satbox_isa_force((satbox_isa)path);
                count(key_of(j, path), j.call, n2_of(j));
            }
    for (const Job &j : bench.jobs)
        if (j.baseline)
            count(key_of(j, 0), j.call, n2_of(j));
    release_all();
    return 0;
}

// ---- callgrind: the parent side ----------------------------------------------------------------

// Runs this program under callgrind; returns "<key>" -> instructions per pair for every key it
// counted, empty when valgrind is missing or fails.
std::map<std::string, double> callgrind_counts(const char *self)
{
    std::map<std::string, double> out;
    if (!SBB_HAVE_CALLGRIND || std::system("valgrind --version >/dev/null 2>&1") != 0) {
        std::fprintf(stderr, "  valgrind not found: every path is counted by ptrace single-step\n");
        return out;
    }
    char dir[] = "/tmp/satbox_insns.XXXXXX";
    if (!mkdtemp(dir))
        return out;
    std::string cmd = std::string("valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=") + dir +
                      "/cg " + self + " --callgrind-child >" + dir + "/log 2>&1";
    int rc = std::system(cmd.c_str());
    std::map<std::string, std::map<size_t, double>> ir; // key -> n -> Ir
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        std::string name = std::string(dir) + "/" + e->d_name;
        if (std::strncmp(e->d_name, "cg.", 3) != 0)
            continue;
        std::ifstream f(name);
        std::string line, label;
        double totals = -1;
        const std::string trig = "desc: Trigger: Client Request: ";
        while (std::getline(f, line)) {
            if (line.rfind(trig, 0) == 0)
                label = line.substr(trig.size());
            else if (line.rfind("totals: ", 0) == 0)
                totals = std::strtod(line.c_str() + 8, nullptr);
        }
        size_t sp = label.rfind(' ');
        if (sp != std::string::npos && totals >= 0)
            ir[label.substr(0, sp)][std::strtoul(label.c_str() + sp + 1, nullptr, 10)] = totals;
        std::remove(name.c_str());
    }
    if (d)
        closedir(d);
    if (rc != 0 || ir.empty()) {
        std::fprintf(stderr, "  callgrind failed (status %d; log kept in %s/log): falling back to ptrace\n", rc, dir);
        return out;
    }
    std::remove((std::string(dir) + "/log").c_str());
    rmdir(dir);
    for (const auto &kv : ir) {
        if (kv.second.size() != 2 || !kv.second.count(kN1))
            continue;
        auto hi = kv.second.rbegin();
        out[kv.first] = (hi->second - kv.second.at(kN1)) / (double)(hi->first - kN1);
    }
    return out;
}

// ---- ptrace single-step -------------------------------------------------------------------------

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

// Instructions per pair by single-stepping, or < 0 when ptrace fails.
double ptrace_count(const std::function<void(size_t)> &call, size_t n2)
{
    call(kN1); // warm, as above
    long long s1 = steps_of([&] { call(kN1); }), s2 = steps_of([&] { call(n2); });
    return s1 < 0 || s2 < 0 ? -1 : (double)(s2 - s1) / (double)(n2 - kN1);
}

} // namespace

int main(int argc, char **argv)
{
    const char *out_path = nullptr;
    bool quick = false, use_callgrind = true;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--callgrind-child"))
            return callgrind_child();
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--no-callgrind"))
            use_callgrind = false;
        else if (argv[i][0] == '-') {
            std::fprintf(stderr, "usage: satbox_insns [out.json] [--quick] [--no-callgrind]\n");
            return 2;
        } else
            out_path = argv[i];
    }
    std::vector<int> paths = present_paths();
    std::map<std::string, double> counts = use_callgrind ? callgrind_counts(argv[0]) : std::map<std::string, double>();
    std::map<std::string, std::string> how;
    for (const auto &kv : counts)
        how[kv.first] = "callgrind";

    Bench bench;
    for (const Job &j : bench.jobs) {
        std::vector<int> todo = j.baseline ? std::vector<int>{0} : paths;
        for (int path : todo) {
            std::string key = key_of(j, path);
            if (counts.count(key) || (!j.baseline && !runs_on(j, path)) ||
                (quick && !j.baseline && j.entry != "overlap" && j.entry != "collide" && j.entry != "overlap_bare" &&
                 j.entry != "collide_bare"))
                continue;
            if (!j.baseline)
                satbox_isa_force((satbox_isa)path);
            double v = ptrace_count(j.call, n2_of(j));
            if (v < 0) {
                std::fprintf(stderr, "  %-24s ptrace failed (not allowed here?)\n", key.c_str());
                continue;
            }
            counts[key] = v;
            how[key] = "ptrace";
        }
    }

    std::string json = "{\n  \"method\": \"(I(n2) - I(" + std::to_string(kN1) + ")) / (n2 - " + std::to_string(kN1) +
                       "), n2 = " + std::to_string(kN2) + " (baselines " + std::to_string(kN2Baseline) +
                       "), uniform50 / scene data; I counted by callgrind (Ir) where valgrind runs the path,"
                       " else by ptrace single-step\",\n  \"counts\": {";
    bool first = true;
    for (const auto &kv : counts) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f", kv.second);
        json += std::string(first ? "\n" : ",\n") + "    \"" + kv.first + "\": " + buf;
        first = false;
        std::fprintf(stderr, "  %-24s %8.1f instructions/pair (%s)\n", kv.first.c_str(), kv.second, how[kv.first].c_str());
    }
    json += "\n  },\n  \"how\": {";
    first = true;
    for (const auto &kv : how) {
        json += std::string(first ? "\n" : ",\n") + "    \"" + kv.first + "\": \"" + kv.second + "\"";
        first = false;
    }
    json += "\n  }\n}\n";
    if (!write_text(out_path, json))
        return 1;
    release_all();
    return counts.empty() ? 1 : 0;
}

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""summary.py - one-screen tables from satbox_bench's JSON: ns/pair, x scalar, x seed method, roofline shares,
the kernel table (overlap, collide, bare, textbook, instructions per pair), satbox against the peer libraries
and the 2D table with its goal ratios (summary_2d.py)."""
import argparse
import json
import statistics
import sys
from collections import defaultdict

from isa_order import ISA_BY_RANK, ISA_ORDER  # src/core/isa.h's paths
import summary_2d  # the 2D table and issue 34's goal ratios

BASELINES = ["seed", "textbook"]
IPC_CEILING = 4.0  # instructions per cycle the compute floor assumes (the core's issue width)


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = defaultdict(list)   # name -> list of benchmark entries (repetitions)
    errors = {}
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        if b.get("run_type") == "aggregate":
            continue  # medians are recomputed below from the repetitions
        runs[name].append(b)
    return data.get("context", {}), runs, errors


def med(entries, key):
    vals = [e[key] for e in entries if key in e]
    return statistics.median(vals) if vals else None


def best(entries, key, high=False):
    """Best of the repetitions: on a shared machine interference only ever adds time, so the
    fastest repetition is the closest to the code's own cost (max for rates, min for times)."""
    vals = [e[key] for e in entries if key in e]
    return (max(vals) if high else min(vals)) if vals else None


class Results:
    def __init__(self, runs, errors, insns):
        self.runs, self.errors, self.insns = runs, errors, insns
        self.bw = {}  # (window_bytes, pool_bytes) -> bytes/s
        for name, e in runs.items():
            if name.startswith("readbw/"):
                _, win, pool = name.split("/")
                self.bw[(int(win), int(pool))] = best(e, "bytes_per_second", high=True)
        self.ghz = best(runs["clock"], "GHz", high=True) if "clock" in runs else None

    def get(self, entry, path, work, n):
        return self.runs.get(f"{entry}/{path}/{work}/{n}")

    def ns(self, entry, path, work, n):
        e = self.get(entry, path, work, n)
        v = best(e, "time/pair") if e else None
        return v * 1e9 if v else None

    def floor_ns(self, entry, path, work, n):
        """Memory floor: bytes a pair moves / read bandwidth over the same window and pool."""
        e = self.get(entry, path, work, n)
        if not e:
            return None
        bw = self.bw.get((int(med(e, "window_bytes")), int(med(e, "pool_bytes"))))
        return med(e, "bytes_per_pair") / bw * 1e9 if bw else None

    def insn(self, entry, path):
        return self.insns.get(f"{entry}/{path}")

    def insn_for(self, entry, path, work):
        """The count applies to every workload for satbox's paths (no early exit), and only to the
        data it was counted on (uniform50) for the early-exit baselines."""
        if path in BASELINES and work not in ("uniform50", "hot"):
            return None
        return self.insn(entry, path)

    def ipc(self, entry, path, work, n):
        t, i = self.ns(entry, path, work, n), self.insn_for(entry, path, work)
        return i / (t * self.ghz) if t and i and self.ghz else None

    def cpu_floor_ns(self, entry, path):
        i = self.insn(entry, path)
        return i / (IPC_CEILING * self.ghz) if i and self.ghz else None

    def paths(self):
        """satbox's paths measured in this run (a path that only failed or was skipped is absent),
        narrowest first: the last is the widest present, the one ratios and shares refer to."""
        present = {name.split("/")[1] for name in self.runs if name.count("/") == 3}
        return [p for p in ISA_BY_RANK if p in present]


def f(v, fmt="{:.1f}", none="-"):
    return fmt.format(v) if v is not None else none


def fx(v):
    """A ratio: one decimal below 10, none above."""
    return "-" if v is None else f"{v:.1f}" if v < 10 else f"{v:.0f}"


def ratio(a, b):
    return a / b if a and b else None


def pct(a, b):
    return 100.0 * a / b if a and b else None


def human(n):
    for unit, div in (("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


WORKLOADS = ["uniform50", "zero0", "full100", "stacked", "scene", "hot"]


def table_workloads(r, out, n=4096):
    """Path x workload for overlap at n pairs: ns/pair, then x scalar / x seed / % of memory floor."""
    paths = r.paths() + BASELINES
    works = [w for w in WORKLOADS if any(r.get("overlap", p, w, n) for p in paths)]
    out.append(f"overlap, {human(n)} pairs a call, path x workload: ns/pair"
               f"  (insn/pair and IPC on uniform50; hit rate in the last row)")
    out.append(f"{'path':<12}" + "".join(f"{w:>10}" for w in works) + f"{'insn':>7}{'IPC':>6}")
    for p in paths:
        cells = []
        for w in works:
            t = r.ns("overlap", p, w, n)
            cells.append("skipped" if f"overlap/{p}/{w}/{n}" in r.errors else f(t))
        out.append(f"{p:<12}" + "".join(f"{c:>10}" for c in cells) +
                   f"{f(r.insn_for('overlap', p, 'uniform50'), '{:.0f}'):>7}"
                   f"{f(r.ipc('overlap', p, 'uniform50', n), '{:.2f}'):>6}")
    for e, p in peer_rows(r):  # the peer libraries on the workloads they ran (":c" contacts, ":o" overlap)
        cells = [r.ns(e, p, w, n) for w in works]
        if any(cells):
            out.append(f"{p + ':' + e[0]:<12}" + "".join(f"{f(c):>10}" for c in cells))
    hit = [med(r.get("overlap", "scalar", w, n) or [{}], "hit_rate") for w in works]
    out.append(f"{'hit %':<12}" + "".join(f"{f(100 * h if h is not None else None, '{:.0f}'):>10}" for h in hit))
    out.append("")
    out.append(f"the same: x scalar / x seed method / % of memory floor")
    out.append(f"{'path':<12}" + "".join(f"{w:>13}" for w in works))
    for p in paths:
        cells = []
        for w in works:
            t = r.ns("overlap", p, w, n)
            sc, sd = ratio(r.ns("overlap", "scalar", w, n), t), ratio(r.ns("overlap", "seed", w, n), t)
            mem = pct(r.floor_ns("overlap", p, w, n), t)
            cells.append(f"{fx(sc)}/{fx(sd)}/{f(mem, '{:.0f}')}%" if t else "-")
        out.append(f"{p:<12}" + "".join(f"{c:>13}" for c in cells))
    out.append("hot = the uniform50 window repeated (cache-resident, branch predictor trained); the other"
               " workloads take a fresh window each pass.")


def table_sizes(r, out):
    paths = r.paths() + BASELINES
    sizes = sorted({int(k.split("/")[3]) for k in r.runs if k.startswith("overlap/") and "/uniform50/" in k})
    if not sizes:
        return
    best = r.paths()[-1] if r.paths() else "scalar"
    out.append(f"overlap, uniform50: ns/pair by batch size (x scalar of {best}; % mem: {best}'s share of the memory floor)")
    out.append(f"{'pairs':>6} " + " ".join(f"{p:>8}" for p in paths) + f" {'x scalar':>8} {'floor ns':>8} {'% mem':>6}")
    for n in sizes:
        cells = [f(r.ns("overlap", p, "uniform50", n)) for p in paths]
        t, fl = r.ns("overlap", best, "uniform50", n), r.floor_ns("overlap", best, "uniform50", n)
        out.append(f"{human(n):>6} " + " ".join(f"{c:>8}" for c in cells) +
                   f" {f(ratio(r.ns('overlap', 'scalar', 'uniform50', n), t), '{:.1f}'):>8}"
                   f" {f(fl):>8} {f(pct(fl, t), '{:.0f}'):>6}")


def table_entries(r, out):
    paths = r.paths()
    best = paths[-1] if paths else "scalar"
    entries = [("overlap", "uniform50"), ("collide", "uniform50"), ("overlap_q", "uniform50"),
               ("collide_q", "uniform50"), ("overlap_one", "uniform50"), ("overlap_pairs", "scene"),
               ("collide_pairs", "scene"), ("overlap_pairs_rec", "scene"), ("collide_pairs_rec", "scene"),
               ("aabb", "uniform50")]
    sizes = sorted({int(k.split("/")[3]) for k in r.runs if k.count("/") == 3 and not k.startswith("overlap/")
                    and k.split("/")[0] in dict(entries)})
    sizes = [s for s in (4096, 1 << 20) if s in sizes] or sizes[:2]
    out.append(f"entry points: ns/pair (ns/box for aabb) per path; {best}: x scalar, % of memory floor,"
               f" % of compute floor (IPC {IPC_CEILING:.0f})")
    head = f"{'entry':<14}{'pairs':>6} " + " ".join(f"{p:>7}" for p in paths) + f" {'x scalar':>8} {'% mem':>6} {'% cpu':>6}"
    out.append(head)
    for e, w in entries:
        for n in sizes:
            cells = [r.ns(e, p, w, n) for p in paths]
            if not any(cells):
                continue
            t = r.ns(e, best, w, n)
            out.append(f"{e:<18}{human(n):>6} " + " ".join(f"{f(c):>7}" for c in cells) +
                       f" {f(ratio(r.ns(e, 'scalar', w, n), t), '{:.1f}'):>8}"
                       f" {f(pct(r.floor_ns(e, best, w, n), t), '{:.0f}'):>6}"
                       f" {f(pct(r.cpu_floor_ns(e, best), t), '{:.0f}'):>6}")


def table_insns(r, out, how):
    """Instructions per pair, entry point x path (c = callgrind, p = ptrace single-step)."""
    paths = r.paths()
    entries = sorted({k.split("/")[0] for k in r.insns if k.split("/")[-1] in paths},
                     key=lambda e: (e.replace("_bare", "") != e, e))
    if not entries:
        return
    out.append("instructions per pair, entry point x path (c = callgrind Ir, p = ptrace single-step),"
               f" textbook {f(r.insn('overlap', 'textbook'), '{:.0f}')}, seed {f(r.insn('overlap', 'seed'), '{:.0f}')}")
    out.append(f"{'entry':<18}" + "".join(f"{p:>10}" for p in paths))
    for e in entries:
        cells = []
        for p in paths:
            v = r.insn(e, p)
            src = {"callgrind": "c", "ptrace": "p"}.get(how.get(f"{e}/{p}"), "")
            cells.append(f"{v:.0f} {src}" if v is not None else "-")
        out.append(f"{e:<18}" + "".join(f"{c:>10}" for c in cells))


def table_threads(r, out):
    groups = defaultdict(dict)
    for name, e in r.runs.items():
        if name.startswith("threads/"):
            _, path, _, n, t = name.split("/")[:5]
            groups[(path, int(n))][int(t)] = best(e, "pairs/s", high=True)
    for (path, n), by_t in sorted(groups.items()):
        one = by_t.get(1)
        cells = ", ".join(f"{t} thr {1e9 / v:.2f} ns/pair (x{v / one:.2f})" if one else f"{t} thr {1e9 / v:.2f} ns/pair"
                          for t, v in sorted(by_t.items()))
        out.append(f"threads, overlap {path} {human(n)} pairs (wall time): {cells}")


KERNEL_SIZE = 4096


def table_kernel(r, out, n=KERNEL_SIZE):
    """Per path: overlap, collide, the bare kernel (when benchmarked), textbook; ratios; insn/pair."""
    paths = r.paths()
    if not paths:
        return []
    tb = r.ns("overlap", "textbook", "uniform50", n)
    tb_i = r.insn("overlap", "textbook")
    have_bare = any(r.ns("overlap_bare", p, "uniform50", n) or r.insn("overlap_bare", p) for p in paths)
    cols = ["overlap", "collide"] + (["ov_bare", "co_bare"] if have_bare else []) + ["textbook"]
    rat = (["ov/bare", "co/bare", "ov/bare i"] if have_bare else []) + ["co/ov", "tb/ov"]
    out.append(f"kernel, uniform50, {human(n)} pairs a call: ns/pair, ratios of those times, instructions per pair"
               f" (textbook = bl_textbook_overlap, scalar early exit, one column for every path)")
    out.append(f"{'path':<8}" + "".join(f"{c:>9}" for c in cols) + " |" + "".join(f"{c:>{max(8, len(c) + 1)}}" for c in rat) +
               " | insn:" + "".join(f"{c:>9}" for c in cols))
    rows = []
    for p in paths:
        t = {"overlap": r.ns("overlap", p, "uniform50", n), "collide": r.ns("collide", p, "uniform50", n),
             "ov_bare": r.ns("overlap_bare", p, "uniform50", n), "co_bare": r.ns("collide_bare", p, "uniform50", n),
             "textbook": tb}
        i = {"overlap": r.insn("overlap", p), "collide": r.insn("collide", p),
             "ov_bare": r.insn("overlap_bare", p), "co_bare": r.insn("collide_bare", p), "textbook": tb_i}
        q = {"ov/bare": ratio(t["overlap"], t["ov_bare"]), "co/bare": ratio(t["collide"], t["co_bare"]),
             "co/ov": ratio(t["collide"], t["overlap"]), "tb/ov": ratio(tb, t["overlap"]),
             "ov/bare i": ratio(i["overlap"], i["ov_bare"])}
        out.append(f"{p:<8}" + "".join(f"{f(t[c]):>9}" for c in cols) + " |" +
                   "".join(f"{f(q[c], '{:.2f}'):>{max(8, len(c) + 1)}}" for c in rat) + " |      " +
                   "".join(f"{f(i[c], '{:.0f}'):>9}" for c in cols))
        rows.append({"path": p, "ns": t, "ratio": q, "insn": i})
    out.append("ov/bare, co/bare: satbox's time over the bare kernel's (the same source without validity checks and"
               " the near-parallel rule; never shipped), ov/bare i: the same for instructions;" if have_bare else
               "(no bare-kernel rows in this run: overlap_bare/<path>/uniform50/4096, insns overlap_bare/<path>)")
    out.append("co/ov: collide over overlap; tb/ov: the textbook test over overlap (how many times faster satbox is).")
    return rows


# Peers: (benchmark entry, benchmark path, label); satbox's own rows come from the paths present.
PEER_ENTRIES = ("overlap", "contacts")


def peer_rows(r):
    names = {tuple(k.split("/")[:2]) for k in r.runs if k.count("/") == 3}
    return sorted((e, p) for e, p in names if e in PEER_ENTRIES and p not in ISA_ORDER and p not in BASELINES)


def table_peers(r, out, agree, cpu):
    """satbox's paths, the baselines and the peer libraries on the same pairs: speed and agreement."""
    peers = peer_rows(r)
    methods = [("overlap", p) for p in r.paths()] + [("collide", p) for p in r.paths()] + \
              [("overlap", b) for b in BASELINES] + peers
    K, M = 4096, 1 << 20
    fastest = min((t for t in (r.ns(e, p, "uniform50", K) for e, p in peers) if t), default=None)
    fam = (agree or {}).get("methods", {})
    npairs = (agree or {}).get("pairs_per_family")
    out.append(f"against the peer libraries, {cpu}: random rotations at 50% overlap, one thread,"
               f" fresh windows; agreement with the long-double oracle on {npairs or '?'} pairs per family")
    head = (f"{'method':<22}{'ns 4Ki':>8}{'ns 1Mi':>8}{'x peer':>8}{'insn':>7}  {'stacked FP/FN':>13}"
            f"  {'random FP/FN':>12}  {'scene FP/FN':>11}  worst FP gap / FN depth")
    out.append(head)
    rows = []
    for e, p in methods:
        t4, t1 = r.ns(e, p, "uniform50", K), r.ns(e, p, "uniform50", M)
        if t4 is None and t1 is None:
            continue
        a = fam.get(f"{e}/{p}", {})
        cells = {k: a.get(k) for k in ("stacked", "random", "scene")}
        fpfn = {k: f"{v['fp']}/{v['fn']}" if v else "-" for k, v in cells.items()}
        gaps = [v["worst_fp_gap"] for v in cells.values() if v and v["fp"]]
        deps = [v["deepest_fn"] for v in cells.values() if v and v["fn"]]
        worst = f"{max(gaps):.2g}" if gaps else "-"
        deep = f"{max(deps):.2g}" if deps else "-"
        label = f"{e} {p}" if (e, p) in peers else f"satbox {e} {p}" if p in ISA_ORDER else f"{p} (baseline)"
        x = ratio(fastest, t4)
        out.append(f"{label:<22}{f(t4):>8}{f(t1):>8}{f(x, '{:.2f}'):>8}{f(r.insn(e, p), '{:.0f}'):>7}"
                   f"  {fpfn['stacked']:>13}  {fpfn['random']:>12}  {fpfn['scene']:>11}  {worst} / {deep}")
        rows.append({"method": label, "benchmark": f"{e}/{p}", "ns_per_pair_4k": t4, "ns_per_pair_1m": t1,
                     "x_fastest_peer": x, "insn_per_pair": r.insn(e, p), "agreement": cells})
    out.append("x peer = the fastest peer's ns/pair (4Ki) / this method's: above 1 is faster. FP = reported overlapping,"
               " truly apart; FN = reported apart, truly overlapping (touching counts as overlapping); worst FP gap"
               " and deepest FN over the three families (length units; boxes of half extents 0.1-1.5).")
    out.append("Contact peers (Bullet, ODE) count as overlapping when they return a contact. Peer conversion to their"
               " own types happens once, outside the timed loop.")
    if not peers:
        out.append("No peer library ran: not found at configure time (the console's 'Peer:' lines say which),"
                   " or filtered out.")
    return rows


CONTACT_WORKS = ("uniform50", "stacked")


def table_contacts(r, out, n=4096):
    """Contact manifolds per path beside overlap and collide, the floor under any manifold, and the
    contact peers (ODE, Bullet) on the same pairs; uniform50 / stacked in every cell."""
    paths = [p for p in r.paths() if any(r.ns("contacts", p, w, n) for w in CONTACT_WORKS)]
    if not paths:
        return

    def ode(w):
        e = r.runs.get(f"ode_boxbox/{w}/{n}")
        v = best(e, "time/pair") if e else None
        return v * 1e9 if v else None

    def pair(vals, fmt="{:.1f}"):
        return " / ".join(f(v, fmt) for v in vals)

    out.append(f"contacts (every output array), {human(n)} pairs a call: ns/pair, uniform50 / stacked")
    cols = ["overlap", "collide", "contacts", "floor", "ct/ov", "floor/ov", "ct/floor", "stream/floor", "ODE/ct"]
    out.append(f"{'path':<8}" + "".join(f"{c:>15}" for c in cols))
    for p in paths:
        t = {e: [r.ns(e, p, w, n) for w in CONTACT_WORKS]
             for e in ("overlap", "collide", "contacts", "contacts_floor", "contacts_stream")}
        rat = lambda a, b: [ratio(x, y) for x, y in zip(a, b)]
        cells = [pair(t["overlap"]), pair(t["collide"]), pair(t["contacts"]), pair(t["contacts_floor"]),
                 pair(rat(t["contacts"], t["overlap"])), pair(rat(t["contacts_floor"], t["overlap"])),
                 pair(rat(t["contacts"], t["contacts_floor"]), "{:.2f}"),
                 pair(rat(t["contacts_stream"], t["contacts_floor"]), "{:.2f}"),
                 pair(rat([ode(w) for w in CONTACT_WORKS], t["contacts"]))]
        out.append(f"{p:<8}" + "".join(f"{c:>15}" for c in cells))
    for label, vals in (("ODE", [ode(w) for w in CONTACT_WORKS]),
                        ("Bullet", [r.ns("contacts", "bullet", w, n) for w in CONTACT_WORKS])):
        if any(vals):
            out.append(f"{label:<8}" + f"{'':>15}" * 2 + f"{pair(vals):>15}")
    out.append("ct/ov: contacts over overlap; ct/floor, stream/floor: satbox_contacts (every array bound) and"
               " satbox_contacts_stream over the floor (issue 24's goal: ct/floor <= 2.0 on AVX2 and AVX-512);"
               " ODE/ct: ODE's dCollide time over satbox_contacts' (above 1 is faster)."
               " floor: the bare contacts kernel (bench only): SAT, axis, normal and every output store with no"
               " manifold and no validity test, the least any manifold code in this kernel structure can cost.")


def goal_line(out, label, value, goal, le, detail):
    """One goal line: the ratio, met or missed against `goal` (<= when `le`, else >=), the figures."""
    if value is None:
        out.append(f"  {label}: not measured ({detail})")
        return {"goal": label, "ratio": None, "status": "not measured"}
    ok = value <= goal if le else value >= goal
    status = "met" if ok else "missed"
    out.append(f"  {label}: {value:.2f} (goal {'<=' if le else '>='} {goal:g}: {status}; {detail})")
    return {"goal": label, "ratio": value, "status": status}


def goals_contacts(r, out, n=4096):
    """Issue 35's kernel goals, as ratios in this run: contacts and the stream <= 2.0x contacts_floor
    (uniform50 and stacked), collide <= 1.5x overlap (uniform50) on AVX2 and AVX-512; the scalar stream
    no slower than ODE's dBoxBox on the same pairs. The engine goals are engines.py's."""
    rows = []
    out.append("Goals (issue 35), ratios in this run:")
    for p in ("avx2", "avx512"):
        if p not in r.paths():
            out.append(f"  {p}: not measured (path absent from this run)")
            continue
        for w in CONTACT_WORKS:
            fl = r.ns("contacts_floor", p, w, n)
            for e, name in (("contacts", "contacts"), ("contacts_stream", "stream")):
                t = r.ns(e, p, w, n)
                rows.append(goal_line(out, f"{p} {name} / floor, {w}", ratio(t, fl), 2.0, True,
                                      f"{f(t)} vs {f(fl)} ns/pair" if t and fl else f"no {e} or contacts_floor row"))
        co, ov = r.ns("collide", p, "uniform50", n), r.ns("overlap", p, "uniform50", n)
        rows.append(goal_line(out, f"{p} collide / overlap, uniform50", ratio(co, ov), 1.5, True,
                              f"{f(co)} vs {f(ov)} ns/pair" if co and ov else "no collide or overlap row"))
    for w in CONTACT_WORKS:
        e = r.runs.get(f"ode_boxbox/{w}/{n}")
        ode = best(e, "time/pair") * 1e9 if e and best(e, "time/pair") else None
        st = r.ns("contacts_stream", "scalar", w, n)
        rows.append(goal_line(out, f"scalar stream x ODE dBoxBox, {w}", ratio(ode, st), 1.0, False,
                              f"{f(st)} vs ODE {f(ode)} ns/pair" if ode and st else "no contacts_stream/scalar or ode_boxbox row"))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("json", help="satbox_bench --benchmark_out JSON")
    ap.add_argument("--insns", help="satbox_insns JSON (instruction counts)")
    ap.add_argument("--date", help="date to print (default: the JSON's)")
    ap.add_argument("--agree", help="satbox_agree JSON (agreement with the oracle)")
    ap.add_argument("--json-out", help="write the kernel and peer tables' rows as JSON here")
    a = ap.parse_args()
    ctx, runs, errors = load(a.json)
    insns, how = {}, {}
    method = None
    if a.insns:
        try:
            with open(a.insns) as fh:
                d = json.load(fh)
            insns, method, how = d.get("counts", {}), d.get("method"), d.get("how", {})
        except (OSError, ValueError) as ex:
            print(f"(no instruction counts: {ex})", file=sys.stderr)
    agree = None
    if a.agree:
        try:
            with open(a.agree) as fh:
                agree = json.load(fh)
        except (OSError, ValueError) as ex:
            print(f"(no agreement figures: {ex})", file=sys.stderr)
    r = Results(runs, errors, insns)
    out = []
    out.append(f"satbox {ctx.get('satbox_version', '?')} benchmarks ({ctx.get('suite_mode', '?')} run),"
               f" {a.date or ctx.get('date', '?')}")
    loadavg = ", ".join(f"{x:.1f}" for x in ctx.get("load_avg", []))
    out.append(f"CPU: {ctx.get('cpu_model', '?')} ({ctx.get('num_cpus', '?')} cpus), paths: {ctx.get('satbox_paths', '?')};"
               f" load average at start {loadavg or '?'}")
    dram = [v for (w, p), v in r.bw.items() if p >= 64 << 20]
    l3 = [v for (w, p), v in r.bw.items() if w < p <= 16 << 20]
    out.append(f"clock probe {f(r.ghz, '{:.2f}')} GHz; 1-thread read bandwidth: L3-sized pools"
               f" {f(statistics.median(l3) / 1e9 if l3 else None)} GB/s, DRAM {f(statistics.median(dram) / 1e9 if dram else None)} GB/s")
    out.append("CPU time per pair, best of the repetitions. libbenchmark is a "
               f"{ctx.get('library_build_type', '?')} build (harness only).")
    if ctx.get("satbox_paths_left_out"):
        out.append(f"paths left out: {ctx['satbox_paths_left_out']}; ratios and shares refer to the widest path present"
                   f" ({r.paths()[-1] if r.paths() else '-'})")
    out.append("")
    kernel_rows = table_kernel(r, out)
    out.append("")
    peer_table = table_peers(r, out, agree, ctx.get("cpu_model", "?"))
    if ctx.get("peers_left_out"):
        out.append(f"Peers missing: {ctx['peers_left_out']}")
    out.append("")
    table_contacts(r, out)
    goals35 = goals_contacts(r, out)
    out.append("")
    table_workloads(r, out)
    out.append("")
    table_sizes(r, out)
    out.append("")
    table_entries(r, out)
    out.append("")
    table_threads(r, out)
    out.append("% mem = memory floor / time: floor = bytes moved per pair (120 in + out matrix, 80 + out quaternion)"
               " / read bandwidth over the same window and pool.")
    out.append(f"% cpu = compute floor / time: floor = instructions per pair / ({IPC_CEILING:.0f}"
               " IPC x clock probe). IPC column = instructions per pair / (ns x GHz).")
    if method:
        out.append(f"instruction count: {method}")
    out.append("")
    table_insns(r, out, how)
    out.append("")
    table2d = summary_2d.table_2d(runs, out)
    print("\n".join(out))
    if a.json_out:
        with open(a.json_out, "w") as fh:
            json.dump({"cpu_model": ctx.get("cpu_model"), "date": ctx.get("date"), "paths": r.paths(),
                       "kernel": kernel_rows, "peers": peer_table, "2d": table2d, "goals_contacts": goals35}, fh, indent=1)


if __name__ == "__main__":
    main()

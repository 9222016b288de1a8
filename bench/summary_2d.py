#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""summary_2d.py - the 2D table from satbox_bench's JSON: ns/pair per path, the widest path's speed-up over
scalar, over the textbook/classic scalar baselines and over Box2D, and issue 34's goal ratios (met, or missed with
what was tried and the design change that would reach it).

From summary.py: `rows = summary_2d.table_2d(runs, out)` with `runs` as summary.load() returns (name -> list of
repetition entries) and `out` a list of lines to extend; `rows` is the table and the goals as JSON-ready dicts
(None when the JSON has no 2d/ benchmarks). Standalone: `bench/summary_2d.py result.json`."""
import json
import sys
from collections import defaultdict

from isa_order import ISA_BY_RANK, ISA_ORDER  # src/core/isa.h's paths

PEERS = ["textbook", "classic", "box2d"]
# The peers whose absence the table names: (path, name, why it can be missing).
PEER_NOTES = [("box2d", "Box2D 2.4", "libbox2d-dev not found at configure time, or filtered out: no 2d/*/box2d rows")]
# Known entries in table order; any other 2d/<entry> in the JSON is appended after them.
ENTRIES = ["rect_overlap", "rect_collide", "poly_overlap", "poly_collide", "rect_poly_collide", "poly_overlap_pairs",
           "rect_contacts", "poly_contacts", "prep_overlap", "prep_collide", "prep_contacts", "body_overlap",
           "body_collide", "body_contacts"]

# Issue 34's goals: (label, entry, path, reference path, reference's name, minimum ratio ref ns / path ns). The
# prepared rows against the peers on the same pairs: prep_* against the classic test on the same world polygons,
# body_* against Box2D on its own shapes and transforms (bench/bench_2d.cpp).
GOALS = [
    ("AVX2 prep_overlap x classic", "prep_overlap", "avx2", "classic", "the classic early-exit SAT", 3.0),
    ("AVX2 body_collide x Box2D", "body_collide", "avx2", "box2d", "b2CollidePolygons", 4.0),
    ("AVX2 body_contacts x Box2D", "body_contacts", "avx2", "box2d", "b2CollidePolygons", 3.0),
    ("scalar body_collide x Box2D", "body_collide", "scalar", "box2d", "b2CollidePolygons", 1.0),
    ("AVX2 rect_overlap x textbook", "rect_overlap", "avx2", "textbook", "the textbook rectangle test (4.6 before)", 4.0),
]
# Reported beside the goals (AVX-512, when this CPU runs it).
REPORTED = [(label.replace("AVX2", "AVX-512"), entry, "avx512", ref, ref_name, goal)
            for label, entry, path, ref, ref_name, goal in GOALS if path == "avx2"]
# What a missed goal needs (printed under it): what was tried, and the design change that would reach it.
MISSED_NOTES = {
    "AVX2 body_collide x Box2D": "tried: prepared unit normals and offsets (no sqrt/division per pair), B moved into A's"
                                 " frame in the lanes; left: the 8-lane step runs to its largest vertex count and gathers"
                                 " 40 arrays per side; would reach it: lanes grouped by vertex count (issue 34 point 2)"
                                 " and a pool kept as records (one cache line per shape instead of 41 gathers)",
    "AVX2 body_contacts x Box2D": "tried: the prepared SAT, the incident edge from prepared normals; left: the manifold's"
                                  " three passes over the slots (reference ends, deepest vertex, incident edge) at the"
                                  " step's largest count; would reach it: the same grouping by count and the record pool",
    "AVX2 prep_overlap x classic": "tried: n . w - d with early exit when every live lane is separated; would reach it:"
                                   " lanes that run to their own counts (issue 34 point 2)",
    "scalar body_collide x Box2D": "tried: the reference reads the prepared arrays (no sqrt/division per pair); would"
                                   " reach it: an early exit on a separating axis in collide (Box2D stops at none either)",
}


def _ns(runs, name):
    """CPU ns per pair, best of the repetitions (interference only ever adds time)."""
    vals = [e["time/pair"] for e in runs.get(name, []) if "time/pair" in e]
    return min(vals) * 1e9 if vals else None


def _agree(runs, name):
    vals = [e["agree"] for e in runs.get(name, []) if "agree" in e]
    return min(vals) if vals else None


def goal_lines(runs, out, work="uniform", n=4096):
    """Appends one line per goal of GOALS: the ratio and met / missed, or why it was not measured.
    Returns the goals as dicts (ratio None when not measured)."""
    rows = []
    out.append("Goals (issue 34), ratio = reference ns / satbox ns in this run:")
    for label, entry, path, ref, ref_name, goal in GOALS + REPORTED:
        reported = (label, entry, path, ref, ref_name, goal) in REPORTED
        mine, theirs = _ns(runs, f"2d/{entry}/{path}/{work}/{n}"), _ns(runs, f"2d/{entry}/{ref}/{work}/{n}")
        ratio = theirs / mine if mine and theirs else None
        if ratio is None:
            if reported:
                continue
            absent = [b for b, v in ((f"{entry}/{path}", mine), (f"{entry}/{ref}", theirs)) if not v]
            status = "not measured (no " + " or ".join(absent) + " row)"
            out.append(f"  {label}: {status}")
        else:
            status = "reported" if reported else "met" if ratio >= goal else "missed"
            out.append(f"  {label}: {ratio:.2f} (goal >= {goal:g}: {status}; {mine:.1f} vs {theirs:.1f} ns/pair,"
                       f" {ref}: {ref_name})")
            if status == "missed" and label in MISSED_NOTES:
                out.append(f"    {MISSED_NOTES[label]}")
        rows.append({"goal": label, "benchmark": f"{entry}/{path}", "reference": f"{entry}/{ref}", "minimum": goal,
                     "ratio": ratio, "status": status})
    return rows


def table_2d(runs, out, work="uniform", n=4096):
    """Appends the 2D table (lines) to `out` and returns its rows and goals as a dict; nothing (None) when the
    JSON has no 2d/ benchmarks."""
    names = [k for k in runs if k.startswith("2d/")]
    if not names:
        return None
    paths = [p for p in ISA_BY_RANK + PEERS if any(k.split("/")[2] == p for k in names)]
    isas = [p for p in paths if p in ISA_ORDER]
    entries = ENTRIES + sorted({k.split("/")[1] for k in names} - set(ENTRIES))
    out.append(f"2D (satbox2d), {work} pairs ({n} in cache), CPU ns per pair; x = widest path's speed-up")
    head = f"{'entry':<20}" + "".join(f"{p:>10}" for p in paths) + f"{'x scalar':>10}{'x base':>9}{'x box2d':>9}"
    out.append(head)
    out.append("-" * len(head))
    rows = []
    for entry in entries:
        cells = {p: _ns(runs, f"2d/{entry}/{p}/{work}/{n}") for p in paths}
        if not any(cells.values()):
            continue
        widest = next((cells[p] for p in reversed(isas) if cells.get(p)), None)
        base = cells.get("textbook") or cells.get("classic")

        def ratio(ref):
            return f"{ref / widest:.2f}" if ref and widest else "-"

        row = f"{entry:<20}" + "".join(f"{cells[p]:>10.2f}" if cells[p] else f"{'-':>10}" for p in paths)
        row += f"{ratio(cells.get('scalar')):>10}{ratio(base):>9}{ratio(cells.get('box2d')):>9}"
        out.append(row)
        rows.append({"entry": entry, "ns_per_pair": cells})
    agree = [(e, _agree(runs, f"2d/{e}/box2d/{work}/{n}")) for e in entries]
    agree = [f"{e} {a * 100:.1f}%" for e, a in agree if a is not None]
    if agree:
        out.append("Box2D's overlap answer equals satbox's on: " + ", ".join(agree) +
                   " of the pairs (its polygons carry a 0.01 skin).")
    out.append("textbook: scalar rectangle test (4 axes, early exit); classic: scalar vertex projection on every edge"
               " normal of both polygons (early exit for overlap); box2d: Box2D 2.4 b2TestOverlap (overlap) /"
               " b2CollidePolygons (collide and contacts: it builds the manifold).")
    missing = [f"{name} ({why})" for p, name, why in PEER_NOTES if p not in paths]
    if missing:
        out.append("2D peers missing: " + "; ".join(missing) + ".")
    goals = goal_lines(runs, out, work, n)
    return {"rows": rows, "goals": goals, "peers_missing": missing}


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    runs = defaultdict(list)
    for b in data.get("benchmarks", []):
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        runs[b.get("run_name", b["name"])].append(b)
    out = []
    table_2d(runs, out)
    print("\n".join(out) if out else "no 2d/ benchmarks in this JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())

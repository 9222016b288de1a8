#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""summary_2d.py - the 2D table from satbox_bench's JSON: ns/pair per path, the widest path's speed-up over
scalar, over the textbook/classic scalar baselines and over Box2D, and issue 25's goal ratios (met or missed).

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
           "rect_contacts", "poly_contacts"]

# Issue 25's goals: (label, entry, path, reference path, reference's name, minimum ratio ref ns / path ns).
GOALS = [
    ("AVX2 poly_overlap x classic", "poly_overlap", "avx2", "classic", "the classic early-exit SAT", 3.0),
    ("AVX2 poly_collide x Box2D", "poly_collide", "avx2", "box2d", "b2CollidePolygons", 4.0),
    ("AVX2 poly_contacts x Box2D", "poly_contacts", "avx2", "box2d", "b2CollidePolygons", 3.0),
    ("scalar poly_overlap x Box2D", "poly_overlap", "scalar", "box2d", "b2TestOverlap", 1.0),
    ("scalar poly_collide x Box2D", "poly_collide", "scalar", "box2d", "b2CollidePolygons", 1.0),
    ("scalar poly_contacts x Box2D", "poly_contacts", "scalar", "box2d", "b2CollidePolygons", 1.0),
]


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
    out.append("Goals (issue 25), ratio = reference ns / satbox ns in this run:")
    for label, entry, path, ref, ref_name, goal in GOALS:
        mine, theirs = _ns(runs, f"2d/{entry}/{path}/{work}/{n}"), _ns(runs, f"2d/{entry}/{ref}/{work}/{n}")
        ratio = theirs / mine if mine and theirs else None
        if ratio is None:
            absent = [b for b, v in ((f"{entry}/{path}", mine), (f"{entry}/{ref}", theirs)) if not v]
            status = "not measured (no " + " or ".join(absent) + " row)"
            out.append(f"  {label}: {status}")
        else:
            status = "met" if ratio >= goal else "missed"
            out.append(f"  {label}: {ratio:.2f} (goal >= {goal:g}: {status}; {mine:.1f} vs {theirs:.1f} ns/pair,"
                       f" {ref}: {ref_name})")
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

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""summary_2d.py - the 2D table from satbox_bench's JSON: ns/pair per path, and the widest path's speed-up over
scalar, over the textbook/classic scalar baselines and over Box2D.

From summary.py: `import summary_2d; summary_2d.table_2d(runs, out)` with `runs` as summary.load() returns
(name -> list of repetition entries) and `out` a list of lines to extend. Standalone:
`bench/summary_2d.py result.json`."""
import json
import sys
from collections import defaultdict

from isa_order import ISA_ORDER  # src/isa.h's paths

PEERS = ["textbook", "classic", "box2d"]
ENTRIES = ["rect_overlap", "rect_collide", "poly_overlap", "poly_collide", "rect_poly_collide", "poly_overlap_pairs"]


def _ns(runs, name):
    """CPU ns per pair, best of the repetitions (interference only ever adds time)."""
    vals = [e["time/pair"] for e in runs.get(name, []) if "time/pair" in e]
    return min(vals) * 1e9 if vals else None


def _agree(runs, name):
    vals = [e["agree"] for e in runs.get(name, []) if "agree" in e]
    return min(vals) if vals else None


def table_2d(runs, out, work="uniform", n=4096):
    """Appends the 2D table (lines) to `out`; nothing when the JSON has no 2d/ benchmarks."""
    names = [k for k in runs if k.startswith("2d/")]
    if not names:
        return
    paths = [p for p in ISA_ORDER + PEERS if any(k.split("/")[2] == p for k in names)]
    isas = [p for p in paths if p in ISA_ORDER]
    out.append(f"2D (satbox2d), {work} pairs ({n} in cache), CPU ns per pair; x = widest path's speed-up")
    head = f"{'entry':<20}" + "".join(f"{p:>10}" for p in paths) + f"{'x scalar':>10}{'x base':>9}{'x box2d':>9}"
    out.append(head)
    out.append("-" * len(head))
    for entry in ENTRIES:
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
    agree = [(e, _agree(runs, f"2d/{e}/box2d/{work}/{n}")) for e in ENTRIES]
    agree = [f"{e} {a * 100:.1f}%" for e, a in agree if a is not None]
    if agree:
        out.append("Box2D's overlap answer equals satbox's on: " + ", ".join(agree) +
                   " of the pairs (its polygons carry a 0.01 skin).")
    out.append("textbook: scalar rectangle test (4 axes, early exit); classic: scalar vertex projection on every edge"
               " normal of both polygons (early exit for overlap); box2d: Box2D 2.4 b2TestOverlap / b2CollidePolygons.")


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

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""selftest.py - checks of the benchmark harness (no timing): empty filter, left-out paths, bench/run --help, summary ratios.

Usage: selftest.py <satbox_bench> <source root>. Exit 0 when every check passes, 1 otherwise."""
import json
import os
import subprocess
import sys
import tempfile

from isa_order import ISA_ORDER  # src/core/isa.h's paths

WIDE = tuple(f"/{p}/" for p in ISA_ORDER if p != "scalar")


def main():
    bench, root = sys.argv[1], sys.argv[2]
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    # 1. A filter that matches nothing is an error (exit status and a message on stderr).
    p = subprocess.run([bench, "--benchmark_filter=^no-such-benchmark$"], capture_output=True, text=True)
    check(p.returncode != 0 and "no benchmark matches" in p.stderr,
          f"empty --benchmark_filter fails (status {p.returncode})")

    # 2. Paths above SATBOX_ISA (as on a CPU without them) are left out: no benchmark, one note.
    env = dict(os.environ, SATBOX_ISA="scalar")
    p = subprocess.run([bench, "--benchmark_list_tests"], capture_output=True, text=True, env=env)
    names = [ln for ln in p.stdout.splitlines() if ln.count("/") >= 3]
    notes = [ln for ln in p.stdout.splitlines() if ln.startswith("Note: paths left out")]
    wide = [n for n in names if any(w in n for w in WIDE)]
    full = subprocess.run([bench, "--benchmark_list_tests"], capture_output=True, text=True)
    has_wide = any(any(w in ln for w in WIDE) for ln in full.stdout.splitlines())
    check(p.returncode == 0 and names and not wide, f"SATBOX_ISA=scalar registers no wider path ({len(wide)} found)")
    check(len(notes) == (1 if has_wide else 0), f"one 'paths left out' note when a path is left out ({len(notes)})")
    # ... and a short run of one benchmark per path prints no error line.
    p = subprocess.run([bench, "--benchmark_filter=^overlap/[a-z0-9]+/uniform50/256$", "--benchmark_min_time=0.001"],
                       capture_output=True, text=True, env=env)
    errors = [ln for ln in (p.stdout + p.stderr).splitlines() if "ERROR" in ln]
    check(p.returncode == 0 and not errors, f"no ERROR line in a short SATBOX_ISA=scalar run ({len(errors)})")
    # ... and every benchmark file's entries report the per-pair counters (counters.h's
    # pair_counters(), which summary.py and plot.py read): pairs/s > 0, time/pair, hit_rate in [0, 1].
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        p = subprocess.run([bench, "--benchmark_filter=^(overlap/[a-z0-9_]+/uniform50/256|overlap_bare/[a-z0-9]+/"
                            "uniform50/4096|contacts/[a-z0-9]+/uniform50/4096|2d/rect_overlap/[a-z0-9]+/uniform/4096)$",
                            "--benchmark_min_time=0.001", "--benchmark_out_format=json", "--benchmark_out=" + out.name],
                           capture_output=True, text=True)
        try:
            runs = [b for b in json.load(out)["benchmarks"] if b.get("run_type") == "iteration"]
        except (ValueError, KeyError):
            runs = []
    bad = [b["name"] for b in runs if not (b.get("pairs/s", 0) > 0 and "time/pair" in b and 0 <= b.get("hit_rate", -1) <= 1)]
    kinds = {b["name"].split("/")[0] for b in runs}
    check(p.returncode == 0 and kinds >= {"overlap", "contacts", "2d"} and not bad,
          f"pairs/s, time/pair and hit_rate on {len(runs)} entries of {sorted(kinds)} (missing on {bad[:3]})")

    # 3. bench/run --help prints its help and nothing else (no line of the script).
    p = subprocess.run([os.path.join(root, "bench", "run"), "--help"], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    code = [ln for ln in lines if ln.startswith(("set ", "cd ", "#!")) or "=$" in ln]
    check(p.returncode == 0 and lines and lines[0].startswith("bench/run") and not code,
          f"bench/run --help prints only the help ({len(lines)} lines, {len(code)} of code)")

    # summary.py on a synthetic benchmark JSON.
    def run_summary(data):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(data, fh)
        try:
            return subprocess.run([sys.executable, os.path.join(root, "bench", "summary.py"), fh.name],
                                  capture_output=True, text=True)
        finally:
            os.unlink(fh.name)

    # 4. Ratios refer to the widest path present: a run with scalar and avx2 only (avx512 failed).
    def entry(name, t):
        return {"name": name, "run_name": name, "run_type": "iteration", "time/pair": t * 1e-9,
                "window_bytes": 1, "pool_bytes": 1, "bytes_per_pair": 121, "hit_rate": 0.5}
    data = {"context": {}, "benchmarks": [
        entry("overlap/scalar/uniform50/4096", 80.0), entry("overlap/avx2/uniform50/4096", 10.0),
        {"name": "overlap/avx512/uniform50/4096", "run_name": "overlap/avx512/uniform50/4096",
         "error_occurred": True, "error_message": "CPU lacks avx512"}]}
    p = run_summary(data)
    row = [ln for ln in p.stdout.splitlines() if ln.strip().startswith("4Ki ")]
    check(p.returncode == 0 and "x scalar of avx2" in p.stdout and row and row[0].split()[-3] == "8.0",
          "summary: x scalar refers to avx2 (widest present) = 8.0")

    # 5. The contacts table: contacts and the floor over overlap, ODE over contacts, per workload.
    data = {"context": {}, "benchmarks": [
        entry(f"{e}/avx2/{w}/4096", t * (2 if w == "stacked" else 1))
        for e, t in (("overlap", 4.0), ("collide", 8.0), ("contacts", 20.0), ("contacts_floor", 10.0),
                     ("contacts_stream", 15.0))
        for w in ("uniform50", "stacked")] + [entry(f"ode_boxbox/{w}/4096", 100.0) for w in ("uniform50", "stacked")]}
    p = run_summary(data)
    row = [ln.split() for ln in p.stdout.splitlines() if ln.startswith("avx2 ") and ln.count("/") == 9]
    want = ["avx2", "4.0", "/", "8.0", "8.0", "/", "16.0", "20.0", "/", "40.0", "10.0", "/", "20.0",
            "5.0", "/", "5.0", "2.5", "/", "2.5", "2.00", "/", "2.00", "1.50", "/", "1.50", "5.0", "/", "2.5"]
    check(p.returncode == 0 and row == [want], f"summary: contacts table row avx2 = {row[0] if row else None}")

    # 6. The 2D table and issue 34's goal lines: one goal met, one missed (with its note), one not
    # measured (no body_contacts rows), and no box2d rows at all -> Box2D named as missing.
    data = {"context": {}, "benchmarks": [
        entry("2d/prep_overlap/avx2/uniform/4096", 10.0), entry("2d/prep_overlap/classic/uniform/4096", 31.0),
        entry("2d/body_collide/scalar/uniform/4096", 100.0)]}
    p = run_summary(data)
    lines = p.stdout.splitlines()
    met = [ln for ln in lines if "AVX2 prep_overlap x classic: 3.10 (goal >= 3: met" in ln]
    absent = [ln for ln in lines if "AVX2 body_contacts x Box2D: not measured" in ln]
    missing = [ln for ln in lines if ln.startswith("2D peers missing: Box2D")]
    check(p.returncode == 0 and met and absent and missing and "2D (satbox2d)" in p.stdout,
          f"summary: 2D goal lines (met {len(met)}, not measured {len(absent)}, Box2D missing {len(missing)})")
    data["benchmarks"] += [entry("2d/body_collide/avx2/uniform/4096", 20.0),
                           entry("2d/body_collide/box2d/uniform/4096", 60.0)]
    p = run_summary(data)
    lines = p.stdout.splitlines()
    missed = [i for i, ln in enumerate(lines) if "AVX2 body_collide x Box2D: 3.00 (goal >= 4: missed" in ln]
    noted = missed and lines[missed[0] + 1].strip().startswith("tried:")
    check(p.returncode == 0 and missed and noted and "2D peers missing" not in p.stdout,
          f"summary: 2D goal missed with its figures and note ({len(missed)} line), Box2D present")

    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

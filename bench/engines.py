#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""engines.py - satbox inside real engines: runs the ODE and Bullet worlds (tests/worlds/world_ode and
tests/worlds/world_bullet of the build dir) with the engine's own box-box narrow phase and with satbox on
every path, prints the "engines" table.

Usage: engines.py <build dir> [--quick] [--json-out FILE] [--scenes pile,pyramid] [--sizes 1000,4096] [--wall]
  --quick   N = 1K and 4K with fewer steps (about 2-3 min on a 2-core Zen 3), instead of 1K, 4K and 16K
  --wall    time the phases with the monotonic clock instead of the world thread's CPU time (--cpu-time,
            the default: on a shared machine it leaves out the time spent waiting for a core)
A world program that is missing (its engine was not found at build time) is left out with a note; a satbox
path the CPU lacks (the world exits 77), or one above SATBOX_ISA when that is set, is left out with a note.

Each row is one world run (tests/worlds/world_ode.c, tests/worlds/world_bullet.cpp; scenes from
tests/worlds/world_scene.c): mean ms per step of the narrow phase (candidate pairs -> contact array, all glue counted: for satbox the pool refresh and, in
Bullet, the manifold fill) and of the whole step, their speed-ups over the same engine's own narrow phase on the same
scene, and the end state's quality: deepest penetration (satbox_collide on every pair, the same measure for
every row), largest drift of a box over the last 100 steps, boxes lost, NaN. The runs are single: on a
shared machine the times carry its noise (interference only adds time)."""
import argparse
import json
import os
import subprocess
import sys

from isa_order import ISA_ROWS  # src/core/isa.h's paths

# This machine's paths, narrowest first (src/core/isa.h: the paths of its processor family by rank).
_ARCH = "arm64" if os.uname().machine in ("aarch64", "arm64") else "x86"
PATHS = [r["name"] for r in sorted((r for r in ISA_ROWS if r["arch"] in ("any", _ARCH)), key=lambda r: r["rank"])]
_RANK = {r["name"]: r["rank"] for r in ISA_ROWS}
# Each engine's world program in the build dir (tests/worlds/meson.build builds them for the tests and the
# benchmarks alike; bench/run builds the ones whose engine was found).
ENGINES = [("ode", "tests/worlds/world_ode"), ("bullet", "tests/worlds/world_bullet")]


def steps_for(n, quick):
    # Enough steps for the pile to land and pack (it falls for ~30 steps); fewer for the big worlds,
    # whose solver step alone costs ~30 ms per 1K boxes here.
    if quick:
        return 150 if n <= 1024 else 100
    return 300 if n <= 1024 else 200 if n <= 4096 else 100


def allowed_paths():
    cap = os.environ.get("SATBOX_ISA", "").lower()
    if cap in _RANK:  # a cap, as the library reads it: the paths of rank not above the named one
        return [p for p in PATHS if _RANK[p] <= _RANK[cap]]
    return PATHS


# The table's scenes: each a world scene (tests/worlds/world_scene.c) and its options. "pile" is damped (it
# settles; about 1.4 candidate pairs a box at 4K), "dense" the same pile undamped, as an engine's busy
# bin is (about 5 candidate pairs a box at 4K: issue 35), "pyramid" resting pyramids.
SCENES = {"pile": ("pile", ["--damping"]), "dense": ("pile", []), "pyramid": ("pyramid", [])}


def run_world(exe, scene, n, steps, narrow, isa, cpu_time):
    world_scene, opts = SCENES.get(scene, (scene, []))
    cmd = [exe, "--scene", world_scene, "--n", str(n), "--steps", str(steps), "--seed", "1", "--narrow", narrow,
           "--json"] + opts
    if cpu_time:
        cmd.append("--cpu-time")
    if isa:
        cmd += ["--isa", isa]
    env = dict(os.environ)
    env.pop("SATBOX_ISA", None)  # --isa forces the path; the cap is applied by allowed_paths()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode == 77:
        return None
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("WORLD ")]
    if not line:
        raise RuntimeError(f"{' '.join(cmd)}: no WORLD line")
    r = json.loads(line[-1][len("WORLD "):])
    r["scene"] = scene
    return r


def fmt(v, spec):
    return format(v, spec) if v is not None else "-"


def goals(rows):
    """Issue 35's engine goals from this table's rows (single runs: the machine's noise is in them)."""
    print("Goals (issue 35), speed-ups over the engine's own narrow phase in this table:")

    def row(engine, scene, n, narrow):
        return next((r for r in rows if r["engine"] == engine and r["scene"] == scene and r["n"] == n
                     and r["narrow"] == narrow), None)

    def line(label, value, goal, detail):
        if value is None:
            print(f"  {label}: not measured ({detail})")
        else:
            print(f"  {label}: {value:.2f} (goal >= {goal:g}: {'met' if value >= goal else 'missed'}; {detail})")

    for scene in ("pile", "dense"):
        own = row("ode", scene, 4096, "ode")
        for isa, goal in (("avx2", 4.5), ("avx512", 5.0)):
            r = row("ode", scene, 4096, f"satbox-{isa}") or next(
                (x for x in rows if x["engine"] == "ode" and x["scene"] == scene and x["n"] == 4096
                 and x.get("isa") == isa), None)
            if not own or not r:
                line(f"ODE {scene} 4K {isa} narrow x", None, goal, "no row")
                line(f"ODE {scene} 4K {isa} narrow+joints x", None, 3.0, "no row")
                continue
            line(f"ODE {scene} 4K {isa} narrow x", r["narrow_speedup"], goal,
                 f"{r['narrow_ms']:.2f} vs {own['narrow_ms']:.2f} ms")
            nj, nj_own = r["narrow_ms"] + r["joints_ms"], own["narrow_ms"] + own["joints_ms"]
            line(f"ODE {scene} 4K {isa} narrow+joints x", nj_own / nj if nj > 0 else None, 3.0,
                 f"{nj:.2f} vs {nj_own:.2f} ms")
    own = row("bullet", "pile", 4096, "bullet")
    for r in (x for x in rows if x["engine"] == "bullet" and x["scene"] == "pile" and x["n"] == 4096 and x is not own):
        line(f"Bullet pile 4K {r['narrow']} narrow x", r["narrow_speedup"], 4.0,
             f"{r['narrow_ms']:.2f} vs {own['narrow_ms']:.2f} ms" if own else "no own row")
    for r in rows:
        if r["scene"] == "pyramid" and r["narrow"] != r["engine"]:
            line(f"{r['engine']} pyramid {r['n']} {r['narrow']} whole step x", r["step_speedup"], 1.0,
                 f"{r['step_ms']:.2f} ms a step")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json-out")
    ap.add_argument("--scenes", default="pile,dense,pyramid")
    ap.add_argument("--sizes")
    ap.add_argument("--wall", action="store_true")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")] if a.sizes else ([1000, 4096] if a.quick else [1000, 4096, 16384])
    engines = []
    for engine, prog in ENGINES:
        exe = os.path.join(a.build, prog)
        if os.access(exe, os.X_OK):
            engines.append((engine, exe))
        else:
            print(f"Note: {engine}: {exe} not built (engine not found, or no such world yet): left out")
    paths = allowed_paths()
    rows, left_out = [], set()
    header = (f"{'':12} {'scene':8} {'N':>6} {'narrow phase':14} {'narrow ms':>9} {'step ms':>8} {'narrow x':>8} "
              f"{'step x':>6} {'points':>7} {'max pen mm':>10} {'drift mm':>9} {'lost':>4} {'NaN':>3}")
    print("engines: satbox as the box-box narrow phase of real engines (ms per step, means, "
          f"{'wall clock' if a.wall else 'CPU time of the world thread'}; x = speed-up over the engine's own narrow phase)")
    print(header)
    for engine, exe in engines:
        for scene in a.scenes.split(","):
            for n in sizes:
                steps = steps_for(n, a.quick)
                own = run_world(exe, scene, n, steps, engine, None, not a.wall)
                runs = [own]
                for isa in paths:
                    r = run_world(exe, scene, n, steps, "satbox", isa, not a.wall)
                    if r is None:
                        left_out.add(isa)
                        continue
                    runs.append(r)
                for r in runs:
                    r["narrow_speedup"] = own["narrow_ms"] / r["narrow_ms"] if r["narrow_ms"] > 0 else None
                    r["step_speedup"] = own["step_ms"] / r["step_ms"] if r["step_ms"] > 0 else None
                    rows.append(r)
                    print(f"{engine + '-world':12} {r['scene']:8} {r['n']:>6} {r['narrow']:14} {r['narrow_ms']:>9.3f} "
                          f"{r['step_ms']:>8.2f} {fmt(r['narrow_speedup'], '>8.2f')} {fmt(r['step_speedup'], '>6.2f')} "
                          f"{r['points']:>7.0f} {1e3 * r['max_pen']:>10.2f} {1e3 * r['drift']:>9.2f} {r['lost']:>4} "
                          f"{r['nan']:>3}", flush=True)
    for isa in PATHS:
        if isa not in paths:
            print(f"Note: path {isa} left out (above SATBOX_ISA)")
    for isa in sorted(left_out):
        print(f"Note: path {isa} left out (this CPU or build lacks it)")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(rows, f, indent=1)
    goals(rows)
    bad = [r for r in rows if r["lost"] or r["nan"]]
    for r in bad:
        print(f"WARNING: {r['engine']} {r['scene']} {r['n']} {r['narrow']}: {r['lost']} lost, {r['nan']} NaN")
    return 0


if __name__ == "__main__":
    sys.exit(main())

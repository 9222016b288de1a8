#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tests/tools/testlogs.py - the Python of tests/run: meson's testlog.json files and compile_commands.json.

  counts STAGE_FAILURES LOG...   the final "N passed, N failed, N skipped" over the logs (a missing
                                 log counts as one failure, so does each stage that failed to build);
                                 exit 1 if anything failed
  check NAME LOG                 one named check of a stage over a log (CHECKS below); exit 1 if it fails
  kernels-optimized DIR          every compile of a kernel (src/kernel_*.c) or of the scalar reference
                                 (src/<room>/*_ref.c) in DIR/compile_commands.json ends on -O2 or -O3
  stdout LOG NAME                prints what the test NAME wrote to stdout
  ratio A B                      A / B with two decimals, or ? when either is not a number
"""
import json
import re
import shlex
import sys


def read_log(path):
    """The tests of one meson testlog.json, in order (a JSON object a line)."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def counts(stage_fail, paths):
    passed = failed = skipped = 0
    for path in paths:
        try:
            tests = read_log(path)
        except OSError:
            print(f"missing test log {path}: counted as 1 failure")
            failed += 1
            continue
        p = f = s = 0
        for t in tests:
            r = t.get("result", "")
            if r in ("OK", "EXPECTEDFAIL"):
                p += 1
            elif r == "SKIP":
                s += 1
            else:
                f += 1
                print(f"  failed: {t.get('name')} ({r}) in {path}")
        print(f"  {path}: {p} passed, {f} failed, {s} skipped")
        passed += p
        failed += f
        skipped += s
    failed += stage_fail
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


# The tests that exist, or run instead of skipping, only when a package that tests/run installs
# was found when the build was configured: test name -> package. Without the package the suite
# would be smaller (the worlds, contacts-ode, readme-engine and the header-doc tests are not
# built) or skip (box2d-agree): the peers-ran check makes that a failure of the stage.
PEER_TESTS = {
    "world-ode": "libode-dev",
    "contacts-ode": "libode-dev",
    "readme-engine": "libode-dev",
    "world-bullet-signs": "libbullet-dev",
    "world-bullet": "libbullet-dev",
    "box2d-agree": "libbox2d-dev",
    "plan-fcl-agree-scalar": "libfcl-dev, libompl-dev",
    "plan-ompl-paths": "libfcl-dev, libompl-dev",
    "header-doc-c": "clang-14",
    "header-doc-cpp": "clang-14",
    "readme-code": "python3",
}


def peers_ran(tests):
    """Every test of PEER_TESTS is in the log and did not skip; prints the ones that are not."""
    tests = {n.rsplit(" / ", 1)[-1]: r for n, r in tests.items()}  # the log's "project:suite / name"
    results = {n: tests.get(n, "not in the log") for n in PEER_TESTS}
    bad = [(n, r) for n, r in results.items() if r in ("not in the log", "SKIP")]
    for name, result in bad:
        print(f"   {name}: {result} (needs {PEER_TESTS[name]} when the build dir is configured: install it,"
              " delete the dir)")
    return not bad


# The stages' checks over a log: name -> (what must hold over {test name: result}).
CHECKS = {
    # noavx512: on a CPU without AVX-512 every -avx512 test must report SKIP, never a pass on a
    # narrower path (and there must be such tests, or the check passes on nothing).
    "avx512-skipped": lambda tests: any(n.endswith("-avx512") for n in tests)
    and all(r == "SKIP" for n, r in tests.items() if n.endswith("-avx512")),
    # subproject: the parent project runs its consumer and none of satbox's own tests.
    "consumer-only": lambda tests: list(tests) == ["consumer"] and tests["consumer"] == "OK",
    # native, asan: the tests that need the peers and tools tests/run installs ran (PEER_TESTS).
    "peers-ran": peers_ran,
}


def check(name, path):
    try:
        tests = {t["name"]: t["result"] for t in read_log(path)}
    except OSError:
        return 1
    return 0 if CHECKS[name](tests) else 1


def kernels_optimized(build_dir):
    bad, seen = set(), set()
    try:
        with open(f"{build_dir}/compile_commands.json") as f:
            entries = json.load(f)
    except OSError as e:
        print("  ", e)
        return 1
    for entry in entries:
        src = entry["file"].replace("\\", "/")
        m = re.search(r"src/(kernel_[^/]+\.c|[a-z0-9]+/[^/]+_ref\.c)$", src)
        if not m:
            continue
        args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
        levels = [a for a in args if re.fullmatch(r"-O.*", a)]
        level = levels[-1] if levels else "(none)"  # the last -O wins
        seen.add(m.group(1))
        if level not in ("-O2", "-O3"):
            bad.add(f"{m.group(1)} at {level}")
    for b in sorted(bad):
        print("   not optimized:", b)
    # The check must have seen the files it is about, or it passes on nothing.
    if not any(f.startswith("kernel_") for f in seen) or not any(f.endswith("_ref.c") for f in seen):
        print("   no kernel or no scalar file in", build_dir)
        return 1
    return 1 if bad else 0


def stdout(path, name):
    for t in read_log(path):
        if t["name"] == name:
            print(t.get("stdout", ""), end="")
    return 0


def ratio(a, b):
    try:
        print(f"{float(a) / float(b):.2f}")
    except (ValueError, ZeroDivisionError):
        print("?")
    return 0


def main(argv):
    cmds = {
        "counts": lambda a: counts(int(a[0]), a[1:]),
        "check": lambda a: check(a[0], a[1]),
        "kernels-optimized": lambda a: kernels_optimized(a[0]),
        "stdout": lambda a: stdout(a[0], a[1]),
        "ratio": lambda a: ratio(a[0], a[1]),
    }
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        return 2
    return cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))

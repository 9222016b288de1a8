#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# stack_frames.py - the deepest stack of every public entry point on every compiled path, from GCC's call graphs (.ci).
"""The library is compiled with -fcallgraph-info=su (src/meson.build, GCC): each object gets a .ci
file with every function's frame and its calls. For each path compiled in (also those this CPU
cannot run: AVX-512 here, NEON on x86 never), this adds up the deepest chain from every exported
satbox_* function: its frames, the checks it calls, and through the kernel table (an indirect
call in the api objects) the deepest kernel entry of that path or of the scalar reference. The
runtime test (test_small_stack.c) measures the paths the CPU has; this check covers the others,
so that a job system tested on an AVX2 machine does not crash on an AVX-512 one.

usage: stack_frames.py BUILD_SRC_DIR --budget BYTES --caller BYTES [--sanitize S] [--optimization O]
Fails (exit 1) when an entry point's chain plus `caller` (the caller's own frames, as the
runtime test's thread and case functions take them) exceeds `budget`. Exit 77 (skip) without
.ci files (not GCC), under sanitizers or below -O3 (frames of another build)."""
import argparse
import glob
import os
import re
import sys

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
SIZE = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
# The SIMD paths, from the registry (src/core/isa.h's SBX_ISAS rows X(name, ENUM, width, rank, arch, detect, flags));
# each one's kernels are the static library libsatbox_<name>.a (the scalar reference: lib_ci below).
def _find_up(rel):
    d = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(d, rel)) and os.path.dirname(d) != d:
        d = os.path.dirname(d)
    return os.path.join(d, rel)
ISA_H = _find_up(os.path.join('src', 'core', 'isa.h'))
with open(ISA_H) as _f:
    ISAS = [n for n in re.findall(r'^\s*X\((\w+),', _f.read(), re.M) if n != 'scalar']
KERNEL_TU = re.compile(r'libsatbox_(%s)\.a\.p$' % '|'.join(ISAS))
# Library calls the kernels and checks make: their frames are counted as this much (glibc's
# memcpy, memset and getenv take a few words; sqrtf is an instruction in optimised builds).
LIBC_FRAME = 128


def parse(path):
    """Nodes (title -> (name, bytes or None)) and edges (source -> [targets]) of one .ci file.
    Titles of file-local functions are 'file:name'; they are made unique by the object's path."""
    nodes, edges = {}, {}
    tu = os.path.basename(path)
    with open(path) as f:
        for line in f:
            m = NODE.match(line)
            if m:
                title, label = m.group(1), m.group(2)
                s = SIZE.search(label)
                if s and 'dynamic' in s.group(2) and 'bounded' not in s.group(2):
                    sys.exit('%s: %s has an unbounded dynamic frame' % (path, title))
                key = tu + '|' + title if ':' in title else title
                nodes[key] = (label.split('\\n')[0], int(s.group(1)) if s else None)
                continue
            m = EDGE.match(line)
            if m:
                src, dst = m.group(1), m.group(2)
                src = tu + '|' + src if ':' in src else src
                dst = tu + '|' + dst if ':' in dst else dst
                edges.setdefault(src, []).append(dst)
    return nodes, edges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('srcdir')
    ap.add_argument('--budget', type=int, required=True)
    ap.add_argument('--caller', type=int, required=True)
    ap.add_argument('--sanitize', default='none')
    ap.add_argument('--optimization', default='3')
    a = ap.parse_args()
    if a.sanitize != 'none':
        print('SKIP: built with -Db_sanitize=%s: its frames are not the release frames' % a.sanitize)
        return 77
    if a.optimization != '3':
        print('SKIP: kernels at optimization %s (chosen for debugging): the stack budget holds for -O3, which '
              'src/meson.build gives them at every other level' % a.optimization)
        return 77
    # The library's own objects and the scalar reference's (a static library of its own, merged in).
    lib_ci = [p for p in glob.glob(os.path.join(a.srcdir, 'libsatbox.*.p', '*.ci'))
              + glob.glob(os.path.join(a.srcdir, 'libsatbox_scalar.a.p', '*.ci'))
              if 'testlib' not in p]
    kernel_ci = {}
    for d in glob.glob(os.path.join(a.srcdir, 'libsatbox_*.a.p')):
        m = KERNEL_TU.search(d)
        if m:
            kernel_ci[m.group(1)] = glob.glob(os.path.join(d, '*.ci'))
    if not lib_ci:
        print('SKIP: no .ci files under %s (the compiler lacks -fcallgraph-info)' % a.srcdir)
        return 77

    nodes, edges = {}, {}
    for p in lib_ci:
        n, e = parse(p)
        for k, v in n.items():
            if v[1] is not None or k not in nodes:
                nodes[k] = v
        for k, v in e.items():
            edges.setdefault(k, []).extend(v)
    kernels = {}
    for isa, files in kernel_ci.items():
        kn, ke = {}, {}
        for p in files:
            n, e = parse(p)
            kn.update(n)
            for k, v in e.items():
                ke.setdefault(k, []).extend(v)
        kernels[isa] = (kn, ke)

    def deepest(graph_nodes, graph_edges, start, indirect, memo, stack=()):
        """Bytes of the deepest chain from `start`; `indirect` is the depth of an indirect call."""
        if start == '__indirect_call':
            return indirect
        if start in memo:
            return memo[start]
        if start in stack:
            sys.exit('recursion through %s' % start)
        size = graph_nodes.get(start, (start, None))[1]
        if size is None:  # not compiled here: the C library
            return LIBC_FRAME
        depth = size + max([deepest(graph_nodes, graph_edges, t, indirect, memo, stack + (start,))
                            for t in graph_edges.get(start, [])] + [0])
        memo[start] = depth
        return depth

    def roots(graph_nodes, graph_edges):
        called = {t for ts in graph_edges.values() for t in ts}
        return [k for k, v in graph_nodes.items() if v[1] is not None and k not in called]

    # The kernels an entry point reaches through a path's table (the indirect call of the api
    # objects), by the entry's name: kernel_<kind> of the path's object, sbx_scalar_<kind> (the
    # reference kernels of the _ref.c files, listed by src/kernel_scalar.c) when the path has none. An entry point of no known kind gets the deepest kernel.
    # The planner's: satbox_configs and satbox_motion call configs; satbox_chain_poses chain_fk; the
    # chain queries both, one after the other (their kind 'chain_query' is the deeper of the two).
    kinds = [('satbox_chain_(configs|motion)$', 'chain_query'), ('satbox_chain_poses$', 'chain_fk'),
             ('satbox_(configs|motion)$', 'configs'),
             ('satbox2d_.*contacts', 'contacts2d'), ('contacts', 'contacts'), ('satbox2d_.*overlap', 'overlap2d'),
             ('satbox2d_.*collide', 'collide2d'),
             ('aabb', 'aabb'), ('axes_from_quat', 'axes_from_quat'), ('overlap', 'overlap'), ('collide', 'collide'),
             ('satbox_(world|chain)_init$', 'none')]  # 'none': no kernel (the init functions build in double, in C)

    def kind_of(entry):
        for pattern, kind in kinds:
            if re.search(pattern, entry):
                return kind
        return None

    def kernel_depths(graph_nodes, graph_edges, prefix):
        """kind -> deepest chain of the kernel <prefix><kind> among the graph's roots."""
        memo, out = {}, {}
        known = {k for _, k in kinds}
        for r in roots(graph_nodes, graph_edges):
            # kernel_contacts, kernel_collide2d, sbx_scalar_aabb, sbx_scalar_overlap2d ... (SBX_KERNELS)
            name = graph_nodes[r][0]
            name = name[len('sbx_'):] if name.startswith('sbx_') else name
            kind = name[len(prefix):].lstrip('_') if name.startswith(prefix) else None
            if kind in known:
                out[kind] = max(out.get(kind, 0), deepest(graph_nodes, graph_edges, r, 0, memo))
        if 'configs' in out or 'chain_fk' in out:
            out['chain_query'] = max(out.get('configs', 0), out.get('chain_fk', 0))
        return out

    scalar = kernel_depths(nodes, edges, 'scalar')
    entries = sorted(k for k, v in nodes.items() if v[1] is not None and re.match(r'satbox(2d)?_', k))
    if not entries or not scalar:
        print('no satbox_* function or no scalar kernel in the .ci files')
        return 1
    paths = [('scalar', dict(scalar))]
    for isa in ISAS:
        if isa in kernels:
            depths = dict(scalar)
            depths.update(kernel_depths(kernels[isa][0], kernels[isa][1], 'kernel'))
            paths.append((isa, depths))

    failed = 0
    print('deepest chain of every entry point = its frames + the checks it calls + the kernel of its kind '
          '(bytes); budget %d, of which %d for the caller' % (a.budget, a.caller))
    for isa, depths in paths:
        rows = []
        for e in entries:
            kind = kind_of(e)
            kdepth = 0 if kind == 'none' else depths[kind] if kind in depths else max(depths.values())
            rows.append((deepest(nodes, edges, e, kdepth, {}), e))
        rows.sort(reverse=True)
        depth, worst = rows[0]
        ok = depth + a.caller <= a.budget
        failed += not ok
        print('%-7s %-28s %6d  %s' % (isa, worst, depth,
                                      'ok' if ok else 'FAIL: %d over the budget' % (depth + a.caller - a.budget)))
        print('        kernels: ' + ', '.join('%s %d' % (k, v) for k, v in sorted(depths.items(), key=lambda x: -x[1])))
        print('        next: ' + ', '.join('%s %d' % (e, d) for d, e in rows[1:6]))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

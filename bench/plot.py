#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""plot.py - throughput (pairs/s) against batch size: satbox's paths, the baselines and the peer libraries, from satbox_bench's JSON, as a PNG."""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import LogLocator, FuncFormatter  # noqa: E402

from isa_order import ISA_ORDER  # noqa: E402 (src/core/isa.h's paths)

ORDER = ISA_ORDER + ["seed", "textbook"]
PEER_COLORS = ["#17becf", "#bcbd22", "#ff7f0e", "#7f7f7f", "#000080", "#800000"]


def si(v, _pos=None):
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if v >= div:
            return f"{v / div:g}{unit}"
    return f"{v:g}"


def label(n):
    for unit, div in (("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return str(n)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py bench.json out.png")
    with open(sys.argv[1]) as f:
        data = json.load(f)
    ctx = data.get("context", {})
    series = defaultdict(lambda: defaultdict(list))  # (entry, path) -> n -> [pairs/s]
    bw = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        name = b.get("run_name", b["name"]).split("/")
        if name[0] == "readbw":
            key = (int(name[1]), int(name[2]))
            bw[key] = max(bw.get(key, 0), b["bytes_per_second"])
        elif name[0] in ("overlap", "collide", "contacts") and len(name) == 4 and name[2] == "uniform50":
            series[(name[0], name[1])][int(name[3])].append(b["pairs/s"])
            if name[0] != "contacts" and name[1] in ORDER:
                series[("floor", name[0])][int(name[3])] = [(int(b["window_bytes"]), int(b["pool_bytes"]), b["bytes_per_pair"])]

    fig, ax = plt.subplots(figsize=(11, 6))
    colors = {p: c for p, c in zip(ORDER, ["#555555", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"])}
    peers = sorted(k for k in series if k[0] != "floor" and k[1] not in ORDER)  # (entry, peer)
    for i, k in enumerate(peers):
        colors[k] = PEER_COLORS[i % len(PEER_COLORS)]

    def rank(kv):
        (entry, path) = kv[0]
        return (path not in ORDER, entry, ORDER.index(path) if path in ORDER else peers.index(kv[0]) if kv[0] in peers else 99)
    for (entry, path), by_n in sorted(series.items(), key=rank):
        if entry == "floor":
            continue
        ns = sorted(by_n)
        ys = [max(by_n[n]) for n in ns]  # best repetition, as in summary.py
        if path in ORDER:
            style = dict(marker="o" if entry == "overlap" else "s", linestyle="-" if entry == "overlap" else "--")
            who = f"satbox {entry} {path}" if path not in ("seed", "textbook") else f"{path} baseline"
        else:  # a peer library: thin dash-dot lines, diamonds
            style = dict(marker="D", linestyle="-.", linewidth=1, markersize=5)
            who = f"peer: {path} ({entry})"
        ax.plot(ns, ys, color=colors.get(path, colors.get((entry, path))), label=who, **style)
    # Memory roofline of overlap: read bandwidth over the same window and pool / bytes per pair.
    floor = series.get(("floor", "overlap"), {})
    pts = []
    for n in sorted(floor):
        win, pool, bpp = floor[n][0]
        if (win, pool) in bw:
            pts.append((n, bw[(win, pool)] / bpp))
    if pts:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color="black", linestyle=":", linewidth=2,
                label="memory bound: read bandwidth / 121 B a pair\n(the most pairs/s memory allows overlap)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted({n for key, by_n in series.items() if key[0] != "floor" for n in by_n})
    ax.set_xticks(sizes)
    ax.set_xticklabels([label(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("pairs per call (batch size); each pass takes the next window of a pool of >= 64Ki pairs")
    ax.set_ylabel("pairs per second, higher is better (CPU time, best repetition)")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(si))
    ax.set_title(f"satbox {ctx.get('satbox_version', '')} and the peer libraries: throughput vs batch size, 50% overlap\n"
                 f"{ctx.get('cpu_model', '')}, {ctx.get('date', '')[:10]}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()

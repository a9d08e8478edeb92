#!/usr/bin/env python3
"""Markdown report of a kernel campaign (cuda/bench/kernel_campaign.sh): the best tile x cluster x
decomposition per shape against cuBLAS (same rows) per SM count, by shape class, and each CUTLASS
config against ours on the same config. Standard library only; every figure comes from the CSVs.

usage: tools/kernel_report.py OURS.csv [CUTLASS.csv]
"""
import csv
import math
import sys
from collections import defaultdict

CUTLASS_CONFIGS = {  # cutlass_bench config -> (our tile, our cluster)
    "128x128x64_1x1": ("128x128x64", "1x1"),
    "128x128x64_2x1": ("128x128x64", "2x1"),
    "128x256x64_1x1": ("128x256x64", "1x1"),
}
LOW = 0.8  # the acceptance floor per shape


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def load(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("ok", r.get("status")) in ("1", "ok")]


def shape_class(m, k):
    size = "M <= 64" if m <= 64 else "64 < M <= 512" if m <= 512 else "M > 512"
    return size, "K % 64 == 0" if k % 64 == 0 else "K % 64 != 0"


def fastest(rows, keep):
    """(m, n, k, sms) -> (ms, row) of the fastest row that `keep` accepts."""
    best = {}
    for r in rows:
        if not keep(r):
            continue
        key = (int(r["m"]), int(r["n"]), int(r["k"]), int(r.get("sms", 132)))
        ms = float(r["median_ms"])
        if key not in best or ms < best[key][0]:
            best[key] = (ms, r)
    return best


def summary(ours):
    best = fastest(ours, lambda r: True)
    print("| SMs | shapes | best config vs cuBLAS (geomean) | min | max | shapes below 0.8x |")
    print("|---:|---:|---:|---:|---:|---:|")
    for sms in sorted({k[3] for k in best}, reverse=True):
        ratios = [float(r["cublas_ms"]) / ms for k, (ms, r) in best.items() if k[3] == sms]
        low = sum(x < LOW for x in ratios)
        print(f"| {sms} | {len(ratios)} | {geomean(ratios):.3f}x | {min(ratios):.2f}x | "
              f"{max(ratios):.2f}x | {low} |")
    print("\nBy shape class (132 SMs):\n")
    print("| class | shapes | geomean vs cuBLAS | min |")
    print("|---|---:|---:|---:|")
    classes = defaultdict(list)
    for k, (ms, r) in best.items():
        if k[3] != 132:
            continue
        for c in shape_class(k[0], k[2]):
            classes[c].append(float(r["cublas_ms"]) / ms)
    for c, xs in sorted(classes.items()):
        print(f"| {c} | {len(xs)} | {geomean(xs):.3f}x | {min(xs):.2f}x |")
    wins = defaultdict(int)
    for k, (ms, r) in best.items():
        if k[3] == 132:
            wins[f"{r['tile']} {r['cluster']}"] += 1
    print("\nWinning tile x cluster at 132 SMs: " +
          ", ".join(f"{c} {n}" for c, n in sorted(wins.items(), key=lambda x: -x[1])))


def versus_cutlass(ours, cutlass):
    print("\n| config | shapes | ours (best decomposition) vs CUTLASS (best mode) | min | max |")
    print("|---|---:|---:|---:|---:|")
    for name, (tile, cluster) in CUTLASS_CONFIGS.items():
        theirs = fastest(cutlass, lambda r, n=name: r["config"] == n)
        mine = fastest(ours, lambda r, t=tile, c=cluster: r["tile"] == t and r["cluster"] == c
                       and r["sms"] == "132")
        ratios = [theirs[k][0] / mine[k][0] for k in mine if k in theirs]
        if ratios:
            print(f"| {tile} {cluster} | {len(ratios)} | {geomean(ratios):.3f}x | "
                  f"{min(ratios):.2f}x | {max(ratios):.2f}x |")


def main(argv):
    if not argv:
        sys.exit(__doc__)
    ours = load(argv[0])
    summary(ours)
    if len(argv) > 1:
        versus_cutlass(ours, load(argv[1]))


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Summarises lastwave-bench CSVs: per shape and SM count, the fastest configuration (tile x
decomposition) against cuBLAS, then geomeans per tile and overall. Standard library only.

usage: tools/bench_summary.py FILE.csv [FILE.csv ...] [--by-tile]
"""
import csv
import math
import sys
from collections import defaultdict


def rows_of(paths):
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("ok") == "1":
                    yield r


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(argv):
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        sys.exit(__doc__)
    best = {}
    per_tile = defaultdict(dict)  # tile -> key -> fastest ms of that tile
    blas = {}
    for r in rows_of(paths):
        key = (int(r["m"]), int(r["n"]), int(r["k"]), int(r["sms"]))
        ms = float(r["median_ms"])
        blas[key] = float(r["cublas_ms"])
        tile = r.get("tile", "128x128x64")
        if key not in best or ms < best[key][0]:
            best[key] = (ms, tile, r["decomposition"])
        if ms < per_tile[tile].get(key, math.inf):
            per_tile[tile][key] = ms
    print(f"{'m':>6} {'n':>6} {'k':>6} {'sms':>4} {'best tile':>11} {'decomposition':>16} "
          f"{'ms':>9} {'cuBLAS':>9} {'vs cuBLAS':>9}")
    for key in sorted(best):
        ms, tile, dec = best[key]
        print(f"{key[0]:>6} {key[1]:>6} {key[2]:>6} {key[3]:>4} {tile:>11} {dec:>16} "
              f"{ms:9.4f} {blas[key]:9.4f} {blas[key] / ms:8.2f}x")
    for sms in sorted({k[3] for k in best}):
        keys = [k for k in best if k[3] == sms]
        ratios = [blas[k] / best[k][0] for k in keys]
        print(f"\n{sms} SMs, {len(keys)} shapes: best config vs cuBLAS geomean "
              f"{geomean(ratios):.3f}x (min {min(ratios):.2f}x, max {max(ratios):.2f}x)")
        if "--by-tile" in argv:
            for tile in sorted(per_tile):
                tk = [k for k in keys if k in per_tile[tile]]
                if tk:
                    g = geomean(blas[k] / per_tile[tile][k] for k in tk)
                    print(f"  {tile:>11}: best decomposition vs cuBLAS geomean {g:.3f}x "
                          f"over {len(tk)} shapes")


if __name__ == "__main__":
    main(sys.argv[1:])

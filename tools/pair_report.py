#!/usr/bin/env python3
"""The misaligned-K table (docs/PERFORMANCE.md quotes its summary lines; the tables are in that
file's git history) from one lastwave-bench CSV: for every shape whose K
is not a multiple of 64 and whose partner (same M, N, K rounded up to 64) is in the file, the fastest
config of each against the other (what the misalignment costs) and against cuBLAS. The SM clock
read after each best row is printed beside it (a power-throttled row runs slower). Rows are taken
at one operand L2 promotion (--promotion BYTES) or, by default, at the kernels' own rule (256 B where
K % 64 == 0, else 128 B; cuda/tensor_map.hpp); files without an l2_promotion column count as 256 B.
With --align 8 the partners are K rounded up to 8 (K % 8 != 0 shapes: the staging copy's cost,
configs/shapes/unaligned-k8-pairs.csv) and the limit defaults to 15 %.
Usage: tools/pair_report.py RESULTS.csv[.gz] [--promotion rule|0|64|128|256] [--align 64|8]
       [--limit-pct PCT] [--config TILE,CLUSTER]  (one config's rows only, e.g. 128x256x64,2x1)"""
import argparse
import csv
import gzip
import math
import sys

K_ALIGN = 64  # elements: a bf16 row of 64 is one 128-byte line
ALIGNED_PROMOTION, MISALIGNED_PROMOTION = 256, 128  # the kernels' rule, bytes
LEGACY_PROMOTION = 256  # files written before the column existed
US_PER_MS = 1000.0


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def rule(k):
    return ALIGNED_PROMOTION if k % K_ALIGN == 0 else MISALIGNED_PROMOTION


def load(path, promotion):
    """(m, n, k) -> rows that ran at the chosen promotion."""
    shapes = {}
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        for r in csv.DictReader(f):
            shape = (int(r["m"]), int(r["n"]), int(r["k"]))
            want = rule(shape[2]) if promotion == "rule" else int(promotion)
            if r["ok"] == "1" and int(r.get("l2_promotion") or LEGACY_PROMOTION) == want:
                shapes.setdefault(shape, []).append(r)
    return shapes


def best(rows):
    return min(rows, key=lambda r: float(r["median_ms"]))


def config(r):
    return f"{r['tile']} {r['cluster']} {r['decomposition']}"


def clock(r):
    """The SM clock the bench read after the row's samples (MHz), or - if the file has none."""
    return f"{float(r['sm_clock_mhz']):.0f}" if r.get("sm_clock_mhz") else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--promotion", default="rule", choices=["rule", "0", "64", "128", "256"])
    ap.add_argument("--align", type=int, default=K_ALIGN, choices=[K_ALIGN, 8],
                    help="K multiple a shape's partner is rounded up to")
    ap.add_argument("--limit-pct", type=float, default=None,
                    help="a pair's cost target, percent (default 5, with --align 8: 15)")
    ap.add_argument("--config", default=None, help="TILE,CLUSTER: only that config's rows")
    args = ap.parse_args()
    if args.limit_pct is None:
        args.limit_pct = 5.0 if args.align == K_ALIGN else 15.0
    shapes = load(args.csv, args.promotion)
    if args.config:
        tile, cluster = args.config.split(",")
        shapes = {s: [r for r in rows if r["tile"] == tile and r["cluster"] == cluster]
                  for s, rows in shapes.items()}
        shapes = {s: rows for s, rows in shapes.items() if rows}
    al = args.align
    pairs = [(s, (s[0], s[1], -(-s[2] // al) * al)) for s in sorted(shapes) if s[2] % al]
    pairs = [(s, a) for s, a in pairs if a in shapes]
    if not pairs:
        sys.exit(f"pair_report: {args.csv}: no K % {al} != 0 shape with its aligned partner")
    print("| m | n | k | best us | MHz | config | aligned k | best us | MHz | config | cost | vs cuBLAS |")
    print("|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|")
    costs, speeds = [], []
    for s, a in pairs:
        b, ba = best(shapes[s]), best(shapes[a])
        t, ta = float(b["median_ms"]), float(ba["median_ms"])
        costs.append(t / ta)
        speeds.append(float(b["cublas_ms"]) / t)
        print(f"| {s[0]} | {s[1]} | {s[2]} | {t * US_PER_MS:.1f} | {clock(b)} | {config(b)} | {a[2]} | "
              f"{ta * US_PER_MS:.1f} | {clock(ba)} | {config(ba)} | {100 * (t / ta - 1):+.1f} % | "
              f"{speeds[-1]:.3f}x |")
    within = sum(100 * (c - 1) <= args.limit_pct for c in costs)
    print(f"\n{len(pairs)} pairs (promotion {args.promotion}): cost geomean "
          f"{100 * (geomean(costs) - 1):+.1f} %, max {100 * (max(costs) - 1):+.1f} %, "
          f"{within} within {args.limit_pct:g} %; misaligned vs cuBLAS geomean {geomean(speeds):.3f}x")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""splitk-dsm:S against splitk:S from one lastwave-bench CSV (both timed in the same command): per
tile and split count, the geometric mean over shapes of splitk's time / splitk-dsm's time, apart
for grids that fit one wave (at most --wave-ctas CTAs: every cluster resident at once) and larger
grids; then the best config per shape against cuBLAS with and without the splitk-dsm rows.
Rows that did not run (ok = 0) are left out. Exit 2 on unreadable input or no pairs.
Usage: tools/dsm_report.py RESULTS.csv[.gz]... [--wave-ctas 120]"""
import argparse
import collections
import csv
import gzip
import math
import sys

DSM = "splitk-dsm:"
WAVE_CTAS = 120  # an H100/H200 holds 15-16 clusters of 8 CTAs (120-128): one wave at any split count
SLOW = 0.8


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def ratio_cell(xs):
    """'N: G.GGGx' (count and geomean), or 'N: -' for no configs."""
    return f"{len(xs)}: {geomean(xs):.3f}x" if xs else "0: -"


def load(paths):
    """[(row dict)] of the rows that ran, over every file."""
    rows = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt", newline="") as f:
                for r in csv.DictReader(f):
                    if r.get("ok") == "1":
                        rows.append(r)
        except (OSError, csv.Error, EOFError) as e:
            raise SystemExit(f"dsm_report: {path}: {e}")
    return rows


def pair_table(rows, wave_ctas):
    """(tile, splits) -> {"one": [ratios], "more": [ratios]} of splitk / splitk-dsm times."""
    time = {}
    for r in rows:
        time[(r["m"], r["n"], r["k"], r["tile"], r["decomposition"])] = (
            float(r["median_ms"]), int(r["grid"]))
    table = collections.defaultdict(lambda: {"one": [], "more": []})
    for (m, n, k, tile, dec), (dsm_ms, grid) in time.items():
        if not dec.startswith(DSM):
            continue
        splits = dec[len(DSM):]
        plain = time.get((m, n, k, tile, "splitk:" + splits))
        if plain is None or dsm_ms <= 0:
            continue
        table[(tile, int(splits))]["one" if grid <= wave_ctas else "more"].append(plain[0] / dsm_ms)
    return table


def best_against_cublas(rows, with_dsm):
    """Per shape: cuBLAS time / the fastest config's time (splitk-dsm rows kept or not)."""
    best, cublas = {}, {}
    for r in rows:
        if not with_dsm and r["decomposition"].startswith(DSM):
            continue
        shape = (r["m"], r["n"], r["k"])
        t = float(r["median_ms"])
        best[shape] = min(best.get(shape, t), t)
        cublas[shape] = float(r["cublas_ms"])
    return {s: cublas[s] / best[s] for s in best if best[s] > 0}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--wave-ctas", type=int, default=WAVE_CTAS)
    args = ap.parse_args(argv)
    rows = load(args.csv)
    table = pair_table(rows, args.wave_ctas)
    if not table:
        print("dsm_report: no splitk-dsm:S row with its splitk:S partner", file=sys.stderr)
        return 2
    w = args.wave_ctas
    print(f"| tile | splits | grid <= {w} CTAs: configs, splitk / splitk-dsm | grid > {w} |")
    print("|---|---:|---:|---:|")
    one, more = [], []
    for (tile, splits) in sorted(table, key=lambda k: (k[0], k[1])):
        t = table[(tile, splits)]
        one += t["one"]
        more += t["more"]
        print(f"| {tile} | {splits} | {ratio_cell(t['one'])} | {ratio_cell(t['more'])} |")
    print(f"| all | | {ratio_cell(one)} | {ratio_cell(more)} |")
    without, with_dsm = best_against_cublas(rows, False), best_against_cublas(rows, True)
    shapes = sorted(set(without) & set(with_dsm))
    won = sum(1 for s in shapes if with_dsm[s] > without[s])
    print()
    print(f"{len(shapes)} shapes: best config vs cuBLAS (geomean) without splitk-dsm "
          f"{geomean([without[s] for s in shapes]):.3f}x, with it "
          f"{geomean([with_dsm[s] for s in shapes]):.3f}x; splitk-dsm fastest on {won}; "
          f"below {SLOW}x {sum(without[s] < SLOW for s in shapes)} -> "
          f"{sum(with_dsm[s] < SLOW for s in shapes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

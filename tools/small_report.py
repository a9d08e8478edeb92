#!/usr/bin/env python3
"""The small-problem and held-out tables of docs/PERFORMANCE.md from lastwave-bench CSVs (every config
of every shape timed beside cuBLAS, cuda/bench/small_check.sh, heldout_check.sh; several CSVs are
merged): per shape the fastest config that ran, against the shape's cuBLAS time, for the shapes whose
cuBLAS time is below --max-cublas-us, in the cuBLAS time bands --bands; once over every config and
once without the tiles named by --without, the clusters named by --without-clusters and the
decompositions named by --without-decompositions (the set before they were added).
With --by-m the summary has a row per M instead of per cuBLAS time band (the skinny-M table).
With --pass CSV... (repeatable) the positional CSVs are one independent pass of the same lists and
each --pass another: a config's time is the mean of its passes' medians (configs every pass ran),
a shape's cuBLAS time the mean of each pass's (each pass's fastest cuBLAS time of the shape), and
the shapes are those every pass ran: one pass of a small class moves its figure by about 2.5 %.
A shape's cuBLAS time is the fastest of its distinct cuBLAS timings (--cublas-ref fastest, the
figures of docs/PERFORMANCE.md) or their median (--cublas-ref median). lastwave-bench times cuBLAS
once a shape per command, and the fastest of more timings is lower: runs of different command counts
(a pruned config list, one command, against the class's four) compare fairly only by the median.
A shape reported that one of the positional CSVs has no row of at all (its command stopped before
it, e.g. at lastwave-bench --time-limit) is counted per file on stderr: its best config then comes
from the other files' configs alone.
Usage: tools/small_report.py RESULTS.csv[.gz]... [--pass RESULTS.csv...]... [--max-cublas-us 20]
                             [--bands 0,10,20] [--without T1,T2] [--without-clusters C1]
                             [--without-decompositions D1,D2] [--worst N] [--by-m]
                             [--cublas-ref fastest|median]"""
import argparse
import collections
import csv
import gzip
import math
import statistics
import sys

US_PER_MS = 1000.0
BANDS_US = "0,10,20"  # cuBLAS time band edges of the summary (us)
SLOW = 0.8  # "below 0.8x cuBLAS"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def load(paths, seen=None):
    """(m, n, k) -> rows that ran (ok = 1), over every file of `paths`; `seen` (a dict), if given,
    gets each path's set of shapes with any row, whether or not it ran."""
    shapes = collections.defaultdict(list)
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        in_file = set()
        with opener(path, "rt", newline="") as f:
            for r in csv.DictReader(f):
                shape = (int(r["m"]), int(r["n"]), int(r["k"]))
                in_file.add(shape)
                if r["ok"] == "1":
                    shapes[shape].append(r)
        if seen is not None:
            seen[path] = in_file
    return shapes


def warn_missing(seen, reported):
    """One stderr line per file of `seen` (path -> its shapes) that lacks rows of some of the
    `reported` shapes."""
    if len(seen) < 2:
        return
    for path, in_file in seen.items():
        missing = len(reported - in_file)
        if missing:
            print(f"small_report.py: warning: {missing} of {len(reported)} shapes have no row in "
                  f"{path} (its command stopped early?): their best is over the other files' "
                  "configs only", file=sys.stderr)


CUBLAS_REFS = {"fastest": min, "median": statistics.median}


def cublas_ms(rows, ref):
    """A shape's cuBLAS time (ms) over its rows: CUBLAS_REFS[ref] of its distinct timings
    (lastwave-bench times cuBLAS once a shape per command, so a class of four commands has four)."""
    return CUBLAS_REFS[ref](sorted({float(r["cublas_ms"]) for r in rows}))


def mean_of_passes(passes, ref):
    """(m, n, k) -> one row per config that every pass ran, its median_ms the mean over the passes
    and its cublas_ms the mean of each pass's cuBLAS time of the shape (cublas_ms with `ref`)."""
    merged = {}
    for shape in set.intersection(*(set(p) for p in passes)):
        by_config = [{config(r): r for r in p[shape]} for p in passes]
        cublas = sum(cublas_ms(p[shape], ref) for p in passes) / len(passes)
        rows = []
        for c in set.intersection(*(set(b) for b in by_config)):
            row = dict(by_config[0][c])
            row["median_ms"] = str(sum(float(b[c]["median_ms"]) for b in by_config) / len(passes))
            row["cublas_ms"] = str(cublas)
            rows.append(row)
        if rows:
            merged[shape] = rows
    return merged


def band_edges(text):
    """"0,10,20" -> [(0, 10), (10, 20)]; increasing edges, at least two."""
    edges = [float(x) for x in text.split(",")]
    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise ValueError(f"--bands needs two or more increasing edges, got '{text}'")
    return list(zip(edges, edges[1:]))


def config(r):
    return f"{r['tile']} {r['cluster']} {r['decomposition']}"


def best(rows):
    return min(rows, key=lambda r: float(r["median_ms"]))


def picks(shapes, max_us, without, without_clusters=frozenset(), without_decomps=frozenset(),
          ref="fastest"):
    """Per small shape: (cuBLAS us, best row over all configs, best row without the tiles
    `without`, the clusters `without_clusters` and the decompositions `without_decomps`); the
    cuBLAS time by cublas_ms with `ref`."""
    out = []
    for shape, rows in sorted(shapes.items()):
        cublas_us = cublas_ms(rows, ref) * US_PER_MS
        if cublas_us >= max_us:
            continue
        older = [r for r in rows
                 if r["tile"] not in without and r["cluster"] not in without_clusters
                 and r["decomposition"] not in without_decomps]
        out.append((shape, cublas_us, best(rows), best(older) if older else None))
    return out


def speed(cublas_us, row):
    return cublas_us / (float(row["median_ms"]) * US_PER_MS)


def summary_rows(ps, label, lo, hi):
    return summary_of([p for p in ps if lo <= p[1] < hi], label)


def summary_of(sel, label):
    new = [speed(c, b) for _, c, b, _ in sel]
    old = [speed(c, o) for _, c, _, o in sel if o is not None]
    return (f"| {label} | {len(sel)} | {geomean(old):.3f}x | {sum(x < SLOW for x in old)} | "
            f"{geomean(new):.3f}x | {sum(x < SLOW for x in new)} | {sum(x >= 1 for x in new)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--max-cublas-us", type=float, default=20.0)
    ap.add_argument("--bands", default=BANDS_US, help="cuBLAS time band edges, us")
    ap.add_argument("--without", default="64x32x64,64x64x64,128x64x64")
    ap.add_argument("--without-clusters", default="", help="clusters left out of the 'without' column")
    ap.add_argument("--without-decompositions", default="",
                    help="decompositions left out of the 'without' column (e.g. splitk:3,splitk:6)")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--by-m", action="store_true", help="a summary row per M")
    ap.add_argument("--cublas-ref", choices=sorted(CUBLAS_REFS), default="fastest",
                    help="a shape's cuBLAS time: the fastest of its distinct timings or their median")
    ap.add_argument("--pass", dest="passes", nargs="+", action="append", default=[],
                    metavar="CSV", help="another independent pass: configs take their mean time")
    a = ap.parse_args()
    without = set(t for t in a.without.split(",") if t)
    names = " ".join(a.csv + [f for p in a.passes for f in p])
    try:
        bands = band_edges(a.bands)
    except ValueError as e:
        sys.exit(f"small_report.py: {str(e)[:160]}")
    try:
        seen = {}
        first = load(a.csv, seen)
        shapes = (mean_of_passes([first] + [load(p) for p in a.passes], a.cublas_ref)
                  if a.passes else first)
        ps = picks(shapes, a.max_cublas_us, without,
                   frozenset(c for c in a.without_clusters.split(",") if c),
                   frozenset(d for d in a.without_decompositions.split(",") if d), a.cublas_ref)
        warn_missing(seen, {p[0] for p in ps})
    except (OSError, KeyError, ValueError) as e:
        sys.exit(f"small_report.py: cannot read {names}: {type(e).__name__}: {str(e)[:120]}")
    if not ps:
        sys.exit(f"small_report.py: no shape of {names} has cuBLAS under {a.max_cublas_us} us")
    print(f"| {'M' if a.by_m else 'cuBLAS time'} | shapes | best without the new tiles vs cuBLAS | below 0.8x | "
          "best of every tile vs cuBLAS | below 0.8x | >= 1.0x |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for m in sorted({p[0][0] for p in ps}) if a.by_m else []:
        print(summary_of([p for p in ps if p[0][0] == m], f"M = {m}"))
    for lo, hi in [] if a.by_m else bands:
        if hi <= a.max_cublas_us and any(lo <= p[1] < hi for p in ps):  # empty bands: no row
            print(summary_rows(ps, f"{lo:g}-{hi:g} us", lo, hi))
    print(summary_rows(ps, f"all < {a.max_cublas_us:g} us", 0.0, a.max_cublas_us))
    wins = collections.Counter(config(b) for _, _, b, _ in ps)
    print("\n| fastest config | shapes |\n|---|---:|")
    for c, n in wins.most_common():
        print(f"| {c} | {n} |")
    print("\n| m | n | k | cuBLAS us | best us | vs cuBLAS | config |\n|---:|---:|---:|---:|---:|---:|---|")
    for shape, c, b, _ in sorted(ps, key=lambda p: speed(p[1], p[2]))[: a.worst]:
        ours = float(b["median_ms"]) * US_PER_MS
        print(f"| {shape[0]} | {shape[1]} | {shape[2]} | {c:.1f} | {ours:.1f} | "
              f"{speed(c, b):.3f}x | {config(b)} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Before/after of a kernel change as Markdown (docs/PERFORMANCE.md): two lastwave-bench CSVs of the
same configs (cuda/bench/before_after.sh runs both builds in one device command). Per config: each
build's median against cuBLAS of the same run, and after/before; per shape: the fastest config of
each build against cuBLAS of its run, and both against one cuBLAS time per shape (the geometric
mean of the two runs' medians: cuBLAS moves between runs too); geomeans. Standard library only;
every figure comes from the CSVs.

usage: tools/before_after.py BEFORE.csv[.gz] AFTER.csv[.gz] [--rows] [--store-bytes] [--ktiles]
  --rows         also list every config (else only the per-config-kind and per-shape summaries)
  --store-bytes  per shape, the fastest config's effective write bandwidth: M*N*2 bytes / time
  --ktiles       the per-config table split by the tile's k-tiles (ceil(K / tile k)) in bands
"""
import csv
import gzip
import math
import sys
from collections import defaultdict

NOISE = 0.03  # run-to-run noise of one median (docs/PERFORMANCE.md): slower by more is a regression
BF16_BYTES = 2


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def load(path):
    """(shape, config) -> row of the ok rows of one CSV."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("ok") == "1"]
    out = {}
    for r in rows:
        shape = (int(r["m"]), int(r["n"]), int(r["k"]), int(r["sms"]))
        config = (r["tile"], r["cluster"], r["decomposition"], r["reduction"])
        out[(shape, config)] = r
    return out


def ms(r):
    return float(r["median_ms"])


def vs_cublas(r):
    return float(r["cublas_ms"]) / ms(r)


KTILE_BANDS = ((1, 1), (2, 4), (5, 16), (17, 64), (65, None))  # k-tiles per tile, inclusive


def ktile_band(k, tile):
    """Index in KTILE_BANDS of K's k-tiles for `tile` (MxNxK text)."""
    kt = -(-k // int(tile.split("x")[2]))
    return next(i for i, (lo, hi) in enumerate(KTILE_BANDS) if kt >= lo and (hi is None or kt <= hi))


def band_text(i):
    lo, hi = KTILE_BANDS[i]
    return f">= {lo}" if hi is None else (f"{lo}" if lo == hi else f"{lo}-{hi}")


def per_config_kind(before, after, by_ktiles=False):
    """Geomean after/before, the worst config, and how many moved by more than the noise either way
    (as many faster as slower: noise), per tile x cluster x decomposition (x k-tile band)."""
    ratios = defaultdict(list)
    for key in sorted(before.keys() & after.keys()):
        kind = key[1][:3]
        if by_ktiles:
            kind += (ktile_band(key[0][2], key[1][0]),)
        ratios[kind].append((ms(before[key]) / ms(after[key]), key[0]))
    band = " k-tiles |" if by_ktiles else ""
    print(f"| tile | cluster | decomposition |{band} configs | after/before speed (geomean) | worst "
          "| slower by > 3 % | faster by > 3 % |")
    print("|---|---|---|" + ("---:|" if by_ktiles else "") + "---:|---:|---:|---:|---:|")
    for kind in sorted(ratios):
        xs = ratios[kind]
        worst = min(xs)
        slower = sum(x < 1 - NOISE for x, _ in xs)
        faster = sum(x > 1 + NOISE for x, _ in xs)
        shape = "x".join(map(str, worst[1][:3]))
        cell = f" {band_text(kind[3])} |" if by_ktiles else ""
        print(f"| {kind[0]} | {kind[1]} | {kind[2]} |{cell} {len(xs)} | "
              f"{geomean(x for x, _ in xs):.3f}x | {worst[0]:.3f}x ({shape}) | {slower} | {faster} |")


def cublas_medians(rows):
    """shape -> the median of the cuBLAS times its rows carry (one run)."""
    times = defaultdict(list)
    for (shape, _), r in rows.items():
        times[shape].append(float(r["cublas_ms"]))
    return {shape: sorted(t)[len(t) // 2] for shape, t in times.items()}


def fastest(rows):
    best = {}
    for (shape, _), r in rows.items():
        if shape not in best or ms(r) < ms(best[shape]):
            best[shape] = r
    return best


def per_shape(before, after, store_bytes):
    b, a = fastest(before), fastest(after)
    shapes = sorted(b.keys() & a.keys())
    extra = " after write TB/s |" if store_bytes else ""
    print(f"| m | n | k | SMs | cuBLAS ms | before best ms | vs cuBLAS | after best ms | vs cuBLAS | "
          f"after's config |{extra}")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|" + ("---:|" if store_bytes else ""))
    for s in shapes:
        ra = a[s]
        config = f"{ra['tile']} {ra['cluster']} {ra['decomposition']}"
        bw = ""
        if store_bytes:
            bw = f" {s[0] * s[1] * BF16_BYTES / (ms(ra) * 1e-3) / 1e12:.2f} |"
        print(f"| {s[0]} | {s[1]} | {s[2]} | {s[3]} | {float(ra['cublas_ms']):.4f} | "
              f"{ms(b[s]):.4f} | {vs_cublas(b[s]):.3f}x | {ms(ra):.4f} | {vs_cublas(ra):.3f}x | "
              f"{config} |{bw}")
    # cuBLAS moves between the two runs too (a few % per shape): one time per shape for both
    # builds, the geometric mean of the runs' medians, keeps that out of the before/after.
    cb, ca = cublas_medians(before), cublas_medians(after)
    common = {s: math.sqrt(cb[s] * ca[s]) for s in shapes}
    for sms in sorted({s[3] for s in shapes}, reverse=True):
        at = [s for s in shapes if s[3] == sms]
        print(f"\n{sms} SMs, {len(at)} shapes: best config vs cuBLAS, geomean: before "
              f"{geomean(vs_cublas(b[s]) for s in at):.3f}x, after "
              f"{geomean(vs_cublas(a[s]) for s in at):.3f}x (min {min(vs_cublas(a[s]) for s in at):.3f}x)")
        print(f"{sms} SMs, {len(at)} shapes: best config after/before speed "
              f"{geomean(ms(b[s]) / ms(a[s]) for s in at):.3f}x; against one cuBLAS time per shape "
              f"(geometric mean of the two runs' medians): before "
              f"{geomean(common[s] / ms(b[s]) for s in at):.3f}x, after "
              f"{geomean(common[s] / ms(a[s]) for s in at):.3f}x")


def rows_table(before, after):
    print("| m | n | k | SMs | tile | cluster | decomposition | before ms | after ms | after/before "
          "speed | after vs cuBLAS |")
    print("|---:|---:|---:|---:|---|---|---|---:|---:|---:|---:|")
    for key in sorted(before.keys() & after.keys()):
        (m, n, k, sms), (tile, cluster, dec, _) = key
        b, a = before[key], after[key]
        print(f"| {m} | {n} | {k} | {sms} | {tile} | {cluster} | {dec} | {ms(b):.4f} | {ms(a):.4f} "
              f"| {ms(b) / ms(a):.3f}x | {vs_cublas(a):.3f}x |")


def main(argv):
    flags = {a for a in argv if a.startswith("--")}
    paths = [a for a in argv if not a.startswith("--")]
    if len(paths) != 2 or flags - {"--rows", "--store-bytes", "--ktiles"}:
        sys.exit(__doc__.strip().splitlines()[-3])
    try:
        before, after = load(paths[0]), load(paths[1])
    except (OSError, EOFError, KeyError, ValueError) as e:
        sys.exit(f"before_after.py: cannot read the CSVs: {e}")
    if not before.keys() & after.keys():
        sys.exit("before_after.py: the two CSVs share no ok config")
    per_config_kind(before, after, "--ktiles" in flags)
    print()
    per_shape(before, after, "--store-bytes" in flags)
    if "--rows" in flags:
        print()
        rows_table(before, after)


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""The simulator's ping-pong CTAs against the kernels' measured ping-pong gain.

Reads before/after lastwave-bench CSVs of the same rows (before: cooperative consumers everywhere;
after: the ping-pong form), keeps the dp-persistent rows whose CTAs walk several whole tiles (where
the kernels run ping-pong, plan_runs_pingpong), and compares the measured speed-up (before / after)
with the one `lastwave predict` gives a model when its pingpong_overlap goes from 0 to each value
asked. Prints the geomeans per set and tile x cluster, and the overlap that fits every row best
(least squares on log ratios: a fit on these rows, not a held-out figure).

usage: tools/pingpong_check.py LASTWAVE MODEL.json SET=BEFORE.csv[.gz],AFTER.csv[.gz] ...
         [--overlaps 0.25,0.5,0.75,1] [--sms 132] [--physics-only]

--physics-only drops the model file's residual trees (and coverage): the physics alone, whose
epilogue the overlap moves (the trees were fitted on the cooperative kernels).
"""
import argparse
import csv
import json
import gzip
import math
import os
import subprocess
import sys
import tempfile

KEY = ("m", "n", "k", "tile", "cluster")


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.DictReader(f))


def persistent_rows(path):
    rows = {}
    for r in read_rows(path):
        if r["decomposition"] == "dp-persistent" and r.get("ok", "1") == "1":
            rows[tuple(r[c] for c in KEY)] = float(r["median_ms"])
    return rows


def predict(lastwave, model, sms, tile, cluster, shapes, overlap):
    """makespan_us, tiles and grid per shape under the model with pingpong_overlap = overlap."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("m,n,k\n")
        for m, n, k in shapes:
            f.write(f"{m},{n},{k}\n")
        path = f.name
    try:
        out = subprocess.run(
            [lastwave, "predict", "--gpu", "h200", "--sms", str(sms), "--model", model,
             "--shapes", path, "--schedule", "dp-persistent", "--tile", tile, "--cluster",
             cluster, "--param", f"pingpong_overlap={overlap}", "--format", "csv", "-q"],
            check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    got = {}
    for r in csv.DictReader(out.splitlines()):
        if r["status"] != "ok":
            continue
        got[(r["m"], r["n"], r["k"])] = (float(r["makespan_us"]), int(r["tiles"]), int(r["grid"]))
    return got


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lastwave")
    ap.add_argument("model")
    ap.add_argument("sets", nargs="+", help="NAME=BEFORE.csv,AFTER.csv")
    ap.add_argument("--overlaps", default="0.25,0.5,0.75,1")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--physics-only", action="store_true")
    a = ap.parse_args()
    if a.physics_only:
        with open(a.model) as f:
            model = json.load(f)
        model.pop("residual_trees", None)
        model.pop("coverage", None)
        physics = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(model, physics)
        physics.close()
        a.model = physics.name
    try:
        run(a)
    finally:
        if a.physics_only:
            os.unlink(a.model)


def run(a):
    overlaps = [float(x) for x in a.overlaps.split(",")]
    grid = [i / 20 for i in range(21)]
    table, every = [], []  # every: (measured, {overlap: predicted}) per row
    for spec in a.sets:
        if "=" not in spec or spec.count(",") != 1:
            sys.exit(f"pingpong_check: '{spec}' is not NAME=BEFORE.csv,AFTER.csv")
        name, files = spec.split("=", 1)
        before_path, after_path = files.split(",")
        before, after = persistent_rows(before_path), persistent_rows(after_path)
        groups = {}
        for key in sorted(before.keys() & after.keys()):
            groups.setdefault((key[3], key[4]), []).append(key)
        for (tile, cluster), keys in sorted(groups.items()):
            shapes = [k[:3] for k in keys]
            preds = {h: predict(a.lastwave, a.model, a.sms, tile, cluster, shapes, h)
                     for h in sorted(set(grid) | set(overlaps) | {0.0})}
            measured, predicted = [], {h: [] for h in overlaps}
            for key in keys:
                base = preds[0.0].get(key[:3])
                if base is None or base[1] <= base[2]:  # one tile per CTA: not ping-pong
                    continue
                measured.append(before[key] / after[key])
                for h in overlaps:
                    predicted[h].append(base[0] / preds[h][key[:3]][0])
                every.append((before[key] / after[key],
                              {h: base[0] / preds[h][key[:3]][0] for h in grid}))
            if measured:
                table.append((name, f"{tile} {cluster}", len(measured), geomean(measured),
                              [geomean(predicted[h]) for h in overlaps]))
    if not table:
        sys.exit("pingpong_check: no dp-persistent row of several tiles per CTA in both files")
    head = " | ".join(f"predicted, overlap {h:g}" for h in overlaps)
    print(f"| set | tile cluster | rows | measured | {head} |")
    print("|---|---|---:|---:|" + "---:|" * len(overlaps))
    for name, config, n, meas, preds in table:
        cells = " | ".join(f"{p:.3f}x" for p in preds)
        print(f"| {name} | {config} | {n} | {meas:.3f}x | {cells} |")

    def misfit(h):
        return sum((math.log(m) - math.log(p[h])) ** 2 for m, p in every)

    best = min(grid, key=misfit)
    rms = math.sqrt(misfit(best) / len(every))
    none = math.sqrt(misfit(0.0) / len(every))
    print(f"\n{len(every)} rows; the overlap that fits them best: {best:g} (rms log error "
          f"{rms:.3f}; {none:.3f} at 0, the cooperative simulation)")


if __name__ == "__main__":
    main()

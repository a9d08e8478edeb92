#!/usr/bin/env python3
"""How well does the wgmma model's tile scaling predict other tiles? For every ok row at 132 SMs of
configs/measurements/h200-tile-probe.csv (14 tiles x 6 decompositions x 13 shapes), predicts the
same (shape, decomposition, tile) with `lastwave predict` and prints |error| per tile, and how
close the model's pick among the measured configs comes to the measured best.
Usage: tools/tile_model_check.py [LASTWAVE_BINARY]   (default: tools/lastwave.sh)"""
import collections
import csv
import io
import math
import statistics
import subprocess
import sys

MEASURED = "configs/measurements/h200-tile-probe.csv"
SHAPES = "configs/measurements/shapes-tile-probe.csv"
MODEL = "configs/models/h200-bf16-128x128x64-wgmma.json"
US_PER_MS = 1000.0


def predictions(lastwave, tiles, decompositions):
    pred = {}
    for t in tiles:
        out = subprocess.run([lastwave, "predict", "-q", "--gpu", "h200", "--shapes", SHAPES,
                              "--tile", t, "--schedule", ",".join(decompositions), "--model", MODEL,
                              "--format", "csv"], capture_output=True, text=True, check=True)
        for p in csv.DictReader(io.StringIO(out.stdout)):
            if p.get("status", "ok") == "ok":  # not deadlocked, not refused
                pred[(p["m"], p["n"], p["k"], p["schedule"], t)] = float(p["makespan"])
    return pred


def main():
    lastwave = sys.argv[1] if len(sys.argv) > 1 else "tools/lastwave.sh"
    rows = [r for r in csv.DictReader(open(MEASURED)) if r["ok"] == "1" and r["sms"] == "132"]
    tiles = sorted({r["tile"] for r in rows})
    pred = predictions(lastwave, tiles, sorted({r["decomposition"] for r in rows}))
    err, by_shape = collections.defaultdict(list), collections.defaultdict(list)
    for r in rows:
        p = pred.get((r["m"], r["n"], r["k"], r["decomposition"], r["tile"]))
        if p is None:
            continue
        measured = float(r["median_ms"]) * US_PER_MS
        err[r["tile"]].append(abs(p / measured - 1))
        by_shape[(r["m"], r["n"], r["k"])].append((measured, p, r["decomposition"], r["tile"]))
    print("| tile | rows | median abs error | max |\n|---|---:|---:|---:|")
    for t in tiles:
        e = err[t]
        print(f"| {t} | {len(e)} | {100 * statistics.median(e):.1f} % | {100 * max(e):.0f} % |")
    ratios = []
    for shape, v in sorted(by_shape.items()):
        best, pick = min(v), min(v, key=lambda x: x[1])
        ratios.append(best[0] / pick[0])
        print(f"{'x'.join(shape)}: measured best {best[2]} {best[3]} {best[0]:.1f} us, "
              f"model's pick {pick[2]} {pick[3]} measured {pick[0]:.1f} us")
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"model's pick reaches {100 * geo:.1f} % of the measured best (geomean, {len(ratios)} shapes)")


if __name__ == "__main__":
    main()

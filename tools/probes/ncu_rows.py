#!/usr/bin/env python3
"""Rows of an ncu_probe.sh run: one CSV line per case (time, L2 requests / sectors / hit rate /
throughput, DRAM bytes read, and lastwave-bench's median), the format of
configs/measurements/h200-r3/ncu-*.csv. Usage: ncu_rows.py OUT_DIR > rows.csv"""
import csv
import sys

METRICS = {
    "gpu__time_duration.sum": "time_us",
    "lts__t_requests.sum": "l2_requests",
    "lts__t_sectors.sum": "l2_sectors",
    "lts__t_sector_hit_rate.pct": "l2_hit_pct",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed": "l2_throughput_pct",
    "dram__bytes_read.sum": "dram_read_bytes",
}
TO_US = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
CASE = ["m", "n", "k", "decomposition", "tile", "cluster"]


def cases(path):
    """Each '# M N K DEC TILE CLUSTER' header of ncu.csv with the metrics of its launch."""
    out = []
    for line in open(path):
        if line.startswith("# "):
            out.append(dict(zip(CASE, line[2:].split())))
        elif line.startswith('"') and not line.startswith('"ID"') and out:
            f = next(csv.reader([line]))
            name, unit, value = f[12], f[13], float(f[14].replace(",", ""))
            if name in METRICS:
                scale = TO_US.get(unit, 1.0) if name == "gpu__time_duration.sum" else 1.0
                out[-1][METRICS[name]] = value * scale
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ncu_rows.py OUT_DIR (the $OUT of an ncu_probe.sh run)")
    rows = cases(sys.argv[1] + "/ncu.csv")
    bench = list(csv.DictReader(open(sys.argv[1] + "/bench.csv")))
    if len(bench) != len(rows):
        sys.exit(f"ncu_rows.py: {len(rows)} ncu cases but {len(bench)} bench rows")
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(CASE + list(METRICS.values()) + ["bench_median_us"])
    for r, b in zip(rows, bench):
        missing = [m for m in METRICS.values() if m not in r]
        if missing:
            sys.exit(f"ncu_rows.py: case {' '.join(r[c] for c in CASE)} lacks {missing}")
        values = [f"{r[m]:.3f}" if m == "time_us" else f"{r[m]:.2f}" if m.endswith("pct")
                  else f"{r[m]:.0f}" for m in METRICS.values()]
        w.writerow([r[c] for c in CASE] + values + [f"{float(b['median_ms']) * 1000:.2f}"])


if __name__ == "__main__":
    main()

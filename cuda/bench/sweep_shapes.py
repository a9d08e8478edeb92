#!/usr/bin/env python3
"""Writes the shape lists of the H200 calibration sweep (configs/measurements/shapes-*.csv):
round, skinny and ragged shapes with K from 256 to 16384; deterministic (fixed seed)."""
import random
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "configs/measurements"
SEED = 20261130
MAX_FLOP = 2 * 8192 * 8192 * 8192  # keep every run under ~10 ms on this kernel


def write(name, shapes):
    with open(f"{OUT}/{name}", "w") as f:
        f.write("m,n,k\n")
        for m, n, k in shapes:
            f.write(f"{m},{n},{k}\n")


def main():
    rng = random.Random(SEED)
    shapes = []
    for mn in [256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192]:  # square, round
        for k in [256, 1024, 4096, 16384]:
            shapes.append((mn, mn, k))
    for m in [1, 16, 64, 128, 256]:  # skinny (decode-like)
        for n in [1024, 4096, 14336]:
            for k in [1024, 4096, 16384]:
                shapes.append((m, n, k))
    for _ in range(200):  # ragged, log-uniform
        m = int(2 ** rng.uniform(5, 13))
        n = int(2 ** rng.uniform(7, 13))
        k = int(2 ** rng.uniform(8, 14))
        shapes.append((m, n, k))
    shapes = [s for s in dict.fromkeys(shapes) if 2 * s[0] * s[1] * s[2] <= MAX_FLOP]
    shapes = shapes[:150 + 36]  # all round/skinny shapes plus the first ragged ones
    write("shapes-sweep-132.csv", shapes)
    sub = shapes[::6][:31]
    write("shapes-sweep-partitions.csv", sub)
    write("shapes-traces.csv", [(1536, 1536, 4096), (128, 4096, 4096), (3840, 3840, 4096),
                                (1024, 1024, 16384), (256, 256, 16384), (4224, 4224, 4096),
                                (512, 512, 8192), (2048, 2048, 2048), (1000, 3000, 5000),
                                (16, 4096, 4096)])
    write("shapes-table.csv", [(1536, 1536, 4096), (128, 4096, 4096), (3840, 3840, 4096),
                               (4096, 4096, 4096), (8192, 8192, 8192)])
    print(len(shapes), "sweep shapes,", len(sub), "partition shapes")


if __name__ == "__main__":
    main()

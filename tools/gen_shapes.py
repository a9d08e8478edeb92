#!/usr/bin/env python3
"""Writes the 32,824-shape corpus of the Stream-K paper's evaluation style: m, n, k each sampled
log-uniformly in [128, 8192] with a fixed seed, so the file is reproducible."""
import math
import random
import sys

COUNT = 32824  # shapes in the paper's corpus
LOW, HIGH = 128, 8192  # extent range of each dimension
SEED = 20230125


def main() -> None:
    rng = random.Random(SEED)
    out = sys.stdout
    out.write("m,n,k\n")
    for _ in range(COUNT):
        dims = [round(math.exp(rng.uniform(math.log(LOW), math.log(HIGH)))) for _ in range(3)]
        out.write(",".join(str(d) for d in dims) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes configs/shapes/small-problems.csv: traffic-like GEMMs that take cuBLAS under ~20 us on an
H200 (issue 29's class: decode-time projections, small batches, LoRA ranks, small squares), drawn
with a fixed seed after every other shape set and disjoint from them. A shape is kept when a
roofline estimate of its time is below SMALL_US; the tables keep only rows whose measured cuBLAS
time is below 20 us. Usage: tools/gen_small_shapes.py [OUT.csv]"""
import math
import random
import sys
from pathlib import Path

from gen_traffic_shapes import LLM_PROJECTIONS

SEED = 20261204
COUNT = 90  # shapes written: >= 60 remain below 20 us of cuBLAS time
ROW_STEP = 8  # N and K multiples of 8 (16-byte bf16 rows: every kernel config runs them)
DECODE_TOKENS = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128]  # decode batches, small prefill chunks
RANDOM_RANGE = (16, 4096)  # M, N, K of the random shapes, log-uniform
LORA_RANKS = [8, 16, 32, 64]
# Roofline estimate of cuBLAS on the H200 (dense bf16 rate, HBM rate, fixed cost of a launch).
PEAK_FLOPS = 700e12  # FLOP/s reached by large GEMMs
HBM_BYTES_PER_S = 3.0e12  # bytes/s reached by streaming GEMMs
FIXED_US = 5.0  # a minimal GEMM launch, us
SMALL_US = 16.0  # estimates at or above this are not small problems
BF16_BYTES = 2


def estimate_us(m, n, k):
    flop_s = 2.0 * m * n * k / PEAK_FLOPS
    byte_s = BF16_BYTES * (m * k + n * k + m * n) / HBM_BYTES_PER_S
    return FIXED_US + 1e6 * max(flop_s, byte_s)


def row(x):
    return max(ROW_STEP, int(round(x / ROW_STEP)) * ROW_STEP)


def draw(rng):
    kind = rng.random()
    if kind < 0.5:  # a decode or small-batch projection of a served model (either orientation)
        _, projections = rng.choice(LLM_PROJECTIONS)
        out_f, in_f = rng.choice(projections)
        tokens = rng.choice(DECODE_TOKENS)
        return (tokens, out_f, in_f) if rng.random() < 0.7 else (out_f, tokens, in_f)
    if kind < 0.65:  # a LoRA down- or up-projection for a few tokens
        _, projections = rng.choice(LLM_PROJECTIONS)
        _, hidden = rng.choice(projections)
        tokens, rank = rng.choice(DECODE_TOKENS), rng.choice(LORA_RANKS)
        return (tokens, rank, hidden) if rng.random() < 0.5 else (tokens, hidden, rank)
    lo, hi = RANDOM_RANGE  # a small GEMM of any aspect
    m = int(math.exp(rng.uniform(math.log(lo), math.log(hi))))
    n = row(math.exp(rng.uniform(math.log(lo), math.log(hi))))
    k = row(math.exp(rng.uniform(math.log(lo), math.log(hi))))
    return (m, n, k)


def taken(shapes_dir):
    seen = set()
    for f in shapes_dir.glob("*.csv"):
        if f.name == "small-problems.csv":
            continue
        for line in f.read_text().splitlines():
            parts = line.split(",")
            if len(parts) >= 3 and all(p.strip().isdigit() for p in parts[:3]):
                seen.add(tuple(int(p) for p in parts[:3]))
    return seen


def main():
    root = Path(__file__).resolve().parent.parent
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "configs/shapes/small-problems.csv"
    seen = taken(root / "configs/shapes")
    rng = random.Random(SEED)
    shapes = []
    while len(shapes) < COUNT:
        s = draw(rng)
        if s in seen or estimate_us(*s) >= SMALL_US:
            continue
        seen.add(s)
        shapes.append(s)
    lines = [f"# small problems (tools/gen_small_shapes.py, seed {SEED})", "m,n,k"]
    lines += [f"{m},{n},{k}" for m, n, k in shapes]
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

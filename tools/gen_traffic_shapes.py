#!/usr/bin/env python3
"""Writes the traffic-like shape sets of issue 8 into configs/shapes/ (fixed seed, reproducible):
traffic-{train,validation,test,heldout-chooser,train-extra*,unseen-r4}.csv (pairwise disjoint) and traffic-partitions.csv
(the train/validation shapes also measured at 96/64/32/16 SMs and at the SM levels of
UNSEEN_SMS_LEVELS) and traffic-test-partitions.csv (test shapes measured only at SM counts that no
training row has). Usage: tools/gen_traffic_shapes.py [DIR]"""
import math
import random
import sys
from pathlib import Path

SEED = 20261201
ROW_STEP = 8  # N and K are multiples of 8 (16-byte bf16 rows: the kernels' vector-load unit)
RESIDUE_MOD = 128  # every N % 128 and K % 128 in {0, 8, ..., 120} appears in every set
M_RANGE = (1, 16384)  # M (tokens or rows) log-uniform
NK_RANGE = (128, 16384)  # N and K log-uniform, then snapped to a chosen residue mod 128
MAX_FLOP = 2.2e12  # 2MNK cap (8192 x 8192 x 16384): keeps one campaign within its GPU budget
PARTITION_MAX_FLOP = 3.0e11  # partition shapes run on as few as 16 SMs: smaller ones only
# (set name, random shapes, LLM projection shapes); train + validation >= 400, test >= 150.
SETS = [("train", 180, 120), ("validation", 80, 50), ("test", 100, 60), ("heldout-chooser", 130, 80),
        # More training shapes (drawn after the others, which stay as they were): the residual
        # trees' validation error still fell with every added training shape (calibration-notes).
        ("train-extra", 360, 240), ("train-extra-2", 360, 240),
        ("train-extra-3", 360, 240), ("train-extra-4", 360, 240), ("train-extra-5", 360, 240),
        # Shapes no kernel change was tuned on: the kernels' round-4 check on unseen shapes.
        ("unseen-r4", 48, 24)]
PARTITION_COUNTS = {"train": 76, "validation": 32}  # >= 100 shapes at 96/64/32/16 SMs
TEST_PARTITION_COUNT = 32  # test shapes at the SM counts no training row has (cuda/bench/sm_levels_campaign.sh)

# (model, hidden, projection (out features, in features) list) from the models' configs.
LLM_PROJECTIONS = [
    ("llama3-8b", [(6144, 4096), (4096, 4096), (28672, 4096), (4096, 14336)]),
    ("llama3-70b", [(10240, 8192), (8192, 8192), (57344, 8192), (8192, 28672)]),
    ("llama3-405b", [(18432, 16384), (16384, 16384), (53248, 16384), (16384, 53248)]),
    ("qwen2.5-7b", [(4608, 3584), (3584, 3584), (37888, 3584), (3584, 18944)]),
    ("qwen2.5-72b", [(10240, 8192), (8192, 8192), (59136, 8192), (8192, 29568)]),
    # DeepSeek-V3 MLA (q_a, q_b, kv_a, kv_b, o), dense FFN (gate+up, down), one MoE expert.
    ("deepseek-v3", [(1536, 7168), (24576, 1536), (576, 7168), (32768, 512), (7168, 16384),
                     (36864, 7168), (7168, 18432), (4096, 7168), (7168, 2048)]),
]
# Token counts: decode batches, prefill chunks, and ragged counts (not multiples of 64).
TOKENS_ROUND = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]
TOKENS_RAGGED_RANGE = (512, 16384)


def log_uniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def snapped(rng, residue):
    """A log-uniform extent in NK_RANGE with the given residue mod 128."""
    return int(log_uniform(rng, *NK_RANGE)) // RESIDUE_MOD * RESIDUE_MOD + residue


def token_count(rng, low=1):
    if rng.random() < 0.5:
        return rng.choice([t for t in TOKENS_ROUND if t >= low])
    while True:  # ragged: a multiple of 8 that is not a multiple of 64
        t = int(log_uniform(rng, *TOKENS_RAGGED_RANGE)) // ROW_STEP * ROW_STEP
        if t % 64:
            return t


def llm_shape(rng):
    """Forward (M=T, N=out, K=in), dX (M=T, N=in, K=out) or dW (M=out, N=in, K=T)."""
    _, projections = rng.choice(LLM_PROJECTIONS)
    out, inp = rng.choice(projections)
    kind = rng.choice(["forward", "dX", "dW"])
    if kind == "dW":  # K = tokens: a prefill/training batch, never a decode step
        return (out, inp, token_count(rng, TOKENS_RAGGED_RANGE[0]))
    t = token_count(rng)
    return (t, out, inp) if kind == "forward" else (t, inp, out)


def residues(rng, count):
    """`count` residues mod 128 covering every multiple of 8, in random order."""
    values = [r * ROW_STEP for r in range(RESIDUE_MOD // ROW_STEP)]
    out = []
    while len(out) < count:
        rng.shuffle(values)
        out.extend(values)
    return out[:count]


def flop(s):
    return 2.0 * s[0] * s[1] * s[2]


def draw_set(rng, n_random, n_llm, taken):
    shapes = []
    n_res, k_res = residues(rng, n_random), residues(rng, n_random)
    i = 0
    while i < n_random:
        s = (max(1, round(log_uniform(rng, *M_RANGE))), snapped(rng, n_res[i]), snapped(rng, k_res[i]))
        if flop(s) <= MAX_FLOP and s not in taken:
            taken.add(s)
            shapes.append(s)
            i += 1
    while len(shapes) < n_random + n_llm:
        s = llm_shape(rng)
        if flop(s) <= MAX_FLOP and s not in taken:
            taken.add(s)
            shapes.append(s)
    rng.shuffle(shapes)
    return shapes


def write(path, comment, shapes):
    with open(path, "w") as f:
        f.write(f"# {comment} (tools/gen_traffic_shapes.py, seed {SEED})\nm,n,k\n")
        for s in shapes:
            f.write(f"{s[0]},{s[1]},{s[2]}\n")


def main() -> None:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "configs/shapes")
    rng = random.Random(SEED)
    taken, sets = set(), {}
    for name, n_random, n_llm in SETS:
        sets[name] = draw_set(rng, n_random, n_llm, taken)
        write(out_dir / f"traffic-{name}.csv", f"traffic-like shapes, {name} set", sets[name])
    partitions = []
    for name, count in PARTITION_COUNTS.items():
        small = [s for s in sets[name] if flop(s) <= PARTITION_MAX_FLOP]
        partitions += small[:count]
    write(out_dir / "traffic-partitions.csv",
          "train/validation shapes also measured at 96, 64, 32, 16 SMs", partitions)
    small_test = [s for s in sets["test"] if flop(s) <= PARTITION_MAX_FLOP]
    write(out_dir / "traffic-test-partitions.csv",
          "test shapes measured only at SM counts no training row has", small_test[:TEST_PARTITION_COUNT])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Shape sets for issue 33's refit on the current kernels (docs/CALIBRATE-YOUR-GPU.md, "Refit"):
traffic-like shapes as in tools/gen_traffic_shapes.py plus the classes the r3 sets lacked, in
fixed shares of every set:

  traffic   M log-uniform in [1, 16384], N and K in [128, 16384] (every residue mod 128), and
            LLM projections (forward, dX, dW)                                  40 %
  small-K   K in [8, 64] (multiples of 8), M x N from 1 M to 64 M: LoRA-style up-projections,
            small-rank outputs, weight gradients of few tokens: the store-bound class   20 %
  decode    M in {1, 2, 4, 8, 16, 32, 64} or ragged below 64, N and K in [128, 16384]  20 %
  small     M, N in [16, 2048], K in [8, 4096]: problems of a few microseconds        20 %

N and K stay multiples of 8 (16-byte rows: every kernel config runs them). The training and
validation sets are drawn with a fixed seed and written to configs/shapes/refit-{train,validation}.csv;
the test set is drawn only with --test SEED, from a seed chosen when the model's design is frozen
(the issue's protocol: a test set drawn after the design, read once), disjoint from the others.

usage: tools/gen_refit_shapes.py [DIR]                 # refit-train.csv, refit-validation.csv
       tools/gen_refit_shapes.py --test SEED [DIR]     # refit-test-SEED.csv
"""
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_traffic_shapes as traffic  # noqa: E402  (the traffic-like draw and its LLM shapes)

SEED = 20261205
SETS = [("train", 600), ("validation", 240)]  # shapes per set
TEST_SHAPES = 240
SHARES = [("traffic", 0.4), ("small-k", 0.2), ("decode", 0.2), ("small", 0.2)]
ROW_STEP = traffic.ROW_STEP
SMALL_K_RANGE = (8, 64)  # K of the store-bound class
SMALL_K_OUTPUT = (1 << 20, 1 << 26)  # its M x N: 1 M to 64 M elements
DECODE_ROWS = [1, 2, 4, 8, 16, 32, 64]
SMALL_MN = (16, 2048)
SMALL_K = (8, 4096)
MAX_FLOP = traffic.MAX_FLOP


def multiple_of_step(x):
    return max(ROW_STEP, int(x) // ROW_STEP * ROW_STEP)


def small_k_shape(rng):
    k = rng.randrange(SMALL_K_RANGE[0], SMALL_K_RANGE[1] + 1, ROW_STEP)
    out = traffic.log_uniform(rng, *SMALL_K_OUTPUT)
    m = max(1, round(math.exp(rng.uniform(math.log(256), math.log(out / 256)))))
    return (m, multiple_of_step(out / m), k)


def decode_shape(rng):
    m = rng.choice(DECODE_ROWS) if rng.random() < 0.7 else rng.randrange(3, 64)
    n = multiple_of_step(traffic.log_uniform(rng, *traffic.NK_RANGE))
    k = multiple_of_step(traffic.log_uniform(rng, *traffic.NK_RANGE))
    return (m, n, k)


def small_shape(rng):
    m = max(1, round(traffic.log_uniform(rng, *SMALL_MN)))
    n = multiple_of_step(traffic.log_uniform(rng, *SMALL_MN))
    k = multiple_of_step(traffic.log_uniform(rng, *SMALL_K))
    return (m, n, k)


def traffic_shape(rng):
    if rng.random() < 0.4:
        return traffic.llm_shape(rng)
    n_res, k_res = rng.randrange(0, 128, ROW_STEP), rng.randrange(0, 128, ROW_STEP)
    return (max(1, round(traffic.log_uniform(rng, *traffic.M_RANGE))),
            traffic.snapped(rng, n_res), traffic.snapped(rng, k_res))


DRAW = {"traffic": traffic_shape, "small-k": small_k_shape, "decode": decode_shape,
        "small": small_shape}


def draw_set(rng, count, taken):
    shapes = []
    for cls, share in SHARES:
        want = round(count * share)
        got = 0
        while got < want:
            s = DRAW[cls](rng)
            if traffic.flop(s) <= MAX_FLOP and s not in taken:
                taken.add(s)
                shapes.append(s)
                got += 1
    rng.shuffle(shapes)
    return shapes


def write(path, comment, seed, shapes):
    with open(path, "w") as f:
        f.write(f"# {comment} (tools/gen_refit_shapes.py, seed {seed})\nm,n,k\n")
        for s in shapes:
            f.write(f"{s[0]},{s[1]},{s[2]}\n")


def fixed_sets():
    """The training and validation sets: the same on every run."""
    rng = random.Random(SEED)
    taken, sets = set(), {}
    for name, count in SETS:
        sets[name] = draw_set(rng, count, taken)
    return sets, taken


def main(argv):
    test_seed = None
    if argv[:1] == ["--test"]:
        if len(argv) < 2 or not argv[1].isdigit():
            sys.exit("gen_refit_shapes.py: --test needs a seed (a non-negative integer)")
        test_seed, argv = int(argv[1]), argv[2:]
    if len(argv) > 1:
        sys.exit(__doc__.strip().splitlines()[-2].strip())
    out_dir = Path(argv[0] if argv else "configs/shapes")
    if not out_dir.is_dir():
        sys.exit(f"gen_refit_shapes.py: {out_dir} is not a directory")
    sets, taken = fixed_sets()
    if test_seed is None:
        for name, _ in SETS:
            write(out_dir / f"refit-{name}.csv", f"refit shapes, {name} set", SEED, sets[name])
        return
    # Drawn from its own seed, none of them a training or validation shape.
    test = draw_set(random.Random(test_seed), TEST_SHAPES, taken)
    write(out_dir / f"refit-test-{test_seed}.csv",
          "refit shapes, test set drawn after the model's design was frozen", test_seed, test)


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""A transformer layer's GEMMs (forward, dX, dW of the QKV, attention-output, FFN-up and
FFN-down projections) for TOKENS = batch x sequence rows and a hidden size: lastwave's chosen
config per GEMM (`best`: tile x cluster x decomposition) and the predicted layer time on all 132
SMs of an H200 and on 100 (the other 32 held by a communication kernel, e.g. an overlapped
all-reduce).

    PYTHONPATH=bazel-opt-bin/python python3 examples/transformer_layer.py --batch 8 --seq 2048 \
        --hidden 4096
"""

import argparse
import os
import sys

import lastwave

SM_COUNTS = (132, 100)
FFN_MULTIPLE = 4  # FFN width = 4 x hidden unless --ffn is given
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_MODEL = os.path.join(REPO, "configs/models/h200-bf16-wgmma-r17.json")


def layer_gemms(tokens, hidden, ffn):
    """(name, (m, n, k)) for every GEMM of one layer's forward and backward pass. A projection
    Y[T, out] = X[T, in] W[in, out] has fwd (T, out, in), dX = dY W^T (T, in, out) and
    dW = X^T dY (in, out, T)."""
    projections = [("qkv", hidden, 3 * hidden), ("attn_out", hidden, hidden),
                   ("ffn_up", hidden, ffn), ("ffn_down", ffn, hidden)]  # fmt: skip
    gemms = []
    for name, d_in, d_out in projections:
        gemms.append((f"{name}.fwd", (tokens, d_out, d_in)))
        gemms.append((f"{name}.dX", (tokens, d_in, d_out)))
        gemms.append((f"{name}.dW", (d_in, d_out, tokens)))
    return gemms


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--ffn", type=int, default=None, help="FFN width (default 4 x hidden)")
    p.add_argument("--model", default=DEFAULT_MODEL if os.path.exists(DEFAULT_MODEL) else "unit",
                   help="cost model name or fitted model file (default: r17, else unit)")
    return p.parse_args()


def main():
    a = parse_args()
    tokens = a.batch * a.seq
    ffn = a.ffn or FFN_MULTIPLE * a.hidden
    model = lastwave.load_model(a.model)
    gemms = layer_gemms(tokens, a.hidden, ffn)
    print(f"layer: {a.batch} x {a.seq} tokens, hidden {a.hidden}, ffn {ffn}; model {a.model}")
    print(f"{'gemm':14s} {'m x n x k':>22s}" + "".join(
        f"  {f'{sms} SMs: config':>34s} {'time':>9s}" for sms in SM_COUNTS))
    totals = dict.fromkeys(SM_COUNTS, 0.0)
    unit = ""
    for name, shape in gemms:
        line = f"{name:14s} {'x'.join(map(str, shape)):>22s}"
        for sms in SM_COUNTS:
            (plan,) = lastwave.best(shape, sms=sms, model=model)
            unit = plan.time_unit
            if plan.time is None:
                line += f"  {plan.status + ': ' + plan.reason[:30]:>34s} {'-':>9s}"
                continue
            totals[sms] += plan.time
            config = f"{plan.decomposition} {plan.tile} {plan.cluster}"
            line += f"  {config:>34s} {plan.time:9.1f}"
        print(line)
    print("layer total (answered GEMMs): " + ", ".join(
        f"{sms} SMs {totals[sms]:.1f} {unit}" for sms in SM_COUNTS)
        + f"; 100 SMs take {totals[100] / totals[132]:.3f}x the time of 132")


if __name__ == "__main__":
    try:
        main()
    except (ValueError, TypeError) as e:  # bad input: one line, as the CLI
        sys.exit(f"transformer_layer.py: error: {e}")

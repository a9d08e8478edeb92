#!/usr/bin/env python3
"""Sweeps a shape corpus with multiprocessing (each worker loads the model once and predicts its
chunk of shapes) and draws the plot people read: for each heuristic (dp, streamk, cutlass), the
CDF over shapes of its time on the default 128x128x64 tile against `best`'s (the fastest
tile x cluster x decomposition; 1.0 = as fast as the simulator's pick). With
matplotlib installed it writes a PNG; otherwise it says so and writes the same curves as an SVG
drawn here, plus the per-shape CSV either way.

    PYTHONPATH=bazel-opt-bin/python python3 examples/corpus_sweep.py --limit 2000 --out sweep
"""

import argparse
import csv
import multiprocessing
import os
import sys
import warnings

import lastwave

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SHAPES = os.path.join(REPO, "configs/shapes/streamk-paper-32824.csv")
DEFAULT_MODEL = os.path.join(REPO, "configs/models/h200-bf16-wgmma-r17.json")
HEURISTICS = ("dp", "streamk", "cutlass")
CHUNK = 100  # shapes per task
SVG_W, SVG_H, MARGIN = 640, 420, 50  # fallback SVG canvas, pixels
COLORS = ("#1f77b4", "#d62728", "#2ca02c")
MAX_RATIO = 2.0  # x axis of the CDF: time / best's time, 1 .. MAX_RATIO

_model = None  # each worker's Model, loaded once (pool initializer)


def _init(model_name):
    global _model
    _model = lastwave.load_model(model_name)
    # Refused rows (a fitted model's undetermined parameter) are counted, not warned of per chunk.
    warnings.simplefilter("ignore", lastwave.ModelWarning)


def _sweep(args):
    """One chunk: {shape: {schedule: makespan}} of the answered rows."""
    shapes, sms = args
    rows = lastwave.predict(shapes, schedules=",".join(HEURISTICS + ("best",)), sms=sms,
                            model=_model)
    out = {}
    for r in rows:
        if r.status == "ok":
            out.setdefault((r.m, r.n, r.k), {})[r.schedule] = r.makespan
    return out


def read_shapes(path, limit):
    with open(path) as f:
        shapes = [(int(r["m"]), int(r["n"]), int(r["k"])) for r in csv.DictReader(f)]
    step = max(1, len(shapes) // limit)  # an even sample of the corpus
    return shapes[::step][:limit]


def cdf(values):
    xs = sorted(values)
    return xs, [(i + 1) / len(xs) for i in range(len(xs))]


def plot_matplotlib(ratios, title, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, values in ratios.items():
        ax.step(*cdf(values), where="post", label=name)
    ax.set(xlim=(1, MAX_RATIO), ylim=(0, 1), xlabel="time / best's time",
           ylabel="share of shapes", title=title)
    ax.legend()
    fig.savefig(path, dpi=120, bbox_inches="tight")


def plot_svg(ratios, title, path):
    """The same CDFs as a plain SVG (no dependencies)."""
    def x(v):
        return MARGIN + (min(v, MAX_RATIO) - 1) / (MAX_RATIO - 1) * (SVG_W - 2 * MARGIN)

    def y(p):
        return SVG_H - MARGIN - p * (SVG_H - 2 * MARGIN)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_W}" height="{SVG_H}" '
             f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" '
             f'fill="white"/><text x="{SVG_W / 2}" y="20" text-anchor="middle">{title}</text>',
             f'<rect x="{MARGIN}" y="{MARGIN}" width="{SVG_W - 2 * MARGIN}" '
             f'height="{SVG_H - 2 * MARGIN}" fill="none" stroke="black"/>',
             f'<text x="{SVG_W / 2}" y="{SVG_H - 10}" text-anchor="middle">time / best\'s time '
             f'(1 .. {MAX_RATIO})</text>',
             f'<text x="12" y="{SVG_H / 2}" transform="rotate(-90 12 {SVG_H / 2})" '
             f'text-anchor="middle">share of shapes</text>']  # fmt: skip
    for i, (name, values) in enumerate(ratios.items()):
        xs, ps = cdf(values)
        points = " ".join(f"{x(v):.1f},{y(p):.1f}" for v, p in zip(xs, ps))
        parts.append(f'<polyline fill="none" stroke="{COLORS[i]}" points="{points}"/>')
        parts.append(f'<text x="{SVG_W - MARGIN - 80}" y="{MARGIN + 20 + 16 * i}" '
                     f'fill="{COLORS[i]}">{name}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--limit", type=int, default=2000, help="shapes sampled from the corpus")
    p.add_argument("--sms", type=int, default=132)
    p.add_argument("--model", default=DEFAULT_MODEL if os.path.exists(DEFAULT_MODEL) else "unit")
    p.add_argument("--workers", type=int, default=os.cpu_count())
    p.add_argument("--out", default="sweep", help="output prefix (.csv and .png or .svg)")
    a = p.parse_args()
    if a.limit < 1:
        raise ValueError(f"--limit must be >= 1, got {a.limit}")
    shapes = read_shapes(a.shapes, a.limit)
    chunks = [(shapes[i:i + CHUNK], a.sms) for i in range(0, len(shapes), CHUNK)]
    with multiprocessing.Pool(a.workers, initializer=_init, initargs=(a.model,)) as pool:
        results = {}
        for part in pool.imap(_sweep, chunks):
            results.update(part)
    answered = {s: t for s, t in results.items() if "best" in t and all(h in t for h in HEURISTICS)}
    with open(a.out + ".csv", "w") as f:
        f.write("m,n,k," + ",".join(HEURISTICS) + ",best\n")
        for (m, n, k), t in sorted(answered.items()):
            f.write(f"{m},{n},{k}," + ",".join(f"{t[h]:.4f}" for h in HEURISTICS + ("best",)) + "\n")
    ratios = {h: [t[h] / t["best"] for t in answered.values()] for h in HEURISTICS}
    title = (f"{len(answered)} of {len(shapes)} shapes answered, {a.sms} SMs, "
             f"{os.path.basename(a.model)}")
    try:
        plot_matplotlib(ratios, title, a.out + ".png")
        print(f"wrote {a.out}.csv and {a.out}.png")
    except ImportError:
        plot_svg(ratios, title, a.out + ".svg")
        print(f"matplotlib is not installed: wrote {a.out}.svg (drawn without it) and {a.out}.csv")
    for h, values in ratios.items():
        within = sum(v <= 1.01 for v in values) / max(1, len(values))
        print(f"  {h:8s} within 1% of best on {100 * within:5.1f}% of shapes, "
              f"worst {max(values, default=float('nan')):.2f}x")


if __name__ == "__main__":
    try:
        main()
    except (ValueError, TypeError, OSError) as e:  # bad input: one line, as the CLI
        sys.exit(f"corpus_sweep.py: error: {e}")

#!/usr/bin/env python3
"""The chooser's hardware check as a table (docs/HEURISTICS.md): for each SM count, each heuristic's
geomean speed against cuBLAS, its share of the best measured config, its worst shape and the shares
within 1 % / 5 % of the best. "Best measured" is the fastest ok row of the shape and SM count over
every file given (configs, rules and every auto run; FILE.csv.gz reads like the plain file).
Standard library only.

usage: tools/chooser_report.py --auto NAME=FILE [--auto NAME=FILE ...]
                               [--shortlist NAME=PICK.csv,JUDGE.csv ...] FILE.csv [FILE.csv ...]
       tools/chooser_report.py --ceiling A.csv B.csv
  --auto NAME=FILE  rows of `lastwave-bench --decomposition auto` (one heuristic per file; with
                    --top runs, the simulator's pick: auto_rank 1)
  --shortlist NAME=PICK.csv,JUDGE.csv
                    two timings of `lastwave-bench --decomposition auto --top K` (the same ranked
                    configs): for each k <= K, the fastest in PICK of the simulator's k fastest,
                    timed by JUDGE (a timing that did not choose it), as the heuristic "NAME, top k"
  FILE.csv          every other lastwave-bench CSV; its 128x128x64 1x1 dp / streamk / cutlass rows
                    are the fixed-tile rules
  --ceiling A B     two timings of the same configs (e.g. two kernel campaigns): each one's
                    fastest config per shape, judged by the other (the measurement's noise ceiling
                    for "of best measured")
"""
import csv
import gzip
import math
import sys
from collections import defaultdict

RULE_TILE, RULE_CLUSTER = "128x128x64", "1x1"
RULES = ("cutlass", "streamk", "dp")
WITHIN = (0.99, 0.95)  # "within 1 %" and "within 5 %" of the best measured time


def ok_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("ok") == "1"]


def key(r):
    return (int(r["m"]), int(r["n"]), int(r["k"]), int(r["sms"]))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def parse_args(argv):
    autos, shortlists, files = [], [], []
    it = iter(argv)
    for a in it:
        if a in ("--auto", "--shortlist"):
            name, _, path = next(it, "").partition("=")
            if not path or (a == "--shortlist" and len(path.split(",")) != 2):
                sys.exit(f"{a} needs NAME=" + ("FILE" if a == "--auto" else "PICK.csv,JUDGE.csv"))
            (autos if a == "--auto" else shortlists).append((name, path))
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            files.append(a)
    if not autos and not shortlists:
        sys.exit(__doc__)
    return autos, shortlists, files


def rank(r):
    """A row's auto_rank (files written before --top existed: 1)."""
    return int(r.get("auto_rank") or 1)


def config(r):
    return (r["tile"], r["cluster"], r.get("picked") or r["decomposition"])


def shortlist_picks(name, pick_path, judge_path):
    """{f"{name}, top {k}": {(m, n, k, sms): JUDGE's row of the kept config}} for each k."""
    ranked, judged = defaultdict(list), {}
    for r in ok_rows(pick_path):
        ranked[key(r)].append(r)
    for r in ok_rows(judge_path):
        judged[(key(r), config(r))] = r
    out = {}
    for k in range(1, max((rank(r) for rows in ranked.values() for r in rows), default=0) + 1):
        kept = {}
        for shape, rows in ranked.items():
            listed = [r for r in rows if rank(r) <= k]
            pick = min(listed, key=lambda r: float(r["median_ms"]))
            if (shape, config(pick)) in judged:
                kept[shape] = judged[(shape, config(pick))]
        out[f"{name}, top {k}"] = kept
    return out


def heuristics(autos, shortlists, files):
    """{name: {(m, n, k, sms): row}} and the best measured time per (m, n, k, sms)."""
    picks, best = {}, defaultdict(lambda: math.inf)
    for name, path in autos:
        picks[name] = {key(r): r for r in ok_rows(path) if rank(r) == 1}
    for name, paths in shortlists:
        picks.update(shortlist_picks(name, *paths.split(",")))
    for rule in RULES:
        picks[f"`{rule}` rule, 128x128"] = {}
    for path in files + [p for _, p in autos] + [p for _, ps in shortlists for p in ps.split(",")]:
        for r in ok_rows(path):
            best[key(r)] = min(best[key(r)], float(r["median_ms"]))
            is_rule = (r["tile"] == RULE_TILE and r["cluster"] == RULE_CLUSTER
                       and r["decomposition"] in RULES)
            if is_rule and path in files:
                picks[f"`{r['decomposition']}` rule, 128x128"][key(r)] = r
    return picks, best


def table(picks, best, auto_names):
    print("| SMs | heuristic | shapes | vs cuBLAS (geomean) | of best measured (geomean) "
          "| worst shape | within 1 % | within 5 % | predicted vs measured, median abs. |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for sms in sorted({k[3] for name in auto_names for k in picks[name]}, reverse=True):
        for name, rows in picks.items():
            mine = {k: r for k, r in rows.items() if k[3] == sms}
            if not mine:
                continue
            t = {k: float(r["median_ms"]) for k, r in mine.items()}
            share = [best[k] / t[k] for k in t]
            cublas = [float(r["cublas_ms"]) / t[k] for k, r in mine.items()]
            within = [sum(s >= w for s in share) / len(share) for w in WITHIN]
            errs = sorted(abs(float(r["predicted_us"]) / 1e3 / t[k] - 1)
                          for k, r in mine.items() if float(r.get("predicted_us") or -1) > 0)
            err = f"{100 * errs[len(errs) // 2]:.1f} %" if errs else "-"
            print(f"| {sms} | {name} | {len(t)} | {geomean(cublas):.3f}x | "
                  f"{100 * geomean(share):.1f} % | {100 * min(share):.1f} % | "
                  f"{100 * within[0]:.1f} % | {100 * within[1]:.1f} % | {err} |")


def ceiling(path_a, path_b):
    """Each file's fastest config per (shape, SM count), timed in the other file."""
    times = []
    for path in (path_a, path_b):
        t = defaultdict(dict)
        for r in ok_rows(path):
            t[key(r)][config(r)] = float(r["median_ms"])
        times.append(t)
    print("| SMs | fastest in | judged by | shapes | of best measured (geomean) | worst shape |")
    print("|---:|---|---|---:|---:|---:|")
    names = (path_a, path_b)
    for sms in sorted({k[3] for k in times[0]}, reverse=True):
        for a, b in ((0, 1), (1, 0)):
            share = []
            for k, configs in times[a].items():
                common = {c: v for c, v in times[b].get(k, {}).items() if c in configs}
                if k[3] != sms or len(common) < 2:
                    continue
                pick = min(common, key=lambda c: configs[c])
                share.append(min(common.values()) / common[pick])
            if share:
                print(f"| {sms} | `{names[a]}` | `{names[b]}` | {len(share)} | "
                      f"{100 * geomean(share):.1f} % | {100 * min(share):.1f} % |")


def main(argv):
    if argv[:1] == ["--ceiling"]:
        if len(argv) != 3:
            sys.exit(__doc__)
        ceiling(argv[1], argv[2])
        return
    autos, shortlists, files = parse_args(argv)
    picks, best = heuristics(autos, shortlists, files)
    table(picks, best, [n for n in picks if not n.endswith("rule, 128x128")])


if __name__ == "__main__":
    main(sys.argv[1:])

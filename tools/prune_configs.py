#!/usr/bin/env python3
"""The configurations worth timing again: from lastwave-bench CSVs, every tile x cluster x
decomposition whose median came within WITHIN % of the fastest ok row of some (shape, SM count),
as a CSV that `lastwave-bench --configs` reads (cuda/bench/heldout_check.sh CONFIGS=FILE). A
config never that close to any shape's best in the runs given is left out; the comment lines say
which files, which threshold and how many were kept. Standard library only.

usage: tools/prune_configs.py FILE.csv[.gz]... [--within PCT] [--out OUT.csv]
  --within PCT  keep configs within PCT % of a shape's fastest row (default 3: one median's noise)
  --out FILE    write there (atomically: a temporary file renamed); default stdout
"""
import csv
import gzip
import os
import sys
import tempfile
from collections import defaultdict

DEFAULT_WITHIN_PCT = 3.0  # the run-to-run noise of one median (docs/PERFORMANCE.md)
CONFIG_COLUMNS = ("tile", "cluster", "decomposition")
GROUP_COLUMNS = ("m", "n", "k", "sms")


def fail(message):
    print(f"prune_configs.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    files, within, out = [], DEFAULT_WITHIN_PCT, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--within", "--out"):
            if i + 1 >= len(argv):
                fail(f"{a} needs a value")
            value = argv[i + 1]
            i += 2
            if a == "--out":
                out = value
                continue
            try:
                within = float(value)
            except ValueError:
                fail(f"--within: '{value}' is not a number")
            if not 0 <= within <= 100:
                fail(f"--within must be within 0..100, not {value}")
        elif a.startswith("-"):
            fail(f"unknown option '{a}' (usage: FILE.csv[.gz]... [--within PCT] [--out OUT.csv])")
        else:
            files.append(a)
            i += 1
    if not files:
        fail("give at least one lastwave-bench CSV")
    return files, within, out


def ok_rows(path):
    """(group, config, median) of the ok rows of one lastwave-bench CSV."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in CONFIG_COLUMNS + GROUP_COLUMNS + ("median_ms", "ok")
                       if c not in (reader.fieldnames or [])]
            if missing:
                fail(f"{path}: missing column(s) {', '.join(missing)}")
            for line, r in enumerate(reader, start=2):
                if r["ok"] != "1":
                    continue
                try:
                    median = float(r["median_ms"])
                except ValueError:
                    fail(f"{path}:{line}: median_ms '{r['median_ms']}' is not a number")
                yield tuple(r[c] for c in GROUP_COLUMNS), tuple(r[c] for c in CONFIG_COLUMNS), median
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def kept_configs(files, within):
    """config -> the number of (shape, SM count) groups it came within `within` % of the best."""
    times = defaultdict(dict)  # group -> config -> fastest median of that config
    for path in files:
        for group, config, median in ok_rows(path):
            best = times[group].get(config)
            times[group][config] = median if best is None else min(best, median)
    if not times:
        fail("no ok rows in the files given")
    close = defaultdict(int)
    for configs in times.values():
        limit = min(configs.values()) * (1 + within / 100)
        for config, median in configs.items():
            if median <= limit:
                close[config] += 1
    return close, len(times), len({c for configs in times.values() for c in configs})


def render(files, within, close, groups, seen):
    lines = [f"# tools/prune_configs.py --within {within:g}: {len(close)} of {seen} configs came "
             f"within {within:g} % of the fastest on at least one of {groups} (shape, SM count) groups",
             "# from: " + " ".join(files),
             ",".join(CONFIG_COLUMNS) + ",groups_within"]
    order = sorted(close.items(), key=lambda kv: (-kv[1], kv[0]))
    lines += [",".join(config) + f",{count}" for config, count in order]
    return "\n".join(lines) + "\n"


def write(out, text):
    if out is None:
        sys.stdout.write(text)
        return
    folder = os.path.dirname(os.path.abspath(out))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".prune_configs.")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")


def main(argv):
    files, within, out = parse_args(argv)
    close, groups, seen = kept_configs(files, within)
    write(out, render(files, within, close, groups, seen))


if __name__ == "__main__":
    main(sys.argv[1:])

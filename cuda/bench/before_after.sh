#!/usr/bin/env bash
# Before/after of a kernel change in one device command: the same lastwave-bench rows from two
# builds, shape chunk by shape chunk in turn, the builds taking turns to go first (before, after;
# then after, before), so that the card's drift and any advantage of running second fall on both;
# cuBLAS times in every row of each. tools/before_after.py turns the two CSVs into tables.
# Usage: cuda/bench/before_after.sh BEFORE_BIN AFTER_BIN OUT_DIR NAME SHAPES.csv [bench args...]
# Writes OUT_DIR/NAME-before.csv and OUT_DIR/NAME-after.csv (and NAME-log.txt).
set -uo pipefail
BEFORE=$1
AFTER=$2
OUT=$3
NAME=$4
SHAPES=$5
shift 5
CHUNK=${CHUNK:-10}  # shapes per turn
mkdir -p "$OUT"
work=$(mktemp -d)
grep '^[0-9]' "$SHAPES" | split -d -a 3 -l "$CHUNK" --additional-suffix=.csv - "$work/chunk-"
status=0
turn=0
for f in "$work"/chunk-*.csv; do
  sed -i '1i m,n,k' "$f"
  order=(before after)
  ((turn++ % 2)) && order=(after before)
  for side in "${order[@]}"; do
    bin=$BEFORE
    [[ $side == after ]] && bin=$AFTER
    "$bin/lastwave-bench" --shapes "$f" "$@" --out "${f%.csv}.$side.csv" >>"$OUT/$NAME-log.txt" 2>&1 ||
      status=1
  done
done
for side in before after; do
  first=1
  for f in "$work"/chunk-*."$side".csv; do
    if ((first)); then cat "$f"; else tail -n +2 "$f"; fi
    first=0
  done >"$OUT/$NAME-$side.csv"
done
rm -rf "$work"
exit $status

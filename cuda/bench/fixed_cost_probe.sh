#!/usr/bin/env bash
# The fixed-cost ladder of the smallest problems (cuda/README.md): each "M N K DECOMPOSITION TILE"
# case timed by lastwave-bench (cuBLAS beside it), then traced once: per CTA, kernel entry -> first
# segment (prologue), the segments, last segment -> exit (drain), and first entry -> last exit.
# Usage: cuda/bench/fixed_cost_probe.sh BIN_DIR OUT_DIR ["M N K DECOMPOSITION TILE" ...]
set -uo pipefail
BIN=$1
OUT=$2
shift 2
mkdir -p "$OUT/traces"
cases=("$@")
if ((${#cases[@]} == 0)); then
  cases=("22 64 120 dp 64x32" "1 8192 16 dp 64x128" "1 8192 16 dp 64x32" "64 4096 8 dp 64x32"
    "64 4096 8 dp 64x128" "24 16 16384 splitk:8 64x32" "24 16 16384 splitk:16 64x32"
    "2046 24 1032 dp 64x32" "1536 64 7168 splitk:4 64x64")
fi
status=0
for c in "${cases[@]}"; do
  read -r m n k decomp tile <<<"$c"
  name="${m}x${n}x${k}-${decomp/:/-}-$tile"
  "$BIN/lastwave-bench" --m "$m" --n "$n" --k "$k" --decomposition "$decomp" --tile "$tile" \
    --reps 50 --out "$OUT/$name.csv" >"$OUT/$name.txt" 2>&1 || status=1
  "$BIN/lastwave-bench" --m "$m" --n "$n" --k "$k" --decomposition "$decomp" --tile "$tile" \
    --reps 1 --warmup 3 --trace "$OUT/traces/$name.json" 2>&1 >/dev/null | grep '^trace' |
    sed "s|$OUT/traces/||" >>"$OUT/$name.txt"
  echo "== $c"
  cat "$OUT/$name.txt"
done | tee "$OUT/fixed-cost.txt"
exit $status

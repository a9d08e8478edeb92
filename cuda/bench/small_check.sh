#!/usr/bin/env bash
# Issue 29's small-problem table (docs/PERFORMANCE.md): every shape of configs/shapes/small-problems.csv
# on every kernel tile x cluster x the decompositions that suit small outputs, cuBLAS in every row,
# then a traced run of the smallest shapes (per-CTA timelines for the fixed-cost ladder).
# Usage: cuda/bench/small_check.sh BIN_DIR OUT_DIR [SMS]   (BIN_DIR holds lastwave-bench)
set -uo pipefail
BIN=$1
OUT=$2
SMS=${3:-132}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/small-card.txt"
"$BIN/lastwave-bench" --shapes configs/shapes/small-problems.csv --tile all \
  --cluster 1x1,2x1,1x2 --decomposition dp,splitk:2,splitk:4,splitk:8,splitk:16,streamk --sms "$SMS" \
  --out "$OUT/small-$SMS.csv" >"$OUT/small-$SMS-log.txt" 2>&1 || status=1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader |
  tee -a "$OUT/small-card.txt"
exit $status

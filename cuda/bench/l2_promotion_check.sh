#!/usr/bin/env bash
# Issue 30's misaligned-K table (docs/PERFORMANCE.md): each pair of configs/shapes/misaligned-pairs.csv
# (K % 64 != 0 and the next multiple of 64) on the large tiles x clusters, dp-persistent, with the
# operand loads' L2 promotion 0 / 128 / 256 bytes in one run (cuBLAS in every row, configs shuffled
# per shape so the card's heat falls on all alike).
# Usage: cuda/bench/l2_promotion_check.sh BIN_DIR OUT_DIR [SMS]   (BIN_DIR holds lastwave-bench)
set -uo pipefail
BIN=$1
OUT=$2
SMS=${3:-132}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/misaligned-card.txt"
"$BIN/lastwave-bench" --shapes configs/shapes/misaligned-pairs.csv --tile 128x256,256x128,128x128 \
  --cluster 1x1,2x1,1x2 --decomposition dp-persistent --l2-promotion 0,128,256 --shuffle 20261204 \
  --sms "$SMS" --out "$OUT/misaligned-$SMS.csv" >"$OUT/misaligned-$SMS-log.txt" 2>&1 || status=1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader |
  tee -a "$OUT/misaligned-card.txt"
exit $status

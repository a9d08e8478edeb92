#!/usr/bin/env bash
# Issue 30's 2x2-cluster tables (docs/PERFORMANCE.md): the misaligned-K pairs
# (configs/shapes/misaligned-pairs.csv) and the large-output shapes
# (configs/shapes/heldout-large-output.csv) on the large tiles x every cluster, dp-persistent and
# streamk, cuBLAS timed again beside every row, configurations shuffled per shape.
# Usage: cuda/bench/cluster_check.sh BIN_DIR OUT_DIR [SMS]   (BIN_DIR holds lastwave-bench)
set -uo pipefail
BIN=$1
OUT=$2
SMS=${3:-132}
mkdir -p "$OUT"
status=0
LARGE=(--tile 128x128,128x256,256x128 --cluster 1x1,2x1,1x2,2x2 --shuffle 20261204 --cublas-each
  --sms "$SMS")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/cluster-card.txt"
for set in misaligned-pairs heldout-large-output; do
  "$BIN/lastwave-bench" --shapes "configs/shapes/$set.csv" "${LARGE[@]}" \
    --decomposition dp-persistent,streamk --out "$OUT/$set-$SMS.csv" \
    >"$OUT/$set-$SMS-log.txt" 2>&1 || status=1
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader |
    tee -a "$OUT/cluster-card.txt"
done
exit $status

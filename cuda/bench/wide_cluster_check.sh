#!/usr/bin/env bash
# Clusters of 4 and 8 CTAs on the 64-row tiles (docs/PERFORMANCE.md): the held-out shapes furthest
# below cuBLAS (configs/shapes/heldout-worst.csv) on the 64-row tiles x every cluster and the
# 128-row tiles x the clusters they have, dp / splitk:2 / splitk:4 / streamk, configurations
# shuffled per shape, cuBLAS in every row; then the device's cluster residency per cluster size.
# Usage: cuda/bench/wide_cluster_check.sh BIN_DIR OUT_DIR [SMS] [SHAPES.csv]
#   BIN_DIR holds lastwave-bench and cluster_residency (tools/probes/cluster_residency.cu)
set -uo pipefail
BIN=$1
OUT=$2
SMS=${3:-132}
SHAPES=${4:-configs/shapes/heldout-worst.csv}
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/wide-card.txt"
"$BIN/cluster_residency" >"$OUT/cluster-residency.csv" || status=1
"$BIN/lastwave-bench" --shapes "$SHAPES" \
  --tile 64x64,64x96,64x128,64x192,64x256,128x128,128x160,128x192,128x224 \
  --cluster 1x1,2x1,1x2,2x2,4x1,1x4,4x2,2x4 --decomposition dp,splitk:2,splitk:4,streamk \
  --shuffle 20261204 --sms "$SMS" --out "$OUT/wide-$SMS.csv" >"$OUT/wide-$SMS-log.txt" 2>&1 ||
  status=1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader |
  tee -a "$OUT/wide-card.txt"
exit $status

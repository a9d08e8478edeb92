#!/usr/bin/env bash
# The chooser's hardware check (docs/HEURISTICS.md): lastwave-bench --decomposition auto (the
# simulator's in-process pick under MODEL) on shapes no calibration used, at 132 and 64 SMs, and the
# fixed-tile rules (128x128 1x1: dp, streamk, cutlass) beside it; cuBLAS in every row. The
# best-measured reference is cuda/bench/kernel_campaign.sh's rows on the same shapes.
# Usage: cuda/bench/chooser_check.sh BIN_DIR OUT_DIR MODEL.json [SHAPES.csv]
set -uo pipefail
BIN=$1
OUT=$2
MODEL=$3
SHAPES=${4:-configs/shapes/traffic-heldout-chooser.csv}
REPS=${REPS:-7}
WARMUP=${WARMUP:-1}
mkdir -p "$OUT"
start=$SECONDS
"$BIN/lastwave-bench" --shapes "$SHAPES" --decomposition auto --model "$MODEL" --sms 132,64 \
  --reps "$REPS" --warmup "$WARMUP" --out "$OUT/auto.csv" 2>"$OUT/auto-log.txt"
echo "[$((SECONDS - start)) s] auto rc=$?" >&2
"$BIN/lastwave-bench" --shapes "$SHAPES" --decomposition dp,streamk,cutlass --tile 128x128 \
  --sms 64 --reps "$REPS" --warmup "$WARMUP" --out "$OUT/rules-64.csv" 2>"$OUT/rules-log.txt"
echo "[$((SECONDS - start)) s] rules at 64 SMs rc=$?" >&2

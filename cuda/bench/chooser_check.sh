#!/usr/bin/env bash
# The chooser's hardware check (docs/HEURISTICS.md): lastwave-bench --decomposition auto (the
# simulator's in-process pick under MODEL) on shapes no calibration used, at 132 and 64 SMs, and the
# fixed-tile rules (128x128 1x1: dp, streamk, cutlass) beside it; cuBLAS in every row. The
# best-measured reference is cuda/bench/kernel_campaign.sh's rows on the same shapes.
# Usage: cuda/bench/chooser_check.sh BIN_DIR OUT_DIR MODEL.json [SHAPES.csv]
# Env: AUTO_SMS (default 132,64), CLUSTERS (restricts auto's clusters, e.g. 1x1,2x1; default: every
# cluster the model can cost), TAG (suffix of auto's CSV), RULES=0 skips the fixed-tile rules,
# TOP=K runs the simulator's K fastest configs of each shape (lastwave-bench --top; default 1).
set -uo pipefail
BIN=$1
OUT=$2
MODEL=$3
SHAPES=${4:-configs/shapes/traffic-heldout-chooser.csv}
AUTO_SMS=${AUTO_SMS:-132,64}
CLUSTERS=${CLUSTERS:-}
TAG=${TAG:-}
RULES=${RULES:-1}
TOP=${TOP:-1}
REPS=${REPS:-7}
WARMUP=${WARMUP:-1}
mkdir -p "$OUT"
start=$SECONDS
"$BIN/lastwave-bench" --shapes "$SHAPES" --decomposition auto --model "$MODEL" --sms "$AUTO_SMS" \
  ${CLUSTERS:+--cluster "$CLUSTERS"} --top "$TOP" --reps "$REPS" --warmup "$WARMUP" \
  --out "$OUT/auto$TAG.csv" \
  2>"$OUT/auto$TAG-log.txt"
echo "[$((SECONDS - start)) s] auto$TAG rc=$?" >&2
((RULES)) || exit 0
"$BIN/lastwave-bench" --shapes "$SHAPES" --decomposition dp,streamk,cutlass --tile 128x128 \
  --sms 64 --reps "$REPS" --warmup "$WARMUP" --out "$OUT/rules-64.csv" 2>"$OUT/rules-log.txt"
echo "[$((SECONDS - start)) s] rules at 64 SMs rc=$?" >&2

#!/usr/bin/env bash
# The H200 measurement campaign behind configs/measurements and ladder step 1 (docs/CHANGELOG.md,
# "Kernels, round by round"; its tables in the git history of docs/PERFORMANCE.md): calibration
# sweep (132 SMs and green-context partitions), benchmark table, traces, then the GPU suite and
# compute-sanitizer. Usage: cuda/bench/h200_campaign.sh BIN_DIR OUT_DIR
set -uo pipefail
BIN=$1
OUT=$2
S=configs/measurements
mkdir -p "$OUT/traces"
B="$BIN/lastwave-bench"
SWEEP=dp,splitk:2,splitk:4,streamk,cutlass
ALL=dp,dp-persistent,splitk:2,splitk:4,splitk-sep:2,streamk,cutlass,cutlass-dp,cutlass-streamk,cutlass-splitk:2,cutlass-seed,two-tile
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
  timeout 300 "$B" --shapes $S/shapes-sweep-132.csv --decomposition $SWEEP --reps 10 --warmup 2 \
    --out "$OUT/h200-sweep-132.csv"
  echo "sweep-132 rc=$?"
  timeout 200 "$B" --shapes $S/shapes-sweep-partitions.csv --decomposition $SWEEP --sms 8,32,64,96,128 \
    --reps 10 --warmup 2 --out "$OUT/h200-sweep-partitions.csv"
  echo "sweep-partitions rc=$?"
  timeout 120 "$B" --shapes $S/shapes-table.csv --decomposition $ALL --sms 132,96,64 --reps 20 \
    --out "$OUT/h200-table.csv"
  echo "table rc=$?"
  timeout 60 "$B" --shapes $S/shapes-traces.csv --decomposition dp,splitk:2,streamk,cutlass --reps 3 \
    --out "$OUT/traces/traces.csv" --trace "$OUT/traces/h200.json"
  echo "traces rc=$?"
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv
} >"$OUT/campaign-log.txt" 2>&1
tar -C "$OUT" -czf "$OUT/traces.tar.gz" traces && rm -rf "$OUT/traces"
SANITIZE_TIMEOUT_S=150 cuda/run_on_gpu.sh "$BIN" "$OUT" suite
SANITIZE_TIMEOUT_S=150 cuda/run_on_gpu.sh "$BIN" "$OUT/san" sanitize
cat "$OUT/san/gpu-suite-log.txt" >>"$OUT/gpu-suite-log.txt"
rm -rf "$OUT/san"
tail -n 5 "$OUT/campaign-log.txt"

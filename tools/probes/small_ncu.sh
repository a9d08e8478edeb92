#!/usr/bin/env bash
# Kernel-only durations of small GEMMs, ours against cuBLAS's (issue 29): for each
# "M N K DECOMPOSITION TILE" argument, lastwave-bench runs the config and cuBLAS once each under
# ncu (every gemm/cuBLAS kernel: gpu__time_duration, SM cycles active, instructions), so what the
# launch and the events add is left out. Rows to $OUT/small-ncu.csv, each case after a
# "# M N K DECOMPOSITION TILE" line. Binaries in $BIN (default .device-bin).
# Usage: OUT=DIR [BIN=DIR] tools/probes/small_ncu.sh "1 128 128 dp 64x32" ...
set -u
BIN=${BIN:-.device-bin}
M=gpu__time_duration.sum,sm__cycles_active.max,smsp__inst_executed.sum,launch__grid_size
for s in "$@"; do
  set -- $s
  echo "# $1 $2 $3 $4 $5" >>"$OUT/small-ncu.csv"
  timeout 120 ncu --clock-control none --metrics $M -k regex:'gemm|nvjet|sm90|cutlass' --csv \
    "$BIN/lastwave-bench" --m "$1" --n "$2" --k "$3" --decomposition "$4" --tile "$5" --reps 1 \
    --warmup 0 >>"$OUT/small-ncu.csv" 2>>"$OUT/small-ncu-log.txt"
  echo "$* rc=$?"
done

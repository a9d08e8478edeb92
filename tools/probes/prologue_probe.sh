#!/usr/bin/env bash
# Where a small GEMM's fixed cost goes (issue 29), ours against cuBLAS's kernel, one device command:
# for each "M N K DECOMPOSITION TILE" case, kernel-only ncu durations with the L2 flushed before
# the launch and left warm (--cache-control all / none: first-touch DRAM latency — code, tensor
# maps, operands — against the kernel's own path), then the warp-state stall breakdown of a
# flushed launch (WarpStateStats: "No Instruction" is instruction-cache misses, "Long Scoreboard"
# global/TMA waits, "Barrier" the CTA barrier). Rows to $OUT/prologue-{all,none}.csv and
# $OUT/prologue-stalls.txt, each case after a "# M N K DECOMPOSITION TILE" line.
# Usage: OUT=DIR [BIN=DIR] tools/probes/prologue_probe.sh "77 128 160 dp 64x16" ...
set -u
: "${OUT:?set OUT to the folder the results go to}"
mkdir -p "$OUT"
BIN=${BIN:-.device-bin}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/card.txt"
METRICS=gpu__time_duration.sum,sm__cycles_active.max,smsp__inst_executed.sum,launch__grid_size
KERNELS=regex:'gemm|nvjet|sm90'
for s in "$@"; do
  read -r m n k decomp tile <<<"$s"
  bench=("$BIN/lastwave-bench" --m "$m" --n "$n" --k "$k" --decomposition "$decomp" --tile "$tile"
    --cluster 1x1 --reps 1 --warmup 1)
  for cache in all none; do
    echo "# $s" >>"$OUT/prologue-$cache.csv"
    timeout 120 ncu --clock-control none --cache-control "$cache" --metrics "$METRICS" \
      -k "$KERNELS" --csv "${bench[@]}" >>"$OUT/prologue-$cache.csv" 2>>"$OUT/ncu-log.txt" ||
      echo "ncu $cache $s failed"
  done
  echo "# $s" >>"$OUT/prologue-stalls.txt"
  timeout 120 ncu --clock-control none --cache-control all --section WarpStateStats \
    --section LaunchStats -k "$KERNELS" "${bench[@]}" >>"$OUT/prologue-stalls.txt" 2>&1 ||
    echo "ncu stalls $s failed"
done

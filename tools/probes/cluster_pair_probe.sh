#!/usr/bin/env bash
# Why a 64-row one-tile CTA loses in a 2-CTA cluster and in its first k-tiles (docs/PERFORMANCE.md,
# "Clusters lose on small problems" and "The ping-pong form on that shape"), one device command: one
# M x N (default 730 x 744, a held-out shape) at several K on one tile, dp, clusters 1x1 / 2x1 / 1x2:
#  - timed rows, cuBLAS in each (pairs.csv);
#  - kernel-only ncu durations with the L2 flushed before each launch and left warm
#    (--cache-control all / none: first-touch DRAM traffic against the kernel's own ramp), ours and
#    cuBLAS's kernel (ncu-{all,none}.csv);
#  - ncu's warp-state and source-counter sections of the largest K, 1x1 against 2x1 (ncu-stalls.txt).
# Usage: OUT=DIR [BIN=DIR] tools/probes/cluster_pair_probe.sh [M N TILE K...]
set -u
DEFAULT_KS=(64 512 1576 6272)
# shellcheck source=tools/probes/kscan_args.sh
source "$(dirname "$0")/kscan_args.sh" "$@"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/card.txt"
{
  echo m,n,k
  for k in "${KS[@]}"; do echo "$M,$N,$k"; done
} >"$OUT/shapes.csv"
"$BIN/lastwave-bench" --shapes "$OUT/shapes.csv" --tile "$TILE" --cluster 1x1,2x1,1x2 \
  --decomposition dp --shuffle 7 --out "$OUT/pairs.csv" >"$OUT/pairs-log.txt" 2>&1 ||
  echo "timed rows failed"
METRICS=gpu__time_duration.sum,sm__cycles_active.max,lts__t_sectors.sum,dram__bytes_read.sum
for cache in all none; do
  for k in "${KS[@]}"; do
    echo "# $M $N $k dp $TILE" >>"$OUT/ncu-$cache.csv"
    timeout 120 ncu --clock-control none --cache-control "$cache" --metrics "$METRICS" \
      -k regex:'gemm|nvjet|sm90' --csv "$BIN/lastwave-bench" --m "$M" --n "$N" --k "$k" \
      --tile "$TILE" --cluster 1x1,2x1,1x2 --decomposition dp --reps 1 --warmup 1 \
      >>"$OUT/ncu-$cache.csv" 2>>"$OUT/ncu-log.txt" || echo "ncu $cache K=$k failed"
  done
done
last=${KS[${#KS[@]} - 1]}
timeout 180 ncu --clock-control none --section WarpStateStats --section SourceCounters \
  -k regex:gemm_kernel "$BIN/lastwave-bench" --m "$M" --n "$N" --k "$last" --tile "$TILE" \
  --cluster 1x1,2x1 --decomposition dp --reps 1 --warmup 0 >"$OUT/ncu-stalls.txt" 2>&1 ||
  echo "ncu stalls failed"

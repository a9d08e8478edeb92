#!/usr/bin/env bash
# Cold start of two builds side by side (issue 29's fixed cost): for each "M N K TILE" data-parallel
# case, lastwave-bench times both builds (L2 flushed before every sample, cuBLAS beside them), then
# ncu measures each build's kernel alone with the L2 flushed before the launch and left warm
# (--cache-control all / none): the flushed-minus-warm gap and dram__bytes_read beyond the operands
# are the first fetch of the kernel's code, parameters and tensor maps (docs/PERFORMANCE.md, "The
# cold start is our code's first fetch"). Rows to $OUT/timed-{a,b}.csv and $OUT/ncu.csv, each ncu
# case after a "# M N K TILE SIDE CACHE" line.
# Usage: OUT=DIR tools/probes/cold_start_ab.sh BIN_A BIN_B "730 744 64 64x96" "7 592 240 16x64" ...
set -u
: "${OUT:?set OUT to the folder the results go to}"
mkdir -p "$OUT"
A=$1
B=$2
shift 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader |
  tee "$OUT/card.txt"
echo m,n,k >"$OUT/shapes.csv"
tiles=()
for c in "$@"; do
  read -r m n k t <<<"$c"
  echo "$m,$n,$k" >>"$OUT/shapes.csv"
  tiles+=("$t")
done
tile_list=$(printf '%s\n' "${tiles[@]}" | sort -u | paste -sd,)
for side in a b; do
  bin=$A
  [[ $side == b ]] && bin=$B
  timeout 120 "$bin/lastwave-bench" --shapes "$OUT/shapes.csv" --tile "$tile_list" --decomposition dp \
    --reps 20 --out "$OUT/timed-$side.csv" >/dev/null 2>&1 || echo "timed $side failed"
done
for c in "$@"; do
  read -r m n k t <<<"$c"
  for side in a b; do
    bin=$A
    [[ $side == b ]] && bin=$B
    for cache in all none; do
      echo "# $c $side $cache" >>"$OUT/ncu.csv"
      timeout 60 ncu --clock-control none --cache-control "$cache" \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum -k regex:gemm_kernel --csv \
        "$bin/lastwave-bench" --m "$m" --n "$n" --k "$k" --tile "$t" --decomposition dp --reps 2 \
        --warmup 1 >>"$OUT/ncu.csv" 2>>"$OUT/ncu-log.txt" || echo "ncu $c $side $cache failed"
    done
  done
done

# Where a pair's MAC loop waits (issues 29 and 30: a 64x96 one-tile CTA's loop ran ~28 % longer in
# a 2x1 cluster than alone before step 13, and a ring of 10 stages did not help; on b964b7f the three
# cluster shapes take the same time, docs/PERFORMANCE.md): ncu's per-instruction warp stall
# sampling (SourceCounters) of one launch per cluster shape, dumped as the source page's CSV, so the
# stalls can be read per SASS instruction — the consumers' full-barrier waits, the producer's
# empty-barrier waits, the remote arrives. Exits cleanly since step 13, so the idle warps no longer
# park at an exit cluster barrier and pollute the sampling. BIN: the folder holding lastwave-bench
# (made absolute here: ncu needs the binary's absolute path).
# Usage: OUT=DIR tools/probes/pair_stall_ncu.sh BIN [M N K TILE]   (default 730 744 6272 64x96)
# e.g.   OUT=$PWD/stall tools/probes/pair_stall_ncu.sh $PWD/.device-bin/x
set -u
BIN=$(cd "$1" && pwd) || exit 1
M=${2:-730}
N=${3:-744}
K=${4:-6272}
TILE=${5:-64x96}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >"$OUT/card.txt"
for cluster in 1x1 2x1 1x2; do
  rep="$OUT/stall-$cluster"
  timeout 150 ncu --clock-control none --section SourceCounters --section WarpStateStats \
    --section SpeedOfLight -k regex:gemm_kernel --launch-count 1 --import-source no \
    --export "$rep" "$BIN/lastwave-bench" --m "$M" --n "$N" --k "$K" --tile "$TILE" \
    --cluster "$cluster" --decomposition dp --reps 1 --warmup 0 >>"$OUT/ncu-log.txt" 2>&1
  echo "$cluster rc=$?" >>"$OUT/card.txt"
  ncu --import "$rep.ncu-rep" --page source --csv --print-source sass >"$rep-sass.csv" 2>>"$OUT/ncu-log.txt"
  ncu --import "$rep.ncu-rep" --page details --csv >"$rep-details.csv" 2>>"$OUT/ncu-log.txt"
done
nvidia-smi --query-gpu=clocks.sm --format=csv,noheader >>"$OUT/card.txt"

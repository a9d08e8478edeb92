#!/usr/bin/env bash
# `best` over kernel configs from the command line: tile/cluster columns, --tile filters and
# their errors, --quiet, compare --plot and `lastwave plot --from`.
set -euo pipefail
lastwave="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# 1408x1440x4096: one full wave of 128x120 tiles wins under the unit model (tests/predict).
csv=$("$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule best --format csv)
grep -q '^1408,1440,4096,132,best,dp,132,64,0,0,132,62.0000,.*,128x120x64,1x1,ok,,,,,$' <<<"$csv"
json=$("$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule best --format json)
grep -q '"tile": "128x120x64"' <<<"$json"
grep -q '"cluster": "1x1"' <<<"$json"
# --tile restricts the search; a non-best schedule still takes any single tile.
csv=$("$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule best --tile 128x128x64 --format csv)
grep -q ',66.0000,.*,128x128x64,1x1,ok,,,,,$' <<<"$csv"
"$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule dp --tile 100x100x64 --format csv |
  grep -q ',100x100x64,1x1,ok,,,,,$'

# --top K: best's K fastest plans, rank 1 the row above, times in order, a `rank` column.
csv=$("$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule best --top 4 --format csv)
head -1 <<<"$csv" | grep -q ',tile,cluster,rank,status,reason,extrapolated,extrapolation,p10_us,p90_us$'
[[ $(tail -n +2 <<<"$csv" | wc -l) -eq 4 ]]
sed -n 2p <<<"$csv" | grep -q '^1408,1440,4096,132,best,dp,132,64,0,0,132,62.0000,.*,128x120x64,1x1,1,ok,,,,,$'
tail -n +2 <<<"$csv" | cut -d, -f18 | tr '\n' ' ' | grep -qx '1 2 3 4 '
tail -n +2 <<<"$csv" | cut -d, -f12 | sort -c -g  # fastest first
"$lastwave" predict --sms 132 --m 1408 --n 1440 --k 4096 --schedule best --top 2 |
  grep -Eq '^  best #2 -> .* [+][0-9]+[.][0-9] % vs #1$'

expect_error() {  # expect_error PATTERN ARGS...: rc 2, one line naming the problem
  local pattern="$1"
  shift
  local rc=0
  "$lastwave" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc -eq 2 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q -- "$pattern" "$tmp/err" ||
    { echo "FAIL: lastwave $* -> rc=$rc: $(cat "$tmp/err")"; exit 1; }
}
expect_error "tile 100x100x64 is not one the kernels have (16x64x64" \
  predict --sms 132 --m 128 --n 128 --k 128 --schedule best --tile 100x100x64
# A calibrated file from before the narrow tiles: best skips the listed tiles it cannot cost and
# says so in one stderr line (exit 0); listed alone, such a tile is a one-line error.
printf '{"model": "calibrated", "params": {}}\n' >"$tmp/legacy.json"
"$lastwave" predict --gpu h200 --m 16 --n 4096 --k 4096 --schedule best --tile 64x32,128x128 \
  --cluster 1x1 --model "$tmp/legacy.json" --format csv >"$tmp/out" 2>"$tmp/err"
[[ $(wc -l <"$tmp/err") -eq 1 ]] && grep -q ',128x128x64,1x1,ok,,,,,$' "$tmp/out" &&
  grep -q '^lastwave predict: note: best skips 1 of the 2 listed configs, which the model cannot cost; the first: tile 64x32x64 cluster 1x1: ' "$tmp/err" ||
  { echo "FAIL: best with an uncostable tile listed: $(cat "$tmp/err")"; exit 1; }
expect_error "tile 64x32x64 cluster 1x1: the calibrated model was fitted on tiles 64x128x64," \
  predict --gpu h200 --m 16 --n 4096 --k 4096 --schedule best --tile 64x32 --model "$tmp/legacy.json"
expect_error "bad tile '128x1x'" predict --sms 132 --m 128 --n 128 --k 128 --schedule best --tile 128x1x
expect_error "lists several; only --schedule best searches a list" \
  predict --sms 132 --m 128 --n 128 --k 128 --schedule dp --tile 128x128x64,128x256x64
expect_error "--top must be >= 1, got 0" \
  predict --sms 132 --m 128 --n 128 --k 128 --schedule best --top 0
expect_error "--top ranks the plans of --schedule best" \
  predict --sms 132 --m 128 --n 128 --k 128 --schedule dp --top 3
expect_error "top" predict --sms 132 --m 128 --n 128 --k 128 --schedule best --top three
expect_error "unknown --plot-kind" compare --sms 132 --m 128 --n 128 --k 128 --plot "$tmp/x.svg" --plot-kind pie

# --quiet: nothing on stderr (progress would print after its delay; here the run is short anyway,
# so also check that a non-quiet run prints nothing but progress lines).
printf 'm,n,k\n1536,1536,4096\n128,4096,4096\n700,3000,5000\n' >"$tmp/shapes.csv"
"$lastwave" compare --quiet --sms 132 --shapes "$tmp/shapes.csv" --schedule streamk,best \
  --plot "$tmp/heat.svg" >/dev/null 2>"$tmp/err"
[[ ! -s "$tmp/err" ]]
grep -c 'class="cell"' "$tmp/heat.svg" | grep -qx 3  # three shapes in three distinct (M, N) bins
"$lastwave" compare -q --sms 132 --shapes "$tmp/shapes.csv" --schedule streamk,best --format csv \
  --out "$tmp/cmp.csv"
head -1 "$tmp/cmp.csv" | grep -q '^m,n,k,sms,winner,makespan_dp,makespan_streamk,makespan_best,best_choice,best_tile,best_cluster$'
tail -1 "$tmp/cmp.csv" | grep -Eq ',[0-9]+x[0-9]+x64,[12]x[12]$'  # best's tile and cluster
# A compare CSV written before best_cluster existed still renders.
sed 's/,best_cluster$//; s/,[12]x[12]$//' "$tmp/cmp.csv" >"$tmp/old.csv"
"$lastwave" plot --from "$tmp/old.csv" --plot "$tmp/old.svg" --plot-winner config
tail -1 "$tmp/old.svg" | grep -qx '</svg>'
"$lastwave" plot --from "$tmp/cmp.csv" --plot "$tmp/cdf.svg" --plot-kind cdf
[[ $(grep -c '<polyline' "$tmp/cdf.svg") -eq 2 ]]  # dp and streamk (best is the reference)
tail -1 "$tmp/cdf.svg" | grep -qx '</svg>'
# The physical models have no cluster parameters: asking for a 2x1 cluster is a one-line error.
expect_error "has no parameters for cluster 2x1" \
  predict --gpu h200 --m 128 --n 128 --k 128 --schedule best --model roofline --cluster 2x1

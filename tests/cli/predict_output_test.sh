#!/usr/bin/env bash
# `lastwave predict/plan/compare` outputs: CSV columns the acceptance checks read, deadlock
# reporting, trace JSON, shapes files.
set -euo pipefail
lastwave="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

csv=$("$lastwave" predict --sms 132 --m 1536 --n 1536 --k 4096 --schedule dp,streamk,cutlass-seed,best --format csv)
header=$(head -1 <<<"$csv")
for col in m n k sms schedule choice tiles iters_per_tile sk_tiles sk_units makespan ideal efficiency tile cluster makespan_factor status reason extrapolated extrapolation p10_us p90_us; do
  grep -q "\(^\|,\)$col\(,\|$\)" <<<"$header" || { echo "missing column $col"; exit 1; }
done
# Seed numbers: dp 132, streamk 78; the seed heuristic picks StreamK with 144 tiles on 132 units.
grep -q '^1536,1536,4096,132,dp,DataParallel,144,64,0,0,144,132.0000,72.0000,0.5455,1.000000,128x128x64,1x1,ok,,,,,$' <<<"$csv"
grep -q '^1536,1536,4096,132,streamk,StreamK,144,64,144,132,132,78.0000,' <<<"$csv"
grep -q '^1536,1536,4096,132,cutlass-seed,StreamK,144,64,144,132,' <<<"$csv"
# best is never slower than any single schedule listed with it.
best=$(grep ',best,' <<<"$csv" | cut -d, -f12)
awk -v b="$best" 'BEGIN { exit !(b <= 78.0) }'

# A model file with residual trees (base 0.05; K >= 512 and SMs >= 100: leaf 0.3) reports its factor
# e^0.35 = 1.419068 beside the makespan, in CSV and JSON.
printf '{"model":"unit","params":{},"residual_trees":{"base":0.05,"features":["m","n","k","tile_m","tile_n","cluster_ctas","k_align","n_align","sms","cta_tiles","k_tiles","grid_ctas","waves","wave_fraction","split_mode","splits","split_tiles","split_units","dp_tiles","separate_reduction"],"trees":[{"feature":[2,-1,8,-1,-1],"left":[1,-1,3,-1,-1],"right":[2,-1,4,-1,-1],"threshold":[512,0,100,0,0],"value":[0,0.1,0,-0.2,0.3]}]}}\n' >"$tmp/trees.json"
trees=$("$lastwave" predict --sms 132 --m 1536 --n 1536 --k 4096 --schedule dp --model "$tmp/trees.json" --format csv)
# The factor scales the ideal too: efficiency stays the unit model's 72 / 132 (the ideal's 144 tiles
# x 66 time units over 132 SMs, against a makespan of two waves of 66).
grep -q '^1536,1536,4096,132,dp,DataParallel,144,64,0,0,144,187.3169,102.1729,0.5455,1.419068,128x128x64,1x1,ok,,,,,$' <<<"$trees"
"$lastwave" predict --sms 132 --m 1536 --n 1536 --k 4096 --schedule dp --model "$tmp/trees.json" \
  --format json | grep -q '"makespan_factor": 1.4190675'

# A model file that records its GPU and training range warns (one stderr line, exit 0, rows printed)
# when a case lies outside them, and says nothing inside them.
printf '{"model":"unit","params":{},"gpu":"h200","training_range":{"m":[1,4096],"n":[128,4096],"k":[128,8192],"sms":[16,132]}}\n' >"$tmp/ranged.json"
"$lastwave" predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule dp --model "$tmp/ranged.json" \
  -q >"$tmp/in.out" 2>"$tmp/in.err"
[[ ! -s "$tmp/in.err" ]] && grep -q 'dp -> DataParallel' "$tmp/in.out"
# --sms alone with a file that names its GPU: a partition of that GPU (no GPU warning; the same
# rows as --gpu h200 --sms N); a file without "gpu" means an N-SM chip with no rates, which the
# roofline model refuses in one line.
"$lastwave" predict --sms 132 --m 1536 --n 1536 --k 4096 --schedule dp --model "$tmp/ranged.json" \
  -q >/dev/null 2>"$tmp/sms.err"
[[ ! -s "$tmp/sms.err" ]]
printf '{"model":"roofline","params":{},"gpu":"h200"}\n' >"$tmp/roof-h200.json"
printf '{"model":"roofline","params":{}}\n' >"$tmp/roof-any.json"
roof() { "$lastwave" predict "$@" --m 4096 --n 4096 --k 4096 --schedule dp --format csv -q; }
[[ $(roof --sms 64 --model "$tmp/roof-h200.json") == $(roof --gpu h200 --sms 64 --model "$tmp/roof-h200.json") ]]
err=$(roof --sms 64 --model "$tmp/roof-any.json" 2>&1 >/dev/null) && exit 1
grep -qx "lastwave predict: error: model roofline needs a GPU's rates (TFLOP/s, L2 and DRAM TB/s); 64-sm has none: give --gpu NAME" <<<"$err"
printf 'm,n,k\n1536,1536,4096\n8192,1536,4096\n64,64,4096\n' >"$tmp/ranged.csv"
"$lastwave" predict --gpu h200 --sms 8 --shapes "$tmp/ranged.csv" --schedule dp --format csv \
  --model "$tmp/ranged.json" -q >"$tmp/out.csv" 2>"$tmp/out.err"
[[ $(wc -l <"$tmp/out.err") -eq 1 && $(grep -c ',dp,' "$tmp/out.csv") -eq 3 ]]
grep -qF "warning: model $tmp/ranged.json extrapolates: 2 of 3 shapes lie outside its training rows (M 1-4096, N 128-4096, K 128-8192 on 16-132 SMs); 8 SMs lie outside its training rows' 16-132" "$tmp/out.err"
"$lastwave" predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule dp --tile 64x72x64 \
  --model "$tmp/ranged.json" -q 2>&1 >/dev/null | grep -qF "extrapolates: tile 64x72x64 is not one of the kernels' (16x64x64,"
# A kernel tile in a cluster the kernels do not launch it in (128x120's B halves of 60 rows are not
# whole swizzle atoms) was never measured either; in one they do, no such line.
"$lastwave" predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule dp --tile 128x120x64 \
  --cluster 2x1 --model "$tmp/ranged.json" -q 2>&1 >/dev/null |
  grep -qF "extrapolates: the kernels do not launch tile 128x120x64 in cluster 2x1"
"$lastwave" predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule dp --tile 128x128x64 \
  --cluster 2x1 --model "$tmp/ranged.json" -q >/dev/null 2>"$tmp/pair.err"
! grep -q "do not launch" "$tmp/pair.err"
"$lastwave" predict --gpu b200 --m 1536 --n 1536 --k 4096 --schedule dp --model "$tmp/ranged.json" \
  -q 2>&1 >/dev/null | grep -qF "extrapolates: the GPU is b200, its measurements ran on h200"
# A calibrated file's fitted physics stays on its GPU: on another GPU every row is refused (exit 0,
# status 'refused', the reason names both GPUs); on a partition of its own GPU the rows are answered.
printf '{"model":"calibrated","params":{},"gpu":"h200"}\n' >"$tmp/cal-h200.json"
other=$("$lastwave" predict --gpu b200 --m 1536 --n 1536 --k 4096 --schedule dp,best \
  --model "$tmp/cal-h200.json" --format csv -q 2>"$tmp/other.err")
[[ $(grep -c ',refused,' <<<"$other") -eq 2 ]]
grep -q "was calibrated on h200; its fitted physics has no rule to carry it to b200" <<<"$other"
grep -q "2 of 2 rows refused" "$tmp/other.err"
# compare tabulates every row: on another GPU it stops with the reason, one line, non-zero exit.
printf 'm,n,k\n1536,1536,4096\n' >"$tmp/one.csv"
if "$lastwave" compare --gpu b200 --shapes "$tmp/one.csv" --schedule streamk \
  --model "$tmp/cal-h200.json" -q >"$tmp/cmp.out" 2>"$tmp/cmp.err"; then
  echo "FAIL: compare under an h200 calibration on b200 exits 0"
  exit 1
fi
[[ $(wc -l <"$tmp/cmp.err") -eq 1 && ! -s "$tmp/cmp.out" ]]
grep -q "was calibrated on h200; its fitted physics has no rule to carry it to b200" "$tmp/cmp.err"
own=$("$lastwave" predict --gpu h200 --sms 64 --m 1536 --n 1536 --k 4096 --schedule dp \
  --model "$tmp/cal-h200.json" --format csv -q)
grep -q ',ok,,,,,$' <<<"$own"
# compare warns alike, naming itself, and prints its table all the same.
"$lastwave" compare --gpu h200 --sms 8 --shapes "$tmp/ranged.csv" --schedule streamk \
  --model "$tmp/ranged.json" -q >"$tmp/out.txt" 2>"$tmp/out.err"
[[ $(wc -l <"$tmp/out.err") -eq 1 ]] && grep -q "^3 shapes on h200" "$tmp/out.txt"
grep -qF "lastwave compare: warning: model $tmp/ranged.json extrapolates: 2 of 3 shapes lie outside its training rows (M 1-4096, N 128-4096, K 128-8192 on 16-132 SMs); 8 SMs lie outside its training rows' 16-132" "$tmp/out.err"
"$lastwave" compare --gpu h200 --shapes "$tmp/ranged.csv" --schedule streamk --model "$tmp/ranged.json" \
  -q 2>&1 >/dev/null | grep -qF "lastwave compare: warning: model $tmp/ranged.json extrapolates: 2 of 3"
[[ -z $("$lastwave" compare --gpu h200 --m 1536 --n 1536 --k 4096 --schedule streamk \
  --model "$tmp/ranged.json" -q 2>&1 >/dev/null) ]]

# A Stream-K grid larger than the resident CTAs deadlocks; it is reported, not hung.
out=$("$lastwave" predict --sms 1 --m 256 --n 128 --k 640 --schedule streamk:3)
grep -q "DEADLOCK: deadlock at t=7: CTA 0 .* waits on flag 1 raised by -> CTA 1 (not resident" <<<"$out"

# plan --format csv: one row per segment with the required columns.
plan=$("$lastwave" plan --sms 4 --m 384 --n 384 --k 512 --schedule streamk --format csv)
head -1 <<<"$plan" | grep -q 'cta,.*tile_m,tile_n,k_begin,k_end,role'
# 9 tiles x 8 k-tiles = 72 iterations over 4 units of 18: unit 0 = tiles 0,1 whole + tile 2 k 0..2.
grep -q '^0,0,2,0,2,0,2,0,2,final,' <<<"$plan"
grep -q '^0,1,0,1,2,0,2,2,8,store_partial,' <<<"$plan"

# shapes file + compare summary.
printf 'm,n,k\n1536,1536,4096\n128,4096,4096\n4096,4096,4096\n' >"$tmp/shapes.csv"
cmp=$("$lastwave" compare --sms 132 --shapes "$tmp/shapes.csv" --schedule dp,streamk,splitk:4)
grep -q 'geomean vs dp' <<<"$cmp"
grep -q '128x  4096x  4096  winner splitk:4' <<<"$cmp"

# --trace writes Chrome-trace JSON with one track per SM.
"$lastwave" predict --sms 4 --m 384 --n 384 --k 512 --schedule streamk --trace "$tmp/t.json" >/dev/null
grep -q '"traceEvents"' "$tmp/t.json"
grep -q '"name":"store"' "$tmp/t.json"

# plan's header names the kernels' consumer form (plan_runs_pingpong): 1,024 128x128 tiles over
# 132 persistent CTAs run ping-pong; one tile per CTA runs cooperative.
head=$("$lastwave" plan --gpu h200 --m 4096 --n 4096 --k 4096 --schedule dp-persistent)
grep -q ', consumers pingpong$' <<<"${head%%$'\n'*}"
head=$("$lastwave" plan --gpu h200 --m 4096 --n 4096 --k 4096 --schedule dp)
grep -q ', kernel form whole-tile, consumers cooperative$' <<<"${head%%$'\n'*}"
# ... and its form: a plan with a split region, or C rows the TMA cannot store, runs the general one.
head=$("$lastwave" plan --gpu h200 --m 4096 --n 4096 --k 4096 --schedule splitk:2)
grep -q ', kernel form general, consumers cooperative$' <<<"${head%%$'\n'*}"
head=$("$lastwave" plan --gpu h200 --m 4096 --n 4100 --k 4096 --schedule dp)
grep -q ', kernel form general, consumers cooperative$' <<<"${head%%$'\n'*}"
# splitk-dsm: its own form where a CTA holds the S - 1 partials (16x64 at 4 splits), none on
# 128x128 (the ring fills the shared memory).
head=$("$lastwave" plan --gpu h200 --m 64 --n 512 --k 4096 --tile 16x64x64 --schedule splitk-dsm:4)
grep -q ', kernel form splitk-dsm (clusters of 4 CTAs; .*), consumers cooperative$' <<<"${head%%$'\n'*}"
head=$("$lastwave" plan --gpu h200 --m 512 --n 512 --k 4096 --schedule splitk-dsm:2)
grep -q ', kernel form none (the kernels run splitk-dsm:2 only where a CTA holds 1 partial beside its ring)$' <<<"${head%%$'\n'*}"

# models --check lists a fitted file's values above their physical ceilings on its GPU.
check=$("$lastwave" models --check configs/models/h200-bf16-wgmma-r17.json)
grep -q 'mma_tflops_per_sm 10.68 TFLOP/s is above 8.242 on h200' <<<"$check"
grep -q 'l2_reuse_mib 313.8 MiB is above 60 on h200' <<<"$check"

# compare on 6 SMs: splitk-dsm:8's clusters of 8 fit nowhere, every run is a deadlock: its geomean
# is "-" (not 0.000x); splitk-dsm:2's clusters fit (3 of them) and it has one.
printf 'm,n,k\n1536,1536,4096\n128,4096,4096\n' >"$tmp/two.csv"
table=$("$lastwave" compare --sms 6 --shapes "$tmp/two.csv" --schedule splitk-dsm:2,splitk-dsm:8)
grep -Eq '^  splitk-dsm:8 +- +0\.0% +0 +2$' <<<"$table"
grep -Eq '^  splitk-dsm:2 +[0-9.]+x ' <<<"$table"

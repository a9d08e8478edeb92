#!/usr/bin/env bash
# The coverage columns of `lastwave predict` / `compare` (docs/CALIBRATION.md, "Where the model is
# right"): under r17 a far-away shape (59136^3, K = 8) is flagged extrapolated with its reason and a
# widened interval, in-range shapes are not; a model without coverage leaves the columns empty.
set -euo pipefail
lastwave="$1"
r17="configs/models/h200-bf16-wgmma-r17.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf 'm,n,k\n4096,4096,4096\n59136,59136,59136\n4096,4096,8\n1536,1536,4096\n' >"$tmp/shapes.csv"

"$lastwave" predict --gpu h200 --model "$r17" --shapes "$tmp/shapes.csv" --schedule dp \
  --format csv -q >"$tmp/out.csv" 2>"$tmp/err"
head -1 "$tmp/out.csv" | grep -q ',status,reason,extrapolated,extrapolation,p10_us,p90_us$'
# In range: not flagged; the interval is r17's dp band (validation p10 0.937819, p90 1.040412)
# times the makespan: 212.578 x 0.937819 = 199.360, x 1.040412 = 221.169.
grep -q '^4096,4096,4096,132,dp,.*,212.578,128x128x64,1x1,ok,,false,,199.360,221.169$' "$tmp/out.csv"
grep -q '^1536,1536,4096,132,dp,.*,ok,,false,,[0-9.]*,[0-9.]*$' "$tmp/out.csv"
# 188x the largest trained volume, and K = 8 (the training rows' K starts at 128): flagged, with the
# distance, the nearest trained shape and the dominant feature.
grep -qF '59136,59136,59136,132,dp,DataParallel,213444,924,0,0,213444,1264632.4599,500888.2046,0.3961,1.043922,1264632.460,128x128x64,1x1,ok,,true,distance 2.0 sd > 0.3 from the nearest trained shape 4096x16384x16384 and SM count 132; mostly m*n*k: 59136x59136x59136 is 1.3 sd above it,919559.099,1696966.142' "$tmp/out.csv"
grep -qF '4096,4096,8,132,dp,DataParallel,1024,1,0,0,1024,34.5918,13.1151,0.3791,0.937045,34.592,128x128x64,1x1,ok,,true,distance 2.0 sd > 0.3 from the nearest trained shape 2069x4208x128 and SM count 132; mostly k: 8 is 1.9 sd below it,25.215,46.303' "$tmp/out.csv"
# One summary line on stderr beside the training-range warning.
grep -qx 'lastwave predict: 2 of 4 rows extrapolated, the first: 59136x59136x59136: distance 2.0 sd > 0.3 from the nearest trained shape 4096x16384x16384 and SM count 132; mostly m\*n\*k: 59136x59136x59136 is 1.3 sd above it' "$tmp/err"
[[ $(wc -l <"$tmp/err") -eq 2 ]]

# A decomposition r17 never saw (splitk-dsm): flagged with that reason on an in-range shape, its
# interval the all-rows band, and counted in the summary line.
"$lastwave" predict --gpu h200 --model "$r17" --m 4096 --n 4096 --k 4096 --schedule splitk:2,splitk-dsm:2 \
  --format csv -q >"$tmp/dsm.csv" 2>"$tmp/dsm.err"
grep -q '^4096,4096,4096,132,splitk:2,.*,ok,,false,,[0-9.]*,[0-9.]*$' "$tmp/dsm.csv"
grep -q '^4096,4096,4096,132,splitk-dsm:2,.*,ok,,true,splitk-dsm was not in the calibration (no validation rows of it),[0-9.]*,[0-9.]*$' "$tmp/dsm.csv"
grep -q '^lastwave predict: 1 of 2 rows extrapolated, the first: 4096x4096x4096: splitk-dsm was not' "$tmp/dsm.err"
"$lastwave" predict --gpu h200 --model "$r17" --m 4096 --n 4096 --k 4096 --schedule splitk:2,splitk-dsm:2 \
  -q 2>/dev/null >"$tmp/dsm.txt"
grep -qx '    EXTRAPOLATED: splitk-dsm was not in the calibration (no validation rows of it)' "$tmp/dsm.txt"
[[ $(grep -c EXTRAPOLATED "$tmp/dsm.txt") -eq 1 ]]

# JSON and the table carry the same.
"$lastwave" predict --gpu h200 --model "$r17" --m 4096 --n 4096 --k 8 --schedule dp --format json \
  -q 2>/dev/null | grep -q '"extrapolated": true'
"$lastwave" predict --gpu h200 --model "$r17" --m 4096 --n 4096 --k 8 --schedule dp -q 2>/dev/null |
  grep -q '^  EXTRAPOLATED: distance 2.0 sd > 0.3 from the nearest trained shape 2069x4208x128'
"$lastwave" predict --gpu h200 --model "$r17" --m 4096 --n 4096 --k 4096 --schedule dp -q \
  2>/dev/null | grep -q 'eff   76.4%  p10-p90 199.4-221.2$'
# compare: the winner's interval, the far shapes marked.
"$lastwave" compare --gpu h200 --model "$r17" --shapes "$tmp/shapes.csv" -q 2>/dev/null >"$tmp/cmp"
grep -q '^ 59136x 59136x 59136  winner .*EXTRAPOLATED$' "$tmp/cmp"
grep -q '^  4096x  4096x  4096  winner .* p10-p90 [0-9.]*-[0-9.]*$' "$tmp/cmp"

# compare's CSV: the shape's flag and reason, then each schedule's interval (dp's as predict's);
# `lastwave plot` reads it back by column name and counts the flagged shapes in the subtitle.
"$lastwave" compare --gpu h200 --model "$r17" --shapes "$tmp/shapes.csv" --schedule dp,streamk \
  --format csv -q 2>/dev/null >"$tmp/cmp.csv"
head -1 "$tmp/cmp.csv" |
  grep -qx 'm,n,k,sms,winner,makespan_dp,makespan_streamk,extrapolated,extrapolation,p10_dp,p90_dp,p10_streamk,p90_streamk'
grep -q '^4096,4096,4096,132,[a-z]*,212.5780,[0-9.]*,false,,199.360,221.169,[0-9.]*,[0-9.]*$' "$tmp/cmp.csv"
grep -qF '4096,4096,8,132,' "$tmp/cmp.csv"
grep -q '^4096,4096,8,132,.*,true,distance 2.0 sd > 0.3 from the nearest trained shape 2069x4208x128 and SM count 132; mostly k: 8 is 1.9 sd below it,25.215,46.303,[0-9.]*,[0-9.]*$' "$tmp/cmp.csv"
"$lastwave" plot --from "$tmp/cmp.csv" --plot "$tmp/cmp.svg" --plot-kind cdf
grep -q '2 of 4 shapes extrapolated' "$tmp/cmp.svg"
# A coverage column missing its partner is refused with file:line.
cut -d, -f1-12 "$tmp/cmp.csv" >"$tmp/cut.csv"
if "$lastwave" plot --from "$tmp/cut.csv" --plot "$tmp/cut.svg" 2>"$tmp/cut.err"; then exit 1; fi
grep -q 'cut.csv:1: coverage columns lack p10_streamk / p90_streamk' "$tmp/cut.err"
[[ ! -e "$tmp/cut.svg" ]]

# No coverage (the unit model): the four columns empty, JSON null, no summary line.
"$lastwave" predict --gpu h200 --m 4096 --n 4096 --k 8 --schedule dp --format csv -q \
  2>"$tmp/unit.err" | grep -q ',ok,,,,,$'
[[ ! -s "$tmp/unit.err" ]]
"$lastwave" predict --gpu h200 --m 4096 --n 4096 --k 8 --schedule dp --format json -q |
  grep -q '"p10_us": null'
"$lastwave" compare --gpu h200 --shapes "$tmp/shapes.csv" --schedule dp,streamk --format csv -q |
  head -1 | grep -qx 'm,n,k,sms,winner,makespan_dp,makespan_streamk'
echo PASS

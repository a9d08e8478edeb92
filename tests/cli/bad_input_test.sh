#!/usr/bin/env bash
# Bad input to `lastwave` gives one line on stderr naming the problem, a non-zero exit, no crash,
# and never a half-written output file.
set -uo pipefail
lastwave="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0

expect_error() {  # expect_error PATTERN ARGS...
  local pattern="$1"
  shift
  "$lastwave" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $rc -eq 0 || $rc -ge 128 || $lines -ne 1 ]] || ! grep -q -- "$pattern" "$tmp/err"; then
    echo "FAIL: lastwave $* -> rc=$rc, stderr:"
    cat "$tmp/err"
    failures=$((failures + 1))
  fi
}

printf 'm,n,k\n128,128,128\n64,x,3\n' >"$tmp/bad_value.csv"
printf 'a,b,c\n1,2,3\n' >"$tmp/bad_header.csv"
printf 'm,n,k\n128,128\n' >"$tmp/short_row.csv"
printf 'm,n,k\n' >"$tmp/no_rows.csv"

expect_error "m must be >= 1" predict --gpu h200 --m 0 --n 128 --k 128
expect_error "must be >= 1" predict --gpu h200 --m -5 --n 128 --k 128
expect_error "is invalid" predict --gpu h200 --m abc --n 128 --k 128
expect_error "overflows" predict --gpu h200 --m 1099511627776 --n 1048576 --k 1048576
expect_error "unknown GPU 'h999'" predict --gpu h999 --m 128 --n 128 --k 128
expect_error "unknown schedule 'foo'" predict --gpu h200 --m 128 --n 128 --k 128 --schedule dp,foo
expect_error "split count" predict --gpu h200 --m 128 --n 128 --k 128 --schedule splitk
expect_error "positive integer" predict --gpu h200 --m 128 --n 128 --k 128 --schedule splitk:0
expect_error "bad_value.csv:3" predict --gpu h200 --shapes "$tmp/bad_value.csv"
expect_error "bad_header.csv:1: header must name" predict --gpu h200 --shapes "$tmp/bad_header.csv"
expect_error "short_row.csv:2: missing column" predict --gpu h200 --shapes "$tmp/short_row.csv"
expect_error "no shapes" predict --gpu h200 --shapes "$tmp/no_rows.csv"
expect_error "cannot read" predict --gpu h200 --shapes "$tmp/missing.csv"
expect_error "unknown cost model" predict --gpu h200 --m 128 --n 128 --k 128 --model nope
# A model whose calibration did not determine store_us (an fp32 partial tile's store): with
# --strict, refused (exit 2) where the schedule stores partials (the parameter moves the case),
# accepted where it does not (dp).
printf '{"model":"calibrated","params":{"store_us":3.0},"undetermined":["store_us"]}\n' \
  >"$tmp/undetermined.json"
expect_error "store_us' was not determined" predict --gpu h200 --m 512 --n 512 --k 1001 \
  --schedule splitk:2 --model "$tmp/undetermined.json" --strict --out "$tmp/strict.csv"
if [[ -e "$tmp/strict.csv" ]]; then
  echo "FAIL: predict --strict wrote its output although a row was refused"
  failures=$((failures + 1))
fi
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1001 --schedule dp --model "$tmp/undetermined.json" \
  --strict >"$tmp/out" 2>"$tmp/err"
rc=$?
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1001 --schedule splitk:2 \
  --model "$tmp/undetermined.json" --strict >/dev/null 2>&1
rc_bad=$?
if [[ $rc -ne 0 || $rc_bad -ne 2 ]]; then
  echo "FAIL: undetermined-parameter model: dp rc=$rc (want 0), splitk:2 rc=$rc_bad (want 2)"
  failures=$((failures + 1))
fi
# Without --strict every row is answered: a batch whose split-K rows the parameter moves gives its
# rows, those with status refused and the reason, exit 0, one summary line on stderr.
printf 'm,n,k\n512,512,1000\n512,512,1001\n1024,256,4096\n' >"$tmp/mixed.csv"
"$lastwave" predict --gpu h200 --shapes "$tmp/mixed.csv" --schedule dp,splitk:2 \
  --model "$tmp/undetermined.json" --format csv -q >"$tmp/out" 2>"$tmp/err"
rc=$?
ok_rows=$(grep -c ',dp,DataParallel,.*,ok,,,,,$' "$tmp/out")
refused_rows=$(grep -c "^[0-9]*,[0-9]*,[0-9]*,132,splitk:2,SplitK(s=2),16,[0-9]*,16,32,32,refused,refused,refused,refused,refused,128x128x64,1x1,refused,model .*store_us' was not determined" "$tmp/out")
if [[ $rc -ne 0 || $(wc -l <"$tmp/out") -ne 7 || $ok_rows -ne 3 || $refused_rows -ne 3 ||
  $(wc -l <"$tmp/err") -ne 1 ]] || ! grep -q "^lastwave predict: 3 of 6 rows refused" "$tmp/err"; then
  echo "FAIL: predict batch with refused rows: rc=$rc, ok rows $ok_rows, refused rows $refused_rows"
  cat "$tmp/out" "$tmp/err"
  failures=$((failures + 1))
fi
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1001 --schedule splitk:2 \
  --model "$tmp/undetermined.json" --format json -q >"$tmp/out" 2>/dev/null
if ! grep -q '"status": "refused"' "$tmp/out" || ! grep -q '"makespan": null' "$tmp/out"; then
  echo "FAIL: a refused row in JSON has no status 'refused' or a makespan"
  failures=$((failures + 1))
fi
# A refused best row names no pick in the table (the model could not cost its pick: 4 tiles of
# 256 k-tiles, which only a split schedule spreads over the SMs), while dp is answered.
"$lastwave" predict --gpu h200 --m 256 --n 256 --k 16384 --schedule dp,best --tile 128x128x64 \
  --cluster 1x1 --model "$tmp/undetermined.json" -q >"$tmp/out" 2>/dev/null
if ! grep -qE '^  best +REFUSED: ' "$tmp/out" || ! grep -qE '^  dp -> DataParallel +[0-9.]+ +eff' "$tmp/out"; then
  echo "FAIL: a refused best row in the table names a pick, or the dp row is missing"
  cat "$tmp/out"
  failures=$((failures + 1))
fi
# The same for best's ranked plans (--top): each listed config is probed too.
expect_error "store_us' was not determined" predict --gpu h200 --m 256 --n 256 --k 16384 \
  --schedule best --top 3 --tile 128x128x64 --cluster 1x1 --model "$tmp/undetermined.json" --strict
# compare prints every row all the same, with one warning naming the parameter (none once --param
# sets it).
"$lastwave" compare --gpu h200 --m 512 --n 512 --k 1001 --schedule splitk:2 \
  --model "$tmp/undetermined.json" -q >"$tmp/out" 2>"$tmp/err"
rc=$?
"$lastwave" compare --gpu h200 --m 512 --n 512 --k 1001 --schedule splitk:2 \
  --model "$tmp/undetermined.json" --param store_us=0.5 -q >/dev/null 2>"$tmp/err-set"
if [[ $rc -ne 0 ]] || ! grep -qE "512x +512x +1001" "$tmp/out" ||
  ! grep -qF "lastwave compare: warning: model $tmp/undetermined.json: its calibration data did not determine store_us;" "$tmp/err" ||
  grep -q "did not determine" "$tmp/err-set"; then
  echo "FAIL: compare under an undetermined parameter: rc=$rc, stderr: $(cat "$tmp/err" "$tmp/err-set")"
  failures=$((failures + 1))
fi
# The same model with residual trees (one leaf: every makespan x e^0.5): the probe of the
# undetermined parameter keeps the trees, so dp is still accepted, split-K refused.
printf '{"model":"calibrated","params":{"store_us":3.0},"undetermined":["store_us"],%s}\n' \
  '"residual_trees":{"base":0.5,"features":["m","n","k","tile_m","tile_n","cluster_ctas","k_align","n_align","sms","cta_tiles","k_tiles","grid_ctas","waves","wave_fraction","split_mode","splits","split_tiles","split_units","dp_tiles","separate_reduction"],"trees":[]}' \
  >"$tmp/undetermined-trees.json"
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1000 --schedule dp \
  --model "$tmp/undetermined-trees.json" --strict >/dev/null 2>&1
rc=$?
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1000 --schedule splitk:2 \
  --model "$tmp/undetermined-trees.json" --strict >/dev/null 2>&1
rc_bad=$?
if [[ $rc -ne 0 || $rc_bad -ne 2 ]]; then
  echo "FAIL: undetermined parameter + residual trees: dp rc=$rc (want 0), splitk:2 rc=$rc_bad (want 2)"
  failures=$((failures + 1))
fi
# A model file written before a parameter was retired loads; naming the parameter says why not.
printf '{"model":"calibrated","params":{"iter_unaligned_us":1.0},"undetermined":["iter_unaligned_us"]}\n' \
  >"$tmp/retired.json"
"$lastwave" predict --gpu h200 --m 512 --n 512 --k 1001 --schedule dp,splitk:2 \
  --model "$tmp/retired.json" --strict >/dev/null 2>"$tmp/err" ||
  { echo "FAIL: a model file with the retired iter_unaligned_us refused: $(cat "$tmp/err")"; failures=$((failures + 1)); }
expect_error "no longer has parameter 'iter_unaligned_us'" predict --gpu h200 --m 128 --n 128 \
  --k 128 --model "$tmp/retired.json" --param iter_unaligned_us=1
printf '{"model":"calibrated","params":{},"residual_trees":{"base":0.5,"features":["m"],"trees":[]}}\n' \
  >"$tmp/trees-bad-features.json"
expect_error "was fitted on other features" predict --gpu h200 --m 128 --n 128 --k 128 \
  --model "$tmp/trees-bad-features.json"
expect_error "no parameter 'bogus'" predict --gpu h200 --m 128 --n 128 --k 128 --param bogus=1
expect_error "unknown --format" predict --gpu h200 --m 128 --n 128 --k 128 --format xml
expect_error "give --gpu NAME or --sms N" predict --m 128 --n 128 --k 128
expect_error "exceeds" predict --gpu h200 --sms 500 --m 128 --n 128 --k 128
expect_error "sms must be <= 100000, got 100000000" predict --sms 100000000 --m 128 --n 128 --k 128
expect_error "more than 1048576 segments" plan --sms 132 --m 10000000000 --n 16 --k 16 --schedule dp
# A shape the simulator cannot take (more than 2^26 tiles: minutes of simulation; more than 2^31
# (tile, k) iterations; m*n*k beyond 2^63) is a refused row in a batch, the others answered; alone
# with --strict, an error at once (not minutes of simulation).
printf 'm,n,k\n256,256,256\n100000000000,16,16\n1000000000000,16,16\n9223372036854775807,16,16\n' \
  >"$tmp/too_big.csv"
"$lastwave" predict --gpu h200 --shapes "$tmp/too_big.csv" --schedule dp,best --format csv \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -ne 0 || $(grep -c ',ok,' "$tmp/out") -ne 2 || $(grep -c ',refused,' "$tmp/out") -ne 6 ]] ||
  ! grep -q '^100000000000,16,16,132,dp,.*,refused,the plan has 781250000 tiles of 128x128x64; the simulator takes at most 67108864 (2^26)' "$tmp/out" ||
  ! grep -q '^1000000000000,16,16,132,dp,.*,refused,problem has more than 2^31 (tile; k) iterations' "$tmp/out" ||
  ! grep -q '^9223372036854775807,16,16,132,best,.*,refused,tile 16x64x64: .* overflows' "$tmp/out" ||
  ! grep -q '^lastwave predict: 6 of 8 rows refused' "$tmp/err"; then
  echo "FAIL: predict batch with shapes the simulator cannot take: rc=$rc"
  cat "$tmp/out" "$tmp/err"
  failures=$((failures + 1))
fi
expect_error "the simulator takes at most 67108864" predict --gpu h200 --m 100000000000 --n 16 \
  --k 16 --strict
# compare leaves such shapes out and says so; with none left, an error.
"$lastwave" compare --gpu h200 --shapes "$tmp/too_big.csv" -q >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -ne 0 ]] || ! grep -q '^1 shapes on' "$tmp/out" ||
  ! grep -q '^lastwave compare: 3 shape(s) left out, which the simulator cannot take; the first: 100000000000x16x16: the plan has' "$tmp/err"; then
  echo "FAIL: compare with shapes the simulator cannot take: rc=$rc"
  cat "$tmp/out" "$tmp/err"
  failures=$((failures + 1))
fi
printf 'm,n,k\n100000000000,16,16\n' >"$tmp/only_too_big.csv"
expect_error "no shape left to compare" compare --gpu h200 --shapes "$tmp/only_too_big.csv" -q
expect_error "unknown subcommand" frobnicate
expect_error "unknown GPU" waves --gpu a100,zz
expect_error "bad --tile" predict --gpu h200 --m 128 --n 128 --k 128 --tile 128x128
expect_error "unknown schedule" plan --gpu h200 --m 128 --n 128 --k 128 --schedule nope

# A failing run must not leave its output file behind.
"$lastwave" predict --gpu h200 --m 0 --n 1 --k 1 --out "$tmp/out.csv" 2>/dev/null
if [[ -e "$tmp/out.csv" ]]; then
  echo "FAIL: half-written output file left behind"
  failures=$((failures + 1))
fi
# A good run writes it completely.
"$lastwave" predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule dp,streamk --format csv \
  --out "$tmp/ok.csv" || failures=$((failures + 1))
if [[ $(wc -l <"$tmp/ok.csv") -ne 3 ]]; then
  echo "FAIL: expected header + 2 rows in ok.csv"
  failures=$((failures + 1))
fi
expect_error "cannot read" models --check "$tmp/no_such_model.json"
expect_error "unknown GPU" models --gpu nope
# --help works on every subcommand.
for sub in demo waves predict plan compare models calibrate trace; do
  "$lastwave" "$sub" --help >/dev/null || {
    echo "FAIL: $sub --help"
    failures=$((failures + 1))
  }
done
exit $((failures > 0))

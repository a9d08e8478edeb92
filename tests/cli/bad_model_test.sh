#!/usr/bin/env bash
# Model files and --param values outside a parameter's declared range: one line on stderr naming
# the file (or --param), the parameter and its range, exit 2, nothing on stdout (no makespan).
set -uo pipefail
lastwave="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
shape=(--gpu h200 --m 1024 --n 1024 --k 1024 --schedule dp,streamk)

expect_error() {  # expect_error PATTERN ARGS...
  local pattern="$1"
  shift
  "$lastwave" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne 2 || $(wc -l <"$tmp/err") -ne 1 || -s "$tmp/out" ]] ||
    ! grep -qF -- "$pattern" "$tmp/err"; then
    echo "FAIL: lastwave $* -> rc=$rc, stdout $(wc -c <"$tmp/out") bytes, stderr:"
    cat "$tmp/err"
    failures=$((failures + 1))
  fi
}

model_file() {  # model_file NAME MODEL PARAM VALUE
  printf '{"model": "%s", "params": {"%s": %s}}\n' "$2" "$3" "$4" >"$tmp/$1.json"
}
printf 'm,n,k\n1024,1024,1024\n' >"$tmp/shapes.csv"
model_file negative calibrated mma_tflops_per_sm -5
model_file huge calibrated mma_tflops_per_sm 1e308
model_file zero_share roofline tensor_efficiency 0
model_file share_above_one roofline bandwidth_efficiency 1.5
model_file overflow calibrated mma_tflops_per_sm 1e999

range="is outside its range [1e-06, 1e+18] TFLOP/s"
expect_error "model file '$tmp/negative.json': parameter 'mma_tflops_per_sm' = -5 $range" \
  predict --model "$tmp/negative.json" "${shape[@]}"
expect_error "model file '$tmp/huge.json': parameter 'mma_tflops_per_sm' = 1e+308 $range" \
  predict --model "$tmp/huge.json" "${shape[@]}"
expect_error "parameter 'tensor_efficiency' = 0 is outside its range (0, 1] fraction" \
  predict --model "$tmp/zero_share.json" "${shape[@]}"
expect_error "parameter 'bandwidth_efficiency' = 1.5 is outside its range (0, 1] fraction" \
  predict --model "$tmp/share_above_one.json" "${shape[@]}"
expect_error "model file '$tmp/overflow.json'" predict --model "$tmp/overflow.json" "${shape[@]}"
expect_error "--param: parameter 'mma_tflops_per_sm' = nan $range" \
  predict --model calibrated --param mma_tflops_per_sm=nan "${shape[@]}"
expect_error "--param: parameter 'mma_tflops_per_sm' = inf $range" \
  predict --model calibrated --param mma_tflops_per_sm=inf "${shape[@]}"
expect_error "--param: parameter 'mac' = -1 is outside its range (0, 1e+09] iter" \
  predict --param mac=-1 "${shape[@]}"
expect_error "model file '$tmp/negative.json': parameter 'mma_tflops_per_sm' = -5 $range" \
  compare --model "$tmp/negative.json" --gpu h200 --shapes "$tmp/shapes.csv" \
  --schedule dp,streamk
printf '{"model": "unit", "params": {}, "training_range": {"m": [1, 8], "n": [8, 8], "k": [64, 8], "sms": [16, 132]}}\n' >"$tmp/bad_range.json"
expect_error "model file '$tmp/bad_range.json': \"training_range\" \"k\" must satisfy 1 <= least <= greatest" \
  predict --model "$tmp/bad_range.json" "${shape[@]}"
printf '{"model": "unit", "params": {}, "gpu": 200}\n' >"$tmp/bad_gpu.json"
expect_error "model file '$tmp/bad_gpu.json': \"gpu\" is not a string" \
  predict --model "$tmp/bad_gpu.json" "${shape[@]}"
exit $((failures > 0))

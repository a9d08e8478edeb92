#!/usr/bin/env bash
# tools/before_after.py on two hand-made CSVs (figures worked by hand below): per-config geomean,
# worst, slower/faster counts; per-shape best against cuBLAS; gzip input; rows not ok ignored;
# unreadable input is one line and a non-zero exit.
set -uo pipefail
script="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
header=m,n,k,sms,decomposition,reduction,median_ms,cublas_ms,ok,tile,cluster
# Shape 100x200x300: cuBLAS 0.9 ms; dp 128x128 1.0 -> 0.8 (1.25x), dp 128x256 2.0 -> 2.5 (0.8x).
# Shape 10x20x30: cuBLAS 0.45 ms; dp 128x128 0.5 -> 0.5 (1.0x), dp 128x256 0.6 -> 0.4 (1.5x).
# A failed row (ok 0) in "after" must not count.
cat >"$tmp/before.csv" <<CSV
$header
100,200,300,132,dp,deterministic,1.0,0.9,1,128x128x64,1x1
100,200,300,132,dp,deterministic,2.0,0.9,1,128x256x64,1x1
10,20,30,132,dp,deterministic,0.5,0.45,1,128x128x64,1x1
10,20,30,132,dp,deterministic,0.6,0.45,1,128x256x64,1x1
10,20,30,132,streamk,deterministic,0.1,0.45,1,128x128x64,1x1
CSV
cat >"$tmp/after.csv" <<CSV
$header
100,200,300,132,dp,deterministic,0.8,0.9,1,128x128x64,1x1
100,200,300,132,dp,deterministic,2.5,0.9,1,128x256x64,1x1
10,20,30,132,dp,deterministic,0.5,0.45,1,128x128x64,1x1
10,20,30,132,dp,deterministic,0.4,0.45,1,128x256x64,1x1
10,20,30,132,streamk,deterministic,0.05,0.45,0,128x128x64,1x1
CSV
gzip -c "$tmp/after.csv" >"$tmp/after.csv.gz"

expect_line() {  # expect_line LINE: the last output holds LINE exactly
  if ! grep -qxF -- "$1" "$tmp/out"; then
    echo "FAIL: missing line: $1"
    failures=$((failures + 1))
  fi
}

for after in after.csv after.csv.gz; do
  if ! python3 "$script" "$tmp/before.csv" "$tmp/$after" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: before_after.py on $after exited non-zero: $(cat "$tmp/err")"
    failures=$((failures + 1))
  fi
  # sqrt(1.25 * 1.0) = 1.118; sqrt(0.8 * 1.5) = 1.095.
  expect_line "| 128x128x64 | 1x1 | dp | 2 | 1.118x | 1.000x (10x20x30) | 0 | 1 |"
  expect_line "| 128x256x64 | 1x1 | dp | 2 | 1.095x | 0.800x (100x200x300) | 1 | 1 |"
  # Fastest per shape: before 1.0 and 0.1 (streamk), after 0.8 and 0.4 (the failed row is out).
  expect_line "| 10 | 20 | 30 | 132 | 0.4500 | 0.1000 | 4.500x | 0.4000 | 1.125x | 128x256x64 1x1 dp |"
  expect_line "| 100 | 200 | 300 | 132 | 0.9000 | 1.0000 | 0.900x | 0.8000 | 1.125x | 128x128x64 1x1 dp |"
  # sqrt(4.5 * 0.9) = 2.012.
  expect_line "132 SMs, 2 shapes: best config vs cuBLAS, geomean: before 2.012x, after 1.125x (min 1.125x)"
  if grep -q streamk "$tmp/out"; then
    echo "FAIL: a config with no ok row in one CSV appears in the per-config table"
    failures=$((failures + 1))
  fi
done

# Same shapes: cuBLAS the same in both runs, so the common time changes nothing; the best configs
# move 1.0 -> 0.8 and 0.1 -> 0.4: after/before sqrt(1.25 * 0.25) = 0.559.
python3 "$script" "$tmp/before.csv" "$tmp/after.csv" >"$tmp/out" 2>"$tmp/err"
expect_line "132 SMs, 2 shapes: best config after/before speed 0.559x; against one cuBLAS time per shape (geometric mean of the two runs' medians): before 2.012x, after 1.125x"
# cuBLAS moves between the runs (0.9 -> 1.1 ms; the after run's rows carry 1.1, 1.1 and 5.0, median
# 1.1): against its own run the best config goes 0.900x -> 1.375x; against one time per shape,
# sqrt(0.9 * 1.1) = 0.99499 ms: 0.995x -> 1.244x, the config's own 1.25x.
cat >"$tmp/before-moved.csv" <<CSV
$header
100,200,300,132,dp,deterministic,1.0,0.9,1,128x128x64,1x1
100,200,300,132,dp,deterministic,2.0,0.9,1,128x256x64,1x1
CSV
cat >"$tmp/after-moved.csv" <<CSV
$header
100,200,300,132,dp,deterministic,0.8,1.1,1,128x128x64,1x1
100,200,300,132,dp,deterministic,2.5,1.1,1,128x256x64,1x1
100,200,300,132,streamk,deterministic,3.0,5.0,1,128x256x64,1x1
CSV
python3 "$script" "$tmp/before-moved.csv" "$tmp/after-moved.csv" >"$tmp/out" 2>"$tmp/err"
expect_line "132 SMs, 1 shapes: best config vs cuBLAS, geomean: before 0.900x, after 1.375x (min 1.375x)"
expect_line "132 SMs, 1 shapes: best config after/before speed 1.250x; against one cuBLAS time per shape (geometric mean of the two runs' medians): before 0.995x, after 1.244x"

python3 "$script" "$tmp/before.csv" "$tmp/missing.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [[ $rc -eq 0 || $(wc -l <"$tmp/err") -ne 1 || -s "$tmp/out" ]]; then
  echo "FAIL: a missing CSV -> rc=$rc, stderr: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "before_after.py: all checks passed"

#!/usr/bin/env bash
# tools/small_report.py on a hand-made CSV (figures worked by hand below): per shape the fastest row
# that ran, with and without the named tiles, against cuBLAS; shapes whose cuBLAS time is not below
# the limit are left out; gzip input reads the same; --cublas-ref median takes the median of a
# shape's distinct cuBLAS timings; no small shape is one line and a non-zero exit.
set -uo pipefail
script="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
header=m,n,k,median_ms,cublas_ms,ok,tile,cluster,decomposition
# 1x64x64: cuBLAS 5 us; 64x128 dp 10 us (0.5x), 64x32 dp 4 us (1.25x).
# 8x32x4096: cuBLAS 12 us; 64x128 splitk:4 15 us (0.8x), 64x32 splitk:8 13 us (0.923x),
#   a faster 64x32 row that failed (ok 0) must not count.
# 4096x4096x4096: cuBLAS 300 us: not a small problem.
cat >"$tmp/r.csv" <<CSV
$header
1,64,64,0.010,0.005,1,64x128x64,1x1,dp
1,64,64,0.004,0.005,1,64x32x64,1x1,dp
8,32,4096,0.015,0.012,1,64x128x64,1x1,splitk:4
8,32,4096,0.013,0.012,1,64x32x64,1x1,splitk:8
8,32,4096,0.001,0.012,0,64x32x64,1x1,splitk:16
4096,4096,4096,0.310,0.300,1,128x256x64,1x1,dp
CSV

expect_line() {  # expect_line LINE: the output holds LINE exactly
  if ! grep -qxF -- "$1" "$tmp/out"; then
    echo "FAIL: missing line: $1"
    failures=$((failures + 1))
  fi
}

gzip -c "$tmp/r.csv" >"$tmp/r.csv.gz"
python3 "$script" "$tmp/r.csv.gz" --without 64x32x64 >"$tmp/out.gz.txt" 2>"$tmp/err"
if ! python3 "$script" "$tmp/r.csv" --without 64x32x64 >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: exit status"
  failures=$((failures + 1))
fi
if ! cmp -s "$tmp/out" "$tmp/out.gz.txt"; then
  echo "FAIL: the gzip input gives another report"
  failures=$((failures + 1))
fi
# 0-10 us: 1x64x64 only: without 64x32 0.5x (below 0.8), with it 1.25x (>= 1).
expect_line "| 0-10 us | 1 | 0.500x | 1 | 1.250x | 0 | 1 |"
# 10-20 us: 8x32x4096: 0.8x without (not below 0.8), 0.923x with.
expect_line "| 10-20 us | 1 | 0.800x | 0 | 0.923x | 0 | 0 |"
# all: geomean(0.5, 0.8) = 0.632, geomean(1.25, 0.923) = 1.074.
expect_line "| all < 20 us | 2 | 0.632x | 1 | 1.074x | 0 | 1 |"
expect_line "| 64x32x64 1x1 dp | 1 |"
expect_line "| 8 | 32 | 4096 | 12.0 | 13.0 | 0.923x | 64x32x64 1x1 splitk:8 |"
if grep -q "4096 | 4096" "$tmp/out"; then
  echo "FAIL: a large shape is in the table"
  failures=$((failures + 1))
fi

# --by-m: a row per M of the same picks.
python3 "$script" "$tmp/r.csv" --without 64x32x64 --by-m >"$tmp/out" 2>"$tmp/err"
expect_line "| M = 1 | 1 | 0.500x | 1 | 1.250x | 0 | 1 |"
expect_line "| M = 8 | 1 | 0.800x | 0 | 0.923x | 0 | 0 |"
if grep -q "0-10 us" "$tmp/out"; then
  echo "FAIL: --by-m printed the time bands"
  failures=$((failures + 1))
fi

# Two files merge per shape (the large shape's rows in a second file), --bands sets the bands:
# 0-20 us holds both small shapes as above; 20-400 us 4096^3 alone: 300 / 310 = 0.968x; all:
# geomean(0.5, 0.8, 0.968) = 0.729, geomean(1.25, 0.923, 0.968) = 1.037.
head -n 6 "$tmp/r.csv" >"$tmp/small.csv"
{ echo "$header"; tail -n 1 "$tmp/r.csv"; } >"$tmp/large.csv"
python3 "$script" "$tmp/small.csv" "$tmp/large.csv" --without 64x32x64 --max-cublas-us 400 \
  --bands 0,20,400 >"$tmp/out" 2>"$tmp/err"
expect_line "| 0-20 us | 2 | 0.632x | 1 | 1.074x | 0 | 1 |"
expect_line "| 20-400 us | 1 | 0.968x | 0 | 0.968x | 0 | 0 |"
expect_line "| all < 400 us | 3 | 0.729x | 1 | 1.037x | 0 | 1 |"
# --without-clusters: the 1x2 row of 1x64x64 (2 us, 2.5x) counts only in the "every config" column.
{ cat "$tmp/r.csv"; echo "1,64,64,0.002,0.005,1,64x128x64,1x2,dp"; } >"$tmp/c.csv"
python3 "$script" "$tmp/c.csv" --without "" --without-clusters 1x2 >"$tmp/out" 2>"$tmp/err"
expect_line "| 0-10 us | 1 | 1.250x | 0 | 2.500x | 0 | 1 |"
# --without-decompositions: 8x32x4096 without splitk:8 keeps splitk:4 (0.8x); 1x64x64 unchanged.
python3 "$script" "$tmp/r.csv" --without "" --without-decompositions splitk:8,splitk:16 >"$tmp/out" 2>"$tmp/err"
expect_line "| 10-20 us | 1 | 0.800x | 0 | 0.923x | 0 | 0 |"
expect_line "| 0-10 us | 1 | 1.250x | 0 | 1.250x | 0 | 1 |"
# A band without shapes prints no row.
python3 "$script" "$tmp/r.csv" --max-cublas-us 400 --bands 0,20,30,400 >"$tmp/out" 2>"$tmp/err"
if grep -q "20-30 us" "$tmp/out"; then
  echo "FAIL: an empty band has a row"
  failures=$((failures + 1))
fi
# Bands that do not increase: one line on stderr, non-zero exit.
if python3 "$script" "$tmp/r.csv" --bands 0,20,10 >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: decreasing bands should exit non-zero"
  failures=$((failures + 1))
fi
if [[ $(wc -l <"$tmp/err") -ne 1 ]]; then
  echo "FAIL: expected one line on stderr for bad bands, got: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi

# --pass: two passes of one shape list. 1x64x64: 64x32 dp 4 and 6 us (mean 5), cuBLAS 5 and 7 us
# (mean 6): 1.2x; 64x128 dp ran only in the first pass (2 us): dropped. 8x32x4096 ran only in the
# first pass: dropped. Without 64x32 nothing is left of 1x64x64 (its row is "nan", 0 below 0.8x).
cat >"$tmp/p1.csv" <<CSV
$header
1,64,64,0.004,0.005,1,64x32x64,1x1,dp
1,64,64,0.002,0.005,1,64x128x64,1x1,dp
8,32,4096,0.013,0.012,1,64x32x64,1x1,splitk:8
CSV
cat >"$tmp/p2.csv" <<CSV
$header
1,64,64,0.006,0.007,1,64x32x64,1x1,dp
CSV
python3 "$script" "$tmp/p1.csv" --pass "$tmp/p2.csv" --without "" >"$tmp/out" 2>"$tmp/err"
expect_line "| all < 20 us | 1 | 1.200x | 0 | 1.200x | 0 | 1 |"
expect_line "| 1 | 64 | 64 | 6.0 | 5.0 | 1.200x | 64x32x64 1x1 dp |"

# Two files, the second without any row of 8x32x4096 (its command stopped early), not even a
# failed one: one warning line naming it and the count; the report still covers both shapes.
cat >"$tmp/part.csv" <<CSV
$header
1,64,64,0.006,0.005,0,64x16x64,1x1,dp
CSV
python3 "$script" "$tmp/r.csv" "$tmp/part.csv" >"$tmp/out" 2>"$tmp/err"
expect_line "| all < 20 us | 2 | 0.632x | 1 | 1.074x | 0 | 1 |"
if [[ $(grep -c "warning: 1 of 2 shapes have no row in $tmp/part.csv" "$tmp/err") -ne 1 ||
  $(wc -l <"$tmp/err") -ne 1 ]]; then
  echo "FAIL: expected one warning about part.csv, got: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi
python3 "$script" "$tmp/r.csv" "$tmp/r.csv" >"$tmp/out" 2>"$tmp/err"
if [[ -s "$tmp/err" ]]; then
  echo "FAIL: files covering every shape warned: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi

# --cublas-ref: 2x64x64 timed cuBLAS at 10, 12 and 14 us beside its three rows; the fastest of them
# (10) against our best 12 us is 0.833x, their median (12) 1.000x.
cat >"$tmp/ref.csv" <<CSV
$header
2,64,64,0.012,0.014,1,64x32x64,1x1,dp
2,64,64,0.013,0.010,1,64x64x64,1x1,dp
2,64,64,0.016,0.012,1,64x128x64,1x1,dp
CSV
python3 "$script" "$tmp/ref.csv" --without none >"$tmp/out" 2>"$tmp/err"
expect_line "| all < 20 us | 1 | 0.833x | 0 | 0.833x | 0 | 0 |"
python3 "$script" "$tmp/ref.csv" --without none --cublas-ref median >"$tmp/out" 2>"$tmp/err"
expect_line "| all < 20 us | 1 | 1.000x | 0 | 1.000x | 0 | 1 |"
if python3 "$script" "$tmp/ref.csv" --cublas-ref mean >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: an unknown --cublas-ref should exit non-zero"
  failures=$((failures + 1))
fi

# No shape below the limit: one line on stderr, non-zero exit.
if python3 "$script" "$tmp/r.csv" --max-cublas-us 1 >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: no small shape should exit non-zero"
  failures=$((failures + 1))
fi
if [[ $(wc -l <"$tmp/err") -ne 1 ]]; then
  echo "FAIL: expected one line on stderr, got: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi
# A missing file: one line on stderr, non-zero exit.
if python3 "$script" "$tmp/missing.csv" >"$tmp/out" 2>"$tmp/err"; then
  echo "FAIL: a missing file should exit non-zero"
  failures=$((failures + 1))
fi
if [[ $(wc -l <"$tmp/err") -ne 1 ]]; then
  echo "FAIL: expected one line on stderr for a missing file, got: $(cat "$tmp/err")"
  failures=$((failures + 1))
fi
exit $((failures > 0))

#!/usr/bin/env bash
# tools/dsm_report.py on a hand-made CSV (figures worked by hand below): splitk / splitk-dsm per
# tile and split count, one wave or more; best config with and without splitk-dsm; rows not ok
# ignored; no pair is exit 2.
set -uo pipefail
script="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
h=m,n,k,decomposition,grid,median_ms,cublas_ms,ok,tile
# Shape A (grid 8, one wave): splitk:2 0.010, splitk-dsm:2 0.008 -> 1.25x; dp 0.009; cuBLAS 0.009:
#   best without dsm 0.009 (1.0x), with it 0.008 (1.125x).
# Shape B (grid 200 > 120): splitk:2 0.020, splitk-dsm:2 0.025 -> 0.8x; cuBLAS 0.030: best 0.020
#   both ways (1.5x). A splitk-dsm:4 row that did not run (ok 0) has no pair.
cat >"$tmp/r.csv" <<CSV
$h
1,64,512,splitk:2,8,0.010,0.009,1,16x64x64
1,64,512,splitk-dsm:2,8,0.008,0.009,1,16x64x64
1,64,512,dp,4,0.009,0.009,1,16x64x64
9,9000,512,splitk:2,200,0.020,0.030,1,16x64x64
9,9000,512,splitk-dsm:2,200,0.025,0.030,1,16x64x64
9,9000,512,splitk-dsm:4,400,0.001,0.030,0,16x64x64
CSV
python3 "$script" "$tmp/r.csv" >"$tmp/out" 2>&1 || fail "exit $?"
grep -qxF "| 16x64x64 | 2 | 1: 1.250x | 1: 0.800x |" "$tmp/out" || fail "pair row: $(cat "$tmp/out")"
grep -qxF "| all | | 1: 1.250x | 1: 0.800x |" "$tmp/out" || fail "all row"
# geomean(1.0, 1.5) = 1.225; geomean(1.125, 1.5) = 1.299
grep -qxF "2 shapes: best config vs cuBLAS (geomean) without splitk-dsm 1.225x, with it 1.299x; splitk-dsm fastest on 1; below 0.8x 0 -> 0" "$tmp/out" || fail "summary: $(tail -1 "$tmp/out")"
python3 "$script" "$tmp/r.csv" --wave-ctas 300 >"$tmp/out" 2>&1
grep -qxF "| 16x64x64 | 2 | 2: 1.000x | 0: - |" "$tmp/out" || fail "--wave-ctas 300: $(sed -n 3p "$tmp/out")"
grep -v dsm "$tmp/r.csv" >"$tmp/none.csv"
python3 "$script" "$tmp/none.csv" >"$tmp/out" 2>&1
[[ $? == 2 && $(wc -l <"$tmp/out") == 1 ]] || fail "no pairs: expected one line and exit 2"
python3 "$script" "$tmp/missing.csv" >"$tmp/out" 2>&1
[[ $? != 0 && $(wc -l <"$tmp/out") == 1 ]] || fail "missing file: expected one line, non-zero exit"
((failures == 0)) && echo "dsm_report_test: all checks passed"
((failures == 0))

#!/usr/bin/env bash
# tools/prune_configs.py on a hand-made CSV (kept configs worked out by hand below): a config is
# kept when its median is within --within % of the fastest ok row of some (shape, SM count); failed
# rows neither count nor set the best; gzip input reads the same; bad input is one line and exit 2.
set -uo pipefail
script="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
header=m,n,k,sms,median_ms,ok,tile,cluster,decomposition
# 8x64x64 at 132 SMs: best 10 us (64x32 dp); 64x64 dp 10.2 (2 %, kept at 3 %), 128x128 dp 11 (10 %).
# 8x64x64 at 64 SMs: best 20 us (128x128 dp: kept here); 64x32 dp 30.
# 4096x64x64 at 132: a 16x64 splitk-dsm:4 row faster than all failed (ok 0): not kept, no best;
#   best 50 (64x64 dp), 64x32 dp 52 (4 %: within 5 only).
cat >"$tmp/r.csv" <<CSV
$header
8,64,64,132,0.0100,1,64x32x64,1x1,dp
8,64,64,132,0.0102,1,64x64x64,1x1,dp
8,64,64,132,0.0110,1,128x128x64,1x1,dp
8,64,64,64,0.0300,1,64x32x64,1x1,dp
8,64,64,64,0.0200,1,128x128x64,1x1,dp
4096,64,64,132,0.0010,0,16x64x64,1x1,splitk-dsm:4
4096,64,64,132,0.0500,1,64x64x64,1x1,dp
4096,64,64,132,0.0520,1,64x32x64,1x1,dp
CSV
configs() {  # configs FILE: the kept configs' lines, comments and header dropped
  grep -v '^#' "$1" | tail -n +2 | cut -d, -f1-3 | sort
}
check_kept() {  # check_kept NAME EXPECTED_LINES... against $tmp/out
  local name="$1"
  shift
  if [[ "$(configs "$tmp/out")" != "$(printf '%s\n' "$@" | sort)" ]]; then
    echo "FAIL: $name: kept $(configs "$tmp/out" | tr '\n' ' ')"
    failures=$((failures + 1))
  fi
}
python3 "$script" "$tmp/r.csv" --out "$tmp/out" || { echo "FAIL: exit status"; failures=$((failures + 1)); }
check_kept "within 3" "64x32x64,1x1,dp" "64x64x64,1x1,dp" "128x128x64,1x1,dp"
grep -q '^64x64x64,1x1,dp,2$' "$tmp/out" || { echo "FAIL: 64x64 dp is within 3 % on 2 groups"; failures=$((failures + 1)); }
grep -q '^# .*3 of 3 configs came within 3 % of the fastest on at least one of 3 ' "$tmp/out" || { echo "FAIL: the comment's counts"; failures=$((failures + 1)); }
python3 "$script" "$tmp/r.csv" --within 1 --out "$tmp/out"
check_kept "within 1" "64x32x64,1x1,dp" "64x64x64,1x1,dp" "128x128x64,1x1,dp"
grep -q '^64x64x64,1x1,dp,1$' "$tmp/out" || { echo "FAIL: 64x64 dp within 1 % on 1 group"; failures=$((failures + 1)); }
grep -q '^64x32x64,1x1,dp,1$' "$tmp/out" || { echo "FAIL: 64x32 dp within 1 % on 1 group"; failures=$((failures + 1)); }
python3 "$script" "$tmp/r.csv" --within 5 --out "$tmp/out"
grep -q '^64x32x64,1x1,dp,2$' "$tmp/out" || { echo "FAIL: 64x32 dp within 5 % on 2 groups"; failures=$((failures + 1)); }
gzip -c "$tmp/r.csv" >"$tmp/r.csv.gz"
python3 "$script" "$tmp/r.csv.gz" --within 5 >"$tmp/out.gz.txt"
grep -v '^# from' "$tmp/out" >"$tmp/a"
grep -v '^# from' "$tmp/out.gz.txt" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: the gzip input gives another list"; failures=$((failures + 1)); }

expect_error() {  # expect_error PATTERN ARGS...
  local pattern="$1"
  shift
  local err rc
  err=$(python3 "$script" "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 2 || $(wc -l <<<"$err") -ne 1 ]] || ! grep -q -- "$pattern" <<<"$err"; then
    echo "FAIL: prune_configs.py $* -> rc=$rc: $err"
    failures=$((failures + 1))
  fi
}
printf 'm,n,k\n1,2,3\n' >"$tmp/bad.csv"
printf '%s\n8,64,64,132,0.01,0,64x32x64,1x1,dp\n' "$header" >"$tmp/none.csv"
printf '%s\n8,64,64,132,fast,1,64x32x64,1x1,dp\n' "$header" >"$tmp/nan.csv"
expect_error "missing column" "$tmp/bad.csv"
expect_error "no ok rows" "$tmp/none.csv"
expect_error "nan.csv:2: median_ms 'fast'" "$tmp/nan.csv"
expect_error "cannot read" "$tmp/missing.csv"
expect_error "give at least one" --within 3
expect_error "within 0..100" "$tmp/r.csv" --within -1
expect_error "not a number" "$tmp/r.csv" --within lots
expect_error "unknown option" "$tmp/r.csv" --fast
expect_error "needs a value" "$tmp/r.csv" --out
expect_error "cannot write" "$tmp/r.csv" --out "$tmp/no/such/dir/out.csv"
exit $((failures > 0))

#!/usr/bin/env bash
# lastwave-bench starts without a GPU driver (driver API through runtime entry points): --help
# works, bad input is one line on stderr with a non-zero exit, and on a machine without a GPU a
# valid run fails cleanly (one line, no crash) instead of hanging or aborting.
set -uo pipefail
bench="$1"
failures=0
"$bench" --help >/dev/null || { echo "FAIL: --help"; failures=$((failures + 1)); }

expect_error() {  # expect_error PATTERN ARGS...
  local pattern="$1"
  shift
  local err rc
  err=$("$bench" "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -eq 0 || $rc -ge 128 || $(wc -l <<<"$err") -ne 1 ]] || ! grep -q -- "$pattern" <<<"$err"; then
    echo "FAIL: lastwave-bench $* -> rc=$rc: $err"
    failures=$((failures + 1))
  fi
}
expect_error ">= 1" --m 0 --n 128 --k 128 --decomposition dp
expect_error "unknown schedule 'foo'" --m 128 --n 128 --k 128 --decomposition foo
expect_error "reduction" --m 128 --n 128 --k 128 --decomposition dp --reduction sometimes
expect_error "" --shapes /nonexistent.csv --decomposition dp
expect_error "needs --model" --m 128 --n 128 --k 128 --decomposition auto
expect_error "runs alone" --m 128 --n 128 --k 128 --decomposition dp,auto
expect_error "nonexistent" --m 128 --n 128 --k 128 --decomposition auto --model /nonexistent.json
expect_error "is not one the kernels have" --m 128 --n 128 --k 128 --decomposition dp --tile 100x100
expect_error "cluster 8x1" --m 128 --n 128 --k 128 --decomposition dp --cluster 8x1
expect_error "is not one of 0, 64, 128, 256" --m 128 --n 128 --k 128 --decomposition dp --l2-promotion 0,100
expect_error "bad value '-64'" --m 128 --n 128 --k 128 --decomposition dp --l2-promotion -64
expect_error "--time-limit must be > 0" --m 128 --n 128 --k 128 --decomposition dp --time-limit 0
expect_error "--time-limit must be > 0" --m 128 --n 128 --k 128 --decomposition dp --time-limit -5
expect_error "time-limit" --m 128 --n 128 --k 128 --decomposition dp --time-limit soon
expect_error "--time-limit must be > 0" --m 128 --n 128 --k 128 --decomposition dp --time-limit inf
expect_error "--time-limit must be > 0" --m 128 --n 128 --k 128 --decomposition dp --time-limit nan
expect_error "--time-limit must be > 0" --m 128 --n 128 --k 128 --decomposition dp --time-limit 1e300
expect_error "--cublas-each-above must be >= 0" --m 128 --n 128 --k 128 --decomposition dp --cublas-each-above -1
expect_error "--cublas-each-above must be >= 0" --m 128 --n 128 --k 128 --decomposition dp --cublas-each-above nan
expect_error "give one" --m 128 --n 128 --k 128 --decomposition dp --cublas-each --cublas-each-above 1
# --configs: a CSV of tile, cluster, decomposition replaces the three list options.
cfg_dir=$(mktemp -d "${TEST_TMPDIR:-/tmp}/configs.XXXXXX")
printf 'tile,cluster,decomposition\n64x64,1x1,dp\n16x64,1x1,splitk-dsm:4\n' >"$cfg_dir/ok.csv"
printf 'tile,cluster,decomposition\n' >"$cfg_dir/empty.csv"
printf 'tile,cluster,decomposition\n64x64,1x1,best\n' >"$cfg_dir/best.csv"
expect_error "--configs takes no --tile" --m 128 --n 128 --k 128 --configs "$cfg_dir/ok.csv" --tile 64x64
expect_error "--configs takes no --decomposition" --m 128 --n 128 --k 128 --configs "$cfg_dir/ok.csv" \
  --decomposition dp
expect_error "--configs takes no --cluster" --m 128 --n 128 --k 128 --configs "$cfg_dir/ok.csv" --cluster 2x1
expect_error "empty.csv: no configurations" --m 128 --n 128 --k 128 --configs "$cfg_dir/empty.csv"
expect_error "best.csv:2: decomposition 'best'" --m 128 --n 128 --k 128 --configs "$cfg_dir/best.csv"
expect_error "cannot read" --m 128 --n 128 --k 128 --configs "$cfg_dir/missing.csv"
expect_error "--decomposition (or --configs) is required" --m 128 --n 128 --k 128
# The help read whole first: grep -q leaving a pipe early would fail the bench with SIGPIPE.
help=$("$bench" --help)
for opt in --time-limit --cublas-each "have: 1x1, 2x1, 1x2, 2x2, 4x2, 2x4"; do
  grep -q -- "$opt" <<<"$help" || { echo "FAIL: --help lacks $opt"; failures=$((failures + 1)); }
done
if ! command -v nvidia-smi >/dev/null 2>&1; then
  expect_error "" --m 128 --n 128 --k 128 --decomposition dp
  # Defaults pass option checking: without a GPU the one error is the device's.
  if "$bench" --m 128 --n 128 --k 128 --decomposition dp 2>&1 | grep -q -- "--"; then
    echo "FAIL: a default run is refused by an option check"
    failures=$((failures + 1))
  fi
  expect_error "" --m 128 --n 128 --k 128 --decomposition dp --cublas-each
  # A valid --configs file passes option checking too.
  if "$bench" --m 128 --n 128 --k 128 --configs "$cfg_dir/ok.csv" 2>&1 | grep -q -- "--\|csv"; then
    echo "FAIL: a valid --configs run is refused by an option check"
    failures=$((failures + 1))
  fi
fi
rm -rf "$cfg_dir"
exit $((failures > 0))

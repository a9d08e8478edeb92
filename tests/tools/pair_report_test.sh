#!/usr/bin/env bash
# tools/pair_report.py on a hand-made CSV (figures worked by hand below): per misaligned shape the
# fastest row at the promotion asked for (by default the kernels' rule: 128 B at K % 64 != 0, 256 B
# at K % 64 == 0) against its aligned partner's; rows that failed or have no partner are left out;
# a file without a pair is one line and a non-zero exit.
set -uo pipefail
script="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
header=m,n,k,median_ms,cublas_ms,ok,tile,cluster,decomposition,sm_clock_mhz,l2_promotion
# 64x64x100 (partner K 128): at 128 B 0.110 ms (a faster row failed), cuBLAS 0.121 -> 1.100x;
#   partner at 256 B 0.100 ms: cost +10.0 %. At 256 B 0.120 ms: +20.0 %, 1.008x.
# 64x64x200 has no partner (K 256 absent): left out.
cat >"$tmp/r.csv" <<CSV
$header
64,64,100,0.110,0.121,1,128x128x64,1x1,dp,1980,128
64,64,100,0.050,0.121,0,128x128x64,1x1,dp,1980,128
64,64,100,0.120,0.121,1,128x128x64,1x1,dp,1980,256
64,64,128,0.100,0.100,1,128x256x64,2x1,dp,1965,256
64,64,128,0.090,0.100,1,128x256x64,2x1,dp,1965,128
64,64,200,0.100,0.100,1,128x128x64,1x1,dp,1980,128
CSV

expect_line() {  # expect_line FILE LINE: FILE holds LINE exactly
  if ! grep -qxF -- "$2" "$1"; then
    echo "FAIL: missing line in $(basename "$1"): $2"
    failures=$((failures + 1))
  fi
}

python3 "$script" "$tmp/r.csv" >"$tmp/rule" 2>&1 || { echo "FAIL: exit status"; failures=$((failures + 1)); }
expect_line "$tmp/rule" "| 64 | 64 | 100 | 110.0 | 1980 | 128x128x64 1x1 dp | 128 | 100.0 | 1965 | 128x256x64 2x1 dp | +10.0 % | 1.100x |"
expect_line "$tmp/rule" "1 pairs (promotion rule): cost geomean +10.0 %, max +10.0 %, 0 within 5 %; misaligned vs cuBLAS geomean 1.100x"
python3 "$script" "$tmp/r.csv" --promotion 256 --limit-pct 25 >"$tmp/p256" 2>&1
expect_line "$tmp/p256" "1 pairs (promotion 256): cost geomean +20.0 %, max +20.0 %, 1 within 25 %; misaligned vs cuBLAS geomean 1.008x"
if grep -q "| 200 |" "$tmp/rule"; then
  echo "FAIL: a shape without its partner was reported"
  failures=$((failures + 1))
fi
# --align 8: K 101's partner is K 104; the fastest 101 row (128x256 2x1, 0.105 ms) +5.0 % against
# 0.100, cuBLAS 0.112 / 0.105 = 1.067x; --config keeps one config's rows (128x128 1x1: 0.112 ms,
# +12.0 %, 1.000x, within the default 15 %).
cat >"$tmp/k8.csv" <<CSV
$header
64,64,101,0.112,0.112,1,128x128x64,1x1,dp,1980,128
64,64,101,0.105,0.112,1,128x256x64,2x1,dp,1980,128
64,64,104,0.100,0.100,1,128x128x64,1x1,dp,1980,128
CSV
python3 "$script" "$tmp/k8.csv" --align 8 >"$tmp/k8" 2>&1
expect_line "$tmp/k8" "| 64 | 64 | 101 | 105.0 | 1980 | 128x256x64 2x1 dp | 104 | 100.0 | 1980 | 128x128x64 1x1 dp | +5.0 % | 1.067x |"
python3 "$script" "$tmp/k8.csv" --align 8 --config 128x128x64,1x1 >"$tmp/k8c" 2>&1
expect_line "$tmp/k8c" "1 pairs (promotion rule): cost geomean +12.0 %, max +12.0 %, 1 within 15 %; misaligned vs cuBLAS geomean 1.000x"
awk -F, '$3 != 128' "$tmp/r.csv" >"$tmp/none.csv"  # no aligned partner left
err=$(python3 "$script" "$tmp/none.csv" 2>&1 >/dev/null)
rc=$?
if [[ $rc -eq 0 || $(wc -l <<<"$err") -ne 1 ]]; then
  echo "FAIL: no pair -> rc=$rc: $err"
  failures=$((failures + 1))
fi
exit $((failures > 0))

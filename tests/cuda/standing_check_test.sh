#!/usr/bin/env bash
# cuda/bench/standing_check.sh without a GPU: stub lastwave-bench, gpu_suite, compute-sanitizer,
# cuda/run_on_gpu.sh and nvidia-smi record their calls. Each part runs its command under its limit
# (its default or PART:SECONDS), the small class through heldout_check.sh on the SM count's pruned
# list; a part that fails leaves the others running and the exit status 1; PACK holds WORK_DIR
# with card.txt's line per part; a bad part, bad seconds or a missing list exits 2 with one line
# before anything runs.
set -uo pipefail
script="$1"
heldout="$2"
shapes="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
repo="$tmp/repo"
mkdir -p "$tmp/bin" "$repo/configs/shapes" "$repo/configs/bench-configs" "$repo/cuda/bench"
cp "$shapes" "$repo/configs/shapes/traffic-heldout-chooser.csv"
cp "$script" "$repo/cuda/bench/standing_check.sh"
cp "$heldout" "$repo/cuda/bench/heldout_check.sh"
cat >"$repo/cuda/run_on_gpu.sh" <<'STUB'
#!/usr/bin/env bash
echo "suite $*" >>"$CALLS"
STUB
printf 'm,n,k\n1,4096,4096\n' >"$repo/configs/shapes/skinny-m.csv"
printf 'tile,cluster,decomposition\n64x64,1x1,dp\n' \
  >"$repo/configs/bench-configs/heldout-small-64.csv"
cat >"$tmp/bin/lastwave-bench" <<'STUB'
#!/usr/bin/env bash
echo "bench $*" >>"$CALLS"
args=" $* "
while [[ $# -gt 0 ]]; do [[ $1 == --out ]] && echo "m,n,k" >"$2"; shift; done
[[ -z ${FAIL_SQUARES:-} || $args != *" --m 4096 "* ]]
STUB
cat >"$tmp/bin/compute-sanitizer" <<'STUB'
#!/usr/bin/env bash
echo "sanitizer tiles=$LW_SUITE_TILES $*" >>"$CALLS"
STUB
cat >"$tmp/bin/timeout" <<'STUB'
#!/usr/bin/env bash
echo "timeout $1" >>"$CALLS"
shift
exec "$@"
STUB
printf '#!/usr/bin/env bash\necho 1980 MHz\n' >"$tmp/bin/nvidia-smi"
printf '#!/usr/bin/env bash\nexit 0\n' >"$tmp/bin/gpu_suite"
chmod +x "$tmp/bin/"*
export CALLS="$tmp/calls.txt"
run() { (cd "$repo" && PATH="$tmp/bin:$PATH" bash cuda/bench/standing_check.sh "$@"); }

# Every part, one failing: all run, in order, each under its limit; exit 1; the pack holds them.
: >"$CALLS"
FAIL_SQUARES=1 PACK="$tmp/standing.tgz" run "$tmp/bin" "$tmp/work" skinny:50 small64 squares \
  racecheck suite:30 >/dev/null 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "a failing part: exit $rc, expected 1"
skinny="^bench --shapes configs/shapes/skinny-m.csv --tile all --cluster 1x1 .*--time-limit 50 "
grep -q -- "$skinny" "$CALLS" || fail "skinny: every tile 1x1 under its 50 s"
grep -q -- "--configs configs/bench-configs/heldout-small-64.csv .*--sms 64 --time-limit 230 " \
  "$CALLS" || fail "small64: the 64-SM pruned list at 64 SMs under the default 230 s"
grep -A1 -- "^timeout 90$" "$CALLS" | grep -q -- "--m 4096 --n 4096 --k 4096 .*--cublas-each " ||
  fail "squares: 4096^3 with cuBLAS beside every row, under a 90 s timeout"
grep -q -- "^sanitizer tiles=16x64x128,.*80x64x128 --tool racecheck .*sanitize: one small" \
  "$CALLS" ||
  fail "racecheck: the deep tiles' per-decomposition case"
grep -q -- "^suite $tmp/bin $tmp/work/suite suite$" "$CALLS" || fail "suite: run_on_gpu.sh's suite"
order=$(grep -o -- "skinny-m.csv\|--sms 64\|--m 4096\|racecheck\|^suite" "$CALLS" | paste -sd' ')
[[ $order == "skinny-m.csv --sms 64 --m 4096 racecheck suite" ]] ||
  fail "parts out of order: $order"
mkdir "$tmp/unpacked"
tar xzf "$tmp/standing.tgz" -C "$tmp/unpacked" || fail "no pack"
for p in skinny small64 squares racecheck suite; do
  grep -q "^$p rc=" "$tmp/unpacked/card.txt" 2>/dev/null || fail "card.txt: no line for $p"
done
grep -q "^squares rc=1 " "$tmp/unpacked/card.txt" 2>/dev/null || fail "card.txt: squares' failure"
[[ -f $tmp/unpacked/small64/heldout-small-pruned-64.csv ]] || fail "small64: no rows in the pack"
[[ -f $tmp/unpacked/skinny-m-132.csv ]] || fail "skinny: no rows in the pack"

# Bad input: one line, exit 2, nothing run or written.
for args in "bogus" "skinny:0" "skinny:ten" "small77" "smallx" ""; do
  : >"$CALLS"
  # shellcheck disable=SC2086  # the words of $args are the parts
  err=$(run "$tmp/bin" "$tmp/bad" $args 2>&1 >/dev/null)
  rc=$?
  [[ $rc -eq 2 ]] || fail "parts '$args': exit $rc, expected 2"
  [[ $(printf '%s\n' "$err" | wc -l) -eq 1 && $err == standing_check.sh:* ]] ||
    fail "parts '$args': not one line: $err"
  [[ ! -s $CALLS && ! -e $tmp/bad ]] || fail "parts '$args': something ran or was written"
done

[[ $failures -eq 0 ]] && echo "PASS" || exit 1

#!/usr/bin/env bash
# cuda/bench/heldout_check.sh without a GPU: a stub lastwave-bench records each call's arguments and
# writes its --out. The small class (shapes with 2MNK < 12 GFLOP or min(M, N) <= 64) and the large
# class split the held-out list; PASSES=2 runs the small class's four commands twice, the second
# pass into -p2 files with the next shuffle seed; the large class re-times cuBLAS beside each
# config past 0.5 ms; each class runs the eight-CTA clusters in a command of its own, the small
# class the narrow tiles' pairs and lines of four in another; both small-class commands run cuBLAS's
# deep-K tiles (64x48, 80x64). LARGE_PART=J/N runs every N-th large shape from J into -partJofN
# files (the parts of one N split the class), and a malformed part exits 2 naming it.
# SMALL_CONFIGS / LARGE_CONFIGS replace a class's commands by one on a configs file.
set -uo pipefail
script="$1"
shapes="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mkdir -p "$tmp/bin" "$tmp/repo/configs/shapes" "$tmp/repo/cuda/bench"
cp "$shapes" "$tmp/repo/configs/shapes/traffic-heldout-chooser.csv"
cp "$script" "$tmp/repo/cuda/bench/heldout_check.sh"
cat >"$tmp/bin/lastwave-bench" <<'STUB'
#!/usr/bin/env bash
echo "$*" >>"$CALLS"
while [[ $# -gt 0 ]]; do [[ $1 == --out ]] && echo "m,n,k" >"$2"; shift; done
STUB
printf '#!/usr/bin/env bash\necho stub-card\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/lastwave-bench" "$tmp/bin/nvidia-smi"
export CALLS="$tmp/calls.txt"
(cd "$tmp/repo" && PATH="$tmp/bin:$PATH" PASSES=2 bash cuda/bench/heldout_check.sh "$tmp/bin" \
  "$tmp/out" 132 >/dev/null 2>&1) || fail "exit status"
[[ $(wc -l <"$CALLS") -eq 10 ]] || fail "expected 10 calls (2 passes x 4 small, 2 large): $(cat "$CALLS")"
for f in heldout-small-132 heldout-small-pairs-132 heldout-small-oct-132 heldout-small-narrow-132 \
  heldout-small-132-p2 heldout-small-pairs-132-p2 heldout-small-oct-132-p2 \
  heldout-small-narrow-132-p2 heldout-large-132 heldout-large-oct-132; do
  [[ -f $tmp/out/$f.csv ]] || fail "no $f.csv"
done
grep -q -- "--shuffle 20261205 .*--out $tmp/out/heldout-small-132-p2.csv" "$CALLS" ||
  fail "the second pass's seed or file"
grep -q -- "--cublas-each-above 0.5 .*heldout-large-132.csv" "$CALLS" || fail "large class: cuBLAS beside"
grep -q -- "--decomposition dp,dp-persistent,splitk:2,splitk:3,splitk:4,splitk:6,splitk:8,.*heldout-small-132.csv" \
  "$CALLS" || fail "the small class's split counts"
grep -q -- "--cluster 4x2,2x4 .*--shuffle 20261205 .*heldout-small-oct-132-p2.csv" "$CALLS" ||
  fail "the second pass's eight-CTA clusters"
grep -q -- "--tile 16x64,.*--cluster 2x1,1x2,4x1,1x4 .*--shuffle 20261205 .*heldout-small-narrow-132-p2.csv" \
  "$CALLS" || fail "the second pass's narrow tiles in pairs and lines of four"
grep -q -- "--tile [^ ]*64x48,[^ ]*80x64,[^ ]* --cluster 4x2,2x4 .*heldout-small-oct-132.csv" "$CALLS" ||
  fail "the small class's eight-CTA command: cuBLAS's deep-K tiles 64x48 / 80x64"
grep -q -- "--tile [^ ]*,64x48,80x64 --cluster 2x1,1x2,4x1,1x4 .*heldout-small-narrow-132.csv" "$CALLS" ||
  fail "the pairs command: cuBLAS's deep-K tiles 64x48 / 80x64"
grep -q -- "--cluster 4x2,2x4 .*--cublas-each-above 0.5 .*heldout-large-oct-132.csv" "$CALLS" ||
  fail "large class: eight-CTA clusters with cuBLAS beside"
small=$(grep -c '^[0-9]' "$tmp/out/heldout-small-shapes.csv")
large=$(grep -c '^[0-9]' "$tmp/out/heldout-large-shapes.csv")
[[ $((small + large)) -eq $(grep -c '^[0-9]' "$shapes") ]] || fail "the classes do not split the list"
[[ $small -eq 127 && $large -eq 83 ]] || fail "classes $small / $large, expected 127 / 83"
parts=()
for j in 0 1 2; do
  : >"$CALLS"
  (cd "$tmp/repo" && PATH="$tmp/bin:$PATH" LARGE_PART=$j/3 bash cuda/bench/heldout_check.sh \
    "$tmp/bin" "$tmp/part" 96 large >/dev/null 2>&1) || fail "LARGE_PART=$j/3: exit status"
  f="$tmp/part/heldout-large-part${j}of3"
  [[ -f $f-96.csv && -f $f-oct-96.csv ]] || fail "LARGE_PART=$j/3: no $f-96.csv / -oct-96.csv"
  [[ $(wc -l <"$CALLS") -eq 2 ]] || fail "LARGE_PART=$j/3: expected the 2 large calls"
  grep '^[0-9]' "$f-shapes.csv" >>"$tmp/parts.csv"
  parts+=("$(grep -c '^[0-9]' "$f-shapes.csv")")
done
[[ ${parts[*]} == "28 28 27" ]] || fail "the parts hold ${parts[*]} shapes, expected 28 28 27"
[[ $(sort "$tmp/parts.csv" | uniq | wc -l) -eq 83 ]] || fail "the three parts are not the 83"
# SMALL_CONFIGS / LARGE_CONFIGS: one command per class on the listed configs, into -pruned files.
printf 'tile,cluster,decomposition\n64x64,1x1,dp\n' >"$tmp/cfg.csv"
: >"$CALLS"
(cd "$tmp/repo" && PATH="$tmp/bin:$PATH" PASSES=2 SMALL_CONFIGS="$tmp/cfg.csv" \
  LARGE_CONFIGS="$tmp/cfg.csv" LARGE_PART=1/3 bash cuda/bench/heldout_check.sh "$tmp/bin" \
  "$tmp/pruned" 64 >/dev/null 2>&1) || fail "CONFIGS: exit status"
[[ $(wc -l <"$CALLS") -eq 3 ]] || fail "CONFIGS: expected 3 calls (2 small passes, 1 large): $(cat "$CALLS")"
[[ $(grep -c -- "--configs $tmp/cfg.csv" "$CALLS") -eq 3 ]] || fail "CONFIGS: a call without --configs"
grep -q -- "--tile\|--decomposition\|--cluster" "$CALLS" && fail "CONFIGS: a call with its own lists"
for f in heldout-small-pruned-64 heldout-small-pruned-64-p2 heldout-large-part1of3-pruned-64; do
  [[ -f $tmp/pruned/$f.csv ]] || fail "CONFIGS: no $f.csv"
done
grep -q -- "--cublas-each-above 0.5 .*heldout-large-part1of3-pruned-64.csv" "$CALLS" ||
  fail "CONFIGS: the large class without cuBLAS beside"
for bad in 3/3 x/2 1/0; do
  err=$(cd "$tmp/repo" && PATH="$tmp/bin:$PATH" LARGE_PART=$bad bash cuda/bench/heldout_check.sh \
    "$tmp/bin" "$tmp/bad" 132 large 2>&1 >/dev/null)
  [[ $? -eq 2 && $err == *"LARGE_PART must be J/N"* ]] || fail "LARGE_PART=$bad: not refused ($err)"
done
exit $((failures > 0))

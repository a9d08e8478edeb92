#!/usr/bin/env bash
# The README's and docs/TOUR.md's `$ tools/lastwave.sh` transcripts print what they show
# (tools/check_doc_blocks.py runs each against the built `lastwave`), and the checker itself fails
# a transcript with a wrong number, honours `...`, and refuses a block that ends inside a command
# (exit 2).
set -uo pipefail
checker="$1" lastwave="$2"
shift 2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

python3 "$checker" --lastwave "$lastwave" --root . "$@" || fail "documents differ from the binary"

fence='```'
# The tutorial's Case 2 table's first rows (tests/golden pins the whole table),
# then one digit changed.
good_row='  dp -> DataParallel                                    132.0  eff   54.5%'
cat >"$tmp/good.md" <<MD
$fence
\$ tools/lastwave.sh
cost model: unit (1 per MAC iteration, epilogue 2, partial store/load 2)

1536x1536x4096 on H100 SXM (132 SMs): 144 tiles x 64 iters, ideal makespan 72.0
$good_row
...
$fence
MD
python3 "$checker" --lastwave "$lastwave" --root . "$tmp/good.md" 2>"$tmp/err" ||
  fail "a true transcript cut by ... was not accepted: $(cat "$tmp/err")"
sed 's/132.0  eff/133.0  eff/' "$tmp/good.md" >"$tmp/bad.md"
python3 "$checker" --lastwave "$lastwave" --root . "$tmp/bad.md" 2>"$tmp/err"
rc=$?
[[ $rc == 1 ]] || fail "a wrong number: exit $rc, not 1"
grep -q '^+  dp -> DataParallel  *132.0' "$tmp/err" || fail "the diff does not show the printed row"
printf '%s\n$ tools/lastwave.sh predict \\\n%s\n' "$fence" "$fence" >"$tmp/malformed.md"
python3 "$checker" --lastwave "$lastwave" --root . "$tmp/malformed.md" 2>"$tmp/err"
rc=$?
[[ $rc == 2 && $(wc -l <"$tmp/err") == 1 ]] || fail "a block ending in a continued command: exit $rc, $(cat "$tmp/err")"

[[ $failures == 0 ]] && echo "doc_blocks_test: ok"
exit $((failures > 0))

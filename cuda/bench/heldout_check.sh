#!/usr/bin/env bash
# The overall target's table (issues 29 and 30, docs/PERFORMANCE.md): the 210 held-out traffic-like
# shapes (configs/shapes/traffic-heldout-chooser.csv) on every config that can win them, cuBLAS in
# every row. Shapes are split by a rule on the shape alone: small or skinny (2MNK < 12 GFLOP or
# min(M, N) <= 64) run every tile 1x1 with the decompositions that suit few tiles, and the 128-row
# tiles of 128 columns and more, 192x192, 136x128 and 144x128 in pairs (a pair was the fastest
# config on 23 of the 127 among the 128-row tiles, docs/PERFORMANCE.md), and the narrow tiles in
# pairs and lines of four; the others run the 64- to 256-wide tiles, 136x128 and 144x128 with the
# clusters of up to four CTAs (a tile x cluster the kernels lack is refused in a row) and the persistent,
# split-K and Stream-K family. Each class also runs the eight-CTA clusters in a command of its own
# (files heldout-*-oct-*). tools/small_report.py takes the CSVs together.
# Usage: [PASSES=P] cuda/bench/heldout_check.sh BIN_DIR OUT_DIR [SMS] [small,large]   (BIN_DIR:
# lastwave-bench)
# TIME_LIMIT_S=N: each class's run starts no shape after N s (lastwave-bench --time-limit), so a
# short device budget still writes the shapes it measured (tools/small_report.py warns which file
# lacks which share of the shapes). On the lent device machines only about 8 files of a command's
# $OUT come back: give this script a scratch OUT_DIR and tar it into $OUT.
# LARGE_PART=J/N: the large class's rows J, J + N, J + 2N... only (0 <= J < N; its files end
# -partJofN), so the class fits commands of a bounded length (about 1,000 s on an H200 in all).
# SMALL_CONFIGS=FILE / LARGE_CONFIGS=FILE: the class runs one command of the configs FILE lists
# (lastwave-bench --configs; e.g. tools/prune_configs.py's list of those that came within 3 % of
# some shape's best in earlier runs) in place of its own commands, into heldout-small-pruned-* /
# heldout-large[-partJofN]-pruned-* files.
# A pruned run is one command where the class is four: it times cuBLAS once a shape, not four
# times, so compare it with a full run by tools/small_report.py --cublas-ref median.
set -uo pipefail
BIN=$1
OUT=$2
SMS=${3:-132}
SMALL_FLOPS=12000000000  # 2MNK below this: a small problem (~16 us at 750 TFLOP/s)
SKINNY=64                # min(M, N) at most this: a skinny problem
WHICH=${4:-small,large}   # the classes to run
# Large shapes whose cuBLAS time passes this (ms) get cuBLAS timed beside every config: runs of a
# few ms heat the card, so one cuBLAS time per shape, taken first, favours cuBLAS (the H100's
# > 1 ms band: 0.925x against one time per shape, 1.013x beside each row, docs/PERFORMANCE.md).
CUBLAS_EACH_ABOVE_MS=0.5
SEED=20261204  # --shuffle of the first pass; pass P draws from SEED + P - 1
# PASSES=P: the small class P times (independent passes: tools/small_report.py PASS1... --pass
# PASS2...; one pass of it moves its figure by about 2.5 %, docs/PERFORMANCE.md).
PASSES=${PASSES:-1}
# Eight-CTA clusters (4x2, 2x4), a command of their own per class: the tiles they won on in their
# first runs (docs/PERFORMANCE.md; dp / dp-persistent, one splitk:2) with cuBLAS's deep-K tiles
# 64x48 / 80x64 and their transposes, and, in the large class, dp-persistent on the wide tiles.
OCT_SMALL_TILES=48x64,64x48,64x64,64x80,80x64,64x96,64x128,128x64,128x96,128x112,128x128
# The narrow tiles (and 64x64) in pairs and lines of four (4x1 / 1x4: 3-17 % on the small shapes
# they won, docs/PERFORMANCE.md), and cuBLAS's deep-K tiles 64x48 / 80x64 and their transposes in
# pairs (up to 7 % on deep-K shapes), a command of their own in the small class
# (heldout-small-narrow-*; a tile x cluster the kernels lack is refused in a row).
NARROW_TILES=16x64,16x128,32x64,32x128,64x16,64x32,64x64,48x64,64x48,80x64
OCT_LARGE_TILES=64x128,128x96,128x112,128x128,128x160,128x192,128x224,128x256,192x192,256x128
limit=()
[[ -n ${TIME_LIMIT_S:-} ]] && limit=(--time-limit "$TIME_LIMIT_S")
mkdir -p "$OUT"
status=0
part=${LARGE_PART:-0/1}
part_j=${part%/*}
part_n=${part#*/}
if ! [[ $part =~ ^[0-9]+/[0-9]+$ ]] || ((part_n < 1 || part_j >= part_n)); then
  echo "heldout_check.sh: LARGE_PART must be J/N with 0 <= J < N, not '$part'" >&2
  exit 2
fi
large="$OUT/heldout-large"  # the large class's file prefix (one part of it: -partJofN)
((part_n > 1)) && large+="-part${part_j}of${part_n}"
split() {  # split CLASS [J N]: the held-out shapes of one class (rows J, J + N... of it), a CSV
  awk -F, -v want="$1" -v f="$SMALL_FLOPS" -v s="$SKINNY" -v j="${2:-0}" -v n="${3:-1}" '
    $1 !~ /^[0-9]/ { print; next }
    { small = (2 * $1 * $2 * $3 < f || ($1 < $2 ? $1 : $2) <= s) }
    (want == "small") == small && (row++ % n) == j { print }' configs/shapes/traffic-heldout-chooser.csv
}
split small >"$OUT/heldout-small-shapes.csv"
split large "$part_j" "$part_n" >"$large-shapes.csv"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv,noheader | tee "$OUT/heldout-card.txt"
# The small class's split counts: 2, 4 and 8 and the 3 and 6 that `best` tries (they win 3-6 % on
# deep-K shapes whose tile count times 2 or 4 misses a wave, docs/PERFORMANCE.md).
SMALL_DECOMPS=dp,dp-persistent,splitk:2,splitk:3,splitk:4,splitk:6,splitk:8
SMALL_DECOMPS+=,splitk-dsm:2,splitk-dsm:4,splitk-dsm:8,streamk
small_pass() {  # small_pass P: the small class's four commands, pass P (P > 1: files end -pP)
  local sfx="" seed=$((SEED + $1 - 1))
  [[ $1 -gt 1 ]] && sfx="-p$1"
  if [[ -n ${SMALL_CONFIGS:-} ]]; then
    "$BIN/lastwave-bench" --shapes "$OUT/heldout-small-shapes.csv" --configs "$SMALL_CONFIGS" \
      --shuffle "$seed" --sms "$SMS" "${limit[@]}" --out "$OUT/heldout-small-pruned-$SMS$sfx.csv" \
      >"$OUT/heldout-small-$SMS$sfx-log.txt" 2>&1 || status=1
    return
  fi
  "$BIN/lastwave-bench" --shapes "$OUT/heldout-small-shapes.csv" --tile all --cluster 1x1 \
    --decomposition "$SMALL_DECOMPS" \
    --shuffle "$seed" --sms "$SMS" "${limit[@]}" --out "$OUT/heldout-small-$SMS$sfx.csv" \
    >"$OUT/heldout-small-$SMS$sfx-log.txt" 2>&1 || status=1
  "$BIN/lastwave-bench" --shapes "$OUT/heldout-small-shapes.csv" \
    --tile 128x128,128x160,128x192,128x224,128x256,192x192,256x128,136x128,144x128 --cluster 2x1,1x2 \
    --decomposition dp,dp-persistent,splitk:2 --shuffle "$seed" --sms "$SMS" "${limit[@]}" \
    --out "$OUT/heldout-small-pairs-$SMS$sfx.csv" >>"$OUT/heldout-small-$SMS$sfx-log.txt" 2>&1 ||
    status=1
  "$BIN/lastwave-bench" --shapes "$OUT/heldout-small-shapes.csv" --tile "$OCT_SMALL_TILES" \
    --cluster 4x2,2x4 --decomposition dp,dp-persistent,splitk:2 --shuffle "$seed" --sms "$SMS" \
    "${limit[@]}" --out "$OUT/heldout-small-oct-$SMS$sfx.csv" \
    >>"$OUT/heldout-small-$SMS$sfx-log.txt" 2>&1 || status=1
  "$BIN/lastwave-bench" --shapes "$OUT/heldout-small-shapes.csv" --tile "$NARROW_TILES" \
    --cluster 2x1,1x2,4x1,1x4 --decomposition dp,dp-persistent,splitk:2,splitk:4 --shuffle "$seed" \
    --sms "$SMS" "${limit[@]}" --out "$OUT/heldout-small-narrow-$SMS$sfx.csv" \
    >>"$OUT/heldout-small-$SMS$sfx-log.txt" 2>&1 || status=1
}
if [[ ,$WHICH, == *,small,* ]]; then
  for ((pass = 1; pass <= PASSES; pass++)); do small_pass "$pass"; done
fi
if [[ ,$WHICH, == *,large,* && -n ${LARGE_CONFIGS:-} ]]; then
  "$BIN/lastwave-bench" --shapes "$large-shapes.csv" --configs "$LARGE_CONFIGS" \
    --cublas-each-above "$CUBLAS_EACH_ABOVE_MS" --shuffle "$SEED" --sms "$SMS" "${limit[@]}" \
    --out "$large-pruned-$SMS.csv" >"$large-$SMS-log.txt" 2>&1 || status=1
elif [[ ,$WHICH, == *,large,* ]]; then
  "$BIN/lastwave-bench" --shapes "$large-shapes.csv" \
    --tile 64x128,128x64,64x256,128x128,128x160,128x192,128x224,128x256,192x192,256x128,136x128,144x128 \
    --cluster 1x1,2x1,1x2,2x2 --decomposition dp-persistent,splitk:2,splitk:4,streamk \
    --cublas-each-above "$CUBLAS_EACH_ABOVE_MS" \
    --shuffle "$SEED" --sms "$SMS" "${limit[@]}" --out "$large-$SMS.csv" \
    >"$large-$SMS-log.txt" 2>&1 || status=1
  "$BIN/lastwave-bench" --shapes "$large-shapes.csv" --tile "$OCT_LARGE_TILES" \
    --cluster 4x2,2x4 --decomposition dp-persistent --cublas-each-above "$CUBLAS_EACH_ABOVE_MS" \
    --shuffle "$SEED" --sms "$SMS" "${limit[@]}" --out "$large-oct-$SMS.csv" \
    >>"$large-$SMS-log.txt" 2>&1 || status=1
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader |
  tee -a "$OUT/heldout-card.txt"
exit $status

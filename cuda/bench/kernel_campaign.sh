#!/usr/bin/env bash
# Kernel acceptance campaign (docs/PERFORMANCE.md): lastwave-bench over a traffic-like shape set x
# kernel tiles x clusters x decompositions at 132 SMs and on a subset at 96 and 64 SMs, beside
# cuBLAS (in every row) and the CUTLASS peer (cutlass_bench, if BIN_DIR has it) in one command.
# Shapes run in chunks; no chunk starts after DEADLINE_S seconds, so a device call always returns
# with whole chunks. Usage: cuda/bench/kernel_campaign.sh BIN_DIR OUT_DIR [SHAPES.csv]
set -uo pipefail
BIN=$1
OUT=$2
SHAPES=${3:-configs/shapes/traffic-heldout-chooser.csv}
TILES=${TILES:-64x128,64x256,128x128,128x176,128x256,256x128}
CLUSTERS=${CLUSTERS:-1x1,2x1}
DECOMPS=${DECOMPS:-dp,dp-persistent,splitk:2,splitk:4,streamk,cutlass}
PART_SMS=${PART_SMS-96,64}
PART_SHAPES=${PART_SHAPES:-100}   # first shapes of the set also run at PART_SMS
PART_TILES=${PART_TILES:-64x128,128x128,128x176,128x256,256x128}
PART_DECOMPS=${PART_DECOMPS:-dp-persistent,splitk:2,splitk:4,streamk,cutlass}
CHUNK=${CHUNK:-30}
REPS=${REPS:-7}
WARMUP=${WARMUP:-1}
DEADLINE_S=${DEADLINE_S:-480}
mkdir -p "$OUT/chunks"
start=$SECONDS

# Splits shapes file $1 (first $3 shapes, all if empty) into $OUT/chunks/$2-NNN.csv.
chunks() {
  local rows
  rows=$(grep '^[0-9]' "$1")
  [[ -n ${3:-} ]] && rows=$(head -n "$3" <<<"$rows")
  split -d -a 3 -l "$CHUNK" --additional-suffix=.csv - "$OUT/chunks/$2-" <<<"$rows"
  for f in "$OUT/chunks/$2"-*.csv; do sed -i '1i m,n,k' "$f"; done
  ls "$OUT/chunks/$2"-*.csv
}

# run_set NAME SMS TILES DECOMPS [LIMIT]: every chunk of the set, each its own CSV.
run_set() {
  local f
  for f in $(chunks "$SHAPES" "$1" "${5:-}"); do
    if ((SECONDS - start > DEADLINE_S)); then
      echo "deadline: skipping $f" >&2
      continue
    fi
    "$BIN/lastwave-bench" --shapes "$f" --sms "$2" --tile "$3" --cluster "$CLUSTERS" \
      --decomposition "$4" --reps "$REPS" --warmup "$WARMUP" --out "${f%.csv}.out.csv" \
      2>>"$OUT/bench-log.txt"
    echo "[$((SECONDS - start)) s] $f rc=$?" >&2
  done
}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
    --format=csv
} >"$OUT/card.txt"
if [[ -x $BIN/cutlass_bench ]]; then
  "$BIN/cutlass_bench" --shapes "$SHAPES" --configs all --reps "$REPS" --out "$OUT/cutlass.csv" \
    >>"$OUT/cutlass-log.txt" 2>&1
  echo "[$((SECONDS - start)) s] cutlass_bench rc=$?" >&2
fi
run_set s132 132 "$TILES" "$DECOMPS"
# PART_SMS= (empty) skips the partitioned runs.
[[ -n $PART_SMS ]] && run_set part "$PART_SMS" "$PART_TILES" "$PART_DECOMPS" "$PART_SHAPES"
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >>"$OUT/card.txt"
# One CSV of every row (header once).
first=1
for f in "$OUT"/chunks/*.out.csv; do
  if ((first)); then cat "$f"; else tail -n +2 "$f"; fi
  first=0
done >"$OUT/ours.csv"
echo "kernel campaign done in $((SECONDS - start)) s: $OUT/ours.csv" >&2

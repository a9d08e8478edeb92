#!/usr/bin/env bash
# The kernels' standing against cuBLAS (docs/PERFORMANCE.md's first table) in ONE device command:
# each PART named runs under its own time limit, one after another, and WORK_DIR is packed into
# PACK (a .tgz, e.g. under the device's $OUT) every PACK_EVERY_S seconds and at the end, so a
# command cut short still returns the rows it measured. card.txt logs the card, then each part's
# exit status, seconds and SM clock at its end.
# Usage: [PACK=FILE.tgz] cuda/bench/standing_check.sh BIN_DIR WORK_DIR PART[:SECONDS]...
#   BIN_DIR: lastwave-bench (and gpu_suite for racecheck and suite); run from the repository root.
# Parts (SECONDS: the part's limit; its default below):
#   skinny       configs/shapes/skinny-m.csv, every tile 1x1 (docs/PERFORMANCE.md, "Skinny M by M")
#   smallSMS     the held-out small class at SMS SMs (132, 96, 64, ...) on its pruned config list
#                configs/bench-configs/heldout-small-SMS.csv (cuda/bench/heldout_check.sh)
#   squares      4096^3 on the dp family, cuBLAS timed beside every row ("Squares and K % 64 != 0")
#   racecheck    compute-sanitizer racecheck of gpu_suite's per-decomposition sanitize case on the
#                128-deep tiles
#   suite        the whole GPU suite (cuda/run_on_gpu.sh BIN WORK/suite suite, the form of
#                docs/gpu-suite-log.txt; LW_COMMIT names the binaries' commit in its header)
# The device call's own limit must exceed the sum of the parts' (plus ~30 s of set-up).
# Exit 1 when a part exits non-zero (card.txt's rc; lastwave-bench's 4: it stopped at the part's
# time limit, its rows written; heldout_check.sh's 1 then too), 2 on bad parts (before any runs).
set -uo pipefail
if (($# < 3)); then
  echo "standing_check.sh: usage: [PACK=F.tgz] standing_check.sh BIN_DIR WORK_DIR PART[:S]..." >&2
  exit 2
fi
BIN=$1
WORK=$2
shift 2
PACK_EVERY_S=${PACK_EVERY_S:-15}
# Each part's default limit (s): skinny M's 54 shapes x 41 tiles x 9 decompositions fit in about 2
# minutes (H100); a pruned small class at 132 / 96 SMs in 230 (64 SMs needs about 260,
# docs/PERFORMANCE.md); the whole suite is not yet timed on the 41 tiles.
declare -A DEFAULT_S=([skinny]=125 [small]=230 [squares]=90 [racecheck]=110 [suite]=420)
SKINNY_DECOMPS=dp,dp-persistent,splitk:2,splitk:4,splitk:8,splitk-dsm:2,splitk-dsm:4,splitk-dsm:8
SKINNY_DECOMPS+=,streamk
DEEP_TILES=16x64x128,16x128x128,32x64x128,32x128x128,48x64x128,64x16x128,64x32x128,64x48x128
DEEP_TILES+=,64x64x128,80x64x128
SEED=20261206  # --shuffle of the skinny and squares commands (the seed of their earlier tables)

die() {
  echo "standing_check.sh: $*" >&2
  exit 2
}
parts=()  # NAME:SECONDS, every part checked before any runs
for spec in "$@"; do
  name=${spec%%:*}
  [[ $spec == *:* && ! ${spec#*:} =~ ^[1-9][0-9]*$ ]] &&
    die "part '$spec': SECONDS must be a positive integer"
  case $name in
    skinny | squares | racecheck | suite) limit=${DEFAULT_S[$name]} ;;
    small[1-9]*)
      limit=${DEFAULT_S[small]}
      [[ ${name#small} =~ ^[0-9]+$ ]] || die "unknown part '$name'"
      [[ -f configs/bench-configs/heldout-small-${name#small}.csv ]] ||
        die "part '$name': no configs/bench-configs/heldout-small-${name#small}.csv"
      ;;
    *) die "unknown part '$name' (skinny, smallSMS, squares, racecheck, suite)" ;;
  esac
  [[ $spec == *:* ]] && limit=${spec#*:}
  parts+=("$name:$limit")
done
[[ -x $BIN/lastwave-bench ]] || die "no $BIN/lastwave-bench"
mkdir -p "$WORK" || die "cannot create $WORK"

pack() { [[ -z ${PACK:-} ]] || tar czf "$PACK" -C "$WORK" . 2>/dev/null; }
packer=""
if [[ -n ${PACK:-} ]]; then
  (while sleep "$PACK_EVERY_S"; do pack; done) &
  packer=$!
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv >"$WORK/card.txt"

run_part() {  # run_part NAME SECONDS
  local name=$1 limit=$2
  case $name in
    skinny)
      "$BIN/lastwave-bench" --shapes configs/shapes/skinny-m.csv --tile all --cluster 1x1 \
        --decomposition "$SKINNY_DECOMPS" --shuffle "$SEED" --time-limit "$limit" \
        --out "$WORK/skinny-m-132.csv" >"$WORK/skinny-log.txt" 2>&1
      ;;
    small*)
      local sms=${name#small}
      SMALL_CONFIGS=configs/bench-configs/heldout-small-$sms.csv TIME_LIMIT_S=$limit \
        bash cuda/bench/heldout_check.sh "$BIN" "$WORK/$name" "$sms" small \
        >"$WORK/$name-log.txt" 2>&1
      ;;
    squares)  # one shape: --time-limit would stop nothing, so the limit is a timeout
      timeout "$limit" "$BIN/lastwave-bench" --m 4096 --n 4096 --k 4096 --tile 128x256,256x128 \
        --cluster 1x1,2x1,1x2 --decomposition dp,dp-persistent --cublas-each --reps 20 \
        --warmup 3 --shuffle "$SEED" --out "$WORK/squares-4096.csv" >"$WORK/squares-log.txt" 2>&1
      ;;
    racecheck)
      LW_SUITE_TILES=$DEEP_TILES timeout "$limit" compute-sanitizer --tool racecheck \
        --error-exitcode 9 "$BIN/gpu_suite" -tc="sanitize: one small*" \
        >"$WORK/racecheck-deep.txt" 2>&1
      ;;
    suite)
      timeout "$limit" bash cuda/run_on_gpu.sh "$BIN" "$WORK/suite" suite >/dev/null 2>&1
      ;;
  esac
}

status=0
for spec in "${parts[@]}"; do
  name=${spec%%:*}
  SECONDS=0
  run_part "$name" "${spec#*:}"
  rc=$?
  ((rc == 0)) || status=1
  echo "$name rc=$rc s=$SECONDS $(date -u +%T) sm=$(nvidia-smi --query-gpu=clocks.sm \
    --format=csv,noheader)" >>"$WORK/card.txt"
  pack
done
[[ -n $packer ]] && kill "$packer" 2>/dev/null
pack
exit $status

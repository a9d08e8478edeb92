#!/usr/bin/env bash
# The issue-8 measurement campaign: lastwave-bench over the traffic-like shape sets
# (configs/shapes/traffic-*.csv) x every decomposition x kernel tiles at 132 SMs, the partition set
# at 96/64/32/16 SMs, and traces for a few shapes. Resumable: a chunk whose CSV exists is skipped.
# Usage: cuda/bench/traffic_campaign.sh BIN_DIR OUT_DIR   (run from the repository root)
# Env: TILE_GROUPS (3: each shape chunk runs 128x128x64 plus one third of the other tiles; 1 = all
#      tiles everywhere), CHUNK (20 shapes per lastwave-bench call), REPS (10), WARMUP (2),
#      TILES (comma list; default: kKernelTiles of sim/decomp/kernel_configs.hpp), PLAN_ONLY=1,
#      CLUSTERS (132-SM runs; default 1x1,2x1; partitions run 1x1), DEADLINE_S (no call starts
#      after it; default 500, so one device command returns with whole chunks), SETS (132-SM
#      shape sets; default "train validation test"), PARTITIONS (space-separated NAME@SMS: shapes
#      file configs/shapes/PREFIX-NAME.csv at those SM counts; default partitions@96,64,32,16; empty:
#      none),
#      TRACE_SHAPES (8; 0 = no traces), SHAPES_PREFIX (traffic: configs/shapes/PREFIX-SET.csv; refit:
#      tools/gen_refit_shapes.py's sets), DECOMPS (comma list; default below).
set -uo pipefail
BIN=$1
OUT=$2
B="$BIN/lastwave-bench"
SHAPES=configs/shapes
SHAPES_PREFIX=${SHAPES_PREFIX:-traffic}
DECOMPS=${DECOMPS:-dp,splitk:2,splitk:4,streamk,cutlass,two-tile}
TRACE_DECOMPS=dp,splitk:2,streamk,cutlass
SETS=${SETS-train validation test}  # heldout-chooser: cuda/bench/kernel_campaign.sh (the chooser check)
PARTITIONS=${PARTITIONS-partitions@96,64,32,16}  # set and empty: no partition runs
TILE_GROUPS=${TILE_GROUPS:-3}
CLUSTERS=${CLUSTERS:-1x1,2x1}
DEADLINE_S=${DEADLINE_S:-500}
CHUNK=${CHUNK:-20}
REPS=${REPS:-10}
WARMUP=${WARMUP:-2}
TRACE_SHAPES=${TRACE_SHAPES:-8}   # first shapes of the train set that also get traces
CONFIGS_PER_S=100                 # the lead's measured throughput, for the time estimate
ANCHOR=128x128x64                 # every chunk runs it: ties every tile to the existing data

# Every tile of the kernels' one list (sim/decomp/kernel_configs.hpp), as MxNxK.
default_tiles() {
  sed -n '/kKernelTiles\[\] = {/,/};/p' sim/decomp/kernel_configs.hpp |
    grep -o '{[0-9]*, *[0-9]*, *[0-9]*}' | tr -d '{} ' | tr ',' 'x' | paste -sd,
}
TILES=${TILES:-$(default_tiles)}
IFS=, read -ra ALL_TILES <<<"$TILES"
OTHERS=()
for t in "${ALL_TILES[@]}"; do [[ $t == "$ANCHOR" ]] || OTHERS+=("$t"); done

# Tile list of chunk number $1: the anchor plus every TILE_GROUPS-th other tile.
tiles_of_chunk() {
  local g=$(($1 % TILE_GROUPS)) list=$ANCHOR i
  for ((i = g; i < ${#OTHERS[@]}; i += TILE_GROUPS)); do list+=",${OTHERS[$i]}"; done
  echo "$list"
}
# Tile list of a partition chunk: the anchor plus one rotating other tile.
partition_tiles_of_chunk() { echo "$ANCHOR,${OTHERS[$(($1 % ${#OTHERS[@]}))]}"; }

count() { echo $(($(echo "$1" | tr -cd , | wc -c) + 1)); }
n_decomps=$(count $DECOMPS)

# Splits shapes file $1 into $OUT/chunks/$2-NNN.csv (header kept); prints the chunk files.
make_chunks() {
  local dir="$OUT/chunks"
  mkdir -p "$dir"
  grep -v '^#' "$1" | tail -n +2 | split -d -a 3 -l "$CHUNK" --additional-suffix=.csv - "$dir/$2-"
  for f in "$dir/$2"-*.csv; do sed -i '1i m,n,k' "$f"; done
  ls "$dir/$2"-*.csv
}

# One planned lastwave-bench call per line: "OUTFILE|SMS|TILES|CHUNKFILE|CLUSTERS".
plan() {
  local set f i=0
  for set in $SETS; do
    for f in $(make_chunks "$SHAPES/$SHAPES_PREFIX-$set.csv" "$set"); do
      echo "$OUT/$set/sms132-$(basename "$f")|132|$(tiles_of_chunk $i)|$f|$CLUSTERS"
      i=$((i + 1))
    done
  done
  local item name sms
  for item in $PARTITIONS; do
    name=${item%@*}
    sms=${item#*@}
    i=0
    for f in $(make_chunks "$SHAPES/$SHAPES_PREFIX-$name.csv" "$name"); do
      echo "$OUT/$name/sms${sms//,/-}-$(basename "$f")|$sms|$(partition_tiles_of_chunk $i)|$f|1x1"
      i=$((i + 1))
    done
  done
}

configs_of() { # OUTFILE|SMS|TILES|CHUNKFILE|CLUSTERS -> configurations of that call
  local sms tiles file clusters
  IFS='|' read -r _ sms tiles file clusters <<<"$1"
  echo $(($(grep -c '^[0-9]' "$file") * n_decomps * $(count "$tiles") * $(count "$sms") *
    $(count "$clusters")))
}

mkdir -p "$OUT/traces"
PLAN=$(plan)
total=0
while read -r line; do total=$((total + $(configs_of "$line"))); done <<<"$PLAN"
trace_configs=$((TRACE_SHAPES * $(count $TRACE_DECOMPS)))
echo "traffic campaign: $(echo "$PLAN" | wc -l) bench calls, $total configurations + $trace_configs traced" \
  "(~$(((total + trace_configs) / CONFIGS_PER_S)) s at $CONFIGS_PER_S configs/s); tiles: $TILES" >&2
[[ ${PLAN_ONLY:-0} == 1 ]] && exit 0

{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw,temperature.gpu --format=csv; } \
  >>"$OUT/campaign-log.txt" 2>&1
done_configs=0
status=0
start=$SECONDS
while read -r line; do
  IFS='|' read -r outfile sms tiles file clusters <<<"$line"
  n=$(configs_of "$line")
  done_configs=$((done_configs + n))
  if [[ -s $outfile ]]; then
    echo "skip $outfile (exists)" >&2
    continue
  fi
  if ((SECONDS - start > DEADLINE_S)); then
    echo "deadline: $outfile not run (run again to resume)" >&2
    status=1
    continue
  fi
  mkdir -p "$(dirname "$outfile")"
  "$B" --shapes "$file" --decomposition $DECOMPS --tile "$tiles" --cluster "$clusters" \
    --sms "$sms" --reps "$REPS" \
    --warmup "$WARMUP" --out "$outfile.tmp" >>"$OUT/campaign-log.txt" 2>&1
  rc=$?
  # rc 2 = some config failed its correctness check (lastwave-bench kExitCheckFailed): rows are
  # kept (ok=0), the chunk is done.
  if [[ $rc -eq 0 || $rc -eq 2 ]] && [[ -s $outfile.tmp ]]; then mv "$outfile.tmp" "$outfile"; else status=1; fi
  echo "[$((SECONDS - start)) s] $done_configs / $total configs: $outfile rc=$rc" >&2
done <<<"$PLAN"

trace_shapes="$OUT/chunks/traces.csv"
{ echo m,n,k; grep '^[0-9]' "$SHAPES/$SHAPES_PREFIX-train.csv" | head -n "$TRACE_SHAPES"; } >"$trace_shapes"
if ((TRACE_SHAPES > 0)) && [[ ! -s $OUT/traces/traces.csv ]]; then
  "$B" --shapes "$trace_shapes" --decomposition $TRACE_DECOMPS --tile $ANCHOR --reps 3 \
    --out "$OUT/traces/traces.csv" --trace "$OUT/traces/h200.json" >>"$OUT/campaign-log.txt" 2>&1 ||
    status=1
  echo "[$((SECONDS - start)) s] traces done" >&2
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >>"$OUT/campaign-log.txt" 2>&1
echo "traffic campaign finished, status $status; rows in $OUT/{${SETS// /,},${PARTITIONS// /,}} (NAME@SMS: NAME)" >&2
exit $status

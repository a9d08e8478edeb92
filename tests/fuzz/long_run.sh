#!/usr/bin/env bash
# Long fuzzing campaign (docs/FUZZING.md): builds the targets with --config=fuzz, then runs each in
# turn for RUNS executions (capped at MAX_SECONDS) from a copy of its seed corpus, one line per
# target: name, executions, seconds, result. Usage: tests/fuzz/long_run.sh [TARGET...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

runs="${RUNS:-1000000}"
max_seconds="${MAX_SECONDS:-3600}"
per_input_timeout_s=10
rss_limit_mb=2048
max_len=4096
work="${WORK:-/tmp/lastwave-fuzz}"
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(shapes_csv_fuzz measurements_fuzz model_file_fuzz gpu_preset_fuzz trace_fuzz
    schedule_fuzz tile_fuzz sm_list_fuzz)
fi

nice -n 10 bazel build --jobs=2 --config=fuzz "${targets[@]/#///tests/fuzz:}" || exit 1
bin="$(bazel info --config=fuzz bazel-bin)/tests/fuzz"

status=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
  cp tests/fuzz/corpus/"$t"/* "$work/$t/corpus/"
  start=$(date +%s)
  nice -n 10 "$bin/$t" -runs="$runs" -max_total_time="$max_seconds" -timeout="$per_input_timeout_s" \
    -rss_limit_mb="$rss_limit_mb" -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" >"$work/$t/log" 2>&1
  rc=$?
  seconds=$(($(date +%s) - start))
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$work/$t/log" | grep -oE '[0-9]+$')
  result=$([[ $rc == 0 ]] && echo "ok" || echo "FAILED rc=$rc (see $work/$t/log)")
  echo "$t executions=${execs:-?} seconds=$seconds result=$result"
  [[ $rc == 0 ]] || status=1
done
exit $status

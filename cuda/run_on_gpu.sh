#!/usr/bin/env bash
# Runs the CUDA GEMM's GPU suite, compute-sanitizer checks and a default benchmark on an
# H100/H200 from prebuilt binaries (built without a GPU: bazel build //cuda/bench:lastwave-bench
# //tests/cuda:gpu_suite). Usage: cuda/run_on_gpu.sh [BIN_DIR] [OUT_DIR] [suite|sanitize|bench|all]
set -uo pipefail

BIN=${1:-bazel-bin}
OUT=${2:-gpu-out}
WHAT=${3:-all}
mkdir -p "$OUT"
SUITE=$(ls "$BIN"/gpu_suite "$BIN"/tests/cuda/gpu_suite 2>/dev/null | head -1)
BENCH=$(ls "$BIN"/lastwave-bench "$BIN"/cuda/bench/lastwave-bench 2>/dev/null | head -1)
SANITIZER=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
# Seconds per sanitizer tool: racecheck of the sanitizer subset outgrew 150 s with step 17's
# configs (H100); SANITIZE_TOOLS="racecheck" runs one tool, e.g. in a device command of its own.
SANITIZE_TIMEOUT_S=${SANITIZE_TIMEOUT_S:-280}
SANITIZE_TOOLS=${SANITIZE_TOOLS:-memcheck racecheck}
# The test cases each tool runs (doctest -tc patterns). racecheck runs the per-decomposition case
# only: under it the splitk-dsm form's cluster waits crawl, in the full case (a handful of
# assertions in 170-420 s on an H100) and in one tile split two ways alike (no result in 240 s,
# H100, 2026-12-07; docs/kernel-notes.md, "Rings of up to 16 stages"); memcheck runs every case.
SANITIZE_MEMCHECK_CASES=${SANITIZE_MEMCHECK_CASES:-sanitize*}
SANITIZE_RACECHECK_CASES=${SANITIZE_RACECHECK_CASES:-sanitize: one small*}
status=0

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv | tee "$OUT/card.txt"
# LW_COMMIT: the commit the binaries were built from (the device copy has no git history).
echo "binaries built from commit ${LW_COMMIT:-unknown}; $(date -u)" | tee -a "$OUT/card.txt"

if [[ $WHAT == all || $WHAT == suite ]]; then
  { echo "== GPU suite (binaries built from commit ${LW_COMMIT:-unknown})"; cat "$OUT/card.txt"; } |
    tee "$OUT/gpu-suite-log.txt"
  "$SUITE" --success=false 2>&1 | tee -a "$OUT/gpu-suite-log.txt" || status=1
fi

if [[ $WHAT == all || $WHAT == sanitize ]]; then
  for tool in $SANITIZE_TOOLS; do
    cases=$SANITIZE_MEMCHECK_CASES
    [[ $tool == racecheck ]] && cases=$SANITIZE_RACECHECK_CASES
    echo "== compute-sanitizer --tool $tool (test cases: $cases)" | tee -a "$OUT/gpu-suite-log.txt"
    timeout "$SANITIZE_TIMEOUT_S" "$SANITIZER" --tool "$tool" --error-exitcode 9 \
      "$SUITE" -tc="$cases" 2>&1 | tail -n 20 | tee -a "$OUT/gpu-suite-log.txt"
    rc=${PIPESTATUS[0]}
    echo "compute-sanitizer $tool exit code: $rc" | tee -a "$OUT/gpu-suite-log.txt"
    [[ $rc -eq 0 ]] || status=1
  done
fi

if [[ $WHAT == all || $WHAT == bench ]]; then
  echo "== default benchmark"
  "$BENCH" --m 1536 --n 1536 --k 4096 \
    --decomposition dp,dp-persistent,splitk:2,splitk:4,splitk-sep:2,streamk,cutlass,two-tile \
    --sms 132,64 --reps 20 --out "$OUT/bench-default.csv" || status=1
  column -s, -t <"$OUT/bench-default.csv" | cut -c1-200 || true
fi
exit $status

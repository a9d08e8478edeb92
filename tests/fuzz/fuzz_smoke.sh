#!/usr/bin/env bash
# Smoke run of one fuzz target: BINARY SEED_DIR. A libFuzzer build fuzzes for a few seconds from a
# writable copy of the seeds; the replay build (default toolchain) runs each seed once. Any crash,
# sanitizer report, leak, timeout or out-of-memory fails the test.
set -euo pipefail

binary="$1"
seeds="$2"
# Short enough for CI (2 cores, 8 targets); libFuzzer stops at whichever limit comes first.
runs="${LW_FUZZ_SMOKE_RUNS:-20000}"
max_seconds="${LW_FUZZ_SMOKE_SECONDS:-5}"
# A fixed seed keeps a gating CI run reproducible; 0 asks libFuzzer for a random one. Open-ended
# bug hunting is tests/fuzz/long_run.sh's job (random seeds).
seed="${LW_FUZZ_SMOKE_SEED:-1}"
per_input_timeout_s=10
rss_limit_mb=2048

[[ -n "$(ls -A "$seeds")" ]] || { echo "empty seed corpus $seeds" >&2; exit 1; }
work="${TEST_TMPDIR:-$(mktemp -d)}/corpus"
mkdir -p "$work"
cp -L "$seeds"/* "$work"/
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/"

exec "$binary" -seed="$seed" -runs="$runs" -max_total_time="$max_seconds" -timeout="$per_input_timeout_s" \
  -rss_limit_mb="$rss_limit_mb" -artifact_prefix="$artifacts" "$work"

#!/usr/bin/env bash
# Register spills of the wgmma kernels, from ptxas (no GPU): the whole-tile forms (plans without a
# split region, ladder step 12 in cuda/README.md) spill nothing, and no general form (nor the
# splitk-dsm form) spills more than kMaxGeneralSpillBytes of stores (the widest tiles' fix-up paths: 12-64 bytes as of step 12).
# A spilled accumulator costs local-memory traffic in the MAC loop or the fix-up; the correctness
# suite does not see it (a 512-byte stack frame once passed the GPU suite).
set -uo pipefail
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
kMaxGeneralSpillBytes=64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
spilled=0
# The parts compile two at a time (each takes ~40-90 s); their ptxas logs are read after.
pids=()
for part in cuda/kernels/wgmma_part_*.cu; do
  name=$(basename "$part" .cu)
  "$NVCC" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I. -Xptxas -warn-spills \
    -cubin "$part" -o "$tmp/$name.cubin" 2>"$tmp/$name.log" &
  pids+=($!)
  if ((${#pids[@]} == 2)); then
    wait "${pids[0]}" || { echo "FAIL: nvcc of a part"; failures=$((failures + 1)); }
    pids=("${pids[1]}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "FAIL: nvcc of a part"; failures=$((failures + 1)); }; done
# ptxas: "Registers are spilled to local memory in function 'NAME', S bytes spill stores, ..."
while IFS=$'\t' read -r name stores; do
  spilled=$((spilled + 1))
  if [[ $name == *ELb1ELb0EEE* ]]; then  # WgmmaConfig<..., kWhole = true, kDsm = false>
    echo "FAIL: whole-tile form $name spills $stores bytes"
    failures=$((failures + 1))
  elif ((stores > kMaxGeneralSpillBytes)); then
    echo "FAIL: $name spills $stores bytes (at most $kMaxGeneralSpillBytes)"
    failures=$((failures + 1))
  fi
done < <(cat "$tmp"/*.log | tee "$tmp/all.txt" |
  sed -nE "s/.*spilled to local memory in function '([^']*)', ([0-9]+) bytes spill stores.*/\1\t\2/p")
grep -i "error" "$tmp/all.txt" && failures=$((failures + 1))
echo "kernels that spill (general forms only): $spilled; failures: $failures"
((failures == 0))

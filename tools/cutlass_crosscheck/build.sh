#!/usr/bin/env bash
# Builds the CUTLASS cross-check harness (not part of `bazel build //...`).
#   CUTLASS_DIR=/path/to/cutlass tools/cutlass_crosscheck/build.sh [host|device|all]
# CUTLASS_DIR must contain include/ (a checkout, or `git archive HEAD include | tar -x`).
# Outputs go to $OUT_DIR (default: .device-bin/ in the repo root, which git ignores).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CUTLASS_DIR="${CUTLASS_DIR:-/tmp/cutlass}"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
OUT_DIR="${OUT_DIR:-$ROOT/.device-bin}"
WHAT="${1:-all}"
SRC="$ROOT/tools/cutlass_crosscheck/crosscheck.cu"
PLANNERS=("$ROOT"/sim/decomp/planners/{basic,cutlass,geometry,schedule}.cpp)
[[ -f "$CUTLASS_DIR/include/cutlass/version.h" ]] || { echo "no CUTLASS at $CUTLASS_DIR" >&2; exit 2; }
mkdir -p "$OUT_DIR"
INC=(-I"$CUTLASS_DIR/include" -I"$ROOT" -I"$CUDA/include" -I"$CUDA/include/cccl")
if [[ "$WHAT" == host || "$WHAT" == all ]]; then
  # Host build: CUTLASS_DEVICE functions become plain inline host functions.
  g++ -std=c++17 -O2 -w "${INC[@]}" -x c++ "$SRC" -x none "${PLANNERS[@]}" \
      -L"$CUDA/lib64" -lcudart_static -ldl -lpthread -lrt -o "$OUT_DIR/cutlass_crosscheck_host"
  echo "built $OUT_DIR/cutlass_crosscheck_host"
fi
if [[ "$WHAT" == device || "$WHAT" == all ]]; then
  "$CUDA/bin/nvcc" -std=c++17 -O2 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a \
      -DLW_XCHECK_DEVICE -w "${INC[@]}" "$SRC" "${PLANNERS[@]}" -cudart static \
      -o "$OUT_DIR/cutlass_crosscheck_device"
  echo "built $OUT_DIR/cutlass_crosscheck_device"
fi

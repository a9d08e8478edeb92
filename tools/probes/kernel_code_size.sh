#!/usr/bin/env bash
# SASS size of each wgmma kernel instantiation, no GPU needed: compiles one part of the kernel table
# (cuda/kernels/wgmma_part_P.cu) to a cubin and lists its .text sections in KiB, smallest first.
# A cold launch fetches its code from DRAM (docs/PERFORMANCE.md, "The cold start is our code's
# first fetch"), so this is the size to watch. Names: tile M, N, cluster M, N, ping-pong form,
# whole-tile form (plan_walks_whole_tiles).
# Usage: tools/probes/kernel_code_size.sh [PART (0-3, default 0)]
set -euo pipefail
PART=${1:-0}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NVCC" -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I. -cubin \
  "cuda/kernels/wgmma_part_$PART.cu" -o "$work/part.cubin"
readelf -S -W "$work/part.cubin" 2>/dev/null | awk '$2 ~ /^\.text\..*gemm_kernel/ { print $2, $6 }' |
  while read -r name size; do
    cfg=$(sed -E 's/.*WgmmaConfigILi([0-9]+)ELi([0-9]+)ELi([0-9]+)ELi([0-9]+)ELb([01])ELb([01]).*/\1x\2 \3x\4 pingpong=\5 whole=\6/' <<<"$name")
    echo "$((16#$size / 1024)) KiB $cfg"
  done | sort -n

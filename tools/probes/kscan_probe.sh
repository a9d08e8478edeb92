#!/usr/bin/env bash
# Where a small problem's time goes, as a line in K (issue 29): one M x N (default 730 x 744, a
# held-out shape at 0.79x cuBLAS) at several K on one tile, dp. For each K: ours and cuBLAS under
# ncu (kernel-only durations, small_ncu.sh) and one traced run of ours (per-CTA prologue, MAC loop
# and epilogue from the trace JSON). A fit of MAC-loop time against k-tiles then splits the first
# load's latency (intercept) from the steady cost of a k-tile (slope).
# Usage: OUT=DIR [BIN=DIR] tools/probes/kscan_probe.sh [M N TILE K...]
set -u
DEFAULT_KS=(64 128 256 512 1024 1576 3136 6272)
# shellcheck source=tools/probes/kscan_args.sh
source "$(dirname "$0")/kscan_args.sh" "$@"
for k in "${KS[@]}"; do
  OUT=$OUT BIN=$BIN bash "$(dirname "$0")/small_ncu.sh" "$M $N $k dp $TILE"
  "$BIN/lastwave-bench" --m "$M" --n "$N" --k "$k" --decomposition dp --tile "$TILE" --reps 5 \
    --trace "$OUT/kscan-$k.json" >>"$OUT/kscan-log.txt" 2>&1 || echo "trace K=$k failed"
done

#!/usr/bin/env bash
# The TMA-store epilogue's before/after tables (docs/CHANGELOG.md, step 4; the tables in git
# history of docs/PERFORMANCE.md; the store-bound one in its "Store-bound GEMMs"): each named
# shape set timed by two builds in turn (cuda/bench/before_after.sh), cuBLAS in every row.
# Usage: cuda/bench/epilogue_check.sh BEFORE_BIN AFTER_BIN OUT_DIR SET... where SET is one of
#   store    configs/shapes/store-bound.csv (K <= 64, M*N >= 16 M), dp family, the wide tiles
#   large    configs/shapes/heldout-large-output.csv (M*N >= 1 M, K <= 1024), persistent family
#   squares  configs/shapes/squares.csv, dp family, every tile and cluster
#   focus    the squares' two fastest tiles only, three passes (cuBLAS re-timed each pass)
#   heldout  configs/shapes/traffic-heldout-chooser.csv, the chooser's 4 tiles x 2 clusters
#   unseen   configs/shapes/traffic-unseen-r4.csv, as heldout
# tools/before_after.py OUT_DIR/SET-before.csv OUT_DIR/SET-after.csv gives the tables.
set -uo pipefail
BEFORE=$1
AFTER=$2
OUT=$3
shift 3
HERE=$(dirname "$0")
SHAPES=configs/shapes
WIDE=(--tile 128x128,128x192,128x256,192x192,256x128,64x256 --cluster 1x1,2x1)
CHOOSER=(--tile 64x128,128x128,128x256,256x128 --cluster 1x1,2x1
  --decomposition dp-persistent,splitk:2,splitk:4,streamk)
status=0
run() { "$HERE/before_after.sh" "$BEFORE" "$AFTER" "$OUT" "$@" || status=1; }
for set in "$@"; do
  case $set in
    store) run store $SHAPES/store-bound.csv "${WIDE[@]}" --decomposition dp,dp-persistent ;;
    large) run large $SHAPES/heldout-large-output.csv "${WIDE[@]}" \
      --decomposition dp-persistent,splitk:2,streamk ;;
    squares) run squares $SHAPES/squares.csv --tile all --cluster 1x1,2x1,1x2 \
      --decomposition dp,dp-persistent ;;
    focus) for pass in 1 2 3; do
      run "focus$pass" $SHAPES/squares.csv --tile 128x256,256x128 --cluster 1x1,2x1,1x2 \
        --decomposition dp,dp-persistent
    done ;;
    heldout) run heldout $SHAPES/traffic-heldout-chooser.csv "${CHOOSER[@]}" ;;
    unseen) run unseen $SHAPES/traffic-unseen-r4.csv "${CHOOSER[@]}" ;;
    *)
      echo "epilogue_check.sh: unknown set '$set' (store|large|squares|focus|heldout|unseen)" >&2
      exit 2
      ;;
  esac
done
exit $status

# Probe: does Stream-K scale with the SM count on green-context partitions? The r6 residuals have
# Stream-K, two-tile and CUTLASS rows at 96 SMs measured up to 14 % slower than predicted, some
# slower than at 64 SMs (627x800x12288 on 64x128 streamk: 59.9 us at 64 SMs, 63.9 at 96, 57.1 at
# 132), while dp rows are not. Three such shapes, dp / streamk / cutlass, every 8 SMs from 64 to
# 128 and 132; lastwave-bench, 7 samples, L2 flushed. Rows go to
# configs/measurements/h200-r3/streamk-sms-sweep.csv.
# Usage (device): tools/probes/streamk_sms_sweep.sh BIN_DIR OUT_DIR
set -uo pipefail
BIN=$1
OUT=$2
SMS=64,72,80,88,96,104,112,120,128,132
mkdir -p "$OUT"
printf 'm,n,k\n627,800,12288\n5239,1384,4216\n' > "$OUT/shapes-64x128.csv"
printf 'm,n,k\n160,9880,1984\n' > "$OUT/shapes-128x128.csv"
for tile in 64x128 128x128; do
  "$BIN/lastwave-bench" --shapes "$OUT/shapes-$tile.csv" --decomposition dp,streamk,cutlass \
    --tile "$tile" --sms "$SMS" --reps 7 --warmup 1 --out "$OUT/sweep-$tile.csv" \
    2>"$OUT/sweep-$tile-log.txt" || echo "sweep $tile failed" >&2
done

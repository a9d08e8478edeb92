# ncu probe: which tiles' data-parallel grids lose panel sharing over the waves? dp, K = 16384,
# 16 tile columns and 136 tile rows (16.5 waves at 132 SMs, rastered along N: each B column panel
# shared by the ~8 tile rows of a wave, 16 work ids apart) for each tile, plus 64x128 with a 2x1
# cluster; compare with tile64_waves_ncu.sh (64x128 loses sharing as the waves grow, 128x128 does
# not by 7.75 waves). See ncu_probe.sh; rows in configs/measurements/h200-r3/ncu-tile-drift.csv.
set -u
bash "$(dirname "$0")/ncu_probe.sh" "8704 4096 16384 dp 64x256 1x1" \
  "17408 2048 16384 dp 128x128 1x1" "17408 4096 16384 dp 128x256 1x1" \
  "34816 2048 16384 dp 256x128 1x1" "17408 2816 16384 dp 128x176 1x1" \
  "8704 2048 16384 dp 64x128 2x1"

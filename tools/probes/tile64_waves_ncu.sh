# ncu probe: does the 64x128 tile's B-panel refetch grow with the number of waves, and is it the
# tile or the raster? dp, 1x1, K = 16384 throughout (see ncu_probe.sh):
# - 64x128 on N = 2048 (16 tile columns; M >= 1088 keeps more tile rows than columns, so the grid
#   is rastered along N and each B column panel is shared by the ~8 tile rows of a wave) for
#   M = 1088 .. 8704 (17 .. 136 tile rows, 2 .. 16.5 waves);
# - 128x128 rastered along N the same way (M = 2176 and 8192 on N = 2048: 2 and 7.75 waves);
# - 64x128 rastered along M (2048 x 8192: 32 tile rows < 64 columns; A panels shared by the ~4
#   tile columns of a wave, 15.5 waves).
set -u
cases=()
for m in 1088 2176 4352 8704; do cases+=("$m 2048 16384 dp 64x128 1x1"); done
cases+=("2176 2048 16384 dp 128x128 1x1" "8192 2048 16384 dp 128x128 1x1")
cases+=("2048 8192 16384 dp 64x128 1x1")
bash "$(dirname "$0")/ncu_probe.sh" "${cases[@]}"

# ncu probe of the 64x128 tile's long-K data-parallel shapes (predicted 30-40 % too fast with
# cluster 1x1, about right with 2x1): DRAM bytes, L2 requests and hit rate against 2x1 and
# 128x128 on the same shapes; see ncu_probe.sh.
set -u
bash "$(dirname "$0")/ncu_probe.sh" "4096 7168 16384 dp 64x128 1x1" "4096 7168 16384 dp 64x128 2x1" \
  "4096 7168 16384 dp 128x128 1x1" "14312 4096 14336 dp 64x128 1x1" "14312 4096 14336 dp 64x128 2x1"

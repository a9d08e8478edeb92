# ncu probe of narrow-N shapes where a 2x1 cluster measured ~30 % slower than 1x1 although the
# calibrated model predicted it slightly faster (r7 validation: 4096x576x7168 dp 128x176, 72 vs
# 55 us): each shape with 1x1 and 2x1, beside a square shape where 2x1 wins. L2 requests and
# sectors, DRAM bytes and time per cluster shape.
# SHAPES="M N K;..." replaces the shapes (e.g. N = 528 and 704: whole tile columns, no
# out-of-bounds B rows); TILE replaces the tile (default 128x176).
# Usage: OUT=DIR tools/probes/cluster_penalty_ncu.sh   (binaries in .device-bin; rows: ncu_rows.py)
set -u
cases=()
IFS=';' read -ra shapes <<<"${SHAPES:-4096 576 7168;1832 576 7168;4096 4096 7168}"
for shape in "${shapes[@]}"; do
  for cluster in 1x1 2x1; do cases+=("$shape dp ${TILE:-128x176} $cluster"); done
done
bash "$(dirname "$0")/ncu_probe.sh" "${cases[@]}"

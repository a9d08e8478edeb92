# ncu probe of split 32-byte sectors (one device command): 4096 x 4096 data-parallel GEMMs at
# K = 4096 (every row on a sector), 4104 (K % 16 == 8: every other row starts inside a sector),
# 4112 (K % 32 == 16) and 4128 (K % 64 == 32), tiles 128x128 and 64x128: L2 requests and sectors
# per k-tile row as the row pitch's alignment changes (grounds sector_split_lines).
# Usage: OUT=DIR tools/probes/sector_split_ncu.sh   (binaries in .device-bin; rows: ncu_rows.py)
set -u
cases=()
for tile in 128x128 64x128; do
  for k in 4096 4104 4112 4128; do cases+=("4096 4096 $k dp $tile"); done
done
bash "$(dirname "$0")/ncu_probe.sh" "${cases[@]}"

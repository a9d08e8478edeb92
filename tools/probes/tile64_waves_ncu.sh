# ncu probe: does the 64x128 tile's B-panel refetch grow with the number of waves? 64x128 1x1 dp
# on N = 2048, K = 16384 (16 tile columns; M >= 1088 keeps more tile rows than columns, so the grid
# is rastered along N and each B column panel is shared by the ~8 tile rows of a wave) for
# M = 1088 .. 8704 (17 .. 136 tile rows, 2 .. 16.5 waves); see ncu_probe.sh.
# Not yet run: written on 2026-12-01 when no device was lent; its rows go to
# configs/measurements/h200-r3/ncu-tile64-waves.csv when it is.
set -u
cases=()
for m in 1088 2176 4352 8704; do cases+=("$m 2048 16384 dp 64x128 1x1"); done
bash "$(dirname "$0")/ncu_probe.sh" "${cases[@]}"

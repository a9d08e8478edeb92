# ncu probe: does the 64x128 tile's B-panel refetch grow with the number of waves? 64x128 1x1 dp
# on N = 7168, K = 16384 (56 tile columns, rastered along N: each B column panel is shared by the
# wave's tile rows) for M = 128 .. 2048 (2 .. 32 tile rows, 0.85 .. 13.6 waves); see ncu_probe.sh.
# Not yet run: written on 2026-12-01 when no device was lent; its rows go to
# configs/measurements/h200-r3/ncu-tile64-waves.csv when it is.
set -u
cases=()
for m in 128 256 512 1024 2048; do cases+=("$m 7168 16384 dp 64x128 1x1"); done
bash "$(dirname "$0")/ncu_probe.sh" "${cases[@]}"

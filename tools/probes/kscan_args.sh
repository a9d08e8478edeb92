# shellcheck shell=bash disable=SC2034  # the variables are the sourcing script's
# Arguments of the k-scan probes, sourced with theirs: [M N TILE K...] -> M, N, TILE (default 730,
# 744, 64x96: a held-out shape at 0.79x cuBLAS) and the array KS (default: the caller's DEFAULT_KS);
# BIN (the binaries) defaults to .device-bin.
BIN=${BIN:-.device-bin}
M=${1:-730}
N=${2:-744}
TILE=${3:-64x96}
shift 3 2>/dev/null
KS=("$@")
((${#KS[@]})) || KS=("${DEFAULT_KS[@]}")

# shellcheck shell=bash disable=SC2034  # the variables are the sourcing script's
# Arguments of the k-scan probes, sourced with theirs: [M N TILE K...] -> M, N, TILE (default 730,
# 744, 64x96: a held-out shape at 0.79x cuBLAS) and the array KS (default: the caller's DEFAULT_KS);
# BIN (the binaries) defaults to .device-bin; OUT (the results folder) must be set and is created.
: "${OUT:?set OUT to the folder the results go to}"
mkdir -p "$OUT"
BIN=${BIN:-.device-bin}
M=${1:-730}
N=${2:-744}
TILE=${3:-64x96}
shift $(($# < 3 ? $# : 3)) # K values follow M N TILE only
KS=("$@")
((${#KS[@]})) || KS=("${DEFAULT_KS[@]}")

#!/usr/bin/env bash
# Installs the Debian packages lastwave builds with, if any is missing (sourced by tools/test.sh
# and tools/lastwave.sh), and checks for the CUDA toolkit.
PACKAGES=(
  bazel-bootstrap
  libboost-program-options-dev
  libboost-graph-dev
  doctest-dev
  nlohmann-json3-dev
  libeigen3-dev
  libxgboost-dev
  libssl-dev
  zlib1g-dev
  clang-format
  clang
  libclang-rt-dev
  python3
  python3-dev
  pybind11-dev
  python3-pytest
  python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then sudo=(sudo); fi
  echo "tools/test.sh: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "tools/test.sh: /usr/local/cuda/bin/nvcc not found (CUDA 13 toolkit is required)" >&2
  exit 1
fi


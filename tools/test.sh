#!/usr/bin/env bash
# The one way to build and test lastwave: installs any missing Debian packages, then runs
# `bazel test //...` (extra arguments are passed on, e.g. --config=gpu on a GPU machine). Without
# arguments it also runs a short fuzz of every parser (docs/FUZZING.md); `--asan` runs the host
# tests under ASan + UBSan as well (CI does: .ci/run).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

source tools/install_deps.sh

asan=0
if [[ ${1:-} == --asan ]]; then
  asan=1
  shift
fi
if (($#)); then exec bazel test //... "$@"; fi
bazel test //...
bazel test --config=fuzz //tests/fuzz/...
if ((asan)); then bazel test --config=asan //...; fi

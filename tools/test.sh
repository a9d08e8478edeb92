#!/usr/bin/env bash
# The one way to build and test lastwave: installs any missing Debian packages, then runs
# `bazel test //...` (extra arguments are passed on, e.g. --config=gpu on a GPU machine). Without
# arguments it also runs the host tests under ASan + UBSan and a short fuzz of every parser
# (docs/FUZZING.md).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

source tools/install_deps.sh

if (($#)); then exec bazel test //... "$@"; fi
bazel test //...
bazel test --config=asan //...
bazel test --config=fuzz //tests/fuzz/...

#!/usr/bin/env bash
# The main job: installs any missing Debian packages, builds `lastwave` (optimised) and the Python
# module (bazel-opt-bin/python, the directory for PYTHONPATH; docs/PYTHON.md), and runs `lastwave`
# with the given arguments. With none, it prints the seed's worked examples (`lastwave demo`).
set -euo pipefail

here="$(pwd)"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source tools/install_deps.sh

targets=(//cli:lastwave //python:lastwave)
bazel build -c opt --symlink_prefix=bazel-opt- "${targets[@]}" >/dev/null 2>&1 ||
  bazel build -c opt --symlink_prefix=bazel-opt- "${targets[@]}"
binary="$(pwd)/bazel-opt-bin/cli/lastwave"
cd "$here"
exec "$binary" "$@"

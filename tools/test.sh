#!/usr/bin/env bash
# The one way to build and test lastwave: installs any missing Debian packages, then runs
# `bazel test //...` (extra arguments are passed on, e.g. --config=gpu on a GPU machine).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

source tools/install_deps.sh

exec bazel test //... "$@"

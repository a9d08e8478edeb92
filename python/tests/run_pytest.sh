#!/usr/bin/env bash
# Runs the Python module's pytest suite (python/tests) against the package Bazel built
# (//python:lastwave in the runfiles), with the `lastwave` CLI given as $1 for the comparisons.
# The interpreter is the one the module was built for: LW_PYTHON, else Debian's /usr/bin/python3
# (where python3-pytest and python3-numpy live), as third_party/python_headers.bzl chooses.
set -euo pipefail
root="$(pwd)"
export LASTWAVE_CLI="$root/$1"
export PYTHONPATH="$root/python"
export PYTHONDONTWRITEBYTECODE=1
python="${LW_PYTHON:-/usr/bin/python3}"
[[ -x "$python" ]] || python="$(command -v python3)"
basetemp="${TEST_TMPDIR:-$(mktemp -d)}/pytest"
exec "$python" -m pytest -q -p no:cacheprovider --basetemp="$basetemp" "$root/python/tests"

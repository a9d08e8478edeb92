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
# Under --config=asan the module needs the ASan runtime loaded first (the interpreter is not
# instrumented), and libstdc++ with it (ASan's __cxa_throw interceptor resolves the real one at
# start-up); CPython's allocations live until exit, so leak detection is off for it.
if readelf -d "$root/python/lastwave/_lastwave.so" | grep -q 'NEEDED.*libasan'; then
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
fi
exec "$python" -m pytest -q -p no:cacheprovider --basetemp="$basetemp" "$root/python/tests"

#!/usr/bin/env bash
# The include arrows docs/ARCHITECTURE.md draws, checked on the source tree: each rule names a
# floor (files) and the project folders its #includes may reach; any other project include fails
# the test with the file, the line and the rule; then the folders' include graph must be acyclic.
# System and third-party headers (<...>) are free.
set -uo pipefail
# The test's runfiles are links into the source tree: the tree is two folders above this script.
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
cd "$root" || exit 1
failures=0

# check RULE_NAME "FILE GLOBS" "ALLOWED INCLUDE PREFIXES"
check() {
  local name=$1 globs=$2 allowed=$3 files=() f line inc ok prefix
  shopt -s nullglob
  # shellcheck disable=SC2206
  files=($globs)
  shopt -u nullglob
  if ((${#files[@]} == 0)); then
    echo "FAIL: rule '$name' matches no file (was the floor moved? update the rule)"
    failures=$((failures + 1))
    return
  fi
  for f in "${files[@]}"; do
    [[ -f $f ]] || continue
    while IFS= read -r line; do
      inc=${line#*\"}
      inc=${inc%%\"*}
      ok=0
      for prefix in $allowed; do [[ $inc == "$prefix"* ]] && ok=1; done
      if ((!ok)); then
        echo "FAIL: $f includes \"$inc\" ($name may include only: $allowed)"
        failures=$((failures + 1))
      fi
    done < <(grep -E '^\s*#\s*include\s+"' "$f")
  done
}

# The plan: header-only, host + device, integer-only; it includes nothing above itself.
check "sim/decomp (the plan)" "sim/decomp/*.hpp sim/decomp/planners/*.hpp" "sim/decomp/"
# The kernels execute plans: they see the plan and the trace records, never a cost model, the
# simulator engine or the chooser (the bench, a front end, may).
check "the kernels" "cuda/kernel/* cuda/*.cu cuda/*.hpp cuda/*.cpp" "cuda/ sim/decomp/ sim/trace/"
# The engine's containers know nothing of GEMMs.
check "sim/engine" "sim/engine/*" "sim/engine/"
# The GPU description is neutral: presets, rates and the plan-side shape, read by everyone above it.
check "gpu (the GPU description)" "gpu/*" "gpu/ sim/decomp/ sim/util/"
# Cost models price segments; they neither run the simulator nor choose plans nor fit.
check "cost models" "models/* models/*/*" "models/ sim/decomp/ sim/util/ gpu/"
# The simulator runs a plan under the cost-model interface.
check "sim/gpu (the simulator)" "sim/gpu/*" "sim/gpu/ sim/decomp/ sim/engine/ sim/trace/ sim/util/ models/ gpu/"
# Nothing in the library (sim/, models/, gpu/) reaches up into calibration or the front ends.
check "the library (sim/)" "sim/*/* sim/*/*/*" "sim/ models/ gpu/"
# Calibration runs the simulator and the chooser; the front ends run calibration, not the reverse.
check "calib (calibration)" "calib/*" "calib/ sim/ models/ gpu/"

# The folders' include graph has no cycle: each project include is an edge from the including
# file's folder to the included file's (sim/X, models, gpu, calib, cli, cuda, cuda/bench, python),
# and tsort fails on a loop, naming its folders.
# folder PATH: sets $dir to PATH's folder (no subshell: this runs once per include).
folder() {
  local rest
  case $1 in
    sim/*/*) rest=${1#sim/} && dir=sim/${rest%%/*} ;;
    cuda/bench/*) dir=cuda/bench ;;
    */*) dir=${1%%/*} ;;
    *) dir=. ;;
  esac
}
edges=()
while IFS= read -r f; do
  folder "$f"
  from=$dir
  while IFS= read -r line; do
    inc=${line#*\"}
    inc=${inc%%\"*}
    folder "$inc"
    [[ $from != "$dir" ]] && edges+=("$from $dir")
  done < <(grep -E '^\s*#\s*include\s+"' "$f")
done < <(find sim models gpu calib cli cuda python -type f \( -name '*.cpp' -o -name '*.hpp' \
  -o -name '*.cu' -o -name '*.cuh' \) -not -path 'python/tests/*' | sort)
if ((${#edges[@]} == 0)); then
  echo "FAIL: no include between folders found (was the tree moved? update the folder list)"
  failures=$((failures + 1))
elif ! loop=$(printf '%s\n' "${edges[@]}" | sort -u | tsort 2>&1 >/dev/null) || [[ -n $loop ]]; then
  echo "FAIL: the folders' include graph has a cycle: $loop"
  failures=$((failures + 1))
fi

exit $((failures > 0))

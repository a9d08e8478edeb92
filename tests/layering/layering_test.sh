#!/usr/bin/env bash
# The include arrows docs/ARCHITECTURE.md draws, checked on the source tree: each rule names a
# floor (files) and the project folders its #includes may reach; any other project include fails
# the test with the file, the line and the rule. System and third-party headers (<...>) are free.
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
# Cost models price segments; they neither run the simulator nor choose plans.
check "cost models" "models/unit/* models/roofline/* models/calibrated/* models/residual/* models/*.hpp models/*.cpp" \
  "models/ sim/decomp/ sim/util/ sim/gpu/gpu_spec.hpp"
# The traffic helpers of the cost models stay below calibration.
check "cost models (no calibration)" "models/unit/* models/roofline/* models/calibrated/* models/residual/*" \
  "models/unit/ models/roofline/ models/calibrated/ models/residual/ models/cost_model.hpp models/registry.hpp models/training_range.hpp sim/decomp/ sim/util/ sim/gpu/gpu_spec.hpp"

exit $((failures > 0))

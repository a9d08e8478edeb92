// Sweep driver shared by the invariants_* tests: plans schedules over ragged shapes, SM counts and
// both reductions, and runs check_plan on each.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/decomp/types.hpp"

namespace lw_test {

struct SweepResult {
  int64_t plans = 0;     // plans checked
  int64_t failures = 0;  // plans that failed
  std::string failure;   // one example per kind of failure (with the plan), "" if none
};

// Plans every schedule in `names` for a deterministic sample of roughly 1/`keep_one_in` of the
// (m, n, k, sms, reduction) grid and checks each plan.
// `tile` and `ctas_per_sm` default to the H200 CUTLASS configuration (128x128x64, 1 CTA per SM).
SweepResult sweep_schedules(const std::vector<std::string>& names, int64_t keep_one_in,
                            const lw::TileShape& tile = lw::TileShape{}, int64_t ctas_per_sm = 1);

}  // namespace lw_test

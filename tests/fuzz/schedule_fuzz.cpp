// Fuzz target: schedule-list and reduction parsing (sim/decomp/planners/schedule.hpp); every name
// the list parser accepts is also planned on a small problem, as `lastwave predict` would.
#include "sim/decomp/planners/schedule.hpp"
#include "tests/fuzz/fuzz_util.hpp"

namespace {
// Small enough that planning any accepted name is cheap, ragged so that edge tiles exist.
constexpr lw::Problem kProblem{300, 200, 1000};
constexpr lw::TileShape kTile{128, 128, 64};
constexpr lw::GpuShape kGpu{8, 1};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] { lw::parse_reduction(text); });
  lw::fuzz::expect_documented([&] {
    for (const auto& name : lw::parse_schedule_list(text)) {
      if (name == "best") continue;  // resolved by the simulator, not a planner
      lw::fuzz::expect_documented(
          [&] { lw::plan_schedule(name, kProblem, kTile, kGpu, lw::Reduction::Deterministic); });
    }
  });
  return 0;
}

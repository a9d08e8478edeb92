// Result rows say which reduction ran, not which was requested: planners that ignore the request
// (cutlass-seed, dp, splitk-sep) are labelled by what their plan does.
#include <doctest/doctest.h>

#include <string>

#include "sim/decomp/planners/schedule.hpp"

namespace {

// 1536x1536x4096 on 132 SMs: 144 tiles, the seed's heuristic picks Stream-K over all of them
// (README tour), so the split tiles make the reduction matter.
lw::PlanSummary summary(const std::string& schedule, lw::Reduction requested) {
  return lw::plan_summary(lw::plan_schedule(schedule, {1536, 1536, 4096}, lw::TileShape{},
                                            lw::GpuShape{132, 1}, requested));
}

}  // namespace

TEST_CASE("cutlass-seed ignores --reduction: its atomic request is labelled deterministic") {
  const lw::PlanSummary s = summary("cutlass-seed", lw::Reduction::Atomic);
  REQUIRE(s.sk_tiles == 144);  // split tiles exist, so the label is not vacuous
  CHECK(s.reduction == "deterministic");
  CHECK(summary("cutlass-seed", lw::Reduction::Deterministic).reduction == "deterministic");
}

TEST_CASE("planners that honour --reduction report it") {
  for (const char* schedule : {"streamk", "cutlass-streamk", "splitk:2", "two-tile"}) {
    CAPTURE(schedule);
    REQUIRE(summary(schedule, lw::Reduction::Atomic).sk_tiles > 0);
    CHECK(summary(schedule, lw::Reduction::Atomic).reduction == "atomic");
    CHECK(summary(schedule, lw::Reduction::Deterministic).reduction == "deterministic");
  }
}

TEST_CASE("plans without an in-kernel atomic fixup are deterministic whatever was requested") {
  CHECK(summary("dp", lw::Reduction::Atomic).reduction == "deterministic");
  // Separate reduction launch: every split stores its own slot, one CTA sums them in k order.
  CHECK(summary("splitk-sep:4", lw::Reduction::Atomic).reduction == "deterministic");
}

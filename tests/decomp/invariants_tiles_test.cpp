// Sweep invariants for every schedule with other tile shapes (256x128x64, 64x64x32) and 2 CTAs
// per SM, so no planner silently depends on the default 128x128x64 / 1-CTA configuration.
#include <doctest/doctest.h>

#include "tests/decomp/sweep.hpp"

TEST_CASE("all schedules, tiles 256x128x64 and 64x64x32, 2 CTAs per SM") {
  const std::vector<std::string> all = {
      "dp",           "dp-persistent", "splitk:2",        "splitk:3",        "splitk:7",
      "splitk-sep:4", "streamk",       "streamk:7",       "two-tile",        "cutlass-seed",
      "cutlass",      "cutlass-dp",    "cutlass-streamk", "cutlass-splitk:3"};
  for (const auto& tile : {lw::TileShape{256, 128, 64}, lw::TileShape{64, 64, 32}}) {
    CAPTURE(tile.m);
    const auto r = lw_test::sweep_schedules(all, 12, tile, 2);
    INFO(r.failure);
    CHECK(r.plans > 5000);
    CHECK(r.failures == 0);
  }
}

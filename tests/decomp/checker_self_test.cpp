// Guards the test helper itself: check_plan must report a hand-built plan whose waits deadlock
// (one CTA running the owner unit before the unit it waits on) and accept its 2-CTA version.
#include <doctest/doctest.h>

#include "sim/decomp/planners/planners.hpp"
#include "tests/decomp/plan_checker.hpp"

TEST_CASE("check_plan flags a same-CTA wait cycle") {
  // One tile, Kt = 64, paper Stream-K with 2 units: unit 0 (k 0..32) owns the tile and waits for
  // unit 1's partial (k 32..64).
  auto p = lw::plan_stream_k({128, 128, 4096}, {}, {2, 1}, 2, lw::Reduction::Deterministic).plan;
  REQUIRE(p.split_units == 2);
  CHECK(lw_test::check_plan(p, 2) == "");
  p.grid = 1;  // one CTA runs unit 0 (waits) and only then unit 1 (signals): deadlock
  CHECK(lw_test::check_plan(p, 2) == "wait graph has a cycle (deadlock)");
}

TEST_CASE("check_plan flags double coverage and non-resident waits") {
  auto p = lw::plan_stream_k({128, 128, 4096}, {}, {2, 1}, 2, lw::Reduction::Deterministic).plan;
  CHECK(lw_test::check_plan(p, 1).find("resident") != std::string::npos);
  auto q = lw::plan_data_parallel({256, 128, 64}, {}, {132, 1}, false).plan;
  q.split_tiles = 1;  // DP ids now start one tile late: tile 0 is missed
  q.work_units = q.tiles - 1 + q.split_units;
  CHECK(lw_test::check_plan(q, 132).find("covered 0 times") != std::string::npos);
}

TEST_CASE("check_plan flags split units in a plan without split mode") {
  // The ping-pong kernels walk such plans as whole tiles only (walk_next_whole).
  auto p = lw::plan_stream_k({128, 128, 4096}, {}, {2, 1}, 2, lw::Reduction::Deterministic).plan;
  p.split_mode = lw::SplitMode::None;
  CHECK(lw_test::check_plan(p, 2) == "a plan without split mode has 2 split units");
}

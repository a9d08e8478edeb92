// Input validation: unknown/malformed schedule names, non-positive shapes, m*n*k overflow, bad
// schedule lists and reductions; Stream-K unit counts beyond the resident CTAs.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "sim/decomp/planners/schedule.hpp"
#include "tests/decomp/plan_checker.hpp"

namespace {

lw::Planned plan(const std::string& name, lw::Problem prob = {1024, 1024, 1024},
                 lw::TileShape tile = {}, lw::GpuShape gpu = {132, 1}) {
  return lw::plan_schedule(name, prob, tile, gpu, lw::Reduction::Deterministic);
}

}  // namespace

TEST_CASE("unknown or malformed schedule names throw") {
  for (const char* name :
       {"foo", "splitk", "splitk:0", "splitk:x", "dp:3", "streamk:-1", "splitk:", "splitk:2x",
        "splitk-sep", "cutlass-splitk", "cutlass:2", "two-tile:3", "", "best:2", "DP"}) {
    CAPTURE(name);
    CHECK_THROWS_AS(plan(name), std::invalid_argument);
  }
  // "best" is a simulator-level choice, not a plan.
  CHECK_THROWS_AS(plan("best"), std::invalid_argument);
}

TEST_CASE("every catalog name (with an argument where needed) plans a 1024^3 GEMM") {
  for (const auto& h : lw::schedule_catalog()) {
    std::string name = h.name;
    if (name == "best") continue;
    if (name.find('[') != std::string::npos) {
      name = name.substr(0, name.find('['));  // "streamk[:G]" -> "streamk"
    } else if (name.find(':') != std::string::npos) {
      name = name.substr(0, name.find(':')) + ":2";  // "splitk:S" -> "splitk:2"
    }
    CAPTURE(name);
    CHECK_NOTHROW(plan(name));
  }
}

TEST_CASE("zero or negative dimensions throw") {
  CHECK_THROWS_AS(plan("dp", {0, 1, 1}), std::invalid_argument);
  CHECK_THROWS_AS(plan("dp", {1, 0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(plan("dp", {1, 1, 0}), std::invalid_argument);
  CHECK_THROWS_AS(plan("cutlass", {-128, 128, 128}), std::invalid_argument);
  CHECK_THROWS_AS(plan("streamk", {128, -1, 128}), std::invalid_argument);
  CHECK_THROWS_AS(plan("splitk:2", {128, 128, -64}), std::invalid_argument);
  CHECK_THROWS_AS(plan("dp", {128, 128, 128}, {0, 128, 64}), std::invalid_argument);
  CHECK_THROWS_AS(plan("dp", {128, 128, 128}, {128, 128, -1}), std::invalid_argument);
  CHECK_THROWS_AS(plan("cutlass", {128, 128, 128}, {}, {0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(plan("streamk", {128, 128, 128}, {}, {132, 0}), std::invalid_argument);
}

TEST_CASE("m*n*k overflow throws") {
  const int64_t m = int64_t{1} << 40, n = int64_t{1} << 20, k = int64_t{1} << 10;  // 2^70
  for (const char* name : {"dp", "splitk:2", "streamk", "cutlass", "cutlass-seed", "two-tile"}) {
    CAPTURE(name);
    CHECK_THROWS_AS(plan(name, {m, n, k}), std::invalid_argument);
    CHECK_THROWS_AS(plan(name, {k, m, n}), std::invalid_argument);
    CHECK_THROWS_AS(plan(name, {n, k, m}), std::invalid_argument);
  }
}

TEST_CASE("schedule lists and reductions") {
  CHECK_THROWS_AS(lw::parse_schedule_list("dp,,streamk"), std::invalid_argument);
  CHECK_THROWS_AS(lw::parse_schedule_list("dp,"), std::invalid_argument);
  CHECK_THROWS_AS(lw::parse_schedule_list(""), std::invalid_argument);
  CHECK_THROWS_AS(lw::parse_schedule_list("dp,foo"), std::invalid_argument);
  const auto ok = lw::parse_schedule_list("dp,splitk:4,streamk,best");
  REQUIRE(ok.size() == 4);
  CHECK(ok[1] == "splitk:4");
  CHECK(ok[3] == "best");
  CHECK_THROWS_AS(lw::parse_reduction("x"), std::invalid_argument);
  CHECK_THROWS_AS(lw::parse_reduction(""), std::invalid_argument);
  CHECK(lw::parse_reduction("deterministic") == lw::Reduction::Deterministic);
  CHECK(lw::parse_reduction("atomic") == lw::Reduction::Atomic);
}

TEST_CASE("streamk:G beyond the resident CTAs is planned as asked; the plan needs co-residency") {
  // Not rejected: the simulator runs such plans and reports the deadlock. The checker must see it.
  const auto p = plan("streamk:133", {1024, 1024, 1024}).plan;
  CHECK(p.grid == 133);
  CHECK(p.persistent);
  CHECK(lw_test::check_plan(p, 132).find("resident") != std::string::npos);
  CHECK(lw_test::check_plan(p, 133) == "");
  CHECK(lw_test::check_plan(plan("streamk:264", {1024, 1024, 1024}, {}, {132, 2}).plan, 264) == "");
}

TEST_CASE("plan_stream_k: unit counts below 1 are refused, except 0 (one unit per SM)") {
  const lw::GpuShape gpu{8, 1};
  const auto units = [&](int64_t g) {
    return lw::plan_stream_k({1024, 1024, 1024}, {}, gpu, g, lw::Reduction::Deterministic).plan;
  };
  CHECK(units(0).grid == 8);
  CHECK(units(1).grid == 1);
  for (const int64_t bad : {int64_t{-1}, int64_t{-100}}) {
    CAPTURE(bad);
    std::string what;
    try {
      units(bad);
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    CHECK(what ==
          "Stream-K unit count must be >= 1 (or 0: one per SM), got " + std::to_string(bad));
  }
}

// CUTLASS planner vs the worked examples of shared/reference/cutlass-streamk.md §5 (H200: 132 SMs,
// 1x1 cluster, 128x128x64 tiles): mode, sk_tiles, units, groups, unit lengths, split counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/walk.hpp"
#include "tests/decomp/plan_checker.hpp"

namespace {

lw::Planned plan(const std::string& name, int64_t m, int64_t n, int64_t k) {
  return lw::plan_schedule(name, lw::Problem{m, n, k}, lw::TileShape{128, 128, 64},
                           lw::GpuShape{132, 1}, lw::Reduction::Deterministic);
}

// Shortest and longest unit of the split region, in k-tiles.
std::pair<int64_t, int64_t> unit_lengths(const lw::Plan& p) {
  int64_t lo = INT64_MAX, hi = 0;
  for (int64_t u = 0; u < p.split_units; ++u) {
    const auto r = lw::unit_range(p, u);
    lo = std::min(lo, r.end - r.begin);
    hi = std::max(hi, r.end - r.begin);
  }
  return {lo, hi};
}

void check_dp(const lw::Planned& r, int64_t tiles) {
  CHECK(r.choice == lw::Choice::DataParallel);
  CHECK(r.choice_label() == "DataParallel");
  CHECK(r.plan.split_mode == lw::SplitMode::None);
  CHECK(r.plan.split_tiles == 0);
  CHECK(r.plan.tiles == tiles);
  CHECK(r.plan.work_units == tiles);
  CHECK(r.plan.grid == 132);  // CUTLASS never shrinks its persistent grid
  CHECK(r.plan.workspace_slots == 0);
}

struct SkRow {
  int64_t m, n, k;
  int64_t tiles, k_tiles, sk_tiles, units, groups, min_len, max_len;
};

}  // namespace

TEST_CASE("§5 data-parallel rows") {
  SUBCASE("4096^3: tail 100 >= 66") { check_dp(plan("cutlass", 4096, 4096, 4096), 1024); }
  SUBCASE("2048x2048x4096: tail 124") { check_dp(plan("cutlass", 2048, 2048, 4096), 256); }
  SUBCASE("2048x1024x512: Kt = 8 <= 8") {
    const auto r = plan("cutlass", 2048, 1024, 512);
    CHECK(r.plan.k_tiles == 8);
    check_dp(r, 128);
  }
}

TEST_CASE("§5 Stream-K rows: sk_tiles, units, groups and unit lengths") {
  const SkRow rows[] = {
      {1024, 1024, 4096, 64, 64, 64, 132, 4, 24, 38},
      {512, 512, 8192, 16, 128, 16, 132, 4, 8, 22},
      {1024, 512, 8192, 32, 128, 32, 132, 4, 24, 38},
      {3072, 2304, 4096, 432, 64, 168, 132, 6, 76, 86},
      {3712, 1792, 4096, 406, 64, 142, 132, 2, 64, 76},
      {1536, 1536, 1024, 144, 16, 144, 132, 6, 16, 24},
  };
  for (const auto& row : rows) {
    CAPTURE(row.m);
    CAPTURE(row.n);
    CAPTURE(row.k);
    const auto r = plan("cutlass", row.m, row.n, row.k);
    const auto& p = r.plan;
    CHECK(r.choice == lw::Choice::StreamK);
    CHECK(r.choice_label() == "StreamK");
    CHECK(p.split_mode == lw::SplitMode::CutlassStream);
    CHECK(p.tiles == row.tiles);
    CHECK(p.k_tiles == row.k_tiles);
    CHECK(p.split_tiles == row.sk_tiles);
    CHECK(p.split_units == row.units);
    CHECK(p.groups == row.groups);
    CHECK(p.work_units == row.units + (row.tiles - row.sk_tiles));  // DP tiles follow the SK units
    CHECK(p.grid == 132);
    CHECK(p.workspace_slots == row.sk_tiles);
    CHECK(p.storage == lw::FixupStorage::InPlaceTurnstile);
    const auto len = unit_lengths(p);
    CHECK(len.first == row.min_len);
    CHECK(len.second == row.max_len);
    CHECK(lw_test::check_plan(p, 132) == "");
  }
}

TEST_CASE("§5 heuristic Split-K rows") {
  SUBCASE("256x256x16384: 4 tiles, units 128 = 4 * 32 -> SplitK(s=32), 8 k-tiles each") {
    const auto r = plan("cutlass", 256, 256, 16384);
    CHECK(r.choice == lw::Choice::SplitK);
    CHECK(r.splits == 32);
    CHECK(r.choice_label() == "SplitK(s=32)");
    CHECK(r.plan.split_mode == lw::SplitMode::FixedSplit);
    CHECK(r.plan.splits == 32);
    CHECK(r.plan.split_units == 128);
    for (int64_t u = 0; u < 128; ++u) {
      const auto ur = lw::unit_range(r.plan, u);
      CHECK(ur.end - ur.begin == 8);
    }
    CHECK(lw_test::check_plan(r.plan, 132) == "");
  }
  SUBCASE("128x128x65536: 1 tile -> SplitK(s=128)") {
    const auto r = plan("cutlass", 128, 128, 65536);
    CHECK(r.choice == lw::Choice::SplitK);
    CHECK(r.splits == 128);
    CHECK(r.plan.k_tiles == 1024);
    CHECK(r.plan.split_units == 128);
    CHECK(r.plan.workspace_slots == 1);
    CHECK(lw_test::check_plan(r.plan, 132) == "");
  }
}

TEST_CASE("§5 note: forced StreamK on 4096^3") {
  const auto r = plan("cutlass-streamk", 4096, 4096, 4096);
  const auto& p = r.plan;
  CHECK(r.choice == lw::Choice::StreamK);
  CHECK(p.split_tiles == 232);  // last full wave + tail: 1024 - 6 * 132
  CHECK(p.tiles - p.split_tiles == 792);
  CHECK(p.split_units == 132);
  CHECK(p.groups == 4);
  const auto len = unit_lengths(p);
  CHECK(len.first == 106);
  CHECK(len.second == 120);

  // Unit 0 (CTA 0): tile 4 k [0,49) store-only, then tile 0 whole, then its 6 DP tiles.
  const auto cta0 = lw_test::walk_cta(p, 0);
  REQUIRE(cta0.size() == 2 + 6);
  CHECK(cta0[0].tile == 4);
  CHECK(cta0[0].k_begin == 0);
  CHECK(cta0[0].k_end == 49);
  CHECK(cta0[0].role == lw::Role::StorePartial);
  CHECK(cta0[0].signal == 49);
  CHECK(cta0[1].tile == 0);
  CHECK(cta0[1].k_begin == 0);
  CHECK(cta0[1].k_end == 64);
  CHECK(cta0[1].role == lw::Role::Whole);
  for (int64_t j = 0; j < 6; ++j) {
    CHECK(cta0[2 + j].tile == 232 + 132 * j);
    CHECK(cta0[2 + j].work_id == 132 + 132 * j);
    CHECK(cta0[2 + j].role == lw::Role::Whole);
  }

  // Unit 131: tile 231 in full, then tile 227 k [16,64) as the final split (waits for 16 k-tiles).
  const auto cta131 = lw_test::walk_cta(p, 131);
  REQUIRE(cta131.size() >= 2);
  CHECK(cta131[0].tile == 231);
  CHECK(cta131[0].role == lw::Role::Whole);
  CHECK(cta131[1].tile == 227);
  CHECK(cta131[1].k_begin == 16);
  CHECK(cta131[1].k_end == 64);
  CHECK(cta131[1].role == lw::Role::Final);
  CHECK(cta131[1].wait_value == 16);
  CHECK(cta131[1].slot == 227);
  CHECK(lw_test::check_plan(p, 132) == "");
}

// Panel reuse gaps (models/panel_lag.hpp) of plans derived by hand: paper Stream-K over one
// tile row, where every tile shares A and none shares B, and plans whose tiles start in step.
#include "models/panel_lag.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim/decomp/planners/schedule.hpp"

namespace lw {

namespace {

Plan plan(const char* schedule, const Problem& p, int64_t sms) {
  return plan_schedule(schedule, p, TileShape{128, 128, 64}, GpuShape{sms, 1},
                       Reduction::Deterministic)
      .plan;
}

// Scratch holding one operand's gaps: segment i has ktiles[i] k-tiles and gap gaps[i].
PanelLagScratch with_gaps(const std::vector<int64_t>& ktiles, const std::vector<double>& gaps) {
  PanelLagScratch s;
  for (size_t i = 0; i < ktiles.size(); ++i) s.segments.push_back({0, 0, ktiles[i], 0, 0, 0});
  s.gaps = gaps;
  return s;
}

}  // namespace

TEST_CASE("gap quantiles by counting and by sorting: a hand case and random gaps agree") {
  // Gaps -1, 3, 0, 3 with 2, 4, 1, 1 k-tiles (8): cumulative k-tiles by gap -1: 2, 0: 3, 3: 8.
  // Quantile j is at j + 1/2 k-tiles: the first gap whose cumulative count exceeds it.
  const GapQuantiles expected{-1, -1, 0, 3, 3, 3, 3, 3};
  PanelLagScratch hand = with_gaps({2, 4, 1, 1}, {-1, 3, 0, 3});
  CHECK(panel_lag_detail::quantiles_by_sorting(hand) == expected);
  CHECK(panel_lag_detail::quantiles_by_counting(3, hand) == expected);

  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + rng() % 40;
    const int64_t max_gap = static_cast<int64_t>(rng() % 30);
    std::vector<int64_t> ktiles;
    std::vector<double> gaps;
    for (size_t i = 0; i < n; ++i) {
      ktiles.push_back(1 + static_cast<int64_t>(rng() % 9));
      gaps.push_back(static_cast<double>(static_cast<int64_t>(rng() % (max_gap + 2)) - 1));
    }
    PanelLagScratch s = with_gaps(ktiles, gaps);
    const double top = *std::max_element(gaps.begin(), gaps.end());
    CHECK(panel_lag_detail::quantiles_by_counting(static_cast<int64_t>(top), s) ==
          panel_lag_detail::quantiles_by_sorting(s));
  }
}

TEST_CASE("gaps counted per phase and panel equal the sorted ones on Stream-K plans") {
  std::mt19937_64 rng(11);
  int plans = 0, counted = 0;
  const char* schedules[] = {"streamk", "cutlass", "two-tile"};
  for (int trial = 0; trial < 300; ++trial) {
    const Problem problem{128 + static_cast<int64_t>(rng() % 4000),
                          128 + static_cast<int64_t>(rng() % 4000),
                          64 + static_cast<int64_t>(rng() % 8000)};
    const Plan p = plan(schedules[trial % 3], problem, 8 + static_cast<int64_t>(rng() % 140));
    if (!has_panel_lag(p)) continue;
    PanelLagScratch scratch;
    const PanelLag sorted = panel_lag_detail::panel_lag_by_sorting(p, scratch);
    const PanelLag got = panel_lag(p, scratch);
    ++plans;
    counted += scratch.counted ? 1 : 0;
    CHECK(got.known);
    CHECK(got.a_gaps == sorted.a_gaps);
    CHECK(got.b_gaps == sorted.b_gaps);
  }
  CHECK(plans > 150);
  CHECK(counted > plans * 9 / 10);  // nearly every plan is counted
}

TEST_CASE("counting declines places with equal keys and phases spread too wide") {
  // Two segments of tile 0 (row 0, col 0) at phase 3, one of tile 1 (col 1) at phase 5.
  PanelLagScratch s;
  s.segments = {{0, 0, 2, 3, 0, 0}, {1, 0, 4, 5, 0, 1}, {0, 4, 6, 3, 0, 0}};
  s.min_phase = 3;
  s.max_phase = 5;
  s.rows = 1;
  s.cols = 3;  // tile 2 below
  REQUIRE(panel_lag_detail::set_phase_order(s));
  CHECK(s.by_phase == std::vector<uint32_t>{1, 0, 2});
  CHECK_FALSE(panel_lag_detail::items_by_counting(Operand::A, s));
  // Tile 2 (col 2) at phase 3 after tile 0's: one order, phase 5, then 3 by column.
  s.segments[2] = {2, 4, 6, 3, 0, 2};
  s.segments.push_back({1, 0, 1, 3, 0, 1});  // tile 1 (col 1) again, goes between them
  REQUIRE(panel_lag_detail::set_phase_order(s));
  REQUIRE(panel_lag_detail::items_by_counting(Operand::A, s));
  REQUIRE(s.items.size() == 4);
  CHECK(s.items[0].across() == 1);  // phase 5
  CHECK(s.items[0].k_end == 4);
  CHECK(s.items[1].across() == 0);
  CHECK(s.items[2].across() == 1);
  CHECK(s.items[3].across() == 2);
  s.max_phase = 3 + 4 * kCountedPhasesPerSegment;  // a span of more than that per segment
  CHECK_FALSE(panel_lag_detail::set_phase_order(s));
}

TEST_CASE("Stream-K over one tile row: A slices refetched 2 k-tiles apart, B never shared") {
  // 128x640x512 on 4 SMs: 5 tiles (1 x 5) of 8 k-tiles, 40 k-tiles in 4 units of 10.
  //   CTA 0: tile 0 k 0..8 (phase 0),  tile 1 k 0..2 after 8 (phase -8)
  //   CTA 1: tile 1 k 2..8 (phase 2),  tile 2 k 0..4 after 6 (phase -6)
  //   CTA 2: tile 2 k 4..8 (phase 4),  tile 3 k 0..6 after 4 (phase -4)
  //   CTA 3: tile 3 k 6..8 (phase 6),  tile 4 k 0..8 after 2 (phase -2)
  // A (one row, phases 6, 4, 2, 0, -2, -4, -6, -8): each segment's nearest earlier fetcher of a
  // common k is the one 2 above it; the phase-6 segment (2 of 40 k-tiles) fetches first, below
  // the first quantile (2.5 k-tiles): every quantile is 2. B: each column is one tile's.
  const Plan p = plan("streamk", Problem{128, 640, 512}, 4);
  REQUIRE(p.split_mode == SplitMode::EvenStream);
  REQUIRE(p.grid == 4);
  PanelLagScratch scratch;
  const PanelLag lag = panel_lag(p, scratch);
  CHECK(lag.known);
  for (int i = 0; i < kGapQuantiles; ++i) {
    CHECK(lag.a_gaps[static_cast<size_t>(i)] == 2.0);
    CHECK(lag.b_gaps[static_cast<size_t>(i)] == kFirstFetch);
  }
}

TEST_CASE("data-parallel and split-K tiles start in step: no gaps") {
  PanelLagScratch scratch;
  CHECK_FALSE(panel_lag(plan("dp", Problem{4096, 4096, 4096}, 132), scratch).known);
  CHECK_FALSE(panel_lag(plan("splitk:4", Problem{512, 512, 8192}, 132), scratch).known);
}

TEST_CASE("the cache gives each plan's own gaps, whatever was asked in between") {
  const Plan one_row = plan("streamk", Problem{128, 640, 512}, 4);
  const Plan square = plan("streamk", Problem{2048, 2048, 1024}, 132);
  const Plan two_tile = plan("two-tile", Problem{2048, 2048, 1024}, 132);
  PanelLagScratch scratch;
  PanelLagCache cache;
  for (int round = 0; round < 2; ++round) {
    for (const Plan* p : {&one_row, &square, &two_tile, &one_row}) {
      const PanelLag expected = panel_lag(*p, scratch);
      const PanelLag& got = cache.of(*p);
      CHECK(got.known == expected.known);
      CHECK(got.a_gaps == expected.a_gaps);
      CHECK(got.b_gaps == expected.b_gaps);
    }
  }
  CHECK_FALSE(cache.of(plan("dp", Problem{4096, 4096, 4096}, 132)).known);
  CHECK(same_plan(square, plan("streamk", Problem{2048, 2048, 1024}, 132)));
  CHECK_FALSE(same_plan(one_row, square));
}

}  // namespace lw

// The shortlist timed on the hardware: shortlist_picks on hand-made groups, and the report section
// (shortlist_markdown) with hand-worked figures for one timing and for a pair of timings.
#include "calib/shortlist.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "calib/metrics.hpp"
#include "tests/calib/pick_cases.hpp"

namespace lw {

namespace {

using test::cases_of;
using test::pick_row;

const double kNaN = std::nan("");

// One group of four configs at 132 SMs: the simulator ranks them a, b, c, d (scores 1-4); their
// times are 10, 12, 8, 9, so the measured best (8) is the simulator's third.
const std::vector<Measurement> kGroup = {
    pick_row(256, 132, "dp", 10), pick_row(256, 132, "splitk:2", 12),
    pick_row(256, 132, "streamk", 8), pick_row(256, 132, "cutlass", 9)};
const std::vector<double> kScore = {1, 2, 3, 4};
const std::vector<size_t> kAll = {0, 1, 2, 3};

}  // namespace

TEST_CASE("shortlist_picks keeps the fastest of the K best-scored, judged by another timing") {
  const auto cases = cases_of(kGroup);
  const std::vector<double> t = {10, 12, 8, 9};
  // K = 1: the 10 (best 8: 0.8); K = 2: 10 and 12, the 10 kept (0.8); K = 3: the 8 (1.0).
  CHECK(shortlist_picks(cases, kScore, t, t, kAll, 1).worst == doctest::Approx(0.8));
  CHECK(shortlist_picks(cases, kScore, t, t, kAll, 2).worst == doctest::Approx(0.8));
  const DecisionStats three = shortlist_picks(cases, kScore, t, t, kAll, 3);
  CHECK(three.worst == 1.0);
  CHECK(three.exact == 1.0);
  // K = 1 is judged_picks.
  const DecisionStats one = judged_picks(cases, kScore, t, kAll);
  CHECK(one.worst == shortlist_picks(cases, kScore, t, t, kAll, 1).worst);
  // Kept by one timing, judged by another: timing a keeps the 8 of K = 3 (a's 7.5), which the
  // judge times at 11 against its best 9 (the fourth config): 9 / 11.
  const std::vector<double> a = {10, 12, 7.5, 9}, judge = {10, 12, 11, 9};
  CHECK(shortlist_picks(cases, kScore, a, judge, kAll, 3).worst == doctest::Approx(9.0 / 11.0));
  // A case either timing lacks sits out (the third: K = 3 now lists the fourth, 9 of 9).
  const std::vector<double> gap = {10, 12, kNaN, 9};
  CHECK(shortlist_picks(cases, kScore, gap, judge, kAll, 3).worst == 1.0);
}

// The same group as the test set, with one repeated timing (the judge above): K = 1 keeps the 10
// (best 8: 80.0 % by its own timing; by the pair: timing 0 keeps the 10, the judge's best 9 ->
// 90.0 %, and the judge keeps its 10, timing 0's best 8 -> 80.0 %); K = 3 keeps the 8 (100.0 %;
// by the pair: 9 / 11 = 81.8 % one way, the judge keeps the 10 of {10, 12, 11}: 8 / 10 = 80.0 %
// the other). No validation group: its columns are "-".
TEST_CASE("shortlist_markdown reports each K by one timing and by a pair of timings") {
  const auto cases = cases_of(kGroup);
  RepeatTimings r;
  r.files = {"pass.csv"};
  r.times = {{10, 12, 8, 9}, {10, 12, 11, 9}};
  const std::string md = shortlist_markdown(cases, kScore, r, {}, kAll, 132);
  CHECK(md.find("## Shortlist timed on the hardware") != std::string::npos);
  CHECK(md.find("| 1 | - | - | - | 80.0 / 80.0 | 80.0 / 80.0 | 80.0-90.0 / 80.0-90.0 |") !=
        std::string::npos);
  CHECK(md.find("| 3 | - | - | - | 100.0 / 100.0 | 100.0 / 100.0 | 80.0-81.8 / 80.0-81.8 |") !=
        std::string::npos);
  CHECK(shortlist_markdown(cases, kScore, r, {}, {}, 132).empty());
}

}  // namespace lw

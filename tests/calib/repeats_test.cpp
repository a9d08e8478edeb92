// Picks judged by another timing: judged_picks and pass_picks on hand-made groups, and the
// --repeats section (read_repeats, repeats_markdown) on two timing passes with hand-worked figures.
#include "calib/repeats.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "calib/metrics.hpp"
#include "tests/calib/pick_cases.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

namespace {

using test::cases_of;

Measurement row(int64_t m, const std::string& schedule, double us) {
  return test::pick_row(m, 132, schedule, us);
}

const double kNaN = std::nan("");

}  // namespace

TEST_CASE("judged_picks picks by score and judges by time, group by group") {
  // Group 256: times 10, 8, 12, the pick (score 1) the 10: 0.8. Group 512: 5 and 5.5, the pick
  // (score 1) the 5.5: 5 / 5.5.
  const std::vector<Measurement> ms = {row(256, "dp", 10), row(256, "splitk:2", 8),
                                       row(256, "streamk", 12), row(512, "dp", 5),
                                       row(512, "streamk", 5.5)};
  const auto cases = cases_of(ms);
  const std::vector<double> time = {10, 8, 12, 5, 5.5};
  const std::vector<size_t> all = {0, 1, 2, 3, 4};
  const DecisionStats d = judged_picks(cases, {1, 2, 3, 2, 1}, time, all);
  CHECK(d.groups == 2);
  CHECK(d.exact == 0.0);
  CHECK(d.worst == doctest::Approx(0.8));
  CHECK(d.geomean == doctest::Approx(std::sqrt(0.8 * 5 / 5.5)));
  // A NaN score is never picked; a NaN time takes the case out (group 512 then has one case).
  const DecisionStats e = judged_picks(cases, {kNaN, 2, 3, 2, 1}, {10, 8, 12, kNaN, 5.5}, all);
  CHECK(e.groups == 1);
  CHECK(e.exact == 1.0);
  CHECK(e.worst == 1.0);
}

TEST_CASE("decision_stats with a rule picks the rule's default-tile 1x1 config") {
  std::vector<Measurement> ms = {row(256, "dp", 8), row(256, "cutlass", 10),
                                 row(256, "cutlass", 9)};
  ms[2].cluster = ClusterShape{2, 1};  // not the rule's own config
  const auto cases = cases_of(ms);
  const DecisionStats d = decision_stats(cases, {1, 2, 3}, {0, 1, 2}, "cutlass");
  CHECK(d.groups == 1);
  CHECK(d.worst == doctest::Approx(0.8));
  CHECK(decision_stats(cases, {3, 2, 1}, {0, 1, 2}).worst == doctest::Approx(8.0 / 9.0));
}

TEST_CASE("pass_picks: each pass picks, every other pass judges") {
  const std::vector<Measurement> ms = {row(256, "dp", 10), row(256, "splitk:2", 8),
                                       row(256, "streamk", 1)};
  const auto cases = cases_of(ms);
  // The streamk case is timed by pass 0 only, so it sits out of both pairs.
  const std::vector<std::vector<double>> times = {{10, 8, 1}, {9, 11, kNaN}};
  const auto pairs = pass_picks(cases, times, {0, 1, 2});
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].worst == doctest::Approx(9.0 / 11.0));  // pass 0 picks the 8, pass 1 times it 11
  CHECK(pairs[1].worst == doctest::Approx(0.8));         // pass 1 picks the 9, pass 0 times it 10
}

TEST_CASE("--repeats: files matched to cases, the section's figures worked by hand") {
  const std::string dir = testing::temp_dir("repeats");
  const std::string header =
      "m,n,k,sms,decomposition,reduction,splits,grid,median_ms,p10_ms,p90_ms,tflops,cublas_ms,"
      "rel_err,sm_clock_mhz\n";
  const auto line = [](int64_t m, const char* s, double ms) {
    return std::to_string(m) + "," + std::to_string(m) + "," + std::to_string(m) + ",132," + s +
           ",deterministic,1,4," + std::to_string(ms) + "," + std::to_string(ms) + "," +
           std::to_string(ms) + ",1,1,0,1980\n";
  };
  const std::string again = dir + "/again.csv";
  std::ofstream(again) << header << line(256, "dp", 0.009) << line(256, "splitk:2", 0.011)
                       << line(512, "dp", 0.005) << line(512, "splitk:2", 0.0062)
                       << line(1024, "dp", 0.1);  // no such case: left out
  const std::string stranger = dir + "/stranger.csv";
  std::ofstream(stranger) << header << line(2048, "dp", 0.1);

  const std::vector<Measurement> ms = {row(256, "dp", 10), row(256, "splitk:2", 8),
                                       row(512, "dp", 5), row(512, "splitk:2", 6)};
  const auto cases = cases_of(ms);
  const RepeatTimings r = read_repeats({again}, cases, {0, 1, 2, 3});
  REQUIRE(r.times.size() == 2);
  CHECK(r.times[1][1] == doctest::Approx(11.0));
  CHECK(r.mean[0] == doctest::Approx(std::sqrt(90.0)));

  // The simulator picks dp at 256 and splitk:2 at 512. By the mean timing: 256 sqrt(88) /
  // sqrt(90), 512 5 / sqrt(37.2): geomean 90.0, worst 82.0. By pass 0: 0.8 and 5/6 (81.6 / 80.0);
  // by pass 1: 1 and 5/6.2 (89.8 / 80.6). Pass 0 picking for pass 1: 9/11 and 1 (90.5 / 81.8);
  // pass 1 for pass 0: 0.8 and 1 (89.4 / 80.0).
  const std::string md = repeats_markdown(cases, {1, 2, 2, 1}, r, {}, {0, 1, 2, 3});
  CHECK(md.find("| test | 132 | 2 | 2 | 90.0 / 82.0 | 81.6-89.8 / 80.0-80.6 | 89.4-90.5 / "
                "80.0-81.8 | 0 of 2 |") != std::string::npos);
  CHECK(md.find("| validation |") == std::string::npos);
  CHECK(repeats_markdown(cases, {1, 2, 2, 1}, RepeatTimings{}, {}, {0, 1, 2, 3}).empty());

  // Two SM counts, each timed again by its own pass: the row over both gives no ranges.
  std::vector<Measurement> two = ms;
  two[2].sms = two[3].sms = 64;
  const auto two_cases = cases_of(two);
  RepeatTimings split = r;
  split.times.push_back(split.times[1]);
  split.times[1][2] = split.times[1][3] = kNaN;  // pass 1: the 132-SM group only
  split.times[2][0] = split.times[2][1] = kNaN;  // pass 2: the 64-SM group only
  const std::string by_sms = repeats_markdown(two_cases, {1, 2, 2, 1}, split, {0, 1, 2, 3}, {});
  CHECK(by_sms.find("| validation | every | 2 | 3 | 90.0 / 82.0 | per SM count, below |") !=
        std::string::npos);
  CHECK(by_sms.find("| validation | 132 | 1 | 2 |") != std::string::npos);
  CHECK(by_sms.find("| validation | 64 | 1 | 2 |") != std::string::npos);

  CHECK_THROWS_WITH_AS(read_repeats({stranger}, cases, {0, 1, 2, 3}),
                       doctest::Contains("stranger.csv: --repeats: no row times"),
                       std::invalid_argument);
  CHECK_THROWS_WITH(read_repeats({dir + "/missing.csv"}, cases, {0, 1, 2, 3}),
                    doctest::Contains("missing.csv"));
}

}  // namespace lw

// The coverage section of the calibration report (calib/coverage_fit.hpp): the bands it prints
// and how many validation and test rows their intervals hold, against counts worked by hand.
#include "calib/coverage_fit.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace lw {

namespace {

// Rows at 132 SMs, each a "dp" measurement whose measured / predicted ratio is given (predicted
// 100 us). Measurements live in a deque so the cases' pointers stay valid.
struct Rows {
  std::deque<Measurement> ms;
  std::vector<FitCase> cases;
  std::vector<double> predicted;
  void add(const Problem& p, double ratio) {
    constexpr double kPredictedUs = 100;
    Measurement m;
    m.problem = p;
    m.sms = 132;
    m.schedule = "dp";
    m.median_us = kPredictedUs * ratio;
    ms.push_back(m);
    FitCase c;
    c.m = &ms.back();
    cases.push_back(c);
    predicted.push_back(kPredictedUs);
  }
};

// Trained on the cubes 512 ... 4096 at 132 SMs.
Coverage cube_coverage() {
  std::vector<CoveragePoint> points;
  for (int64_t s : {512, 1024, 2048, 4096}) points.push_back({Problem{s, s, s}, 132});
  return Coverage(points);
}

}  // namespace

TEST_CASE("the coverage section counts the rows inside their intervals, flagged ones widened") {
  Coverage c = cube_coverage();
  // Ten validation rows on the trained cubes, ratios 0.91 ... 1.00: p10 interpolates at order
  // statistic 0.9 (0.919), p90 at 8.1 (0.991); rows 0.92 ... 0.99 lie inside: 8 of 10.
  Rows held;
  for (int i = 0; i < 10; ++i) {
    const int64_t s = int64_t{512} << (i % 4);
    held.add(Problem{s, s, s}, 0.91 + 0.01 * i);
  }
  std::map<std::string, std::vector<double>> ratios;
  for (size_t i = 0; i < held.cases.size(); ++i) {
    ratios["dp"].push_back(held.cases[i].m->median_us / held.predicted[i]);
  }
  c.set_bands(ratios);
  // Test rows: 0.90 and 1.00 outside, 0.95 and 0.99 inside. K = 8 lies over 3 thresholds from
  // every cube (flagged): its band is widened about the centre (ln 0.919 + ln 0.991) / 2 to over
  // 3x the half-width 0.0377, which takes in 1.05 (0.0954 above the centre; outside unwidened).
  Rows test;
  for (double r : {0.90, 0.95, 0.99, 1.00}) test.add(Problem{1024, 1024, 1024}, r);
  const Problem far{4096, 4096, 8};
  REQUIRE(c.locate(far, 132).distance > 3 * c.threshold());
  test.add(far, 1.05);
  const std::string md =
      coverage_markdown(c, held.cases, held.predicted, test.cases, test.predicted, 132);
  CHECK(md.find("## Where the model is right") != std::string::npos);
  CHECK(md.find("| dp | 10 | 0.919 | 0.991 |") != std::string::npos);
  CHECK(md.find("| all | 10 | 0.919 | 0.991 |") != std::string::npos);
  CHECK(md.find("| validation, own bands | 10 | 8 (80.0 %) | 0 (0.0 %) | 0 of 0 |") !=
        std::string::npos);
  CHECK(md.find("| test (reported, not used) | 5 | 3 (60.0 %) | 1 (20.0 %) | 1 of 1 |") !=
        std::string::npos);
  CHECK(md.find("| validation, bands of the other half | 10 |") != std::string::npos);
  CHECK(md.find("| ... at 132 SMs | 10 |") != std::string::npos);
  CHECK(md.find("at other SM counts") == std::string::npos);  // no such rows: no table row
  // Without test rows the test line is left out.
  const std::string no_test = coverage_markdown(c, held.cases, held.predicted, {}, {}, 132);
  CHECK(no_test.find("test (reported") == std::string::npos);
}

}  // namespace lw

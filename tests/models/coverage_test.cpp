// Coverage (models/coverage): the standardised distance, the leave-one-out threshold, the SM term,
// the reason text, the interval bands and their widening, the JSON form; on hand-worked sets.
#include "models/coverage.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace {

// Four shapes whose log2 features are easy by hand (K fixed at 2, so its scale is the flat 0.25):
// log2 M and log2 N are {1, 3}, mean 2, sd 1; log2 MNK {3, 5, 5, 7}, mean 5, sd sqrt 2.
// Standardised: 2x2x2 (-1, -1, 0, -sqrt 2), 8x2x2 (1, -1, 0, 0), 2x8x2 (-1, 1, 0, 0), 8x8x2 (1, 1,
// 0, sqrt 2); each one's nearest other lies sqrt 6 away, so every leave-one-out distance, and the
// p99, is sqrt 6. 2x2x2 is also trained at 32 SMs: the SM counts {32, 128} have log2 sd 1.
lw::Coverage four_shapes() {
  return lw::Coverage(
      {{{2, 2, 2}, 128}, {{8, 2, 2}, 128}, {{2, 8, 2}, 128}, {{8, 8, 2}, 128}, {{2, 2, 2}, 32}});
}

std::string error_of(const nlohmann::json& j) {
  try {
    lw::Coverage::from_json(j, "model file 'x.json'");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("quantiles interpolate between order statistics") {
  CHECK(lw::quantile({3, 1, 2}, 0.5) == doctest::Approx(2));
  CHECK(lw::quantile({4, 1, 3, 2}, 0.25) == doctest::Approx(1.75));
  CHECK(lw::quantile({0.8, 0.9, 1.0, 1.1, 1.2}, 0.1) == doctest::Approx(0.84));
  CHECK_THROWS_AS(lw::quantile({}, 0.5), std::invalid_argument);
}

TEST_CASE("the threshold is the p99 of the training shapes' leave-one-out distances") {
  const lw::Coverage c = four_shapes();
  CHECK(c.threshold() == doctest::Approx(std::sqrt(6.0)));
  CHECK(c.scale()[0] == doctest::Approx(1));
  CHECK(c.scale()[2] == doctest::Approx(0.25));  // K never varies
  CHECK(c.scale()[3] == doctest::Approx(std::sqrt(2.0)));
  CHECK(c.sms_scale() == doctest::Approx(1));
}

TEST_CASE("a shape between the trained ones is not extrapolated") {
  // 4x4x2 standardises to the origin: sqrt 2 from 8x2x2 and 2x8x2, 2 from the other two.
  const lw::Located in = four_shapes().locate({4, 4, 2}, 128);
  CHECK(in.distance == doctest::Approx(std::sqrt(2.0)));
  CHECK_FALSE(in.extrapolated);
  CHECK(in.reason.empty());
}

TEST_CASE("a K far below the trained ones is extrapolated, and the reason names it") {
  // 2x2x8 standardises to (-1, -1, 8, 0): sqrt 66 from 2x2x2, sqrt 68 from 8x2x2 and 2x8x2.
  const lw::Located out = four_shapes().locate({2, 2, 8}, 128);
  CHECK(out.distance == doctest::Approx(std::sqrt(66.0)));
  CHECK(out.extrapolated);
  CHECK(out.nearest.m == 2);
  CHECK(out.reason ==
        "distance 8.1 sd > 2.4 from the nearest trained shape 2x2x2 and SM count 128; mostly k: "
        "8 is 8.0 sd above it");
}

TEST_CASE("SM counts inside the trained span cost nothing; outside, log2 distance over its sd") {
  const lw::Coverage c = four_shapes();
  CHECK(c.locate({2, 2, 2}, 64).distance == doctest::Approx(0));  // between 32 and 128
  CHECK(c.locate({2, 2, 2}, 8).distance == doctest::Approx(2));   // log2 32 - log2 8
  CHECK_FALSE(c.locate({2, 2, 2}, 8).extrapolated);
  // 4x4x2 at 256 SMs: hypot(sqrt 2, 1).
  CHECK(c.locate({4, 4, 2}, 256).distance == doctest::Approx(std::sqrt(3.0)));
  const lw::Located few = c.locate({2, 2, 2}, 4);
  CHECK(few.distance == doctest::Approx(3));
  CHECK(few.reason ==
        "distance 3.0 sd > 2.4 from the nearest trained shape 2x2x2 and SM count 32; mostly sms: "
        "4 is 3.0 sd below it");
}

TEST_CASE("the search finds what a brute-force scan finds") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> dim(1, 20000);
  std::vector<lw::CoveragePoint> points;
  for (int i = 0; i < 300; ++i) points.push_back({{dim(rng), dim(rng), dim(rng)}, 132});
  const lw::Coverage c(points);
  const auto standardised = [&](const lw::Problem& p) {
    lw::CoverageFeatures f = lw::coverage_features(p), mean{};
    for (const auto& pt : points) {
      const auto g = lw::coverage_features(pt.problem);
      for (size_t d = 0; d < f.size(); ++d) mean[d] += g[d] / double(points.size());
    }
    for (size_t d = 0; d < f.size(); ++d) f[d] = (f[d] - mean[d]) / c.scale()[d];
    return f;
  };
  for (int q = 0; q < 50; ++q) {
    const lw::Problem query{dim(rng), dim(rng), dim(rng)};
    const auto fq = standardised(query);
    double best = 1e300;
    for (const auto& pt : points) {
      const auto fp = standardised(pt.problem);
      double s = 0;
      for (size_t d = 0; d < fq.size(); ++d) s += (fq[d] - fp[d]) * (fq[d] - fp[d]);
      best = std::min(best, std::sqrt(s));
    }
    CHECK(c.locate(query, 132).distance == doctest::Approx(best));
  }
}

TEST_CASE("bands are the p10 and p90 of measured / predicted, by family, then over all rows") {
  lw::Coverage c = four_shapes();
  // dp {0.8 .. 1.2}: p10 0.84, p90 1.16; with splitk's two 1.0: p10 0.86, p90 1.14.
  c.set_bands({{"dp", {1.2, 0.8, 1.0, 0.9, 1.1}}, {"splitk", {1.0, 1.0}}});
  const lw::Located in = c.locate({4, 4, 2}, 128);
  const lw::Interval dp = c.interval("dp", 100, in);
  CHECK(dp.low_us == doctest::Approx(84));
  CHECK(dp.high_us == doctest::Approx(116));
  const lw::Interval other = c.interval("streamk", 100, in);  // no band of its own: "all"
  CHECK(other.low_us == doctest::Approx(86));
  CHECK(other.high_us == doctest::Approx(114));
  CHECK(c.bands().at("all").rows == 7);
}

TEST_CASE("an extrapolated row's band widens in log space by distance / threshold") {
  lw::Coverage c = four_shapes();
  c.set_bands({{"dp", {1.2, 0.8, 1.0, 0.9, 1.1}}});
  lw::Located far;
  far.extrapolated = true;
  far.distance = 2 * c.threshold();
  // Centre sqrt(0.84 * 1.16) = 0.987117, half-width doubled: times / by 1.16 / 0.84 = 1.380952.
  const lw::Interval wide = c.interval("dp", 100, far);
  CHECK(wide.low_us == doctest::Approx(71.4809).epsilon(1e-5));
  CHECK(wide.high_us == doctest::Approx(136.3161).epsilon(1e-5));
}

TEST_CASE("schedules map to the bands' families") {
  CHECK(lw::schedule_family("splitk:4") == "splitk");
  CHECK(lw::schedule_family("splitk-dsm:4") == "splitk-dsm");
  CHECK(lw::schedule_family("cutlass-dp") == "cutlass");
  CHECK(lw::schedule_family("two-tile") == "two-tile");
  CHECK(lw::schedule_family("dp-persistent") == "dp");
  CHECK(lw::schedule_family("streamk:3") == "streamk");
  CHECK(lw::schedule_family("best") == "all");
}

TEST_CASE("the JSON form round-trips and refuses malformed sections in one line") {
  lw::Coverage c = four_shapes();
  c.set_bands({{"dp", {1.2, 0.8, 1.0, 0.9, 1.1}}});
  const lw::Coverage back = lw::Coverage::from_json(c.to_json(), "x.json");
  CHECK(back.threshold() == doctest::Approx(c.threshold()));
  CHECK(back.points().size() == 5);
  CHECK(back.locate({2, 2, 8}, 128).reason == c.locate({2, 2, 8}, 128).reason);
  CHECK(back.bands().at("dp").low == doctest::Approx(0.84));
  CHECK(error_of({{"bands", nlohmann::json::object()}}) ==
        "model file 'x.json': \"coverage\" must be an object with \"points\" and \"bands\"");
  nlohmann::json bad = c.to_json();
  bad["points"][0] = {1, 2, 3};
  CHECK(error_of(bad) == "model file 'x.json': \"coverage\": each point must be [m, n, k, sms]");
  bad = c.to_json();
  bad["bands"]["dp"]["p10"] = 2.0;
  CHECK(error_of(bad) == "model file 'x.json': \"coverage\" band \"dp\": need 0 < p10 <= p90");
  CHECK_THROWS_AS(lw::Coverage({{{2, 2, 2}, 128}, {{2, 2, 2}, 64}}), std::invalid_argument);
}

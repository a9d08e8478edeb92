// The residual trees' fit (calib/residual_fit.hpp): XGBoost finds a step it can find, our
// evaluator of the converted trees agrees with XGBoost's own predictions, the fit is
// deterministic, and bad input is refused in one line.
#include "calib/residual_fit.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace {

constexpr size_t kK = 2, kSms = 8, kWaves = 12;  // residual_feature_names() positions

// 600 rows with random k, sms and waves; the target steps from +0.2 (k < 1000) to -0.1, plus
// 0.05 x waves.
void synthetic(std::vector<lw::ResidualFeatures>& x, std::vector<double>& y) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> k(64, 8192), sms(16, 132), waves(0.1f, 6);
  for (int i = 0; i < 600; ++i) {
    lw::ResidualFeatures row{};
    row[kK] = k(rng);
    row[kSms] = sms(rng);
    row[kWaves] = waves(rng);
    x.push_back(row);
    y.push_back((row[kK] < 1000 ? 0.2 : -0.1) + 0.05 * row[kWaves]);
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the fitted trees learn a step and match XGBoost's own predictions") {
  std::vector<lw::ResidualFeatures> x;
  std::vector<double> y;
  synthetic(x, y);
  lw::ResidualFitOptions o;
  o.rounds = 200;
  o.learning_rate = 0.1;
  o.min_rows = 5;
  const lw::ResidualFit fit = lw::fit_residual_trees(x, y, o);
  CHECK(fit.trees.size() == 200);
  REQUIRE(fit.trainer_predictions.size() == x.size());
  double worst_gap = 0, worst_error = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double ours = fit.trees.log_factor(x[i]);
    worst_gap = std::max(worst_gap, std::abs(ours - fit.trainer_predictions[i]));
    worst_error = std::max(worst_error, std::abs(ours - y[i]));
  }
  CHECK(worst_gap < 1e-5);    // float sums in XGBoost, double here
  CHECK(worst_error < 0.05);  // the step is 0.3, the waves slope 0.3 over the range
  const lw::ResidualFeatures low = x[0];
  lw::ResidualFeatures below = low, above = low;
  below[kK] = 500;
  above[kK] = 5000;
  CHECK(fit.trees.log_factor(below) - fit.trees.log_factor(above) ==
        doctest::Approx(0.3).epsilon(0.15));
}

TEST_CASE("the fit is deterministic") {
  std::vector<lw::ResidualFeatures> x;
  std::vector<double> y;
  synthetic(x, y);
  lw::ResidualFitOptions o;
  o.rounds = 30;
  CHECK(lw::fit_residual_trees(x, y, o).trees.to_json() ==
        lw::fit_residual_trees(x, y, o).trees.to_json());
}

TEST_CASE("bad input is refused in one line") {
  std::vector<lw::ResidualFeatures> x(3);
  CHECK(error_of([&] {
          lw::fit_residual_trees(x, {0.1, 0.2});
        }) == "residual trees: need as many targets as rows, and some rows");
  CHECK(error_of([&] { lw::fit_residual_trees({}, {}); }).rfind("residual trees: ", 0) == 0);
  x[1][kK] = NAN;
  CHECK(error_of([&] {
          lw::fit_residual_trees(x, {0.1, 0.2, 0.3});
        }) == "residual trees: row 1 has a non-finite feature or target");
  x[1][kK] = 1;
  lw::ResidualFitOptions o;
  o.rounds = 0;
  const std::vector<double> y = {0.1, 0.2, 0.3};
  CHECK(error_of([&] { lw::fit_residual_trees(x, y, o); }) == "--residual-rounds must be >= 1");
  o.rounds = 10;
  o.learning_rate = 0;
  CHECK(error_of([&] { lw::fit_residual_trees(x, y, o); }) ==
        "--residual-learning-rate must be in (0, 1]");
}

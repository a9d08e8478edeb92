// Error and decision-quality figures of a predictor against measured makespans.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "models/calib/cases.hpp"

namespace lw {

constexpr double kPercent = 100.0;  // percent per unit fraction

struct ErrorStats {
  size_t n = 0;
  double median = 0, p90 = 0, p95 = 0, max = 0;  // of |predicted / measured - 1| in %
};

// Over the cases at `indices`.
ErrorStats error_stats(const std::vector<FitCase>& cases, const std::vector<double>& predicted,
                       const std::vector<size_t>& indices);

struct DecisionStats {
  size_t groups = 0;   // (m, n, k, sms) groups with >= 2 measured decompositions
  double exact = 0;    // share of groups where the pick is the measured fastest
  double geomean = 0;  // geomean of measured best time / measured time of the pick
  double worst = 0;    // the smallest such ratio
};

// Picks per group the case with the smallest prediction. With `rule` non-empty, picks the case
// whose schedule is `rule` instead (groups without it are skipped).
DecisionStats decision_stats(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted,
                             const std::vector<size_t>& indices, const std::string& rule = "");

}  // namespace lw

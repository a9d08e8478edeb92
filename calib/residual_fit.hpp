// Fits the residual trees (models/residual) with XGBoost (Debian's libxgboost): boosted
// regression trees on ln(measured / simulated) of the training rows, converted to the flat form
// a model file carries. The settings were chosen on the validation rows
// (docs/calibration-notes.md).
#pragma once
#include <vector>

#include "models/residual/residual_trees.hpp"

namespace lw {

struct ResidualFitOptions {
  int rounds = 600;             // boosting rounds (trees)
  double learning_rate = 0.05;  // each tree's shrinkage
  int max_leaves = 31;          // leaves per tree, grown best-first
  double min_rows = 20;         // fewest training rows in a leaf (the squared loss's hessian sum)
};

// Throws std::invalid_argument, one line naming the calibrate option, unless rounds >= 1 (>= 0
// when `zero_rounds_ok`: no trees), max_leaves >= 2, learning_rate in (0, 1] and min_rows >= 0.
void check_residual_options(const ResidualFitOptions& o, bool zero_rounds_ok = false);

struct ResidualFit {
  ResidualTrees trees;
  std::vector<double> trainer_predictions;  // XGBoost's own prediction for each training row
};

// Trees fitted to targets `y` (ln of measured / simulated) of rows `x`: deterministic (one
// thread, fixed seed). Throws std::invalid_argument for mismatched or empty input, a non-finite
// value, or a failure inside XGBoost (its message, one line).
ResidualFit fit_residual_trees(const std::vector<ResidualFeatures>& x, const std::vector<double>& y,
                               const ResidualFitOptions& options = {});

}  // namespace lw

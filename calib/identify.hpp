// Which fitted parameters the data determined: the standard error of ln(parameter) from the
// Jacobian of the relative residuals at the fit. A parameter the data can only fix as a sum with
// another, or one with no effect on the data, has an unbounded error and is flagged undetermined.
#pragma once
#include <Eigen/Dense>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lw {

// A parameter is determined when one standard error of its logarithm is below ln 2 (the data pin
// it within a factor of 2).
inline constexpr double kDeterminedLogSe = 0.6931471805599453;
// Relative measurement noise assumed at least this large, so a perfect fit does not make a weak
// direction look determined.
inline constexpr double kNoiseFloorRel = 0.01;
// Singular values below this share of the largest are treated as zero (exact sums, no effect).
inline constexpr double kNullSingularShare = 1e-7;
// A parameter whose component in such a null direction exceeds this is unbounded.
inline constexpr double kNullDirectionShare = 0.01;

// Whether `names` lists `name` (the parameter lists below and FitOptions').
inline bool lists(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct Identifiability {
  std::map<std::string, double> log_se;   // standard error of ln(value); +inf when unbounded
  std::vector<std::string> undetermined;  // log_se >= kDeterminedLogSe or at a bound
  std::vector<std::string> pinned;        // held at a physical value (FitOptions::pinned)
  std::vector<std::string> off;           // held at the value that switches its term off (`fixed`)
  std::vector<std::string> at_limit;      // pushed to its physical ceiling (PhysicalLimit), held
};

// `jac`: residuals x free parameters, d(sim/measured - 1)/d ln(param). `rms`: residual RMS.
// `at_bound`: free parameters the fit pushed to their clamp. `fixed`: held at their start (the
// value that switches their term off: calibrate's dropped terms), listed `off`.
Identifiability identify(const Eigen::MatrixXd& jac, const std::vector<std::string>& free,
                         double rms, const std::vector<bool>& at_bound,
                         const std::vector<std::string>& fixed);

}  // namespace lw

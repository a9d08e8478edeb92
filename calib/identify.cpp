// Log-space parameter standard errors by SVD of the fit's Jacobian (see identify.hpp).
#include "calib/identify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lw {

Identifiability identify(const Eigen::MatrixXd& jac, const std::vector<std::string>& free,
                         double rms, const std::vector<bool>& at_bound,
                         const std::vector<std::string>& fixed) {
  Identifiability out;
  const double inf = std::numeric_limits<double>::infinity();
  const auto p = static_cast<Eigen::Index>(free.size());
  const double sigma = std::max(rms, kNoiseFloorRel);
  Eigen::VectorXd var = Eigen::VectorXd::Constant(p, inf);
  if (jac.rows() > 0 && p > 0) {
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(jac, Eigen::ComputeThinV);
    const Eigen::VectorXd& s = svd.singularValues();
    const Eigen::MatrixXd& v = svd.matrixV();
    const double floor = s.size() ? s[0] * kNullSingularShare : 0.0;
    var.setZero();
    for (Eigen::Index i = 0; i < s.size(); ++i) {
      for (Eigen::Index j = 0; j < p; ++j) {
        if (s[i] > floor && s[i] > 0) {
          var[j] += v(j, i) * v(j, i) / (s[i] * s[i]);
        } else if (std::abs(v(j, i)) > kNullDirectionShare) {  // takes part in a null direction
          var[j] = inf;
        }
      }
    }
  }
  for (Eigen::Index j = 0; j < p; ++j) {
    const double se = std::isfinite(var[j]) ? sigma * std::sqrt(var[j]) : inf;
    const std::string& name = free[static_cast<size_t>(j)];
    out.log_se[name] = se;
    if (!(se < kDeterminedLogSe) || at_bound[static_cast<size_t>(j)]) {
      out.undetermined.push_back(name);
    }
  }
  for (const auto& name : fixed) {
    out.log_se[name] = inf;
    out.off.push_back(name);
  }
  return out;
}

}  // namespace lw

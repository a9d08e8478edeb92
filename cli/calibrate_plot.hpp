// calibrate --plot: the fitted model's predicted vs measured time per held-out row, drawn by
// sim/plot/scatter from calibrate's residuals CSV (m,n,k,sms,decomposition,split,measured_us,
// pred0_us,...; pred0 = the fitted model).
#pragma once
#include <string>
#include <vector>

#include "sim/plot/scatter.hpp"

namespace lw::cli {

// (predicted = pred0_us, measured = measured_us, label = decomposition) per row the fit did not
// see (a "split" column's validation and test rows; every row without one); throws
// std::invalid_argument when the columns are missing.
std::vector<plot::ScatterPoint> residual_points(const std::string& residuals_csv);

}  // namespace lw::cli

// Predicted vs measured time, log-log, one colour per label (e.g. schedule), with the y = x line
// and a +-10 % band: how far the cost model is from the hardware, and where.
#pragma once
#include <string>
#include <vector>

#include "sim/plot/svg.hpp"

namespace lw::plot {

struct ScatterPoint {
  double predicted = 0;  // > 0
  double measured = 0;   // > 0
  std::string label;
};

struct ScatterSpec {
  std::string title;
  std::string subtitle;
  std::string unit = "us";
};

// One <circle> per point with both times > 0 (others are skipped).
Svg scatter_svg(const std::vector<ScatterPoint>& points, const ScatterSpec& spec);

}  // namespace lw::plot

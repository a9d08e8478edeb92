// Efficiency CDF per heuristic: for each schedule, the share of shapes (y) whose makespan ratio
// best / schedule is at most x. A curve that stays low until x = 1 is a heuristic that is rarely
// far from the best.
#pragma once
#include <string>
#include <vector>

#include "sim/plot/svg.hpp"

namespace lw::plot {

struct CdfSeries {
  std::string name;
  std::vector<double> values;  // efficiency per shape, in (0, 1]
  std::string colour;          // "" = the palette's, by position
};

struct CdfSpec {
  std::string title;
  std::string subtitle;
  std::string x_title = "efficiency (best makespan / heuristic makespan)";
};

// One <polyline> per series (steps, at most kMaxSteps points), a legend with each median.
constexpr size_t kMaxSteps = 400;
Svg cdf_svg(const std::vector<CdfSeries>& series, const CdfSpec& spec);

}  // namespace lw::plot

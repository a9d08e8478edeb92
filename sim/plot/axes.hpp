// Linear and logarithmic axes for the plots: value -> pixel mapping, tick choice (1-2-5 decades
// for times, powers of two for GEMM extents) and drawing ticks, grid lines and axis titles.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/plot/svg.hpp"

namespace lw::plot {

struct Axis {
  double lo = 0, hi = 1;    // value range
  double px0 = 0, px1 = 1;  // pixel range (px1 < px0 for an upward y axis)
  bool log = false;
  double map(double v) const;  // clamps to the range
};

// Ticks inside [lo, hi]: 1, 2, 5 x 10^k (log axes) or a step of 1, 2 or 5 x 10^k (linear axes).
std::vector<double> nice_ticks(const Axis& a);
// Powers of two inside [lo, hi] (every second one when there are more than `max_ticks`).
std::vector<double> pow2_ticks(const Axis& a, size_t max_ticks);

struct AxisStyle {
  std::string title;
  std::function<std::string(double)> label = num;
  bool grid = true;
};

// The plot area is [x.px0, x.px1] x [y.px1, y.px0]. Draws ticks, labels, grid and titles.
void draw_x_axis(Svg& svg, const Axis& x, const Axis& y, const std::vector<double>& ticks,
                 const AxisStyle& style);
void draw_y_axis(Svg& svg, const Axis& x, const Axis& y, const std::vector<double>& ticks,
                 const AxisStyle& style);

// A legend box at (x, y): one coloured swatch + label per row.
void draw_legend(Svg& svg, double x, double y, const std::vector<std::string>& labels,
                 const std::vector<std::string>& colours, bool lines);

}  // namespace lw::plot

// Efficiency CDF rendering (see cdf.hpp).
#include "sim/plot/cdf.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/plot/axes.hpp"

namespace lw::plot {

namespace {

constexpr double kWidth = 1060, kHeight = 620;
constexpr double kLeft = 90, kTop = 70, kPlotW = 600, kPlotH = 460;
constexpr double kLegendX = kLeft + kPlotW + 30;
constexpr double kLoStep = 0.05;  // the x axis starts at a multiple of this
constexpr double kWithin = 0.99;  // "within 1 % of the best"

// Step points of the empirical CDF of sorted `v`, at most kMaxSteps + 2 of them.
std::vector<std::pair<double, double>> steps(const std::vector<double>& v, const Axis& x,
                                             const Axis& y) {
  std::vector<std::pair<double, double>> pts;
  const size_t n = v.size();
  const size_t stride = std::max<size_t>(1, n / kMaxSteps);
  pts.emplace_back(x.map(x.lo), y.map(0));
  double prev = 0;
  for (size_t i = 0; i < n; i += stride) {
    const size_t last = std::min(n - 1, i + stride - 1);  // the step after this block of values
    const double share = static_cast<double>(last + 1) / static_cast<double>(n);
    pts.emplace_back(x.map(v[i]), y.map(prev));
    pts.emplace_back(x.map(v[i]), y.map(share));
    prev = share;
  }
  pts.emplace_back(x.map(x.hi), y.map(1));
  return pts;
}

}  // namespace

Svg cdf_svg(const std::vector<CdfSeries>& series, const CdfSpec& spec) {
  Svg svg(kWidth, kHeight);
  svg.title(spec.title);
  svg.text(kLeft, 28, spec.title, 18, "start", "font-weight=\"bold\"");
  svg.text(kLeft, 50, spec.subtitle, 13, "start", "fill=\"#555\"");
  double lo = 1;
  for (const auto& s : series) {
    for (double v : s.values) lo = std::min(lo, v);
  }
  lo = std::max(0.0, std::floor(lo / kLoStep) * kLoStep);
  if (lo >= 1) lo = 1 - kLoStep;
  const Axis x{lo, 1.0, kLeft, kLeft + kPlotW, false};
  const Axis y{0.0, 1.0, kTop + kPlotH, kTop, false};
  const auto pct = [](double v) { return num(v * 100) + "%"; };
  draw_x_axis(svg, x, y, nice_ticks(x), AxisStyle{spec.x_title, num, true});
  draw_y_axis(svg, x, y, nice_ticks(y),
              AxisStyle{"share of shapes with efficiency <= x", pct, true});
  std::vector<std::string> labels, colours;
  for (size_t i = 0; i < series.size(); ++i) {
    std::vector<double> v = series[i].values;
    std::sort(v.begin(), v.end());
    const std::string colour = series[i].colour.empty() ? palette(i) : series[i].colour;
    if (!v.empty()) svg.polyline(steps(v, x, y), colour, 2);
    const double median = v.empty() ? 0 : v[v.size() / 2];
    const auto within = v.end() - std::lower_bound(v.begin(), v.end(), kWithin);
    char stats[96];
    std::snprintf(stats, sizeof stats, ": median %.2f, %.0f%% within 1%%", median,
                  v.empty() ? 0.0 : 100.0 * double(within) / double(v.size()));
    labels.push_back(series[i].name + stats);
    colours.push_back(colour);
  }
  svg.text(kLegendX, kTop + 4, "heuristic", 13, "start", "font-weight=\"bold\"");
  draw_legend(svg, kLegendX, kTop + 14, labels, colours, true);
  return svg;
}

}  // namespace lw::plot

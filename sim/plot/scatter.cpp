// Predicted-vs-measured scatter rendering (see scatter.hpp).
#include "sim/plot/scatter.hpp"

#include <algorithm>
#include <cmath>

#include "sim/plot/axes.hpp"

namespace lw::plot {

namespace {

constexpr double kWidth = 900, kHeight = 700;
constexpr double kLeft = 90, kTop = 70, kSide = 560;
constexpr double kLegendX = kLeft + kSide + 30;
constexpr double kBand = 0.10;  // the dotted lines at y = x (1 +- kBand)
constexpr double kRadius = 3;
constexpr double kOpacity = 0.6;
constexpr double kMargin = 1.25;  // axis range beyond the data, as a factor

}  // namespace

Svg scatter_svg(const std::vector<ScatterPoint>& points, const ScatterSpec& spec) {
  Svg svg(kWidth, kHeight);
  svg.title(spec.title);
  svg.text(kLeft, 28, spec.title, 18, "start", "font-weight=\"bold\"");
  svg.text(kLeft, 50, spec.subtitle, 13, "start", "fill=\"#555\"");
  double lo = 0, hi = 0;
  std::vector<std::string> labels;
  for (const auto& p : points) {
    if (!(p.predicted > 0 && p.measured > 0)) continue;
    const double a = std::min(p.predicted, p.measured), b = std::max(p.predicted, p.measured);
    lo = lo > 0 ? std::min(lo, a) : a;
    hi = std::max(hi, b);
    if (std::find(labels.begin(), labels.end(), p.label) == labels.end()) labels.push_back(p.label);
  }
  if (lo <= 0) {
    svg.text(kLeft + kSide / 2, kTop + kSide / 2, "no points", 16, "middle");
    return svg;
  }
  const Axis x{lo / kMargin, hi * kMargin, kLeft, kLeft + kSide, true};
  const Axis y{lo / kMargin, hi * kMargin, kTop + kSide, kTop, true};
  draw_x_axis(svg, x, y, nice_ticks(x), AxisStyle{"measured (" + spec.unit + ", log)", num, true});
  draw_y_axis(svg, x, y, nice_ticks(y), AxisStyle{"predicted (" + spec.unit + ", log)", num, true});
  auto diagonal = [&](double f, const std::string& dash) {  // y = f x inside the plot
    const double x0 = std::max(x.lo, y.lo / f), x1 = std::min(x.hi, y.hi / f);
    svg.line(x.map(x0), y.map(x0 * f), x.map(x1), y.map(x1 * f), "#333", 1, dash);
  };
  diagonal(1.0, "");
  diagonal(1.0 + kBand, "stroke-dasharray=\"2 3\"");
  diagonal(1.0 - kBand, "stroke-dasharray=\"2 3\"");
  for (const auto& p : points) {
    if (!(p.predicted > 0 && p.measured > 0)) continue;
    const size_t i =
        static_cast<size_t>(std::find(labels.begin(), labels.end(), p.label) - labels.begin());
    svg.circle(x.map(p.measured), y.map(p.predicted), kRadius, palette(i), kOpacity);
  }
  std::vector<std::string> colours;
  for (size_t i = 0; i < labels.size(); ++i) colours.push_back(palette(i));
  svg.text(kLegendX, kTop + 4, "series", 13, "start", "font-weight=\"bold\"");
  draw_legend(svg, kLegendX, kTop + 14, labels, colours, false);
  const double note = kTop + 14 + 18.0 * static_cast<double>(labels.size()) + 20;
  svg.text(kLegendX, note, "solid: predicted = measured", 12);
  svg.text(kLegendX, note + 16, "dotted: +-10 %", 12);
  return svg;
}

}  // namespace lw::plot

// Axis mapping, tick choice and axis drawing (see axes.hpp).
#include "sim/plot/axes.hpp"

#include <algorithm>
#include <cmath>

namespace lw::plot {

namespace {

constexpr double kTickLength = 5;
constexpr double kLabelGap = 16;  // tick label baseline below the x axis
constexpr double kTitleGap = 38;  // axis title from the plot area
constexpr double kFontTick = 12;
constexpr double kFontTitle = 14;
constexpr double kEps = 1e-9;
constexpr int kTargetLinearTicks = 6;
constexpr double kSteps[] = {1, 2, 5};
constexpr double kLegendRow = 18;
constexpr double kSwatch = 12;
constexpr const char* kGridColour = "#e6e6e6";
constexpr const char* kAxisColour = "#444444";

double position(double v, double lo, double hi, bool log) {
  if (log) return (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
  return (v - lo) / (hi - lo);
}

}  // namespace

double Axis::map(double v) const {
  const double c = std::min(std::max(v, lo), hi);
  return px0 + (px1 - px0) * position(c, lo, hi, log);
}

std::vector<double> nice_ticks(const Axis& a) {
  std::vector<double> out;
  if (a.log) {
    for (double decade = std::pow(10.0, std::floor(std::log10(a.lo))); decade <= a.hi;
         decade *= 10) {
      for (double s : kSteps) {
        const double v = s * decade;
        if (v >= a.lo * (1 - kEps) && v <= a.hi * (1 + kEps)) out.push_back(v);
      }
    }
    return out;
  }
  const double raw = (a.hi - a.lo) / kTargetLinearTicks;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade * 10;
  for (double s : kSteps) {
    if (s * decade >= raw) {
      step = s * decade;
      break;
    }
  }
  for (double v = std::ceil(a.lo / step - kEps) * step; v <= a.hi + kEps * step; v += step) {
    out.push_back(std::fabs(v) < kEps * step ? 0.0 : v);
  }
  return out;
}

std::vector<double> pow2_ticks(const Axis& a, size_t max_ticks) {
  std::vector<double> out;
  for (double v = std::pow(2.0, std::ceil(std::log2(a.lo) - kEps)); v <= a.hi * (1 + kEps);
       v *= 2) {
    out.push_back(v);
  }
  if (out.size() > max_ticks) {
    std::vector<double> half;
    for (size_t i = 0; i < out.size(); i += 2) half.push_back(out[i]);
    out.swap(half);
  }
  return out;
}

void draw_x_axis(Svg& svg, const Axis& x, const Axis& y, const std::vector<double>& ticks,
                 const AxisStyle& style) {
  const double base = y.px0;
  for (double t : ticks) {
    const double px = x.map(t);
    if (style.grid) svg.line(px, y.px1, px, base, kGridColour);
    svg.line(px, base, px, base + kTickLength, kAxisColour);
    svg.text(px, base + kLabelGap, style.label(t), kFontTick, "middle");
  }
  svg.line(x.px0, base, x.px1, base, kAxisColour);
  svg.text((x.px0 + x.px1) / 2, base + kTitleGap, style.title, kFontTitle, "middle");
}

void draw_y_axis(Svg& svg, const Axis& x, const Axis& y, const std::vector<double>& ticks,
                 const AxisStyle& style) {
  const double left = x.px0;
  for (double t : ticks) {
    const double py = y.map(t);
    if (style.grid) svg.line(left, py, x.px1, py, kGridColour);
    svg.line(left - kTickLength, py, left, py, kAxisColour);
    svg.text(left - kTickLength - 3, py + kFontTick / 3, style.label(t), kFontTick, "end");
  }
  svg.line(left, y.px0, left, y.px1, kAxisColour);
  const double cy = (y.px0 + y.px1) / 2;
  const double cx = left - kTitleGap - kTickLength * 2;
  svg.text(cx, cy, style.title, kFontTitle, "middle",
           "transform=\"rotate(-90 " + num(cx) + " " + num(cy) + ")\"");
}

void draw_legend(Svg& svg, double x, double y, const std::vector<std::string>& labels,
                 const std::vector<std::string>& colours, bool lines) {
  for (size_t i = 0; i < labels.size(); ++i) {
    const double row = y + kLegendRow * static_cast<double>(i);
    if (lines) {
      svg.line(x, row + kSwatch / 2, x + kSwatch * 2, row + kSwatch / 2, colours[i], 3);
    } else {
      svg.rect(x, row, kSwatch, kSwatch, colours[i]);
    }
    svg.text(x + kSwatch * (lines ? 2.5 : 1.5), row + kSwatch - 1, labels[i], kFontTick);
  }
}

}  // namespace lw::plot

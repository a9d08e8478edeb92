// Winner heatmap rendering (see heatmap.hpp).
#include "sim/plot/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "sim/plot/axes.hpp"

namespace lw::plot {

namespace {

constexpr double kWidth = 980, kHeight = 760;
constexpr double kLeft = 90, kTop = 70, kSide = 600;  // square plot area
constexpr double kLegendX = kLeft + kSide + 30;
constexpr double kMinLabelCell = 22;  // cells smaller than this get no speedup label
constexpr double kLabelFont = 12;
constexpr const char* kEmpty = "#f4f4f4";
constexpr const char* kOther = "other";
constexpr double kDarkLuminance = 110;  // of 255: below this, labels are white
constexpr const char* kOtherColour = "#bab0ac";
constexpr size_t kMaxTicks = 14;

struct Bins {
  double lo_log2 = 0;
  int per_octave = 1;
  int count = 1;
  int of(double v) const {
    const int b = static_cast<int>(std::floor((std::log2(v) - lo_log2) * per_octave));
    return std::min(std::max(b, 0), count - 1);
  }
};

// Octaves of [lo, hi], split in two when there are at most kFineOctaves of them.
Bins make_bins(double lo, double hi) {
  Bins b;
  b.lo_log2 = std::floor(std::log2(lo));
  const double hi_log2 = std::max(b.lo_log2 + 1, std::floor(std::log2(hi)) + 1);
  b.per_octave = hi_log2 - b.lo_log2 <= kFineOctaves ? 2 : 1;
  b.count = static_cast<int>(hi_log2 - b.lo_log2) * b.per_octave;
  return b;
}

struct Cell {
  std::map<std::string, int> wins;
  double log_speedup = 0;
  int shapes = 0;
};

// Winners ordered by how many shapes they win overall (the most frequent gets palette(0)).
std::vector<std::string> winners_by_count(const std::vector<HeatPoint>& points) {
  std::map<std::string, int> count;
  for (const auto& p : points) ++count[p.winner];
  std::vector<std::string> names;
  for (const auto& [name, c] : count) names.push_back(name);
  std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    if ((a == kOther) != (b == kOther)) return b == kOther;  // "other" last
    return count[a] > count[b];
  });
  return names;
}

std::string mode_of(const Cell& c) {
  std::string best;
  int most = -1;
  for (const auto& [name, n] : c.wins) {
    if (n > most) {
      best = name;
      most = n;
    }
  }
  return best;
}

// Winners with a fixed colour first, in the spec's order; then the others by frequency.
std::vector<std::string> legend_order(const std::vector<std::string>& by_count,
                                      const HeatmapSpec& spec) {
  std::vector<std::string> out;
  for (const auto& [name, c] : spec.colours) {
    if (std::find(by_count.begin(), by_count.end(), name) != by_count.end()) out.push_back(name);
  }
  for (const auto& n : by_count) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

// True when "#rrggbb" is dark enough that a label on it should be white (relative luminance).
bool dark(const std::string& hex) {
  if (hex.size() != 7 || hex[0] != '#') return false;
  const long v = std::strtol(hex.c_str() + 1, nullptr, 16);
  const double r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < kDarkLuminance;
}

// Keeps the kPaletteSize - 1 most frequent winners; the rest become "other" (one grey colour).
std::vector<HeatPoint> fold_rare_winners(std::vector<HeatPoint> points) {
  const auto names = winners_by_count(points);
  if (names.size() <= kPaletteSize) return points;
  const std::vector<std::string> kept(names.begin(), names.begin() + (kPaletteSize - 1));
  for (auto& p : points) {
    if (std::find(kept.begin(), kept.end(), p.winner) == kept.end()) p.winner = kOther;
  }
  return points;
}

}  // namespace

Svg heatmap_svg(const std::vector<HeatPoint>& all_points, const HeatmapSpec& spec) {
  const std::vector<HeatPoint> points = fold_rare_winners(all_points);
  Svg svg(kWidth, kHeight);
  svg.title(spec.title);
  svg.text(kLeft, 28, spec.title, 18, "start", "font-weight=\"bold\"");
  svg.text(kLeft, 50, spec.subtitle, 13, "start", "fill=\"#555\"");
  if (points.empty()) {
    svg.text(kLeft + kSide / 2, kTop + kSide / 2, "no shapes", 16, "middle");
    return svg;
  }
  double m_lo = points[0].m, m_hi = m_lo, n_lo = points[0].n, n_hi = n_lo;
  for (const auto& p : points) {
    m_lo = std::min(m_lo, p.m), m_hi = std::max(m_hi, p.m);
    n_lo = std::min(n_lo, p.n), n_hi = std::max(n_hi, p.n);
  }
  const Bins bm = make_bins(m_lo, m_hi), bn = make_bins(n_lo, n_hi);
  std::vector<Cell> cells(static_cast<size_t>(bm.count * bn.count));
  for (const auto& p : points) {
    Cell& c = cells[static_cast<size_t>(bm.of(p.m) * bn.count + bn.of(p.n))];
    ++c.wins[p.winner];
    c.log_speedup += std::log(std::max(p.speedup, 1e-9));
    ++c.shapes;
  }
  const auto names = legend_order(winners_by_count(points), spec);
  auto colour = [&](const std::string& w) {
    if (w == kOther) return std::string(kOtherColour);
    for (const auto& [name, c] : spec.colours) {
      if (name == w) return c;
    }
    return palette(static_cast<size_t>(std::find(names.begin(), names.end(), w) - names.begin()));
  };
  // x: N, y: M (M grows upward), both log2.
  const Axis x{std::exp2(bn.lo_log2), std::exp2(bn.lo_log2 + double(bn.count) / bn.per_octave),
               kLeft, kLeft + kSide, true};
  const Axis y{std::exp2(bm.lo_log2), std::exp2(bm.lo_log2 + double(bm.count) / bm.per_octave),
               kTop + kSide, kTop, true};
  svg.rect(kLeft, kTop, kSide, kSide, kEmpty);
  const double cw = kSide / bn.count, ch = kSide / bm.count;
  for (int i = 0; i < bm.count; ++i) {
    for (int j = 0; j < bn.count; ++j) {
      const Cell& c = cells[static_cast<size_t>(i * bn.count + j)];
      if (!c.shapes) continue;
      const double geo = c.log_speedup / c.shapes;
      const double px = kLeft + j * cw, py = kTop + kSide - (i + 1) * ch;
      svg.rect(px, py, cw, ch, colour(mode_of(c)),
               "class=\"cell\" stroke=\"white\" stroke-width=\"1\"");
      if (std::min(cw, ch) >= kMinLabelCell) {
        const std::string fill = dark(colour(mode_of(c))) ? "white" : "#111";
        svg.text(px + cw / 2, py + ch / 2 + kLabelFont / 3, num(std::exp(geo)), kLabelFont,
                 "middle", "fill=\"" + fill + "\"");
      }
    }
  }
  const auto pow2 = [](double v) { return extent_label(v); };
  draw_x_axis(svg, x, y, pow2_ticks(x, kMaxTicks), AxisStyle{"N (log scale)", pow2, false});
  draw_y_axis(svg, x, y, pow2_ticks(y, kMaxTicks), AxisStyle{"M (log scale)", pow2, false});
  std::vector<std::string> shown, colours;  // the legend lists the winners that colour a cell
  for (const auto& n : names) {
    const bool used = std::any_of(cells.begin(), cells.end(),
                                  [&](const Cell& c) { return c.shapes && mode_of(c) == n; });
    if (!used) continue;
    shown.push_back(n);
    colours.push_back(colour(n));
  }
  svg.text(kLegendX, kTop + 4, "winner (most shapes in cell)", 13, "start", "font-weight=\"bold\"");
  draw_legend(svg, kLegendX, kTop + 14, shown, colours, false);
  const double note_y = kTop + 14 + 18.0 * static_cast<double>(shown.size()) + 24;
  svg.text(kLegendX, note_y, "label: speedup over dp, the", 12);
  svg.text(kLegendX, note_y + 16, "geomean over the cell's shapes", 12);
  svg.text(kLegendX, note_y + 32, "of dp time / winner time", 12);
  svg.text(kLegendX, note_y + 48, "(dp at the compared tile)", 12);
  return svg;
}

}  // namespace lw::plot

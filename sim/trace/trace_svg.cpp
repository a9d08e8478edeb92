// SVG Gantt writer for TraceDocs.
#include "sim/trace/trace_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace lw {

namespace {

// Layout, in SVG user units (px).
constexpr double kWidth = 1200;
constexpr double kLeft = 64;
constexpr double kRight = 24;
constexpr double kTitleHeight = 28;
constexpr double kLegendHeight = 24;
constexpr double kPanelTitleHeight = 20;
constexpr double kAxisHeight = 30;
constexpr double kPanelGap = 16;
constexpr double kPanelRowsHeight = 520;  // rows of one panel share this height
constexpr double kMinRow = 2;
constexpr double kMaxRow = 16;
constexpr int kTargetTicks = 10;
constexpr int kTargetRowLabels = 12;

struct PhaseStyle {
  const char* name;
  const char* colour;
};
constexpr PhaseStyle kStyles[] = {{"mac", "#4e79a7"},
                                  {"store", "#f28e2b"},
                                  {"wait", "#c9c3bf"},
                                  {"reduce", "#e15759"},
                                  {"epilogue", "#59a14f"}};

const char* colour_of(const std::string& phase) {
  for (const auto& s : kStyles) {
    if (phase == s.name) return s.colour;
  }
  return "#000000";
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

// 1, 2 or 5 times a power of ten, giving about kTargetTicks ticks over `span`.
double tick_step(double span) {
  if (span <= 0) return 1;
  const double raw = span / kTargetTicks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * p >= raw) return m * p;
  }
  return 10 * p;
}

double trace_end(const TraceDoc& t) {
  double end = 0;
  for (const auto& p : t.phases) end = std::max(end, p.ts + p.dur);
  return end;
}

}  // namespace

std::string gantt_svg(const std::vector<GanttPanel>& panels, const std::string& title) {
  bool same_unit = true;
  double shared_end = 0;
  for (const auto& p : panels) {
    same_unit = same_unit && p.trace->meta.time_unit == panels.front().trace->meta.time_unit;
    shared_end = std::max(shared_end, trace_end(*p.trace));
  }
  std::vector<double> row_h;
  double height = kTitleHeight + kLegendHeight;
  for (const auto& p : panels) {
    int64_t rows = 1;
    for (const auto& ph : p.trace->phases) rows = std::max(rows, ph.sm + 1);
    const double h = std::clamp(kPanelRowsHeight / static_cast<double>(rows), kMinRow, kMaxRow);
    row_h.push_back(h);
    height += kPanelTitleHeight + h * static_cast<double>(rows) + kAxisHeight + kPanelGap;
  }
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth) << "\" height=\""
    << num(height) << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << num(kLeft) << "\" y=\"18\" font-size=\"14\">" << escape(title)
    << "</text>\n";
  double x = kLeft;
  const double legend_y = kTitleHeight + 4;
  for (const auto& s : kStyles) {
    o << "<rect x=\"" << num(x) << "\" y=\"" << num(legend_y) << "\" width=\"12\" height=\"12\" "
      << "fill=\"" << s.colour << "\"/><text x=\"" << num(x + 16) << "\" y=\"" << num(legend_y + 10)
      << "\">" << s.name << "</text>\n";
    x += 90;
  }
  const double plot_w = kWidth - kLeft - kRight;
  double y = kTitleHeight + kLegendHeight;
  for (size_t i = 0; i < panels.size(); ++i) {
    const TraceDoc& t = *panels[i].trace;
    const double end = same_unit ? shared_end : trace_end(t);
    const double scale = end > 0 ? plot_w / end : 0;
    int64_t rows = 1;
    for (const auto& ph : t.phases) rows = std::max(rows, ph.sm + 1);
    const double h = row_h[i];
    o << "<text x=\"" << num(kLeft) << "\" y=\"" << num(y + 14) << "\" font-weight=\"bold\">"
      << escape(panels[i].title) << "</text>\n";
    y += kPanelTitleHeight;
    o << "<rect x=\"" << num(kLeft) << "\" y=\"" << num(y) << "\" width=\"" << num(plot_w)
      << "\" height=\"" << num(h * static_cast<double>(rows))
      << "\" fill=\"#f7f7f7\" stroke=\"#999\"/>\n";
    const int64_t label_every = std::max<int64_t>(1, rows / kTargetRowLabels);
    for (int64_t r = 0; r < rows; r += label_every) {
      o << "<text x=\"" << num(kLeft - 4) << "\" y=\"" << num(y + h * (r + 0.5) + 4)
        << "\" text-anchor=\"end\">SM " << r << "</text>\n";
    }
    for (const auto& ph : t.phases) {
      o << "<rect x=\"" << num(kLeft + ph.ts * scale) << "\" y=\"" << num(y + h * ph.sm)
        << "\" width=\"" << num(std::max(ph.dur * scale, 0.3)) << "\" height=\""
        << num(std::max(h - 0.5, 1.0)) << "\" fill=\"" << colour_of(ph.name) << "\"/>\n";
    }
    y += h * static_cast<double>(rows);
    const double step = tick_step(end);
    for (double tk = 0; tk <= end + step * 1e-9; tk += step) {
      const double tx = kLeft + tk * scale;
      o << "<line x1=\"" << num(tx) << "\" y1=\"" << num(y) << "\" x2=\"" << num(tx) << "\" y2=\""
        << num(y + 4) << "\" stroke=\"#333\"/><text x=\"" << num(tx) << "\" y=\"" << num(y + 15)
        << "\" text-anchor=\"middle\">" << num(tk) << "</text>\n";
    }
    o << "<text x=\"" << num(kLeft + plot_w) << "\" y=\"" << num(y + 27)
      << "\" text-anchor=\"end\">time (" << escape(t.meta.time_unit) << ")</text>\n";
    y += kAxisHeight + kPanelGap;
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace lw

// SVG element writers, escaping, number formats and the palette (see svg.hpp).
#include "sim/plot/svg.hpp"

#include <cmath>
#include <cstdio>

#include "sim/util/atomic_file.hpp"

namespace lw::plot {

namespace {

constexpr double kThousand = 1000.0;
constexpr double kKibi = 1024.0;

std::string coord(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= kThousand ? "%.0f" : "%.3g", v);
  return buf;
}

std::string extent_label(double v) {
  if (v >= kKibi && std::fmod(v, kKibi / 2) == 0) return num(v / kKibi) + "k";
  return num(v);
}

const std::string& palette(size_t i) {
  static const std::string colours[kPaletteSize] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                    "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                                    "#9c755f", "#bab0ac"};
  return colours[i % kPaletteSize];
}

Svg::Svg(double width, double height) : width_(width), height_(height) {}

void Svg::rect(double x, double y, double w, double h, const std::string& fill,
               const std::string& extra) {
  body_ += "<rect x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" width=\"" + coord(w) +
           "\" height=\"" + coord(h) + "\" fill=\"" + fill + "\"" +
           (extra.empty() ? "" : " " + extra) + "/>\n";
}

void Svg::line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
               const std::string& extra) {
  body_ += "<line x1=\"" + coord(x1) + "\" y1=\"" + coord(y1) + "\" x2=\"" + coord(x2) +
           "\" y2=\"" + coord(y2) + "\" stroke=\"" + stroke + "\" stroke-width=\"" + coord(width) +
           "\"" + (extra.empty() ? "" : " " + extra) + "/>\n";
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                   double width) {
  std::string pts;
  for (const auto& [x, y] : points) pts += (pts.empty() ? "" : " ") + coord(x) + "," + coord(y);
  body_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + coord(width) +
           "\" points=\"" + pts + "\"/>\n";
}

void Svg::circle(double x, double y, double r, const std::string& fill, double opacity) {
  body_ += "<circle cx=\"" + coord(x) + "\" cy=\"" + coord(y) + "\" r=\"" + coord(r) +
           "\" fill=\"" + fill + "\" fill-opacity=\"" + num(opacity) + "\"/>\n";
}

void Svg::text(double x, double y, const std::string& s, double size, const std::string& anchor,
               const std::string& extra) {
  body_ += "<text x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" font-size=\"" + coord(size) +
           "\" text-anchor=\"" + anchor + "\"" + (extra.empty() ? "" : " " + extra) + ">" +
           escape_xml(s) + "</text>\n";
}

void Svg::title(const std::string& s) { title_ = s; }

std::string Svg::str() const {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         coord(width_) + "\" height=\"" + coord(height_) + "\" viewBox=\"0 0 " + coord(width_) +
         " " + coord(height_) +
         "\" font-family=\"Helvetica, Arial, sans-serif\">\n"
         "<title>" +
         escape_xml(title_) + "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
         body_ + "</svg>\n";
}

void write_svg(const std::string& path, const Svg& svg) { write_file_atomically(path, svg.str()); }

}  // namespace lw::plot

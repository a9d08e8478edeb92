// A minimal SVG document builder for lastwave's plots: rectangles, lines, polylines, circles and
// text with escaping, plus the shared palette and number formatting. No layout knowledge.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace lw::plot {

class Svg {
 public:
  Svg(double width, double height);
  // `extra`: further attributes, written verbatim (e.g. `stroke-dasharray="4 3"`).
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& extra = "");
  void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width = 1,
            const std::string& extra = "");
  void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                double width = 1.5);
  void circle(double x, double y, double r, const std::string& fill, double opacity = 1);
  // anchor: start|middle|end; rotate: degrees about (x, y).
  void text(double x, double y, const std::string& s, double size = 12,
            const std::string& anchor = "start", const std::string& extra = "");
  void title(const std::string& s);  // document <title> (tooltips, accessibility)
  std::string str() const;

 private:
  double width_, height_;
  std::string title_;
  std::string body_;
};

std::string escape_xml(const std::string& s);

// Short decimal: 3 significant digits, no trailing zeros ("1.25", "0.5", "1400").
std::string num(double v);
// Extent label: 128, 1k, 1.5k, 16k (powers of two read better as "8k" than "8192").
std::string extent_label(double v);

// Categorical colours (Tableau 10), readable on white, distinct for colour-blind viewers in order.
const std::string& palette(size_t i);
constexpr size_t kPaletteSize = 10;

// Writes `svg` to `path` atomically (temp file + rename).
void write_svg(const std::string& path, const Svg& svg);

}  // namespace lw::plot

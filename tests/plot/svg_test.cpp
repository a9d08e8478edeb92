// sim/plot: the SVGs are well-formed XML (checked by a minimal tag parser here) and hold the
// expected number of heatmap cells, CDF series and scatter points.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/plot/cdf.hpp"
#include "sim/plot/heatmap.hpp"
#include "sim/plot/scatter.hpp"

namespace {

// True when every tag closes in order (self-closing tags allowed) and text has no raw '<' / '&'
// outside entities.
bool well_formed(const std::string& xml) {
  std::vector<std::string> open;
  size_t i = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while ((i = xml.find('<', i)) != std::string::npos) {
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return false;
    const std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return false;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    const size_t next = xml.find('<', end);
    const std::string text = xml.substr(end + 1, next - end - 1);
    for (size_t a = text.find('&'); a != std::string::npos; a = text.find('&', a + 1)) {
      if (text.find(';', a) == std::string::npos) return false;
    }
    i = end + 1;
  }
  return open.empty();
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t i = s.find(what); i != std::string::npos; i = s.find(what, i + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the checker rejects broken XML") {
  CHECK(well_formed("<svg><g><rect/></g></svg>"));
  CHECK(!well_formed("<svg><g></svg>"));
  CHECK(!well_formed("<svg><text>a & b</text></svg>"));
}

// M, N in [128, 1024): 3 octaves -> two bins per octave, bins start at 128, 181, 256, 362, 512,
// 724. Points: (128,128) and (150,170) share bin (0,0); (600,130) is (4,0); (1000,1000) is (5,5).
TEST_CASE("heatmap: one cell per non-empty (M, N) bin, escaped labels") {
  const std::vector<lw::plot::HeatPoint> pts = {{128, 128, "dp", 1.0},
                                                {150, 170, "streamk", 1.5},
                                                {600, 130, "splitk:4 <k>", 2.0},
                                                {1000, 1000, "dp", 1.0}};
  const std::string svg = lw::plot::heatmap_svg(pts, {"t & u", "sub", {}}).str();
  CHECK(well_formed(svg));
  CHECK(count(svg, "class=\"cell\"") == 3);
  CHECK(svg.find("splitk:4 &lt;k&gt;") != std::string::npos);
  CHECK(svg.find("t &amp; u") != std::string::npos);
  CHECK(svg.find(">1.22<") != std::string::npos);  // geomean of 1.0 and 1.5 = 1.2247
}

TEST_CASE("cdf: one polyline per series") {
  const std::vector<lw::plot::CdfSeries> s = {
      {"dp", {0.5, 0.8, 1.0}, ""}, {"streamk", {0.9, 1.0}, ""}, {"cutlass", {1.0}, ""}};
  const std::string svg = lw::plot::cdf_svg(s, {"t", "sub"}).str();
  CHECK(well_formed(svg));
  CHECK(count(svg, "<polyline") == 3);
  CHECK(svg.find("dp: median 0.80, 33% within 1%") != std::string::npos);
}

TEST_CASE("scatter: one circle per valid point, the y = x line") {
  const std::vector<lw::plot::ScatterPoint> pts = {
      {10, 11, "dp"}, {100, 90, "streamk"}, {0, 5, "dp"}, {1000, 1000, "dp"}};
  const std::string svg = lw::plot::scatter_svg(pts, {"t", "sub", "us"}).str();
  CHECK(well_formed(svg));
  CHECK(count(svg, "<circle") == 3);  // the zero prediction is skipped
  CHECK(svg.find("predicted = measured") != std::string::npos);
}

// Winner heatmap (paper style): shapes binned on log-spaced (M, N) cells; a cell's colour is the
// decomposition/config that wins most of its shapes, its label the geometric-mean speedup of the
// per-shape winner over the dp baseline.
#pragma once
#include <string>
#include <vector>

#include "sim/plot/svg.hpp"

namespace lw::plot {

struct HeatPoint {
  double m = 0, n = 0;
  std::string winner;  // e.g. "streamk" or "splitk:4 128x256x64"
  double speedup = 1;  // dp makespan / winner makespan
};

struct HeatmapSpec {
  std::string title;
  std::string subtitle;  // e.g. the K band and model
  // Fixed colours for known winners (same colour in every plot); others get palette colours by
  // frequency.
  std::vector<std::pair<std::string, std::string>> colours;
};

// Bins: powers of two from the smallest to the largest extent on each axis, split into two bins
// per octave when that axis spans at most kFineOctaves octaves. One <rect class="cell"> per
// non-empty bin; at most kPaletteSize winners get a colour (the rarest fold into "other").
constexpr int kFineOctaves = 8;
Svg heatmap_svg(const std::vector<HeatPoint>& points, const HeatmapSpec& spec);

}  // namespace lw::plot

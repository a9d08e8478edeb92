// Heatmap and CDF data from a CompareTable, and the --plot options (see compare_plots.hpp).
#include "cli/compare_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "sim/plot/cdf.hpp"
#include "sim/plot/heatmap.hpp"

namespace lw::cli {

namespace po = boost::program_options;

namespace {

int64_t parse_positive(const std::string& s, const std::string& text) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 1) {
    throw std::invalid_argument("bad --plot-k '" + text + "' (expected LO:HI, e.g. 2048:4096)");
  }
  return v;
}

double best_of(const CompareTable& t, size_t i) {
  return t.winner[i] >= 0 ? t.at(i, static_cast<size_t>(t.winner[i])) : NAN;
}

std::string winner_label(const CompareTable& t, size_t i, const std::string& mode) {
  const bool has_best = !t.best_choice[i].empty();
  if (mode == "tile") return t.best_tile[i];
  if (has_best && mode == "config") {
    const std::string& cluster = t.best_cluster[i];
    return t.best_choice[i] + " " + t.best_tile[i] + (cluster.empty() ? "" : " " + cluster);
  }
  if (has_best) return t.best_choice[i];
  return t.schedules[static_cast<size_t>(t.winner[i])];
}

// One colour per decomposition in every plot: dp blue, the split-K family an orange ramp by split
// count, the Stream-K family greens and purples.
const std::vector<std::pair<std::string, std::string>>& decomposition_colours() {
  static const std::vector<std::pair<std::string, std::string>> c = {
      {"dp", "#4e79a7"},       {"splitk:2", "#fdae6b"}, {"splitk:3", "#fd8d3c"},
      {"splitk:4", "#f16913"}, {"splitk:6", "#d94801"}, {"splitk:8", "#8c2d04"},
      {"streamk", "#59a14f"},  {"cutlass", "#b07aa1"},  {"two-tile", "#8cd17d"}};
  return c;
}

// The decomposition's fixed colour, or "" (the plot picks one).
std::string colour_of(const std::string& name) {
  for (const auto& [n, c] : decomposition_colours()) {
    if (n == name) return c;
  }
  return "";
}

// "; N of M shapes extrapolated" when the table carries coverage and flags some shapes.
std::string extrapolated_note(const CompareTable& t) {
  if (!t.coverage) return "";
  const auto n = std::count(t.extrapolated.begin(), t.extrapolated.end(), 1);
  if (n == 0) return "";
  return "; " + std::to_string(n) + " of " + std::to_string(t.shapes.size()) +
         " shapes extrapolated";
}

plot::Svg heatmap(const CompareTable& t, const PlotRequest& r) {
  const int dp = t.index_of("dp");
  if (dp < 0) throw std::invalid_argument("--plot-kind heatmap needs a dp column");
  if (r.winner != "decomposition" && t.index_of("best") < 0) {
    throw std::invalid_argument("--plot-winner " + r.winner + " needs best among the schedules");
  }
  std::vector<plot::HeatPoint> pts;
  for (size_t i = 0; i < t.shapes.size(); ++i) {
    const Problem& p = t.shapes[i];
    if (r.k_lo > 0 && (p.k < r.k_lo || p.k > r.k_hi)) continue;
    const double base = t.at(i, static_cast<size_t>(dp));
    if (t.winner[i] < 0 || std::isnan(base)) continue;
    pts.push_back(plot::HeatPoint{double(p.m), double(p.n), winner_label(t, i, r.winner),
                                  base / best_of(t, i)});
  }
  if (pts.empty()) throw std::invalid_argument("--plot: no shape in the --plot-k band");
  const std::string band =
      r.k_lo > 0 ? "K in [" + std::to_string(r.k_lo) + ", " + std::to_string(r.k_hi) + "]"
                 : "all K";
  plot::HeatmapSpec spec;
  spec.title = r.title.empty() ? "Winning " + r.winner + " over (M, N)" : r.title;
  spec.subtitle = (r.subtitle.empty() ? "" : r.subtitle + "; ") + band + ", " +
                  std::to_string(pts.size()) + " shapes, " + std::to_string(t.sms) + " SMs" +
                  extrapolated_note(t);
  if (r.winner == "decomposition") spec.colours = decomposition_colours();
  return plot::heatmap_svg(pts, spec);
}

plot::Svg cdf(const CompareTable& t, const PlotRequest& r) {
  std::vector<plot::CdfSeries> series;
  for (size_t j = 0; j < t.schedules.size(); ++j) {
    if (t.schedules[j] == "best") continue;
    plot::CdfSeries s{t.schedules[j], {}, colour_of(t.schedules[j])};
    for (size_t i = 0; i < t.shapes.size(); ++i) {
      const double v = t.at(i, j);
      if (!std::isnan(v) && t.winner[i] >= 0) s.values.push_back(best_of(t, i) / v);
    }
    series.push_back(std::move(s));
  }
  const std::string ref = t.index_of("best") >= 0 ? "best" : "the fastest listed";
  return plot::cdf_svg(
      series,
      plot::CdfSpec{r.title.empty() ? "Efficiency of each heuristic" : r.title,
                    (r.subtitle.empty() ? "" : r.subtitle + "; ") +
                        std::to_string(t.shapes.size()) + " shapes, " + std::to_string(t.sms) +
                        " SMs; 1 = as fast as " + ref + extrapolated_note(t)});
}

}  // namespace

void add_plot_options(po::options_description& desc) {
  desc.add_options()("plot", po::value<std::string>(), "write an SVG plot to this file")(
      "plot-kind", po::value<std::string>()->default_value("heatmap"),
      "heatmap (winner and speedup over dp across M, N) | cdf (efficiency per heuristic)")(
      "plot-winner", po::value<std::string>()->default_value("decomposition"),
      "heatmap colour: decomposition | tile | config (decomposition, tile and cluster; tile and "
      "config need best)")("plot-k", po::value<std::string>(),
                           "heatmap: only shapes with LO <= K <= HI, as LO:HI")(
      "plot-title", po::value<std::string>(), "plot title (default: generated)")(
      "plot-subtitle", po::value<std::string>(), "text leading the plot's subtitle");
}

PlotRequest plot_request_from(const po::variables_map& vm) {
  PlotRequest r;
  if (vm.count("plot")) r.path = vm["plot"].as<std::string>();
  r.kind = vm["plot-kind"].as<std::string>();
  if (r.kind != "heatmap" && r.kind != "cdf") {
    throw std::invalid_argument("unknown --plot-kind '" + r.kind + "' (expected heatmap|cdf)");
  }
  r.winner = vm["plot-winner"].as<std::string>();
  if (r.winner != "decomposition" && r.winner != "tile" && r.winner != "config") {
    throw std::invalid_argument("unknown --plot-winner '" + r.winner +
                                "' (expected decomposition|tile|config)");
  }
  if (vm.count("plot-k")) {
    const std::string text = vm["plot-k"].as<std::string>();
    const auto colon = text.find(':');
    if (colon == std::string::npos) parse_positive("", text);
    r.k_lo = parse_positive(text.substr(0, colon), text);
    r.k_hi = parse_positive(text.substr(colon + 1), text);
    if (r.k_hi < r.k_lo) parse_positive("", text);
  }
  if (vm.count("plot-title")) r.title = vm["plot-title"].as<std::string>();
  if (vm.count("plot-subtitle")) r.subtitle = vm["plot-subtitle"].as<std::string>();
  return r;
}

plot::Svg compare_plot(const CompareTable& t, const PlotRequest& r) {
  return r.kind == "cdf" ? cdf(t, r) : heatmap(t, r);
}

}  // namespace lw::cli

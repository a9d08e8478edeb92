// The plots of a compare run (`compare --plot`, `lastwave plot`): the winner heatmap over (M, N)
// and the efficiency CDF per heuristic, built from a CompareTable.
#pragma once
#include <boost/program_options.hpp>
#include <string>

#include "cli/compare_table.hpp"
#include "sim/plot/svg.hpp"

namespace lw::cli {

struct PlotRequest {
  std::string path;                      // FILE.svg ("" = no plot)
  std::string kind = "heatmap";          // heatmap|cdf
  std::string winner = "decomposition";  // heatmap colour: decomposition|tile|config
  int64_t k_lo = 0, k_hi = 0;            // heatmap: shapes with k_lo <= K <= k_hi (0 = all)
  std::string title, subtitle;           // "" = generated
};

// --plot FILE.svg, --plot-kind, --plot-winner, --plot-k LO:HI, --plot-title, --plot-subtitle.
void add_plot_options(boost::program_options::options_description& desc);
// Validates the options (one-line errors); `path` is empty when --plot was not given.
PlotRequest plot_request_from(const boost::program_options::variables_map& vm);

// The requested plot of `t`. Throws std::invalid_argument when the table cannot give it (no dp
// column, --plot-winner tile without `best`, no shape in the K band).
plot::Svg compare_plot(const CompareTable& t, const PlotRequest& r);

}  // namespace lw::cli

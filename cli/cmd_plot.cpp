// `lastwave plot`: renders compare's plots from a compare CSV (`compare --format csv`), so
// committed results re-render without simulating (tools/plots.sh).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/compare_plots.hpp"
#include "cli/compare_table.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

int cmd_plot(int argc, char** argv) {
  po::options_description desc("lastwave plot");
  desc.add_options()("help,h", "show this help")("from", po::value<std::string>()->required(),
                                                 "compare CSV (lastwave compare --format csv)");
  add_plot_options(desc);
  po::variables_map vm;
  if (!parse_or_help(
          argc, argv, desc, vm,
          "lastwave plot --from COMPARE.csv --plot FILE.svg [--plot-kind heatmap|cdf]")) {
    return 0;
  }
  const PlotRequest r = plot_request_from(vm);
  if (r.path.empty()) throw std::invalid_argument("give --plot FILE.svg");
  const std::string from = vm["from"].as<std::string>();
  const CompareTable t = parse_compare_csv(read_file(user_path(from)), from);
  plot::write_svg(user_path(r.path), compare_plot(t, r));
  return 0;
}

}  // namespace lw::cli

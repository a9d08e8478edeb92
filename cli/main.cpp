// `lastwave`: predict GEMM makespans per decomposition, show plans, compare heuristics, calibrate.
// Dispatches to one subcommand; every error is one line on stderr and a non-zero exit.
#include <boost/program_options/errors.hpp>
#include <cstring>
#include <iostream>

#include "cli/commands.hpp"

namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(int, char**);
};

const Subcommand kSubcommands[] = {
    {"demo", "the seed's four worked examples under the unit model (default)", lw::cli::cmd_demo},
    {"waves", "wave-quantization table of data-parallel tilings", lw::cli::cmd_waves},
    {"predict", "makespan per schedule for shapes on an SM count", lw::cli::cmd_predict},
    {"plan", "a schedule's plan, CTA by CTA, segment by segment", lw::cli::cmd_plan},
    {"compare", "per-shape winner and summary over a shape corpus", lw::cli::cmd_compare},
    {"models", "list cost models and their parameters", lw::cli::cmd_models},
    {"calibrate", "fit a cost model to measured kernel runs", lw::cli::cmd_calibrate},
    {"trace", "merge simulated and measured timelines; draw a Gantt SVG", lw::cli::cmd_trace},
    {"plot", "render compare's heatmap or CDF SVG from a compare CSV", lw::cli::cmd_plot},
};

void usage(std::ostream& out) {
  out << "usage: lastwave [SUBCOMMAND] [--help]\n\nsubcommands:\n";
  for (const auto& s : kSubcommands)
    out << "  " << s.name << std::string(12 - std::strlen(s.name), ' ') << s.summary << "\n";
  out << "\nWith no subcommand, runs `demo`.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    usage(std::cout);
    return 0;
  }
  const char* name = argc >= 2 ? argv[1] : "demo";
  for (const auto& s : kSubcommands) {
    if (std::strcmp(s.name, name) != 0) continue;
    try {
      return s.run(argc >= 2 ? argc - 1 : 1, argc >= 2 ? argv + 1 : argv);
    } catch (const boost::program_options::error& e) {
      std::cerr << "lastwave " << s.name << ": error: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "lastwave " << s.name << ": error: " << e.what() << "\n";
      return 2;
    }
  }
  std::cerr << "lastwave: error: unknown subcommand '" << name << "' (try lastwave --help)\n";
  return 2;
}

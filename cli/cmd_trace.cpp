// `lastwave trace`: puts a measured and a simulated timeline side by side in one Chrome-trace file
// (pid 0 hw, pid 1 sim, one track per SM) and optionally draws them as a Gantt SVG.
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "sim/trace/trace_merge.hpp"
#include "sim/trace/trace_svg.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

int cmd_trace(int argc, char** argv) {
  po::options_description desc("lastwave trace");
  desc.add_options()("help,h", "show this help")("sim", po::value<std::string>()->required(),
                                                 "simulated trace (lastwave predict --trace)")(
      "hw", po::value<std::string>()->required(), "measured trace (lastwave-bench --trace)")(
      "out", po::value<std::string>()->required(), "merged Chrome-trace JSON to write")(
      "svg", po::value<std::string>(), "also draw a Gantt chart of both to this SVG file");
  po::variables_map vm;
  if (!parse_or_help(
          argc, argv, desc, vm,
          "lastwave trace --sim sim.json --hw hw.json --out both.json [--svg both.svg]")) {
    return 0;
  }
  const std::string sim_path = user_path(vm["sim"].as<std::string>());
  const std::string hw_path = user_path(vm["hw"].as<std::string>());
  const LoadedTrace hw = load_trace(read_file(hw_path), hw_path, "hw");
  const LoadedTrace sim = load_trace(read_file(sim_path), sim_path, "sim");
  const std::string merged = merge_traces(hw, sim).dump() + "\n";
  std::string svg;
  if (vm.count("svg")) {
    const TraceMeta& m = hw.doc.meta;
    const std::string title = m.schedule + " " + std::to_string(m.problem.m) + "x" +
                              std::to_string(m.problem.n) + "x" + std::to_string(m.problem.k) +
                              " on " + std::to_string(m.sms) + " SMs: measured vs simulated";
    svg = gantt_svg(
        {{"measured (hw)", &hw.doc}, {"simulated (" + sim.doc.meta.schedule + ")", &sim.doc}},
        title);
  }
  write_file_atomically(user_path(vm["out"].as<std::string>()), merged);
  if (vm.count("svg")) write_file_atomically(user_path(vm["svg"].as<std::string>()), svg);
  return 0;
}

}  // namespace lw::cli

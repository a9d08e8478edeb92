// `lastwave waves`: the seed's wave-quantization table (wave_quant.py) for shapes and GPUs.
#include <cstdio>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/common.hpp"

namespace lw::cli {

namespace {

// The seed's table: these shapes and GPUs when none are given.
const std::vector<std::pair<int64_t, int64_t>> kSeedShapes = {
    {2048, 2048}, {1536, 1536}, {4096, 4096}, {128, 4096}, {3840, 3840}};
constexpr const char* kSeedGpus = "a100,h100-sxm,b200";

}  // namespace

int cmd_waves(int argc, char** argv) {
  po::options_description desc("lastwave waves");
  desc.add_options()("help,h", "show this help")(
      "gpu", po::value<std::string>()->default_value(kSeedGpus), "comma-separated GPU presets")(
      "m", po::value<int64_t>(), "rows of C (with --n; default: the seed's five shapes)")(
      "n", po::value<int64_t>(), "columns of C")(
      "tile", po::value<std::string>()->default_value("128x128x64"), "CTA tile MxNxK")(
      "out", po::value<std::string>(), "write to this file");
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm, "lastwave waves --gpu a100,h100-sxm,b200 --m M --n N")) {
    return 0;
  }
  std::vector<std::pair<int64_t, int64_t>> shapes = kSeedShapes;
  if (vm.count("m") || vm.count("n")) {
    if (!vm.count("m") || !vm.count("n")) throw std::invalid_argument("give both --m and --n");
    shapes = {{vm["m"].as<int64_t>(), vm["n"].as<int64_t>()}};
  }
  const TileShape tile = parse_tile(vm["tile"].as<std::string>());
  std::vector<GpuSpec> gpus;
  for (const auto& name : split_commas(vm["gpu"].as<std::string>(), "GPU name"))
    gpus.push_back(gpu_preset(name));
  std::ostringstream o;
  char line[200];
  o << "tile " << tile.m << "x" << tile.n << "; utilization = tiles / (waves * SMs)\n\n";
  std::snprintf(line, sizeof line, "%12s %20s %6s %6s %10s %6s\n", "M x N", "GPU", "tiles", "waves",
                "last wave", "util");
  o << line;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto [m, n] = shapes[i];
    for (const auto& g : gpus) {
      const Plan p = plan_geometry(Problem{m, n, 1}, tile, GpuShape{g.sms, 1});
      const int64_t waves = ceil_div(p.tiles, g.sms);
      const int64_t tail = p.tiles - (waves - 1) * g.sms;
      const double util = static_cast<double>(p.tiles) / static_cast<double>(waves * g.sms);
      const std::string mn = std::to_string(m) + "x" + std::to_string(n);
      const std::string label = g.label + " (" + std::to_string(g.sms) + " SMs)";
      const std::string last = std::to_string(tail) + "/" + std::to_string(g.sms);
      std::snprintf(line, sizeof line, "%12s %20s %6ld %6ld %10s %5.1f%%\n", mn.c_str(),
                    label.c_str(), static_cast<long>(p.tiles), static_cast<long>(waves),
                    last.c_str(), 100.0 * util);
      o << line;
    }
    if (i + 1 < shapes.size()) o << "\n";
  }
  emit(vm, o.str());
  return 0;
}

}  // namespace lw::cli

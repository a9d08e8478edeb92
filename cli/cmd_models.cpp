// `lastwave models`: the registered cost models and their declared parameters (name, unit,
// default, range, doc); with --gpu, each parameter's physical ceiling there; with --check FILE, a
// fitted model file's parameters above their ceilings.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

namespace {

void list_models(const GpuSpec* gpu) {
  for (const auto& info : model_registry()) {
    std::cout << info.name << ": " << info.description << "\n";
    for (const auto& p : info.params) {
      char cols[128];
      std::snprintf(cols, sizeof cols, "  %-28s %-9s default %-8g range %-12s ", p.name.c_str(),
                    p.unit.c_str(), p.default_value, p.range.text().c_str());
      std::cout << cols << p.doc;
      if (gpu != nullptr && std::isfinite(physical_upper(p, *gpu))) {
        std::cout << " [at most " << physical_upper(p, *gpu) << " on " << gpu->name << ": "
                  << p.limit.basis << "]";
      }
      std::cout << "\n";
    }
    std::cout << "\n";
  }
}

// Exit 0 either way: a parameter above its ceiling is a finding about the model, not an error.
void check_file(const std::string& path, const GpuSpec& gpu) {
  const ModelFile f = read_model_file(path);
  ParamValues fitted = f.params;  // a term held off sits at its off value (a pipe's: no cost)
  for (const auto& name : f.off) fitted.erase(name);
  const auto beyond = beyond_physical_limits(find_model(f.model), fitted, gpu);
  if (beyond.empty()) {
    std::cout << path << ": every parameter within its physical limit on " << gpu.name << "\n";
    return;
  }
  std::cout << path << ": " << beyond.size() << " parameter(s) above their physical limit on "
            << gpu.name << " (the physics misses something they absorb):\n";
  for (const auto& line : beyond) std::cout << "  " << line << "\n";
}

}  // namespace

int cmd_models(int argc, char** argv) {
  po::options_description desc("lastwave models");
  desc.add_options()("help,h", "show this help")(
      "gpu", po::value<std::string>(),
      "GPU preset from configs/gpus: also list each parameter's physical ceiling there")(
      "check", po::value<std::string>(),
      "a fitted model file (configs/models/*.json): list its parameters above their physical "
      "ceilings on --gpu (default: the GPU it was measured on)");
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm, "lastwave models [--gpu NAME] [--check FILE.json]")) {
    return 0;
  }
  if (vm.count("check")) {
    const std::string path = user_path(vm["check"].as<std::string>());
    const std::string gpu =
        vm.count("gpu") ? vm["gpu"].as<std::string>() : read_model_file(path).gpu;
    if (gpu.empty()) {
      throw std::invalid_argument("--check: " + path + " names no GPU: give --gpu NAME");
    }
    check_file(path, gpu_preset(gpu));
    return 0;
  }
  if (vm.count("gpu")) {
    const GpuSpec gpu = gpu_preset(vm["gpu"].as<std::string>());
    list_models(&gpu);
  } else {
    list_models(nullptr);
  }
  return 0;
}

}  // namespace lw::cli

// Shared option handling for the lastwave subcommands.
#include "sim/cli/common.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/shapes_csv.hpp"

namespace lw::cli {

bool parse_or_help(int argc, char** argv, const po::options_description& desc,
                   po::variables_map& vm, const char* usage) {
  po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage << "\n\n" << desc << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

void add_gpu_options(po::options_description& desc) {
  desc.add_options()("gpu", po::value<std::string>(),
                     "GPU preset from configs/gpus (a100, h100-sxm, h100-pcie, h200, h20, b200, "
                     "l40s)")("sms", po::value<int64_t>(),
                              "SM count: a partition of --gpu, or alone: of the GPU a fitted "
                              "--model file was measured on, else an N-SM chip");
}

GpuSpec gpu_from(const po::variables_map& vm) {
  if (!vm.count("gpu") && !vm.count("sms"))
    throw std::invalid_argument("give --gpu NAME or --sms N");
  if (vm.count("gpu")) {
    const GpuSpec preset = gpu_preset(vm["gpu"].as<std::string>());
    if (!vm.count("sms")) return preset;
    const int64_t sms = vm["sms"].as<int64_t>();
    if (sms > preset.sms) {
      throw std::invalid_argument("--sms " + std::to_string(sms) + " exceeds the " +
                                  std::to_string(preset.sms) + " SMs of " + preset.name);
    }
    return gpu_with_sms(sms, &preset);
  }
  const int64_t sms = vm["sms"].as<int64_t>();
  const ModelFile* file = vm.count("model") ? fitted_model_file(vm) : nullptr;
  if (file != nullptr && !file->gpu.empty()) {
    const auto names = gpu_preset_names();
    if (std::find(names.begin(), names.end(), file->gpu) != names.end()) {
      const GpuSpec preset = gpu_preset(file->gpu);
      if (sms <= preset.sms) return gpu_with_sms(sms, &preset);
    }
  }
  return gpu_with_sms(sms, nullptr);
}

void add_shape_options(po::options_description& desc, bool allow_file) {
  desc.add_options()("m", po::value<int64_t>(), "rows of A and C")(
      "n", po::value<int64_t>(), "columns of B and C")("k", po::value<int64_t>(),
                                                       "inner dimension");
  if (allow_file) {
    desc.add_options()("shapes", po::value<std::string>(), "CSV file with header m,n,k");
  }
}

std::vector<Problem> shapes_from(const po::variables_map& vm) {
  const bool flags = vm.count("m") || vm.count("n") || vm.count("k");
  if (vm.count("shapes")) {
    if (flags) throw std::invalid_argument("give either --m/--n/--k or --shapes, not both");
    return read_shapes_csv(user_path(vm["shapes"].as<std::string>()));
  }
  if (!vm.count("m") || !vm.count("n") || !vm.count("k")) {
    throw std::invalid_argument("give --m, --n and --k (or --shapes FILE.csv)");
  }
  const Problem p{vm["m"].as<int64_t>(), vm["n"].as<int64_t>(), vm["k"].as<int64_t>()};
  plan_geometry(p, TileShape{}, GpuShape{1, 1});  // validates dims and overflow
  return {p};
}

std::vector<std::string> split_commas(const std::string& s, const std::string& what) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) throw std::invalid_argument("empty " + what + " in '" + s + "'");
    out.push_back(item);
  }
  if (out.empty()) throw std::invalid_argument("no " + what + " in '" + s + "'");
  return out;
}

TileShape parse_tile(const std::string& text) {
  try {
    if (std::count(text.begin(), text.end(), 'x') != 2) throw std::invalid_argument("not MxNxK");
    return parse_tile_text(text);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("bad --tile '" + text + "' (expected MxNxK)");
  }
}

void add_plan_options(po::options_description& desc) {
  desc.add_options()(
      "tile", po::value<std::string>(),
      "CTA tile MxNxK (default 128x128x64); with --schedule best, a comma list of "
      "kernel tiles to search (default: every tile of sim/decomp/kernel_configs.hpp)")(
      "cluster", po::value<std::string>(),
      "CTA cluster MxN (default 1x1); with --schedule best, a comma list of kernel clusters to "
      "search (default: those the cost model has parameters for)")(
      "reduction", po::value<std::string>()->default_value("deterministic"),
      "deterministic|atomic");
}

TileShape tile_from(const po::variables_map& vm) {
  return vm.count("tile") ? parse_tile(vm["tile"].as<std::string>()) : kDefaultTile;
}

Reduction reduction_from(const po::variables_map& vm) {
  return parse_reduction(vm["reduction"].as<std::string>());
}

namespace {

void check_model_config(const CostModel& model, const TileShape& t, const ClusterShape& c) {
  const std::string err = model.config_error(t, c);
  if (!err.empty()) {
    throw std::invalid_argument("tile " + tile_text(t) + " cluster " + cluster_text(c) + ": " +
                                err);
  }
}

// --tile / --cluster for the schedules other than best: one value each (any tile; a kernel
// cluster).
void single_config(const po::variables_map& vm, PredictSetup& setup) {
  for (const char* opt : {"tile", "cluster"}) {
    if (vm.count(opt) && vm[opt].as<std::string>().find(',') != std::string::npos) {
      throw std::invalid_argument(std::string("--") + opt + " '" + vm[opt].as<std::string>() +
                                  "' lists several; only --schedule best searches a list");
    }
  }
  setup.tile = tile_from(vm);
  if (vm.count("cluster"))
    setup.cluster = parse_kernel_clusters(vm["cluster"].as<std::string>())[0];
  check_model_config(*setup.model, setup.tile, setup.cluster);
}

}  // namespace

PredictSetup predict_setup_from(const po::variables_map& vm, const GpuSpec& gpu,
                                const CostModel& model, const std::vector<Problem>& shapes,
                                const std::vector<std::string>& schedules) {
  PredictSetup setup;
  setup.gpu = GpuShape{gpu.sms, gpu.ctas_per_sm};
  setup.reduction = reduction_from(vm);
  setup.model = &model;
  const bool has_best = std::find(schedules.begin(), schedules.end(), "best") != schedules.end();
  const bool has_other = std::any_of(schedules.begin(), schedules.end(),
                                     [](const std::string& s) { return s != "best"; });
  if (has_other) {
    single_config(vm, setup);
    for (const auto& s : shapes) {
      plan_schedule("dp", s, setup.tile, setup.gpu, setup.reduction, setup.cluster);
    }
  }
  if (has_best) {
    setup.best_tiles =
        vm.count("tile") ? parse_kernel_tiles(vm["tile"].as<std::string>()) : model_tiles(model);
    setup.best_clusters = vm.count("cluster")
                              ? parse_kernel_clusters(vm["cluster"].as<std::string>())
                              : model_clusters(model);
    for (const auto& t : setup.best_tiles) {
      for (const auto& c : setup.best_clusters) check_model_config(model, t, c);
      for (const auto& s : shapes) plan_geometry(s, t, setup.gpu);
    }
  }
  return setup;
}

void add_model_options(po::options_description& desc) {
  desc.add_options()("model", po::value<std::string>()->default_value("unit"),
                     "cost model name (see `lastwave models`) or a fitted model file *.json")(
      "param", po::value<std::string>()->default_value(""),
      "model parameter overrides, name=value[,name=value...]");
}

const ModelFile* fitted_model_file(const po::variables_map& vm) {
  static std::map<std::string, ModelFile> read;  // a CLI process reads one --model
  const std::string name = vm["model"].as<std::string>();
  const std::string suffix = ".json";
  if (name.size() <= suffix.size() ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return nullptr;
  }
  auto it = read.find(name);
  if (it == read.end()) it = read.emplace(name, read_model_file(user_path(name))).first;
  return &it->second;
}

std::unique_ptr<CostModel> model_from(const po::variables_map& vm, const GpuSpec& gpu) {
  const ParamValues overrides = parse_param_overrides(vm["param"].as<std::string>());
  if (const ModelFile* file = fitted_model_file(vm)) {
    return make_model_from_file(*file, overrides, gpu);
  }
  return make_model(vm["model"].as<std::string>(), overrides, gpu);
}

std::string format_from(const po::variables_map& vm, const std::vector<std::string>& allowed) {
  const std::string f = vm["format"].as<std::string>();
  for (const auto& a : allowed) {
    if (a == f) return f;
  }
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  throw std::invalid_argument("unknown --format '" + f + "' (expected " + list + ")");
}

void emit(const po::variables_map& vm, const std::string& text) {
  if (vm.count("out")) {
    write_file_atomically(user_path(vm["out"].as<std::string>()), text);
  } else {
    std::cout << text;
  }
}

}  // namespace lw::cli

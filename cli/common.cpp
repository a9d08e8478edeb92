// Shared option handling for the lastwave subcommands.
#include "cli/common.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
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
  std::optional<std::string> name;
  std::optional<int64_t> sms;
  if (vm.count("gpu")) name = vm["gpu"].as<std::string>();
  if (vm.count("sms")) sms = vm["sms"].as<int64_t>();
  const ModelFile* file = !name && sms && vm.count("model") ? fitted_model_file(vm) : nullptr;
  return resolve_gpu(name, sms, file);
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

std::optional<std::string> text_option(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<std::string>();
}

}  // namespace

PredictSetup predict_setup_from(const po::variables_map& vm, const GpuSpec& gpu,
                                const CostModel& model, const std::vector<std::string>& schedules) {
  return make_predict_setup(text_option(vm, "tile"), text_option(vm, "cluster"), reduction_from(vm),
                            gpu, model, schedules);
}

void add_model_options(po::options_description& desc) {
  desc.add_options()("model", po::value<std::string>()->default_value("unit"),
                     "cost model name (see `lastwave models`) or a fitted model file *.json")(
      "param", po::value<std::string>()->default_value(""),
      "model parameter overrides, name=value[,name=value...]");
}

namespace {

// The fitted model file --model names, read once per process (null for a built-in model).
std::shared_ptr<const ModelFile> model_file_of(const po::variables_map& vm) {
  static std::map<std::string, std::shared_ptr<const ModelFile>> read;  // one --model per run
  const std::string name = vm["model"].as<std::string>();
  if (!is_model_file_name(name)) return nullptr;
  auto it = read.find(name);
  if (it == read.end()) {
    it = read.emplace(name, std::make_shared<ModelFile>(read_model_file(user_path(name)))).first;
  }
  return it->second;
}

}  // namespace

const ModelFile* fitted_model_file(const po::variables_map& vm) { return model_file_of(vm).get(); }

ModelSource model_source_from(const po::variables_map& vm) {
  return ModelSource{vm["model"].as<std::string>(), model_file_of(vm),
                     parse_param_overrides(vm["param"].as<std::string>())};
}

std::unique_ptr<CostModel> model_from(const po::variables_map& vm, const GpuSpec& gpu) {
  return build_model(model_source_from(vm), gpu);
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

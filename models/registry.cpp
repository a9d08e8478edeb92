// Registry table and parameter resolution shared by every cost model.
#include "models/registry.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "models/calibrated/calibrated_model.hpp"
#include "models/roofline/roofline_model.hpp"
#include "models/unit/unit_model.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw {

const std::vector<ModelInfo>& model_registry() {
  static const std::vector<ModelInfo> registry = {
      unit_model_info(),
      roofline_model_info(),
      calibrated_model_info(),
  };
  return registry;
}

const ModelInfo& find_model(const std::string& name) {
  for (const auto& info : model_registry()) {
    if (info.name == name) return info;
  }
  std::string known;
  for (const auto& info : model_registry()) known += (known.empty() ? "" : ", ") + info.name;
  throw std::invalid_argument("unknown cost model '" + name + "' (known: " + known + ")");
}

namespace {

// A parameter a model no longer has; model files written before may still carry it.
struct RetiredParam {
  const char* model;
  const char* name;
  const char* why;
};
constexpr RetiredParam kRetiredParams[] = {
    {"calibrated", "iter_unaligned_us",
     "it priced the element-wise reads of the 128x128 1x1 config at K % 8 != 0, which now stages "
     "such operands like every other config (plan_stages_operands)"},
};

const RetiredParam* find_retired(const std::string& model, const std::string& name) {
  for (const RetiredParam& r : kRetiredParams)
    if (model == r.model && name == r.name) return &r;
  return nullptr;
}

// Drops the retired parameters of `f`'s model from its values and lists.
void drop_retired(ModelFile& f) {
  for (const RetiredParam& r : kRetiredParams) {
    if (f.model != r.model) continue;
    f.params.erase(r.name);
    for (auto* list : {&f.undetermined, &f.off})
      list->erase(std::remove(list->begin(), list->end(), r.name), list->end());
  }
}

}  // namespace

const ParamSpec& find_param(const ModelInfo& info, const std::string& name,
                            const std::string& where) {
  const auto spec = std::find_if(info.params.begin(), info.params.end(),
                                 [&](const ParamSpec& p) { return p.name == name; });
  if (spec != info.params.end()) return *spec;
  if (const RetiredParam* r = find_retired(info.name, name)) {
    throw std::invalid_argument(where + ": model '" + info.name + "' no longer has parameter '" +
                                name + "': " + r->why);
  }
  throw std::invalid_argument(where + ": model '" + info.name + "' has no parameter '" + name +
                              "'");
}

void check_params(const ModelInfo& info, const ParamValues& values, const std::string& where) {
  for (const auto& [name, value] : values) {
    const ParamSpec& spec = find_param(info, name, where);
    check_in_range(value, spec.range, where, name, spec.unit);
  }
}

double physical_upper(const ParamSpec& p, const GpuSpec& gpu) {
  const double upper = p.limit.upper != nullptr ? p.limit.upper(gpu) : 0.0;
  return upper > 0 ? upper : std::numeric_limits<double>::infinity();
}

std::vector<std::string> beyond_physical_limits(const ModelInfo& info, const ParamValues& values,
                                                const GpuSpec& gpu) {
  std::vector<std::string> lines;
  for (const auto& p : info.params) {
    const auto v = values.find(p.name);
    const double upper = physical_upper(p, gpu);
    if (v == values.end() || !(v->second > upper)) continue;
    char text[160];
    std::snprintf(text, sizeof text, "%s %.4g %s is above %.4g on %s: ", p.name.c_str(), v->second,
                  p.unit.c_str(), upper, gpu.name.c_str());
    lines.push_back(text + std::string(p.limit.basis));
  }
  return lines;
}

ParamValues resolve_params(const ModelInfo& info, const ParamValues& overrides,
                           const std::string& where) {
  check_params(info, overrides, where);
  ParamValues values;
  for (const auto& p : info.params) values[p.name] = p.default_value;
  for (const auto& [name, value] : overrides) values[name] = value;
  return values;
}

ParamValues parse_param_overrides(const std::string& text) {
  ParamValues out;
  std::string::size_type start = 0;
  while (start < text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument("bad model parameter '" + item + "' (expected name=value)");
    }
    const std::string value = item.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') {
      throw std::invalid_argument("bad value in model parameter '" + item +
                                  "' (expected a number)");
    }
    out[item.substr(0, eq)] = v;
    start = comma + 1;
  }
  return out;
}

std::unique_ptr<CostModel> make_model(const std::string& name, const ParamValues& overrides,
                                      const GpuSpec& gpu) {
  const ModelInfo& info = find_model(name);
  return info.make(resolve_params(info, overrides), gpu, FitScope{});
}

namespace {

// The kernel tiles before the narrow 64x32, 64x64 and 128x64 (issue 29): every calibrated model
// file written before calibrate recorded its "tiles" was fitted on campaigns of these at most, and
// `best` searched exactly these under it.
constexpr TileShape kTilesBeforeNarrow[] = {
    {64, 128, 64},  {64, 256, 64},  {128, 96, 64},  {128, 112, 64}, {128, 120, 64},
    {128, 128, 64}, {128, 144, 64}, {128, 160, 64}, {128, 176, 64}, {128, 192, 64},
    {128, 208, 64}, {128, 224, 64}, {128, 256, 64}, {256, 128, 64},
};

// A model file's list `key` ("tiles", "clusters"): a non-empty array of names (`form`), each one
// `parse` accepts (a configuration the kernels have).
template <class Parse>
auto read_config_list(const nlohmann::json& list, const std::string& where, const std::string& key,
                      const std::string& form, Parse parse) {
  if (!list.is_array() || list.empty()) {
    throw std::invalid_argument(where + ": \"" + key + "\" must be a non-empty array of \"" + form +
                                "\"");
  }
  decltype(parse(std::string())) out;
  for (const auto& name : list) {
    if (!name.is_string()) throw std::invalid_argument(where + ": bad \"" + key + "\" entry");
    try {
      for (const auto& c : parse(name.get<std::string>())) out.push_back(c);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": \"" + key + "\": " + e.what());
    }
  }
  return out;
}

}  // namespace

ModelFile read_model_file(const std::string& path) {
  const std::string where = "model file '" + path + "'";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(where + ": not valid JSON");
  }
  if (!j.contains("model") || !j["model"].is_string() || !j.contains("params") ||
      !j["params"].is_object()) {
    throw std::invalid_argument(where + ": needs \"model\" and \"params\"");
  }
  ModelFile f;
  f.model = j["model"].get<std::string>();
  for (const auto& [name, value] : j["params"].items()) {
    if (!value.is_number()) {
      throw std::invalid_argument(where + ": parameter '" + name + "' is not a number");
    }
    f.params[name] = value.get<double>();
  }
  for (const auto& [key, list] :
       {std::pair<const char*, std::vector<std::string>*>{"undetermined", &f.undetermined},
        {"off", &f.off}}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_array()) throw std::invalid_argument(where + ": \"" + key + "\" is not a list");
    for (const auto& name : j[key]) {
      if (!name.is_string()) {
        throw std::invalid_argument(where + ": bad \"" + std::string(key) + "\" entry");
      }
      list->push_back(name.get<std::string>());
    }
  }
  if (j.contains("tile")) {
    if (!j["tile"].is_string()) throw std::invalid_argument(where + ": \"tile\" is not a string");
    f.tile = parse_tile_text(j["tile"].get<std::string>());
    f.has_tile = true;
  }
  if (j.contains("clusters")) {
    f.clusters = read_config_list(j["clusters"], where, "clusters", "MxN", parse_kernel_clusters);
  }
  if (j.contains("tiles")) {
    f.tiles = read_config_list(j["tiles"], where, "tiles", "MxNxK", parse_kernel_tiles);
  } else if (f.model == "calibrated") {
    f.tiles.assign(std::begin(kTilesBeforeNarrow), std::end(kTilesBeforeNarrow));
  }
  if (j.contains("residual_trees")) {
    f.residual =
        std::make_shared<const ResidualTrees>(ResidualTrees::from_json(j["residual_trees"], where));
  }
  if (j.contains("gpu")) {
    if (!j["gpu"].is_string()) throw std::invalid_argument(where + ": \"gpu\" is not a string");
    f.gpu = j["gpu"].get<std::string>();
  }
  if (j.contains("training_range")) {
    f.training_range = TrainingRange::from_json(j["training_range"], where);
  }
  if (j.contains("coverage")) {
    f.coverage = std::make_shared<const Coverage>(Coverage::from_json(j["coverage"], where));
  }
  // Files written before a parameter was retired still load (its value and list entries dropped).
  drop_retired(f);
  // The file's own values are blamed on the file; the model's declared ranges apply to them.
  check_params(find_model(f.model), f.params, where);
  return f;
}

std::unique_ptr<CostModel> make_model_from_file(const std::string& path,
                                                const ParamValues& overrides, const GpuSpec& gpu) {
  return make_model_from_file(read_model_file(path), overrides, gpu);
}

std::unique_ptr<CostModel> make_model_from_file(ModelFile f, const ParamValues& overrides,
                                                const GpuSpec& gpu) {
  const ModelInfo& info = find_model(f.model);
  for (const auto& [name, value] : overrides) f.params[name] = value;
  FitScope scope;
  if (f.has_tile) scope.tile = f.tile;
  scope.clusters = f.clusters;
  scope.tiles = f.tiles;
  auto model = info.make(resolve_params(info, f.params), gpu, scope);
  if (f.residual) model->set_residual_trees(f.residual);
  return model;
}

}  // namespace lw

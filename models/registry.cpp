// Registry table and parameter resolution shared by every cost model.
#include "models/registry.hpp"

#include <cerrno>
#include <cstdlib>
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

ParamValues resolve_params(const ModelInfo& info, const ParamValues& overrides) {
  ParamValues values;
  for (const auto& p : info.params) values[p.name] = p.default_value;
  for (const auto& [name, value] : overrides) {
    if (values.count(name) == 0) {
      throw std::invalid_argument("model '" + info.name + "' has no parameter '" + name + "'");
    }
    values[name] = value;
  }
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
    errno = 0;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno != 0 || !(v >= 0) || v > 1e300) {
      throw std::invalid_argument("bad value in model parameter '" + item +
                                  "' (expected a finite number >= 0)");
    }
    out[item.substr(0, eq)] = v;
    start = comma + 1;
  }
  return out;
}

std::unique_ptr<CostModel> make_model(const std::string& name, const ParamValues& overrides,
                                      const GpuSpec& gpu) {
  const ModelInfo& info = find_model(name);
  return info.make(resolve_params(info, overrides), gpu);
}

std::unique_ptr<CostModel> make_model_from_file(const std::string& path,
                                                const ParamValues& overrides, const GpuSpec& gpu) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("model file '" + path + "': not valid JSON");
  }
  if (!j.contains("model") || !j["model"].is_string() || !j.contains("params") ||
      !j["params"].is_object()) {
    throw std::invalid_argument("model file '" + path + "': needs \"model\" and \"params\"");
  }
  ParamValues values;
  for (const auto& [name, value] : j["params"].items()) {
    if (!value.is_number()) {
      throw std::invalid_argument("model file '" + path + "': parameter '" + name +
                                  "' is not a number");
    }
    values[name] = value.get<double>();
  }
  for (const auto& [name, value] : overrides) values[name] = value;
  auto model = make_model(j["model"].get<std::string>(), values, gpu);
  if (j.contains("tile")) {
    if (!j["tile"].is_string()) {
      throw std::invalid_argument("model file '" + path + "': \"tile\" is not a string");
    }
    model->set_fitted_tile(parse_tile_text(j["tile"].get<std::string>()));
  }
  return model;
}

}  // namespace lw

// The explicit model registry: each cost model's name, one-line description, declared parameters
// (name, unit, default, doc) and factory. Unknown models or parameters are errors.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/gpu/gpu_spec.hpp"

namespace lw {

struct ParamSpec {
  std::string name;
  std::string unit;
  double default_value = 0;
  std::string doc;
};

using ParamValues = std::map<std::string, double>;

struct ModelInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // Builds the model from fully resolved parameters (every declared name present).
  std::unique_ptr<CostModel> (*make)(const ParamValues& params, const GpuSpec& gpu);
};

const std::vector<ModelInfo>& model_registry();
const ModelInfo& find_model(const std::string& name);  // throws std::invalid_argument

// Defaults overlaid with `overrides`; throws std::invalid_argument on an unknown parameter name.
ParamValues resolve_params(const ModelInfo& info, const ParamValues& overrides);

// Parses "name=value,name=value" into overrides; throws on malformed text.
ParamValues parse_param_overrides(const std::string& text);

std::unique_ptr<CostModel> make_model(const std::string& name, const ParamValues& overrides,
                                      const GpuSpec& gpu);

}  // namespace lw

namespace lw {

// What a model file holds: the model, its parameters, and the parameters its calibration did not
// determine ("undetermined": [names]; `predict` refuses cases those parameters move).
struct ModelFile {
  std::string model;
  ParamValues params;
  std::vector<std::string> undetermined;
};
ModelFile read_model_file(const std::string& path);  // throws std::invalid_argument

// A fitted model file (configs/models/*.json): {"model": NAME, "params": {...}, ...}. Parameters in
// the file override the model's defaults, `overrides` override the file.
std::unique_ptr<CostModel> make_model_from_file(const std::string& path,
                                                const ParamValues& overrides, const GpuSpec& gpu);

}  // namespace lw

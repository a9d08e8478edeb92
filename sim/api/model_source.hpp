// The cost model and GPU a prediction runs under, resolved once from what the user named (a
// built-in model or a fitted model file, parameter overrides; a GPU preset and/or an SM count).
// Shared by the `lastwave` CLI and the Python module, so both resolve them the same way.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"

namespace lw {

// A model as named: `name` is a built-in model ("unit", "roofline", ...) or a *.json file path;
// `file` holds that file parsed and validated (null for a built-in model).
struct ModelSource {
  std::string name;
  std::shared_ptr<const ModelFile> file;
  ParamValues overrides;  // --param name=value,...
};

// Whether `name` names a fitted model file (ends in .json) rather than a built-in model.
bool is_model_file_name(const std::string& name);

// Reads and validates `name` (the file, or the built-in model's existence) and `overrides`
// against the model's declared parameters; throws std::invalid_argument (one line).
ModelSource load_model_source(const std::string& name, const ParamValues& overrides);

// The cost model for `gpu`: the file's model with its parameters, or the built-in one, with the
// overrides applied.
std::unique_ptr<CostModel> build_model(const ModelSource& source, const GpuSpec& gpu);

// --gpu NAME and/or --sms N: a partition of NAME when both are given; N alone with a fitted model
// file that names a preset GPU: a partition of that GPU, else an N-SM chip. Throws when neither is
// given or N exceeds the preset's SMs.
GpuSpec resolve_gpu(const std::optional<std::string>& name, const std::optional<int64_t>& sms,
                    const ModelFile* file);

}  // namespace lw

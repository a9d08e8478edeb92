// Model and GPU resolution (model_source.hpp).
#include "sim/api/model_source.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/util/atomic_file.hpp"

namespace lw {

bool is_model_file_name(const std::string& name) {
  const std::string suffix = ".json";
  return name.size() > suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ModelSource load_model_source(const std::string& name, const ParamValues& overrides) {
  ModelSource source{name, nullptr, overrides};
  if (is_model_file_name(name)) {
    auto file = std::make_shared<ModelFile>(read_model_file(user_path(name)));
    check_params(find_model(file->model), overrides, "--param");
    source.file = std::move(file);
  } else {
    check_params(find_model(name), overrides, "--param");
  }
  return source;
}

std::unique_ptr<CostModel> build_model(const ModelSource& source, const GpuSpec& gpu) {
  if (source.file) return make_model_from_file(*source.file, source.overrides, gpu);
  return make_model(source.name, source.overrides, gpu);
}

GpuSpec resolve_gpu(const std::optional<std::string>& name, const std::optional<int64_t>& sms,
                    const ModelFile* file) {
  if (!name && !sms) throw std::invalid_argument("give --gpu NAME or --sms N");
  if (name) {
    const GpuSpec preset = gpu_preset(*name);
    if (!sms) return preset;
    if (*sms > preset.sms) {
      throw std::invalid_argument("--sms " + std::to_string(*sms) + " exceeds the " +
                                  std::to_string(preset.sms) + " SMs of " + preset.name);
    }
    return gpu_with_sms(*sms, &preset);
  }
  if (file != nullptr && !file->gpu.empty()) {
    const auto names = gpu_preset_names();
    if (std::find(names.begin(), names.end(), file->gpu) != names.end()) {
      const GpuSpec preset = gpu_preset(file->gpu);
      if (*sms <= preset.sms) return gpu_with_sms(*sms, &preset);
    }
  }
  return gpu_with_sms(*sms, nullptr);
}

}  // namespace lw

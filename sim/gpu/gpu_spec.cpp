// Parsing of the embedded GPU presets.
#include "sim/gpu/gpu_spec.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lw {

namespace {

// An integer field; rejects floats, whose conversion to int64_t would be unchecked.
int64_t as_integer(const nlohmann::json& v, const char* key) {
  if (!v.is_number_integer()) {
    throw std::invalid_argument(std::string("GPU preset: '") + key + "' must be an integer");
  }
  return v.get<int64_t>();
}

GpuSpec parse_gpu_json(const std::string& json) {
  const auto j = nlohmann::json::parse(json);
  GpuSpec g;
  g.name = j.at("name").get<std::string>();
  g.label = j.value("label", g.name);
  g.description = j.value("description", "");
  g.sms = as_integer(j.at("sms"), "sms");
  g.ctas_per_sm = j.contains("ctas_per_sm") ? as_integer(j["ctas_per_sm"], "ctas_per_sm") : 1;
  g.bf16_dense_tflops = j.at("bf16_dense_tflops").get<double>();
  g.dram_tb_per_s = j.at("dram_tb_per_s").get<double>();
  g.l2_tb_per_s = j.at("l2_tb_per_s").get<double>();
  g.l2_mib = j.at("l2_mib").get<double>();
  g.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
  return g;
}

}  // namespace

GpuSpec parse_gpu_spec(const std::string& json) {
  try {
    return parse_gpu_json(json);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("GPU preset: ") + e.what());
  }
}

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : embedded_gpu_presets()) names.push_back(p.name);
  return names;
}

GpuSpec gpu_preset(const std::string& name) {
  for (const auto& p : embedded_gpu_presets()) {
    if (name == p.name) return parse_gpu_spec(p.json);
  }
  std::string known;
  for (const auto& n : gpu_preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown GPU '" + name + "' (known: " + known + ")");
}

GpuSpec gpu_with_sms(int64_t sms, const GpuSpec* like) {
  if (sms < 1) throw std::invalid_argument("--sms must be >= 1, got " + std::to_string(sms));
  GpuSpec g = like ? *like : GpuSpec{};
  if (like) {
    // Whole-GPU rates scale with the SMs kept; DRAM bandwidth is shared, not partitioned.
    const double share = static_cast<double>(sms) / static_cast<double>(like->sms);
    g.bf16_dense_tflops *= share;
    g.l2_tb_per_s *= share;
  }
  g.name = like ? like->name + "@" + std::to_string(sms) : std::to_string(sms) + "-sm";
  g.sms = sms;
  return g;
}

}  // namespace lw

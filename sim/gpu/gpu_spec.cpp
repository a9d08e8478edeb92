// Parsing of the embedded GPU presets.
#include "sim/gpu/gpu_spec.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lw {

namespace {

GpuSpec parse_preset(const EmbeddedPreset& p) {
  const auto j = nlohmann::json::parse(p.json);
  GpuSpec g;
  g.name = j.at("name").get<std::string>();
  g.label = j.value("label", g.name);
  g.description = j.value("description", "");
  g.sms = j.at("sms").get<int64_t>();
  g.ctas_per_sm = j.value("ctas_per_sm", int64_t{1});
  g.bf16_dense_tflops = j.at("bf16_dense_tflops").get<double>();
  g.dram_tb_per_s = j.at("dram_tb_per_s").get<double>();
  g.l2_tb_per_s = j.at("l2_tb_per_s").get<double>();
  g.l2_mib = j.at("l2_mib").get<double>();
  g.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
  return g;
}

}  // namespace

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : embedded_gpu_presets()) names.push_back(p.name);
  return names;
}

GpuSpec gpu_preset(const std::string& name) {
  for (const auto& p : embedded_gpu_presets()) {
    if (name == p.name) return parse_preset(p);
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

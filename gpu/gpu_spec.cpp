// Parsing of the embedded GPU presets, each field checked against its declared range.
#include "gpu/gpu_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sim/util/value_range.hpp"

namespace lw {

namespace {

// Declared ranges of the preset fields: counts are >= 1, rates and sizes positive, all finite
// and below a bound no GPU reaches.
constexpr auto kMaxSms = static_cast<double>(kMaxGpuSms);
constexpr double kMaxCtasPerSm = 32;  // CUDA's limit of resident CTAs per SM
constexpr double kMaxRate = 1e6;      // TFLOP/s or TB/s
constexpr double kMaxL2Mib = 1e6;     // MiB
constexpr double kMaxClockMhz = 1e5;  // MHz

struct PresetField {
  const char* key;
  const char* unit;
  ValueRange range;
  double GpuSpec::*real = nullptr;    // a real-valued field, or
  int64_t GpuSpec::*count = nullptr;  // a count (must be a whole number)
  bool required = true;
};

const std::vector<PresetField>& preset_fields() {
  static const std::vector<PresetField> fields = {
      {"sms", "SMs", {1, kMaxSms}, nullptr, &GpuSpec::sms},
      {"ctas_per_sm", "CTAs", {1, kMaxCtasPerSm}, nullptr, &GpuSpec::ctas_per_sm, false},
      {"bf16_dense_tflops", "TFLOP/s", {0, kMaxRate, true}, &GpuSpec::bf16_dense_tflops},
      {"dram_tb_per_s", "TB/s", {0, kMaxRate, true}, &GpuSpec::dram_tb_per_s},
      {"l2_tb_per_s", "TB/s", {0, kMaxRate, true}, &GpuSpec::l2_tb_per_s},
      {"l2_mib", "MiB", {0, kMaxL2Mib}, &GpuSpec::l2_mib},
      {"sm_clock_mhz", "MHz", {0, kMaxClockMhz, true}, &GpuSpec::sm_clock_mhz},
  };
  return fields;
}

void read_field(const nlohmann::json& j, const PresetField& f, const std::string& where,
                GpuSpec* g) {
  if (!j.contains(f.key)) {
    if (!f.required) return;
    throw std::invalid_argument(where + ": parameter '" + f.key + "' is missing");
  }
  if (!j[f.key].is_number()) {
    throw std::invalid_argument(where + ": parameter '" + f.key + "' is not a number");
  }
  const double v = j[f.key].get<double>();
  check_in_range(v, f.range, where, f.key, f.unit);
  if (f.real) {
    g->*f.real = v;
  } else if (v != std::floor(v)) {
    throw std::invalid_argument(where + ": parameter '" + f.key + "' must be a whole number");
  } else {
    g->*f.count = static_cast<int64_t>(v);
  }
}

// The optional "max_active_clusters": {"SIZE": COUNT, ...}: sizes 2..kMaxClusterCtas, counts whole,
// >= 1 and at most the SMs' even share.
void read_cluster_limits(const nlohmann::json& j, const std::string& where, GpuSpec* g) {
  const char* key = "max_active_clusters";
  if (!j.contains(key)) return;
  if (!j[key].is_object()) {
    throw std::invalid_argument(where + ": \"" + key + "\" must map cluster sizes to counts");
  }
  for (const auto& [size_text, count] : j[key].items()) {
    const std::string what = std::string(key) + "[" + size_text + "]";
    char* end = nullptr;
    const long size = std::strtol(size_text.c_str(), &end, 10);
    if (size_text.empty() || *end != '\0' || size < 2 || size > kMaxClusterCtas) {
      throw std::invalid_argument(where + ": " + what + ": cluster size must be 2.." +
                                  std::to_string(kMaxClusterCtas));
    }
    const double even = std::floor(static_cast<double>(g->sms * g->ctas_per_sm) / size);
    if (!count.is_number() || count.get<double>() != std::floor(count.get<double>())) {
      throw std::invalid_argument(where + ": " + what + " must be a whole number");
    }
    check_in_range(count.get<double>(), ValueRange{1, even}, where, what, "clusters");
    g->clusters_by_size[size] = count.get<int64_t>();
  }
}

// An optional text field: `fallback` when absent, an error when present but not a string.
std::string optional_text(const nlohmann::json& j, const std::string& key,
                          const std::string& fallback, const std::string& where) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_string()) {
    throw std::invalid_argument(where + ": \"" + key + "\" must be a string");
  }
  return j[key].get<std::string>();
}

}  // namespace

GpuSpec parse_gpu_preset(const std::string& json, const std::string& file) {
  const std::string where = "GPU preset " + file;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(where + ": not valid JSON");
  }
  if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
    throw std::invalid_argument(where + ": needs a \"name\"");
  }
  GpuSpec g;
  g.name = j["name"].get<std::string>();
  g.label = optional_text(j, "label", g.name, where);
  g.description = optional_text(j, "description", "", where);
  for (const auto& f : preset_fields()) read_field(j, f, where, &g);
  read_cluster_limits(j, where, &g);
  return g;
}

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  for (const auto& p : embedded_gpu_presets()) names.push_back(p.name);
  return names;
}

GpuSpec gpu_preset(const std::string& name) {
  for (const auto& p : embedded_gpu_presets()) {
    if (name == p.name) return parse_gpu_preset(p.json, preset_file(p.name));
  }
  std::string known;
  for (const auto& n : gpu_preset_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown GPU '" + name + "' (known: " + known + ")");
}

GpuSpec gpu_with_sms(int64_t sms, const GpuSpec* like) {
  if (sms < 1) throw std::invalid_argument("--sms must be >= 1, got " + std::to_string(sms));
  if (sms > kMaxGpuSms) {
    throw std::invalid_argument("--sms must be <= " + std::to_string(kMaxGpuSms) + ", got " +
                                std::to_string(sms));
  }
  GpuSpec g = like ? *like : GpuSpec{};
  if (like) {
    // Whole-GPU rates scale with the SMs kept; DRAM bandwidth is shared, not partitioned.
    const double share = static_cast<double>(sms) / static_cast<double>(like->sms);
    g.bf16_dense_tflops *= share;
    g.l2_tb_per_s *= share;
  }
  g.name = like ? like->name + "@" + std::to_string(sms) : std::to_string(sms) + "-sm";
  g.chip_sms = like ? whole_chip_sms(*like) : sms;
  g.sms = sms;
  if (like) {  // each cluster limit keeps its share (floor): the stated rule, not a measurement
    for (int64_t& limit : g.clusters_by_size) limit = limit * sms / like->sms;
  }
  return g;
}

GpuShape gpu_shape(const GpuSpec& g) {
  GpuShape s{g.sms, g.ctas_per_sm, 0};
  std::copy(std::begin(g.clusters_by_size), std::end(g.clusters_by_size), s.clusters_by_size);
  return s;
}

}  // namespace lw

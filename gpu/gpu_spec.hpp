// GpuSpec: the machine facts a cost model may use, read from the presets in configs/gpus/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/decomp/types.hpp"

namespace lw {

struct GpuSpec {
  std::string name;
  std::string label;  // short display name, e.g. "H100 SXM"
  std::string description;
  int64_t sms = 0;
  int64_t chip_sms = 0;  // SMs of the whole chip: a partition (gpu_with_sms) keeps it; 0 = sms
  int64_t ctas_per_sm = 1;
  double bf16_dense_tflops = 0;  // TFLOP/s, whole GPU
  double dram_tb_per_s = 0;      // TB/s
  double l2_tb_per_s = 0;        // TB/s, whole GPU
  double l2_mib = 0;             // MiB
  double sm_clock_mhz = 0;
  // Resident clusters by cluster size in CTAs (index = size; 0 = unknown: an even share of the
  // SMs), as the preset's "max_active_clusters" lists them for the whole chip (measured with
  // cudaOccupancyMaxActiveClusters; a partition keeps its share, see gpu_with_sms).
  int64_t clusters_by_size[kMaxClusterCtas + 1] = {};
};

// The SMs of the chip `g` runs on (a partition of it included).
inline int64_t whole_chip_sms(const GpuSpec& g) { return g.chip_sms > 0 ? g.chip_sms : g.sms; }

// The plan-side view of `g`: its SMs, CTAs per SM and cluster residency limits.
GpuShape gpu_shape(const GpuSpec& g);

struct EmbeddedPreset {
  const char* name;
  const char* json;
};
const std::vector<EmbeddedPreset>& embedded_gpu_presets();  // generated from configs/gpus

// The file a preset was embedded from (configs/gpus/NAME.json), for error messages.
inline std::string preset_file(const std::string& name) { return "configs/gpus/" + name + ".json"; }

// Parses one preset's JSON. Throws std::invalid_argument, one line naming `file`, the field and
// its range, on a missing, non-numeric or out-of-range field (counts must be whole numbers >= 1).
GpuSpec parse_gpu_preset(const std::string& json, const std::string& file);

// Preset by name (e.g. "h200"); throws std::invalid_argument listing the known names.
GpuSpec gpu_preset(const std::string& name);
std::vector<std::string> gpu_preset_names();

// The most SMs a GPU (a preset's "sms" or --sms) may have: far above any GPU (2026's largest have
// under 200), and it bounds the simulator's per-SM state (--sms 1e8 exhausted 24 GB before).
inline constexpr int64_t kMaxGpuSms = 100000;

// A GPU known only by its SM count: used with --sms N (physical rates from `like`, if given). A
// partition of `like` keeps its share of each cluster limit (floor(limit x sms / chip SMs)): the
// stated rule where the partition was not measured.
GpuSpec gpu_with_sms(int64_t sms, const GpuSpec* like);

}  // namespace lw

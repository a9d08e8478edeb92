// `roofline` model: MAC iteration = max(tensor time, operand bytes / bandwidth share); fixup and
// epilogue traffic = bytes / bandwidth share. MAC loops are processor-shared
// (CostNeeds::shared_rate: the simulator re-rates them whenever the busy-SM count changes); fixup
// and epilogue actions get 1/B of the bandwidth for B busy SMs at their start (short actions; not
// re-timed).
#include "models/roofline/roofline_model.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/roofline/traffic.hpp"

namespace lw {

namespace {

constexpr double kUsPerS = 1e6;
constexpr double kFlopsPerTflop = 1e12;
constexpr double kBytesPerTb = 1e12;

class RooflineModel final : public CostModel {
 public:
  RooflineModel(const ParamValues& v, const GpuSpec& gpu)
      : tensor_eff_(v.at("tensor_efficiency")),
        bw_eff_(v.at("bandwidth_efficiency")),
        l2_reuse_(v.at("l2_reuse")),
        mem_latency_(v.at("memory_latency_us")),
        flag_(v.at("flag_latency_us")),
        setup_(v.at("cta_setup_us")),
        launch_(v.at("launch_overhead_us")),
        gpu_(gpu) {}

  double iter_time(const Plan& p, const CostContext& c) const override {
    const double per_sm_flops = gpu_.bf16_dense_tflops * kFlopsPerTflop /
                                static_cast<double>(std::max<int64_t>(1, gpu_.sms));
    const double compute =
        per_sm_flops > 0 ? traffic::flops_per_iter(p.tile) / (per_sm_flops * tensor_eff_) * kUsPerS
                         : 0.0;
    const double miss = 1.0 - l2_reuse_ * (1.0 - traffic::dram_fraction(p, gpu_.l2_mib));
    const double bytes = traffic::operand_bytes_per_iter(p.tile);
    const double memory =
        bytes * (miss * us_per_byte(dram_bw(), c) + (1.0 - miss) * us_per_byte(l2_bw(), c));
    return std::max(compute, memory);
  }
  CostNeeds needs(const Plan&) const override {
    CostNeeds n;
    n.shared_rate = true;
    return n;
  }
  double transfer(Transfer kind, const Plan& p, const Segment&,
                  const CostContext& c) const override {
    if (kind == Transfer::Epilogue) {
      return mem_latency_ + traffic::output_tile_bytes(p.tile) * us_per_byte(dram_bw(), c);
    }
    const double once =
        mem_latency_ + traffic::partial_tile_bytes(p.tile) * us_per_byte(l2_bw(), c);
    // An in-place add: a read and a write of the slot, serialised through the same share.
    return kind == Transfer::PartialAccumulate ? 2.0 * once : once;
  }
  // The CTA prologue is the pipeline fill: the first stage's loads arrive before the first MMA.
  // A staging copy (plan_stages_operands): one more launch streaming its bytes at DRAM rate.
  FixedCosts fixed_costs(const Plan& p) const override {
    const double bytes = traffic::staging_bytes(p);
    const double staging = bytes > 0 ? launch_ + bytes / dram_bw() * kUsPerS : 0.0;
    return FixedCosts{flag_, setup_ + mem_latency_, launch_, staging};
  }
  std::string time_unit() const override { return "us"; }

 private:
  double dram_bw() const { return gpu_.dram_tb_per_s * kBytesPerTb * bw_eff_; }
  double l2_bw() const { return gpu_.l2_tb_per_s * kBytesPerTb * bw_eff_; }
  // One SM's share of `bw` (bytes/s) when c.busy_sms SMs stream at once, as us per byte.
  static double us_per_byte(double bw, const CostContext& c) {
    const double busy = static_cast<double>(std::max<int64_t>(1, c.busy_sms));
    return bw > 0 ? busy / bw * kUsPerS : 0.0;
  }

  double tensor_eff_, bw_eff_, l2_reuse_, mem_latency_, flag_, setup_, launch_;
  GpuSpec gpu_;
};

std::unique_ptr<CostModel> make_roofline(const ParamValues& v, const GpuSpec& gpu,
                                         const FitScope&) {
  if (!(gpu.bf16_dense_tflops > 0 && gpu.dram_tb_per_s > 0 && gpu.l2_tb_per_s > 0)) {
    throw std::invalid_argument("model roofline needs a GPU's rates (TFLOP/s, L2 and DRAM TB/s); " +
                                gpu.name + " has none: give --gpu NAME");
  }
  return std::make_unique<RooflineModel>(v, gpu);
}

}  // namespace

ModelInfo roofline_model_info() {
  return ModelInfo{
      "roofline",
      "physical time from the GPU preset: max(tensor, bytes / bandwidth share) per MAC iteration",
      {
          {"tensor_efficiency", "fraction", 0.8, kShareRange,
           "achieved share of the preset's dense bf16 tensor throughput in the MAC loop"},
          {"bandwidth_efficiency", "fraction", 0.8, kShareRange,
           "achieved share of the preset's DRAM and L2 bandwidth"},
          {"l2_reuse", "fraction", 0.9, kFractionRange,
           "share of the ideal L2 reuse (1 - compulsory miss fraction) that is realised"},
          {"memory_latency_us", "us", 0.8, kTimeRange,
           "latency of one dependent global-memory round trip (epilogue, fixup, pipeline fill)"},
          {"flag_latency_us", "us", 0.5, kTimeRange,
           "delay before a spinning waiter sees a raised flag"},
          {"cta_setup_us", "us", 0.5, kTimeRange, "CTA start-up before its first loads are issued"},
          {"launch_overhead_us", "us", 4.0, kTimeRange,
           "host launch overhead of one kernel launch"},
      },
      &make_roofline,
  };
}

}  // namespace lw

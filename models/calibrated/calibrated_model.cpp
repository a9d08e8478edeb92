// `calibrated` model: MAC iteration = base + contention x busy SMs (+ an L2-miss share of it, + a
// DRAM share for the in-flight working set's capacity misses) (+ a penalty when K forbids vector
// loads) (+ a hot-line share per busy SM over the tile's valid rows), plus a fixed cost per
// segment; fixup, epilogue, flag, prologue and launch are fitted constants. busy_sms and the
// working set are taken at the action's start (processor sharing). Fitted for one tile (the model
// file's "tile"); other tiles of the same k step scale the tensor and fixup terms by the output
// area and the bandwidth terms by the operand bytes (TileScale below).
#include "models/calibrated/calibrated_model.hpp"

#include <algorithm>

#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/config_list.hpp"

namespace lw {

namespace {

// Ratios of a tile's per-iteration MACs and operand bytes to those of the fitted tile. A
// compute-bound iteration (iter_us is ~ the tensor peak) and the accumulator tile (epilogue,
// partial traffic) scale with m x n; the bandwidth-share terms with the A+B bytes, (m + n) x k.
struct TileScale {
  double area = 1;
  double operands = 1;
};

TileScale tile_scale(const TileShape& t, const TileShape& fitted) {
  if (same_tile(t, fitted)) return TileScale{};
  return TileScale{static_cast<double>(t.m * t.n) / static_cast<double>(fitted.m * fitted.n),
                   static_cast<double>(t.m + t.n) / static_cast<double>(fitted.m + fitted.n)};
}

class CalibratedModel final : public CostModel {
 public:
  CalibratedModel(const ParamValues& v, const GpuSpec& gpu)
      : iter_(v.at("iter_us")),
        per_busy_(v.at("iter_per_busy_sm_us")),
        unaligned_(v.at("iter_unaligned_us")),
        miss_per_busy_(v.at("iter_miss_per_busy_sm_us")),
        ws_miss_per_busy_(v.at("iter_ws_miss_per_busy_sm_us")),
        l2_effective_mib_(v.at("l2_effective_mib")),
        hot_line_(v.at("hot_line_us")),
        segment_(v.at("segment_us")),
        epilogue_(v.at("epilogue_us")),
        store_(v.at("store_us")),
        load_(v.at("load_us")),
        accumulate_(v.at("accumulate_us")),
        flag_(v.at("flag_us")),
        prologue_(v.at("prologue_us")),
        launch_(v.at("launch_us")),
        l2_mib_(gpu.l2_mib) {}

  double mac(const Plan& p, const Segment& s, const CostContext& c) const override {
    const int64_t iters = segment_iters(s);
    if (iters == 0) return 0.0;
    const TileScale sc = tile_scale(p.tile, fitted_);
    const double busy = static_cast<double>(std::max<int64_t>(1, c.busy_sms));
    const double miss = traffic::dram_fraction(p, l2_mib_);
    const double ws_miss =
        ws_miss_per_busy_ > 0
            ? traffic::capacity_miss(traffic::scattered_working_set_mib(p, c.active_tile_rows,
                                                                        c.active_tile_cols, busy),
                                     l2_effective_mib_)
            : 0.0;
    const double hot =
        hot_line_ > 0 ? hot_line_ / static_cast<double>(traffic::valid_tile_rows(p, s.tile)) : 0.0;
    const double shared =
        busy * (per_busy_ + miss * miss_per_busy_ + ws_miss * ws_miss_per_busy_ + hot);
    const double unaligned = traffic::vector_loads(p.problem) ? 0.0 : unaligned_;
    // Summed in the order of the fitted-tile formula, so the fitted tile costs bit for bit as
    // before.
    const double per_iter = iter_ * sc.area + shared * sc.operands + unaligned * sc.operands;
    return segment_ + static_cast<double>(iters) * per_iter;
  }
  double epilogue(const Plan& p, const Segment&, const CostContext&) const override {
    return epilogue_ * tile_scale(p.tile, fitted_).area;
  }
  double partial_store(const Plan& p, const Segment&, const CostContext&) const override {
    return store_ * tile_scale(p.tile, fitted_).area;
  }
  double partial_load(const Plan& p, const Segment&, const CostContext&) const override {
    return load_ * tile_scale(p.tile, fitted_).area;
  }
  double partial_accumulate(const Plan& p, const Segment&, const CostContext&) const override {
    return accumulate_ * tile_scale(p.tile, fitted_).area;
  }
  double flag_latency(const Plan&) const override { return flag_; }
  double cta_prologue(const Plan&) const override { return prologue_; }
  double launch_overhead(const Plan&) const override { return launch_; }
  // The simulator tracks tiles in flight only when the working-set term is on (old files: off).
  bool uses_working_set() const override { return ws_miss_per_busy_ > 0; }
  std::string time_unit() const override { return "us"; }
  // The segment restart and pipeline fill were fitted for one k step; there is no rule to scale
  // them to another.
  std::string config_error(const TileShape& t, const ClusterShape& c) const override {
    if (t.k != fitted_.k) {
      return "the calibrated model (fitted for tile " + tile_text(fitted_) +
             ") has no segment_us/prologue_us for k step " + std::to_string(t.k);
    }
    return CostModel::config_error(t, c);
  }
  void set_fitted_tile(const TileShape& t) override { fitted_ = t; }
  // Every load term is a non-negative coefficient times busy SMs or a miss fraction.
  bool costs_grow_with_load() const override {
    return per_busy_ >= 0 && miss_per_busy_ >= 0 && ws_miss_per_busy_ >= 0 && hot_line_ >= 0 &&
           unaligned_ >= 0;
  }

 private:
  double iter_, per_busy_, unaligned_, miss_per_busy_, ws_miss_per_busy_, l2_effective_mib_,
      hot_line_, segment_, epilogue_, store_, load_, accumulate_, flag_, prologue_, launch_,
      l2_mib_;
  TileShape fitted_ = kDefaultTile;
};

std::unique_ptr<CostModel> make_calibrated(const ParamValues& v, const GpuSpec& gpu) {
  return std::make_unique<CalibratedModel>(v, gpu);
}

}  // namespace

// Defaults are an H200 bf16 128x128x64 starting point for the fitter, not fitted values. The
// working-set term defaults to off so model files written before it load unchanged.
ModelInfo calibrated_model_info() {
  return ModelInfo{
      "calibrated",
      "fitted physical-time model (us); load a configs/models/*.json file written by calibrate",
      {
          {"iter_us", "us", 0.3, "MAC iteration of one tile with one SM busy"},
          {"iter_per_busy_sm_us", "us", 0.002,
           "added to each MAC iteration per busy SM (shared L2/DRAM bandwidth)"},
          {"iter_unaligned_us", "us", 1.0,
           "added to each MAC iteration when K is not a multiple of 8 (element-wise loads)"},
          {"iter_miss_per_busy_sm_us", "us", 0.002,
           "added per iteration per busy SM, times the modelled L2-miss fraction of operands"},
          {"iter_ws_miss_per_busy_sm_us", "us", 0.0,
           "added per iteration per busy SM, times the capacity-miss fraction of the in-flight "
           "operand working set (one SM's operand bytes at its share of DRAM bandwidth; 0 = off)"},
          {"l2_effective_mib", "MiB", 50.0,
           "scattered operand working set (full-K A and B panels in flight, times the share of "
           "their rows x cols block not in flight) at which half of the loads miss L2"},
          {"hot_line_us", "us", 0.0,
           "added per iteration per busy SM, divided by the tile's rows inside the problem (the "
           "busy SMs read the same few A lines of a one-tile-row problem; 0 = off)"},
          {"segment_us", "us", 0.2, "fixed cost of each segment's MAC loop (pipeline restart)"},
          {"epilogue_us", "us", 1.0, "writing one finished output tile"},
          {"store_us", "us", 1.0, "storing one fp32 partial tile to the workspace"},
          {"load_us", "us", 1.0, "loading one fp32 partial tile and adding it"},
          {"accumulate_us", "us", 2.0, "adding a tile into a workspace slot in place"},
          {"flag_us", "us", 0.5, "delay before a spinning waiter sees a raised flag"},
          {"prologue_us", "us", 1.0, "CTA start-up and pipeline fill before its first MMA"},
          {"launch_us", "us", 4.0, "launch overhead of one kernel launch"},
      },
      &make_calibrated,
  };
}

}  // namespace lw

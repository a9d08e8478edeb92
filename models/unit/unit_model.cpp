// `unit` model: constant cost per action, in MAC-iteration units (the seed's schedule_sim.py); a
// MAC iteration scales with the tile's volume relative to 128x128x64 (1 for the seed's tile).
#include "models/unit/unit_model.hpp"

#include <array>

namespace lw {

namespace {

// MACs of one iteration of `t` over those of one iteration of the seed's 128x128x64 tile.
double volume_ratio(const TileShape& t) {
  const TileShape& r = kDefaultTile;
  return static_cast<double>(t.m * t.n * t.k) / static_cast<double>(r.m * r.n * r.k);
}

class UnitModel final : public CostModel {
 public:
  explicit UnitModel(const ParamValues& v)
      : mac_(v.at("mac")),
        transfers_{v.at("epilogue"), v.at("partial_store"), v.at("partial_load"),
                   v.at("partial_accumulate")},
        flag_(v.at("flag_latency")) {}

  double iter_time(const Plan& p, const CostContext&) const override {
    return mac_ * volume_ratio(p.tile);
  }
  double transfer(Transfer kind, const Plan&, const Segment&, const CostContext&) const override {
    return transfers_[static_cast<size_t>(kind)];
  }
  FixedCosts fixed_costs(const Plan&) const override { return FixedCosts{flag_, 0.0, 0.0}; }
  std::string time_unit() const override { return "iter"; }
  // No load terms at all: every cost is its value in any context, and the iteration time itself
  // is the least (best's bounds then count the MAC loops, which prunes most candidates
  // unsimulated).
  LoadBound load_bound(const Plan& p, int64_t) const override {
    return LoadBound{true, iter_time(p, CostContext{})};
  }
  // A cluster's CTAs run their tiles side by side on their own SMs: same costs per CTA tile.
  std::string config_error(const TileShape&, const ClusterShape&) const override { return ""; }

 private:
  double mac_;
  std::array<double, kTransfers> transfers_;  // by Transfer
  double flag_;
};

std::unique_ptr<CostModel> make_unit(const ParamValues& v, const GpuSpec&, const FitScope&) {
  return std::make_unique<UnitModel>(v);
}

}  // namespace

ModelInfo unit_model_info() {
  return ModelInfo{
      "unit",
      "seed's abstract model: 1 per MAC iteration (of 128x128x64), epilogue 2, partial store/load "
      "2",
      {
          {"mac", "iter", 1.0, kPositiveTimeRange,
           "one MAC-loop iteration of a 128x128x64 tile (other tiles: times their volume ratio)"},
          {"epilogue", "iter", 2.0, kTimeRange, "writing one finished output tile"},
          {"partial_store", "iter", 2.0, kTimeRange,
           "storing one fp32 partial tile to the workspace"},
          {"partial_load", "iter", 2.0, kTimeRange, "loading one fp32 partial tile and adding it"},
          {"partial_accumulate", "iter", 4.0, kTimeRange,
           "adding a tile into a workspace slot in place (a load plus a store)"},
          {"flag_latency", "iter", 0.0, kTimeRange, "delay before a waiter sees a raised flag"},
      },
      &make_unit,
  };
}

}  // namespace lw

// `unit` model: constant cost per action, in MAC-iteration units (the seed's schedule_sim.py).
#include "models/unit/unit_model.hpp"

namespace lw {

namespace {

class UnitModel final : public CostModel {
 public:
  explicit UnitModel(const ParamValues& v)
      : mac_(v.at("mac")),
        epilogue_(v.at("epilogue")),
        store_(v.at("partial_store")),
        load_(v.at("partial_load")),
        accumulate_(v.at("partial_accumulate")),
        flag_(v.at("flag_latency")) {}

  double mac(const Plan&, const Segment& s, const CostContext&) const override {
    return mac_ * static_cast<double>(segment_iters(s));
  }
  double epilogue(const Plan&, const Segment&, const CostContext&) const override {
    return epilogue_;
  }
  double partial_store(const Plan&, const Segment&, const CostContext&) const override {
    return store_;
  }
  double partial_load(const Plan&, const Segment&, const CostContext&) const override {
    return load_;
  }
  double partial_accumulate(const Plan&, const Segment&, const CostContext&) const override {
    return accumulate_;
  }
  double flag_latency(const Plan&) const override { return flag_; }
  std::string time_unit() const override { return "iter"; }

 private:
  double mac_, epilogue_, store_, load_, accumulate_, flag_;
};

std::unique_ptr<CostModel> make_unit(const ParamValues& v, const GpuSpec&) {
  return std::make_unique<UnitModel>(v);
}

}  // namespace

ModelInfo unit_model_info() {
  return ModelInfo{
      "unit",
      "seed's abstract model: 1 per MAC iteration, epilogue 2, partial store/load 2",
      {
          {"mac", "iter", 1.0, kPositiveTimeRange,
           "cost of one MAC-loop iteration (one BLK_K step of one tile)"},
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

// A model's staging time (FixedCosts::staging: the copy of operands TMA cannot read) is charged
// once, before the GEMM's first launch: a plan's makespan grows by exactly that time, also when a
// separate reduction launch follows.
#include <doctest/doctest.h>

#include <string>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace {

// Options for a run on `sms` SMs, one CTA each, no timeline.
lw::SimOptions sim_options(int64_t sms) {
  lw::SimOptions opt;
  opt.sms = sms;
  return opt;
}

// Every action costs 1 (a MAC loop of 16 k-tiles: 1), a launch 2, and the staging copy `staging`.
class StagingModel final : public lw::CostModel {
 public:
  explicit StagingModel(double staging) : staging_(staging) {}
  double iter_time(const lw::Plan&, const lw::CostContext&) const override { return 1.0 / 16; }
  double transfer(lw::Transfer, const lw::Plan&, const lw::Segment&,
                  const lw::CostContext&) const override {
    return 1.0;
  }
  lw::FixedCosts fixed_costs(const lw::Plan&) const override {
    return lw::FixedCosts{1.0, 0.0, 2.0, staging_};
  }
  std::string time_unit() const override { return "iter"; }

 private:
  double staging_;
};

double makespan(const std::string& schedule, double staging) {
  const lw::Planned planned = lw::plan_schedule(schedule, {1024, 1024, 1024}, lw::TileShape{},
                                                lw::GpuShape{3, 1}, lw::Reduction::Deterministic);
  return lw::simulate(planned.plan, StagingModel(staging), sim_options(3)).makespan;
}

}  // namespace

TEST_CASE("the staging time is added once, before the first launch") {
  for (const char* schedule : {"dp", "streamk", "splitk:2", "splitk-sep:2"}) {
    CAPTURE(schedule);
    const double plain = makespan(schedule, 0.0);
    CHECK(makespan(schedule, 7.0) == doctest::Approx(plain + 7.0));
  }
  // dp: 64 tiles on 3 SMs, 22 waves of (launch 2 +) one loop of 1 and one epilogue of 1.
  CHECK(makespan("dp", 0.0) == doctest::Approx(2.0 + 22 * 2.0));
  CHECK(makespan("dp", 7.0) == doctest::Approx(7.0 + 2.0 + 22 * 2.0));
}

// Processor sharing of MAC loops: a loop is re-rated when the busy-SM count changes mid-loop.
#include <doctest/doctest.h>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

namespace {

// A rated model whose every action but the MAC loop is free; a MAC iteration takes `per_iter(c)`.
class FreeActionsModel : public CostModel {
 public:
  CostNeeds needs(const Plan&) const override {
    CostNeeds n;
    n.shared_rate = true;
    n.working_set = reads_working_set();
    return n;
  }
  double transfer(Transfer, const Plan&, const Segment&, const CostContext&) const override {
    return 0;
  }
  double iter_time(const Plan&, const CostContext& c) const override { return per_iter(c); }
  std::string time_unit() const override { return "us"; }

 private:
  virtual double per_iter(const CostContext& c) const = 0;
  virtual bool reads_working_set() const { return false; }
};

// One MAC iteration takes `busy SMs` us.
class BusyModel final : public FreeActionsModel {
  double per_iter(const CostContext& c) const override { return static_cast<double>(c.busy_sms); }
};

// One MAC iteration takes `distinct tile rows in flight` us.
class RowsModel final : public FreeActionsModel {
  bool reads_working_set() const override { return true; }
  double per_iter(const CostContext& c) const override {
    return static_cast<double>(c.active_tile_rows);
  }
};

// One 128x128 tile of 3 k-tiles split over 2 Stream-K units on 2 SMs (the plan every case runs).
Plan two_unit_streamk() {
  return plan_schedule("streamk:2", Problem{128, 128, 192}, TileShape{128, 128, 64}, GpuShape{2, 1},
                       Reduction::Deterministic)
      .plan;
}

}  // namespace

TEST_CASE("a MAC loop speeds up when the other SM leaves") {
  // One 128x128 tile of 3 k-tiles, Stream-K over 2 CTAs on 2 SMs: one CTA runs 2 iterations, the
  // other 1. Both start with 2 busy SMs (2 us per iteration). The 1-iteration CTA is done at
  // t = 2 (storing or waiting: not busy); the other has 1 iteration left, now at 1 us: t = 3.
  // Costs fixed at the loop's start would give 2 x 2 = 4.
  const Plan plan = two_unit_streamk();
  REQUIRE(plan.grid == 2);
  BusyModel model;
  SimOptions opt;
  opt.sms = 2;
  const SimResult r = simulate(plan, model, opt);
  CHECK_FALSE(r.deadlock);
  CHECK(r.makespan == doctest::Approx(3.0));
}

TEST_CASE("a MAC loop speeds up when the working set shrinks") {
  // Two 128x128 tiles (rows 0 and 1) of 5 k-tiles, Stream-K over 3 CTAs on 3 SMs (lastwave plan):
  // CTA 0 tile 0 k 0..4; CTA 1 tile 0 k 4..5, then tile 1 k 0..2; CTA 2 tile 1 k 2..5. Two rows
  // are in flight until t = 6 (2 us per iteration): CTA 1 ends its first piece at 2 and its
  // second at 6, with CTA 2's 3 iterations; row 1 then leaves. CTA 0 has done 3 of its 4
  // iterations and runs the last at 1 us: t = 7. Costs fixed at the loop's start would give 8.
  const Plan plan = plan_schedule("streamk:3", Problem{256, 128, 320}, TileShape{128, 128, 64},
                                  GpuShape{3, 1}, Reduction::Deterministic)
                        .plan;
  REQUIRE(plan.grid == 3);
  RowsModel model;
  SimOptions opt;
  opt.sms = 3;
  const SimResult r = simulate(plan, model, opt);
  CHECK_FALSE(r.deadlock);
  CHECK(r.makespan == doctest::Approx(7.0));
}

// The same plan on cluster slots: with cluster_size 2 the model sees physical SMs, twice the busy
// slots, so every iteration costs twice as much: 2 x 3 = 6.
TEST_CASE("a rated MAC loop on cluster slots is costed at physical busy SMs") {
  const Plan plan = two_unit_streamk();
  BusyModel model;
  SimOptions opt;
  opt.sms = 2;
  opt.cluster_size = 2;
  const SimResult r = simulate(plan, model, opt);
  CHECK_FALSE(r.deadlock);
  CHECK(r.makespan == doctest::Approx(6.0));
}

// `best`'s cut-off also stops at a rated MAC loop's end: the loop ending at t = 2 passes 1.5.
TEST_CASE("the cut-off stops a run at a rated MAC loop past it") {
  const Plan plan = two_unit_streamk();
  BusyModel model;
  SimOptions opt;
  opt.sms = 2;
  opt.cutoff = 1.5;
  const SimResult r = simulate(plan, model, opt);
  CHECK(r.cut_off);
  CHECK_FALSE(r.deadlock);
  CHECK(r.makespan == doctest::Approx(2.0));
}

}  // namespace lw

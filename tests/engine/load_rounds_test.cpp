// A model's per-round latency of a Final owner's slot loads (FixedCosts::load_round) is charged
// once per batch the kernels load at once (final_load_rounds): 8 slots of a 16x64 tile in one
// round, of a 128x128 tile in eight.
#include <doctest/doctest.h>

#include <string>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace {

constexpr double kRound = 5.0;  // the round latency under test

// A k-tile costs 1; every transfer, flag and launch is free; a load round costs `round`.
class RoundModel final : public lw::CostModel {
 public:
  explicit RoundModel(double round) : round_(round) {}
  double iter_time(const lw::Plan&, const lw::CostContext&) const override { return 1.0; }
  double transfer(lw::Transfer, const lw::Plan&, const lw::Segment&,
                  const lw::CostContext&) const override {
    return 0.0;
  }
  lw::FixedCosts fixed_costs(const lw::Plan&) const override {
    lw::FixedCosts f;
    f.load_round = round_;
    return f;
  }
  std::string time_unit() const override { return "iter"; }

 private:
  double round_;
};

// The makespan of one tile split `splits` ways (4 k-tiles each) on as many SMs, by `schedule`
// (splitk: slots through L2; splitk-dsm: in the owner's shared memory).
double makespan(const lw::TileShape& tile, int64_t splits, double round,
                const std::string& schedule = "splitk") {
  const lw::Problem p{tile.m, tile.n, tile.k * 4 * splits};
  const lw::Planned planned =
      lw::plan_schedule(schedule + ":" + std::to_string(splits), p, tile, lw::GpuShape{splits, 1},
                        lw::Reduction::Deterministic);
  lw::SimOptions opt;
  opt.sms = splits;
  return lw::simulate(planned.plan, RoundModel(round), opt).makespan;
}

}  // namespace

TEST_CASE("a Final owner pays one load round per batch of slots it loads at once") {
  struct Case {
    lw::TileShape tile;
    int64_t splits;
    double rounds;  // batches: 96 floats a thread hold the accumulator and the batch (256 owners)
  };
  const Case cases[] = {
      {{16, 64, 64}, 9, 1},    // 8 slots, 4 floats each: all 8 at once
      {{16, 64, 64}, 17, 2},   // 16 slots: two groups of 8 peers, one batch each
      {{64, 96, 64}, 9, 3},    // 24 floats: batches of 3 -> 3 + 3 + 2
      {{64, 128, 64}, 4, 2},   // 32 floats: batches of 2 -> 2 + 1
      {{128, 128, 64}, 9, 8},  // 64 floats: one slot a round
  };
  for (const Case& c : cases) {
    CAPTURE(c.tile.m);
    CAPTURE(c.tile.n);
    CAPTURE(c.splits);
    const double plain = makespan(c.tile, c.splits, 0.0);
    CHECK(plain == doctest::Approx(4.0));  // the MAC loops alone: every other cost is free
    CHECK(makespan(c.tile, c.splits, kRound) == doctest::Approx(plain + kRound * c.rounds));
  }
}

TEST_CASE("a Final owner whose peers' slots are in its shared memory pays no load round") {
  for (int64_t splits : {2, 4, 8}) {
    CAPTURE(splits);
    CHECK(makespan({16, 64, 64}, splits, kRound, "splitk-dsm") == doctest::Approx(4.0));
    CHECK(makespan({16, 64, 64}, splits, kRound) == doctest::Approx(4.0 + kRound));
  }
}

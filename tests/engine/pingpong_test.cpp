// Ping-pong CTAs in the simulator (CostNeeds::epilogue_overlap): a whole tile's epilogue runs
// beside the CTA's next MAC loop, each consumer waits for its own last epilogue, the CTA's
// epilogues run one at a time, and the CTA exits once the last has ended. Times worked out by
// hand below.
#include <doctest/doctest.h>

#include "models/cost_model.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

namespace {

constexpr double kIterUs = 1.0;      // one MAC iteration (k-tile)
constexpr double kEpilogueUs = 3.0;  // one tile's epilogue; every other action is free

// Fixed costs, the epilogue overlapped by `overlap` where the kernels run ping-pong; `rated`
// selects the simulator's processor-shared path (the iteration time does not depend on load, so
// both paths give the same times).
class PingpongModel final : public CostModel {
 public:
  PingpongModel(double overlap, bool rated) : overlap_(overlap), rated_(rated) {}
  CostNeeds needs(const Plan& p) const override {
    CostNeeds n;
    n.shared_rate = rated_;
    n.epilogue_overlap = plan_runs_pingpong(p) ? overlap_ : 0.0;
    return n;
  }
  double iter_time(const Plan&, const CostContext&) const override { return kIterUs; }
  double transfer(Transfer kind, const Plan&, const Segment&, const CostContext&) const override {
    return kind == Transfer::Epilogue ? kEpilogueUs : 0.0;
  }
  std::string time_unit() const override { return "us"; }

 private:
  double overlap_;
  bool rated_;
};

// `tiles` 128x128 tiles in a row, K = k_tiles x 64, on one SM.
Plan one_sm_plan(const char* schedule, int64_t tiles, int64_t k_tiles) {
  return plan_schedule(schedule, Problem{128 * tiles, 128, 64 * k_tiles}, TileShape{128, 128, 64},
                       GpuShape{1, 1}, Reduction::Deterministic)
      .plan;
}

double makespan(const Plan& p, double overlap, bool rated) {
  const PingpongModel model(overlap, rated);
  SimOptions opt;
  opt.sms = 1;
  const SimResult r = simulate(p, model, opt);
  CHECK_FALSE(r.deadlock);
  return r.makespan;
}

}  // namespace

TEST_CASE("a persistent CTA of three whole tiles runs its epilogues beside its loops") {
  const Plan p = one_sm_plan("dp-persistent", 3, 1);
  REQUIRE(p.grid == 1);
  REQUIRE(p.work_units == 3);
  REQUIRE(plan_runs_pingpong(p));
  const Plan two_k = one_sm_plan("dp-persistent", 3, 2);
  for (const bool rated : {false, true}) {
    CAPTURE(rated);
    // One after another: 3 x (1 + 3).
    CHECK(makespan(p, 0.0, rated) == doctest::Approx(12.0));
    // Whole overlap: tile 0 loops [0, 1] and writes [1, 4] (consumer 0); tile 1 loops [1, 2] at
    // once and writes after tile 0's epilogue, [4, 7] (consumer 1); tile 2 waits for consumer 0:
    // loops [4, 5], writes [7, 10]; the CTA exits at 10. The epilogues, in turn, set the pace.
    CHECK(makespan(p, 1.0, rated) == doctest::Approx(10.0));
    // Two k-tiles a tile, whole overlap: tile 0 [0, 2] + [2, 5]; tile 1 [2, 4] + [5, 8]; tile 2
    // (consumer 0 free at 5) [5, 7] + [8, 11].
    CHECK(makespan(two_k, 1.0, rated) == doctest::Approx(11.0));
    // Half: tile 1 starts after half of tile 0's epilogue, at 3.5, loops to 5.5 and writes
    // [5.5, 8.5]; tile 2 starts at max(5.5 + 1.5, 5) = 7, loops to 9 and writes [9, 12].
    CHECK(makespan(two_k, 0.5, rated) == doctest::Approx(12.0));
    CHECK(makespan(two_k, 0.0, rated) == doctest::Approx(15.0));
  }
}

TEST_CASE("long loops hide every epilogue but the last") {
  // Ten k-tiles per tile: tile 0 [0, 10] + [10, 13], tile 1 [10, 20] + [20, 23], tile 2 (consumer 0
  // free since 13) [20, 30] + [30, 33].
  const Plan p = one_sm_plan("dp-persistent", 3, 10);
  CHECK(makespan(p, 1.0, false) == doctest::Approx(33.0));
  CHECK(makespan(p, 1.0, true) == doctest::Approx(33.0));
  CHECK(makespan(p, 0.0, true) == doctest::Approx(39.0));
}

TEST_CASE("CTAs of one tile each do not overlap: the kernels run them cooperative") {
  // dp launches a CTA per tile; on one SM they run one after another, 3 x (1 + 3).
  const Plan p = one_sm_plan("dp", 3, 1);
  REQUIRE(p.grid == 3);
  REQUIRE_FALSE(plan_runs_pingpong(p));
  CHECK(makespan(p, 1.0, false) == doctest::Approx(12.0));
  CHECK(makespan(p, 1.0, true) == doctest::Approx(12.0));
}

TEST_CASE("the timeline shows each segment's own epilogue, the SM busy until the CTA exits") {
  const Plan p = one_sm_plan("dp-persistent", 3, 1);
  const PingpongModel model(1.0, true);
  SimOptions opt;
  opt.sms = 1;
  opt.record_timeline = true;
  const SimResult r = simulate(p, model, opt);
  REQUIRE(r.timeline.size() == 3);
  const double starts[] = {0, 1, 4}, mac_ends[] = {1, 2, 5}, ends[] = {4, 7, 10};
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(r.timeline[i].t_start == doctest::Approx(starts[i]));
    CHECK(r.timeline[i].t_mac_end == doctest::Approx(mac_ends[i]));
    CHECK(r.timeline[i].t_end == doctest::Approx(ends[i]));
  }
  REQUIRE(r.sm_stats.size() == 1);
  CHECK(r.sm_stats[0].busy == doctest::Approx(10.0));
  CHECK(r.sm_stats[0].idle == doctest::Approx(0.0));
  // The ideal counts the epilogues' exposed share only: 3 x (1 + 0) over one SM.
  CHECK(r.ideal == doctest::Approx(3.0));
}

TEST_CASE("an overlap outside [0, 1] is refused") {
  const Plan p = one_sm_plan("dp-persistent", 3, 1);
  const PingpongModel model(1.5, true);
  SimOptions opt;
  opt.sms = 1;
  CHECK_THROWS_WITH_AS(simulate(p, model, opt), doctest::Contains("epilogue overlap of 1.5"),
                       std::runtime_error);
}

}  // namespace lw

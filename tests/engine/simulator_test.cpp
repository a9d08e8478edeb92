// Simulator behaviour independent of the seed: waves emerge from dispatch, occupancy > 1 shares
// SMs, determinism, deadlock reports, per-SM accounting and the separate reduction launch.
#include "sim/gpu/simulator.hpp"

#include <doctest/doctest.h>

#include "models/registry.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace {

// Options for a run on `sms` SMs, one CTA each, no timeline.
lw::SimOptions sim_options(int64_t sms) {
  lw::SimOptions opt;
  opt.sms = sms;
  return opt;
}

lw::SimResult run(const std::string& schedule, lw::Problem problem, int64_t sms,
                  int64_t ctas_per_sm = 1, bool timeline = false) {
  static const lw::GpuSpec none;
  static const auto model = lw::make_model("unit", {}, none);
  const auto planned =
      lw::plan_schedule(schedule, problem, lw::TileShape{}, lw::GpuShape{sms, ctas_per_sm},
                        lw::Reduction::Deterministic);
  lw::SimOptions opt = sim_options(sms);
  opt.ctas_per_sm = ctas_per_sm;
  opt.record_timeline = timeline;
  return lw::simulate(planned.plan, *model, opt);
}

}  // namespace

TEST_CASE("data-parallel waves emerge from in-order dispatch to free slots") {
  // 5 tiles of 4 iterations (+2 epilogue) on 4 SMs: two waves of 6 -> 12 (the seed's toy GPU).
  const auto r = run("dp", {640, 128, 256}, 4);
  CHECK(r.makespan == 12.0);
  CHECK(r.ideal == doctest::Approx(5.0 * 6.0 / 4.0));
  // SM 0 runs tiles 0 and 4; SMs 1-3 idle for the second wave.
  CHECK(r.sm_stats[0].busy == 12.0);
  CHECK(r.sm_stats[1].busy == 6.0);
  CHECK(r.sm_stats[1].idle == 6.0);
  // Two CTAs per SM: all five tiles resident at once, one wave.
  CHECK(run("dp", {640, 128, 256}, 4, 2).makespan == 6.0);
}

TEST_CASE("paper Stream-K on the toy GPU: 20 iterations over 4 units of 5") {
  // Unit 0: tile 0 k0..4 whole (4+2 = 6), then tile 1 k0..1 as owner: MAC -> 7; unit 1 stored
  // k1..4 at 3+2 = 5, so no wait; load -> 9, epilogue -> 11. Unit 2 likewise ends at 11.
  const auto r = run("streamk", {640, 128, 256}, 4, 1, true);
  CHECK_FALSE(r.deadlock);
  CHECK(r.makespan == doctest::Approx(11.0));
  CHECK(r.sm_stats[0].wait == doctest::Approx(0.0));
  CHECK(r.sm_stats[0].busy == doctest::Approx(11.0));
}

TEST_CASE("runs are deterministic") {
  const auto a = run("cutlass", {3072, 2304, 4096}, 132, 1, true);
  const auto b = run("cutlass", {3072, 2304, 4096}, 132, 1, true);
  REQUIRE(a.timeline.size() == b.timeline.size());
  for (size_t i = 0; i < a.timeline.size(); ++i) {
    CHECK(a.timeline[i].cta == b.timeline[i].cta);
    CHECK(a.timeline[i].t_end == b.timeline[i].t_end);
  }
  CHECK(a.events == b.events);
}

TEST_CASE("a Stream-K grid larger than the resident CTAs deadlocks and names the cycle") {
  const auto r = run("streamk:3", {256, 128, 640}, 1);
  CHECK(r.deadlock);
  CHECK(r.deadlock_report.find("CTA 0") != std::string::npos);
  CHECK(r.deadlock_report.find("not resident") != std::string::npos);
  CHECK(r.deadlock_report.find("(cycle)") != std::string::npos);
  // With enough SMs the same plan finishes.
  CHECK_FALSE(run("streamk:3", {256, 128, 640}, 3).deadlock);
}

TEST_CASE("split-K with a separate reduction launch") {
  // 1 tile, 64 iterations, 4 splits of 16 on 4 SMs: all store at 16+2 = 18; the reduction CTA
  // loads 4 partials (8) and writes the tile (2): 28.
  const auto r = run("splitk-sep:4", {128, 128, 4096}, 4, 1, true);
  CHECK(r.makespan == doctest::Approx(28.0));
  int reduction_segments = 0;
  for (const auto& s : r.timeline) reduction_segments += s.launch == 1;
  CHECK(reduction_segments == 1);
}

// A Simulator keeps the results of its last few runs: the same plan, model and options give the
// kept result (the same as a fresh run's); any other input is simulated.
TEST_CASE("a run again with the same inputs gives the same result, other inputs run") {
  static const lw::GpuSpec none;
  const auto unit = lw::make_model("unit", {}, none);
  const auto other = lw::make_model("unit", {{"epilogue", 5.0}}, none);
  const lw::GpuShape gpu{4, 1};
  const auto plan = [&](const char* s) {
    return lw::plan_schedule(s, {640, 128, 256}, lw::TileShape{}, gpu, lw::Reduction::Deterministic)
        .plan;
  };
  const lw::Plan dp = plan("dp"), sk = plan("streamk");
  const lw::SimOptions opt = sim_options(4);
  lw::Simulator sim;
  const double dp_time = sim.run(dp, *unit, opt).makespan;
  const double sk_time = sim.run(sk, *unit, opt).makespan;
  CHECK(dp_time == lw::simulate(dp, *unit, opt).makespan);
  CHECK(sim.run(dp, *unit, opt).makespan == dp_time);  // kept
  CHECK(sim.run(sk, *unit, opt).makespan == sk_time);
  CHECK(sim.run(dp, *other, opt).makespan == lw::simulate(dp, *other, opt).makespan);
  CHECK(sim.run(dp, *other, opt).makespan > dp_time);  // another model: simulated
  lw::SimOptions cut = opt;
  cut.cutoff = dp_time / 2;
  CHECK(sim.run(dp, *unit, cut).cut_off);  // another cut-off: simulated
  CHECK_FALSE(sim.run(dp, *unit, opt).cut_off);
  lw::SimOptions fewer = opt;
  fewer.sms = 2;
  CHECK(sim.run(dp, *unit, fewer).makespan == lw::simulate(dp, *unit, fewer).makespan);
  CHECK(sim.run(dp, *unit, fewer).makespan != dp_time);
}

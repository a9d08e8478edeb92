// What each model asks the simulator to track (CostModel::needs), its fixed costs, its search
// bound, and what a model file's fitted scope (FitScope) makes the calibrated model refuse.
#include <doctest/doctest.h>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/planners.hpp"

namespace lw {

namespace {

Plan square_plan() {
  return plan_data_parallel(Problem{4096, 4096, 4096}, kDefaultTile, GpuShape{132, 1}, false).plan;
}

bool needs_nothing(const CostNeeds& n) {
  return !n.shared_rate && !n.working_set && !n.panel_lag && !n.sm_spread && !n.segment_stretch &&
         !n.clock && n.epilogue_overlap == 0;
}

}  // namespace

TEST_CASE("unit: no state to track, a flag latency, costs that grow with load") {
  const auto m = make_model("unit", {{"flag_latency", 3.0}}, GpuSpec{});
  const Plan p = square_plan();
  CHECK(needs_nothing(m->needs(p)));
  const FixedCosts f = m->fixed_costs(p);
  CHECK(f.flag_latency == 3.0);
  CHECK(f.cta_prologue == 0.0);
  CHECK(f.launch_overhead == 0.0);
  CHECK(m->load_bound(p, 1).costs_grow);
  // The iteration time is the same in every context: it is its own least, at any busy-SM count.
  const double iter = m->iter_time(p, CostContext{});
  CHECK(iter > 0.0);
  CHECK(m->load_bound(p, 1).least_iter_time == iter);
  CHECK(m->load_bound(p, 132).least_iter_time == iter);
  CHECK(m->transfer(Transfer::PartialAccumulate, p, Segment{}, CostContext{}) == 4.0);
}

TEST_CASE("calibrated: each fitted term turns on the state it reads, and only it") {
  const GpuSpec h200 = gpu_preset("h200");
  const Plan p = square_plan();
  const CostNeeds base = make_model("calibrated", {}, h200)->needs(p);
  CHECK(base.shared_rate);  // the declared defaults: every other term off
  CHECK_FALSE(base.working_set);
  CHECK_FALSE(base.panel_lag);
  CHECK_FALSE(base.sm_spread);
  CHECK_FALSE(base.clock);
  const CostNeeds ws = make_model("calibrated", {{"l2_reuse_mib", 50.0}}, h200)->needs(p);
  CHECK(ws.working_set);
  CHECK_FALSE(ws.panel_lag);
  const CostNeeds lag =
      make_model("calibrated", {{"l2_reuse_mib", 50.0}, {"reuse_lag_scale", 1.0}}, h200)->needs(p);
  CHECK(lag.panel_lag);
  CHECK(make_model("calibrated", {{"sm_speed_spread", 0.2}}, h200)->needs(p).sm_spread);
  CHECK(make_model("calibrated", {{"power_throttle", 0.4}}, h200)->needs(p).clock);
  CHECK(base.epilogue_overlap == 0);
  const auto m = make_model("calibrated", {{"flag_us", 0.5}, {"prologue_us", 2.0}}, h200);
  CHECK(m->fixed_costs(p).flag_latency == 0.5);
  CHECK(m->fixed_costs(p).cta_prologue == 2.0);
  const LoadBound b = m->load_bound(p, 1);
  CHECK(b.costs_grow);
  CHECK(b.least_iter_time > 0);
  CHECK(b.least_iter_time <= m->iter_time(p, CostContext{132, 1}));
}

TEST_CASE("a model file's fitted scope reaches the calibrated model at construction") {
  const GpuSpec h200 = gpu_preset("h200");
  ModelFile f;
  f.model = "calibrated";
  f.has_tile = true;
  f.tile = TileShape{128, 128, 32};
  f.clusters = {ClusterShape{1, 1}};
  const auto m = make_model_from_file(f, {}, h200);
  CHECK(m->config_error(TileShape{128, 128, 32}, ClusterShape{1, 1}).empty());
  CHECK(m->config_error(TileShape{128, 128, 64}, ClusterShape{1, 1}).find("k step 64") !=
        std::string::npos);
  CHECK(m->config_error(TileShape{128, 128, 32}, ClusterShape{2, 1}).find("fitted on clusters") !=
        std::string::npos);
  // Built by name, the model has the default scope: kDefaultTile, every kernel cluster.
  const auto plain = make_model("calibrated", {}, h200);
  CHECK(plain->config_error(kDefaultTile, ClusterShape{2, 1}).empty());
}

TEST_CASE("calibrated: the epilogue overlap reaches the plans the kernels run ping-pong") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto m = make_model("calibrated", {{"pingpong_overlap", 0.6}}, h200);
  const Problem big{4096, 4096, 4096};
  const GpuShape gpu{132, 1};
  // 1,024 tiles of 128x128 over 132 persistent CTAs: ping-pong.
  CHECK(m->needs(plan_data_parallel(big, kDefaultTile, gpu, true).plan).epilogue_overlap == 0.6);
  // One tile per CTA, a tile no warpgroup holds, a split region: cooperative.
  CHECK(m->needs(square_plan()).epilogue_overlap == 0);
  CHECK(m->needs(plan_data_parallel(big, {128, 256, 64}, gpu, true).plan).epilogue_overlap == 0);
  CHECK(
      m->needs(plan_stream_k(big, kDefaultTile, gpu, kOneUnitPerSm, Reduction::Deterministic).plan)
          .epilogue_overlap == 0);
}

}  // namespace lw

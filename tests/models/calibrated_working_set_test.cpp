// `calibrated` working-set term: a larger scattered operand working set makes each MAC iteration
// slower; with the term off (the default, old model files) costs equal the model without it.
#include <doctest/doctest.h>

#include "models/registry.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/gpu_spec.hpp"

namespace lw {

namespace {

constexpr int64_t kSms = 132;
constexpr int64_t kIters = 10;

Plan big_plan() {
  return plan_data_parallel(Problem{8192, 8192, 8192}, TileShape{}, GpuShape{kSms, 1}, false).plan;
}

Segment iterations(int64_t n) {
  Segment s;
  s.k_begin = 0;
  s.k_end = n;
  return s;
}

CostContext in_flight(int64_t rows, int64_t cols) { return CostContext{kSms, kSms, rows, cols}; }

}  // namespace

TEST_CASE("calibrated: working-set term off reproduces the model without it") {
  const GpuSpec h200 = gpu_preset("h200");
  const ParamValues p = resolve_params(find_model("calibrated"), {});
  CHECK(p.at("iter_ws_miss_per_busy_sm_us") == 0.0);
  const auto model = make_model("calibrated", {}, h200);
  CHECK_FALSE(model->uses_working_set());
  const Plan plan = big_plan();
  const Segment s = iterations(kIters);
  const double busy = static_cast<double>(kSms);
  const double miss = traffic::dram_fraction(plan, h200.l2_mib);
  const double old =
      p.at("segment_us") + static_cast<double>(kIters) *
                               (p.at("iter_us") + busy * (p.at("iter_per_busy_sm_us") +
                                                          miss * p.at("iter_miss_per_busy_sm_us")));
  CHECK(model->mac(plan, s, in_flight(0, 0)) == doctest::Approx(old));
  CHECK(model->mac(plan, s, in_flight(64, 64)) == doctest::Approx(old));
}

TEST_CASE("calibrated: a larger scattered working set makes iterations slower") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto model = make_model("calibrated", {{"iter_ws_miss_per_busy_sm_us", 0.01}}, h200);
  CHECK(model->uses_working_set());
  const Plan plan = big_plan();
  const Segment s = iterations(kIters);
  const double compact = model->mac(plan, s, in_flight(2, 66));  // a rasterised wave
  const double some = model->mac(plan, s, in_flight(16, 16));
  const double scattered = model->mac(plan, s, in_flight(64, 64));
  CHECK(some > compact);
  CHECK(scattered > some);
  // A compact block (busy tiles = rows x cols) needs no L2 residency: same as the term off.
  const auto off = make_model("calibrated", {}, h200);
  CHECK(model->mac(plan, s, in_flight(2, 66)) ==
        doctest::Approx(off->mac(plan, s, in_flight(2, 66))));
  // A bigger effective L2 holds more of it.
  const auto big_l2 = make_model(
      "calibrated", {{"iter_ws_miss_per_busy_sm_us", 0.01}, {"l2_effective_mib", 1000.0}}, h200);
  CHECK(big_l2->mac(plan, s, in_flight(64, 64)) < scattered);
  CHECK(traffic::capacity_miss(0.0, 50.0) == 0.0);
  CHECK(traffic::capacity_miss(50.0, 50.0) == doctest::Approx(0.5));
}

}  // namespace lw

// `roofline` sanity: compute-bound when few SMs stream, bandwidth-bound (and growing with busy
// SMs) when many do; the registry lists the models and rejects unknown parameters.
#include <doctest/doctest.h>

#include <stdexcept>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/util/atomic_file.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

namespace {

Plan big_plan() {
  return plan_data_parallel(Problem{8192, 8192, 8192}, TileShape{}, GpuShape{132, 1}, false).plan;
}

Segment iterations(int64_t n) {
  Segment s;
  s.k_begin = 0;
  s.k_end = n;
  return s;
}

}  // namespace

TEST_CASE("roofline: compute-bound alone, bandwidth-bound when every SM streams") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto model = make_model("roofline", {}, h200);
  const Plan p = big_plan();
  const Segment s = iterations(10);
  const double alone = mac_time(*model, p, s, CostContext{132, 1});
  const double two = mac_time(*model, p, s, CostContext{132, 2});
  const double most = mac_time(*model, p, s, CostContext{132, 100});
  const double full = mac_time(*model, p, s, CostContext{132, 132});
  CHECK(alone > 0);
  CHECK(two == doctest::Approx(alone));  // compute-bound: sharing bandwidth with one more is free
  CHECK(full > alone);                   // bandwidth-bound at full occupancy
  CHECK(full == doctest::Approx(most * 132.0 / 100.0));  // processor sharing: ~ busy SMs
  CHECK(model->transfer(Transfer::Epilogue, p, s, CostContext{132, 132}) >
        model->transfer(Transfer::Epilogue, p, s, CostContext{132, 1}));
  CHECK(model->time_unit() == "us");

  // With ample bandwidth the same GPU stays compute-bound at full occupancy.
  GpuSpec wide = h200;
  wide.dram_tb_per_s *= 100;
  wide.l2_tb_per_s *= 100;
  const auto wide_model = make_model("roofline", {}, wide);
  CHECK(mac_time(*wide_model, p, s, CostContext{132, 132}) == doctest::Approx(alone));
  // More tensor efficiency makes the compute-bound case faster, not the bandwidth-bound one.
  const auto fast = make_model("roofline", {{"tensor_efficiency", 1.0}}, h200);
  CHECK(mac_time(*fast, p, s, CostContext{132, 1}) < alone);
  CHECK(mac_time(*fast, p, s, CostContext{132, 132}) == doctest::Approx(full));
}

TEST_CASE("roofline works for every preset without measurements") {
  for (const auto& name : gpu_preset_names()) {
    const GpuSpec g = gpu_preset(name);
    const auto model = make_model("roofline", {}, g);
    const Plan p = big_plan();
    CHECK(mac_time(*model, p, iterations(1), CostContext{g.sms, g.sms}) > 0);
    CHECK(model->fixed_costs(p).cta_prologue > 0);
  }
}

TEST_CASE("registry: roofline and calibrated are registered; unknown parameters are errors") {
  CHECK(find_model("roofline").name == "roofline");
  CHECK(find_model("calibrated").name == "calibrated");
  for (const auto& info : model_registry()) {
    for (const auto& p : info.params) {
      CHECK(!p.unit.empty());
      CHECK(!p.doc.empty());
    }
  }
  const GpuSpec h200 = gpu_preset("h200");
  CHECK_THROWS_AS(make_model("roofline", {{"no_such_param", 1.0}}, h200), std::invalid_argument);
  CHECK_THROWS_AS(make_model("calibrated", {{"iter", 1.0}}, h200), std::invalid_argument);
  CHECK_THROWS_AS(make_model("nope", {}, h200), std::invalid_argument);

  const std::string dir = testing::temp_dir("registry_file");
  write_file_atomically(dir + "/bad.json",
                        R"({"model":"calibrated","params":{"mma_tflops_per_sm":1,"bogus":2}})");
  CHECK_THROWS_AS(make_model_from_file(dir + "/bad.json", {}, h200), std::invalid_argument);
  write_file_atomically(dir + "/good.json",
                        R"({"model":"calibrated","params":{"mma_tflops_per_sm":0.5}})");
  const auto m = make_model_from_file(dir + "/good.json", {}, h200);
  CHECK(mac_time(*m, big_plan(), iterations(1), CostContext{132, 1}) > 2.0);
}

}  // namespace lw

// `calibrated` hot-line term: per MAC iteration, hot_line_us x busy SMs / the tile's rows inside
// the problem. Off (the default, old model files) it changes nothing; on, a skinny M is slower.
#include <doctest/doctest.h>

#include "models/registry.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/gpu_spec.hpp"

namespace lw {

namespace {

constexpr int64_t kSms = 132;
constexpr int64_t kIters = 10;
constexpr double kHotLineUs = 0.002;

Plan dp_plan(int64_t m) {
  return plan_data_parallel(Problem{m, 14336, 16384}, TileShape{}, GpuShape{kSms, 1}, false).plan;
}

Segment iterations(int64_t tile, int64_t n) {
  Segment s;
  s.tile = tile;
  s.k_begin = 0;
  s.k_end = n;
  return s;
}

const CostContext kAllBusy{kSms, kSms, 0, 0};

}  // namespace

TEST_CASE("calibrated: valid tile rows") {
  CHECK(traffic::valid_tile_rows(dp_plan(1), 0) == 1);
  CHECK(traffic::valid_tile_rows(dp_plan(128), 0) == 128);
  const Plan p = dp_plan(200);  // two tile rows: 128 and 72 valid rows
  int64_t rows72 = 0;
  for (int64_t t = 0; t < p.tiles; ++t) rows72 += traffic::valid_tile_rows(p, t) == 72 ? 1 : 0;
  CHECK(rows72 == p.tiles_n);
}

TEST_CASE("calibrated: hot-line term off changes nothing") {
  const GpuSpec h200 = gpu_preset("h200");
  CHECK(resolve_params(find_model("calibrated"), {}).at("hot_line_us") == 0.0);
  const auto off = make_model("calibrated", {}, h200);
  const auto zero = make_model("calibrated", {{"hot_line_us", 0.0}}, h200);
  for (int64_t m : {1, 16, 128}) {
    const Plan p = dp_plan(m);
    CHECK(off->mac(p, iterations(0, kIters), kAllBusy) ==
          zero->mac(p, iterations(0, kIters), kAllBusy));
  }
}

TEST_CASE("calibrated: hot-line term adds hot_line_us x busy SMs / valid rows per iteration") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto off = make_model("calibrated", {}, h200);
  const auto on = make_model("calibrated", {{"hot_line_us", kHotLineUs}}, h200);
  const double busy = static_cast<double>(kSms);
  for (int64_t m : {1, 16, 64, 128}) {
    const Plan p = dp_plan(m);
    const Segment s = iterations(0, kIters);
    const double added = on->mac(p, s, kAllBusy) - off->mac(p, s, kAllBusy);
    CHECK(added == doctest::Approx(static_cast<double>(kIters) * kHotLineUs * busy /
                                   static_cast<double>(m)));
  }
  const Segment s = iterations(0, kIters);
  CHECK(on->mac(dp_plan(1), s, kAllBusy) > on->mac(dp_plan(16), s, kAllBusy));
  CHECK(on->mac(dp_plan(16), s, kAllBusy) > on->mac(dp_plan(128), s, kAllBusy));
}

}  // namespace lw

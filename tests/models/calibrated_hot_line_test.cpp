// `calibrated` hot-line term: per MAC iteration, hot_line_us x busy SMs / the tile's rows inside
// the problem. Off (the default, old model files) it changes nothing; on, a skinny M is slower.
// Expected values are worked out by hand from the plan geometry, not by the model's formula.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "models/registry.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/gpu_spec.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

namespace {

constexpr int64_t kSms = 132;
constexpr int64_t kIters = 10;
constexpr double kHotLineUs = 0.002;
constexpr double kRelTolerance = 1e-9;

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

TEST_CASE("calibrated: with the term off a tile's valid rows do not matter; on, they do") {
  // 200 rows: tile row 0 has 128 valid rows, tile row 1 has 72; same plan, same miss fraction.
  const Plan p = dp_plan(200);
  const Segment full = iterations(0, kIters);
  // More tile columns than rows: the raster runs along M, so tile 1 is the first of tile row 1.
  const Segment ragged = iterations(1, kIters);
  REQUIRE(traffic::valid_tile_rows(p, ragged.tile) == 72);
  const GpuSpec h200 = gpu_preset("h200");
  const auto off = make_model("calibrated", {}, h200);
  CHECK(off->mac(p, full, kAllBusy) == off->mac(p, ragged, kAllBusy));
  // On: 10 iterations x 132 busy SMs x 0.002 us x (1/72 - 1/128) = 0.01604166... us more.
  const auto on = make_model("calibrated", {{"hot_line_us", kHotLineUs}}, h200);
  CHECK(on->mac(p, ragged, kAllBusy) - on->mac(p, full, kAllBusy) ==
        doctest::Approx(0.0160416667).epsilon(kRelTolerance));
}

TEST_CASE("calibrated: hot-line term adds hot_line_us x busy SMs / valid rows per iteration") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto off = make_model("calibrated", {}, h200);
  const auto on = make_model("calibrated", {{"hot_line_us", kHotLineUs}}, h200);
  // 10 iterations x 132 busy SMs x 0.002 us = 2.64 us, over the tile's valid rows (= m here).
  const std::vector<std::pair<int64_t, double>> expected = {
      {1, 2.64}, {16, 0.165}, {64, 0.04125}, {128, 0.020625}};
  for (const auto& [m, added_us] : expected) {
    CAPTURE(m);
    const Plan p = dp_plan(m);
    const Segment s = iterations(0, kIters);
    CHECK(on->mac(p, s, kAllBusy) - off->mac(p, s, kAllBusy) ==
          doctest::Approx(added_us).epsilon(kRelTolerance));
  }
}

TEST_CASE("calibrated: hot-line term end to end, one wave of a skinny GEMM") {
  // m x 14336 x 16384 with 128x128x64 tiles: 112 tiles (one tile row) of 256 iterations, one wave
  // on 132 SMs, all 112 CTAs busy together. Only the MAC loops change: the makespan grows by
  // 256 iterations x 112 busy SMs x 0.002 us / valid rows.
  const GpuSpec h200 = gpu_preset("h200");
  const auto off = make_model("calibrated", {}, h200);
  const auto on = make_model("calibrated", {{"hot_line_us", kHotLineUs}}, h200);
  const SimOptions opt{kSms, 1, false};
  for (const auto& [m, added_us] : {std::pair<int64_t, double>{1, 57.344}, {72, 0.7964444444}}) {
    CAPTURE(m);
    const Plan p = dp_plan(m);
    REQUIRE(p.tiles == 112);
    REQUIRE(p.k_tiles == 256);
    CHECK(simulate(p, *on, opt).makespan - simulate(p, *off, opt).makespan ==
          doctest::Approx(added_us).epsilon(kRelTolerance));
  }
}

}  // namespace lw

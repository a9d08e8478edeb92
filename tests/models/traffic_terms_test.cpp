// The r4 terms of the `calibrated` model against hand-derived figures: DRAM bytes by the working
// set in flight (in step vs scattered), out-of-bounds box rows, shared-memory operand reads per
// k-tile of the wgmma kernel, and the model's pipes that read them.
#include <doctest/doctest.h>

#include "models/calibrated/calibrated_model.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/gpu_spec.hpp"

namespace lw {

namespace {

constexpr TileShape kSquare{128, 128, 64};
constexpr double kOff = 1e15;  // a pipe rate so high it costs nothing

Plan dp_plan(const Problem& p, const TileShape& t, const ClusterShape& c = ClusterShape{1, 1}) {
  return plan_schedule("dp", p, t, GpuShape{132, 1}, Reduction::Deterministic, c).plan;
}

}  // namespace

TEST_CASE("DRAM share by working set: a wave in step vs Stream-K's scattered CTAs") {
  // 1024x7168x16384, 128x128: 8 x 56 tiles of 256 k-tiles. A+B = 8192 x 16384 x 2 B = 256 MiB,
  // loaded 448 x 256 x 32 KiB: compulsory share 1/14 = 0.0714; footprint / 50 MiB = 5.12, miss
  // 5.12^4 / (1 + 5.12^4) = 0.99855.
  const Plan p = dp_plan(Problem{1024, 7168, 16384}, kSquare);
  CHECK(traffic::compulsory_fraction(p) == doctest::Approx(1.0 / 14.0));
  // A dp wave: 132 CTAs on 8 rows x 17 columns (136 tiles: scatter 1 - 132/136, its 100 MiB
  // panel set x 0.029 = 2.9 MiB misses 1e-5). In step: (8 + 17) x 128 rows over 132 x 256 loaded =
  // 0.0947; base = 0.0714 + (0.0947 - 0.0714) x 0.99855 = 0.0947. ncu (H200, this stop's probe):
  // 383 MB of DRAM reads over 3.76 GB loaded = 0.102.
  CHECK(traffic::working_set_dram_fraction(p, 132, 8, 17, 50) ==
        doctest::Approx(0.09468).epsilon(1e-3));
  // Stream-K: 132 CTAs over all 8 x 56 tiles: in step (8 + 56) x 128 / (132 x 256) = 0.2424, base
  // 0.2422; scatter 1 - 132/448 = 0.7054 of the 256 MiB panel set = 180.6 MiB, miss 0.99416:
  // 0.2422 + 0.7578 x 0.99416 = 0.9956 (ncu: 2.82 GB / 3.76 GB = 0.75).
  CHECK(traffic::working_set_dram_fraction(p, 132, 8, 56, 50) ==
        doctest::Approx(0.9956).epsilon(1e-3));
  // Operands that fit in L2 are fetched once whatever the working set: 512x512x512 (1 MiB).
  const Plan small = dp_plan(Problem{512, 512, 512}, kSquare);
  CHECK(traffic::working_set_dram_fraction(small, 16, 4, 4, 50) ==
        doctest::Approx(traffic::compulsory_fraction(small)).epsilon(1e-6));
}

TEST_CASE("out-of-bounds rows of the boxes, per CTA, shared as the cluster shares rows") {
  // M = 1: the one tile row loads 127 rows past M; N = 10240 is a multiple of 128.
  CHECK(traffic::cta_oob_rows(dp_plan(Problem{1, 10240, 8192}, kSquare)) == 127.0);
  // 2x1 cluster: 256 A rows per cluster tile, 255 past M over 2 CTAs; B has none.
  CHECK(traffic::cta_oob_rows(dp_plan(Problem{1, 10240, 8192}, kSquare, ClusterShape{2, 1})) ==
        127.5);
  // M = 200, N = 300: A 56 past M over 2 tile rows (28 each), B 84 past N over 3 tile columns.
  CHECK(traffic::cta_oob_rows(dp_plan(Problem{200, 300, 64}, kSquare)) == 28.0 + 28.0);
  CHECK(traffic::cta_oob_rows(dp_plan(Problem{256, 256, 64}, kSquare)) == 0.0);
}

TEST_CASE("shared-memory operand reads per k-tile follow the consumers' split") {
  // 128x128: 2 consumers x 64 rows, each reads A 64 x 64 and B 128 x 64 (bf16): 2 x 192 x 128 B.
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{128, 128, 64}) == 49152.0);
  // 64x128: the consumers split the columns: 2 x (64 + 64) x 128 B, twice 128x128's per FLOP.
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{64, 128, 64}) == 32768.0);
  // 256x128: 2 consumers x two 64-row blocks x (64 + 128) x 128 B; 128x256: 2 x (64 + 256) x 128.
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{256, 128, 64}) == 98304.0);
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{128, 256, 64}) == 81920.0);
}

TEST_CASE("the out-of-bounds and shared-memory pipes and the cluster k-tile cost") {
  const GpuSpec h200 = gpu_preset("h200");
  const ParamValues off{
      {"mma_tflops_per_sm", kOff}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff}};
  // 80 busy SMs x 127 rows / 1000 rows/us = 10.16 us.
  ParamValues oob = off;
  oob["oob_rows_per_us"] = 1000.0;
  const Plan m1 = dp_plan(Problem{1, 10240, 8192}, kSquare);
  CHECK(make_model("calibrated", oob, h200)->iter_time(m1, CostContext{132, 80}) ==
        doctest::Approx(10.16).epsilon(1e-6));
  // 49152 B at 100 GB/s = 0.49152 us, whatever the busy SMs.
  ParamValues smem = off;
  smem["smem_gb_per_s"] = 100.0;
  const Plan sq = dp_plan(Problem{4096, 4096, 4096}, kSquare);
  CHECK(make_model("calibrated", smem, h200)->iter_time(sq, CostContext{132, 132}) ==
        doctest::Approx(0.49152).epsilon(1e-6));
  // 0.25 us per k-tile in a 2x1 cluster, nothing in 1x1.
  ParamValues cluster = off;
  cluster["cluster_ktile_us"] = 0.25;
  const auto m = make_model("calibrated", cluster, h200);
  const Plan sq21 = dp_plan(Problem{4096, 4096, 4096}, kSquare, ClusterShape{2, 1});
  CHECK(m->iter_time(sq21, CostContext{132, 132}) == doctest::Approx(0.25).epsilon(1e-6));
  CHECK(m->iter_time(sq, CostContext{132, 132}) < 1e-6);
}

}  // namespace lw

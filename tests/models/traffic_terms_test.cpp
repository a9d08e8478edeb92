// The r4 and r5 terms of the `calibrated` model against hand-derived figures: DRAM bytes by the
// working set in flight (in step vs scattered) and by Stream-K's panel reuse gaps, out-of-bounds
// box rows, shared-memory operand reads per k-tile of the wgmma kernel, the kernel's stage ring
// and load latency, and the model's pipes that read them.
#include <doctest/doctest.h>

#include <utility>

#include "gpu/gpu_spec.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "models/panel_lag.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

namespace {

constexpr TileShape kSquare{128, 128, 64};
constexpr double kOff = 1e15;  // a pipe rate so high it costs nothing

Plan dp_plan(const Problem& p, const TileShape& t, const ClusterShape& c = ClusterShape{1, 1}) {
  return plan_schedule("dp", p, t, GpuShape{132, 1}, Reduction::Deterministic, c).plan;
}

// 128x128x64 k-tiles at 1 us each (2 x 128 x 128 x 64 FLOPs at 2.097152 TFLOP/s), every other
// cost 0: the base of the hand-derived simulations below.
ParamValues ktiles_only() {
  return {{"mma_tflops_per_sm", 2.097152},
          {"l2_lines_per_us", kOff},
          {"dram_gb_per_s", kOff},
          {"epilogue_us", 0.0},
          {"store_us", 0.0},
          {"load_us", 0.0},
          {"accumulate_us", 0.0},
          {"flag_us", 0.0},
          {"prologue_us", 0.0},
          {"launch_us", 0.0}};
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

TEST_CASE("wave reuse: the next wave finds a panel slice in L2 if one wave's panels fit") {
  // 1024x7168x16384, 128x128, a wave on 8 rows x 17 columns: (8 + 17) x 128 rows x 16384 x 2 B =
  // 100 MiB of full-K panels; A+B = 256 MiB. Scale 0 keeps the footprint, a scale multiplies.
  const Plan p = dp_plan(Problem{1024, 7168, 16384}, kSquare);
  const double wave = traffic::working_set_mib(p, 8, 17);
  CHECK(wave == doctest::Approx(100.0));
  CHECK(traffic::in_step_reuse_mib(p, wave, 0.0) == doctest::Approx(256.0));
  CHECK(traffic::in_step_reuse_mib(p, wave, 1.0) == doctest::Approx(100.0));
  CHECK(traffic::in_step_reuse_mib(p, wave, 0.5) == doctest::Approx(50.0));
  CHECK(traffic::in_step_reuse_mib(p, wave, 4.0) == doctest::Approx(256.0));  // at most A+B
  // 65536x8192x512: A+B 72 MiB, a wave on 3 rows x 64 columns loads (3 + 64) x 128 x 512 x 2 B =
  // 8.375 MiB. Compulsory 75.5 MB / 8.59 GB loaded = 0.008789; in step 8576 / (132 x 256) =
  // 0.25379. Footprint rule: miss (72 / 50)^4 / (1 + (72 / 50)^4) = 0.8112, share 0.2076. Wave
  // rule: miss 0.000786, share 0.008989 (the scattered 31 % of the 3 x 64 block misses 8e-6).
  const Plan wide = dp_plan(Problem{65536, 8192, 512}, kSquare);
  CHECK(traffic::working_set_dram_fraction(wide, 132, 3, 64, 50) ==
        doctest::Approx(0.20757).epsilon(1e-3));
  CHECK(traffic::working_set_dram_fraction(wide, 132, 3, 64, 50, 1.0) ==
        doctest::Approx(0.008989).epsilon(1e-3));
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
  // 64x64 and narrower: the consumers alternate k-tiles, one reads (64 + 64) x 128 B per k-tile
  // (split by columns it would be 2 x (64 + 32) x 128 B). Swapped 16x64 (the frame 64x16) keeps
  // the split: 2 x (64 + 8) x 128 B.
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{64, 64, 64}) == 16384.0);
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{64, 32, 64}) == 12288.0);
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{16, 64, 64}) == 18432.0);
  // 64x96 still splits the columns: 2 x (64 + 48) x 128 B.
  CHECK(traffic::wgmma_smem_bytes_per_iter(TileShape{64, 96, 64}) == 28672.0);
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

TEST_CASE("DRAM share by Stream-K's panel reuse gaps") {
  // tests/decomp/panel_lag_test.cpp's plan: 128x640x512 on 4 SMs, A gaps all 2 k-tiles, B never
  // shared. A+B = (128 + 640) x 512 x 2 B = 0.75 MiB. 4 busy CTAs x 32 KiB x 2 k-tiles = 0.25 MiB
  // between two fetches of an A slice: at an L2 of 0.25 MiB, miss 1 / (1 + 1) = 0.5; B all first
  // fetches: 1. A and B 128 rows each: (0.5 + 1) / 2 = 0.75.
  const Plan p = plan_schedule("streamk", Problem{128, 640, 512}, kSquare, GpuShape{4, 1},
                               Reduction::Deterministic)
                     .plan;
  PanelLagScratch scratch;
  const PanelLag lag = panel_lag(p, scratch);
  CHECK(traffic::gap_dram_fraction(p, 4, lag, 1.0, 0.25) == doctest::Approx(0.75));
  // Scale 2: 0.5 MiB between fetches, (0.5 / 0.25)^4 = 16: miss 16 / 17.
  CHECK(traffic::gap_dram_fraction(p, 4, lag, 2.0, 0.25) ==
        doctest::Approx((16.0 / 17.0 + 1.0) / 2.0));
  // Capped at the footprint: an L2 of 0.75 MiB keeps an A slice whatever the gap (miss 1/2 at
  // the cap, 0.75 MiB = L2), never worse.
  CHECK(traffic::gap_dram_fraction(p, 4, lag, 1e6, 0.75) == doctest::Approx(0.75));
  // Scale 0: the model prices the plan by the working-set rule, as before the term, gaps or not.
  const ParamValues ws{{"mma_tflops_per_sm", kOff},
                       {"l2_lines_per_us", kOff},
                       {"dram_gb_per_s", 1.0},
                       {"l2_reuse_mib", 0.25},
                       {"reuse_lag_scale", 0.0}};
  const auto m = make_model("calibrated", ws, gpu_preset("h200"));
  CHECK(m->iter_time(p, CostContext{4, 4, 1, 5, &lag}) ==
        doctest::Approx(m->iter_time(p, CostContext{4, 4, 1, 5})));
  CHECK(m->iter_time(p, CostContext{4, 4, 1, 5}) ==
        doctest::Approx(4 * 32768 * traffic::working_set_dram_fraction(p, 4, 1, 5, 0.25) / 1e3)
            .epsilon(1e-6));
}

TEST_CASE("the simulator hands the plan's reuse gaps to the model") {
  // The plan above with only the DRAM pipe and no fixed costs: the 4 CTAs run 10 k-tiles each in
  // step (no fixup waits: every partial is stored before its owner needs it). A k-tile moves
  // 4 x 32 KiB x 0.75 = 98304 B at 0.098304 GB/s: 1000 us; the makespan is 10 of them.
  ParamValues v{{"mma_tflops_per_sm", kOff}, {"l2_lines_per_us", kOff},
                {"dram_gb_per_s", 0.098304}, {"l2_reuse_mib", 0.25},
                {"reuse_lag_scale", 1.0},    {"epilogue_us", 0.0},
                {"store_us", 0.0},           {"load_us", 0.0},
                {"accumulate_us", 0.0},      {"flag_us", 0.0},
                {"prologue_us", 0.0},        {"launch_us", 0.0}};
  GpuSpec four = gpu_preset("h200");
  four.sms = 4;
  const auto m = make_model("calibrated", v, four);
  const Plan p = plan_schedule("streamk", Problem{128, 640, 512}, kSquare, GpuShape{4, 1},
                               Reduction::Deterministic)
                     .plan;
  SimOptions o;
  o.sms = 4;
  Simulator sim;
  CHECK(sim.run(p, *m, o).makespan == doctest::Approx(10000.0).epsilon(1e-6));
  // The gap rule's own capacity (reuse_lag_l2_mib) replaces l2_reuse_mib for it: the same
  // 0.25 MiB gives the same makespan whatever l2_reuse_mib is; at 1000 MiB the A slices survive
  // their gaps (miss (0.25 / 1000)^4 ~ 0), only B's first fetches come from DRAM: share 1/2
  // instead of 3/4, 4 x 32 KiB x 0.5 = 65536 B a k-tile: 666.7 us, 10 of them.
  v["l2_reuse_mib"] = 1000.0;
  v["reuse_lag_l2_mib"] = 0.25;
  CHECK(sim.run(p, *make_model("calibrated", v, four), o).makespan ==
        doctest::Approx(10000.0).epsilon(1e-6));
  v["l2_reuse_mib"] = 0.25;
  v["reuse_lag_l2_mib"] = 1000.0;
  CHECK(sim.run(p, *make_model("calibrated", v, four), o).makespan ==
        doctest::Approx(10000.0 * 0.5 / 0.75).epsilon(1e-6));
}

TEST_CASE("SM speed spread: dispatch balances the waves, the slowest SM ends them") {
  // 256x256x640 on 2 SMs, dp: 4 tiles of 10 k-tiles at 1 us each (2 x 128 x 128 x 64 FLOPs at
  // 2.097152 TFLOP/s), no other cost. Spread 1: SM 0 is in speed class floor(8 x 0) = 0 (1x),
  // SM 1 in class floor(8 x 0.618) = 4 (1 + 4/7 = 1.571x). SM 0: tiles 0 and 2 over [0, 20];
  // SM 1: tile 1 over [0, 15.71], then tile 3 (the next CTA waits for a free SM) until 31.43.
  ParamValues v = ktiles_only();
  v["sm_speed_spread"] = 1.0;
  GpuSpec two = gpu_preset("h200");
  two.sms = 2;
  const Plan p =
      plan_schedule("dp", Problem{256, 256, 640}, kSquare, GpuShape{2, 1}, Reduction::Deterministic)
          .plan;
  SimOptions o;
  o.sms = 2;
  Simulator sim;
  CHECK(sim.run(p, *make_model("calibrated", v, two), o).makespan ==
        doctest::Approx(2 * 10.0 * (1.0 + 4.0 / 7.0)).epsilon(1e-6));
  // The spread scales with the busy share at the loop's start: 2 tiles on 4 SMs run on SMs 0
  // and 1 with half the SMs busy, SM 1 at 1 + 0.5 x 4/7 = 1.286x.
  GpuSpec four = two;
  four.sms = 4;
  o.sms = 4;
  const Plan p2 =
      plan_schedule("dp", Problem{128, 256, 640}, kSquare, GpuShape{4, 1}, Reduction::Deterministic)
          .plan;
  CHECK(sim.run(p2, *make_model("calibrated", v, four), o).makespan ==
        doctest::Approx(10.0 * (1.0 + 0.5 * 4.0 / 7.0)).epsilon(1e-6));
  // A 2-SM partition of the 132-SM chip (the other 130 idle): the spread scales by 2/132 too, so
  // SM 1 runs at 1 + 4/7 x 2/132 and ends the second wave.
  const GpuSpec chip = gpu_preset("h200");
  const GpuSpec partition = gpu_with_sms(2, &chip);
  CHECK(partition.chip_sms == 132);
  o.sms = 2;
  CHECK(sim.run(p, *make_model("calibrated", v, partition), o).makespan ==
        doctest::Approx(2 * 10.0 * (1.0 + 4.0 / 7.0 * 2.0 / 132.0)).epsilon(1e-6));
  // A 2x1 cluster plan on the whole 4-SM chip: 2 cluster slots of 2 SMs, the whole chip in use, so
  // the full spread (not halved by counting slots as SMs): 2 cluster tiles of 10 k-tiles, slot 1
  // in class 4 ends at 10 x (1 + 4/7).
  const Plan clustered = plan_schedule("dp", Problem{256, 256, 640}, kSquare, GpuShape{4, 1},
                                       Reduction::Deterministic, ClusterShape{2, 1})
                             .plan;
  SimOptions slots;
  slots.sms = 2;
  slots.cluster_size = 2;
  CHECK(sim.run(clustered, *make_model("calibrated", v, four), slots).makespan ==
        doctest::Approx(10.0 * (1.0 + 4.0 / 7.0)).epsilon(1e-6));
  v["sm_speed_spread"] = 0.0;  // off: two waves of 10 us
  o.sms = 2;
  CHECK(sim.run(p, *make_model("calibrated", v, two), o).makespan ==
        doctest::Approx(20.0).epsilon(1e-6));
}

TEST_CASE("the wgmma kernel's stage ring and the load-latency pipe") {
  // Shared memory for stages: 232448 - 1024 (alignment) - 272 (34 mbarriers) - 8 warps x one
  // 16x64 bf16 box (16384) = 214768 B. 64x128: 24 KiB a stage, 8.7 -> 8; 128x128: 32 KiB, 6.5 ->
  // 6; 64x256 and 128x192: 40 KiB, 5.2 -> 5; 256x128: 48 KiB, 4.3 -> 4.
  CHECK(wgmma_stages(TileShape{64, 128, 64}) == 8);
  CHECK(wgmma_stages(TileShape{128, 128, 64}) == 6);
  CHECK(wgmma_stages(TileShape{64, 256, 64}) == 5);
  CHECK(wgmma_stages(TileShape{128, 192, 64}) == 5);
  CHECK(wgmma_stages(TileShape{256, 128, 64}) == 4);
  // The narrow tiles up to the cap of 16: 64x16 and 16x64 10 KiB a stage (21 fit), 64x64 16 KiB
  // (13.1 -> 13, and its alternating consumers take an even ring: 12), 48x64 (swapped, no
  // alternation) 14 KiB (14.98 -> 14), 16x128 18 KiB (11.7 -> 11), 64x96 20 KiB (10.5 -> 10); the
  // splitk-dsm form at most 8.
  CHECK(wgmma_stages(TileShape{64, 16, 64}) == 16);
  CHECK(wgmma_stages(TileShape{16, 64, 64}) == 16);
  CHECK(wgmma_stages(TileShape{64, 64, 64}) == 12);
  CHECK(wgmma_stages(TileShape{48, 64, 64}) == 14);
  CHECK(wgmma_stages(TileShape{16, 128, 64}) == 11);
  CHECK(wgmma_stages(TileShape{64, 96, 64}) == 10);
  CHECK(wgmma_stages(TileShape{64, 64, 64}, /*cluster_reduce=*/true) == 8);
  CHECK(wgmma_stages(TileShape{16, 64, 64}, /*cluster_reduce=*/true) == 8);
  // A second store box per warp where the ring leaves 198384 B (two boxes: 32768): 64x16's 16
  // stages take 163840 (two), 64x64's 12 take 196608 (two), 16x128's 11 take 202752 (one), 64x64's
  // splitk-dsm form's 8 131072 (two).
  CHECK(wgmma_epilogue_buffers(TileShape{64, 16, 64}) == 2);
  CHECK(wgmma_epilogue_buffers(TileShape{64, 64, 64}) == 2);
  CHECK(wgmma_epilogue_buffers(TileShape{16, 128, 64}) == 1);
  CHECK(wgmma_epilogue_buffers(TileShape{64, 64, 64}, true) == 2);
  // 1024 + 16 x 10240 + 272 + 32768; 1024 + 8 x 16384 + 272 + 32768.
  CHECK(wgmma_smem_bytes(TileShape{64, 16, 64}) == 197904);
  CHECK(wgmma_smem_bytes(TileShape{64, 64, 64}, true) == 165136);
  // 1.2 us of latency over the ring: 0.15 us a k-tile at 8 stages, 0.2 at 6, 0.3 at 4.
  ParamValues latency{{"mma_tflops_per_sm", kOff},
                      {"l2_lines_per_us", kOff},
                      {"dram_gb_per_s", kOff},
                      {"load_latency_us", 1.2}};
  const auto m = make_model("calibrated", latency, gpu_preset("h200"));
  const Problem big{4096, 4096, 4096};
  CHECK(m->iter_time(dp_plan(big, TileShape{64, 128, 64}), CostContext{132, 132}) ==
        doctest::Approx(0.15).epsilon(1e-6));
  CHECK(m->iter_time(dp_plan(big, kSquare), CostContext{132, 1}) ==
        doctest::Approx(0.2).epsilon(1e-6));
  CHECK(m->iter_time(dp_plan(big, TileShape{256, 128, 64}), CostContext{132, 132}) ==
        doctest::Approx(0.3).epsilon(1e-6));
}

TEST_CASE("a cluster's segment cost: once per segment, with the action that ends it") {
  // 768x128x640 on a 2-SM chip: 2x1 cluster tiles of 256x128 (3 of them), 10 k-tiles at 1 us
  // (2 x 128 x 128 x 64 FLOPs at 2.097152 TFLOP/s), nothing else but 0.5 us per segment in a
  // cluster. One cluster slot: dp runs 3 segments one after another, 3 x (10 + 0.5) = 31.5 us;
  // split-K 2 runs 6 segments of 5 k-tiles (3 stores, 3 loads + epilogues), 6 x (5 + 0.5) = 33.
  ParamValues v = ktiles_only();
  v["cluster_segment_us"] = 0.5;
  GpuSpec two = gpu_preset("h200");
  two.sms = 2;
  const auto model = make_model("calibrated", v, two);
  const Problem problem{768, 128, 640};
  SimOptions slots;
  slots.sms = 1;
  slots.cluster_size = 2;
  Simulator sim;
  for (const auto& [schedule, makespan] : {std::pair{"dp", 31.5}, std::pair{"splitk:2", 33.0}}) {
    CAPTURE(schedule);
    const Plan p = plan_schedule(schedule, problem, kSquare, GpuShape{2, 1},
                                 Reduction::Deterministic, ClusterShape{2, 1})
                       .plan;
    CHECK(sim.run(p, *model, slots).makespan == doctest::Approx(makespan).epsilon(1e-6));
  }
  // No cluster, no segment cost: 6 tiles of 128x128 on 2 SMs, 3 waves of 10 us.
  const Plan single =
      plan_schedule("dp", problem, kSquare, GpuShape{2, 1}, Reduction::Deterministic).plan;
  SimOptions o;
  o.sms = 2;
  CHECK(sim.run(single, *model, o).makespan == doctest::Approx(30.0).epsilon(1e-6));
}

TEST_CASE("splitk-dsm's partials cost dsm_partial_saving less than through L2") {
  // 128x128x640 split 2 ways on 2 SMs: 5 k-tiles of 1 us per split; a partial's store 3 us and
  // load 1 us (tile I/O off). Through L2 (splitk:2, or splitk-dsm with the term off) the peer
  // stores by 5 + 3 = 8 and the owner loads after it: 9. Half saved: 5 + 1.5, then 0.5: 7.
  const Problem problem{128, 128, 640};
  GpuSpec two = gpu_preset("h200");
  two.sms = 2;
  SimOptions o;
  o.sms = 2;
  Simulator sim;
  for (const auto& [saving, dsm_makespan] : {std::pair{0.0, 9.0}, std::pair{0.5, 7.0}}) {
    CAPTURE(saving);
    ParamValues v = ktiles_only();
    v["store_us"] = 3.0;
    v["load_us"] = 1.0;
    v["tile_io_gb_per_s"] = kOff;
    v["dsm_partial_saving"] = saving;
    const auto model = make_model("calibrated", v, two);
    const auto plan = [&](const char* schedule) {
      return plan_schedule(schedule, problem, kSquare, GpuShape{2, 1}, Reduction::Deterministic)
          .plan;
    };
    CHECK(sim.run(plan("splitk:2"), *model, o).makespan == doctest::Approx(9.0).epsilon(1e-6));
    CHECK(sim.run(plan("splitk-dsm:2"), *model, o).makespan ==
          doctest::Approx(dsm_makespan).epsilon(1e-6));
  }
}

}  // namespace lw

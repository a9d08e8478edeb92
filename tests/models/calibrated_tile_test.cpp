// Tile scaling of the `calibrated` model, against hand-derived figures: what a k-tile moves
// (bytes, L2 requests with row alignment) and computes, and the per-iteration time per pipe.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "models/registry.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

namespace {

constexpr TileShape kSquare{128, 128, 64};
constexpr TileShape kWide{128, 256, 64};
constexpr double kOff = 1e15;  // a pipe rate so high it costs nothing

// The context of `busy` busy SMs on the H200 (no working set).
CostContext busy_sms(int64_t busy) { return CostContext{132, busy}; }

// The model's clock stretch of a loop of plan `p` starting at t in context `c`, k-tiles of `iter`.
double clock(const CostModel& m, const Plan& p, const CostContext& c, double t, double iter) {
  return m.stretch(Stretch::Clock, p, LoopStart{0, nullptr, c, t, iter});
}

Plan plan_for(const TileShape& t, int64_t k) {
  return plan_data_parallel(Problem{4096, 4096, k}, t, GpuShape{132, 1}, false).plan;
}

}  // namespace

TEST_CASE("a 128x256 k-tile moves 1.5x the operand bytes of a 128x128 one") {
  // (128 + 128) x 64 x 2 B = 32768 B; (128 + 256) x 64 x 2 B = 49152 B.
  CHECK(traffic::operand_bytes_per_iter(kSquare) == 32768.0);
  CHECK(traffic::operand_bytes_per_iter(kWide) == 49152.0);
}

TEST_CASE("L2 requests per k-tile follow the row alignment") {
  // K = 4096: 8192-byte pitch, every 128-byte row slice starts on a line: 1 line per row.
  CHECK(traffic::l2_requests_per_iter(kSquare, 4096) == 256.0);
  CHECK(traffic::l2_requests_per_iter(kWide, 4096) == 384.0);
  // K = 4104: pitch 8208 B = 16 mod 128: offsets 0, 16, ..., 112 -> (1 + 7 x 2) / 8 = 1.875.
  CHECK(traffic::l2_requests_per_iter(kSquare, 4104) == 480.0);
  // K = 4128: pitch 8256 B = 64 mod 128: offsets 0, 64 -> (1 + 2) / 2 = 1.5.
  CHECK(traffic::l2_requests_per_iter(kSquare, 4128) == 384.0);
}

TEST_CASE("a row slice that starts inside a 32-byte sector touches one sector more") {
  // Pitch 2K bytes mod 32: 0 (K = 4096, 4112) every row on a sector; 16 (K = 4104) every other
  // row; 8 (K = 4100) three rows in four; 24 (K = 4108) likewise.
  CHECK(traffic::extra_sectors_per_row(4096) == 0.0);
  CHECK(traffic::extra_sectors_per_row(4112) == 0.0);
  CHECK(traffic::extra_sectors_per_row(4104) == 0.5);
  CHECK(traffic::extra_sectors_per_row(4100) == 0.75);
  CHECK(traffic::extra_sectors_per_row(4108) == 0.75);
  // The L2 pipe at 1000 lines/us, 10 busy SMs, sector_split_lines 2: K = 4104 adds 256 rows x
  // 1/2 x 2 = 256 lines to the 480 of the lines rule: 10 x 736 / 1000 = 7.36 us. K = 4112
  // (pitch 8224 = 32 mod 128: 1.75 lines per row, 448 lines) and K = 4096 add nothing.
  const auto l2 = make_model("calibrated",
                             {{"mma_tflops_per_sm", kOff},
                              {"l2_lines_per_us", 1000.0},
                              {"dram_gb_per_s", kOff},
                              {"sector_split_lines", 2.0}},
                             gpu_preset("h200"));
  CHECK(l2->iter_time(plan_for(kSquare, 4104), busy_sms(10)) ==
        doctest::Approx(7.36).epsilon(1e-6));
  CHECK(l2->iter_time(plan_for(kSquare, 4112), busy_sms(10)) ==
        doctest::Approx(4.48).epsilon(1e-6));
  CHECK(l2->iter_time(plan_for(kSquare, 4096), busy_sms(10)) ==
        doctest::Approx(2.56).epsilon(1e-6));
}

TEST_CASE("one parameter set prices every tile: tensor pipe by FLOPs, L2 pipe by requests") {
  const GpuSpec h200 = gpu_preset("h200");
  // Tensor-bound: 2 x 128 x 128 x 64 = 2,097,152 FLOPs at 7 TFLOP/s = 0.29959 us; 128x256 = 2x.
  const auto mma = make_model(
      "calibrated",
      {{"mma_tflops_per_sm", 7.0}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff}}, h200);
  CHECK(mma->iter_time(plan_for(kSquare, 4096), busy_sms(132)) ==
        doctest::Approx(0.299593).epsilon(1e-4));
  CHECK(mma->iter_time(plan_for(kWide, 4096), busy_sms(132)) ==
        doctest::Approx(0.599186).epsilon(1e-4));
  // L2-bound at 1000 lines/us shared by 10 busy SMs: 10 x 256 / 1000 = 2.56 us; misaligned
  // K = 4104: 10 x 480 / 1000 = 4.8 us; one busy SM: 0.256 us.
  const auto l2 = make_model(
      "calibrated",
      {{"mma_tflops_per_sm", kOff}, {"l2_lines_per_us", 1000.0}, {"dram_gb_per_s", kOff}}, h200);
  CHECK(l2->iter_time(plan_for(kSquare, 4096), busy_sms(10)) ==
        doctest::Approx(2.56).epsilon(1e-6));
  CHECK(l2->iter_time(plan_for(kSquare, 4104), busy_sms(10)) == doctest::Approx(4.8).epsilon(1e-6));
  CHECK(l2->iter_time(plan_for(kSquare, 4096), busy_sms(1)) ==
        doctest::Approx(0.256).epsilon(1e-6));
  // Two equal pipes: 2^(1/4) x one.
  CHECK(combine_pipes(1.0, 1.0, 0.0) == doctest::Approx(1.189207).epsilon(1e-6));
}

TEST_CASE("a cluster's CTAs load multicast slices of the shared operand") {
  const GpuSpec h200 = gpu_preset("h200");
  // 128x256 in a 2x1 cluster: the two CTAs share B, each loads 256 / 2 = 128 B rows plus its 128
  // A rows: 256 requests per k-tile at K % 64 == 0 (1x1: 384). 1x2 shares A: 64 + 256 = 320.
  CHECK(traffic::cta_l2_requests_per_iter(kWide, ClusterShape{2, 1}, 4096) == 256.0);
  CHECK(traffic::cta_l2_requests_per_iter(kWide, ClusterShape{1, 2}, 4096) == 320.0);
  CHECK(traffic::cta_l2_requests_per_iter(kWide, ClusterShape{1, 1}, 4096) == 384.0);
  CHECK(traffic::cta_operand_bytes_per_iter(kWide, ClusterShape{2, 1}) == 32768.0);
  // L2-bound at 1000 lines/us, 10 busy SMs: 10 x 256 / 1000 = 2.56 us (1x1: 3.84 us); FLOPs, and
  // so the tensor pipe, are unchanged.
  const auto l2 = make_model(
      "calibrated",
      {{"mma_tflops_per_sm", kOff}, {"l2_lines_per_us", 1000.0}, {"dram_gb_per_s", kOff}}, h200);
  const Plan p21 = plan_schedule("dp", Problem{4096, 4096, 4096}, kWide, GpuShape{132, 1},
                                 Reduction::Deterministic, ClusterShape{2, 1})
                       .plan;
  CHECK(l2->iter_time(p21, busy_sms(10)) == doctest::Approx(2.56).epsilon(1e-6));
  CHECK(l2->iter_time(plan_for(kWide, 4096), busy_sms(10)) == doctest::Approx(3.84).epsilon(1e-6));
  const auto mma = make_model(
      "calibrated",
      {{"mma_tflops_per_sm", 7.0}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff}}, h200);
  CHECK(mma->iter_time(p21, busy_sms(132)) == doctest::Approx(0.599186).epsilon(1e-4));
  CHECK(l2->config_error(kWide, ClusterShape{2, 1}).empty());
}

TEST_CASE("epilogue and fixup costs scale with tile area") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto m = make_model("calibrated", {{"epilogue_us", 2.0}, {"store_us", 3.0}}, h200);
  const Segment s;
  const CostContext c{132, 132};
  CHECK(m->transfer(Transfer::Epilogue, plan_for(kSquare, 4096), s, c) == doctest::Approx(2.0));
  CHECK(m->transfer(Transfer::Epilogue, plan_for(kWide, 4096), s, c) == doctest::Approx(4.0));
  CHECK(m->transfer(Transfer::PartialStore, plan_for(kWide, 4096), s, c) == doctest::Approx(6.0));
}

TEST_CASE("tiles written and read at segment ends share tile_io_gb_per_s among the busy SMs") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto m = make_model("calibrated",
                            {{"epilogue_us", 1.0},
                             {"store_us", 1.0},
                             {"load_us", 1.0},
                             {"accumulate_us", 1.0},
                             {"tile_io_gb_per_s", 1000.0}},
                            h200);
  const Segment s;
  const Plan p = plan_for(kSquare, 4096);
  // 10 busy SMs at 1000 GB/s: a bf16 128x128 output tile (32,768 B) adds 10 x 32768 / 1e12 s =
  // 0.32768 us to the 1 us epilogue; an fp32 partial (65,536 B) 0.65536 us to a store or a load;
  // an in-place add reads and writes it, 1.31072 us. One busy SM: a tenth.
  const CostContext ten{132, 10};
  CHECK(m->transfer(Transfer::Epilogue, p, s, ten) == doctest::Approx(1.32768));
  CHECK(m->transfer(Transfer::PartialStore, p, s, ten) == doctest::Approx(1.65536));
  CHECK(m->transfer(Transfer::PartialLoad, p, s, ten) == doctest::Approx(1.65536));
  CHECK(m->transfer(Transfer::PartialAccumulate, p, s, ten) == doctest::Approx(2.31072));
  CHECK(m->transfer(Transfer::Epilogue, p, s, CostContext{132, 1}) == doctest::Approx(1.032768));
}

TEST_CASE("a cluster tile whose shared panel is partly out of bounds stretches its MAC loop") {
  const GpuSpec h200 = gpu_preset("h200");
  constexpr TileShape k176{128, 176, 64};
  // 2x1 on 4096 x 560: cluster tiles 256 x 176, 16 x 4 of them; the last column's B panel ends at
  // 4 x 176 = 704, 144 rows past N = 560 (each CTA of the 2x1 loads all 176 B columns' rows / 1).
  const Plan p21 = plan_schedule("dp", Problem{4096, 560, 7168}, k176, GpuShape{132, 1},
                                 Reduction::Deterministic, ClusterShape{2, 1})
                       .plan;
  REQUIRE(p21.tiles_n == 4);
  const int64_t last_column = p21.tiles_n - 1;  // tile (0, 3): along N it is tile index 3
  REQUIRE(tile_coord_n(p21, last_column) == 3);
  CHECK(traffic::cluster_shared_oob_rows(p21, 0) == 0.0);
  CHECK(traffic::cluster_shared_oob_rows(p21, last_column) == 144.0);
  CHECK(traffic::max_cluster_oob_share(p21) == doctest::Approx(144.0 / 304.0));
  // 1x2 shares A: M = 4000 ends 32 x 128 - 4000 = 96 rows into the last tile row.
  const Plan p12 = plan_schedule("dp", Problem{4000, 4096, 4096}, kSquare, GpuShape{132, 1},
                                 Reduction::Deterministic, ClusterShape{1, 2})
                       .plan;
  CHECK(traffic::max_cluster_oob_share(p12) == doctest::Approx(96.0 / 256.0));
  CHECK(traffic::max_cluster_oob_share(plan_for(kSquare, 4096)) == 0.0);  // 1x1: none shared

  const auto off = make_model("calibrated", {}, h200);
  CHECK_FALSE(off->needs(p21).segment_stretch);  // the declared default: the term off
  const auto on = make_model("calibrated", {{"cluster_oob_stretch", 0.6}}, h200);
  CHECK(on->needs(p21).segment_stretch);
  CHECK_FALSE(on->needs(plan_for(kSquare, 4096)).segment_stretch);
  Segment s;
  s.tile = last_column;
  CHECK(on->stretch(Stretch::Segment, p21, LoopStart{0, &s}) ==
        doctest::Approx(1.0 + 0.6 * 144.0 / 304.0));
  s.tile = 0;
  CHECK(on->stretch(Stretch::Segment, p21, LoopStart{0, &s}) == 1.0);
}

TEST_CASE("the power limit stretches MAC loops by chip share, tensor share and start time") {
  const GpuSpec h200 = gpu_preset("h200");
  const Plan p = plan_for(kSquare, 4096);
  // Only the tensor pipe costs (the others off), so its share of a k-tile is 1.
  ParamValues v = {{"mma_tflops_per_sm", 5.0}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff}};
  CHECK_FALSE(make_model("calibrated", v, h200)->needs(p).clock);  // the declared default: off
  v["power_throttle"] = 0.4;
  v["power_boost_us"] = 1500.0;
  const auto on = make_model("calibrated", v, h200);
  REQUIRE(on->needs(p).clock);
  CostContext full;
  full.sms = full.busy_sms = 132;
  CostContext half = full;
  half.busy_sms = 66;
  // r(x) = x^2 / (1 + x^2): 0 at the start, 1/2 at power_boost_us, 4/5 at twice it.
  const double iter = on->iter_time(p, full);
  CHECK(clock(*on, p, full, 0.0, iter) == 1.0);
  CHECK(clock(*on, p, full, 1500.0, iter) == doctest::Approx(1.0 + 0.4 * 0.5));
  CHECK(clock(*on, p, half, 1500.0, iter) == doctest::Approx(1.0 + 0.4 * 0.5 * 0.5));
  CHECK(clock(*on, p, full, 3000.0, iter) == doctest::Approx(1.0 + 0.4 * 0.8));
  // A k-tile the DRAM pipe sets: the tensor pipe's share of it, here 1/2, scales the drop.
  v["dram_gb_per_s"] = 1.0;
  const auto mixed = make_model("calibrated", v, h200);
  const double share = 2.0 * 128 * 128 * 64 / 5e12 * 1e6 / mixed->iter_time(p, full);
  REQUIRE(share < 0.5);
  CHECK(clock(*mixed, p, full, 1500.0, mixed->iter_time(p, full)) ==
        doctest::Approx(1.0 + 0.4 * share * 0.5));
}

TEST_CASE("the simulator slows the loops that start once the power limit bites") {
  // 1536 x 2816 x 640, 128x128: 12 x 22 = 264 tiles of 10 k-tiles, two waves on 132 SMs. Only the
  // tensor pipe costs: a loop is 10 x 2 x 128 x 128 x 64 FLOPs at 5 TFLOP/s = 4.194 us. With
  // power_boost_us at one loop the second wave starts at r(1) = 1/2: 1 + 0.4 x 0.5 longer (the
  // chip's busy share at those starts is 131/132 to 1, hence the tolerance).
  const GpuSpec h200 = gpu_preset("h200");
  const Plan p = plan_schedule("dp", Problem{1536, 2816, 640}, kSquare, GpuShape{132, 1},
                               Reduction::Deterministic)
                     .plan;
  REQUIRE(p.tiles == 264);
  const double loop = 10 * 2.0 * 128 * 128 * 64 / 5e12 * 1e6;
  ParamValues v = {{"mma_tflops_per_sm", 5.0}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff},
                   {"epilogue_us", 0.0},       {"prologue_us", 0.0},      {"launch_us", 0.0}};
  SimOptions opt;
  opt.sms = 132;
  CHECK(simulate(p, *make_model("calibrated", v, h200), opt).makespan == doctest::Approx(2 * loop));
  v["power_throttle"] = 0.4;
  v["power_boost_us"] = loop;
  CHECK(simulate(p, *make_model("calibrated", v, h200), opt).makespan ==
        doctest::Approx(loop * (1.0 + 1.2)).epsilon(2e-3));
}

TEST_CASE("the simulator runs a stretched cluster tile's MAC loop that much longer") {
  // 256 x 208 x 640 in 2x1 clusters of 128x176: two cluster tiles in one wave, the second with
  // 2 x 176 - 208 = 144 B rows past N. Only the tensor pipe costs (every other pipe and fixed cost
  // off), so both loops run 10 k-tiles at one rate and the makespan is the stretched loop's:
  // 1 + 0.6 x 144 / 304 times the unstretched one.
  const GpuSpec h200 = gpu_preset("h200");
  const Plan p = plan_schedule("dp", Problem{256, 208, 640}, TileShape{128, 176, 64},
                               GpuShape{132, 1}, Reduction::Deterministic, ClusterShape{2, 1})
                     .plan;
  REQUIRE(p.tiles == 2);
  ParamValues v = {{"mma_tflops_per_sm", 5.0}, {"l2_lines_per_us", kOff}, {"dram_gb_per_s", kOff},
                   {"epilogue_us", 0.0},       {"prologue_us", 0.0},      {"launch_us", 0.0}};
  SimOptions opt;
  opt.sms = 66;  // 2x1 cluster slots of 132 SMs
  opt.cluster_size = 2;
  const double plain = simulate(p, *make_model("calibrated", v, h200), opt).makespan;
  v["cluster_oob_stretch"] = 0.6;
  const double stretched = simulate(p, *make_model("calibrated", v, h200), opt).makespan;
  // 10 k-tiles of 2 x 128 x 176 x 64 FLOPs at 5 TFLOP/s: 10 x 0.576717 us.
  CHECK(plain == doctest::Approx(10 * 2.0 * 128 * 176 * 64 / 5e12 * 1e6));
  CHECK(stretched == doctest::Approx(plain * (1.0 + 0.6 * 144.0 / 304.0)));
}

TEST_CASE("a model file that carries the retired iter_unaligned_us loads without it") {
  const auto path = std::filesystem::temp_directory_path() / "lw_retired_param_model.json";
  {
    std::ofstream f(path);
    f << R"({"model":"calibrated","params":{"iter_unaligned_us":2.5,"launch_us":3.0},)"
      << R"("undetermined":["iter_unaligned_us","store_us"],"off":["iter_unaligned_us"]})";
  }
  const ModelFile file = read_model_file(path.string());
  std::filesystem::remove(path);
  CHECK(file.params.count("iter_unaligned_us") == 0);
  CHECK(file.params.at("launch_us") == 3.0);
  CHECK(file.undetermined == std::vector<std::string>{"store_us"});
  CHECK(file.off.empty());
  // Naming it says why it is gone.
  CHECK_THROWS_WITH_AS(make_model("calibrated", {{"iter_unaligned_us", 1.0}}, gpu_preset("h200")),
                       doctest::Contains("no longer has parameter 'iter_unaligned_us'"),
                       std::invalid_argument);
}

TEST_CASE("calibrated: a staged plan pays one launch and its copy's bytes at the DRAM rate") {
  const GpuSpec h200 = gpu_preset("h200");
  const auto m = make_model("calibrated", {{"launch_us", 4.0}, {"dram_gb_per_s", 4000.0}}, h200);
  const auto plan = [](Problem p, TileShape t) {
    return plan_schedule("dp", p, t, GpuShape{132, 1}, Reduction::Deterministic).plan;
  };
  // 1000 + 2000 rows of 1001 elements read, written at 1008: 3000 x 2009 x 2 bytes at 4000 GB/s.
  const Plan staged = plan(Problem{1000, 2000, 1001}, TileShape{128, 256, 64});
  CHECK(m->fixed_costs(staged).staging == doctest::Approx(4.0 + 3000.0 * 2009 * 2 / 4000e9 * 1e6));
  // Every config stages (128x128 1x1 too): the copy depends on the problem alone.
  CHECK(m->fixed_costs(plan(Problem{1000, 2000, 1001}, TileShape{128, 128, 64})).staging ==
        m->fixed_costs(staged).staging);
  CHECK(m->fixed_costs(plan(Problem{1000, 2000, 1008}, TileShape{128, 256, 64})).staging == 0.0);
}

TEST_CASE("calibrated: a staged plan's k-tiles read rows at the padded pitch") {
  // L2-bound k-tiles (no DRAM, tensor or fixed term to speak of): K = 4100 is staged at a pitch of
  // 4104, so its rows start where K = 4104's do (8208-byte strides: every 8th row on a 128-byte
  // line, half the rows off a 32-byte sector), not where 8200-byte strides would put them.
  const auto m = make_model("calibrated",
                            {{"l2_lines_per_us", 1000.0},
                             {"sector_split_lines", 1.0},
                             {"dram_gb_per_s", 1e9},
                             {"mma_tflops_per_sm", 1e6}},
                            gpu_preset("h200"));
  const auto plan = [](int64_t k) {
    return plan_schedule("dp", Problem{4096, 4096, k}, TileShape{128, 128, 64}, GpuShape{132, 1},
                         Reduction::Deterministic)
        .plan;
  };
  const CostContext c{132, 132, 1, 1};
  const double staged = m->iter_time(plan(4100), c);
  CHECK(staged == doctest::Approx(m->iter_time(plan(4104), c)).epsilon(1e-6));
  // 256 rows x (1 + 7/8 lines + 1/2 sector line) x 132 busy SMs / 1000 lines per us.
  CHECK(staged == doctest::Approx(256 * (1.0 + 7.0 / 8.0 + 0.5) * 132 / 1000.0).epsilon(1e-3));
}

TEST_CASE("physical ceilings from the GPU preset: rates, shared memory, L2 size") {
  const GpuSpec h200 = gpu_preset("h200");  // 989 TFLOP/s, 132 SMs, 1980 MHz, 4.8 TB/s, 60 MiB
  const ModelInfo& info = find_model("calibrated");
  const auto upper = [&](const char* name) { return physical_upper(find_param(info, name), h200); };
  CHECK(upper("mma_tflops_per_sm") == doctest::Approx(989.0 / 132.0 * 1.10));
  CHECK(upper("smem_gb_per_s") == doctest::Approx(128.0 * 1980.0 / 1000.0));
  CHECK(upper("dram_gb_per_s") == doctest::Approx(4800.0));
  CHECK(upper("l2_reuse_mib") == 60.0);
  CHECK(upper("reuse_lag_l2_mib") == 60.0);
  CHECK(std::isinf(upper("epilogue_us")));  // no ceiling: a time
  // A preset without the figure sets none.
  CHECK(std::isinf(physical_upper(find_param(info, "mma_tflops_per_sm"), GpuSpec{})));
  // The values above their ceilings, one line each, in the model's parameter order.
  const auto lines = beyond_physical_limits(
      info, {{"mma_tflops_per_sm", 10.68}, {"l2_reuse_mib", 313.8}, {"dram_gb_per_s", 4513.0}},
      h200);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("mma_tflops_per_sm 10.68 TFLOP/s is above 8.242 on h200: ", 0) == 0);
  CHECK(lines[1].rfind("l2_reuse_mib 313.8 MiB is above 60 on h200: ", 0) == 0);
}

}  // namespace lw

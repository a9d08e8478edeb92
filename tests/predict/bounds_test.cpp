// best's lower bounds (sim/predict/bounds.hpp) against the simulator: never above a plan's
// simulated time, and the fixup-chain bound close to it where a split tile's fixups dominate.
#include "sim/predict/bounds.hpp"

#include <doctest/doctest.h>

#include <string>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/best.hpp"

namespace {

// Simulated time before the makespan factor, and the two bounds, of one candidate.
struct Timed {
  double simulated, least, chained;
};
Timed timed(const lw::CostModel& model, const lw::Problem& problem, const std::string& schedule,
            const std::string& tile, int64_t sms, lw::ClusterShape cluster = {1, 1}) {
  const lw::GpuShape gpu{sms, 1};
  const lw::Plan plan = lw::plan_schedule(schedule, problem, lw::parse_kernel_tiles(tile)[0], gpu,
                                          lw::Reduction::Deterministic, cluster)
                            .plan;
  lw::SimOptions opt = lw::sim_options_for(gpu, plan);
  const double chained = lw::fixup_chain_time(plan, model, opt);
  const double least = lw::least_time(plan, model, opt);
  opt.makespan_factor = 1.0;
  opt.sm_stats = false;
  return Timed{lw::simulate(plan, model, opt).makespan, least, chained};
}

}  // namespace

TEST_CASE("the bounds never pass the simulated time, split plans of every kind") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  const auto unit = lw::make_model("unit", {}, lw::GpuSpec{});
  for (const lw::CostModel* model : {fitted.get(), unit.get()}) {
    for (const int64_t sms : {132, 64, 20}) {
      for (const lw::Problem p : {lw::Problem{195, 3053, 144}, lw::Problem{128, 4096, 4096},
                                  lw::Problem{1536, 1536, 4096}, lw::Problem{3000, 704, 9000},
                                  lw::Problem{8192, 8192, 64}, lw::Problem{64, 64, 65536},
                                  lw::Problem{2048, 256, 16384}}) {
        for (const std::string& s : lw::best_decompositions()) {
          for (const char* tile : {"128x128x64", "128x256x64", "64x64x64"}) {
            INFO(p.m, "x", p.n, "x", p.k, " ", s, " ", std::string(tile), " on ", sms, " SMs");
            const Timed t = timed(*model, p, s, tile, sms);
            CHECK(t.chained <= t.simulated * (1 + 1e-9));
            CHECK(t.least <= t.simulated * (1 + 1e-9));
          }
        }
        for (const char* s : {"streamk", "dp", "dp-persistent", "cutlass"}) {
          INFO(p.m, "x", p.n, "x", p.k, " ", s, " 128x128x64 2x1 on ", sms, " SMs");
          const Timed clustered = timed(*model, p, s, "128x128x64", sms, {2, 1});
          CHECK(clustered.chained <= clustered.simulated * (1 + 1e-9));
          CHECK(clustered.least <= clustered.simulated * (1 + 1e-9));
        }
        for (const char* tile : {"128x256x64", "64x64x64"}) {  // a persistent grid past the tiles
          INFO(p.m, "x", p.n, "x", p.k, " dp-persistent ", std::string(tile), " on ", sms, " SMs");
          CHECK(timed(*model, p, "dp-persistent", tile, sms).least <=
                timed(*model, p, "dp-persistent", tile, sms).simulated * (1 + 1e-9));
        }
      }
    }
  }
}

// 195 x 3053 x 144 on 128x208 tiles: 30 tiles of 3 k-tiles over 132 Stream-K units, so nearly
// every tile is split over 4-5 CTAs and its owner waits for its peers' partials, loads them one
// after another and writes C: those fixups, not the MAC loops, set the time. The chained bound
// follows the peers' stores into the owner's loads; the cheap bound counts only the owner's own.
TEST_CASE("the fixup-chain bound sees the owner wait for its peers") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  const Timed t = timed(*fitted, lw::Problem{195, 3053, 144}, "streamk", "128x208x64", 132);
  CHECK(t.least < 0.6 * t.simulated);
  CHECK(t.chained > 0.85 * t.simulated);
  CHECK(t.chained <= t.simulated);
  // Without a split, there is no chain to follow.
  CHECK(timed(*fitted, lw::Problem{195, 3053, 144}, "dp", "128x208x64", 132).chained == 0);
}

// 3000 x 704 x 9000 on 128x256 tiles, data-parallel: 72 tiles in one wave of 141 k-tiles, L2- and
// shared-memory-bound. Its MAC loops all run while the 72 SMs are busy, which the first-wave bound
// prices (an iteration at one busy SM is a third faster).
TEST_CASE("the data-parallel bound prices the first wave's loops at its busy SMs") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  const Timed t = timed(*fitted, lw::Problem{3000, 704, 9000}, "dp", "128x256x64", 132);
  CHECK(t.least > 0.85 * t.simulated);
  CHECK(t.least <= t.simulated);
}

// SimOptions::floors (chip_floors): a run told what the chip needs at least per MAC iteration, per
// tile's epilogue and per fixup action stops once the work it has not started cannot end by the
// cut-off. It must never stop a run that ends by the cut-off (nor change
// its makespan), and it stops the others sooner than the clock alone would.
TEST_CASE("the chip floors stop only runs that cannot end by the cut-off") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  int64_t sooner = 0, cut = 0, fixed_count = 0;
  for (const int64_t sms : {132, 64}) {
    const lw::GpuShape gpu{sms, 1};
    for (const lw::Problem p : {lw::Problem{195, 3053, 144}, lw::Problem{1536, 1536, 4096},
                                lw::Problem{3000, 704, 9000}, lw::Problem{8192, 8192, 64},
                                lw::Problem{4096, 4096, 4096}, lw::Problem{2048, 256, 16384}}) {
      for (const std::string& s : lw::best_decompositions()) {
        for (const lw::ClusterShape cluster : {lw::ClusterShape{1, 1}, lw::ClusterShape{2, 1}}) {
          const bool dsm = s.rfind("splitk-dsm", 0) == 0;  // its clusters are the splits
          if (dsm && cluster.m * cluster.n > 1) continue;
          INFO(p.m, "x", p.n, "x", p.k, " ", s, " cluster ", cluster.m, "x", cluster.n, " on ", sms,
               " SMs");
          const lw::TileShape tile = dsm ? lw::TileShape{64, 64, 64} : lw::kDefaultTile;
          const lw::Plan plan =
              lw::plan_schedule(s, p, tile, gpu, lw::Reduction::Deterministic, cluster).plan;
          lw::SimOptions opt = lw::sim_options_for(gpu, plan);
          opt.makespan_factor = 1.0;
          opt.sm_stats = false;
          lw::Simulator sim;
          const lw::SimResult full = sim.run(plan, *fitted, opt);
          const int64_t full_events = full.events;
          const double makespan = full.makespan;
          opt.floors = lw::chip_floors(plan, *fitted, opt);
          REQUIRE(opt.floors.iter > 0);
          REQUIRE(opt.floors.epilogue > 0);
          REQUIRE(opt.floors.fixup > 0);
          fixed_count += opt.floors.fixups > 0;
          opt.cutoff = makespan;  // ends exactly at the cut-off: runs to the end, the same time
          const lw::SimResult& at = sim.run(plan, *fitted, opt);
          CHECK_FALSE(at.cut_off);
          CHECK(at.makespan == makespan);
          opt.cutoff = 0.8 * makespan;
          const int64_t floored = sim.run(plan, *fitted, opt).events;
          CHECK(sim.run(plan, *fitted, opt).cut_off);
          opt.floors = lw::WorkFloors{};
          const int64_t clocked = sim.run(plan, *fitted, opt).events;
          CHECK(floored <= clocked);
          CHECK(clocked < full_events);
          sooner += floored < clocked;
          ++cut;
        }
      }
    }
  }
  CHECK(sooner * 2 > cut);  // it stops most of them sooner
  CHECK(fixed_count > 0);   // split-K plans count their fixup actions
}

// A split-K plan of one unit per CTA: every split tile runs the same k ranges at the same least
// costs, so the chain bound walks tile 0's units (and one data-parallel tile's CTA) for them all.
// On 2048 x 256 x 16384 (32 tiles of 256 k-tiles, split 4 and 8 over 128 and 256 CTAs), the
// owner waits for the last peer's store: the chain bound holds most of the simulated time.
TEST_CASE("the split-K chain bound follows every tile's fixups from tile 0's") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  for (const char* s : {"splitk:4", "splitk:8"}) {
    const Timed t = timed(*fitted, lw::Problem{2048, 256, 16384}, s, "128x128x64", 132);
    INFO(s);
    CHECK(t.chained > 1.1 * t.least);
    CHECK(t.chained > 0.6 * t.simulated);
    CHECK(t.chained <= t.simulated);
  }
}

// Ping-pong CTAs (CostNeeds::epilogue_overlap): r17 with its epilogues half or wholly beside the
// next loop. The bounds and the chip floors count only an epilogue's exposed share (the last one
// whole), so they stay below the simulated time and a run that ends by the cut-off is not stopped.
TEST_CASE("the bounds and the chip floors hold for ping-pong plans") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  for (const double overlap : {0.5, 1.0}) {
    const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json",
                                                 {{"pingpong_overlap", overlap}}, h200);
    for (const int64_t sms : {132, 20}) {
      for (const lw::Problem p : {lw::Problem{8192, 8192, 64}, lw::Problem{4096, 4096, 4096},
                                  lw::Problem{16384, 2560, 32}, lw::Problem{1000, 3000, 512}}) {
        for (const char* tile : {"128x128x64", "64x256x64", "128x96x64"}) {
          INFO(p.m, "x", p.n, "x", p.k, " ", std::string(tile), " on ", sms, " SMs, overlap ",
               overlap);
          const lw::GpuShape gpu{sms, 1};
          const lw::Plan plan =
              lw::plan_schedule("dp-persistent", p, lw::parse_kernel_tiles(tile)[0], gpu,
                                lw::Reduction::Deterministic)
                  .plan;
          REQUIRE(fitted->needs(plan).epilogue_overlap == overlap);
          const Timed t = timed(*fitted, p, "dp-persistent", tile, sms);
          CHECK(t.least <= t.simulated * (1 + 1e-9));
          lw::SimOptions opt = lw::sim_options_for(gpu, lw::ClusterShape{1, 1});
          opt.makespan_factor = 1.0;
          opt.sm_stats = false;
          opt.floors = lw::chip_floors(plan, *fitted, opt);
          opt.cutoff = t.simulated;
          lw::Simulator sim;
          const lw::SimResult& at = sim.run(plan, *fitted, opt);
          CHECK_FALSE(at.cut_off);
          CHECK(at.makespan == t.simulated);
        }
      }
    }
  }
}

// The same at K = 147 (K % 8 != 0): the operands are staged first (one copy launch before the
// GEMM's), and every CTA starts after it; the chained bound counts it as the simulator does.
TEST_CASE("the fixup-chain bound starts after the staging copy") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto fitted = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  const Timed t = timed(*fitted, lw::Problem{195, 3053, 147}, "streamk", "128x208x64", 132);
  CHECK(t.chained <= t.simulated * (1 + 1e-9));
  CHECK(t.chained > 0.85 * t.simulated);  // 0.70 without the copy's time
}

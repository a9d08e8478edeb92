// The `calibrated` model's declared parameters (name, unit, default, range, what it prices) and
// their defaults: an H200 bf16 starting point for the fitter, not fitted values.
#include "models/calibrated/calibrated_model.hpp"
#include "models/roofline/traffic.hpp"

namespace lw {

namespace {

// Physical ceilings from the GPU preset (PhysicalLimit; 0 where the preset does not say).
// A datasheet's dense rate is quoted at its spec's boost clock, below the clock an unthrottled SM
// runs at (H200: 989 TFLOP/s = 132 SMs x 4096 FLOP/clock x 1830 MHz; the SMs run at 1980 MHz,
// 8.2 % more): the ceiling allows kTensorClockHeadroom over the quoted rate per SM.
constexpr double kTensorClockHeadroom = 1.10;
// Shared memory an SM reads per clock (128 bytes: 32 banks x 4 bytes, sm_80 and sm_90).
constexpr double kSmemBytesPerClock = 128.0;
constexpr double kMegaPerGiga = 1e-3;  // MHz x bytes per clock -> GB/s
constexpr double kGbPerTb = 1e3;

double tensor_rate_ceiling(const GpuSpec& g) {
  const auto sms = static_cast<double>(whole_chip_sms(g));
  return sms > 0 ? g.bf16_dense_tflops / sms * kTensorClockHeadroom : 0.0;
}
double smem_ceiling(const GpuSpec& g) { return kSmemBytesPerClock * g.sm_clock_mhz * kMegaPerGiga; }
double dram_ceiling(const GpuSpec& g) { return g.dram_tb_per_s * kGbPerTb; }
double l2_size_ceiling(const GpuSpec& g) { return g.l2_mib; }

constexpr PhysicalLimit kTensorLimit{
    &tensor_rate_ceiling,
    "the preset's dense bf16 rate per SM, plus 10 % for the clock it is quoted at"};
constexpr PhysicalLimit kSmemLimit{&smem_ceiling,
                                   "128 bytes of shared memory per SM and clock at the preset's "
                                   "SM clock"};
constexpr PhysicalLimit kDramLimit{&dram_ceiling, "the preset's DRAM bandwidth"};
constexpr PhysicalLimit kL2SizeLimit{&l2_size_ceiling, "the preset's L2 size"};

}  // namespace

// Defaults are an H200 bf16 starting point for the fitter (datasheet tensor rate / 132 SMs,
// ~12 TB/s of L2 in 128-byte lines, 4.8 TB/s HBM3e), not fitted values. ktile_fixed_us defaults
// to 0 (the term off) so model files written before it existed keep their meaning; calibrate
// starts it at kKtileFixedStartUs. l2_reuse_mib likewise defaults to 0 (footprint rule),
// cluster_ktile_us to 0, and oob_rows_per_us and smem_gb_per_s to rates so high that they cost
// nothing.
ModelInfo calibrated_model_info() {
  return ModelInfo{
      "calibrated",
      "fitted tile-aware physical-time model (us); load a configs/models/*.json file written by "
      "calibrate",
      {
          {"mma_tflops_per_sm", "TFLOP/s", 7.5, kRateRange,
           "tensor-core rate one SM sustains in the MAC loop (a k-tile is 2 tile.m tile.n tile.k "
           "FLOPs)",
           kTensorLimit},
          {"l2_lines_per_us", "lines/us", 90000.0, kRateRange,
           "L2 throughput shared by the busy SMs, in 128-byte operand requests per us (a k-tile "
           "requests (tile.m + tile.n) x lines per row; a row not 128-byte aligned spans one "
           "more line)"},
          {"sector_split_lines", "x", 0.0, kScaleOrOffRange,
           "lines the L2 pipe is charged for each extra 32-byte sector a k-tile's row slice "
           "touches when it does not start on a sector (a row pitch not a multiple of 32 bytes, "
           "K % 16 != 0: traffic::extra_sectors_per_row; half the rows at K % 16 == 8); 0 = the "
           "term off"},
          {"dram_gb_per_s", "GB/s", 4800.0, kRateRange,
           "DRAM throughput shared by the busy SMs, for the operand bytes that miss L2",
           kDramLimit},
          {"tile_io_gb_per_s", "GB/s", kTileIoOffRate, kRateRange,
           "memory throughput the busy SMs share for the tiles written and read at segment ends "
           "(a finished bf16 output tile; an fp32 partial stored, loaded, or read and written by "
           "an in-place add), on top of the fixed epilogue and fixup costs; the default is so "
           "high that they cost nothing"},
          {"ktile_fixed_us", "us", 0.0, kTimeRange,
           "fixed cost of each MAC iteration (k-tile), whatever the tile size and busy SMs "
           "(barrier, issue and pipeline overhead the pipes do not cover)"},
          {"l2_reuse_mib", "MiB", 0.0, kCacheSizeOrOffRange,
           "L2 capacity that keeps operand panels for reuse: DRAM bytes follow the working set "
           "in flight (a wave in step fetches each panel slice once; scattered CTAs miss when "
           "their panels exceed it); 0 = footprint rule (unique A+B over loaded bytes, scaled by "
           "footprint / L2 size)",
           kL2SizeLimit},
          {"reuse_lag_scale", "x", 0.0, kScaleOrOffRange,
           "with l2_reuse_mib: tiles that share a panel but walk K out of step (Stream-K) reuse "
           "its slices only if they survive the bytes all busy CTAs load in between, this scale "
           "x the lag in k-tiles (models/panel_lag.hpp); 0 = the term off"},
          {"reuse_lag_l2_mib", "MiB", 0.0, kCacheSizeOrOffRange,
           "with reuse_lag_scale: the L2 capacity a slice must survive the gap's loads in (the "
           "panels of scattered Stream-K tiles compete with every other slice in flight, so it "
           "can be less than l2_reuse_mib); 0 = l2_reuse_mib",
           kL2SizeLimit},
          {"wave_reuse_scale", "x", 0.0, kScaleOrOffRange,
           "with l2_reuse_mib: a panel slice that the next wave's tiles load again stays in L2 "
           "unless this scale x the full-K panels of the tile rows and columns in flight (what "
           "one wave loads in between, at most A+B) exceeds l2_reuse_mib "
           "(traffic::in_step_reuse_mib); 0 = the whole A+B footprint against it"},
          {"oob_rows_per_us", "rows/us", kOobPipeOffRate, kRateRange,
           "out-of-bounds operand rows of the k-tiles' boxes (the last tile row / column past M "
           "/ "
           "N, zero-filled) the busy SMs' load paths get through per us, shared; the default is "
           "so "
           "high that they cost nothing"},
          {"smem_gb_per_s", "GB/s", kSmemPipeOffRate, kRateRange,
           "shared-memory operand reads of the tensor cores one SM sustains (a k-tile reads "
           "traffic::wgmma_smem_bytes_per_iter: more per FLOP for 64-row and narrow tiles); the "
           "default is so high that they cost nothing",
           kSmemLimit},
          {"cluster_ktile_us", "us", 0.0, kTimeRange,
           "added to each k-tile of a CTA in a cluster of two or more (the CTAs wait for each "
           "other's multicast slices and stage releases); 0 = the term off"},
          {"cluster_segment_us", "us", 0.0, kTimeRange,
           "added to each segment of a CTA in a cluster of two or more, with the action that "
           "ends it (epilogue, partial store or in-place add): at a tile boundary the cluster's "
           "CTAs drain and restart the ring they share; 0 = the term off"},
          {"cluster_oob_stretch", "x", 0.0, kScaleOrOffRange,
           "in a cluster of two or more, a tile whose shared operand panel is partly past the "
           "problem (the last tile column of a 2x1 plan, the last tile row of a 1x2) runs its MAC "
           "loop 1 + this x (out-of-bounds rows of that panel per CTA) / (tile.m + tile.n) times "
           "as long (traffic::cluster_shared_oob_rows); 0 = the term off"},
          {"power_throttle", "x", 0.0, kScaleOrOffRange,
           "the power limit's clock drop: a MAC loop that starts t after the run began runs 1 + "
           "this x (busy share of the whole chip) x (tensor pipe's share of the k-tile) x "
           "r(t / power_boost_us) times as long, r(x) = x^2 / (1 + x^2); 0 = the term off"},
          {"power_boost_us", "us", kPowerBoostStartUs, kTimeRange,
           "with power_throttle: how long the chip runs under load before the clock is half-way "
           "down"},
          {"load_latency_us", "us", 0.0, kTimeRange,
           "time from issuing a k-tile's operand loads to their landing in shared memory: with "
           "the kernel's ring of wgmma_stages(tile) stages in flight (sim/decomp/"
           "kernel_configs.hpp) a k-tile takes at least this / stages; 0 = the pipe off"},
          {"sm_speed_spread", "x", 0.0, kScaleOrOffRange,
           "spread of the SMs' speeds under full load: a MAC loop on SM s takes 1 + this x busy "
           "share x c / 7 times as long, c = floor(8 frac(s x 0.618...)) of 8 speed classes (a "
           "persistent or one-wave plan waits for its slowest SM, a many-wave one is balanced by "
           "dispatch), times a partition's share of the chip; 0 = all alike"},
          {"pingpong_overlap", "fraction", 0.0, kFractionRange,
           "share of a whole tile's epilogue that runs beside the CTA's next MAC loop where the "
           "kernels run ping-pong consumers (plan_runs_pingpong: a plan without split tiles "
           "whose CTAs walk several, on a tile one warpgroup holds; CostNeeds::epilogue_overlap); "
           "0 = the term off: a CTA's segments run one after another, as in the cooperative "
           "kernels every model file before it was fitted on"},
          {"epilogue_us", "us", 2.0, kTimeRange,
           "writing one finished 128x128 output tile (scaled by tile area), including the MAC "
           "pipeline restart of the segment it ends"},
          {"store_us", "us", 3.0, kTimeRange,
           "storing one fp32 128x128 partial tile (scaled by tile area), including the pipeline "
           "restart"},
          {"load_us", "us", 1.0, kTimeRange,
           "loading one fp32 128x128 partial tile and adding it (scaled)"},
          {"accumulate_us", "us", 3.0, kTimeRange,
           "adding a 128x128 tile into a workspace slot in place (scaled), including the "
           "pipeline restart"},
          {"load_round_us", "us", 0.0, kTimeRange,
           "one L2 round trip of a Final owner's slot loads: the kernels load a batch of peers' "
           "slots per trip (final_reduce_batch: 8 on 16x64, 1 on 128x128), charged once per batch "
           "beside load_us per slot (sim/decomp/kernel_configs.hpp, final_load_rounds); 0 = the "
           "term off"},
          {"dsm_partial_saving", "fraction", 0.0, kFractionRange,
           "share of a partial's store and load (store_us, load_us and their tile I/O) saved "
           "where a tile's splits meet in the owner's distributed shared memory instead of L2 "
           "(splitk-dsm, Plan::cluster_reduce); 0 = the term off: such partials cost as through "
           "L2"},
          {"flag_us", "us", 0.5, kTimeRange, "delay before a spinning waiter sees a raised flag"},
          {"prologue_us", "us", 1.0, kTimeRange,
           "CTA start-up and pipeline fill before its first MMA"},
          {"launch_us", "us", 4.0, kTimeRange, "launch overhead of one kernel launch"},
      },
      &make_calibrated,
  };
}

}  // namespace lw

// `calibrated`: a tile-aware model whose costs derive from what a k-tile computes and moves
// (FLOPs, L2 requests, DRAM bytes) at fitted rates; read from a model file in configs/models/
// written by `lastwave calibrate`.
#pragma once
#include "models/registry.hpp"

namespace lw {

ModelInfo calibrated_model_info();  // calibrated_params.cpp
// The model of resolved parameters `v` on `gpu`, fitted on `scope` (calibrated_model.cpp).
std::unique_ptr<CostModel> make_calibrated(const ParamValues& v, const GpuSpec& gpu,
                                           const FitScope& scope);

// The pipes of a k-tile (tensor cores, L2, DRAM, out-of-bounds rows, shared memory, load latency)
// overlap: the slowest sets the pace. They are combined as a p-norm, (a^p + b^p + ...)^(1/p), a
// smooth max (two equal pipes cost 2^(1/p) = 1.19x one) so the fit has gradients on both sides of
// a ridge.
constexpr double kPipeOverlapExponent = 4.0;
double combine_pipes(double mma, double l2, double dram, double oob = 0.0, double smem = 0.0,
                     double latency = 0.0);

// oob_rows_per_us's declared default: a rate so high that out-of-bounds rows cost nothing (model
// files written before the term keep their meaning; the same as calibrate's "pipe off" rate).
constexpr double kOobPipeOffRate = 1e15;
// The fit's start value of oob_rows_per_us: 2e4 rows/us (a 127-row box costs ~0.5 us a k-tile on
// 80 busy SMs, the size of the M = 1 slowdown measured by ncu: 81 us against 51 us at M = 128).
constexpr double kOobRowsStartPerUs = 2e4;
// smem_gb_per_s's declared default (the pipe off, as kOobPipeOffRate) and the fit's start value:
// 128 bytes per clock at 1.98 GHz, the SM's shared-memory bandwidth.
constexpr double kSmemPipeOffRate = 1e15;
constexpr double kSmemStartGbPerS = 253.0;
// The fit's start value of load_latency_us (declared default 0: the pipe off): 0.8 us, a guess at
// an L2 round trip of a TMA box with queueing under load (a start value, not a measurement).
constexpr double kLoadLatencyStartUs = 0.8;
// The fit's start value of sm_speed_spread (declared default 0: all SMs alike): 10 %.
constexpr double kSmSpeedSpreadStart = 0.1;
// The fit's start value of cluster_ktile_us (declared default 0: the term off): 20 ns.
constexpr double kClusterKtileStartUs = 0.02;
// The fit's start value of cluster_segment_us (declared default 0: the term off): 0.5 us, a guess
// at two cluster barriers around a tile boundary (a start value, not a measurement).
constexpr double kClusterSegmentStartUs = 0.5;

// The fit's start value of cluster_oob_stretch (declared default 0: the term off): 0.6, from ncu
// runs of 4096 x N x 7168 dp on 128x176 (docs/calibration-notes.md, "2x1 clusters on narrow N"):
// 2x1 took 1.18 / 1.27 / 1.31 times 1x1's time with 88 / 128 / 144 of the last column's 176 B rows
// out of bounds, 0.61-0.65 x the out-of-bounds share of the 304 operand rows.
constexpr double kClusterOobStretchStart = 0.6;

// tile_io_gb_per_s's declared default (the pipe off, as kOobPipeOffRate) and the fit's start
// value: 2 TB/s, a guess at the output write throughput of HBM3e under load (not a measurement).
constexpr double kTileIoOffRate = 1e15;
constexpr double kTileIoStartGbPerS = 2000.0;

// The fit's start value of sector_split_lines (declared default 0: the term off): one line per
// extra sector (a start value; a 30 % sample fit of r7 + the term gave 1.4).
constexpr double kSectorSplitStart = 1.0;

// The fit's start value of pingpong_overlap (declared default 0: the term off): half the epilogue
// beside the other consumer's loop (a start value; the ping-pong form measured 1.03-1.15x faster
// than the cooperative one on dp-persistent, docs/PERFORMANCE.md, "Ping-pong consumers").
constexpr double kPingpongOverlapStart = 0.5;

// The fit's start value of ktile_fixed_us (its declared default is 0, the term off; the fit works
// in log space, where 0 cannot move): 50 ns, a small share of a 128x128x64 k-tile (~0.3 us).
constexpr double kKtileFixedStartUs = 0.05;

// The fit's start value of l2_reuse_mib (declared default 0: the footprint rule): the H200's L2.
constexpr double kL2ReuseStartMib = 50.0;

// The fit's start value of reuse_lag_l2_mib (declared default 0: l2_reuse_mib): half the H200's
// 60 MB L2, what scattered slices keep while the wave's in-step slices stream through.
constexpr double kReuseLagL2StartMib = 28.0;

// The fit's start value of reuse_lag_scale (declared default 0: the term off): the lag as it is,
// every busy CTA loading at one rate while the slice waits in L2.
constexpr double kReuseLagStartScale = 1.0;

// The fit's start value of wave_reuse_scale (declared default 0: the footprint rule): what one
// wave loads, as it is (pinned there: the data fix only the scale / l2_reuse_mib).
constexpr double kWaveReuseStartScale = 1.0;

// power_throttle's start value (declared default 0: the term off) and power_boost_us's default
// and start value, from the SM clock the bench logs after each row at 132 SMs
// (docs/calibration-notes.md, "SM clock under long full-chip kernels"): every kernel under 1 ms
// stays at 1970-1980 MHz, kernels over 3 ms at 600-700 TFLOP/s end near 1635 MHz (1980 / 1635 =
// 1.21 at a tensor share of about a half, so 0.4).
constexpr double kPowerThrottleStart = 0.4;
constexpr double kPowerBoostStartUs = 1500.0;

}  // namespace lw

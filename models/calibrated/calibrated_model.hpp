// `calibrated`: a tile-aware model whose costs derive from what a k-tile computes and moves
// (FLOPs, L2 requests, DRAM bytes) at fitted rates; read from a model file in configs/models/
// written by `lastwave calibrate`.
#pragma once
#include "models/registry.hpp"

namespace lw {

ModelInfo calibrated_model_info();

// The three pipes of a k-tile (tensor cores, L2, DRAM) overlap: the slowest sets the pace. They are
// combined as a p-norm, (a^p + b^p + c^p)^(1/p), a smooth max (two equal pipes cost 2^(1/p) = 1.19x
// one) so the fit has gradients on both sides of a ridge.
constexpr double kPipeOverlapExponent = 4.0;
double combine_pipes(double mma, double l2, double dram);

// The fit's start value of ktile_fixed_us (its declared default is 0, the term off; the fit works
// in log space, where 0 cannot move): 50 ns, a small share of a 128x128x64 k-tile (~0.3 us).
constexpr double kKtileFixedStartUs = 0.05;

}  // namespace lw

// Baseline predictors fitted to the same training split as the simulator: the Stream-K paper's
// Appendix A.1 per-CTA model, and a plain roofline + wave-count estimate. Both are linear in
// their coefficients, fitted by weighted least squares on relative error (Eigen), and fed what
// the calibrated model knows: tile MACs, row alignment (K % 64) and cluster size.
#pragma once
#include <string>
#include <vector>

#include "calib/cases.hpp"
#include "gpu/gpu_spec.hpp"

namespace lw {

struct LinearBaseline {
  std::string name;
  std::vector<std::string> terms;  // one per coefficient
  std::vector<double> coef;        // us per unit of each term
};

// What the calibrated model sees of a case beyond iteration counts (calibrated_model.cpp).
struct CaseTraits {
  double tile_scale = 1;     // tile.m tile.n tile.k / (128 x 128 x 64): MACs of a k-tile
  bool misaligned = false;   // operand rows not 128-byte aligned (bf16 K % 64 != 0): extra lines
  bool clustered = false;    // a cluster of more than one CTA (multicast operand loads)
  double split_sectors = 0;  // extra 32-byte sectors per row slice (traffic::extra_sectors_per_row)
  double cluster_oob_share = 0;  // traffic::max_cluster_oob_share: the slowest cluster tile's
};
CaseTraits case_traits(const FitCase& c);

// Appendix A.1, fed the tile: a + b*[peers > 1] + c*W + d*(peers - 1) + e*W*[misaligned] +
// f*W*[clustered] + g*S*[clustered] + h*W*split_sectors + i*W*cluster_oob_share, with W =
// iters_per_cta * tile_scale (reference k-tiles). iters_per_cta is the most MAC iterations any SM
// slot runs (CTAs land on slot cta % resident), S that slot's segments (a cluster's per-segment
// cost, as the calibrated model's); peers is the most contributors of any tile.
std::vector<double> a1_features(const FitCase& c);
const std::vector<std::string>& a1_terms();

// Roofline + waves, fed the same: a + b*T*t_iter + c*T*tile_scale + d*T*tile_scale*[misaligned] +
// e*T*tile_scale*[clustered] + f*waves*[clustered] (a segment per unit) + the split-sector and
// cluster out-of-bounds shares times T*tile_scale (as A.1's h and i), with T = ceil(units /
// resident) * ceil(iterations / units) the iterations along the busiest SM and t_iter the
// `roofline` model's MAC-iteration time at that occupancy on the preset.
std::vector<double> roofline_wave_features(const FitCase& c, const GpuSpec& preset);
const std::vector<std::string>& roofline_wave_terms();

using FeatureFn = std::vector<double> (*)(const FitCase&, const GpuSpec&);
std::vector<double> a1_features_fn(const FitCase& c, const GpuSpec&);

LinearBaseline fit_baseline(const std::string& name, const std::vector<std::string>& terms,
                            const std::vector<FitCase>& train, const GpuSpec& preset,
                            FeatureFn features);
std::vector<double> predict_baseline(const LinearBaseline& b, const std::vector<FitCase>& cases,
                                     const GpuSpec& preset, FeatureFn features);

}  // namespace lw

// Baseline predictors fitted to the same training split as the simulator: the Stream-K paper's
// Appendix A.1 per-CTA model, and a plain roofline + wave-count estimate. Both are linear in
// their coefficients and fitted by weighted least squares on relative error (Eigen).
#pragma once
#include <string>
#include <vector>

#include "models/calib/cases.hpp"
#include "sim/gpu/gpu_spec.hpp"

namespace lw {

struct LinearBaseline {
  std::string name;
  std::vector<std::string> terms;  // one per coefficient
  std::vector<double> coef;        // us per unit of each term
};

// Appendix A.1: a + b*[peers > 1] + c*iters_per_cta + d*(peers - 1). iters_per_cta is the most
// MAC iterations any SM slot runs (CTAs land on slot cta % resident); peers is the most
// contributors of any tile.
std::vector<double> a1_features(const FitCase& c);

// Roofline + waves: a + b * ceil(units / resident) * ceil(iterations / units) * t_iter, with
// t_iter the `roofline` model's MAC-iteration time at that occupancy on the preset.
std::vector<double> roofline_wave_features(const FitCase& c, const GpuSpec& preset);

using FeatureFn = std::vector<double> (*)(const FitCase&, const GpuSpec&);
std::vector<double> a1_features_fn(const FitCase& c, const GpuSpec&);

LinearBaseline fit_baseline(const std::string& name, const std::vector<std::string>& terms,
                            const std::vector<FitCase>& train, const GpuSpec& preset,
                            FeatureFn features);
std::vector<double> predict_baseline(const LinearBaseline& b, const std::vector<FitCase>& cases,
                                     const GpuSpec& preset, FeatureFn features);

}  // namespace lw

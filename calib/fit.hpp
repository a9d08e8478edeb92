// Fitting the `calibrated` model: start values from hardware traces (segment durations give the
// per-iteration and fixup costs almost directly), then Levenberg-Marquardt (Eigen) on the
// relative error of simulated vs measured makespan, parameters in log space (kept positive).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "calib/cases.hpp"
#include "calib/identify.hpp"
#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/trace/trace_read.hpp"

namespace lw {

struct FitOptions {
  int max_evaluations = 40;        // LM function evaluations (each one sweep over the cases)
  std::vector<std::string> fixed;  // parameter names held at their start values
  // Held at their start values too, but by the model's physics: the data fix them only together
  // with another parameter (reported as pinned, not undetermined).
  std::vector<std::string> pinned;
  // Called after each simulation of the cases with the fit's count so far (progress; optional).
  std::function<void(int simulations)> on_simulation;
};

struct FitResult {
  ParamValues params;
  ParamValues start;
  int evaluations = 0;
  std::string status;
  double train_rms_rel = 0;         // root mean square of (sim - measured) / measured
  Identifiability identifiability;  // which parameters the training data determined
};

// Start values from hardware traces (median phase durations, per-iteration slope); parameters the
// traces do not show keep `base`.
// `tile` is the traced kernel's tile (per-iteration FLOPs).
ParamValues start_from_traces(const std::vector<TraceDoc>& traces, const ParamValues& base,
                              const TileShape& tile);

// A pipe switched off is held at a rate so high that it costs nothing (inside kRateRange).
constexpr double kPipeOffRate = 1e15;
static_assert(kPipeOffRate <= kMaxParamRate, "a switched-off pipe's rate must be in range");

// Start values from an earlier fit (`calibrate --start`): `base` with every parameter `file`
// determined, except terms it held off (a time or size of 0, a rate at kPipeOffRate or above),
// whose start stays `base`'s. Throws std::invalid_argument unless `file` is a calibrated model.
ParamValues start_from_model(const ModelFile& file, const std::string& path,
                             const ParamValues& base);

// Fits the `calibrated` model to `cases`. When `scale_start` is set, the start values of free
// times are first multiplied by the median measured / simulated ratio and free rates divided by
// it (used when there are no traces).
FitResult fit_calibrated(const std::vector<FitCase>& cases, const GpuSpec& gpu,
                         const ParamValues& start, bool scale_start, const FitOptions& options);

}  // namespace lw

// The state one `lastwave calibrate` run builds stage by stage (calibrate.cpp) and the renderers
// that turn it into the model file, the markdown report, the terminal summary and the residuals
// CSV (calibrate_report.cpp). Internal to calib.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/baselines.hpp"
#include "calib/calibrate.hpp"
#include "calib/cases.hpp"
#include "calib/checkpoint.hpp"
#include "calib/fit.hpp"
#include "calib/metrics.hpp"
#include "calib/repeats.hpp"
#include "calib/residual_fit.hpp"
#include "gpu/gpu_spec.hpp"
#include "models/coverage.hpp"
#include "models/registry.hpp"
#include "sim/trace/trace_read.hpp"

namespace lw {

using IndexSet = std::vector<size_t>;
using LabelledRows = std::vector<std::pair<std::string, IndexSet>>;

// Predictor lists: the simulator first, then the fitted baselines (A.1, roofline + waves); with
// residual trees, after the others: the simulator without them ("physics only"), then each fitted
// baseline with its own trees.
constexpr size_t kFittedBaselines = 2;

struct Predictor {
  std::string name;
  std::vector<double> pred;  // one makespan (us) per case
};

// Train / validation ("held") / sealed test split (indices into the cases); `all` is train and
// validation, never test. `physics` is the training rows the physics is fitted on (all of `train`
// unless --physics-measurements names fewer files).
struct Split {
  IndexSet all, train, held, test, physics;
};

// One choice of model terms, fitted on the training rows and scored on validation.
struct TermChoice {
  std::string name;                 // "all pipes", "no DRAM pipe", ...
  std::vector<std::string> off;     // terms off: rates held so high they cost nothing, times at 0
  std::vector<std::string> pinned;  // held at their start values (FitOptions::pinned)
  ParamValues restart;              // start values this variant's fits take instead of the run's
  FitResult fit;
  ErrorStats validation;       // all validation rows
  ErrorStats validation_full;  // validation rows at the preset's SM count
};

// Fit on the full-GPU training rows only, predict every partition row.
struct CrossCheck {
  IndexSet train_full, partitions, partitions_held;
  IndexSet physics_full;  // the physics' training rows at the full GPU: what `fit` is fitted on
  FitResult fit;
  ResidualTrees residual;        // fitted on train_full's rows (none when residual.rounds = 0)
  std::vector<Predictor> preds;  // empty when there are no full-GPU rows or no partitions
};

// Validation figures are what terms were chosen on; test figures (n = 0 / groups = 0 without
// --test) are reported as they came.
struct Headline {
  IndexSet held_full;                   // held-out rows at the preset's SM count
  IndexSet test_full;                   // test rows at the preset's SM count
  ErrorStats full, all, cross, test;    // test: all sealed test rows
  ErrorStats test_at_full, test_cross;  // test_cross: fit-at-full-GPU model on test partitions
  DecisionStats pick, test_pick;
};

// Built in place by run_calibration and never moved: `cases` point into `ms`.
struct CalibrationRun {
  const CalibrateOptions* opt = nullptr;
  GpuSpec preset;
  int64_t skipped = 0;
  std::vector<Measurement> ms;
  std::vector<TraceDoc> traces;
  std::vector<FitCase> cases;
  Split split;
  ParamValues start;                 // the fit's start values (defaults or from traces)
  std::vector<TermChoice> variants;  // sorted by validation error; front() is kept
  FitResult fit;                     // variants.front().fit
  // Fitted on the training rows' ln(measured / simulated) under `fit` (models/residual); preds[0]
  // carries them, the last predictor is the simulator without them.
  ResidualTrees residual;
  LinearBaseline a1, rw;
  std::vector<Predictor> preds;  // preds[0] is the calibrated simulator
  CrossCheck cross;
  Headline head;
  RepeatTimings repeats;     // --repeats (none: no files)
  Coverage coverage;         // the model file's coverage section, once the model is fitted
  FitCheckpoint checkpoint;  // finished fits of an earlier, interrupted run of the same inputs
};

std::vector<FitCase> subset(const std::vector<FitCase>& cases, const IndexSet& idx);

template <typename Pred>
IndexSet select(const std::vector<FitCase>& cases, const IndexSet& from, Pred pred) {
  IndexSet out;
  for (size_t i : from) {
    if (pred(*cases[i].m)) out.push_back(i);
  }
  return out;
}

nlohmann::json model_file_json(const CalibrationRun& run);
std::string report_markdown(const CalibrationRun& run);
std::string terminal_summary(const CalibrationRun& run);
std::string residuals_csv(const CalibrationRun& run);

}  // namespace lw

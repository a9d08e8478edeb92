// `lastwave calibrate` end to end: read and split the measurements, fit the `calibrated` model
// and the baselines on the training split, evaluate on the held-out split (and across SM
// counts), and render the model file and docs/CALIBRATION.md. Nothing is written until all of it
// has succeeded, and then each file atomically.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "calib/residual_fit.hpp"
#include "sim/decomp/types.hpp"

namespace lw {

struct CalibrateOptions {
  std::vector<std::string> measurements;  // CSV files: the training set
  // Validation set (chooses model terms); empty = the shapes of `measurements` hashed into
  // `holdout` with `seed`.
  std::vector<std::string> validation;
  // Sealed test set: evaluated and reported as it comes (sha256 of each file in the report);
  // never fitted or tuned on.
  std::vector<std::string> test;
  std::vector<std::string> traces;  // hardware traces (optional; start values)
  // Validation and test configurations timed again, one pass per file (optional; report only:
  // the picks judged against every timing and the measurement's noise ceiling, repeats.hpp).
  std::vector<std::string> repeats;
  // Training files whose rows the physics is fitted on (each term variant's fit and the cross-SM
  // fit); empty = every --measurements file. The residual trees and the baselines take every
  // training row. Names must be among `measurements`. The checkpoint is keyed on these files, so
  // rows added outside them leave the saved physics fits valid.
  std::vector<std::string> physics_measurements;
  // A fitted calibrated model file whose parameters start the fit (optional; a refit after a
  // small change converges in fewer evaluations). Terms it held off start as without it.
  std::string start_model;
  std::string gpu = "h200";
  TileShape tile;
  double holdout = 0.25;
  uint64_t seed = 1;
  int max_evaluations = 40;
  // The residual trees fitted after the model's parameters (rounds 0: none).
  ResidualFitOptions residual;
  // Term variants to fit, by tag ("r12"); empty = every variant of the list.
  std::vector<std::string> variants;
  // JSON file of finished fits (optional): saved as each fit ends, loaded by a rerun of the same
  // run (calib/checkpoint.hpp).
  std::string checkpoint;
  // Fit the cross-SM check first (needs one variant): with a shared checkpoint, two machines can
  // fit a run's two stages at once.
  bool cross_first = false;
  std::string command;       // how this run was invoked, for the report
  std::string git_revision;  // recorded in the model file
  std::string date;          // recorded in the model file (UTC, ISO 8601)
  std::string appendix;      // markdown appended to the report verbatim
  // Stage updates ("fit 1/3 (r9...), 57 simulations"), from the calling thread (optional).
  std::function<void(const std::string&)> progress;
};

// The training files the physics is fitted on: --physics-measurements, else every training file.
inline const std::vector<std::string>& physics_files(const CalibrateOptions& opt) {
  return opt.physics_measurements.empty() ? opt.measurements : opt.physics_measurements;
}

struct CalibrationResult {
  nlohmann::json model_file;
  std::string report;     // markdown
  std::string summary;    // a few lines for the terminal
  std::string residuals;  // CSV: one row per measurement with every predictor's makespan
};

// Throws std::invalid_argument (one line, naming file:line where it applies) on bad input.
CalibrationResult run_calibration(const CalibrateOptions& options);

// A model file's text: indented JSON, its residual trees one per line, its coverage section last
// with its points on one line.
std::string model_file_text(nlohmann::json j);

// Writes the model file and (when the paths are non-empty) the report and the residuals CSV,
// each atomically.
void write_calibration(const CalibrationResult& r, const std::string& model_path,
                       const std::string& report_path, const std::string& residuals_path = "");

}  // namespace lw

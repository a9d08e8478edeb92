// The `predict` pipeline as a library, shared by `lastwave predict` and the Python module: the
// setup (tile, best's search lists, validation), every (shape, schedule) row on all cores, best's
// ranked plans (--top), the refusal of rows a fitted model's undetermined parameters move, and
// the CSV rendering of the rows.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/api/model_source.hpp"
#include "sim/predict/predict.hpp"

namespace lw {

// Called once per shape done (from worker threads); may be empty.
using ShapeDone = std::function<void()>;

// Every (shape, schedule) row, shape-major (deterministic order), simulated on all cores.
std::vector<PredictRow> predict_all(const std::vector<Problem>& shapes,
                                    const std::vector<std::string>& schedules,
                                    const PredictSetup& setup, const ShapeDone& done = {});

// Tile (or best's kernel-tile list) from --tile text, cluster(s) from --cluster text (nullopt:
// the defaults), GPU shape, reduction and model for predict/compare; validates the tile(s) and
// the model's parameters for each against them (a shape the simulator cannot take is a refused
// row, not an error: simulation_refusal). Throws std::invalid_argument.
PredictSetup make_predict_setup(const std::optional<std::string>& tile,
                                const std::optional<std::string>& cluster, Reduction reduction,
                                const GpuSpec& gpu, const CostModel& model,
                                const std::vector<std::string>& schedules);

// What `lastwave predict` is asked.
struct PredictRequest {
  std::vector<Problem> shapes;
  std::vector<std::string> schedules;  // parse_schedule_list() names
  GpuSpec gpu;
  ModelSource model;
  std::optional<std::string> tile;     // --tile text
  std::optional<std::string> cluster;  // --cluster text
  Reduction reduction = Reduction::Deterministic;
  std::optional<int64_t> top;  // --top K: best's K fastest plans, with a rank column
  bool strict = false;         // a refused row is an error (check_strict)
};

// A request validated, with its model built for its GPU (prepare_predict).
struct PreparedPredict {
  PredictRequest request;
  std::unique_ptr<CostModel> model;
  PredictSetup setup;  // points at *model
};

// Builds the model and the setup and checks --top; throws std::invalid_argument (one line).
PreparedPredict prepare_predict(PredictRequest request);

struct PredictOutcome {
  std::vector<std::vector<PredictRow>> blocks;  // each shape's rows, in schedule order
  bool physical = false;                        // time unit us: the CSV's makespan_us column
  bool ranked = false;                          // --top given: the CSV's rank column
  std::string time_unit;
  std::string refusals;       // one line on the refused rows, or empty
  std::string first_refusal;  // the first refused row's reason, or empty
  std::string extrapolation;  // outside_calibration()'s text, or empty
  std::string extrapolated;   // extrapolated_summary(): rows its coverage flags, or empty
  std::string best_skipped;   // PredictSetup::best_skipped: the listed configs best skips, or empty
};

// Every row; refused rows say why.
PredictOutcome run_predict(const PreparedPredict& prepared, const ShapeDone& done = {});

// With the request's `strict`, throws the first refusal's reason (std::invalid_argument).
void check_strict(const PreparedPredict& prepared, const PredictOutcome& outcome);

std::vector<PredictRow> flatten(const std::vector<std::vector<PredictRow>>& blocks);

// ok (answered), deadlock (the plan cannot finish) or refused (the model cannot answer it).
std::string row_status(const PredictRow& r);

// `predict --format csv`: header and one line per row of `blocks` (PredictOutcome::blocks, in
// order, read in place). `physical`: a makespan_us column; `ranked`: a rank column (1 = fastest of
// `best`; 0 for other schedules). The last four columns, extrapolated, extrapolation, p10_us and
// p90_us, are empty for a model without coverage.
std::string predict_csv(const std::vector<std::vector<PredictRow>>& blocks, bool physical,
                        bool ranked);

// --tile text "MxNxK" -> TileShape; throws std::invalid_argument (one line) on malformed text.
TileShape parse_tile(const std::string& text);

// "%.4f"-style formatting of one number (printf format `f`).
std::string format_number(const char* f, double v);

}  // namespace lw

// Prediction of one (shape, schedule) under a cost model: plans it with sim/decomp, runs the event
// simulator, and returns one result row. `best` searches kernel configs x decompositions
// (best.hpp).
#pragma once
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/predict/best.hpp"

namespace lw {

// Where a fitted model file's coverage (models/coverage.hpp) puts a row: whether it lies farther
// from the training points than the file's threshold (and why), and the row's p10-p90 interval
// (NaN when the row has no time: refused or deadlocked).
struct RowCoverage {
  bool extrapolated = false;
  std::string reason;  // empty unless extrapolated
  double low_us = 0, high_us = 0;
};

// The plan's facts (choice = what the heuristic or `best` picked) plus the simulated times.
struct PredictRow : PlanSummary {
  Problem problem;
  int64_t sms = 0;
  std::string schedule;  // as requested ("best" stays "best"; choice names the winner)
  TileShape tile;        // the tile simulated (best: the winning one)
  ClusterShape cluster;  // the cluster (best: the winning one; the simulator models 1x1)
  double makespan = 0;
  // The model's factor on the simulated makespan (its residual trees; 1 without): makespan is the
  // simulated time times it, a trace of the run ends at makespan / makespan_factor.
  double makespan_factor = 1;
  double ideal = 0;
  double efficiency = 0;
  bool deadlock = false;
  std::string deadlock_report;
  int64_t rank = 0;  // predict_ranked(): 1 = the fastest plan; 0 = not ranked
  // The run stopped past the cut-off it was given (predict_config): makespan is then only what
  // the simulated time had reached, more than the cut-off.
  bool cut_off = false;
  // Why the model cannot answer this row (its times are not to be used); empty: answered.
  std::string refused;
  // Set by run_predict when the model file has a coverage section; absent otherwise.
  std::optional<RowCoverage> coverage;
};

struct PredictSetup {
  TileShape tile;                           // for every schedule but best
  ClusterShape cluster;                     // for every schedule but best
  std::vector<TileShape> best_tiles;        // best's candidate tiles; empty = model_tiles(model)
  std::vector<ClusterShape> best_clusters;  // best's clusters; empty = model_clusters(model)
  // One line on the listed configs best skips because the model cannot cost them; empty: none.
  std::string best_skipped;
  GpuShape gpu;
  Reduction reduction = Reduction::Deterministic;
  const CostModel* model = nullptr;
};

// The most tiles a plan the simulator runs may have: a data-parallel plan of 2^26 tiles takes about
// 4 s to simulate on a 2-core machine (7.8e7 tiles: 4.4 s), and 2^26 tiles of 128x128 are 2.2 TB
// of bf16 output, more than a GPU holds. A larger one is refused (PredictRow::refused) instead of
// running for minutes.
inline constexpr int64_t kMaxSimulatedTiles = int64_t{1} << 26;

// Why the simulator cannot take `problem` on `tile` (empty: it can): the planners' limits
// (plan_geometry: more than 2^31 (tile, k) iterations, m*n*k beyond 2^63) or more tiles than
// kMaxSimulatedTiles. predict(), predict_ranked() and predict_config() answer such a row refused
// (best: from the candidate tiles it can take, refused when there are none).
std::string simulation_refusal(const Problem& problem, const TileShape& tile, const GpuShape& gpu);

// One row; `timeline` (optional) receives the simulated trace of the chosen plan.
PredictRow predict(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline = nullptr);

// `best`'s `count` fastest plans for `problem` (rank_best), fastest first, as rows of schedule
// "best" with `rank` 1, 2, ...; choice, tile and cluster name each plan. Rank 1 is predict()'s
// `best` row. One unranked row when every candidate deadlocks.
std::vector<PredictRow> predict_ranked(const Problem& problem, size_t count,
                                       const PredictSetup& setup, Simulator& sim);

// One concrete config: `schedule` on `tile` x `cluster` (for a ranked row: its choice, tile and
// cluster), whatever the setup's tile and cluster. A finite `cutoff` (in the row's time, after the
// makespan factor) stops the run as soon as it cannot end by then (SimOptions::cutoff with the
// chip floors, sim/predict/bounds.hpp): the row is then cut_off; a run that ends by it has the
// makespan it has without one.
PredictRow predict_config(const Problem& problem, const std::string& schedule,
                          const TileShape& tile, const ClusterShape& cluster,
                          const PredictSetup& setup, Simulator& sim,
                          double cutoff = std::numeric_limits<double>::infinity());

// The seed's closed-form Split-K estimate (schedule_sim.py split_k) under the unit model's costs.
double seed_split_k_estimate(int64_t tiles, int64_t iters, int64_t sms, int64_t splits,
                             double epilogue, double partial);

}  // namespace lw

// Prediction of one (shape, schedule) under a cost model: plans it with sim/decomp, runs the event
// simulator, and returns one result row. `best` searches kernel configs x decompositions
// (best.hpp).
#pragma once
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/predict/best.hpp"

namespace lw {

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
};

struct PredictSetup {
  TileShape tile;                           // for every schedule but best
  ClusterShape cluster;                     // for every schedule but best
  std::vector<TileShape> best_tiles;        // best's candidate tiles; empty = all kernel tiles
  std::vector<ClusterShape> best_clusters;  // best's clusters; empty = model_clusters(model)
  GpuShape gpu;
  Reduction reduction = Reduction::Deterministic;
  const CostModel* model = nullptr;
};

// One row; `timeline` (optional) receives the simulated trace of the chosen plan.
PredictRow predict(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline = nullptr);

// The seed's closed-form Split-K estimate (schedule_sim.py split_k) under the unit model's costs.
double seed_split_k_estimate(int64_t tiles, int64_t iters, int64_t sms, int64_t splits,
                             double epilogue, double partial);

}  // namespace lw

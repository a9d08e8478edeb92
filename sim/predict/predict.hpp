// Prediction of one (shape, schedule) under a cost model: plans it with sim/decomp, runs the event
// simulator, and returns one result row. `best` picks the fastest of a fixed candidate set.
#pragma once
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

// The plan's facts (choice = what the heuristic or `best` picked) plus the simulated times.
struct PredictRow : PlanSummary {
  Problem problem;
  int64_t sms = 0;
  std::string schedule;  // as requested ("best" stays "best")
  double makespan = 0;
  double ideal = 0;
  double efficiency = 0;
  bool deadlock = false;
  std::string deadlock_report;
};

struct PredictSetup {
  TileShape tile;
  GpuShape gpu;
  Reduction reduction = Reduction::Deterministic;
  const CostModel* model = nullptr;
};

// Schedules `best` chooses among.
const std::vector<std::string>& best_candidates();

// One row; `timeline` (optional) receives the simulated trace of the chosen plan.
PredictRow predict(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline = nullptr);

// The seed's closed-form Split-K estimate (schedule_sim.py split_k) under the unit model's costs.
double seed_split_k_estimate(int64_t tiles, int64_t iters, int64_t sms, int64_t splits,
                             double epilogue, double partial);

}  // namespace lw

// `best`: the simulator's own pick. Simulates every kernel config (tile x cluster from
// sim/decomp/kernel_configs.hpp, optionally filtered) x every decomposition of
// best_decompositions() under a cost model and keeps the fastest. lastwave-bench calls
// choose_best() in-process for `--decomposition auto`.
#pragma once
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

// Decompositions `best` tries for every config: dp, splitk:{2,3,4,6,8}, streamk, cutlass,
// two-tile (names of sim/decomp/planners/schedule.hpp).
const std::vector<std::string>& best_decompositions();

// The winning config and decomposition. `found` is false when every candidate deadlocks.
struct BestChoice {
  TileShape tile = kDefaultTile;
  ClusterShape cluster;
  std::string schedule;  // a best_decompositions() name, e.g. "splitk:4"
  double makespan = 0;   // predicted time, in the model's time_unit()
  bool found = false;
  int64_t simulated = 0;  // candidates simulated (some cut off early; see below)
};

// Fastest (tile, cluster, decomposition) for `problem` on `gpu` under `model`.
//   tiles:  candidates, each one of kKernelTiles (parse_kernel_tiles("") = all of them);
//   every cluster of kKernelClusters is tried with every tile.
// Ties go to the earlier candidate in (tiles order, kKernelClusters order, best_decompositions()
// order). Exact: likely winners are simulated first and a candidate is abandoned only once its
// simulated time passes the best makespan found so far (SimOptions::cutoff), so the result equals
// an exhaustive search.
// Throws std::invalid_argument (one line) for a bad shape or when `model` lacks parameters for a
// candidate tile or cluster (CostModel::config_error). `sim` is reused scratch (no allocation per
// event); thread-compatible: one Simulator per thread.
BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles, Simulator& sim);

// The same with a Simulator of its own (convenient for one-off calls).
BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles);

}  // namespace lw

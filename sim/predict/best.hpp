// `best`: the simulator's own pick. Simulates every kernel config (tile x cluster of
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
// two-tile, and splitk-dsm:{2,4,8} on the configs the kernels run it on
// (kernel_runs_cluster_reduce) (names of sim/decomp/planners/schedule.hpp).
const std::vector<std::string>& best_decompositions();

// Whether the kernels run best_decompositions() entry `decomposition` on tile x cluster: every
// one where the config exists, splitk-dsm:S where kernel_runs_cluster_reduce says so.
bool kernel_runs_decomposition(const std::string& decomposition, const TileShape& tile,
                               const ClusterShape& cluster);

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
//   tiles, clusters: candidates (kKernelTiles / kKernelClusters entries); every pair the kernels
//   have (kernel_has_config) is tried, the others are skipped.
// Ties go to the earlier candidate in (tiles, clusters, best_decompositions()) order. Exact: every
// candidate gets a lower bound on its makespan (its least simulated time under a model whose costs
// grow with load, times its makespan factor, asked for a config's plans together); candidates are
// simulated in order of it, the search stops at the first whose bound passes the best makespan
// found so far, and a run is abandoned once its simulated time passes it (SimOptions::cutoff), so
// the result equals an exhaustive search (rank_best_exhaustive, which the tests compare).
// Candidates `model` cannot cost (CostModel::config_error) are skipped (uncostable_configs() lists
// them, model_tiles() / model_clusters() the ones it can). Throws std::invalid_argument (one line)
// for a bad shape, an empty list, or when no candidate is left. `sim` is reused scratch (no
// allocation per event): one Simulator per thread.
BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       const std::vector<ClusterShape>& clusters, Simulator& sim);

// The `count` fastest plans (at least 1), fastest first, by the same exact search: a candidate is
// abandoned once its simulated time passes the count-th fastest found so far. A plan that two
// decompositions produce (e.g. `cutlass` choosing data-parallel) is listed once, under the earlier
// name in best_decompositions() order; ties in time go to the earlier candidate as above. Fewer
// than `count` when fewer distinct plans finish; one entry with `found` false when none does.
std::vector<BestChoice> rank_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                                  const CostModel& model, const std::vector<TileShape>& tiles,
                                  const std::vector<ClusterShape>& clusters, size_t count,
                                  Simulator& sim);

// rank_best's answer by simulating every candidate to its end in canonical order (no cut-off, no
// bound, no search order): the reference the tests hold rank_best to; far slower.
std::vector<BestChoice> rank_best_exhaustive(const Problem& problem, const GpuShape& gpu,
                                             Reduction reduction, const CostModel& model,
                                             const std::vector<TileShape>& tiles,
                                             const std::vector<ClusterShape>& clusters,
                                             size_t count, Simulator& sim);

// The same with a Simulator of its own (convenient for one-off calls).
BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       const std::vector<ClusterShape>& clusters);

// The configs of tiles x clusters the kernels have but `model` cannot cost, one line each
// ("tile T cluster C: why"), in list order: what `best` skips.
std::vector<std::string> uncostable_configs(const CostModel& model,
                                            const std::vector<TileShape>& tiles,
                                            const std::vector<ClusterShape>& clusters);
// The kernel clusters `model` has parameters for (`best`'s default cluster list).
std::vector<ClusterShape> model_clusters(const CostModel& model);
// The kernel tiles `model` has parameters for (`best`'s default tile list).
std::vector<TileShape> model_tiles(const CostModel& model);

// Simulator options for plans of `cluster` on `gpu`: cluster slots (gpu.max_active_clusters, or
// sms x ctas_per_sm / cluster size) and the cluster size, as plan_schedule plans them.
SimOptions sim_options_for(const GpuShape& gpu, const ClusterShape& cluster);
// The same for `plan` (its cluster), with the resident clusters of its splits where the splits
// reduce in one cluster (Plan::cluster_reduce, SimOptions::reduce_cluster_slots).
SimOptions sim_options_for(const GpuShape& gpu, const Plan& plan);

}  // namespace lw

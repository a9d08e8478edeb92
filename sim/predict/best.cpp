// choose_best(): exhaustive tile x cluster x decomposition search with exact early cut-off.
#include "sim/predict/best.hpp"

#include <stdexcept>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/planners/tile_text.hpp"

namespace lw {

const std::vector<std::string>& best_decompositions() {
  static const std::vector<std::string> names = {
      "dp", "splitk:2", "splitk:3", "splitk:4", "splitk:6", "splitk:8", "streamk", "cutlass",
      "two-tile"};
  return names;
}

namespace {

void check_config(const CostModel& model, const TileShape& tile, const ClusterShape& cluster) {
  const std::string err = model.config_error(tile, cluster);
  if (!err.empty()) {
    throw std::invalid_argument("tile " + tile_text(tile) + " cluster " + cluster_text(cluster) +
                                ": " + err);
  }
}

}  // namespace

BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       Simulator& sim) {
  if (tiles.empty()) throw std::invalid_argument("best: no candidate tiles");
  BestChoice best;
  SimOptions opt;
  opt.sms = gpu.sms;
  opt.ctas_per_sm = gpu.ctas_per_sm;
  for (const TileShape& tile : tiles) {
    for (const ClusterShape& cluster : kKernelClusters) {
      check_config(model, tile, cluster);
      for (const std::string& name : best_decompositions()) {
        const Plan plan = plan_schedule(name, problem, tile, gpu, reduction).plan;
        opt.cutoff = best.found ? best.makespan : std::numeric_limits<double>::infinity();
        const SimResult& r = sim.run(plan, model, opt);
        ++best.simulated;
        if (r.deadlock || r.cut_off) continue;
        if (!best.found || r.makespan < best.makespan) {
          best.tile = tile;
          best.cluster = cluster;
          best.schedule = name;
          best.makespan = r.makespan;
          best.found = true;
        }
      }
    }
  }
  return best;
}

BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles) {
  Simulator sim;
  return choose_best(problem, gpu, reduction, model, tiles, sim);
}

}  // namespace lw

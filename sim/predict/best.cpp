// choose_best(): exhaustive tile x cluster x decomposition search with exact early cut-off.
#include "sim/predict/best.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/planners/tile_text.hpp"

namespace lw {

const std::vector<std::string>& best_decompositions() {
  static const std::vector<std::string> names = {"dp",       "splitk:2", "splitk:3",
                                                 "splitk:4", "splitk:6", "splitk:8",
                                                 "streamk",  "cutlass",  "two-tile"};
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

// One (tile, cluster, decomposition) to simulate. The search simulates likely winners first (tiles
// of small ideal makespan, then Stream-K-like decompositions) so the cut-off prunes the rest
// early; `index` is the canonical (tiles, clusters, decompositions) position that breaks ties.
struct Candidate {
  size_t tile, cluster, decomposition, index;
  double ideal;
  int rank;
  bool operator<(const Candidate& o) const {
    if (ideal != o.ideal) return ideal < o.ideal;
    if (rank != o.rank) return rank < o.rank;
    return index < o.index;
  }
};

// Try-first rank of each best_decompositions() entry (lower first).
constexpr int kTryFirst[] = {3, 4, 5, 6, 7, 8, 0, 1, 2};

// Every tile's full MAC loop and epilogue spread over all SMs, all of them busy (SimResult::ideal).
double ideal_makespan(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                      const CostModel& model) {
  const Plan p = plan_geometry(problem, tile, gpu);
  Segment whole;
  whole.k_begin = 0;
  whole.k_end = p.k_tiles;
  const CostContext all{gpu.sms, gpu.sms};
  return static_cast<double>(p.tiles) * (model.mac(p, whole, all) + model.epilogue(p, whole, all)) /
         static_cast<double>(gpu.sms);
}

}  // namespace

BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       Simulator& sim) {
  if (tiles.empty()) throw std::invalid_argument("best: no candidate tiles");
  std::vector<Candidate> order;
  for (size_t t = 0; t < tiles.size(); ++t) {
    for (size_t c = 0; c < static_cast<size_t>(kKernelClusterCount); ++c) {
      check_config(model, tiles[t], kKernelClusters[c]);
      const double ideal = ideal_makespan(problem, tiles[t], gpu, model);
      for (size_t d = 0; d < best_decompositions().size(); ++d) {
        const size_t index = (t * kKernelClusterCount + c) * best_decompositions().size() + d;
        order.push_back(Candidate{t, c, d, index, ideal, kTryFirst[d]});
      }
    }
  }
  std::sort(order.begin(), order.end());
  BestChoice best;
  size_t best_index = 0;
  SimOptions opt;
  opt.sms = gpu.sms;
  opt.ctas_per_sm = gpu.ctas_per_sm;
  for (const Candidate& c : order) {
    const std::string& name = best_decompositions()[c.decomposition];
    const Plan plan = plan_schedule(name, problem, tiles[c.tile], gpu, reduction).plan;
    opt.cutoff = best.found ? best.makespan : std::numeric_limits<double>::infinity();
    const SimResult& r = sim.run(plan, model, opt);
    ++best.simulated;
    if (r.deadlock || r.cut_off) continue;
    const bool better =
        r.makespan < best.makespan || (r.makespan == best.makespan && c.index < best_index);
    if (!best.found || better) {
      best = BestChoice{tiles[c.tile], kKernelClusters[c.cluster], name, r.makespan, true,
                        best.simulated};
      best_index = c.index;
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

// choose_best(): exhaustive tile x cluster x decomposition search with exact early cut-off.
#include "sim/predict/best.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace lw {

const std::vector<std::string>& best_decompositions() {
  static const std::vector<std::string> names = {"dp",       "splitk:2", "splitk:3",
                                                 "splitk:4", "splitk:6", "splitk:8",
                                                 "streamk",  "cutlass",  "two-tile"};
  return names;
}

namespace {

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

// The candidate's ideal makespan (models/cost_model.hpp): the search order only needs the physics.
double candidate_ideal(const Problem& problem, const TileShape& tile, const ClusterShape& cluster,
                       const GpuShape& gpu, const CostModel& model) {
  const Plan p = plan_schedule("dp", problem, tile, gpu, Reduction::Deterministic, cluster).plan;
  return ideal_makespan(model, p, simulated_sms(sim_options_for(gpu, cluster)));
}

bool same_config(const Plan& a, const Plan& b) {
  return same_tile(a.tile, b.tile) && same_cluster(a.cluster, b.cluster);
}

// A lower bound on a split-K plan's makespan under a model whose costs grow with load: every tile's
// split segments at one busy SM, one partial store or add per non-owner split and the epilogue,
// spread evenly over all CTA slots, after the launch, times the model's makespan factor (the
// simulator scales the makespan by it). 0 for other plans (not needed: split-K candidates hold
// most of a large shape's events).
double split_k_lower_bound(const Plan& p, const CostModel& model, const SimOptions& opt) {
  if (!model.costs_grow_with_load() || p.split_mode != SplitMode::FixedSplit ||
      p.separate_reduction) {
    return 0;
  }
  const CostContext least{opt.sms * opt.cluster_size, 1, 1, 1};  // split-K: no panel gaps
  double per_tile = 0;
  Segment seg;  // tile 0: all its rows are inside the problem if any tile's are
  for (int64_t s = 0; s < p.splits; ++s) {
    const UnitRange r = unit_range(p, s * p.split_tiles);
    seg.k_begin = r.begin;
    seg.k_end = r.end;
    per_tile += model.mac(p, seg, least);
  }
  const double fixup =
      std::min(model.partial_store(p, seg, least), model.partial_accumulate(p, seg, least));
  per_tile += static_cast<double>(p.splits - 1) * fixup + model.epilogue(p, seg, least);
  const double least_time =
      model.launch_overhead(p) +
      static_cast<double>(p.tiles) * per_tile / static_cast<double>(opt.sms * opt.ctas_per_sm);
  return least_time * model.makespan_factor(p, simulated_sms(opt));
}

// A plan already simulated in this search: it cannot win if it was cut off or deadlocked.
struct Simulated {
  Plan plan;
  bool can_win;
  double makespan;
};

}  // namespace

SimOptions sim_options_for(const GpuShape& gpu, const ClusterShape& cluster) {
  SimOptions opt;
  opt.cluster_size = cluster.m * cluster.n;
  if (opt.cluster_size == 1) {
    opt.sms = gpu.sms;
    opt.ctas_per_sm = gpu.ctas_per_sm;
  } else {
    opt.sms = resident_clusters(gpu, cluster);
    opt.ctas_per_sm = 1;
  }
  return opt;
}

std::vector<std::string> uncostable_configs(const CostModel& model,
                                            const std::vector<TileShape>& tiles,
                                            const std::vector<ClusterShape>& clusters) {
  std::vector<std::string> out;
  for (const TileShape& t : tiles) {
    for (const ClusterShape& c : clusters) {
      if (!kernel_has_config(t, c)) continue;
      const std::string err = model.config_error(t, c);
      if (!err.empty())
        out.push_back("tile " + tile_text(t) + " cluster " + cluster_text(c) + ": " + err);
    }
  }
  return out;
}

std::vector<TileShape> model_tiles(const CostModel& model) {
  std::vector<TileShape> out;
  for (const TileShape& t : kKernelTiles) {
    if (model.config_error(t, ClusterShape{1, 1}).empty()) out.push_back(t);
  }
  return out;
}

std::vector<ClusterShape> model_clusters(const CostModel& model) {
  std::vector<ClusterShape> out;
  for (const ClusterShape& c : kKernelClusters) {
    if (model.config_error(kDefaultTile, c).empty()) out.push_back(c);
  }
  return out;
}

namespace {

// Every candidate config x decomposition, likely winners first (see Candidate).
std::vector<Candidate> search_order(const Problem& problem, const GpuShape& gpu,
                                    const CostModel& model, const std::vector<TileShape>& tiles,
                                    const std::vector<ClusterShape>& clusters) {
  if (tiles.empty() || clusters.empty()) {
    throw std::invalid_argument("best: no candidate tiles or clusters");
  }
  const size_t nd = best_decompositions().size();
  std::vector<Candidate> order;
  for (size_t t = 0; t < tiles.size(); ++t) {
    for (size_t c = 0; c < clusters.size(); ++c) {
      if (!kernel_has_config(tiles[t], clusters[c])) continue;
      if (!model.config_error(tiles[t], clusters[c]).empty()) continue;  // uncostable_configs()
      if (resident_clusters(gpu, clusters[c]) < 1) continue;  // needs more SMs than the GPU has
      const double ideal = candidate_ideal(problem, tiles[t], clusters[c], gpu, model);
      for (size_t d = 0; d < nd; ++d) {
        order.push_back(
            Candidate{t, c, d, (t * clusters.size() + c) * nd + d, ideal, kTryFirst[d]});
      }
    }
  }
  if (order.empty()) {
    throw std::invalid_argument(
        "best: none of these configs runs here (the kernels lack them, the cost model cannot "
        "cost them, or "
        "their clusters need more than " +
        std::to_string(gpu.sms) + " SMs)");
  }
  std::sort(order.begin(), order.end());
  return order;
}

// The fastest plans found so far, at most `limit`, in (makespan, canonical index) order; a plan
// listed once, under the name of least index among the decompositions that plan it.
class Ranking {
 public:
  explicit Ranking(size_t limit) : limit_(limit) {}
  // A run slower than this cannot enter (infinity until the list is full).
  double cutoff() const {
    return entries_.size() < limit_ ? std::numeric_limits<double>::infinity()
                                    : entries_.back().choice.makespan;
  }
  void offer(const BestChoice& choice, size_t index, const Plan& plan) {
    const auto same = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return same_config(e.plan, plan) && same_plan(e.plan, plan);
    });
    if (same != entries_.end()) {  // the same plan under another name: keep the earlier name
      if (index < same->index) *same = Entry{choice, index, plan};
    } else if (entries_.size() < limit_ || before(choice.makespan, index, entries_.back())) {
      entries_.push_back(Entry{choice, index, plan});
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return before(a.choice.makespan, a.index, b); });
    if (entries_.size() > limit_) entries_.pop_back();
  }
  std::vector<BestChoice> choices(int64_t simulated) const {
    std::vector<BestChoice> out;
    for (const Entry& e : entries_) {
      out.push_back(e.choice);
      out.back().simulated = simulated;
    }
    return out;
  }

 private:
  struct Entry {
    BestChoice choice;
    size_t index;
    Plan plan;
  };
  static bool before(double makespan, size_t index, const Entry& e) {
    return makespan < e.choice.makespan || (makespan == e.choice.makespan && index < e.index);
  }
  size_t limit_;
  std::vector<Entry> entries_;
};

}  // namespace

std::vector<BestChoice> rank_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                                  const CostModel& model, const std::vector<TileShape>& tiles,
                                  const std::vector<ClusterShape>& clusters, size_t count,
                                  Simulator& sim) {
  if (count < 1) throw std::invalid_argument("best: asked for no candidates");
  const std::vector<Candidate> order = search_order(problem, gpu, model, tiles, clusters);
  Ranking ranking(count);
  int64_t simulated = 0;
  std::vector<Simulated> seen;  // plans of the current config (a config's candidates are adjacent)
  for (const Candidate& c : order) {
    const std::string& name = best_decompositions()[c.decomposition];
    const Plan plan =
        plan_schedule(name, problem, tiles[c.tile], gpu, reduction, clusters[c.cluster]).plan;
    if (!seen.empty() && !same_config(seen[0].plan, plan)) seen.clear();
    const auto dup = std::find_if(seen.begin(), seen.end(),
                                  [&](const Simulated& s) { return same_plan(s.plan, plan); });
    Simulated now = dup != seen.end() ? *dup : Simulated{plan, false, 0};
    SimOptions opt = sim_options_for(gpu, clusters[c.cluster]);
    if (dup == seen.end() && split_k_lower_bound(plan, model, opt) > ranking.cutoff()) {
      continue;  // cannot enter the ranking (nor tie)
    }
    if (dup == seen.end()) {
      opt.cutoff = ranking.cutoff();
      opt.sm_stats = false;
      const SimResult& r = sim.run(plan, model, opt);
      ++simulated;
      now.can_win = !r.deadlock && !r.cut_off;
      now.makespan = r.makespan;
      seen.push_back(now);
    }
    if (!now.can_win) continue;
    ranking.offer(BestChoice{tiles[c.tile], clusters[c.cluster], name, now.makespan, true, 0},
                  c.index, plan);
  }
  std::vector<BestChoice> out = ranking.choices(simulated);
  if (out.empty()) {  // every candidate deadlocks (or none could run)
    BestChoice none;
    none.simulated = simulated;
    out.push_back(none);
  }
  return out;
}

BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       const std::vector<ClusterShape>& clusters, Simulator& sim) {
  return rank_best(problem, gpu, reduction, model, tiles, clusters, 1, sim).front();
}

BestChoice choose_best(const Problem& problem, const GpuShape& gpu, Reduction reduction,
                       const CostModel& model, const std::vector<TileShape>& tiles,
                       const std::vector<ClusterShape>& clusters) {
  Simulator sim;
  return choose_best(problem, gpu, reduction, model, tiles, clusters, sim);
}

}  // namespace lw

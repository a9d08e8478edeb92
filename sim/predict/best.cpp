// choose_best(): exhaustive tile x cluster x decomposition search with exact early cut-off.
#include "sim/predict/best.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/bounds.hpp"

namespace lw {

const std::vector<std::string>& best_decompositions() {
  static const std::vector<std::string> names = {
      "dp",      "splitk:2", "splitk:3", "splitk:4",     "splitk:6",     "splitk:8",
      "streamk", "cutlass",  "two-tile", "splitk-dsm:2", "splitk-dsm:4", "splitk-dsm:8"};
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

// A Stream-K-like plan's fixup chains (a walk of every CTA) are bounded (fixup_chain_time) only
// when its cheap bound is at least this share of the cut-off: measured on the 32,824-shape corpus
// under the fitted model, the chained bound passed the cut-off for 0.6 % of the plans below 0.6
// and 14-53 % above 0.7. A split-K plan's chains walk one tile's units: always worth it.
constexpr double kChainWorthShare = 0.65;
double chain_worth_share(const Plan& p) {
  return p.split_mode == SplitMode::FixedSplit ? 0.0 : kChainWorthShare;
}

// Try-first rank of each best_decompositions() entry (lower first).
constexpr int kTryFirst[] = {3, 4, 5, 6, 7, 8, 0, 1, 2, 9, 10, 11};

// The candidate's ideal makespan (models/cost_model.hpp): the search order only needs the physics.
double candidate_ideal(const Problem& problem, const TileShape& tile, const ClusterShape& cluster,
                       const GpuShape& gpu, const CostModel& model) {
  const Plan p = plan_schedule("dp", problem, tile, gpu, Reduction::Deterministic, cluster).plan;
  return ideal_makespan(model, p, simulated_sms(sim_options_for(gpu, cluster)));
}

bool same_config(const Plan& a, const Plan& b) {
  return same_tile(a.tile, b.tile) && same_cluster(a.cluster, b.cluster);
}

}  // namespace

bool kernel_runs_decomposition(const std::string& decomposition, const TileShape& tile,
                               const ClusterShape& cluster) {
  const int64_t splits = cluster_reduce_splits(decomposition);
  return kernel_has_config(tile, cluster) &&
         (splits == 0 || kernel_runs_cluster_reduce(tile, cluster, splits));
}

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

SimOptions sim_options_for(const GpuShape& gpu, const Plan& plan) {
  SimOptions opt = sim_options_for(gpu, plan.cluster);
  const int64_t size = reduce_cluster_size(plan);
  if (size > 1) opt.reduce_cluster_slots = resident_reduce_clusters(gpu, size);
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
        if (!kernel_runs_decomposition(best_decompositions()[d], tiles[t], clusters[c])) continue;
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
  const std::vector<std::string>& names = best_decompositions();
  // Every candidate planned, its makespan factor asked (a config's plans together), and a lower
  // bound on its makespan; a candidate that plans the same as an earlier decomposition of its
  // config is that one's twin (the same makespan, listed under the earlier name).
  struct Bounded {
    const Candidate* candidate;
    const Plan* plan;  // in `plans`
    double factor;     // CostModel::makespan_factor
    double bound;      // least_time x makespan factor, less the rounding margin
    size_t twin;       // index into `all` of the first candidate of the config with this plan
    bool can_win = false;
    double makespan = 0;
  };
  std::vector<Bounded> all;
  all.reserve(order.size());
  std::vector<Plan> plans;
  std::vector<int64_t> sms;
  for (const Candidate& c : order) {
    plans.push_back(plan_schedule(names[c.decomposition], problem, tiles[c.tile], gpu, reduction,
                                  clusters[c.cluster])
                        .plan);
    sms.push_back(simulated_sms(sim_options_for(gpu, plans.back())));
  }
  std::vector<double> factors(plans.size());
  model.makespan_factors(plans.data(), sms.data(), plans.size(), factors.data());
  size_t config_first = 0;  // a config's candidates are adjacent in order
  for (size_t i = 0; i < order.size(); ++i) {
    const Candidate& c = order[i];
    if (c.tile != order[config_first].tile || c.cluster != order[config_first].cluster) {
      config_first = i;
    }
    size_t twin = i;
    for (size_t j = config_first; j < i; ++j) {
      if (same_plan(plans[j], plans[i]) && order[j].index < c.index) {
        twin = all[j].twin;
        break;
      }
    }
    const SimOptions opt = sim_options_for(gpu, plans[i]);
    all.push_back(Bounded{&c, &plans[i], factors[i],
                          least_time(plans[i], model, opt) * factors[i] * kRoundingMargin, twin});
  }
  // Least bound first (ties: the try-first order): the likely winners are simulated first, and
  // once a bound passes the ranking's cut-off every later one does. A split plan's bound, when it
  // comes up, is raised to its fixup chains' (dearer to compute) and queued again.
  struct Queued {
    double bound;
    size_t i;
    bool chained;
  };
  const auto later = [&](const Queued& a, const Queued& b) {
    if (a.bound != b.bound) return a.bound > b.bound;
    return *all[b.i].candidate < *all[a.i].candidate;
  };
  std::vector<Queued> queue;
  for (size_t i = 0; i < all.size(); ++i) queue.push_back(Queued{all[i].bound, i, false});
  std::make_heap(queue.begin(), queue.end(), later);
  Ranking ranking(count);
  int64_t simulated = 0;
  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), later);
    const Queued q = queue.back();
    queue.pop_back();
    if (q.bound > ranking.cutoff()) break;  // neither this nor a later one can enter (nor tie)
    Bounded& b = all[q.i];
    if (!q.chained && b.twin == q.i && q.bound > chain_worth_share(*b.plan) * ranking.cutoff()) {
      const SimOptions opt = sim_options_for(gpu, *b.plan);
      const double enough = ranking.cutoff() / (b.factor * kRoundingMargin);
      const double chained =
          fixup_chain_time(*b.plan, model, opt, enough) * b.factor * kRoundingMargin;
      if (chained > q.bound) {
        queue.push_back(Queued{chained, q.i, true});
        std::push_heap(queue.begin(), queue.end(), later);
        continue;
      }
    }
    const Candidate& c = *b.candidate;
    if (b.twin != q.i) {  // its twin (same plan and bound, lower index) is offered in its own turn
      b.can_win = all[b.twin].can_win;
      b.makespan = all[b.twin].makespan;
    } else {
      SimOptions opt = sim_options_for(gpu, *b.plan);
      opt.cutoff = ranking.cutoff();
      opt.sm_stats = false;
      opt.makespan_factor = b.factor;
      opt.floors = chip_floors(*b.plan, model, opt);
      const SimResult& r = sim.run(*b.plan, model, opt);
      ++simulated;
      b.can_win = !r.deadlock && !r.cut_off;
      b.makespan = r.makespan;
    }
    if (!b.can_win) continue;
    ranking.offer(
        BestChoice{tiles[c.tile], clusters[c.cluster], names[c.decomposition], b.makespan, true, 0},
        c.index, *b.plan);
  }
  std::vector<BestChoice> out = ranking.choices(simulated);
  if (out.empty()) {  // every candidate deadlocks (or none could run)
    BestChoice none;
    none.simulated = simulated;
    out.push_back(none);
  }
  return out;
}

std::vector<BestChoice> rank_best_exhaustive(const Problem& problem, const GpuShape& gpu,
                                             Reduction reduction, const CostModel& model,
                                             const std::vector<TileShape>& tiles,
                                             const std::vector<ClusterShape>& clusters,
                                             size_t count, Simulator& sim) {
  if (count < 1) throw std::invalid_argument("best: asked for no candidates");
  std::vector<Candidate> order = search_order(problem, gpu, model, tiles, clusters);
  std::sort(order.begin(), order.end(),
            [](const Candidate& a, const Candidate& b) { return a.index < b.index; });
  Ranking ranking(count);
  int64_t simulated = 0;
  for (const Candidate& c : order) {
    const std::string& name = best_decompositions()[c.decomposition];
    const Plan plan =
        plan_schedule(name, problem, tiles[c.tile], gpu, reduction, clusters[c.cluster]).plan;
    SimOptions opt = sim_options_for(gpu, plan);
    opt.sm_stats = false;
    const SimResult& r = sim.run(plan, model, opt);
    ++simulated;
    if (r.deadlock) continue;
    ranking.offer(BestChoice{tiles[c.tile], clusters[c.cluster], name, r.makespan, true, 0},
                  c.index, plan);
  }
  std::vector<BestChoice> out = ranking.choices(simulated);
  if (out.empty()) {
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

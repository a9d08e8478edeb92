// predict(): plan + simulate one (shape, schedule); best-of selection; the seed's split-K formula.
#include "sim/predict/predict.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/bounds.hpp"

namespace lw {

namespace {

// A row the simulator cannot take: named, with the reason and no times.
PredictRow refused_row(const Problem& problem, const std::string& schedule, const TileShape& tile,
                       const ClusterShape& cluster, const PredictSetup& setup,
                       const std::string& reason) {
  PredictRow row;
  row.problem = problem;
  row.sms = setup.gpu.sms;
  row.schedule = schedule;
  row.tile = tile;
  row.cluster = cluster;
  row.refused = reason;
  return row;
}

PredictRow run_one(const Problem& problem, const std::string& schedule, const TileShape& tile,
                   const ClusterShape& cluster, const PredictSetup& setup, Simulator& sim,
                   std::vector<SegmentRecord>* timeline,
                   double cutoff = std::numeric_limits<double>::infinity()) {
  const std::string refusal = simulation_refusal(problem, tile, setup.gpu);
  if (!refusal.empty()) return refused_row(problem, schedule, tile, cluster, setup, refusal);
  const Planned planned =
      plan_schedule(schedule, problem, tile, setup.gpu, setup.reduction, cluster);
  const Plan& p = planned.plan;
  SimOptions opt = sim_options_for(setup.gpu, p);
  opt.record_timeline = timeline != nullptr;
  if (std::isfinite(cutoff)) {
    opt.cutoff = cutoff;
    opt.floors = chip_floors(p, *setup.model, opt);
  }
  const SimResult& r = sim.run(p, *setup.model, opt);
  PredictRow row;
  static_cast<PlanSummary&>(row) = plan_summary(planned);
  row.problem = problem;
  row.sms = setup.gpu.sms;
  row.schedule = schedule;
  row.tile = tile;
  row.cluster = cluster;
  row.makespan = r.makespan;
  row.makespan_factor = r.makespan_factor;
  row.ideal = r.ideal;
  row.efficiency = r.efficiency;
  row.deadlock = r.deadlock;
  row.deadlock_report = r.deadlock_report;
  row.cut_off = r.cut_off;
  if (timeline) *timeline = r.timeline;
  return row;
}

// best's candidate tiles the simulator can take for `problem`; `refusal` receives the first other
// tile's reason (the row's reason when none is left).
std::vector<TileShape> best_tiles(const Problem& problem, const PredictSetup& setup,
                                  std::string& refusal) {
  std::vector<TileShape> tiles;
  for (const TileShape& t :
       setup.best_tiles.empty() ? model_tiles(*setup.model) : setup.best_tiles) {
    const std::string why = simulation_refusal(problem, t, setup.gpu);
    if (why.empty()) {
      tiles.push_back(t);
    } else if (refusal.empty()) {
      refusal = "tile " + tile_text(t) + ": " + why;
    }
  }
  return tiles;
}

std::vector<ClusterShape> best_clusters(const PredictSetup& setup) {
  return setup.best_clusters.empty() ? model_clusters(*setup.model) : setup.best_clusters;
}

// The row of a `best` pick: its config simulated again (for the full result), named "best".
PredictRow best_row(const Problem& problem, const BestChoice& b, const PredictSetup& setup,
                    const TileShape& first_tile, Simulator& sim,
                    std::vector<SegmentRecord>* timeline) {
  if (!b.found) {  // every candidate deadlocks: report the first one's deadlock
    PredictRow row = run_one(problem, best_decompositions().front(), first_tile,
                             best_clusters(setup).front(), setup, sim, timeline);
    row.schedule = "best";
    return row;
  }
  PredictRow row = run_one(problem, b.schedule, b.tile, b.cluster, setup, sim, timeline);
  row.choice = b.schedule;
  row.schedule = "best";
  return row;
}

}  // namespace

PredictRow predict(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline) {
  if (schedule != "best") {
    return run_one(problem, schedule, setup.tile, setup.cluster, setup, sim, timeline);
  }
  std::string refusal;
  const std::vector<TileShape> tiles = best_tiles(problem, setup, refusal);
  if (tiles.empty()) return refused_row(problem, schedule, {}, {}, setup, refusal);
  const BestChoice b = choose_best(problem, setup.gpu, setup.reduction, *setup.model, tiles,
                                   best_clusters(setup), sim);
  return best_row(problem, b, setup, tiles.front(), sim, timeline);
}

std::vector<PredictRow> predict_ranked(const Problem& problem, size_t count,
                                       const PredictSetup& setup, Simulator& sim) {
  std::string refusal;
  const std::vector<TileShape> tiles = best_tiles(problem, setup, refusal);
  if (tiles.empty()) return {refused_row(problem, "best", {}, {}, setup, refusal)};
  const std::vector<BestChoice> ranked = rank_best(
      problem, setup.gpu, setup.reduction, *setup.model, tiles, best_clusters(setup), count, sim);
  std::vector<PredictRow> rows;
  for (const BestChoice& b : ranked) {
    rows.push_back(best_row(problem, b, setup, tiles.front(), sim, nullptr));
    if (b.found) rows.back().rank = static_cast<int64_t>(rows.size());
  }
  return rows;
}

PredictRow predict_config(const Problem& problem, const std::string& schedule,
                          const TileShape& tile, const ClusterShape& cluster,
                          const PredictSetup& setup, Simulator& sim, double cutoff) {
  return run_one(problem, schedule, tile, cluster, setup, sim, nullptr, cutoff);
}

std::string simulation_refusal(const Problem& problem, const TileShape& tile, const GpuShape& gpu) {
  Plan geometry;
  try {
    geometry = plan_geometry(problem, tile, gpu);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (geometry.tiles <= kMaxSimulatedTiles) return "";
  return "the plan has " + std::to_string(geometry.tiles) + " tiles of " + tile_text(tile) +
         "; the simulator takes at most " + std::to_string(kMaxSimulatedTiles) + " (2^26)";
}

double seed_split_k_estimate(int64_t tiles, int64_t iters, int64_t sms, int64_t splits,
                             double epilogue, double partial) {
  const int64_t units = tiles * splits;
  const int64_t chunk = ceil_div(iters, splits);
  const double per_wave = static_cast<double>(chunk) + partial;
  return static_cast<double>(ceil_div(units, sms)) * per_wave +
         static_cast<double>(splits - 1) * partial + epilogue;
}

}  // namespace lw

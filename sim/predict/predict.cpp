// predict(): plan + simulate one (shape, schedule); best-of selection; the seed's split-K formula.
#include "sim/predict/predict.hpp"

#include <cmath>
#include <limits>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/bounds.hpp"

namespace lw {

namespace {

PredictRow run_one(const Problem& problem, const std::string& schedule, const TileShape& tile,
                   const ClusterShape& cluster, const PredictSetup& setup, Simulator& sim,
                   std::vector<SegmentRecord>* timeline,
                   double cutoff = std::numeric_limits<double>::infinity()) {
  const Planned planned =
      plan_schedule(schedule, problem, tile, setup.gpu, setup.reduction, cluster);
  const Plan& p = planned.plan;
  SimOptions opt = sim_options_for(setup.gpu, cluster);
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

std::vector<TileShape> best_tiles(const PredictSetup& setup) {
  return setup.best_tiles.empty() ? model_tiles(*setup.model) : setup.best_tiles;
}

std::vector<ClusterShape> best_clusters(const PredictSetup& setup) {
  return setup.best_clusters.empty() ? model_clusters(*setup.model) : setup.best_clusters;
}

// The row of a `best` pick: its config simulated again (for the full result), named "best".
PredictRow best_row(const Problem& problem, const BestChoice& b, const PredictSetup& setup,
                    Simulator& sim, std::vector<SegmentRecord>* timeline) {
  if (!b.found) {  // every candidate deadlocks: report the first one's deadlock
    PredictRow row = run_one(problem, best_decompositions().front(), best_tiles(setup).front(),
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
  const BestChoice b = choose_best(problem, setup.gpu, setup.reduction, *setup.model,
                                   best_tiles(setup), best_clusters(setup), sim);
  return best_row(problem, b, setup, sim, timeline);
}

std::vector<PredictRow> predict_ranked(const Problem& problem, size_t count,
                                       const PredictSetup& setup, Simulator& sim) {
  const std::vector<BestChoice> ranked =
      rank_best(problem, setup.gpu, setup.reduction, *setup.model, best_tiles(setup),
                best_clusters(setup), count, sim);
  std::vector<PredictRow> rows;
  for (const BestChoice& b : ranked) {
    rows.push_back(best_row(problem, b, setup, sim, nullptr));
    if (b.found) rows.back().rank = static_cast<int64_t>(rows.size());
  }
  return rows;
}

PredictRow predict_config(const Problem& problem, const std::string& schedule,
                          const TileShape& tile, const ClusterShape& cluster,
                          const PredictSetup& setup, Simulator& sim, double cutoff) {
  return run_one(problem, schedule, tile, cluster, setup, sim, nullptr, cutoff);
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

// predict(): plan + simulate one (shape, schedule); best-of selection; the seed's split-K formula.
#include "sim/predict/predict.hpp"

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/planners/tile_text.hpp"

namespace lw {

namespace {

PredictRow run_one(const Problem& problem, const std::string& schedule, const TileShape& tile,
                   const PredictSetup& setup, Simulator& sim,
                   std::vector<SegmentRecord>* timeline) {
  const Planned planned = plan_schedule(schedule, problem, tile, setup.gpu, setup.reduction);
  const Plan& p = planned.plan;
  SimOptions opt;
  opt.sms = setup.gpu.sms;
  opt.ctas_per_sm = setup.gpu.ctas_per_sm;
  opt.record_timeline = timeline != nullptr;
  const SimResult& r = sim.run(p, *setup.model, opt);
  PredictRow row;
  static_cast<PlanSummary&>(row) = plan_summary(planned);
  row.problem = problem;
  row.sms = setup.gpu.sms;
  row.schedule = schedule;
  row.tile = tile;
  row.makespan = r.makespan;
  row.ideal = r.ideal;
  row.efficiency = r.efficiency;
  row.deadlock = r.deadlock;
  row.deadlock_report = r.deadlock_report;
  if (timeline) *timeline = r.timeline;
  return row;
}

}  // namespace

PredictRow predict(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline) {
  if (schedule != "best") return run_one(problem, schedule, setup.tile, setup, sim, timeline);
  const std::vector<TileShape> tiles =
      setup.best_tiles.empty() ? parse_kernel_tiles("") : setup.best_tiles;
  const BestChoice b = choose_best(problem, setup.gpu, setup.reduction, *setup.model, tiles, sim);
  if (!b.found) {  // every candidate deadlocks: report the first one's deadlock
    PredictRow row =
        run_one(problem, best_decompositions().front(), tiles.front(), setup, sim, timeline);
    row.schedule = "best";
    return row;
  }
  PredictRow row = run_one(problem, b.schedule, b.tile, setup, sim, timeline);
  row.choice = b.schedule;
  row.cluster = b.cluster;
  row.schedule = "best";
  return row;
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

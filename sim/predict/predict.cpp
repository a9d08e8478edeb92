// predict(): plan + simulate one (shape, schedule); best-of selection; the seed's split-K formula.
#include "sim/predict/predict.hpp"

#include "sim/decomp/planners/schedule.hpp"

namespace lw {

const std::vector<std::string>& best_candidates() {
  static const std::vector<std::string> names = {"dp",       "splitk:2", "splitk:3", "splitk:4",
                                                 "splitk:8", "streamk",  "cutlass",  "two-tile"};
  return names;
}

namespace {

PredictRow run_one(const Problem& problem, const std::string& schedule, const PredictSetup& setup,
                   Simulator& sim, std::vector<SegmentRecord>* timeline) {
  const Planned planned = plan_schedule(schedule, problem, setup.tile, setup.gpu, setup.reduction);
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
  if (schedule != "best") return run_one(problem, schedule, setup, sim, timeline);
  PredictRow best;
  bool have = false;
  for (const auto& name : best_candidates()) {
    PredictRow row = run_one(problem, name, setup, sim, nullptr);
    if (row.deadlock) continue;
    if (!have || row.makespan < best.makespan) {
      best = row;
      have = true;
    }
  }
  best.choice = best.schedule;
  best.schedule = "best";
  if (timeline) run_one(problem, best.choice, setup, sim, timeline);
  return best;
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

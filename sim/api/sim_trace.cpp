// Simulated Chrome-trace document (sim_trace.hpp).
#include "sim/api/sim_trace.hpp"

#include <stdexcept>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/trace/trace_json.hpp"
#include "sim/trace/trace_merge.hpp"

namespace lw {

std::string simulated_trace(const PreparedPredict& p) {
  const PredictRequest& r = p.request;
  if (r.shapes.size() != 1 || r.schedules.size() != 1) {
    throw std::invalid_argument("--trace needs exactly one shape and one schedule");
  }
  Simulator sim;
  std::vector<SegmentRecord> timeline;
  const Problem& shape = r.shapes[0];
  const PredictRow row = predict(shape, r.schedules[0], p.setup, sim, &timeline);
  const std::string chosen = r.schedules[0] == "best" ? row.choice : r.schedules[0];
  const Plan plan =
      plan_schedule(chosen, shape, row.tile, p.setup.gpu, p.setup.reduction, row.cluster).plan;
  TraceMeta meta{"sim", shape, r.gpu.sms, chosen, p.model->time_unit()};
  return trace_document(timeline, plan, meta).dump() + "\n";
}

std::string merged_trace(const std::string& sim_text, const std::string& sim_origin,
                         const std::string& hw_text, const std::string& hw_origin) {
  const LoadedTrace hw = load_trace(hw_text, hw_origin, "hw");
  const LoadedTrace sim = load_trace(sim_text, sim_origin, "sim");
  return merge_traces(hw, sim).dump() + "\n";
}

}  // namespace lw

// plan for Python: one schedule's plan, CTA by CTA, segment by segment (sim/api plan_steps, as
// `lastwave plan` prints it).
#include <pybind11/stl.h>

#include <tuple>

#include "python/binding/bindings.hpp"
#include "sim/api/plan_steps.hpp"
#include "sim/api/predict_run.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/trace/trace_json.hpp"

namespace lw::py {

namespace {

struct PlanOut {
  Planned planned;
  std::vector<PlanStep> steps;
};

PlanOut make_plan(const std::tuple<int64_t, int64_t, int64_t>& shape, const std::string& schedule,
                  const GpuSpec& gpu, const std::optional<std::string>& tile,
                  const std::string& reduction) {
  pyb::gil_scoped_release release;
  if (schedule == "best") throw std::invalid_argument("'best' is not a plan; use lastwave predict");
  const auto& [m, n, k] = shape;
  const Problem problem{m, n, k};
  plan_geometry(problem, TileShape{}, GpuShape{1, 1});  // validates dims and overflow
  PlanOut out{plan_schedule(schedule, problem, tile ? parse_tile(*tile) : kDefaultTile,
                            gpu_shape(gpu), parse_reduction(reduction)),
              {}};
  out.steps = plan_steps(out.planned.plan);
  return out;
}

pyb::dict header(const Planned& planned) {
  const Plan& p = planned.plan;
  pyb::dict d;
  d["choice"] = planned.choice_label();
  d["tiles"] = p.tiles;
  d["tiles_m"] = p.tiles_m;
  d["tiles_n"] = p.tiles_n;
  d["k_tiles"] = p.k_tiles;
  d["grid"] = p.grid;
  d["persistent"] = p.persistent;
  d["split_tiles"] = p.split_tiles;
  d["split_units"] = p.split_units;
  d["groups"] = p.groups;
  d["workspace_slots"] = p.workspace_slots;
  return d;
}

pyb::list step_tuples(const std::vector<PlanStep>& steps) {
  pyb::list out;
  for (const PlanStep& t : steps) {
    const Segment& s = t.segment;
    out.append(pyb::make_tuple(t.launch, t.cta, t.seq, s.work_id, s.tile, t.tile_m, t.tile_n,
                               s.k_begin, s.k_end, role_name(s.role), s.slot, s.load_slots,
                               s.wait_value, s.signal));
  }
  return out;
}

}  // namespace

void bind_plan(pyb::module_& m) {
  m.def(
      "plan",
      [](const std::tuple<int64_t, int64_t, int64_t>& shape, const std::string& schedule,
         const GpuSpec& gpu, const std::optional<std::string>& tile, const std::string& reduction) {
        const PlanOut out = make_plan(shape, schedule, gpu, tile, reduction);
        return pyb::make_tuple(header(out.planned), step_tuples(out.steps), plan_csv(out.steps));
      },
      pyb::arg("shape"), pyb::arg("schedule"), pyb::arg("gpu"), pyb::arg("tile"),
      pyb::arg("reduction"));
}

}  // namespace lw::py

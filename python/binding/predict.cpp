// predict / best / trace for Python: arguments to a sim/api PredictRequest, the simulation with
// the GIL released, and the outcome as row tuples (the columns of `predict --format csv`) or as
// that CSV itself (sim/api's predict_csv, the CLI's own code).
#include <pybind11/stl.h>

#include <cmath>
#include <tuple>

#include "python/binding/bindings.hpp"
#include "sim/api/predict_run.hpp"
#include "sim/api/sim_trace.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace lw::py {

namespace {

using Shape = std::tuple<int64_t, int64_t, int64_t>;

// The request's common part; shapes are validated like the CLI's --m/--n/--k.
struct Args {
  std::vector<Shape> shapes;
  std::string schedules;  // comma list, as --schedule
  GpuSpec gpu;
  std::shared_ptr<ModelSource> model;
  std::optional<std::string> tile, cluster;
  std::string reduction;
  std::optional<int64_t> top;
  bool strict = false;
};

PreparedPredict prepare(const Args& a) {
  if (!a.model) throw std::invalid_argument("no model given");
  if (a.shapes.empty()) throw std::invalid_argument("no shapes given");
  PredictRequest r;
  for (const auto& [m, n, k] : a.shapes) {
    const Problem p{m, n, k};
    plan_geometry(p, TileShape{}, GpuShape{1, 1});  // validates dims and overflow
    r.shapes.push_back(p);
  }
  r.schedules = parse_schedule_list(a.schedules);
  r.gpu = a.gpu;
  r.model = *a.model;
  r.tile = a.tile;
  r.cluster = a.cluster;
  r.reduction = parse_reduction(a.reduction);
  r.top = a.top;
  r.strict = a.strict;
  return prepare_predict(std::move(r));
}

pyb::object number_if(bool present, double v) {
  return present ? pyb::object(pyb::float_(v)) : pyb::object(pyb::none());
}

// One row in the CSV's column order; a number the CSV replaces by the status is None, and so are
// the coverage columns of a model without coverage (the reason: '').
pyb::tuple row_tuple(const PredictRow& r, bool physical) {
  const std::string status = row_status(r);
  const bool timed = status == "ok", refused = !r.refused.empty();
  return pyb::make_tuple(
      r.problem.m, r.problem.n, r.problem.k, r.sms, r.schedule, r.choice, r.tiles, r.k_tiles,
      r.sk_tiles, r.sk_units, r.grid, number_if(timed, r.makespan), number_if(!refused, r.ideal),
      number_if(timed, r.efficiency), number_if(!refused, r.makespan_factor),
      number_if(physical && timed, r.makespan), tile_text(r.tile), cluster_text(r.cluster), r.rank,
      status, r.refused,
      r.coverage ? pyb::object(pyb::bool_(r.coverage->extrapolated)) : pyb::object(pyb::none()),
      r.coverage ? r.coverage->reason : std::string(),
      number_if(r.coverage && std::isfinite(r.coverage->low_us),
                r.coverage ? r.coverage->low_us : 0.0),
      number_if(r.coverage && std::isfinite(r.coverage->high_us),
                r.coverage ? r.coverage->high_us : 0.0));
}

PredictOutcome run(const Args& a) {
  pyb::gil_scoped_release release;
  const PreparedPredict prepared = prepare(a);
  PredictOutcome out = run_predict(prepared);
  check_strict(prepared, out);
  return out;
}

std::string trace(const Args& a) {
  pyb::gil_scoped_release release;
  const PreparedPredict prepared = prepare(a);
  check_strict(prepared, run_predict(prepared));  // a refused row has no trace
  return simulated_trace(prepared);
}

void bind_outcome(pyb::module_& m) {
  pyb::class_<PredictOutcome>(m, "Outcome", "predict's rows (sim/api PredictOutcome).")
      .def("rows",
           [](const PredictOutcome& o) {
             pyb::list rows;
             for (const auto& block : o.blocks) {
               for (const auto& r : block) rows.append(row_tuple(r, o.physical));
             }
             return rows;
           })
      .def("csv",
           [](const PredictOutcome& o) { return predict_csv(o.blocks, o.physical, o.ranked); })
      .def_readonly("time_unit", &PredictOutcome::time_unit)
      .def_readonly("physical", &PredictOutcome::physical)
      .def_readonly("ranked", &PredictOutcome::ranked)
      .def_readonly("refusals", &PredictOutcome::refusals)
      .def_readonly("extrapolation", &PredictOutcome::extrapolation)
      .def_readonly("extrapolated", &PredictOutcome::extrapolated)
      .def_readonly("best_skipped", &PredictOutcome::best_skipped);
}

// Binds `fn(Args)` as a keyword function with the Args fields as parameters.
template <typename Fn>
void def_request(pyb::module_& m, const char* name, Fn fn) {
  m.def(
      name,
      [fn](std::vector<Shape> shapes, std::string schedules, GpuSpec gpu,
           std::shared_ptr<ModelSource> model, std::optional<std::string> tile,
           std::optional<std::string> cluster, std::string reduction, std::optional<int64_t> top,
           bool strict) {
        return fn(Args{std::move(shapes), std::move(schedules), std::move(gpu), std::move(model),
                       std::move(tile), std::move(cluster), std::move(reduction), top, strict});
      },
      pyb::arg("shapes"), pyb::arg("schedules"), pyb::arg("gpu"), pyb::arg("model"),
      pyb::arg("tile"), pyb::arg("cluster"), pyb::arg("reduction"), pyb::arg("top"),
      pyb::arg("strict"));
}

}  // namespace

void bind_predict(pyb::module_& m) {
  bind_outcome(m);
  def_request(m, "predict", run);
  def_request(m, "trace", trace);
  m.def(
      "merge_traces",
      [](const std::string& sim, const std::string& hw) {
        pyb::gil_scoped_release release;
        return merged_trace(sim, "sim", hw, "hw");
      },
      pyb::arg("sim"), pyb::arg("hw"));
}

}  // namespace lw::py

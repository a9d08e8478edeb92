// `lastwave predict`: makespan of each schedule for each shape under a cost model.
// The pipeline and its CSV are sim/api's (shared with the Python module); the table and JSON
// renderings are here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "sim/api/predict_run.hpp"
#include "sim/api/sim_trace.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

std::vector<PredictRow> predict_all(const std::vector<Problem>& shapes,
                                    const std::vector<std::string>& schedules,
                                    const PredictSetup& setup, Progress* progress) {
  auto rows = lw::predict_all(shapes, schedules, setup, [progress] {
    if (progress) progress->advance();
  });
  if (progress) progress->finish();
  return rows;
}

namespace {

std::string fmt(const char* f, double v) { return format_number(f, v); }

// extrapolated, extrapolation, p10_us, p90_us: null without coverage (and the interval without
// a time).
void add_coverage_json(const PredictRow& r, nlohmann::json& j) {
  const bool timed = r.coverage && std::isfinite(r.coverage->low_us);
  j["extrapolated"] = r.coverage ? nlohmann::json(r.coverage->extrapolated) : nlohmann::json();
  j["extrapolation"] = r.coverage && r.coverage->extrapolated ? nlohmann::json(r.coverage->reason)
                                                              : nlohmann::json();
  j["p10_us"] = timed ? nlohmann::json(r.coverage->low_us) : nlohmann::json();
  j["p90_us"] = timed ? nlohmann::json(r.coverage->high_us) : nlohmann::json();
}

// One row as JSON: every CSV field, numbers null for a row the model cannot answer.
nlohmann::json row_json(const PredictRow& r, const std::string& unit) {
  nlohmann::json j = {{"m", r.problem.m},
                      {"n", r.problem.n},
                      {"k", r.problem.k},
                      {"sms", r.sms},
                      {"schedule", r.schedule},
                      {"choice", r.choice},
                      {"tiles", r.tiles},
                      {"iters_per_tile", r.k_tiles},
                      {"sk_tiles", r.sk_tiles},
                      {"sk_units", r.sk_units},
                      {"grid", r.grid},
                      {"makespan", r.makespan},
                      {"ideal", r.ideal},
                      {"efficiency", r.efficiency},
                      {"makespan_factor", r.makespan_factor},
                      {"time_unit", unit},
                      {"deadlock", r.deadlock},
                      {"tile", tile_text(r.tile)},
                      {"cluster", cluster_text(r.cluster)}};
  j["reduction"] = r.reduction;  // what the simulated plan does
  j["status"] = row_status(r);
  if (!r.refused.empty()) {
    j["reason"] = r.refused;
    for (const char* key : {"makespan", "ideal", "efficiency", "makespan_factor"}) {
      j[key] = nullptr;  // the model's numbers for a row it cannot answer
    }
  }
  if (r.deadlock) j["deadlock_report"] = r.deadlock_report;
  if (r.rank > 0) j["rank"] = r.rank;
  add_coverage_json(r, j);
  return j;
}

std::string render_json(const std::vector<std::vector<PredictRow>>& blocks,
                        const std::string& unit) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& block : blocks) {
    for (const auto& r : block) out.push_back(row_json(r, unit));
  }
  return out.dump(2) + "\n";
}

constexpr size_t kLabelWidth = 50;  // characters of the table's label column, at least

// A row's table label: schedule -> choice, and for `best` its config (and rank); a refused
// `best` row names no pick (the model could not cost the search).
std::string table_label(const PredictRow& r) {
  // ... as does a row refused before planning (simulation_refusal: no plan, no choice).
  if (!r.refused.empty() && (r.schedule == "best" || r.choice.empty())) return r.schedule;
  std::string label =
      (r.rank > 0 ? r.schedule + " #" + std::to_string(r.rank) : r.schedule) + " -> " + r.choice;
  if (r.schedule == "best") {
    label += " " + tile_text(r.tile);
    if (r.cluster.m * r.cluster.n > 1) label += " " + cluster_text(r.cluster);
  }
  if (r.sk_units > 0 && r.choice != "DataParallel") {
    label += " sk_tiles=" + std::to_string(r.sk_tiles) + " units=" + std::to_string(r.sk_units);
  }
  return label;
}

std::string render_table(const std::vector<std::vector<PredictRow>>& blocks,
                         const std::string& unit, const std::string& gpu_name) {
  std::ostringstream o;
  for (const auto& block : blocks) {
    const PredictRow& first = block.front();
    o << first.problem.m << 'x' << first.problem.n << 'x' << first.problem.k << " on " << gpu_name
      << ": ";
    if (first.tiles > 0) {  // a row refused before planning has no plan to describe
      o << first.tiles << " tiles x " << first.k_tiles << " iters, ideal makespan "
        << (first.refused.empty() ? fmt("%.1f", first.ideal) + " " + unit : "refused");
    } else {
      o << "refused";
    }
    o << "\n";
    if (first.coverage && first.coverage->extrapolated) {
      o << "  EXTRAPOLATED: " << first.coverage->reason << "\n";
    }
    size_t width = kLabelWidth;  // every label of the block, so its columns line up
    for (const PredictRow& r : block) width = std::max(width, table_label(r).size());
    double fastest = 0;  // the rank-1 row's makespan
    for (const PredictRow& r : block) {
      const std::string label = table_label(r);
      const int w = static_cast<int>(width);
      char line[512];
      if (!r.refused.empty()) {  // whole, however long the reason
        o << "  " << label << std::string(width - label.size(), ' ') << " REFUSED: " << r.refused
          << "\n";
        continue;
      }
      if (r.deadlock) {
        std::snprintf(line, sizeof line, "  %-*s DEADLOCK: %s\n", w, label.c_str(),
                      r.deadlock_report.c_str());
      } else {
        std::snprintf(line, sizeof line, "  %-*s %10.1f  eff %6.1f%%", w, label.c_str(), r.makespan,
                      100.0 * r.efficiency);
      }
      o << line;
      const bool timed = row_status(r) == "ok";
      if (r.rank == 1 && timed) fastest = r.makespan;
      if (r.rank > 1 && fastest > 0 && timed)
        o << fmt("  %+.1f %% vs #1", 100.0 * (r.makespan / fastest - 1));
      if (timed && r.coverage) {
        o << fmt("  p10-p90 %.1f", r.coverage->low_us) << fmt("-%.1f", r.coverage->high_us);
      }
      if (timed) o << "\n";
      // A row flagged for itself (its decomposition), beyond the shape's flag printed above.
      const bool shape_flagged = first.coverage && first.coverage->extrapolated;
      if (timed && r.coverage && r.coverage->extrapolated &&
          (!shape_flagged || r.coverage->reason != first.coverage->reason)) {
        o << "    EXTRAPOLATED: " << r.coverage->reason << "\n";
      }
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace

int cmd_predict(int argc, char** argv) {
  po::options_description desc("lastwave predict");
  desc.add_options()("help,h", "show this help")(
      "schedule", po::value<std::string>()->default_value("dp,splitk:2,splitk:4,streamk,cutlass"),
      "comma-separated schedules: dp, dp-persistent, splitk:S, splitk-sep:S, splitk-dsm:S, "
      "streamk[:G], "
      "cutlass, cutlass-dp, cutlass-streamk, cutlass-splitk:S, cutlass-seed, two-tile, best")(
      "format", po::value<std::string>()->default_value("table"), "table|csv|json")(
      "out", po::value<std::string>(), "write to this file instead of stdout")(
      "trace", po::value<std::string>(),
      "write the simulated timeline (one shape, one schedule) as Chrome-trace JSON")(
      "quiet,q", "no progress line on stderr")(
      "strict",
      "a row the model cannot answer (refused) is an error: exit 2, nothing written (default: "
      "its row says refused and why, the others are answered, a summary goes to stderr)")(
      "top", po::value<int64_t>(),
      "with --schedule best: list its K fastest plans (tile x cluster x decomposition), each "
      "with its time against the fastest");
  add_plan_options(desc);
  add_gpu_options(desc);
  add_shape_options(desc, true);
  add_model_options(desc);
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm,
                     "lastwave predict (--gpu NAME | --sms N) (--m M --n N --k K | --shapes "
                     "FILE.csv) --schedule LIST [--model unit] [--format table|csv|json]")) {
    return 0;
  }
  const std::string format = format_from(vm, {"table", "csv", "json"});
  PredictRequest request;
  request.gpu = gpu_from(vm);
  request.shapes = shapes_from(vm);
  request.schedules = parse_schedule_list(vm["schedule"].as<std::string>());
  request.model = model_source_from(vm);
  if (vm.count("tile")) request.tile = vm["tile"].as<std::string>();
  if (vm.count("cluster")) request.cluster = vm["cluster"].as<std::string>();
  request.reduction = reduction_from(vm);
  if (vm.count("top")) request.top = vm["top"].as<int64_t>();
  request.strict = vm.count("strict") > 0;
  const PreparedPredict prepared = prepare_predict(std::move(request));
  const PredictRequest& r = prepared.request;
  if (!prepared.setup.best_skipped.empty()) {
    std::cerr << "lastwave predict: note: " << prepared.setup.best_skipped << "\n";
  }
  if (vm.count("trace") && (r.shapes.size() != 1 || r.schedules.size() != 1)) {
    throw std::invalid_argument("--trace needs exactly one shape and one schedule");
  }
  Progress progress("predict", static_cast<int64_t>(r.shapes.size()), "shapes",
                    ProgressStyle::for_stderr(vm.count("quiet") > 0));
  const PredictOutcome out = run_predict(prepared, [&progress] { progress.advance(); });
  progress.finish();
  if (!out.extrapolation.empty()) {
    std::cerr << "lastwave predict: warning: " << out.extrapolation << "\n";
  }
  if (!out.extrapolated.empty()) std::cerr << "lastwave predict: " << out.extrapolated << "\n";
  check_strict(prepared, out);
  std::string text;
  if (format == "csv") {
    text = predict_csv(out.blocks, out.physical, out.ranked);
  } else if (format == "json") {
    text = render_json(out.blocks, out.time_unit);
  } else {
    text = render_table(out.blocks, out.time_unit,
                        r.gpu.name + " (" + std::to_string(r.gpu.sms) + " SMs)");
  }
  // A refused row's timeline is not written either.
  if (vm.count("trace") && out.refusals.empty()) {
    write_file_atomically(user_path(vm["trace"].as<std::string>()), simulated_trace(prepared));
  }
  emit(vm, text);
  if (!out.refusals.empty()) {
    std::cerr << "lastwave predict: " << out.refusals
              << (vm.count("trace") ? " (no trace written)" : "") << "\n";
  }
  return 0;
}

}  // namespace lw::cli

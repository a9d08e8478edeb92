// `lastwave compare`: per-shape winner over a shape corpus and a summary per schedule (geomean
// speedup over dp, share of shapes within 1 % of the best); CSV and SVG plots (compare_plots.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/compare_plots.hpp"
#include "cli/compare_table.hpp"
#include "cli/model_warnings.hpp"
#include "sim/api/calibration_warning.hpp"
#include "sim/api/row_coverage.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/plot/svg.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

namespace {

// compare tabulates every row, so a calibrated file on a GPU other than its own (whose rows
// `predict` refuses one by one: no rule carries fitted physics across GPUs) stops it.
void refuse_other_gpu(const po::variables_map& vm, const GpuSpec& gpu) {
  const ModelFile* file = fitted_model_file(vm);
  if (file == nullptr || file->model != "calibrated" || measured_on(*file, gpu)) return;
  throw std::invalid_argument("model " + vm["model"].as<std::string>() + " was calibrated on " +
                              file->gpu + "; its fitted physics has no rule to carry it to " +
                              gpu.name + " (calibrate on that GPU's measurements)");
}

// A schedule counts as matching the best when within this relative margin of it.
constexpr double kWithinBestMargin = 0.01;
// The table lists each shape only for corpora up to this size.
constexpr size_t kMaxShapeLines = 64;

// Shapes the simulator cannot take (simulation_refusal: every schedule's row refused) leave the
// table; returns one line naming how many and the first, or "" when none did.
std::string drop_refused_shapes(std::vector<Problem>& shapes, std::vector<PredictRow>& rows,
                                size_t schedules) {
  std::vector<Problem> kept_shapes;
  std::vector<PredictRow> kept_rows;
  std::string first;
  size_t dropped = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto begin = rows.begin() + static_cast<std::ptrdiff_t>(i * schedules);
    const auto end = begin + static_cast<std::ptrdiff_t>(schedules);
    const auto refused =
        std::find_if(begin, end, [](const PredictRow& r) { return !r.refused.empty(); });
    if (refused == end) {
      kept_shapes.push_back(shapes[i]);
      kept_rows.insert(kept_rows.end(), begin, end);
      continue;
    }
    if (dropped++ == 0) {
      const Problem& p = shapes[i];
      first = std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) + ": " +
              refused->refused;
    }
  }
  shapes = std::move(kept_shapes);
  rows = std::move(kept_rows);
  if (dropped == 0) return "";
  return std::to_string(dropped) +
         " shape(s) left out, which the simulator cannot take; the first: " + first;
}

// The winner's interval and the shape's flag, after its line ("" without coverage).
std::string coverage_note(const PredictRow& winner) {
  const RowCoverage& c = *winner.coverage;
  char buf[96];
  std::snprintf(buf, sizeof buf, "  p10-p90 %.1f-%.1f", c.low_us, c.high_us);
  return std::string(buf) + (c.extrapolated ? "  EXTRAPOLATED" : "");
}

}  // namespace

int cmd_compare(int argc, char** argv) {
  po::options_description desc("lastwave compare");
  desc.add_options()("help,h", "show this help")(
      "schedule",
      po::value<std::string>()->default_value("dp,splitk:2,splitk:4,streamk,cutlass,two-tile"),
      "comma-separated schedules (dp is added as the baseline)")(
      "format", po::value<std::string>()->default_value("table"), "table|csv")(
      "out", po::value<std::string>(), "write to this file")("quiet,q",
                                                             "no progress line on stderr");
  add_plot_options(desc);
  add_plan_options(desc);
  add_gpu_options(desc);
  add_shape_options(desc, true);
  add_model_options(desc);
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm,
                     "lastwave compare (--gpu NAME | --sms N) --shapes FILE --schedule LIST")) {
    return 0;
  }
  const std::string format = format_from(vm, {"table", "csv"});
  PlotRequest plot_request = plot_request_from(vm);
  const GpuSpec gpu = gpu_from(vm);
  auto shapes = shapes_from(vm);
  auto schedules = parse_schedule_list(vm["schedule"].as<std::string>());
  if (std::find(schedules.begin(), schedules.end(), "dp") == schedules.end()) {
    schedules.insert(schedules.begin(), "dp");
  }
  const size_t dp_index =
      static_cast<size_t>(std::find(schedules.begin(), schedules.end(), "dp") - schedules.begin());
  const auto model = model_from(vm, gpu);
  refuse_other_gpu(vm, gpu);
  const PredictSetup setup = predict_setup_from(vm, gpu, *model, schedules);
  if (!setup.best_skipped.empty())
    std::cerr << "lastwave compare: note: " << setup.best_skipped << "\n";
  Progress progress("compare", static_cast<int64_t>(shapes.size()), "shapes",
                    ProgressStyle::for_stderr(vm.count("quiet") > 0));
  auto rows = predict_all(shapes, schedules, setup, &progress);
  const std::string dropped = drop_refused_shapes(shapes, rows, schedules.size());
  if (shapes.empty()) throw std::invalid_argument("no shape left to compare: " + dropped);
  if (!dropped.empty()) std::cerr << "lastwave compare: " << dropped << "\n";
  if (const ModelFile* file = fitted_model_file(vm)) {
    if (file->coverage) {
      attach_coverage(*file->coverage, gpu.sms, rows);
      const std::string flagged = extrapolated_summary(rows);
      if (!flagged.empty()) std::cerr << "lastwave compare: " << flagged << "\n";
    }
    warn_outside_calibration("compare", *file, vm["model"].as<std::string>(), gpu, shapes,
                             setup.tile, setup.cluster, schedules);
    warn_undetermined("compare", *file, vm["model"].as<std::string>(),
                      parse_param_overrides(vm["param"].as<std::string>()));
  }

  const CompareTable table = compare_table(shapes, schedules, rows, gpu.sms);
  if (!plot_request.path.empty()) {
    if (plot_request.subtitle.empty()) {
      plot_request.subtitle = gpu.name + ", model " + vm["model"].as<std::string>();
    }
    plot::write_svg(user_path(plot_request.path), compare_plot(table, plot_request));
  }
  if (format == "csv") {
    emit(vm, compare_csv(table));
    return 0;
  }
  const size_t ns = schedules.size();
  std::vector<double> log_speedup(ns, 0.0);
  std::vector<int64_t> within(ns, 0), wins(ns, 0), deadlocks(ns, 0);
  std::ostringstream per_shape;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const PredictRow* r = &rows[i * ns];
    const int w = table.winner[i];
    const size_t best = w >= 0 ? static_cast<size_t>(w) : ns;
    if (best < ns) ++wins[best];
    for (size_t j = 0; j < ns; ++j) {
      if (r[j].deadlock) {
        ++deadlocks[j];
        continue;
      }
      log_speedup[j] += std::log(r[dp_index].makespan / r[j].makespan);
      if (best < ns && r[j].makespan <= r[best].makespan * (1.0 + kWithinBestMargin)) ++within[j];
    }
    if (shapes.size() <= kMaxShapeLines) {
      const std::string winner = best < ns ? schedules[best] : "none";
      char buf[160];
      std::snprintf(buf, sizeof buf, "%6ldx%6ldx%6ld  winner %-14s %10.1f (dp %10.1f)",
                    static_cast<long>(shapes[i].m), static_cast<long>(shapes[i].n),
                    static_cast<long>(shapes[i].k), winner.c_str(),
                    best < ns ? r[best].makespan : 0.0, r[dp_index].makespan);
      per_shape << buf;
      if (best < ns && r[best].coverage) per_shape << coverage_note(r[best]);
      per_shape << "\n";
    }
  }
  std::ostringstream o;
  o << per_shape.str();
  o << "\n"
    << shapes.size() << " shapes on " << gpu.name << " (" << gpu.sms << " SMs), model "
    << vm["model"].as<std::string>() << "\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %-18s %18s %16s %8s %10s\n", "schedule", "geomean vs dp",
                "within 1% best", "wins", "deadlocks");
  o << line;
  for (size_t j = 0; j < ns; ++j) {
    // Over the shapes the schedule finishes; "-" where it finishes none (every run deadlocked).
    const int64_t ok = static_cast<int64_t>(shapes.size()) - deadlocks[j];
    char geo[32] = "-";
    if (ok > 0) {
      std::snprintf(geo, sizeof geo, "%.3fx", std::exp(log_speedup[j] / static_cast<double>(ok)));
    }
    std::snprintf(line, sizeof line, "  %-18s %18s %15.1f%% %8ld %10ld\n", schedules[j].c_str(),
                  geo, 100.0 * static_cast<double>(within[j]) / static_cast<double>(shapes.size()),
                  static_cast<long>(wins[j]), static_cast<long>(deadlocks[j]));
    o << line;
  }
  emit(vm, o.str());
  return 0;
}

}  // namespace lw::cli

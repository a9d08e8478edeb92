// `lastwave predict`: makespan of each schedule for each shape under a cost model.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/model_warnings.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/predict.hpp"
#include "sim/trace/trace_json.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/csv_field.hpp"

namespace lw::cli {

namespace {

// Runs body(i, sim) for every shape index on all cores (one Simulator per thread), shapes handed
// out one at a time (their costs vary widely); the first error is rethrown (one line).
void for_each_shape(size_t count, const std::function<void(size_t, Simulator&)>& body,
                    Progress* progress) {
  const size_t workers =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), count));
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  std::vector<std::string> errors(workers);
  for (size_t w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      Simulator sim;
      try {
        for (size_t i = next++; i < count; i = next++) {
          body(i, sim);
          if (progress) progress->advance();
        }
      } catch (const std::exception& e) {
        errors[w] = e.what();
        next = count;  // stop the other workers early
      }
    });
  }
  for (auto& t : pool) t.join();
  if (progress) progress->finish();
  for (const auto& e : errors) {
    if (!e.empty()) throw std::invalid_argument(e);
  }
}

}  // namespace

std::vector<PredictRow> predict_all(const std::vector<Problem>& shapes,
                                    const std::vector<std::string>& schedules,
                                    const PredictSetup& setup, Progress* progress) {
  std::vector<PredictRow> rows(shapes.size() * schedules.size());
  for_each_shape(
      shapes.size(),
      [&](size_t i, Simulator& sim) {
        for (size_t j = 0; j < schedules.size(); ++j) {
          rows[i * schedules.size() + j] = predict(shapes[i], schedules[j], setup, sim);
        }
      },
      progress);
  return rows;
}

namespace {

// A case an undetermined parameter moves by more than this share is refused.
constexpr double kRelevantChange = 0.01;
// The undetermined parameter is halved and doubled to see whether a case depends on it.
constexpr double kProbeFactors[] = {0.5, 2.0};

// Marks refused (PredictRow::refused) every row that a parameter the model file lists as not
// determined by its calibration moves by more than kRelevantChange; the other rows stand.
// `rerun` gives the same rows under another setup (the model with one parameter probed).
using Rerun = std::function<std::vector<PredictRow>(const PredictSetup&)>;
void refuse_undetermined(const po::variables_map& vm, const GpuSpec& gpu, const PredictSetup& setup,
                         std::vector<PredictRow>& rows, ModelFile f, const Rerun& rerun) {
  for (const auto& [k, v] : parse_param_overrides(vm["param"].as<std::string>())) f.params[k] = v;
  for (const auto& param : f.undetermined) {
    for (const double factor : kProbeFactors) {
      ParamValues probe = f.params;
      probe[param] *= factor;
      // The file's model as predict built it (fitted tile, clusters, residual trees), but for
      // the probed parameter.
      const auto model = make_model_from_file(f, probe, gpu);
      PredictSetup s = setup;
      s.model = model.get();
      const auto moved = rerun(s);
      for (size_t i = 0; i < rows.size(); ++i) {
        const double change = std::abs(moved[i].makespan / rows[i].makespan - 1.0);
        if (!rows[i].deadlock && rows[i].refused.empty() && !(change <= kRelevantChange)) {
          const Problem& p = rows[i].problem;
          rows[i].refused = "model " + vm["model"].as<std::string>() + ": parameter '" + param +
                            "' was not determined by its calibration data and moves " +
                            std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                            std::to_string(p.k) + " " + rows[i].schedule +
                            " by more than 1 %; refit on data that exercises it";
        }
      }
    }
  }
}

// `best`'s `top` fastest plans of every shape (predict_ranked), shape by shape.
std::vector<std::vector<PredictRow>> rank_all(const std::vector<Problem>& shapes, size_t top,
                                              const PredictSetup& setup) {
  std::vector<std::vector<PredictRow>> ranked(shapes.size());
  for_each_shape(
      shapes.size(),
      [&](size_t i, Simulator& sim) { ranked[i] = predict_ranked(shapes[i], top, setup, sim); },
      nullptr);
  return ranked;
}

// The ranked rows' own configs simulated again under `setup` (refuse_undetermined's rerun); a row
// with no rank (every candidate deadlocked) stays as it is.
std::vector<PredictRow> rerun_configs(const std::vector<PredictRow>& rows,
                                      const PredictSetup& setup) {
  std::vector<PredictRow> out(rows.size());
  for_each_shape(
      rows.size(),
      [&](size_t i, Simulator& sim) {
        const PredictRow& r = rows[i];
        out[i] =
            r.rank > 0 ? predict_config(r.problem, r.choice, r.tile, r.cluster, setup, sim) : r;
      },
      nullptr);
  return out;
}

// Each shape's rows in `schedules` order: `rows` holds those of `simulated` (shape-major), and
// `best`, when ranked, is its ranked rows.
std::vector<std::vector<PredictRow>> shape_blocks(
    size_t shapes, const std::vector<std::string>& schedules,
    const std::vector<std::string>& simulated, const std::vector<PredictRow>& rows,
    const std::vector<std::vector<PredictRow>>& ranked) {
  std::vector<std::vector<PredictRow>> blocks(shapes);
  size_t next = 0;
  for (size_t i = 0; i < shapes; ++i) {
    for (const auto& schedule : schedules) {
      const bool replace = schedule == "best" && !ranked.empty();
      if (replace) blocks[i].insert(blocks[i].end(), ranked[i].begin(), ranked[i].end());
      if (!replace) blocks[i].push_back(rows[next++]);
    }
  }
  if (next != shapes * simulated.size()) throw std::logic_error("predict: rows out of step");
  return blocks;
}

std::vector<PredictRow> flatten(const std::vector<std::vector<PredictRow>>& blocks) {
  std::vector<PredictRow> rows;
  for (const auto& b : blocks) rows.insert(rows.end(), b.begin(), b.end());
  return rows;
}

// Puts flatten()'s rows back into their blocks (same sizes, same order).
void unflatten(const std::vector<PredictRow>& rows, std::vector<std::vector<PredictRow>>& blocks) {
  size_t next = 0;
  for (auto& b : blocks) {
    for (auto& r : b) r = rows.at(next++);
  }
  if (next != rows.size()) throw std::logic_error("predict: ranked rows out of step");
}

// One line on the refused rows (empty if none); with `strict` the first refusal is an error.
std::string refusal_summary(const std::vector<PredictRow>& rows, bool strict) {
  size_t refused = 0;
  const PredictRow* first = nullptr;
  for (const PredictRow& r : rows) {
    if (r.refused.empty()) continue;
    ++refused;
    if (!first) first = &r;
  }
  if (!first) return "";
  if (strict) throw std::invalid_argument(first->refused);
  return std::to_string(refused) + " of " + std::to_string(rows.size()) +
         " rows refused (status 'refused'; --strict makes it an error), the first: " +
         first->refused;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// ok (answered), deadlock (the plan cannot finish) or refused (the model cannot answer it).
std::string row_status(const PredictRow& r) {
  if (!r.refused.empty()) return "refused";
  return r.deadlock ? "deadlock" : "ok";
}

// `ranked` (--top given): a column `rank` (1 = fastest of `best`; 0 for other schedules). Every
// row ends with its status and, when refused, the reason.
std::string render_csv(const std::vector<PredictRow>& rows, bool physical, bool ranked) {
  std::ostringstream o;
  o << "m,n,k,sms,schedule,choice,tiles,iters_per_tile,sk_tiles,sk_units,grid,makespan,ideal,"
       "efficiency,makespan_factor"
    << (physical ? ",makespan_us" : "") << ",tile,cluster" << (ranked ? ",rank" : "")
    << ",status,reason\n";
  for (const auto& r : rows) {
    const std::string status = row_status(r);
    const bool timed = status == "ok", refused = !r.refused.empty();
    o << r.problem.m << ',' << r.problem.n << ',' << r.problem.k << ',' << r.sms << ','
      << r.schedule << ',' << r.choice << ',' << r.tiles << ',' << r.k_tiles << ',' << r.sk_tiles
      << ',' << r.sk_units << ',' << r.grid << ',' << (timed ? fmt("%.4f", r.makespan) : status)
      << ',' << (refused ? status : fmt("%.4f", r.ideal)) << ','
      << (timed     ? fmt("%.4f", r.efficiency)
          : refused ? status
                    : "0")
      << ',' << (refused ? status : fmt("%.6f", r.makespan_factor));
    if (physical) o << ',' << (timed ? fmt("%.3f", r.makespan) : status);
    o << ',' << tile_text(r.tile) << ',' << cluster_text(r.cluster);
    if (ranked) o << ',' << r.rank;
    o << ',' << status << ',' << csv_field(r.refused) << "\n";
  }
  return o.str();
}

std::string render_json(const std::vector<PredictRow>& rows, const std::string& unit) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
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
    out.push_back(j);
  }
  return out.dump(2) + "\n";
}

constexpr size_t kLabelWidth = 50;  // characters of the table's label column, at least

// A row's table label: schedule -> choice, and for `best` its config (and rank).
std::string table_label(const PredictRow& r) {
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
      << ": " << first.tiles << " tiles x " << first.k_tiles << " iters, ideal makespan "
      << (first.refused.empty() ? fmt("%.1f", first.ideal) + " " + unit : "refused") << "\n";
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
      if (timed) o << "\n";
    }
    o << "\n";
  }
  return o.str();
}

// --top: how many of `best`'s fastest plans to list (1: only the winner, as without it).
size_t top_from(const po::variables_map& vm, const std::vector<std::string>& schedules) {
  if (!vm.count("top")) return 1;
  const int64_t top = vm["top"].as<int64_t>();
  if (top < 1) throw std::invalid_argument("--top must be >= 1, got " + std::to_string(top));
  if (std::find(schedules.begin(), schedules.end(), "best") == schedules.end()) {
    throw std::invalid_argument("--top ranks the plans of --schedule best; the list has no best");
  }
  return static_cast<size_t>(top);
}

}  // namespace

int cmd_predict(int argc, char** argv) {
  po::options_description desc("lastwave predict");
  desc.add_options()("help,h", "show this help")(
      "schedule", po::value<std::string>()->default_value("dp,splitk:2,splitk:4,streamk,cutlass"),
      "comma-separated schedules: dp, dp-persistent, splitk:S, splitk-sep:S, streamk[:G], "
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
  const GpuSpec gpu = gpu_from(vm);
  const auto shapes = shapes_from(vm);
  const auto schedules = parse_schedule_list(vm["schedule"].as<std::string>());
  const auto model = model_from(vm, gpu);
  const PredictSetup setup = predict_setup_from(vm, gpu, *model, shapes, schedules);

  if (vm.count("trace")) {
    if (shapes.size() != 1 || schedules.size() != 1) {
      throw std::invalid_argument("--trace needs exactly one shape and one schedule");
    }
  }
  Progress progress("predict", static_cast<int64_t>(shapes.size()), "shapes",
                    ProgressStyle::for_stderr(vm.count("quiet") > 0));
  const size_t top = top_from(vm, schedules);
  // With --top, `best` is ranked (rank_all) instead of searched a second time by predict_all.
  std::vector<std::string> simulated = schedules;
  if (vm.count("top")) {
    simulated.erase(std::remove(simulated.begin(), simulated.end(), "best"), simulated.end());
  }
  auto rows = predict_all(shapes, simulated, setup, &progress);
  auto ranked =
      vm.count("top") ? rank_all(shapes, top, setup) : std::vector<std::vector<PredictRow>>{};
  if (const ModelFile* file = fitted_model_file(vm)) {
    refuse_undetermined(vm, gpu, setup, rows, *file,
                        [&](const PredictSetup& s) { return predict_all(shapes, simulated, s); });
    std::vector<PredictRow> listed = flatten(ranked);
    refuse_undetermined(vm, gpu, setup, listed, *file,
                        [&](const PredictSetup& s) { return rerun_configs(listed, s); });
    unflatten(listed, ranked);
    warn_outside_calibration("predict", *file, vm["model"].as<std::string>(), gpu, shapes,
                             setup.tile, schedules);
  }
  const auto blocks = shape_blocks(shapes.size(), schedules, simulated, rows, ranked);
  const std::string refusals = refusal_summary(flatten(blocks), vm.count("strict") > 0);
  const bool physical = model->time_unit() == "us";
  std::string text;
  if (format == "csv") {
    text = render_csv(flatten(blocks), physical, vm.count("top") > 0);
  } else if (format == "json") {
    text = render_json(flatten(blocks), model->time_unit());
  } else {
    text = render_table(blocks, model->time_unit(),
                        gpu.name + " (" + std::to_string(gpu.sms) + " SMs)");
  }
  if (vm.count("trace") && refusals.empty()) {  // a refused row's timeline is not written either
    Simulator sim;
    std::vector<SegmentRecord> timeline;
    const PredictRow row = predict(shapes[0], schedules[0], setup, sim, &timeline);
    const std::string chosen = schedules[0] == "best" ? row.choice : schedules[0];
    const Plan plan =
        plan_schedule(chosen, shapes[0], row.tile, setup.gpu, setup.reduction, row.cluster).plan;
    TraceMeta meta{"sim", shapes[0], gpu.sms, chosen, model->time_unit()};
    write_file_atomically(user_path(vm["trace"].as<std::string>()),
                          trace_document(timeline, plan, meta).dump() + "\n");
  }
  emit(vm, text);
  if (!refusals.empty()) {
    std::cerr << "lastwave predict: " << refusals
              << (vm.count("trace") ? " (no trace written)" : "") << "\n";
  }
  return 0;
}

}  // namespace lw::cli

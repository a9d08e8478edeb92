// The predict pipeline (predict_run.hpp): setup, rows on all cores, ranking, refusals, CSV.
#include "sim/api/predict_run.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "sim/api/calibration_warning.hpp"
#include "sim/api/row_coverage.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/csv_field.hpp"

namespace lw {

namespace {

// Runs body(i, sim) for every shape index: in the calling thread for one worker, else on all
// cores (one Simulator per thread), shapes handed out one at a time (their costs vary widely);
// the first error is rethrown (one line).
void for_each_shape(size_t count, const std::function<void(size_t, Simulator&)>& body,
                    const ShapeDone& done) {
  const size_t workers =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), count));
  std::atomic<size_t> next{0};
  std::vector<std::string> errors(workers);
  const auto work = [&](size_t w) {
    Simulator sim;
    try {
      for (size_t i = next++; i < count; i = next++) {
        body(i, sim);
        if (done) done();
      }
    } catch (const std::exception& e) {
      errors[w] = e.what();
      next = count;  // stop the other workers early
    }
  };
  if (workers == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) pool.emplace_back(work, w);
    for (auto& t : pool) t.join();
  }
  for (const auto& e : errors) {
    if (!e.empty()) throw std::invalid_argument(e);
  }
}

// predict_all's rows for the (shape, schedule) pairs `need` marks (shape-major); the others left
// default. A row of a schedule other than best stops past its `cutoffs` entry (predict_config).
std::vector<PredictRow> predict_some(const std::vector<Problem>& shapes,
                                     const std::vector<std::string>& schedules,
                                     const PredictSetup& setup, const std::vector<bool>& need,
                                     const std::vector<double>& cutoffs) {
  std::vector<PredictRow> rows(shapes.size() * schedules.size());
  for_each_shape(shapes.size(),
                 [&](size_t i, Simulator& sim) {
                   for (size_t j = 0; j < schedules.size(); ++j) {
                     const size_t k = i * schedules.size() + j;
                     if (!need[k]) continue;
                     rows[k] = schedules[j] == "best"
                                   ? predict(shapes[i], schedules[j], setup, sim)
                                   : predict_config(shapes[i], schedules[j], setup.tile,
                                                    setup.cluster, setup, sim, cutoffs[k]);
                   }
                 },
                 {});
  return rows;
}

// A case an undetermined parameter moves by more than this share is refused.
constexpr double kRelevantChange = 0.01;
// The undetermined parameter is doubled and halved to see whether a case depends on it (the
// doubled one first: where it slows a row, its run stops at the row's cut-off; a row refused by
// either probe is refused, so the order changes no answer).
constexpr double kProbeFactors[] = {2.0, 0.5};

// Marks refused (PredictRow::refused) every row that a parameter the model file lists as not
// determined by its calibration moves by more than kRelevantChange; the other rows stand.
// `rerun` gives the rows `need` marks under another setup (the model with one parameter probed);
// the others it may leave default. It may stop a row once its time passes the row's `cutoffs`
// entry (a row that slows by more than kRelevantChange is refused without finishing its run).
using Rerun = std::function<std::vector<PredictRow>(
    const PredictSetup&, const std::vector<bool>& need, const std::vector<double>& cutoffs)>;
void refuse_undetermined(const PreparedPredict& p, std::vector<PredictRow>& rows,
                         const Rerun& rerun) {
  const ModelSource& source = p.request.model;
  ModelFile f = *source.file;
  for (const auto& [k, v] : source.overrides) f.params[k] = v;
  for (const auto& param : f.undetermined) {
    for (const double factor : kProbeFactors) {
      ParamValues probe = f.params;
      probe[param] *= factor;
      // The file's model as predict built it (fitted tile, clusters, residual trees), but for
      // the probed parameter.
      const auto model = make_model_from_file(f, probe, p.request.gpu);
      PredictSetup s = p.setup;
      s.model = model.get();
      // Only rows that could still be refused are simulated again.
      std::vector<bool> need(rows.size());
      std::vector<double> cutoffs(rows.size());
      bool any = false;
      for (size_t i = 0; i < rows.size(); ++i) {
        need[i] = !rows[i].deadlock && rows[i].refused.empty();
        cutoffs[i] = rows[i].makespan * (1.0 + kRelevantChange);
        any = any || need[i];
      }
      if (!any) continue;
      const auto moved = rerun(s, need, cutoffs);
      for (size_t i = 0; i < rows.size(); ++i) {
        if (!need[i]) continue;
        // Cut off: slower than the row by more than kRelevantChange.
        const double change = moved[i].cut_off
                                  ? std::numeric_limits<double>::infinity()
                                  : std::abs(moved[i].makespan / rows[i].makespan - 1.0);
        if (!rows[i].deadlock && rows[i].refused.empty() && !(change <= kRelevantChange)) {
          const Problem& pr = rows[i].problem;
          rows[i].refused = "model " + source.name + ": parameter '" + param +
                            "' was not determined by its calibration data and moves " +
                            std::to_string(pr.m) + "x" + std::to_string(pr.n) + "x" +
                            std::to_string(pr.k) + " " + rows[i].schedule +
                            " by more than 1 %; refit on data that exercises it";
        }
      }
    }
  }
}

// A calibrated model's fitted physics (rates, latencies, trees) belongs to the GPU its measurements
// ran on; there is no rule to carry it to another GPU, so on another one every row is refused
// (the built-in models and partitions of the measured GPU answer as usual).
void refuse_other_gpu(const PreparedPredict& p, std::vector<PredictRow>& rows) {
  const ModelSource& source = p.request.model;
  if (source.file->model != "calibrated" || measured_on(*source.file, p.request.gpu)) return;
  for (PredictRow& r : rows) {
    if (r.deadlock || !r.refused.empty()) continue;
    r.refused = "model " + source.name + " was calibrated on " + source.file->gpu +
                "; its fitted physics has no rule to carry it to " + p.request.gpu.name +
                " (calibrate on that GPU's measurements)";
  }
}

// `best`'s `top` fastest plans of every shape (predict_ranked), shape by shape.
std::vector<std::vector<PredictRow>> rank_all(const std::vector<Problem>& shapes, size_t top,
                                              const PredictSetup& setup) {
  std::vector<std::vector<PredictRow>> ranked(shapes.size());
  for_each_shape(
      shapes.size(),
      [&](size_t i, Simulator& sim) { ranked[i] = predict_ranked(shapes[i], top, setup, sim); },
      {});
  return ranked;
}

// The ranked rows' own configs simulated again under `setup` (refuse_undetermined's rerun); a row
// with no rank (every candidate deadlocked) or not marked in `need` stays as it is.
std::vector<PredictRow> rerun_configs(const std::vector<PredictRow>& rows,
                                      const PredictSetup& setup, const std::vector<bool>& need,
                                      const std::vector<double>& cutoffs) {
  std::vector<PredictRow> out(rows.size());
  for_each_shape(rows.size(),
                 [&](size_t i, Simulator& sim) {
                   const PredictRow& r = rows[i];
                   out[i] = r.rank > 0 && need[i]
                                ? predict_config(r.problem, r.choice, r.tile, r.cluster, setup, sim,
                                                 cutoffs[i])
                                : r;
                 },
                 {});
  return out;
}

// Each shape's rows in `schedules` order: `rows` holds those of `simulated` (shape-major), and
// `best`, when ranked, is its ranked rows.
std::vector<std::vector<PredictRow>> shape_blocks(size_t shapes,
                                                  const std::vector<std::string>& schedules,
                                                  const std::vector<std::string>& simulated,
                                                  std::vector<PredictRow>&& rows,
                                                  std::vector<std::vector<PredictRow>>&& ranked) {
  std::vector<std::vector<PredictRow>> blocks(shapes);
  size_t next = 0;
  for (size_t i = 0; i < shapes; ++i) {
    blocks[i].reserve(schedules.size());
    for (const auto& schedule : schedules) {
      const bool replace = schedule == "best" && !ranked.empty();
      if (replace) {
        for (PredictRow& r : ranked[i]) blocks[i].push_back(std::move(r));
      } else {
        blocks[i].push_back(std::move(rows[next++]));
      }
    }
  }
  if (next != shapes * simulated.size()) throw std::logic_error("predict: rows out of step");
  return blocks;
}

// Puts flatten()'s rows back into their blocks (same sizes, same order).
void unflatten(const std::vector<PredictRow>& rows, std::vector<std::vector<PredictRow>>& blocks) {
  size_t next = 0;
  for (auto& b : blocks) {
    for (auto& r : b) r = rows.at(next++);
  }
  if (next != rows.size()) throw std::logic_error("predict: ranked rows out of step");
}

// One line on the refused rows of every block, in order (empty if none); `first` receives the
// first row's reason. Read in place: a corpus has hundreds of thousands of rows.
std::string refusal_summary(const std::vector<std::vector<PredictRow>>& blocks,
                            std::string& first_reason) {
  size_t refused = 0, rows = 0;
  const PredictRow* first = nullptr;
  for (const auto& block : blocks) {
    rows += block.size();
    for (const PredictRow& r : block) {
      if (r.refused.empty()) continue;
      ++refused;
      if (!first) first = &r;
    }
  }
  if (!first) return "";
  first_reason = first->refused;
  return std::to_string(refused) + " of " + std::to_string(rows) +
         " rows refused (status 'refused'; --strict makes it an error), the first: " +
         first->refused;
}

void check_model_config(const CostModel& model, const TileShape& t, const ClusterShape& c) {
  const std::string err = model.config_error(t, c);
  if (!err.empty()) {
    throw std::invalid_argument("tile " + tile_text(t) + " cluster " + cluster_text(c) + ": " +
                                err);
  }
}

// best skips the listed configs the model cannot cost: one line saying so (empty: none skipped);
// throws when it would skip every config the kernels have among them.
std::string skipped_text(const CostModel& model, const std::vector<TileShape>& tiles,
                         const std::vector<ClusterShape>& clusters) {
  const std::vector<std::string> skipped = uncostable_configs(model, tiles, clusters);
  if (skipped.empty()) return "";
  size_t configs = 0;
  for (const TileShape& t : tiles) {
    for (const ClusterShape& c : clusters) configs += kernel_has_config(t, c) ? 1 : 0;
  }
  if (skipped.size() == configs) throw std::invalid_argument(skipped.front());
  return "best skips " + std::to_string(skipped.size()) + " of the " + std::to_string(configs) +
         " listed configs, which the model cannot cost; the first: " + skipped.front();
}

// --tile / --cluster for the schedules other than best: one value each (any tile; a kernel
// cluster).
void single_config(const std::optional<std::string>& tile,
                   const std::optional<std::string>& cluster, PredictSetup& setup) {
  for (const auto& [opt, value] : {std::pair{"tile", tile}, std::pair{"cluster", cluster}}) {
    if (value && value->find(',') != std::string::npos) {
      throw std::invalid_argument(std::string("--") + opt + " '" + *value +
                                  "' lists several; only --schedule best searches a list");
    }
  }
  setup.tile = tile ? parse_tile(*tile) : kDefaultTile;
  if (cluster) setup.cluster = parse_kernel_clusters(*cluster)[0];
  check_model_config(*setup.model, setup.tile, setup.cluster);
}

}  // namespace

TileShape parse_tile(const std::string& text) {
  try {
    if (std::count(text.begin(), text.end(), 'x') != 2) throw std::invalid_argument("not MxNxK");
    return parse_tile_text(text);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("bad --tile '" + text + "' (expected MxNxK)");
  }
}

std::vector<PredictRow> predict_all(const std::vector<Problem>& shapes,
                                    const std::vector<std::string>& schedules,
                                    const PredictSetup& setup, const ShapeDone& done) {
  std::vector<PredictRow> rows(shapes.size() * schedules.size());
  for_each_shape(
      shapes.size(),
      [&](size_t i, Simulator& sim) {
        for (size_t j = 0; j < schedules.size(); ++j) {
          rows[i * schedules.size() + j] = predict(shapes[i], schedules[j], setup, sim);
        }
      },
      done);
  return rows;
}

PredictSetup make_predict_setup(const std::optional<std::string>& tile,
                                const std::optional<std::string>& cluster, Reduction reduction,
                                const GpuSpec& gpu, const CostModel& model,
                                const std::vector<std::string>& schedules) {
  PredictSetup setup;
  setup.gpu = gpu_shape(gpu);
  setup.reduction = reduction;
  setup.model = &model;
  const bool has_best = std::find(schedules.begin(), schedules.end(), "best") != schedules.end();
  const bool has_other = std::any_of(schedules.begin(), schedules.end(),
                                     [](const std::string& s) { return s != "best"; });
  // A shape the simulator cannot take (simulation_refusal) is not an error here: its rows are
  // refused, the others answered.
  if (has_other) single_config(tile, cluster, setup);
  if (has_best) {
    setup.best_tiles = tile ? parse_kernel_tiles(*tile) : model_tiles(model);
    setup.best_clusters = cluster ? parse_kernel_clusters(*cluster) : model_clusters(model);
    setup.best_skipped = skipped_text(model, setup.best_tiles, setup.best_clusters);
  }
  return setup;
}

PreparedPredict prepare_predict(PredictRequest request) {
  PreparedPredict p;
  p.model = build_model(request.model, request.gpu);
  p.setup = make_predict_setup(request.tile, request.cluster, request.reduction, request.gpu,
                               *p.model, request.schedules);
  const auto& s = request.schedules;
  if (request.top) {
    if (*request.top < 1) {
      throw std::invalid_argument("--top must be >= 1, got " + std::to_string(*request.top));
    }
    if (std::find(s.begin(), s.end(), "best") == s.end()) {
      throw std::invalid_argument("--top ranks the plans of --schedule best; the list has no best");
    }
  }
  p.request = std::move(request);
  return p;
}

PredictOutcome run_predict(const PreparedPredict& p, const ShapeDone& done) {
  const PredictRequest& r = p.request;
  // With --top, `best` is ranked (rank_all) instead of searched a second time by predict_all.
  std::vector<std::string> simulated = r.schedules;
  if (r.top) {
    simulated.erase(std::remove(simulated.begin(), simulated.end(), "best"), simulated.end());
  }
  auto rows = predict_all(r.shapes, simulated, p.setup, done);
  auto ranked = r.top ? rank_all(r.shapes, static_cast<size_t>(*r.top), p.setup)
                      : std::vector<std::vector<PredictRow>>{};
  PredictOutcome out;
  if (const ModelFile* file = r.model.file.get()) {
    refuse_other_gpu(p, rows);
    refuse_undetermined(p, rows,
                        [&](const PredictSetup& s, const std::vector<bool>& need,
                            const std::vector<double>& cutoffs) {
                          return predict_some(r.shapes, simulated, s, need, cutoffs);
                        });
    std::vector<PredictRow> listed = flatten(ranked);
    refuse_other_gpu(p, listed);
    refuse_undetermined(p, listed,
                        [&](const PredictSetup& s, const std::vector<bool>& need,
                            const std::vector<double>& cutoffs) {
                          return rerun_configs(listed, s, need, cutoffs);
                        });
    unflatten(listed, ranked);
    out.extrapolation = outside_calibration(*file, r.model.name, r.gpu, r.shapes, p.setup.tile,
                                            p.setup.cluster, r.schedules);
  }
  out.blocks =
      shape_blocks(r.shapes.size(), r.schedules, simulated, std::move(rows), std::move(ranked));
  if (r.model.file && r.model.file->coverage) {
    for (auto& block : out.blocks) attach_coverage(*r.model.file->coverage, r.gpu.sms, block);
    out.extrapolated = extrapolated_summary(out.blocks);
  }
  out.refusals = refusal_summary(out.blocks, out.first_refusal);
  out.best_skipped = p.setup.best_skipped;
  out.time_unit = p.model->time_unit();
  out.physical = out.time_unit == "us";
  out.ranked = r.top.has_value();
  return out;
}

void check_strict(const PreparedPredict& prepared, const PredictOutcome& outcome) {
  if (prepared.request.strict && !outcome.first_refusal.empty()) {
    throw std::invalid_argument(outcome.first_refusal);
  }
}

std::vector<PredictRow> flatten(const std::vector<std::vector<PredictRow>>& blocks) {
  std::vector<PredictRow> rows;
  for (const auto& b : blocks) rows.insert(rows.end(), b.begin(), b.end());
  return rows;
}

std::string format_number(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string row_status(const PredictRow& r) {
  if (!r.refused.empty()) return "refused";
  return r.deadlock ? "deadlock" : "ok";
}

namespace {

void csv_header(std::ostringstream& o, bool physical, bool ranked) {
  o << "m,n,k,sms,schedule,choice,tiles,iters_per_tile,sk_tiles,sk_units,grid,makespan,ideal,"
       "efficiency,makespan_factor"
    << (physical ? ",makespan_us" : "") << ",tile,cluster" << (ranked ? ",rank" : "")
    << ",status,reason" << kCoverageCsvColumns << "\n";
}

void csv_row(std::ostringstream& o, const PredictRow& r, bool physical, bool ranked) {
  const auto fmt = format_number;
  const std::string status = row_status(r);
  const bool timed = status == "ok", refused = !r.refused.empty();
  o << r.problem.m << ',' << r.problem.n << ',' << r.problem.k << ',' << r.sms << ',' << r.schedule
    << ',' << r.choice << ',' << r.tiles << ',' << r.k_tiles << ',' << r.sk_tiles << ','
    << r.sk_units << ',' << r.grid << ',' << (timed ? fmt("%.4f", r.makespan) : status) << ','
    << (refused ? status : fmt("%.4f", r.ideal)) << ','
    << (timed     ? fmt("%.4f", r.efficiency)
        : refused ? status
                  : "0")
    << ',' << (refused ? status : fmt("%.6f", r.makespan_factor));
  if (physical) o << ',' << (timed ? fmt("%.3f", r.makespan) : status);
  o << ',' << tile_text(r.tile) << ',' << cluster_text(r.cluster);
  if (ranked) o << ',' << r.rank;
  o << ',' << status << ',' << csv_field(r.refused) << coverage_csv_cells(r) << "\n";
}

}  // namespace

std::string predict_csv(const std::vector<std::vector<PredictRow>>& blocks, bool physical,
                        bool ranked) {
  std::ostringstream o;
  csv_header(o, physical, ranked);
  for (const auto& block : blocks) {
    for (const auto& r : block) csv_row(o, r, physical, ranked);
  }
  return o.str();
}

}  // namespace lw

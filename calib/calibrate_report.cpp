// Rendering of one calibration run: the model file JSON, the markdown report (section by
// section), the terminal summary and the residuals CSV.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <utility>

#include "calib/calibrate_run.hpp"
#include "calib/coverage_fit.hpp"
#include "calib/file_hash.hpp"
#include "calib/shortlist.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/config_list.hpp"

namespace lw {

namespace {

// Acceptance targets of issue 8 (percent / ratio), stated on the sealed test set: at the full
// GPU median <= 3 %, p95 <= 10 %; fit at the full GPU, predict 16-128 SMs: median <= 5 %; the
// simulator's pick reaches >= 99 % of the measured best (geomean), >= 90 % on the worst shape.
constexpr double kTargetMedianPct = 3.0;
constexpr double kTargetP95Pct = 10.0;
constexpr double kTargetCrossMedianPct = 5.0;
constexpr double kTargetPickRatio = 0.99;
constexpr double kTargetPickWorstRatio = 0.90;
// The baselines the model must beat on the test set (preds[1], preds[2]: A.1, roofline + waves);
// with residual trees, the same baselines with their own trees come last (calibrate_run.hpp).
constexpr size_t kFirstFittedBaseline = 1;

std::string f1(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}
std::string f3(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

std::string tile_name(const TileShape& t) {
  return std::to_string(t.m) + "x" + std::to_string(t.n) + "x" + std::to_string(t.k);
}

std::string stats_cells(const ErrorStats& s, bool full) {
  if (s.n == 0) return full ? "- | - | - | -" : "- | -";
  return full ? f1(s.median) + " | " + f1(s.p90) + " | " + f1(s.p95) + " | " + f1(s.max)
              : f1(s.median) + " | " + f1(s.p95);
}

// Held-out error table: one row per subset, the simulator in full, others median/p95.
std::string error_table(const std::vector<FitCase>& cases, const std::vector<Predictor>& preds,
                        const LabelledRows& rows) {
  std::ostringstream o;
  o << "| subset | n | " << preds[0].name << " median | p90 | p95 | max |";
  for (size_t p = 1; p < preds.size(); ++p) o << " " << preds[p].name << " median | p95 |";
  o << "\n|---|---:|---:|---:|---:|---:|";
  for (size_t p = 1; p < preds.size(); ++p) o << "---:|---:|";
  o << "\n";
  for (const auto& [label, idx] : rows) {
    if (idx.empty()) continue;
    o << "| " << label << " | " << idx.size() << " | "
      << stats_cells(error_stats(cases, preds[0].pred, idx), true) << " |";
    for (size_t p = 1; p < preds.size(); ++p) {
      o << " " << stats_cells(error_stats(cases, preds[p].pred, idx), false) << " |";
    }
    o << "\n";
  }
  return o.str();
}

std::string decision_table(const std::vector<FitCase>& cases, const std::vector<Predictor>& preds,
                           const IndexSet& idx, const std::string& rule) {
  std::ostringstream o;
  o << "| picker | groups | picks the measured fastest | measured best / pick (geomean) | worst "
       "|\n|---|---:|---:|---:|---:|\n";
  auto row = [&](const std::string& name, const DecisionStats& d) {
    o << "| " << name << " | " << d.groups << " | " << f1(kPercent * d.exact) << " % | "
      << f1(kPercent * d.geomean) << " % | " << f1(kPercent * d.worst) << " % |\n";
  };
  for (const auto& p : preds) row(p.name, decision_stats(cases, p.pred, idx));
  row("`" + rule + "` rule", decision_stats(cases, preds[0].pred, idx, rule));
  return o.str();
}

std::set<int64_t> sm_counts(const std::vector<FitCase>& cases, const IndexSet& idx) {
  std::set<int64_t> sms;
  for (size_t i : idx) sms.insert(cases[i].m->sms);
  return sms;
}

// One row per SM count found in `idx`; a count outside `trained` (when given) is marked so.
void add_rows_per_sms(const std::vector<FitCase>& cases, const IndexSet& idx, LabelledRows* rows,
                      const std::set<int64_t>* trained = nullptr) {
  for (const int64_t n : sm_counts(cases, idx)) {
    const bool unseen = trained != nullptr && trained->count(n) == 0;
    rows->emplace_back("SMs = " + std::to_string(n) + (unseen ? " (no training row)" : ""),
                       select(cases, idx, [&](const Measurement& m) { return m.sms == n; }));
  }
}

// `idx` by SM count, decomposition, cluster and tile; SM counts without training rows marked.
LabelledRows breakdown(const CalibrationRun& run, const IndexSet& idx) {
  const std::vector<FitCase>& cases = run.cases;
  const int64_t full_sms = run.preset.sms;
  const std::set<int64_t> trained = sm_counts(cases, run.split.train);
  LabelledRows rows;
  rows.emplace_back("all", idx);
  rows.emplace_back(std::to_string(full_sms) + " SMs",
                    select(cases, idx, [&](const Measurement& m) { return m.sms == full_sms; }));
  std::set<std::string> schedules;
  for (size_t i : idx) schedules.insert(cases[i].m->schedule);
  for (const auto& s : schedules) {
    rows.emplace_back("decomposition " + s,
                      select(cases, idx, [&](const Measurement& m) { return m.schedule == s; }));
  }
  add_rows_per_sms(cases, idx, &rows, &trained);
  // Per cluster, then per tile x cluster.
  const auto cluster_of = [&](size_t i) { return cluster_text(cases[i].plan.cluster); };
  std::set<std::string> clusters;
  for (size_t i : idx) clusters.insert(cluster_of(i));
  for (const auto& c : clusters) {
    IndexSet sel;
    for (size_t i : idx) {
      if (cluster_of(i) == c) sel.push_back(i);
    }
    rows.emplace_back("cluster " + c, sel);
  }
  std::set<std::string> tiles;
  for (size_t i : idx) tiles.insert(tile_name(cases[i].plan.tile) + " cluster " + cluster_of(i));
  for (const auto& t : tiles) {
    IndexSet sel;
    for (size_t i : idx) {
      if (tile_name(cases[i].plan.tile) + " cluster " + cluster_of(i) == t) sel.push_back(i);
    }
    rows.emplace_back("tile " + t, sel);
  }
  return rows;
}

std::string verdict(bool ok) { return ok ? "**met**" : "**missed**"; }

size_t distinct_shapes(const std::vector<Measurement>& ms) {
  std::set<std::string> shapes;
  for (const auto& m : ms) {
    shapes.insert(std::to_string(m.problem.m) + "x" + std::to_string(m.problem.n) + "x" +
                  std::to_string(m.problem.k));
  }
  return shapes.size();
}

void md_intro(const CalibrationRun& run, std::ostringstream& md) {
  const CalibrateOptions& opt = *run.opt;
  md << "# Calibration: " << run.preset.label << ", bf16, tile " << tile_name(opt.tile) << "\n\n"
     << "Generated by `lastwave calibrate` (" << opt.date << ", git " << opt.git_revision
     << "). Errors are |simulated / measured - 1| in %. Three sets: **train** (fitted), "
        "**validation** (chooses the model terms; "
     << (opt.validation.empty()
             ? "shapes of the training files hashed with seed " + std::to_string(opt.seed) +
                   ", every SM count and decomposition of a shape on the same side"
             : std::string("its own files"))
     << ") and **test** (sealed; reported as it comes, never fitted or tuned on). Tables headed "
        "\"held-out\" are the validation set.\n\n";
}

void md_data(const CalibrationRun& run, std::ostringstream& md) {
  const CalibrateOptions& opt = *run.opt;
  md << "## Command\n\n```\n"
     << opt.command << "\n```\n\n"
     << "## Data\n\n"
     << "- measurement files: ";
  for (const auto& f : opt.measurements) md << "`" << f << "` ";
  if (!opt.physics_measurements.empty()) {
    md << "\n- the physics fitted on the rows of (`--physics-measurements`; the residual trees and "
          "baselines on every training row): ";
    for (const auto& f : opt.physics_measurements) md << "`" << f << "` ";
  }
  md << "\n- validation files: ";
  for (const auto& f : opt.validation) md << "`" << f << "` ";
  if (opt.validation.empty()) md << "(none: hash split of the training files)";
  md << "\n- test files (sealed): ";
  for (const auto& f : opt.test) md << "`" << f << "` sha256 `" << sha256_file(f) << "` ";
  if (opt.test.empty()) md << "(none: no test data)";
  md << "\n- hardware traces (start values): " << run.traces.size() << "\n";
  if (!opt.start_model.empty()) {
    md << "- start values: the parameters of `" << opt.start_model
       << "` (`--start`; terms it held off or left undetermined start as without it)\n";
  }
  md << "- rows: " << run.cases.size() << " (" << run.skipped
     << " rows with ok=0 skipped), shapes: " << distinct_shapes(run.ms)
     << ", training rows: " << run.split.train.size() << " (the physics fitted on "
     << run.split.physics.size() << ")"
     << ", validation rows: " << run.split.held.size() << ", test rows: " << run.split.test.size()
     << "\n- fit: " << run.fit.status << ", " << run.fit.evaluations
     << " evaluations, training RMS relative error " << f1(kPercent * run.fit.train_rms_rel)
     << " %\n\n";
}

// One acceptance figure on validation (terms were chosen on it) and on test (as it came).
struct Acceptance {
  std::string figure;
  bool percent_error;  // an error in % (met when <= target); else a ratio (met when >=)
  double target;
  double validation, test;
  bool has_validation, has_test;
};

bool target_met(const Acceptance& a, double v) {
  return a.percent_error ? v <= a.target : v >= a.target;
}

std::string accept_value(const Acceptance& a, double v, bool has) {
  if (!has) return "- | (no rows)";
  return f1(a.percent_error ? v : kPercent * v) + " % | " + verdict(target_met(a, v));
}

std::vector<Acceptance> acceptance_rows(const CalibrationRun& run) {
  const Headline& h = run.head;
  const std::string sms = std::to_string(run.preset.sms);
  return {
      {"median at " + sms + " SMs", true, kTargetMedianPct, h.full.median, h.test_at_full.median,
       h.full.n > 0, h.test_at_full.n > 0},
      {"p95 at " + sms + " SMs", true, kTargetP95Pct, h.full.p95, h.test_at_full.p95, h.full.n > 0,
       h.test_at_full.n > 0},
      {"cross-SM median (fit at " + sms +
           ", predict partitions; validation column: every train "
           "and validation partition row)",
       true, kTargetCrossMedianPct, h.cross.median, h.test_cross.median, h.cross.n > 0,
       h.test_cross.n > 0},
      {"simulator pick vs measured best (geomean)", false, kTargetPickRatio, h.pick.geomean,
       h.test_pick.geomean, h.pick.groups > 0, h.test_pick.groups > 0},
      {"simulator pick vs measured best (worst shape)", false, kTargetPickWorstRatio, h.pick.worst,
       h.test_pick.worst, h.pick.groups > 0, h.test_pick.groups > 0},
  };
}

// "sim m / p95 vs A.1 m / p95, roofline + waves m / p95 | verdict": the simulator beats both
// fitted baselines when its median and p95 are both lower.
std::string beats_baselines_cell(const CalibrationRun& run, const IndexSet& idx, size_t first) {
  if (idx.empty()) return "- | (no rows)";
  const ErrorStats sim = error_stats(run.cases, run.preds[0].pred, idx);
  std::string cell = "simulator " + f1(sim.median) + " / " + f1(sim.p95);
  bool beats = true;
  for (size_t p = first; p < first + kFittedBaselines; ++p) {
    const ErrorStats b = error_stats(run.cases, run.preds[p].pred, idx);
    cell += ", " + run.preds[p].name + " " + f1(b.median) + " / " + f1(b.p95);
    beats = beats && sim.median < b.median && sim.p95 < b.p95;
  }
  return cell + " | " + verdict(beats);
}

void md_acceptance(const CalibrationRun& run, std::ostringstream& md) {
  const std::string sms = std::to_string(run.preset.sms);
  md << "## Acceptance (issue 8)\n\nThe targets are stated on the sealed **test** set. The "
        "**validation** column is what the model terms were chosen on (a figure tuned against); "
        "the **test** column is reported as it came and was never used to change the model.\n\n"
        "| figure | target | validation | | test (as it came) | |\n|---|---:|---:|---|---:|---|\n";
  for (const Acceptance& a : acceptance_rows(run)) {
    md << "| " << a.figure << " | " << (a.percent_error ? "<= " : ">= ")
       << f1(a.percent_error ? a.target : kPercent * a.target) << " % | "
       << accept_value(a, a.validation, a.has_validation) << " | "
       << accept_value(a, a.test, a.has_test) << " |\n";
  }
  md << "| beats the fitted A.1 and roofline + waves baselines (median / p95 % at " << sms
     << " SMs) | lower on both | "
     << beats_baselines_cell(run, run.head.held_full, kFirstFittedBaseline) << " | "
     << beats_baselines_cell(run, run.head.test_full, kFirstFittedBaseline) << " |\n";
  if (run.residual.size() > 0) {  // the baselines with residual trees of their own come last
    const size_t first = run.preds.size() - kFittedBaselines;
    md << "| beats the same baselines given residual trees of their own (median / p95 % at " << sms
       << " SMs) | lower on both | " << beats_baselines_cell(run, run.head.held_full, first)
       << " | " << beats_baselines_cell(run, run.head.test_full, first) << " |\n";
  }
  md << "\n";
}

// The status line under the title: the figures of the acceptance table and the kept terms.
void md_status(const CalibrationRun& run, std::ostringstream& md) {
  const Headline& h = run.head;
  const std::vector<Acceptance> rows = acceptance_rows(run);
  size_t val_met = 0, test_met = 0;
  for (const Acceptance& a : rows) {
    val_met += a.has_validation && target_met(a, a.validation) ? 1 : 0;
    test_met += a.has_test && target_met(a, a.test) ? 1 : 0;
  }
  const TermChoice& kept = run.variants.front();
  md << "> **Status (generated):** validation (terms chosen on it): " << run.preset.sms
     << " SMs median " << f1(h.full.median) << " %, p95 " << f1(h.full.p95)
     << " %; all rows median " << f1(h.all.median) << " %, p95 " << f1(h.all.p95)
     << " %; cross-SM median " << f1(h.cross.median) << " %; pick " << f1(kPercent * h.pick.geomean)
     << " % geomean, worst " << f1(kPercent * h.pick.worst) << " %: " << val_met << " of "
     << rows.size() << " targets met. Test, as it came: median " << f1(h.test_at_full.median)
     << " %, p95 " << f1(h.test_at_full.p95) << " %, pick " << f1(kPercent * h.test_pick.geomean)
     << " % geomean, worst " << f1(kPercent * h.test_pick.worst) << " %: " << test_met << " of "
     << rows.size() << " targets met. Kept terms: **" << kept.name << "** (lowest validation "
     << "median of the variants in \"Model terms\"; train RMS "
     << f1(kPercent * run.fit.train_rms_rel) << " %)";
  if (run.variants.size() > 1) {
    const TermChoice& next = run.variants[1];
    md << "; runner-up " << next.name << ": validation median " << f1(next.validation.median)
       << " %, p95 " << f1(next.validation.p95) << " % (kept: " << f1(kept.validation.median)
       << " %, " << f1(kept.validation.p95) << " %)";
  }
  md << ".\n\n";
}

// How the residual trees were fitted, and where the figures without them are.
void md_residual_trees(const CalibrationRun& run, std::ostringstream& md) {
  if (run.residual.size() == 0) {
    md << "No residual trees (--residual-rounds 0): the simulator's makespans are the model's.\n\n";
    return;
  }
  const ResidualFitOptions& o = run.opt->residual;
  std::string features;
  for (const char* f : residual_feature_names())
    features += (features.empty() ? "" : ", ") + std::string(f);
  md << "**Residual trees.** After the kept variant's parameters, " << run.residual.size()
     << " boosted regression trees (" << run.residual.nodes()
     << " nodes; XGBoost `hist`, squared error, learning rate " << o.learning_rate << ", "
     << o.max_leaves << " leaves, at least " << o.min_rows
     << " rows a leaf) were fitted to ln(measured / simulated) of the training rows over the "
        "plan's features ("
     << features
     << "); the model file carries them and the simulator multiplies every makespan by e^(sum "
        "of the trees). The `simulator, physics only` columns are the same simulator without "
        "them; each fitted baseline gets trees of its own, fitted the same way on the same rows "
        "(`+ residual trees` columns), so the comparison stays fair; the cross-SM check fits "
        "all of its trees on the full-GPU training rows only.\n\n";
}

void md_errors_and_decisions(const CalibrationRun& run, std::ostringstream& md) {
  md << "## Held-out error (%)\n\n"
     << error_table(run.cases, run.preds, breakdown(run, run.split.held))
     << "\nBaselines are fitted to the same training split by weighted least squares on relative "
        "error, fed what the calibrated model knows (k-tiles weighted by the tile's MACs, "
        "K % 64 != 0 misaligned rows, clusters of more than one CTA: baselines.hpp); "
        "`roofline (preset, unfitted)` is the `roofline` model simulated with its default "
        "parameters.\n\n";
  md << "## Decision quality (held-out shapes)\n\nPer (shape, SM count) group with at least two "
        "measured configurations, each picker chooses one measured (tile, cluster, decomposition); "
        "the `cutlass` rule is the CUTLASS SM90 heuristic as planned by lastwave, on the default "
        "tile 128x128x64 in 1x1 clusters (where measured).\n\n"
     << "All SM counts:\n\n"
     << decision_table(run.cases, run.preds, run.split.held, "cutlass") << "\n"
     << run.preset.sms << " SMs only:\n\n"
     << decision_table(run.cases, run.preds, run.head.held_full, "cutlass") << "\n";
}

void md_cross_sm(const CalibrationRun& run, std::ostringstream& md) {
  const CrossCheck& x = run.cross;
  if (x.preds.empty()) return;
  LabelledRows rows;
  rows.emplace_back("all partition rows", x.partitions);
  rows.emplace_back("held-out shapes only", x.partitions_held);
  add_rows_per_sms(run.cases, x.partitions, &rows);
  const std::set<int64_t> sms = sm_counts(run.cases, x.partitions);
  md << "## Cross-SM-count check\n\nFitted on the " << x.physics_full.size() << " training rows at "
     << run.preset.sms << " SMs only (" << x.fit.status << "; its residual trees on "
     << x.train_full.size() << "), predicting every row on " << *sms.begin() << "-" << *sms.rbegin()
     << " SMs (GPU partitions).\n\n"
     << error_table(run.cases, x.preds, rows) << "\n";
}

void md_test(const CalibrationRun& run, std::ostringstream& md) {
  md << "## Test set (sealed)\n\n";
  if (run.split.test.empty()) {
    md << "No test measurements were given (`--test FILE`): no test figures.\n\n";
    return;
  }
  md << "Fitted model and baselines as fitted above, on the test rows; figures as they came.\n\n"
     << error_table(run.cases, run.preds, breakdown(run, run.split.test)) << "\n"
     << decision_table(run.cases, run.preds, run.split.test, "cutlass") << "\n";
}

void md_terms(const CalibrationRun& run, std::ostringstream& md) {
  md << "## Model terms (chosen on validation)\n\n| variant | train RMS % | validation median % "
        "| validation p95 % | validation median at "
     << run.preset.sms << " SMs % | p95 at " << run.preset.sms
     << " SMs % | |\n|---|---:|---:|---:|---:|---:|---|\n";
  for (size_t v = 0; v < run.variants.size(); ++v) {
    const TermChoice& t = run.variants[v];
    md << "| " << t.name << " | " << f1(kPercent * t.fit.train_rms_rel) << " | "
       << f1(t.validation.median) << " | " << f1(t.validation.p95) << " | "
       << f1(t.validation_full.median) << " | " << f1(t.validation_full.p95) << " | "
       << (v == 0 ? "**kept**" : "") << " |\n";
  }
  md << "\n";
  md_residual_trees(run, md);
}

void md_parameters(const CalibrationRun& run, std::ostringstream& md) {
  md << "## Fitted parameters\n\nse(ln) = standard error of the parameter's logarithm from "
        "the training Jacobian (identify.hpp); a parameter with se(ln) >= ln 2 or at a bound is "
        "**undetermined**: `predict` refuses a case it moves by more than 1 %. A **pinned** "
        "parameter is held at a value the model's physics gives, because the data fix it only "
        "together with another (calibrate.cpp says which and why); an **off** one is held at the "
        "value that switches its term off (the kept variant dropped the term); one **at its "
        "limit** was pushed to its physical ceiling on the GPU (a rate above the preset's, a cache "
        "larger than its L2: `lastwave models --gpu NAME` lists them) and is held there: the "
        "physics misses something the parameter was absorbing.\n\n"
        "| parameter | value | unit | start | se(ln) | determined | meaning "
        "|\n|---|---:|---|---:|---:|---|---|\n";
  const Identifiability& id = run.fit.identifiability;
  for (const auto& p : calibrated_model_info().params) {
    const double se = id.log_se.at(p.name);
    const bool held =
        lists(id.pinned, p.name) || lists(id.off, p.name) || lists(id.at_limit, p.name);
    const char* determined = lists(id.pinned, p.name)         ? "pinned"
                             : lists(id.off, p.name)          ? "off"
                             : lists(id.at_limit, p.name)     ? "at its limit"
                             : lists(id.undetermined, p.name) ? "**no**"
                                                              : "yes";
    md << "| `" << p.name << "` | " << f3(run.fit.params.at(p.name)) << " | " << p.unit << " | "
       << f3(run.fit.start.at(p.name)) << " | "
       << (held                ? "-"
           : std::isfinite(se) ? f3(se)
                               : "unbounded")
       << " | " << determined << " | " << p.doc << " |\n";
  }
  md << "\n## Baseline coefficients\n\n";
  for (const auto* b : {&run.a1, &run.rw}) {
    md << "- " << b->name << ": ";
    for (size_t j = 0; j < b->terms.size(); ++j) {
      md << (j ? ", " : "") << b->terms[j] << " = " << f3(b->coef[j]);
    }
    md << "\n";
  }
}

// The clusters of the training rows, in kKernelClusters order (the model file's "clusters").
std::vector<std::string> training_clusters(const CalibrationRun& run) {
  std::vector<std::string> out;
  for (const ClusterShape& c : kKernelClusters) {
    const bool seen = std::any_of(run.split.train.begin(), run.split.train.end(), [&](size_t i) {
      return same_cluster(run.cases[i].m->cluster, c);
    });
    if (seen) out.push_back(cluster_text(c));
  }
  return out;
}

// The tiles of the training rows, in kKernelTiles order (the model file's "tiles").
std::vector<std::string> training_tiles(const CalibrationRun& run) {
  std::vector<std::string> out;
  for (const TileShape& t : kKernelTiles) {
    const bool seen = std::any_of(run.split.train.begin(), run.split.train.end(),
                                  [&](size_t i) { return same_tile(run.cases[i].plan.tile, t); });
    if (seen) out.push_back(tile_text(t));
  }
  return out;
}

// The extent of the training rows' shapes and SM counts.
TrainingRange training_range(const CalibrationRun& run) {
  TrainingRange r;
  for (size_t i : run.split.train) r.include(run.cases[i].m->problem, run.cases[i].m->sms);
  return r;
}

// The predictions under preds[0] of the rows `idx`, in that order (beside subset(cases, idx)).
std::vector<double> predictions_of(const CalibrationRun& run, const IndexSet& idx) {
  std::vector<double> out;
  for (size_t i : idx) out.push_back(run.preds[0].pred[i]);
  return out;
}

void md_coverage(const CalibrationRun& run, std::ostringstream& md) {
  const IndexSet& held = run.split.held;
  const IndexSet& test = run.split.test;
  md << coverage_markdown(run.coverage, subset(run.cases, held), predictions_of(run, held),
                          subset(run.cases, test), predictions_of(run, test), run.preset.sms);
}

}  // namespace

nlohmann::json model_file_json(const CalibrationRun& run) {
  const CalibrateOptions& opt = *run.opt;
  nlohmann::json params = nlohmann::json::object(), units = nlohmann::json::object(),
                 log_se = nlohmann::json::object();
  for (const auto& p : calibrated_model_info().params) {
    params[p.name] = run.fit.params.at(p.name);
    units[p.name] = p.unit;
    const Identifiability& id = run.fit.identifiability;
    const double se = id.log_se.at(p.name);
    log_se[p.name] = lists(id.pinned, p.name)     ? nlohmann::json("pinned")
                     : lists(id.off, p.name)      ? nlohmann::json("off")
                     : lists(id.at_limit, p.name) ? nlohmann::json("at_limit")
                     : std::isfinite(se)          ? nlohmann::json(se)
                                                  : nlohmann::json("unbounded");
  }
  nlohmann::json file = {
      {"model", "calibrated"},
      {"params", params},
      {"units", units},
      {"undetermined", run.fit.identifiability.undetermined},
      {"pinned", run.fit.identifiability.pinned},
      {"off", run.fit.identifiability.off},
      {"at_limit", run.fit.identifiability.at_limit},
      {"log_se", log_se},
      {"terms", run.variants.front().name},
      {"gpu", run.preset.name},
      {"tile", tile_name(opt.tile)},
      {"clusters", training_clusters(run)},
      {"tiles", training_tiles(run)},
      {"training_range", training_range(run).to_json()},
      {"source_measurements", opt.measurements},
      {"physics_measurements", physics_files(opt)},
      {"source_traces", opt.traces},
      {"git_revision", opt.git_revision},
      {"date", opt.date},
      {"fit",
       {{"method", "Levenberg-Marquardt (Eigen) on simulated/measured - 1, log-space params"},
        {"holdout", opt.holdout},
        {"seed", opt.seed},
        {"rows", run.cases.size()},
        {"train_rows", run.split.train.size()},
        {"physics_train_rows", run.split.physics.size()},
        {"heldout_rows", run.split.held.size()},
        {"skipped_rows_ok0", run.skipped},
        {"evaluations", run.fit.evaluations},
        {"status", run.fit.status},
        {"train_rms_rel", run.fit.train_rms_rel},
        {"heldout_median_pct", run.head.all.median},
        {"heldout_p95_pct", run.head.all.p95},
        {"heldout_full_gpu_median_pct", run.head.full.median},
        {"heldout_full_gpu_p95_pct", run.head.full.p95},
        {"test_rows", run.split.test.size()},
        {"test_median_pct", run.head.test.median},
        {"test_p95_pct", run.head.test.p95},
        {"heldout_pick_geomean", run.head.pick.geomean},
        {"heldout_pick_worst", run.head.pick.worst},
        {"test_pick_geomean", run.head.test_pick.geomean},
        {"test_pick_worst", run.head.test_pick.worst}}}};
  if (run.residual.size() > 0) {
    file["residual_trees"] = run.residual.to_json();
    file["residual_fit"] = {{"method", "XGBoost hist, squared error on ln(measured / simulated)"},
                            {"rows", "training rows"},
                            {"rounds", run.opt->residual.rounds},
                            {"trees", run.residual.size()},
                            {"nodes", run.residual.nodes()}};
  }
  file["coverage"] = run.coverage.to_json();
  return file;
}

std::string report_markdown(const CalibrationRun& run) {
  std::ostringstream md;
  md_intro(run, md);
  md_status(run, md);
  md_data(run, md);
  md_acceptance(run, md);
  md_errors_and_decisions(run, md);
  md_cross_sm(run, md);
  md_test(run, md);
  md_coverage(run, md);
  md << shortlist_markdown(run.cases, run.preds[0].pred, run.repeats, run.split.held,
                           run.split.test, run.preset.sms)
     << repeats_markdown(run.cases, run.preds[0].pred, run.repeats, run.split.held, run.split.test);
  md_terms(run, md);
  md_parameters(run, md);
  md << "\n" << run.opt->appendix;
  return md.str();
}

std::string terminal_summary(const CalibrationRun& run) {
  const Headline& h = run.head;
  const int64_t sms = run.preset.sms;
  std::ostringstream s;
  s << "calibrate: " << run.cases.size() << " rows (" << run.split.train.size() << " train, "
    << run.split.held.size() << " held out), fit " << run.fit.status << "\n"
    << "held-out |err| at " << sms << " SMs: median " << f1(h.full.median) << " %, p95 "
    << f1(h.full.p95) << " %, max " << f1(h.full.max) << " % (n=" << h.full.n << ")\n"
    << "held-out |err| all SM counts: median " << f1(h.all.median) << " %, p95 " << f1(h.all.p95)
    << " %\n";
  if (h.cross.n) {
    s << "cross-SM (fit at " << sms << "): median " << f1(h.cross.median) << " %, p95 "
      << f1(h.cross.p95) << " %\n";
  }
  for (const auto& [label, names] :
       {std::pair{"undetermined parameters:", &run.fit.identifiability.undetermined},
        std::pair{"terms off:", &run.fit.identifiability.off}}) {
    if (names->empty()) continue;
    s << label;
    for (const auto& n : *names) s << " " << n;
    s << "\n";
  }
  if (h.test.n) {
    s << "TEST |err|: median " << f1(h.test.median) << " %, p95 " << f1(h.test.p95)
      << " % (n=" << h.test.n << ")\n";
  }
  s << "held-out simulator pick: " << f1(kPercent * h.pick.exact) << " % exact, "
    << f1(kPercent * h.pick.geomean) << " % of measured best (geomean, " << h.pick.groups
    << " groups), worst " << f1(kPercent * h.pick.worst) << " %\n";
  if (h.test_pick.groups) {
    s << "TEST simulator pick: " << f1(kPercent * h.test_pick.geomean) << " % (geomean, "
      << h.test_pick.groups << " groups), worst " << f1(kPercent * h.test_pick.worst) << " %\n";
  }
  s << "kept terms: " << run.variants.front().name << "\n";
  return s.str();
}

std::string residuals_csv(const CalibrationRun& run) {
  std::vector<const char*> split(run.cases.size(), "train");
  for (size_t i : run.split.held) split[i] = "validation";
  for (size_t i : run.split.test) split[i] = "test";
  std::ostringstream csv;
  csv << "m,n,k,sms,decomposition,tile,cluster,split,measured_us";
  for (size_t p = 0; p < run.preds.size(); ++p) csv << ",pred" << p << "_us";
  csv << "\n";
  for (size_t i = 0; i < run.cases.size(); ++i) {
    const Measurement& m = *run.cases[i].m;
    csv << m.problem.m << ',' << m.problem.n << ',' << m.problem.k << ',' << m.sms << ','
        << m.schedule << ',' << tile_name(run.cases[i].plan.tile) << ','
        << cluster_text(run.cases[i].plan.cluster) << ',' << split[i] << ',' << m.median_us;
    for (const auto& p : run.preds) csv << ',' << p.pred[i];
    csv << "\n";
  }
  csv << "# pred columns: ";
  for (size_t p = 0; p < run.preds.size(); ++p) {
    csv << (p ? "; " : "") << "pred" << p << " = " << run.preds[p].name;
  }
  csv << "\n";
  return csv.str();
}

}  // namespace lw

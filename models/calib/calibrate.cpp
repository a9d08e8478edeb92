// Calibration pipeline: measurements -> split -> fits -> held-out figures -> model file + report.
#include "models/calib/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "models/calib/baselines.hpp"
#include "models/calib/file_hash.hpp"
#include "models/calib/fit.hpp"
#include "models/calib/metrics.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw {

namespace {

// Acceptance targets of issue #4 (percent / ratio).
constexpr double kTargetMedianPct = 5.0;
constexpr double kTargetP95Pct = 15.0;
constexpr double kTargetCrossMedianPct = 8.0;
constexpr double kTargetPickRatio = 0.97;
constexpr double kPercent = 100.0;

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

std::vector<FitCase> subset(const std::vector<FitCase>& cases, const std::vector<size_t>& idx) {
  std::vector<FitCase> out;
  for (size_t i : idx) out.push_back(cases[i]);
  return out;
}

template <typename Pred>
std::vector<size_t> select(const std::vector<FitCase>& cases, const std::vector<size_t>& from,
                           Pred pred) {
  std::vector<size_t> out;
  for (size_t i : from) {
    if (pred(*cases[i].m)) out.push_back(i);
  }
  return out;
}

// Simulates every case under `model_name` with the preset (partitioned per SM count).
std::vector<double> simulate_model(const std::string& model_name, const ParamValues& params,
                                   const GpuSpec& preset, const std::vector<FitCase>& cases) {
  std::vector<double> out(cases.size());
  std::map<int64_t, std::vector<size_t>> by_sms;
  for (size_t i = 0; i < cases.size(); ++i) by_sms[cases[i].m->sms].push_back(i);
  for (const auto& [sms, idx] : by_sms) {
    const GpuSpec gpu = sms == preset.sms ? preset : gpu_with_sms(sms, &preset);
    const auto model = make_model(model_name, params, gpu);
    const auto pred = simulate_cases(*model, subset(cases, idx));
    for (size_t j = 0; j < idx.size(); ++j) out[idx[j]] = pred[j];
  }
  return out;
}

struct Predictor {
  std::string name;
  std::vector<double> pred;
};

std::string stats_cells(const ErrorStats& s, bool full) {
  if (s.n == 0) return full ? "- | - | - | -" : "- | -";
  return full ? f1(s.median) + " | " + f1(s.p90) + " | " + f1(s.p95) + " | " + f1(s.max)
              : f1(s.median) + " | " + f1(s.p95);
}

// Held-out error table: one row per subset, the simulator in full, others median/p95.
std::string error_table(const std::vector<FitCase>& cases, const std::vector<Predictor>& preds,
                        const std::vector<std::pair<std::string, std::vector<size_t>>>& rows) {
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
                           const std::vector<size_t>& idx, const std::string& rule) {
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

std::vector<std::pair<std::string, std::vector<size_t>>> breakdown(
    const std::vector<FitCase>& cases, const std::vector<size_t>& idx, int64_t full_sms) {
  std::vector<std::pair<std::string, std::vector<size_t>>> rows;
  rows.emplace_back("all", idx);
  rows.emplace_back(std::to_string(full_sms) + " SMs",
                    select(cases, idx, [&](const Measurement& m) { return m.sms == full_sms; }));
  std::set<std::string> schedules;
  std::set<int64_t> sms;
  for (size_t i : idx) {
    schedules.insert(cases[i].m->schedule);
    sms.insert(cases[i].m->sms);
  }
  for (const auto& s : schedules) {
    rows.emplace_back("decomposition " + s,
                      select(cases, idx, [&](const Measurement& m) { return m.schedule == s; }));
  }
  for (const int64_t n : sms) {
    rows.emplace_back("SMs = " + std::to_string(n),
                      select(cases, idx, [&](const Measurement& m) { return m.sms == n; }));
  }
  std::set<std::string> tiles;
  for (size_t i : idx) tiles.insert(tile_name(cases[i].plan.tile));
  for (const auto& t : tiles) {
    std::vector<size_t> sel;
    for (size_t i : idx) {
      if (tile_name(cases[i].plan.tile) == t) sel.push_back(i);
    }
    rows.emplace_back("tile " + t, sel);
  }
  return rows;
}

std::string verdict(bool ok) { return ok ? "**met**" : "**missed**"; }

// A pipe switched off is held at a rate so high that it costs nothing.
constexpr double kPipeOffRate = 1e15;

struct TermChoice {
  std::string name;              // "all pipes", "no DRAM pipe", ...
  std::vector<std::string> off;  // rate parameters held at kPipeOffRate
  FitResult fit;
  ErrorStats validation;
};

// Model terms are chosen on the validation set: each variant is fitted on the training rows and
// the one with the lowest validation median error (then p95) is kept.
std::vector<TermChoice> fit_term_variants(const std::vector<FitCase>& cases,
                                          const std::vector<size_t>& train,
                                          const std::vector<size_t>& validation,
                                          const GpuSpec& preset, const ParamValues& start,
                                          bool scale_start, const FitOptions& base) {
  std::vector<TermChoice> out = {{"all pipes", {}, {}, {}},
                                 {"no DRAM pipe", {"dram_gb_per_s"}, {}, {}},
                                 {"no L2 pipe", {"l2_lines_per_us"}, {}, {}}};
  for (auto& v : out) {
    ParamValues s = start;
    FitOptions fo = base;
    for (const auto& name : v.off) {
      s[name] = kPipeOffRate;
      fo.fixed.push_back(name);
    }
    v.fit = fit_calibrated(subset(cases, train), preset, s, scale_start, fo);
    const auto pred = simulate_model("calibrated", v.fit.params, preset, cases);
    v.validation = error_stats(cases, pred, validation);
  }
  std::stable_sort(out.begin(), out.end(), [](const TermChoice& a, const TermChoice& b) {
    return a.validation.median < b.validation.median ||
           (a.validation.median == b.validation.median && a.validation.p95 < b.validation.p95);
  });
  return out;
}

}  // namespace

CalibrationResult run_calibration(const CalibrateOptions& opt) {
  if (opt.measurements.empty()) throw std::invalid_argument("give --measurements FILE...");
  if (!(opt.holdout > 0 && opt.holdout < 1)) {
    throw std::invalid_argument("--holdout must be in (0, 1)");
  }
  const GpuSpec preset = gpu_preset(opt.gpu);
  int64_t skipped = 0;
  std::vector<std::string> files = opt.measurements;
  files.insert(files.end(), opt.validation.begin(), opt.validation.end());
  files.insert(files.end(), opt.test.begin(), opt.test.end());
  const std::vector<Measurement> ms = read_all_measurements(files, &skipped);  // no duplicates
  const std::set<std::string> validation_files(opt.validation.begin(), opt.validation.end());
  const std::set<std::string> test_files(opt.test.begin(), opt.test.end());
  for (const auto& m : ms) {
    if (m.sms > preset.sms) {
      throw std::invalid_argument(m.file + ":" + std::to_string(m.line) + ": sms " +
                                  std::to_string(m.sms) + " exceeds the " +
                                  std::to_string(preset.sms) + " SMs of " + preset.name);
    }
  }
  std::vector<TraceDoc> traces;
  for (const auto& t : opt.traces) {
    TraceDoc d = read_trace_file(t);
    if (d.meta.source == "hw") traces.push_back(std::move(d));
  }
  const std::vector<FitCase> cases = build_cases(ms, opt.tile, preset.ctas_per_sm);
  std::vector<size_t> all, train, held, test;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Measurement& m = *cases[i].m;
    if (test_files.count(m.file)) {
      test.push_back(i);
      continue;
    }
    all.push_back(i);
    const bool validation = opt.validation.empty() ? held_out(m.problem, opt.holdout, opt.seed)
                                                   : validation_files.count(m.file) > 0;
    (validation ? held : train).push_back(i);
  }
  if (train.empty() || held.empty()) {
    throw std::invalid_argument(
        "the split left no training or no held-out rows; change --seed or "
        "--holdout");
  }

  // Main fit: the training split at every SM count.
  const ModelInfo& info = calibrated_model_info();
  const ParamValues defaults = resolve_params(info, {});
  const ParamValues start = start_from_traces(traces, defaults, opt.tile);
  FitOptions fo;
  fo.max_evaluations = opt.max_evaluations;
  const std::vector<TermChoice> variants =
      fit_term_variants(cases, train, held, preset, start, traces.empty(), fo);
  const FitResult& fit = variants.front().fit;
  for (const auto& name : variants.front().off) fo.fixed.push_back(name);

  std::vector<Predictor> preds;
  preds.push_back(
      {"simulator (calibrated)", simulate_model("calibrated", fit.params, preset, cases)});
  const std::vector<FitCase> train_cases = subset(cases, train);
  const LinearBaseline a1 =
      fit_baseline("A.1 per-CTA", {"a (us)", "b (us, peers>1)", "c (us/iter)", "d (us/peer)"},
                   train_cases, preset, &a1_features_fn);
  const LinearBaseline rw = fit_baseline("roofline + waves", {"a (us)", "b (scale)"}, train_cases,
                                         preset, &roofline_wave_features);
  preds.push_back({"A.1 per-CTA", predict_baseline(a1, cases, preset, &a1_features_fn)});
  preds.push_back(
      {"roofline + waves", predict_baseline(rw, cases, preset, &roofline_wave_features)});
  preds.push_back({"roofline (preset, unfitted)", simulate_model("roofline", {}, preset, cases)});

  // Cross-SM-count check: fit on full-GPU training rows only, predict every partition row.
  const std::vector<size_t> train_full =
      select(cases, train, [&](const Measurement& m) { return m.sms == preset.sms; });
  const std::vector<size_t> partitions =
      select(cases, all, [&](const Measurement& m) { return m.sms < preset.sms; });
  const std::vector<size_t> partitions_held =
      select(cases, held, [&](const Measurement& m) { return m.sms < preset.sms; });
  std::vector<Predictor> cross;
  FitResult cross_fit;
  if (!train_full.empty() && !partitions.empty()) {
    ParamValues cross_start = start;
    for (const auto& name : variants.front().off) cross_start[name] = kPipeOffRate;
    cross_fit = fit_calibrated(subset(cases, train_full), preset, cross_start, traces.empty(), fo);
    cross.push_back({"simulator (fit at " + std::to_string(preset.sms) + " SMs)",
                     simulate_model("calibrated", cross_fit.params, preset, cases)});
    const std::vector<FitCase> full_cases = subset(cases, train_full);
    const LinearBaseline a1x = fit_baseline("A.1", a1.terms, full_cases, preset, &a1_features_fn);
    const LinearBaseline rwx =
        fit_baseline("rw", rw.terms, full_cases, preset, &roofline_wave_features);
    cross.push_back({"A.1 per-CTA", predict_baseline(a1x, cases, preset, &a1_features_fn)});
    cross.push_back(
        {"roofline + waves", predict_baseline(rwx, cases, preset, &roofline_wave_features)});
  }

  // Headline figures.
  const auto held_full =
      select(cases, held, [&](const Measurement& m) { return m.sms == preset.sms; });
  const ErrorStats h132 = error_stats(cases, preds[0].pred, held_full);
  const ErrorStats hall = error_stats(cases, preds[0].pred, held);
  const ErrorStats xsm =
      cross.empty() ? ErrorStats{} : error_stats(cases, cross[0].pred, partitions);
  const DecisionStats pick = decision_stats(cases, preds[0].pred, held);

  CalibrationResult r;
  nlohmann::json params = nlohmann::json::object(), units = nlohmann::json::object(),
                 log_se = nlohmann::json::object();
  for (const auto& p : info.params) {
    params[p.name] = fit.params.at(p.name);
    units[p.name] = p.unit;
    const double se = fit.identifiability.log_se.at(p.name);
    log_se[p.name] = std::isfinite(se) ? nlohmann::json(se) : nlohmann::json("unbounded");
  }
  const ErrorStats test_all = error_stats(cases, preds[0].pred, test);
  std::set<std::string> shapes;
  for (const auto& m : ms) {
    shapes.insert(std::to_string(m.problem.m) + "x" + std::to_string(m.problem.n) + "x" +
                  std::to_string(m.problem.k));
  }
  const std::string tile = std::to_string(opt.tile.m) + "x" + std::to_string(opt.tile.n) + "x" +
                           std::to_string(opt.tile.k);
  r.model_file = {
      {"model", "calibrated"},
      {"params", params},
      {"units", units},
      {"undetermined", fit.identifiability.undetermined},
      {"log_se", log_se},
      {"terms", variants.front().name},
      {"gpu", preset.name},
      {"tile", tile},
      {"source_measurements", opt.measurements},
      {"source_traces", opt.traces},
      {"git_revision", opt.git_revision},
      {"date", opt.date},
      {"fit",
       {{"method", "Levenberg-Marquardt (Eigen) on simulated/measured - 1, log-space params"},
        {"holdout", opt.holdout},
        {"seed", opt.seed},
        {"rows", cases.size()},
        {"train_rows", train.size()},
        {"heldout_rows", held.size()},
        {"skipped_rows_ok0", skipped},
        {"evaluations", fit.evaluations},
        {"status", fit.status},
        {"train_rms_rel", fit.train_rms_rel},
        {"heldout_median_pct", hall.median},
        {"heldout_p95_pct", hall.p95},
        {"heldout_full_gpu_median_pct", h132.median},
        {"heldout_full_gpu_p95_pct", h132.p95},
        {"test_rows", test.size()},
        {"test_median_pct", test_all.median},
        {"test_p95_pct", test_all.p95}}}};

  std::ostringstream md;
  md << "# Calibration: " << preset.label << ", bf16, tile " << tile << "\n\n"
     << "Generated by `lastwave calibrate` (" << opt.date << ", git " << opt.git_revision
     << "). Errors are |simulated / measured - 1| in %. Three sets: **train** (fitted), "
        "**validation** (chooses the model terms; "
     << (opt.validation.empty()
             ? "shapes of the training files hashed with seed " + std::to_string(opt.seed) +
                   ", every SM count and decomposition of a shape on the same side"
             : std::string("its own files"))
     << ") and **test** (sealed; reported as it comes, never fitted or tuned on). Tables headed "
        "\"held-out\" are the validation set.\n\n"
     << "## Command\n\n```\n"
     << opt.command << "\n```\n\n"
     << "## Data\n\n"
     << "- measurement files: ";
  for (const auto& f : opt.measurements) md << "`" << f << "` ";
  md << "\n- validation files: ";
  for (const auto& f : opt.validation) md << "`" << f << "` ";
  if (opt.validation.empty()) md << "(none: hash split of the training files)";
  md << "\n- test files (sealed): ";
  for (const auto& f : opt.test) md << "`" << f << "` sha256 `" << sha256_file(f) << "` ";
  if (opt.test.empty()) md << "(none: no test data)";
  md << "\n- hardware traces (start values): " << traces.size() << "\n"
     << "- rows: " << cases.size() << " (" << skipped
     << " rows with ok=0 skipped), shapes: " << shapes.size() << ", training rows: " << train.size()
     << ", validation rows: " << held.size() << ", test rows: " << test.size()
     << "\n- fit: " << fit.status << ", " << fit.evaluations
     << " evaluations, training RMS relative error " << f1(kPercent * fit.train_rms_rel)
     << " %\n\n";

  md << "## Acceptance (held-out)\n\n| figure | value | target | |\n|---|---:|---:|---|\n"
     << "| median at " << preset.sms << " SMs | " << f1(h132.median)
     << " % | <= " << f1(kTargetMedianPct) << " % | "
     << verdict(h132.n > 0 && h132.median <= kTargetMedianPct) << " |\n| p95 at " << preset.sms
     << " SMs | " << f1(h132.p95) << " % | <= " << f1(kTargetP95Pct) << " % | "
     << verdict(h132.n > 0 && h132.p95 <= kTargetP95Pct) << " |\n"
     << "| cross-SM median (fit at " << preset.sms << ", predict partitions) | " << f1(xsm.median)
     << " % | <= " << f1(kTargetCrossMedianPct) << " % | "
     << verdict(xsm.n > 0 && xsm.median <= kTargetCrossMedianPct) << " |\n"
     << "| simulator pick vs measured best (geomean) | " << f1(kPercent * pick.geomean)
     << " % | >= " << f1(kPercent * kTargetPickRatio) << " % | "
     << verdict(pick.groups > 0 && pick.geomean >= kTargetPickRatio) << " |\n\n";

  md << "## Held-out error (%)\n\n"
     << error_table(cases, preds, breakdown(cases, held, preset.sms))
     << "\nBaselines are fitted to the same training split by weighted least squares on relative "
        "error; `roofline (preset, unfitted)` is the `roofline` model simulated with its default "
        "parameters.\n\n";

  md << "## Decision quality (held-out shapes)\n\nPer (shape, SM count) group with at least two "
        "measured decompositions, each picker chooses one measured decomposition; the `cutlass` "
        "rule is the CUTLASS SM90 heuristic as planned by lastwave.\n\n"
     << "All SM counts:\n\n"
     << decision_table(cases, preds, held, "cutlass") << "\n"
     << preset.sms << " SMs only:\n\n"
     << decision_table(cases, preds, held_full, "cutlass") << "\n";

  if (!cross.empty()) {
    std::vector<std::pair<std::string, std::vector<size_t>>> rows;
    rows.emplace_back("all partition rows", partitions);
    rows.emplace_back("held-out shapes only", partitions_held);
    std::set<int64_t> sms;
    for (size_t i : partitions) sms.insert(cases[i].m->sms);
    for (const int64_t n : sms) {
      rows.emplace_back(
          "SMs = " + std::to_string(n),
          select(cases, partitions, [&](const Measurement& m) { return m.sms == n; }));
    }
    md << "## Cross-SM-count check\n\nFitted on the " << train_full.size() << " training rows at "
       << preset.sms << " SMs only (" << cross_fit.status << "), predicting every row on 8-"
       << preset.sms - 1 << " SMs (GPU partitions).\n\n"
       << error_table(cases, cross, rows) << "\n";
  }

  md << "## Test set (sealed)\n\n";
  if (test.empty()) {
    md << "No test measurements were given (`--test FILE`): no test figures.\n\n";
  } else {
    md << "Fitted model and baselines as fitted above, on the test rows; figures as they came.\n\n"
       << error_table(cases, preds, breakdown(cases, test, preset.sms)) << "\n"
       << decision_table(cases, preds, test, "cutlass") << "\n";
  }
  md << "## Model terms (chosen on validation)\n\n| variant | train RMS % | validation median % "
        "| validation p95 % | |\n|---|---:|---:|---:|---|\n";
  for (size_t v = 0; v < variants.size(); ++v) {
    md << "| " << variants[v].name << " | " << f1(kPercent * variants[v].fit.train_rms_rel) << " | "
       << f1(variants[v].validation.median) << " | " << f1(variants[v].validation.p95) << " | "
       << (v == 0 ? "**kept**" : "") << " |\n";
  }
  md << "\n## Fitted parameters\n\nse(ln) = standard error of the parameter's logarithm from "
        "the training Jacobian (identify.hpp); a parameter with se(ln) >= ln 2, at a bound, or "
        "held fixed is **undetermined**: `predict` refuses a case it moves by more than 1 %.\n\n"
        "| parameter | value | unit | start | se(ln) | determined | meaning "
        "|\n|---|---:|---|---:|---:|---|---|\n";
  const auto& und = fit.identifiability.undetermined;
  for (const auto& p : info.params) {
    const double se = fit.identifiability.log_se.at(p.name);
    const bool det = std::find(und.begin(), und.end(), p.name) == und.end();
    md << "| `" << p.name << "` | " << f3(fit.params.at(p.name)) << " | " << p.unit << " | "
       << f3(fit.start.at(p.name)) << " | " << (std::isfinite(se) ? f3(se) : "unbounded") << " | "
       << (det ? "yes" : "**no**") << " | " << p.doc << " |\n";
  }
  md << "\n## Baseline coefficients\n\n";
  for (const auto* b : {&a1, &rw}) {
    md << "- " << b->name << ": ";
    for (size_t j = 0; j < b->terms.size(); ++j) {
      md << (j ? ", " : "") << b->terms[j] << " = " << f3(b->coef[j]);
    }
    md << "\n";
  }
  md << "\n" << opt.appendix;
  r.report = md.str();

  std::ostringstream s;
  s << "calibrate: " << cases.size() << " rows (" << train.size() << " train, " << held.size()
    << " held out), fit " << fit.status << "\n"
    << "held-out |err| at " << preset.sms << " SMs: median " << f1(h132.median) << " %, p95 "
    << f1(h132.p95) << " %, max " << f1(h132.max) << " % (n=" << h132.n << ")\n"
    << "held-out |err| all SM counts: median " << f1(hall.median) << " %, p95 " << f1(hall.p95)
    << " %\n";
  if (xsm.n)
    s << "cross-SM (fit at " << preset.sms << "): median " << f1(xsm.median) << " %, p95 "
      << f1(xsm.p95) << " %\n";
  if (!und.empty()) {
    s << "undetermined parameters:";
    for (const auto& n : und) s << " " << n;
    s << "\n";
  }
  if (!test.empty())
    s << "TEST |err|: median " << f1(test_all.median) << " %, p95 " << f1(test_all.p95)
      << " % (n=" << test_all.n << ")\n";
  s << "simulator pick: " << f1(kPercent * pick.exact) << " % exact, "
    << f1(kPercent * pick.geomean) << " % of measured best (geomean, " << pick.groups
    << " groups)\n";
  r.summary = s.str();

  std::vector<const char*> split(cases.size(), "train");
  for (size_t i : held) split[i] = "validation";
  for (size_t i : test) split[i] = "test";
  std::ostringstream csv;
  csv << "m,n,k,sms,decomposition,tile,split,measured_us";
  for (size_t p = 0; p < preds.size(); ++p) csv << ",pred" << p << "_us";
  csv << "\n";
  for (size_t i = 0; i < cases.size(); ++i) {
    const Measurement& m = *cases[i].m;
    csv << m.problem.m << ',' << m.problem.n << ',' << m.problem.k << ',' << m.sms << ','
        << m.schedule << ',' << tile_name(cases[i].plan.tile) << ',' << split[i] << ','
        << m.median_us;
    for (const auto& p : preds) csv << ',' << p.pred[i];
    csv << "\n";
  }
  csv << "# pred columns: ";
  for (size_t p = 0; p < preds.size(); ++p)
    csv << (p ? "; " : "") << "pred" << p << " = " << preds[p].name;
  csv << "\n";
  r.residuals = csv.str();
  return r;
}

void write_calibration(const CalibrationResult& r, const std::string& model_path,
                       const std::string& report_path, const std::string& residuals_path) {
  write_file_atomically(model_path, r.model_file.dump(2) + "\n");
  if (!report_path.empty()) write_file_atomically(report_path, r.report);
  if (!residuals_path.empty()) write_file_atomically(residuals_path, r.residuals);
}

}  // namespace lw

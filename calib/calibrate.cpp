// Calibration pipeline, stage by stage: measurements -> split -> fits -> held-out figures; the
// rendering of the model file and the report is in calibrate_report.cpp.
#include "calib/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "calib/calibrate_run.hpp"
#include "calib/coverage_fit.hpp"
#include "calib/file_hash.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/predict/best.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw {

std::vector<FitCase> subset(const std::vector<FitCase>& cases, const IndexSet& idx) {
  std::vector<FitCase> out;
  for (size_t i : idx) out.push_back(cases[i]);
  return out;
}

namespace {

// Simulates every case under `model_name` with the preset (partitioned per SM count).
std::vector<double> simulate_model(const std::string& model_name, const ParamValues& params,
                                   const GpuSpec& preset, const std::vector<FitCase>& cases) {
  std::vector<double> out(cases.size());
  std::map<int64_t, IndexSet> by_sms;
  for (size_t i = 0; i < cases.size(); ++i) by_sms[cases[i].m->sms].push_back(i);
  for (const auto& [sms, idx] : by_sms) {
    const GpuSpec gpu = sms == preset.sms ? preset : gpu_with_sms(sms, &preset);
    const auto model = make_model(model_name, params, gpu);
    const auto pred = simulate_cases(*model, subset(cases, idx));
    for (size_t j = 0; j < idx.size(); ++j) out[idx[j]] = pred[j];
  }
  return out;
}

// Start values scaled to the data's median ratio: only from the defaults (no traces, no --start).
bool scale_start(const CalibrationRun& run) {
  return run.traces.empty() && run.opt->start_model.empty();
}

// Reports a stage of the run (CalibrateOptions::progress), when the caller asked for it.
void report_stage(const CalibrationRun& run, const std::string& stage) {
  if (run.opt->progress) run.opt->progress(stage);
}

// A variant's tag: its name up to the colon ("r9").
std::string variant_tag(const std::string& name) { return name.substr(0, name.find(':')); }

// Fits of a run: one per term variant and the cross-SM fit.
size_t fit_count(const CalibrationRun& run) { return run.variants.size() + 1; }

// `fo` reporting each simulation of fit `index` of fit_count(run), named by `name`'s tag.
FitOptions staged(const CalibrationRun& run, FitOptions fo, size_t index, const std::string& name) {
  if (!run.opt->progress) return fo;
  const std::string stage = "fit " + std::to_string(index) + "/" + std::to_string(fit_count(run)) +
                            " (" + variant_tag(name) + ")";
  report_stage(run, stage);
  fo.on_simulation = [&run, stage](int n) {
    report_stage(run, stage + ", " + std::to_string(n) + " simulations");
  };
  return fo;
}

void check_options(const CalibrateOptions& opt) {
  if (opt.measurements.empty()) throw std::invalid_argument("give --measurements FILE...");
  for (const auto& f : opt.physics_measurements) {
    if (std::find(opt.measurements.begin(), opt.measurements.end(), f) == opt.measurements.end()) {
      throw std::invalid_argument("--physics-measurements: '" + f +
                                  "' is not one of the --measurements files");
    }
  }
  if (!(opt.holdout > 0 && opt.holdout < 1)) {
    throw std::invalid_argument("--holdout must be in (0, 1)");
  }
}

// Reads the measurements (each within the preset's SM count) and the hardware traces.
void load_inputs(CalibrationRun& run) {
  const CalibrateOptions& opt = *run.opt;
  run.preset = gpu_preset(opt.gpu);
  std::vector<std::string> files = opt.measurements;
  files.insert(files.end(), opt.validation.begin(), opt.validation.end());
  files.insert(files.end(), opt.test.begin(), opt.test.end());
  run.ms = read_all_measurements(files, &run.skipped);  // no duplicates
  for (const auto& m : run.ms) {
    if (m.sms > run.preset.sms) {
      throw std::invalid_argument(m.file + ":" + std::to_string(m.line) + ": sms " +
                                  std::to_string(m.sms) + " exceeds the " +
                                  std::to_string(run.preset.sms) + " SMs of " + run.preset.name);
    }
  }
  for (const auto& t : opt.traces) {
    TraceDoc d = read_trace_file(t);
    if (d.meta.source == "hw") run.traces.push_back(std::move(d));
  }
}

// Plans every measurement and splits the cases into training, validation (held-out: the
// --validation files, or else the training files' shapes hashed) and sealed test rows (--test).
void split_cases(CalibrationRun& run) {
  const CalibrateOptions& opt = *run.opt;
  const std::set<std::string> validation_files(opt.validation.begin(), opt.validation.end());
  const std::set<std::string> test_files(opt.test.begin(), opt.test.end());
  const std::vector<std::string>& physics = physics_files(opt);
  const std::set<std::string> physics_files_set(physics.begin(), physics.end());
  run.cases = build_cases(run.ms, opt.tile, run.preset.ctas_per_sm);
  for (size_t i = 0; i < run.cases.size(); ++i) {
    const Measurement& m = *run.cases[i].m;
    if (test_files.count(m.file)) {
      run.split.test.push_back(i);
      continue;
    }
    run.split.all.push_back(i);
    const bool held = opt.validation.empty() ? held_out(m.problem, opt.holdout, opt.seed)
                                             : validation_files.count(m.file) > 0;
    (held ? run.split.held : run.split.train).push_back(i);
    if (!held && physics_files_set.count(m.file)) run.split.physics.push_back(i);
  }
  if (run.split.train.empty() || run.split.held.empty()) {
    throw std::invalid_argument(
        "the split left no training or no held-out rows; change --seed or --holdout");
  }
  if (run.split.physics.empty()) {
    throw std::invalid_argument("--physics-measurements: those files hold no training rows");
  }
}

// A term switched off: a pipe's rate held so high it costs nothing, a time held at 0, an L2 reuse
// size at 0 (the footprint rule), a scale or a share at 0.
double off_value(const std::string& name) {
  const ModelInfo info = calibrated_model_info();
  const std::string& unit = find_param(info, name, "calibrate").unit;
  return unit == "us" || unit == "MiB" || unit == "x" || unit == "fraction" ? 0.0 : kPipeOffRate;
}

// What a checkpoint must have been written by: the same input files (by content; of the training
// files, those the physics is fitted on), options that change a fit, and code revision.
std::string run_key(const CalibrateOptions& opt) {
  std::string key = "revision " + opt.git_revision + ", gpu " + opt.gpu + ", tile " +
                    tile_text(opt.tile) + ", holdout " + std::to_string(opt.holdout) + ", seed " +
                    std::to_string(opt.seed) + ", max evaluations " +
                    std::to_string(opt.max_evaluations) + ", files";
  for (const auto* files : {&physics_files(opt), &opt.validation, &opt.test, &opt.traces}) {
    for (const auto& f : *files) key += " " + sha256_file(f);
  }
  if (!opt.start_model.empty()) key += ", start " + sha256_file(opt.start_model);
  return key;
}

// Keeps the variants --variants names (all when it names none); an unknown tag is refused.
void keep_chosen_variants(CalibrationRun& run) {
  const std::vector<std::string>& chosen = run.opt->variants;
  if (chosen.empty()) return;
  std::string tags;
  for (const auto& v : run.variants) tags += (tags.empty() ? "" : ", ") + variant_tag(v.name);
  for (const auto& tag : chosen) {
    const bool known = std::any_of(run.variants.begin(), run.variants.end(),
                                   [&](const TermChoice& v) { return variant_tag(v.name) == tag; });
    if (!known) throw std::invalid_argument("--variants: no variant '" + tag + "' (" + tags + ")");
  }
  std::vector<TermChoice> kept;
  for (auto& v : run.variants) {
    if (lists(chosen, variant_tag(v.name))) kept.push_back(std::move(v));
  }
  run.variants = std::move(kept);
}

// Holds a variant's terms `off` at their off values in `start` and in `fo.fixed`, and its pinned
// ones at their start values (its own start values first).
void hold_terms(const TermChoice& v, ParamValues& start, FitOptions& fo) {
  for (const auto& [name, value] : v.restart) start[name] = value;
  for (const auto& name : v.off) {
    start[name] = off_value(name);
    fo.fixed.push_back(name);
  }
  fo.pinned.insert(fo.pinned.end(), v.pinned.begin(), v.pinned.end());
}

// Model terms are chosen on the validation set: each variant is fitted on the training rows and
// the one with the lowest validation median error (then p95) is kept (run.variants.front()).
// "no L2 pipe" was dropped on validation (r3 report: median 13.7 % vs 9.8 % with all pipes), and
// "no DRAM pipe" (r3 report: 10.3 % vs 9.5 %) once the working-set rule arrived; r3 itself (r4's
// terms off) once r4 beat it (r4 report: validation median 7.7 % vs 9.5 %); r5's three terms were
// kept one by one (r5 report: 7.9 % -> gaps 7.4 % -> latency 7.3 % -> spread 7.0 %). In r6 the
// gap rule gets its own capacity; its scale is pinned at 1 (the lag as it is), since the data fix
// only scale / capacity (a 30 % sample fit of both: se(ln) 3.1 each). r7 adds a cost per segment
// in clusters (train + validation residuals of r6: 2x1 rows with 4-16 k-tiles predicted 6-14 %
// too fast, more with more waves) and drops ktile_fixed_us, which it leaves undetermined (a 30 %
// sample fit with it: se(ln) 0.76). r8 charges the L2 pipe for split sectors (train + validation
// residuals of r7: K % 16 == 8 rows, a third of the data, -5.1 % signed, 64-row tiles -11 %) and
// drops cluster_ktile_us, which a 30 % sample fit left undetermined beside it (se(ln) 0.72). r9
// adds tile_io_gb_per_s, the segment ends' tile reads and writes at the busy SMs' share of a
// throughput (r7 residuals at 132 SMs, K % 16 != 0: 1-8 k-tiles predicted 1-5 % too slow below
// half a wave, 6-10 % too fast from one wave up). r7 left the list: with both new terms off its fit
// is r7's, unchanged (its figures: the r7 report). r9 was kept over r8 (r9 report: validation
// median 6.0 % vs 6.5 %), so r8 left the list too. r10 stretches the MAC loop of a 2x1 cluster
// tile whose shared B panel is partly out of bounds (ncu of 4096 x N x 7168 dp, 128x176: 2x1 /
// 1x1 = 1.04 with whole tile columns, 1.18-1.31 with 88-144 of the last column's rows past N;
// r7's and r9's worst validation pick); 128x256 showed no such penalty and 128x128 another, so
// validation decides whether one stretch constant for every tile helps; it was never fitted (the
// wave rule below came first) and left the list. r11 prices the next wave's reuse of panel slices
// by what one wave loads in between (wave_reuse_scale, pinned at 1: the data fix only it /
// l2_reuse_mib) instead of the whole A+B: r9 train + validation residuals of dp at 132 SMs and
// over 3 waves run +6.5 % / +7.6 % when a wave's full-K panels are under 10 / 10-25 MiB, -0.1 % at
// 25-50, -3.9 % at 50-100 and -9.0 % at 100-200 MiB, in every footprint bin. Its capacity starts
// again from the H200's L2 (r9's 219 MiB stood in for a footprint). r12 adds the power limit's
// clock drop (power_throttle, power_boost_us): the bench's SM clock after rows over 3 ms at 132
// SMs falls to 1635-1904 MHz with the tensor load, never below 1958 MHz on a partition, and r9
// predicts those rows 2.5-19.7 % too fast as the clock falls (docs/calibration-notes.md). r9
// left the list (its figures: the r9 report, same data and splits). Both hold pingpong_overlap
// off: the r3 measurements ran the cooperative kernels only (the ping-pong form came later), and
// load_round_us: their Final owners loaded one slot per L2 round trip (batches came later), and
// dsm_partial_saving: they ran no splitk-dsm (a tile's splits meeting in shared memory came later).
void define_variants(CalibrationRun& run) {
  run.variants = {
      {"r12: r11 + the power limit's clock drop under long tensor load (power_throttle, "
       "power_boost_us)",
       {"ktile_fixed_us", "cluster_ktile_us", "cluster_oob_stretch", "pingpong_overlap",
        "load_round_us", "dsm_partial_saving"},
       {"reuse_lag_scale", "wave_reuse_scale"},
       {{"l2_reuse_mib", kL2ReuseStartMib}},
       {},
       {},
       {}},
      {"r11: r9 + the next wave's panel reuse priced by what one wave loads (wave_reuse_scale)",
       {"ktile_fixed_us", "cluster_ktile_us", "cluster_oob_stretch", "power_throttle",
        "power_boost_us", "pingpong_overlap", "load_round_us", "dsm_partial_saving"},
       {"reuse_lag_scale", "wave_reuse_scale"},
       {{"l2_reuse_mib", kL2ReuseStartMib}},
       {},
       {},
       {}}};
  keep_chosen_variants(run);
}

void fit_term_variants(CalibrationRun& run, const ParamValues& start, const FitOptions& base) {
  define_variants(run);
  const std::vector<FitCase> train = subset(run.cases, run.split.physics);
  for (size_t i = 0; i < run.variants.size(); ++i) {
    TermChoice& v = run.variants[i];
    ParamValues s = start;
    FitOptions fo = staged(run, base, i + 1, v.name);
    hold_terms(v, s, fo);
    v.fit = checkpointed(run.checkpoint, v.name, [&] {
      return fit_calibrated(train, run.preset, s, scale_start(run), fo);
    });
    report_stage(run, "validation of " + variant_tag(v.name));
    const auto pred = simulate_model("calibrated", v.fit.params, run.preset, run.cases);
    v.validation = error_stats(run.cases, pred, run.split.held);
    v.validation_full =
        error_stats(run.cases, pred, select(run.cases, run.split.held, [&](const Measurement& m) {
                      return m.sms == run.preset.sms;
                    }));
  }
  std::stable_sort(
      run.variants.begin(), run.variants.end(), [](const TermChoice& a, const TermChoice& b) {
        return a.validation.median < b.validation.median ||
               (a.validation.median == b.validation.median && a.validation.p95 < b.validation.p95);
      });
}

// Features of every case under the calibrated physics `params`, as the simulator takes them
// (CostModel::makespan_factor: the plan, and its ideal makespan under that physics).
std::vector<ResidualFeatures> case_features(const std::vector<FitCase>& cases,
                                            const ParamValues& params, const GpuSpec& preset) {
  std::vector<ResidualFeatures> out(cases.size());
  std::map<int64_t, IndexSet> by_sms;
  for (size_t i = 0; i < cases.size(); ++i) by_sms[cases[i].m->sms].push_back(i);
  for (const auto& [sms, idx] : by_sms) {
    const GpuSpec gpu = sms == preset.sms ? preset : gpu_with_sms(sms, &preset);
    const auto model = make_model("calibrated", params, gpu);
    for (size_t i : idx) {
      const FitCase& c = cases[i];
      const SimOptions opt = sim_options_for(GpuShape{c.m->sms, c.ctas_per_sm}, c.m->cluster);
      const int64_t simulated = simulated_sms(opt);
      out[i] = residual_features(c.plan, simulated, ideal_makespan(*model, c.plan, simulated));
    }
  }
  return out;
}

// Residual trees fitted to ln(measured / simulated) of `rows` (those with a finite prediction).
ResidualTrees fit_residual(const CalibrationRun& run, const std::vector<ResidualFeatures>& features,
                           const std::vector<double>& pred, const IndexSet& rows) {
  std::vector<ResidualFeatures> x;
  std::vector<double> y;
  for (size_t i : rows) {
    if (!(std::isfinite(pred[i]) && pred[i] > 0)) continue;
    x.push_back(features[i]);
    y.push_back(std::log(run.cases[i].m->median_us / pred[i]));
  }
  return fit_residual_trees(x, y, run.opt->residual).trees;
}

// `pred` times the factor `trees` give each case.
std::vector<double> corrected(const std::vector<ResidualFeatures>& features,
                              const ResidualTrees& trees, std::vector<double> pred) {
  for (size_t i = 0; i < pred.size(); ++i) pred[i] *= std::exp(trees.log_factor(features[i]));
  return pred;
}

// Residual trees fitted on `rows` for the simulator (preds[0], corrected in place; its trees go to
// `kept`, the uncorrected one is appended as "physics only") and, so that the comparison stays
// fair, for each fitted baseline (preds[1..baselines], appended "+ residual trees"). Every
// predictor's trees get the same `features` (those of the simulator's physics).
void add_residual_trees(const CalibrationRun& run, const std::vector<ResidualFeatures>& features,
                        std::vector<Predictor>& preds, const IndexSet& rows, size_t baselines,
                        ResidualTrees& kept) {
  const std::vector<Predictor> plain = preds;
  kept = fit_residual(run, features, plain[0].pred, rows);
  preds[0].pred = corrected(features, kept, plain[0].pred);
  preds.push_back({"simulator, physics only", plain[0].pred});
  for (size_t b = 1; b <= baselines; ++b) {
    const ResidualTrees trees = fit_residual(run, features, plain[b].pred, rows);
    preds.push_back(
        {plain[b].name + " + residual trees", corrected(features, trees, plain[b].pred)});
  }
}

// Main fit: the kept term variant and the baselines on the training split at every SM count.
void fit_training_split(CalibrationRun& run, const FitOptions& fo) {
  const GpuSpec& preset = run.preset;
  const std::vector<FitCase> train = subset(run.cases, run.split.train);
  fit_term_variants(run, run.start, fo);
  run.fit = run.variants.front().fit;
  report_stage(run, "baselines and predictions");
  run.a1 = fit_baseline("A.1 per-CTA", a1_terms(), train, preset, &a1_features_fn);
  run.rw = fit_baseline("roofline + waves", roofline_wave_terms(), train, preset,
                        &roofline_wave_features);
  run.preds = {
      {"simulator (calibrated)", simulate_model("calibrated", run.fit.params, preset, run.cases)},
      {"A.1 per-CTA", predict_baseline(run.a1, run.cases, preset, &a1_features_fn)},
      {"roofline + waves", predict_baseline(run.rw, run.cases, preset, &roofline_wave_features)},
      {"roofline (preset, unfitted)", simulate_model("roofline", {}, preset, run.cases)}};
  if (run.opt->residual.rounds > 0) {
    report_stage(run, "residual trees");
    add_residual_trees(run, case_features(run.cases, run.fit.params, preset), run.preds,
                       run.split.train, kFittedBaselines, run.residual);
  }
}

// The rows of `rows` at the preset's (full GPU's) SM count.
IndexSet at_full_gpu(const CalibrationRun& run, const IndexSet& rows) {
  return select(run.cases, rows, [&](const Measurement& m) { return m.sms == run.preset.sms; });
}

// The cross-SM check's fit: the kept variant's terms on the full-GPU training cases `full`.
FitResult cross_fit(CalibrationRun& run, const FitOptions& base, const std::vector<FitCase>& full) {
  ParamValues start = run.start;
  FitOptions fo = staged(run, base, fit_count(run), "cross-SM: full-GPU rows");
  hold_terms(run.variants.front(), start, fo);
  return checkpointed(run.checkpoint, "cross-SM: " + run.variants.front().name, [&] {
    return fit_calibrated(full, run.preset, start, scale_start(run), fo);
  });
}

// --cross-first: the cross-SM fit before the variants' (one variant, so the kept one is known),
// into the checkpoint, so that another machine can fit the variant meanwhile.
void fit_cross_sm_first(CalibrationRun& run, const FitOptions& base) {
  define_variants(run);
  if (run.variants.size() != 1) {
    throw std::invalid_argument(
        "--cross-first needs --variants naming one variant (the cross-SM fit takes the kept "
        "variant's terms)");
  }
  const IndexSet physics_full = at_full_gpu(run, run.split.physics);
  if (!physics_full.empty()) cross_fit(run, base, subset(run.cases, physics_full));
}

// Cross-SM-count check: fit on full-GPU training rows only, predict every partition row.
// The kept variant's switched-off terms stay off.
void fit_cross_sm(CalibrationRun& run, const FitOptions& base) {
  const GpuSpec& preset = run.preset;
  const auto partition = [&](const Measurement& m) { return m.sms < preset.sms; };
  CrossCheck& x = run.cross;
  x.train_full = at_full_gpu(run, run.split.train);
  x.physics_full = at_full_gpu(run, run.split.physics);
  x.partitions = select(run.cases, run.split.all, partition);
  x.partitions_held = select(run.cases, run.split.held, partition);
  if (x.physics_full.empty() || x.partitions.empty()) return;
  x.fit = cross_fit(run, base, subset(run.cases, x.physics_full));
  const std::vector<FitCase> full = subset(run.cases, x.train_full);
  const LinearBaseline a1 = fit_baseline("A.1", run.a1.terms, full, preset, &a1_features_fn);
  const LinearBaseline rw = fit_baseline("rw", run.rw.terms, full, preset, &roofline_wave_features);
  x.preds = {
      {"simulator (fit at " + std::to_string(preset.sms) + " SMs)",
       simulate_model("calibrated", x.fit.params, preset, run.cases)},
      {"A.1 per-CTA", predict_baseline(a1, run.cases, preset, &a1_features_fn)},
      {"roofline + waves", predict_baseline(rw, run.cases, preset, &roofline_wave_features)}};
  if (run.opt->residual.rounds > 0) {
    add_residual_trees(run, case_features(run.cases, x.fit.params, preset), x.preds, x.train_full,
                       kFittedBaselines, x.residual);
  }
}

void headline_figures(CalibrationRun& run) {
  const auto at_full = [&](const Measurement& m) { return m.sms == run.preset.sms; };
  const auto partition = [&](const Measurement& m) { return m.sms < run.preset.sms; };
  Headline& h = run.head;
  const std::vector<double>& sim = run.preds[0].pred;
  h.held_full = select(run.cases, run.split.held, at_full);
  h.test_full = select(run.cases, run.split.test, at_full);
  h.full = error_stats(run.cases, sim, h.held_full);
  h.all = error_stats(run.cases, sim, run.split.held);
  h.test_at_full = error_stats(run.cases, sim, h.test_full);
  if (!run.cross.preds.empty()) {
    const std::vector<double>& cross = run.cross.preds[0].pred;
    h.cross = error_stats(run.cases, cross, run.cross.partitions);
    h.test_cross = error_stats(run.cases, cross, select(run.cases, run.split.test, partition));
  }
  h.pick = decision_stats(run.cases, sim, run.split.held);
  h.test_pick = decision_stats(run.cases, sim, run.split.test);
  h.test = error_stats(run.cases, sim, run.split.test);
}

// The coverage section: the training split's points, the validation rows' bands under preds[0].
Coverage run_coverage(const CalibrationRun& run) {
  std::vector<Measurement> train;
  for (size_t i : run.split.train) train.push_back(*run.cases[i].m);
  std::vector<double> predicted;
  for (size_t i : run.split.held) predicted.push_back(run.preds[0].pred[i]);
  return fit_coverage(train, subset(run.cases, run.split.held), predicted);
}

}  // namespace

CalibrationResult run_calibration(const CalibrateOptions& opt) {
  check_options(opt);
  // Read before the measurements: a bad --start file fails in a moment.
  const ModelFile start_file =
      opt.start_model.empty() ? ModelFile{} : read_model_file(opt.start_model);
  CalibrationRun run;
  run.opt = &opt;
  if (!opt.checkpoint.empty()) run.checkpoint = FitCheckpoint(opt.checkpoint, run_key(opt));
  load_inputs(run);
  split_cases(run);
  if (!opt.repeats.empty()) {  // read before the fits: a bad file fails in a moment
    IndexSet eligible = run.split.held;
    eligible.insert(eligible.end(), run.split.test.begin(), run.split.test.end());
    run.repeats = read_repeats(opt.repeats, run.cases, eligible);
  }
  run.start = start_from_traces(run.traces, resolve_params(calibrated_model_info(), {}), opt.tile);
  run.start["ktile_fixed_us"] = kKtileFixedStartUs;   // declared default 0: the term off
  run.start["l2_reuse_mib"] = kL2ReuseStartMib;       // likewise
  run.start["oob_rows_per_us"] = kOobRowsStartPerUs;  // declared default: the pipe off
  run.start["smem_gb_per_s"] = kSmemStartGbPerS;      // likewise
  run.start["cluster_ktile_us"] = kClusterKtileStartUs;
  run.start["cluster_segment_us"] = kClusterSegmentStartUs;
  run.start["sector_split_lines"] = kSectorSplitStart;
  run.start["tile_io_gb_per_s"] = kTileIoStartGbPerS;
  run.start["cluster_oob_stretch"] = kClusterOobStretchStart;
  run.start["pingpong_overlap"] = kPingpongOverlapStart;
  run.start["reuse_lag_scale"] = kReuseLagStartScale;
  run.start["wave_reuse_scale"] = kWaveReuseStartScale;
  run.start["power_throttle"] = kPowerThrottleStart;
  run.start["power_boost_us"] = kPowerBoostStartUs;
  run.start["reuse_lag_l2_mib"] = kReuseLagL2StartMib;
  run.start["load_latency_us"] = kLoadLatencyStartUs;
  run.start["sm_speed_spread"] = kSmSpeedSpreadStart;
  if (!opt.start_model.empty()) {
    run.start = start_from_model(start_file, opt.start_model, run.start);
  }
  FitOptions fo;
  fo.max_evaluations = opt.max_evaluations;
  if (opt.cross_first) fit_cross_sm_first(run, fo);
  fit_training_split(run, fo);
  fit_cross_sm(run, fo);
  headline_figures(run);
  run.coverage = run_coverage(run);
  return {model_file_json(run), report_markdown(run), terminal_summary(run), residuals_csv(run)};
}

namespace {

// The coverage section at two spaces of indent, its points one per line (thousands of them).
std::string coverage_text(nlohmann::json c) {
  const nlohmann::json points = c["points"];
  c.erase("points");
  std::string out = c.dump(2);
  out.erase(out.rfind('}'));
  while (!out.empty() && out.back() == '\n') out.pop_back();
  out += ",\n  \"points\": [";
  for (size_t i = 0; i < points.size(); ++i) out += (i ? ", " : "") + points[i].dump();
  out += "]\n}";
  std::string indented;  // every line but the first two more spaces in
  for (char ch : out) indented += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
  return indented;
}

}  // namespace

// The model file as indented JSON, but its residual trees one per line (thousands of nodes) and
// its coverage section last.
std::string model_file_text(nlohmann::json j) {
  const nlohmann::json coverage = j.contains("coverage") ? j["coverage"] : nlohmann::json();
  j.erase("coverage");
  std::string out = j.dump(2) + "\n";
  if (j.contains("residual_trees")) {
    const nlohmann::json trees = j["residual_trees"];
    j.erase("residual_trees");
    out = j.dump(2);
    out.erase(out.rfind('}'));  // reopen the top-level object
    while (!out.empty() && out.back() == '\n') out.pop_back();
    out += ",\n  \"residual_trees\": {\n    \"base\": " + trees["base"].dump() +
           ",\n    \"features\": " + trees["features"].dump() + ",\n    \"trees\": [";
    const auto& list = trees["trees"];
    for (size_t i = 0; i < list.size(); ++i) out += (i ? ",\n      " : "\n      ") + list[i].dump();
    out += "\n    ]\n  }\n}\n";
  }
  if (coverage.is_null()) return out;
  out.erase(out.rfind('}'));
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + ",\n  \"coverage\": " + coverage_text(coverage) + "\n}\n";
}

void write_calibration(const CalibrationResult& r, const std::string& model_path,
                       const std::string& report_path, const std::string& residuals_path) {
  write_file_atomically(model_path, model_file_text(r.model_file));
  if (!report_path.empty()) write_file_atomically(report_path, r.report);
  if (!residuals_path.empty()) write_file_atomically(residuals_path, r.residuals);
}

}  // namespace lw

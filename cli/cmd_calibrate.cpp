// `lastwave calibrate`: fits the `calibrated` cost model to measured kernel runs and writes the
// model file (configs/models/*.json) and the report (docs/CALIBRATION.md), both atomically.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>

#include "calib/calibrate.hpp"
#include "calib/coverage_fit.hpp"
#include "cli/calibrate_plot.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/progress.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::cli {

namespace {

// $LASTWAVE_GIT_REVISION when set (a copy of the tree without its .git, e.g. on a lent GPU
// machine), else `git rev-parse` of the source tree (the bazel-run workspace when known), or
// "unknown".
std::string git_revision() {
  if (const char* given = std::getenv("LASTWAVE_GIT_REVISION"); given && *given) return given;
  const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string cmd = std::string("git") + (ws ? std::string(" -C '") + ws + "'" : "") +
                          " rev-parse --short=12 HEAD 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "unknown";
  std::array<char, 64> buf{};
  std::string out;
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe)) out += buf.data();
  pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The files of a multitoken option, as paths to read (none when absent).
std::vector<std::string> files_of(const po::variables_map& vm, const char* option) {
  std::vector<std::string> out;
  if (vm.count(option)) {
    for (const auto& f : vm[option].as<std::vector<std::string>>()) out.push_back(user_path(f));
  }
  return out;
}

// --coverage-only MODEL: the file with its coverage section, written to --out; the report's
// coverage section (bands and how they hold) on stdout.
int coverage_only(const po::variables_map& vm) {
  const CoverageOnlyResult r = add_coverage(
      user_path(vm["coverage-only"].as<std::string>()), files_of(vm, "measurements"),
      files_of(vm, "validation"), files_of(vm, "test"), parse_tile(vm["tile"].as<std::string>()));
  write_file_atomically(user_path(vm["out"].as<std::string>()), model_file_text(r.model_file));
  std::cout << r.summary;
  return 0;
}

}  // namespace

int cmd_calibrate(int argc, char** argv) {
  const ResidualFitOptions kResidual;  // the defaults
  po::options_description desc("lastwave calibrate");
  desc.add_options()("help,h", "show this help")(
      "measurements", po::value<std::vector<std::string>>()->multitoken()->required(),
      "measurement CSV files (lastwave-bench --out)")(
      "physics-measurements", po::value<std::vector<std::string>>()->multitoken(),
      "of the --measurements files, those whose rows fit the physics (default: all); the "
      "residual trees and baselines take every training row")(
      "validation", po::value<std::vector<std::string>>()->multitoken(),
      "validation measurement CSVs (choose model terms; default: hash split of --measurements)")(
      "test", po::value<std::vector<std::string>>()->multitoken(),
      "SEALED test measurement CSVs: evaluated and reported (sha256 printed), never fitted")(
      "repeats", po::value<std::vector<std::string>>()->multitoken(),
      "validation or test configurations timed again, one pass per file (e.g. "
      "tools/probes/order_repeat.sh): the report judges the picks against every timing and "
      "gives the measurement's own noise ceiling")(
      "traces", po::value<std::vector<std::string>>()->multitoken(),
      "hardware trace JSON files (lastwave-bench --trace); give start values")(
      "gpu", po::value<std::string>()->default_value("h200"), "GPU preset the kernels ran on")(
      "tile", po::value<std::string>()->default_value("128x128x64"), "kernel CTA tile MxNxK")(
      "out", po::value<std::string>()->required(), "model file to write (configs/models/*.json)")(
      "report", po::value<std::string>(), "markdown report to write (docs/CALIBRATION.md)")(
      "append", po::value<std::string>(), "markdown file appended to the report verbatim")(
      "residuals", po::value<std::string>(), "CSV of measured and predicted makespan per row")(
      "holdout", po::value<double>()->default_value(0.25), "share of shapes held out")(
      "seed", po::value<uint64_t>()->default_value(1), "seed of the shape split")(
      "start", po::value<std::string>(),
      "fitted calibrated model file whose parameters start the fit (default: trace-derived)")(
      "max-evaluations", po::value<int>()->default_value(40),
      "Levenberg-Marquardt function evaluations per fit")(
      "residual-rounds", po::value<int>()->default_value(kResidual.rounds),
      "boosting rounds of the residual trees fitted after the parameters (0: none)")(
      "residual-leaves", po::value<int>()->default_value(kResidual.max_leaves),
      "leaves per residual tree")("residual-learning-rate",
                                  po::value<double>()->default_value(kResidual.learning_rate),
                                  "shrinkage of each residual tree")(
      "residual-min-rows", po::value<double>()->default_value(kResidual.min_rows),
      "fewest training rows in a residual tree's leaf")(
      "variants", po::value<std::string>(),
      "comma list of the term variants to fit, by tag (e.g. r12; default: every variant)")(
      "checkpoint", po::value<std::string>(),
      "JSON file of finished fits: each saved as it ends; the same command run again (same "
      "files, options and LASTWAVE_GIT_REVISION) loads them instead of refitting")(
      "cross-first",
      "fit the cross-SM check before the variant (one --variants tag): another machine can fit "
      "the variant into a copy of the checkpoint meanwhile")("quiet,q",
                                                             "no progress line on stderr")(
      "coverage-only", po::value<std::string>(),
      "fit nothing: write the fitted model file MODEL.json with its coverage section (training "
      "points from --measurements, interval bands from --validation rows predicted under it; "
      "--test rows are only checked) to --out, every other entry as it was")(
      "plot", po::value<std::string>(),
      "SVG of the fitted model's predicted vs measured time per validation and test row "
      "(log-log, y = x line)");
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm,
                     "lastwave calibrate --measurements FILES --gpu h200 --out MODEL.json "
                     "[--report docs/CALIBRATION.md] [--holdout 0.25] [--seed S]")) {
    return 0;
  }
  if (vm.count("coverage-only")) return coverage_only(vm);
  CalibrateOptions opt;
  for (const auto& f : vm["measurements"].as<std::vector<std::string>>()) {
    opt.measurements.push_back(f);
  }
  if (vm.count("physics-measurements")) {
    opt.physics_measurements = vm["physics-measurements"].as<std::vector<std::string>>();
  }
  if (vm.count("repeats")) opt.repeats = vm["repeats"].as<std::vector<std::string>>();
  if (vm.count("traces")) opt.traces = vm["traces"].as<std::vector<std::string>>();
  if (vm.count("validation")) opt.validation = vm["validation"].as<std::vector<std::string>>();
  if (vm.count("test")) opt.test = vm["test"].as<std::vector<std::string>>();
  if (vm.count("start")) opt.start_model = vm["start"].as<std::string>();
  opt.gpu = vm["gpu"].as<std::string>();
  opt.tile = parse_tile(vm["tile"].as<std::string>());
  opt.holdout = vm["holdout"].as<double>();
  opt.seed = vm["seed"].as<uint64_t>();
  opt.max_evaluations = vm["max-evaluations"].as<int>();
  opt.residual.rounds = vm["residual-rounds"].as<int>();
  opt.residual.max_leaves = vm["residual-leaves"].as<int>();
  opt.residual.learning_rate = vm["residual-learning-rate"].as<double>();
  opt.residual.min_rows = vm["residual-min-rows"].as<double>();
  check_residual_options(opt.residual, true);
  if (vm.count("variants"))
    opt.variants = split_commas(vm["variants"].as<std::string>(), "variant tag");
  opt.cross_first = vm.count("cross-first") > 0;
  if (vm.count("checkpoint")) opt.checkpoint = user_path(vm["checkpoint"].as<std::string>());
  opt.git_revision = git_revision();
  opt.date = utc_now();
  opt.command = "lastwave";
  for (int i = 0; i < argc; ++i) opt.command += std::string(" ") + argv[i];
  if (vm.count("append")) opt.appendix = read_file(user_path(vm["append"].as<std::string>()));
  // Paths are recorded as given (relative to the repository when run from it); read via user_path.
  CalibrateOptions resolved = opt;
  for (auto& f : resolved.measurements) f = user_path(f);
  for (auto& f : resolved.traces) f = user_path(f);
  for (auto& f : resolved.validation) f = user_path(f);
  for (auto& f : resolved.test) f = user_path(f);
  for (auto& f : resolved.repeats) f = user_path(f);
  if (!resolved.start_model.empty()) resolved.start_model = user_path(resolved.start_model);
  CalibrationResult r = [&] {
    Heartbeat beat("calibrate", ProgressStyle::for_stderr(vm.count("quiet") > 0));
    resolved.progress = [&beat](const std::string& stage) { beat.set_status(stage); };
    return run_calibration(resolved);
  }();
  r.model_file["source_measurements"] = opt.measurements;
  r.model_file["source_traces"] = opt.traces;
  if (!opt.start_model.empty()) r.model_file["start_model"] = opt.start_model;
  write_calibration(r, user_path(vm["out"].as<std::string>()),
                    vm.count("report") ? user_path(vm["report"].as<std::string>()) : "",
                    vm.count("residuals") ? user_path(vm["residuals"].as<std::string>()) : "");
  if (vm.count("plot")) {
    const plot::Svg svg = plot::scatter_svg(
        residual_points(r.residuals),
        plot::ScatterSpec{
            "Predicted vs measured (" + opt.gpu + ", every measured tile x cluster)",
            "fitted calibrated model, every row the fit did not see (validation and sealed test)",
            "us"});
    plot::write_svg(user_path(vm["plot"].as<std::string>()), svg);
  }
  std::cout << r.summary;
  return 0;
}

}  // namespace lw::cli

// calibrate --checkpoint, --variants, --cross-first and --physics-measurements: finished fits are
// saved and loaded by a rerun of the same run (the result as one run gives it), in either stage
// order, and stay valid when rows outside the physics' files change; a file of another run and
// unknown tags are refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include "calib/calibrate.hpp"
#include "calib/checkpoint.hpp"
#include "sim/util/atomic_file.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

namespace {

CalibrateOptions small_run(const std::string& dir) {
  CalibrateOptions opt;
  opt.measurements = {testing::small_synthetic_csv(dir)};
  opt.max_evaluations = 3;
  opt.holdout = 0.3;
  opt.variants = {"r11"};
  opt.checkpoint = dir + "/fits.json";
  return opt;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string error_of(const CalibrateOptions& opt) {
  try {
    run_calibration(opt);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// Rows the physics does not see: 8 shapes outside small_synthetic_csv's grid, at 132 SMs, whose
// times are those of a model twice as slow to launch (so a physics fitted on them would differ).
std::string extra_rows_csv(const std::string& dir, double launch_us) {
  testing::SyntheticSpec spec;
  spec.shapes = testing::shape_grid(640, 3000, 2);
  spec.schedules = {"dp", "splitk:2"};
  spec.sms = {132};
  spec.params = {{"launch_us", launch_us}};
  const std::string path = dir + "/extra.csv";
  write_file_atomically(path, testing::synthetic_csv(spec));
  return path;
}

}  // namespace

TEST_CASE("--physics-measurements: the physics sees only those files, the trees every row") {
  const std::string dir = testing::temp_dir("calibrate_physics_rows");
  std::filesystem::remove(dir + "/fits.json");
  CalibrateOptions opt = small_run(dir);
  const std::string physics_file = opt.measurements[0];
  opt.measurements.push_back(extra_rows_csv(dir, 20.0));
  opt.physics_measurements = {physics_file};
  opt.residual.rounds = 5;
  const CalibrationResult split = run_calibration(opt);
  const nlohmann::json& fit = split.model_file.at("fit");
  CHECK(fit.at("physics_train_rows").get<int64_t>() < fit.at("train_rows").get<int64_t>());

  // The same physics as a run on the physics file alone (no checkpoint: a fresh fit).
  CalibrateOptions alone = small_run(dir);
  alone.checkpoint.clear();
  CHECK(run_calibration(alone).model_file.at("params") == split.model_file.at("params"));

  // The checkpoint is keyed on the physics files: other rows changing leave it valid ...
  extra_rows_csv(dir, 40.0);
  CHECK(run_calibration(opt).model_file.at("params") == split.model_file.at("params"));
  // ... and a file outside --measurements is refused.
  opt.physics_measurements = {dir + "/nowhere.csv"};
  CHECK(error_of(opt) ==
        "--physics-measurements: '" + dir + "/nowhere.csv' is not one of the --measurements files");
}

TEST_CASE("a fit result survives JSON, an unbounded standard error included") {
  FitResult r;
  r.params = {{"launch_us", 3.7024785886292757}, {"mma_tflops_per_sm", 10.252454837216904}};
  r.start = {{"launch_us", 4.0}, {"mma_tflops_per_sm", 7.5}};
  r.evaluations = 40;
  r.status = "stopped at the evaluation limit";
  r.train_rms_rel = 0.09262704796408577;
  r.identifiability.log_se = {{"launch_us", 0.0078},
                              {"cluster_segment_us", std::numeric_limits<double>::infinity()}};
  r.identifiability.undetermined = {"cluster_segment_us"};
  r.identifiability.pinned = {"reuse_lag_scale"};
  r.identifiability.off = {"ktile_fixed_us"};
  const FitResult back = fit_result_from_json(nlohmann::json::parse(fit_result_json(r).dump()));
  CHECK(back.params == r.params);  // bit for bit
  CHECK(back.start == r.start);
  CHECK(back.evaluations == 40);
  CHECK(back.status == r.status);
  CHECK(back.train_rms_rel == r.train_rms_rel);
  CHECK(back.identifiability.log_se == r.identifiability.log_se);
  CHECK(back.identifiability.undetermined == r.identifiability.undetermined);
  CHECK(back.identifiability.pinned == r.identifiability.pinned);
  CHECK(back.identifiability.off == r.identifiability.off);
}

TEST_CASE("a rerun loads the saved fits and reports what the first run did") {
  const std::string dir = testing::temp_dir("calibrate_checkpoint");
  std::filesystem::remove(dir + "/fits.json");
  const CalibrateOptions opt = small_run(dir);
  const CalibrationResult first = run_calibration(opt);
  const nlohmann::json saved = read_json(opt.checkpoint);
  REQUIRE(saved.at("stages").size() == 2);  // the r11 fit and the cross-SM fit
  const std::string r11 = saved.at("stages").begin().key();
  CHECK(r11.rfind("cross-SM: r11", 0) == 0);  // keys sort: "cross-SM: r11: ..." before "r11: ..."

  const CalibrationResult again = run_calibration(opt);
  CHECK(again.model_file.at("params") == first.model_file.at("params"));
  CHECK(again.report == first.report);

  // A saved value is used as it stands: the rerun does not fit that stage again.
  nlohmann::json edited = saved;
  for (auto& [stage, fit] : edited.at("stages").items()) {
    if (stage.rfind("r11", 0) == 0) fit.at("params")["launch_us"] = 7.25;
  }
  write_file_atomically(opt.checkpoint, edited.dump());
  CHECK(run_calibration(opt).model_file.at("params").at("launch_us") == 7.25);
}

TEST_CASE("--cross-first fits the same two stages in the other order") {
  const std::string dir = testing::temp_dir("calibrate_cross_first");
  std::filesystem::remove(dir + "/fits.json");
  CalibrateOptions opt = small_run(dir);
  opt.cross_first = true;
  const CalibrationResult crossed = run_calibration(opt);
  CHECK(read_json(opt.checkpoint).at("stages").size() == 2);
  opt.cross_first = false;
  opt.checkpoint.clear();
  const CalibrationResult plain = run_calibration(opt);
  CHECK(crossed.model_file.at("params") == plain.model_file.at("params"));
  CHECK(crossed.report == plain.report);
  opt.cross_first = true;
  opt.variants = {"r12", "r11"};
  CHECK(error_of(opt) ==
        "--cross-first needs --variants naming one variant (the cross-SM fit takes the kept "
        "variant's terms)");
}

TEST_CASE("a checkpoint of another run, or an unknown variant, is refused in one line") {
  const std::string dir = testing::temp_dir("calibrate_checkpoint_other");
  std::filesystem::remove(dir + "/fits.json");
  CalibrateOptions opt = small_run(dir);
  run_calibration(opt);
  opt.max_evaluations = 4;  // another run: the saved fits are not its fits
  CHECK(error_of(opt) == opt.checkpoint +
                             ": checkpoint of another run (inputs, options or code revision "
                             "differ); remove it to start afresh");
  write_file_atomically(opt.checkpoint, "{ not json");
  CHECK(error_of(opt).rfind(opt.checkpoint + ": not a calibrate checkpoint", 0) == 0);
  opt.checkpoint = dir + "/no-such-dir/fits.json";  // refused before any fit
  CHECK_THROWS_WITH_AS(run_calibration(opt), ("cannot write '" + opt.checkpoint + "'").c_str(),
                       std::runtime_error);
  opt.checkpoint.clear();
  opt.variants = {"r99"};
  CHECK(error_of(opt) == "--variants: no variant 'r99' (r12, r11)");
}

}  // namespace lw

// calibrate's residual trees: the model file carries them, and the simulator built from that file
// predicts exactly what calibrate reported (the corrected column); the baselines get trees of
// their own; --residual-rounds 0 writes none.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "calib/calibrate.hpp"
#include "calib/cases.hpp"
#include "calib/coverage_fit.hpp"
#include "calib/measurements.hpp"
#include "sim/util/atomic_file.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

namespace {

CalibrateOptions small_run(const std::string& dir) {
  CalibrateOptions opt;
  opt.measurements = {testing::small_synthetic_csv(dir)};
  opt.max_evaluations = 2;
  opt.holdout = 0.3;
  opt.variants = {"r12"};
  opt.residual.rounds = 40;
  opt.residual.min_rows = 2;
  return opt;
}

// Column `name` of every data row of the residuals CSV (comment lines skipped).
std::vector<std::string> csv_column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::vector<std::string> out;
  int col = -1;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
    if (col < 0) {
      for (size_t i = 0; i < cells.size(); ++i) col = cells[i] == name ? int(i) : col;
      REQUIRE(col >= 0);
      continue;
    }
    out.push_back(cells.at(static_cast<size_t>(col)));
  }
  return out;
}

}  // namespace

TEST_CASE("the model file's residual trees reproduce calibrate's corrected predictions") {
  const std::string dir = testing::temp_dir("calibrate_residual");
  const CalibrateOptions opt = small_run(dir);
  const CalibrationResult r = run_calibration(opt);
  REQUIRE(r.model_file.contains("residual_trees"));
  CHECK(r.model_file["residual_fit"]["trees"] == 40);
  CHECK(r.report.find("A.1 per-CTA + residual trees") != std::string::npos);
  CHECK(r.report.find("simulator, physics only") != std::string::npos);
  write_calibration(r, dir + "/model.json", "", dir + "/res.csv");
  const GpuSpec h200 = gpu_preset("h200");
  const auto ms = read_all_measurements({opt.measurements[0]});
  const auto cases = build_cases(ms, TileShape{}, h200.ctas_per_sm);
  std::vector<double> from_file;
  for (int64_t sms : {132, 64}) {
    const GpuSpec gpu = sms == 132 ? h200 : gpu_with_sms(sms, &h200);
    const auto model = make_model_from_file(dir + "/model.json", {}, gpu);
    REQUIRE(model->residual_trees() != nullptr);
    std::vector<FitCase> some;
    for (const auto& c : cases) {
      if (c.m->sms == sms) some.push_back(c);
    }
    const auto pred = simulate_cases(*model, some);
    from_file.insert(from_file.end(), pred.begin(), pred.end());
  }
  // The residuals CSV lists the rows in measurement order: 132-SM rows precede 64-SM rows in the
  // synthetic file as they do here.
  const auto reported = csv_column(r.residuals, "pred0_us");
  REQUIRE(reported.size() == from_file.size());
  for (size_t i = 0; i < reported.size(); ++i) {
    CAPTURE(i);
    CHECK(std::stod(reported[i]) == doctest::Approx(from_file[i]).epsilon(1e-5));
  }
}

TEST_CASE("--residual-rounds 0 fits no trees") {
  const std::string dir = testing::temp_dir("calibrate_no_residual");
  CalibrateOptions opt = small_run(dir);
  opt.residual.rounds = 0;
  const CalibrationResult r = run_calibration(opt);
  CHECK_FALSE(r.model_file.contains("residual_trees"));
  CHECK(r.report.find("physics only") == std::string::npos);
}

TEST_CASE(
    "the report marks the SM counts that no training row has; the file records range and tiles") {
  const std::string dir = testing::temp_dir("calibrate_unseen_sms");
  testing::SyntheticSpec spec;
  spec.schedules = {"dp", "splitk:2"};
  spec.shapes = testing::shape_grid(512, 4096, 3);
  spec.sms = {132, 64};
  spec.tiles = {{128, 256, 64}, {128, 128, 64}};
  const std::string train = dir + "/train.csv";
  write_file_atomically(train, testing::synthetic_csv(spec));
  spec.tiles.clear();
  spec.shapes = testing::shape_grid(600, 3000, 2);
  spec.sms = {132, 96};
  const std::string validation = dir + "/validation.csv";
  write_file_atomically(validation, testing::synthetic_csv(spec));
  CalibrateOptions opt = small_run(dir);
  opt.measurements = {train};
  opt.validation = {validation};
  const CalibrationResult r = run_calibration(opt);
  const std::string& report = r.report;
  CHECK(report.find("| SMs = 96 (no training row) |") != std::string::npos);
  // The model file records the training rows' extent: the train file's shapes and SM counts.
  const nlohmann::json range = {
      {"m", {512, 4096}}, {"n", {512, 4096}}, {"k", {512, 4096}}, {"sms", {64, 132}}};
  CHECK(r.model_file["training_range"] == range);
  // ... and the training rows' tiles, in the kernels' order (best searches only these).
  CHECK(r.model_file["tiles"] == nlohmann::json::array({"128x128x64", "128x256x64"}));
  CHECK(report.find("| SMs = 132 |") != std::string::npos);
  CHECK(report.find("SMs = 132 (no training row)") == std::string::npos);
  // ... and its coverage: the 27 training shapes at 2 SM counts; on that log-spaced grid (steps of
  // 1.5 in log2 M, N, K: 1.2247 sd each; 0.7071 sd in log2 MNK) every shape's nearest other is one
  // step away, sqrt(1.5 + 0.5) sd; the bands from the 8 validation shapes x 2 SM counts per family.
  const nlohmann::json& coverage = r.model_file["coverage"];
  CHECK(coverage["points"].size() == 54);
  CHECK(coverage["threshold"].get<double>() == doctest::Approx(std::sqrt(2.0)).epsilon(1e-3));
  CHECK(coverage["bands"]["dp"]["rows"] == 16);
  CHECK(coverage["bands"]["splitk"]["rows"] == 16);
  CHECK(coverage["bands"]["all"]["rows"] == 32);
  // --coverage-only on the file without its section restores it from the same files (the bands
  // from the file's own predictions, which equal calibrate's) and leaves every other entry.
  nlohmann::json stripped = r.model_file;
  stripped.erase("coverage");
  write_file_atomically(dir + "/stripped.json", model_file_text(stripped));
  const CoverageOnlyResult added =
      add_coverage(dir + "/stripped.json", {train}, {validation}, {}, TileShape{});
  CHECK(added.model_file["coverage"]["points"] == coverage["points"]);
  CHECK(added.model_file["coverage"]["threshold"] == coverage["threshold"]);
  const double p90 = coverage["bands"]["dp"]["p90"].get<double>();
  CHECK(added.model_file["coverage"]["bands"]["dp"]["p90"].get<double>() ==
        doctest::Approx(p90).epsilon(1e-5));
  // The report's coverage section counts the 32 validation rows (8 shapes x 2 SM counts x 2
  // schedules), half of them at 132 SMs; --coverage-only writes the same section.
  const std::string own = "| validation, own bands | 32 | ";
  CHECK(report.find("## Where the model is right") != std::string::npos);
  CHECK(report.find(own) != std::string::npos);
  CHECK(report.find("| ... at 132 SMs | 16 |") != std::string::npos);
  CHECK(report.find("| ... at other SM counts | 16 |") != std::string::npos);
  CHECK(report.find("| test (reported, not used)") == std::string::npos);  // no test files
  CHECK(added.summary.find(own) != std::string::npos);
  nlohmann::json rest = added.model_file;
  rest.erase("coverage");
  CHECK(rest == stripped);
}

}  // namespace lw

// The model file's coverage section (models/coverage.hpp) from measurements: the distinct training
// (shape, SM count) points and the validation rows' measured / predicted bands. Written by
// `lastwave calibrate`, and added to an already fitted file by `calibrate --coverage-only`.
#pragma once
#include <string>
#include <vector>

#include "calib/cases.hpp"
#include "models/coverage.hpp"

namespace lw {

// Coverage of the distinct points of `train` with bands from the (case, predicted makespan) pairs
// of `held` (finite, positive predictions only).
Coverage fit_coverage(const std::vector<Measurement>& train, const std::vector<FitCase>& held,
                      const std::vector<double>& predicted);

// How the bands hold on rows they were not fitted on: the validation shapes halved by a hash, the
// bands of each half applied to the other; the share of rows whose measured time lies inside.
struct BandCheck {
  size_t rows = 0, inside = 0;
  size_t flagged = 0, flagged_inside = 0;  // rows located as extrapolated, and of them inside
};
// Rows at `sms` only when it is non-zero, rows at other SM counts when it is negative (-sms).
BandCheck cross_check_bands(const Coverage& coverage, const std::vector<FitCase>& held,
                            const std::vector<double>& predicted, int64_t sms = 0);
// The share of `rows` whose measured time lies in the interval of `coverage` as it is (e.g. the
// test rows, read once).
BandCheck check_bands(const Coverage& coverage, const std::vector<FitCase>& rows,
                      const std::vector<double>& predicted);

// The report's section "Where the model is right" (markdown): the points and threshold, the bands,
// and how the bands hold on the validation rows `held` (each half under the other half's bands:
// all, at `full_sms`, at other SM counts; then under their own) and on `test` when it has rows
// (read once). `*_pred`: each row's predicted makespan under the model.
std::string coverage_markdown(const Coverage& coverage, const std::vector<FitCase>& held,
                              const std::vector<double>& held_pred,
                              const std::vector<FitCase>& test,
                              const std::vector<double>& test_pred, int64_t full_sms);

// `calibrate --coverage-only`: the fitted model file `model_path` with its coverage section from
// the training files `measurements` and the validation files `validation` (predicted under the
// file's own model); the other entries are left as they are. `test` (optional) is only checked.
struct CoverageOnlyResult {
  nlohmann::json model_file;
  std::string summary;  // coverage_markdown's section
};
CoverageOnlyResult add_coverage(const std::string& model_path,
                                const std::vector<std::string>& measurements,
                                const std::vector<std::string>& validation,
                                const std::vector<std::string>& test, const TileShape& tile);

}  // namespace lw

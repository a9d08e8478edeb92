// The per-row extrapolation flag and interval of a fitted model file's coverage section: attached
// to predict's rows shape by shape, summarised in one line, rendered as CSV cells.
#pragma once
#include <string>
#include <vector>

#include "models/coverage.hpp"
#include "sim/predict/predict.hpp"

namespace lw {

// Sets every row's `coverage`: its shape located once at `sms` per run of consecutive rows of one
// shape (the flag and reason, shared by those rows), and each timed row's interval from the band
// of its schedule's family (best: the winning schedule's).
void attach_coverage(const Coverage& coverage, int64_t sms, std::vector<PredictRow>& rows);

// "N of M rows extrapolated, the first: SHAPE: REASON"
// or empty when none is.
std::string extrapolated_summary(const std::vector<PredictRow>& rows);
// The same over blocks of rows (predict's, a block per shape), in order.
std::string extrapolated_summary(const std::vector<std::vector<PredictRow>>& blocks);

// predict's CSV cells extrapolated, extrapolation, p10_us, p90_us (leading commas); empty cells
// for a row without coverage, empty p10_us / p90_us for a row without a time.
std::string coverage_csv_cells(const PredictRow& r);
constexpr const char* kCoverageCsvColumns = ",extrapolated,extrapolation,p10_us,p90_us";

}  // namespace lw

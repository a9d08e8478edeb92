// Coverage on predict's rows (row_coverage.hpp).
#include "sim/api/row_coverage.hpp"

#include <cmath>
#include <limits>

#include "sim/api/predict_run.hpp"
#include "sim/util/csv_field.hpp"

namespace lw {

void attach_coverage(const Coverage& coverage, int64_t sms, std::vector<PredictRow>& rows) {
  const double none = std::numeric_limits<double>::quiet_NaN();
  Located where;
  for (size_t i = 0; i < rows.size(); ++i) {
    PredictRow& r = rows[i];
    const Problem& prev = rows[i ? i - 1 : 0].problem;
    const bool same =
        i > 0 && prev.m == r.problem.m && prev.n == r.problem.n && prev.k == r.problem.k;
    if (!same) where = coverage.locate(r.problem, sms);
    RowCoverage c{where.extrapolated, where.reason, none, none};
    if (row_status(r) == "ok") {
      const std::string family = schedule_family(r.schedule == "best" ? r.choice : r.schedule);
      const Interval in = coverage.interval(family, r.makespan, where);
      c.low_us = in.low_us, c.high_us = in.high_us;
      if (!coverage.validated(family)) {  // e.g. splitk-dsm: no campaign row ran it
        c.extrapolated = true;
        c.reason = family + " was not in the calibration (no validation rows of it)" +
                   (where.extrapolated ? "; " + where.reason : "");
      }
    }
    r.coverage = c;
  }
}

namespace {

// Counts the flagged rows of `block` and keeps the first one met.
void count_flagged(const std::vector<PredictRow>& block, size_t& flagged,
                   const PredictRow*& first) {
  for (const PredictRow& r : block) {
    if (!r.coverage || !r.coverage->extrapolated) continue;
    ++flagged;
    if (!first) first = &r;
  }
}

std::string summary(size_t flagged, size_t rows, const PredictRow* first) {
  if (!first) return "";
  const Problem& p = first->problem;
  return std::to_string(flagged) + " of " + std::to_string(rows) +
         " rows extrapolated, the first: " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
         std::to_string(p.k) + ": " + first->coverage->reason;
}

}  // namespace

std::string extrapolated_summary(const std::vector<PredictRow>& rows) {
  size_t flagged = 0;
  const PredictRow* first = nullptr;
  count_flagged(rows, flagged, first);
  return summary(flagged, rows.size(), first);
}

std::string extrapolated_summary(const std::vector<std::vector<PredictRow>>& blocks) {
  size_t flagged = 0, rows = 0;
  const PredictRow* first = nullptr;
  for (const auto& block : blocks) {
    rows += block.size();
    count_flagged(block, flagged, first);
  }
  return summary(flagged, rows, first);
}

std::string coverage_csv_cells(const PredictRow& r) {
  if (!r.coverage) return ",,,,";
  const RowCoverage& c = *r.coverage;
  const bool timed = std::isfinite(c.low_us);
  return std::string(",") + (c.extrapolated ? "true" : "false") + "," + csv_field(c.reason) + "," +
         (timed ? format_number("%.3f", c.low_us) : "") + "," +
         (timed ? format_number("%.3f", c.high_us) : "");
}

}  // namespace lw

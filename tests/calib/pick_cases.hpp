// Hand-made measured cases for the pick metrics' tests (metrics.hpp, repeats, shortlist): one
// measured configuration per row, grouped by (m, n, k, SMs).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "calib/cases.hpp"

namespace lw::test {

// A measured row of an m x m x m shape on `sms` SMs: `schedule` took `us` microseconds.
inline Measurement pick_row(int64_t m, int64_t sms, const std::string& schedule, double us) {
  Measurement r;
  r.problem = Problem{m, m, m};
  r.sms = sms;
  r.schedule = schedule;
  r.reduction = "deterministic";
  r.median_us = us;
  return r;
}

// One case per row (the rows must outlive the cases: a case points at its row).
inline std::vector<FitCase> cases_of(const std::vector<Measurement>& ms) {
  std::vector<FitCase> c;
  for (const auto& m : ms) c.push_back(FitCase{&m, Plan{}, 1});
  return c;
}

}  // namespace lw::test

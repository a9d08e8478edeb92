// The report's shortlist section: the simulator's K fastest configurations of each (shape, SM
// count) timed on the hardware and the fastest of them kept (what `predict --schedule best --top K`
// followed by a timing run gives), against the measured best.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "calib/cases.hpp"
#include "calib/repeats.hpp"

namespace lw {

// The shortlist lengths the section reports (1: the simulator's own pick).
inline const std::vector<size_t>& shortlist_lengths() {
  static const std::vector<size_t> k = {1, 2, 3, 5};
  return k;
}

// Per set (validation, test): every SM count and `full_sms` alone, the shortlist kept and judged
// by the same timing; at `full_sms`, where `r` holds repeated timings, kept by one timing and
// judged by another (ranges over the ordered pairs). Empty when neither set has a group.
std::string shortlist_markdown(const std::vector<FitCase>& cases,
                               const std::vector<double>& predicted, const RepeatTimings& r,
                               const std::vector<size_t>& validation,
                               const std::vector<size_t>& test, int64_t full_sms);

}  // namespace lw

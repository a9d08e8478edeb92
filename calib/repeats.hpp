// Repeated timings (`lastwave calibrate --repeats`): validation and test configurations timed
// again with the same protocol, matched to their cases; the picks judged against the timings'
// mean and the measurement's own noise ceiling, rendered as a report section.
#pragma once
#include <string>
#include <vector>

#include "calib/cases.hpp"

namespace lw {

struct RepeatTimings {
  std::vector<std::string> files;  // the --repeats passes, in order
  // times[0][case]: the case's own median (us); times[1 + f][case]: file f's (NaN: not timed).
  std::vector<std::vector<double>> times;
  std::vector<double> mean;  // geometric mean of a case's timings; NaN for a case timed once
};

// Matches every ok row of each file (one timing pass; a config at most once per file) to the
// case among `eligible` of the same m, n, k, SMs, decomposition, reduction, tile and cluster;
// rows that match none are left out. Throws a one-line error naming the file when it cannot be
// read, has a bad row or a config twice (read_all_measurements), or times none of the cases.
RepeatTimings read_repeats(const std::vector<std::string>& files, const std::vector<FitCase>& cases,
                           const std::vector<size_t>& eligible);

// The report section: per set (validation, test) and SM count, over the groups timed more than
// once, the simulator's pick (`predicted`, one per case) judged by the mean timing and by each
// timing alone, and each timing pass as the picker judged by another. Empty without repeats.
std::string repeats_markdown(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted, const RepeatTimings& r,
                             const std::vector<size_t>& validation,
                             const std::vector<size_t>& test);

}  // namespace lw

// Sample statistics for timed runs: median and nearest-rank percentiles (host-only).
#pragma once
#include <vector>

namespace lw::bench {

struct SampleStats {
  double median = 0, p10 = 0, p90 = 0;
};

// Percentile q in [0, 1] by linear interpolation between order statistics; samples non-empty.
double percentile(std::vector<double> samples, double q);
SampleStats summarize(const std::vector<double>& samples);

}  // namespace lw::bench

// Sample statistics for timed runs: median, p10 and p90 (host-only).
#pragma once
#include <vector>

#include "sim/util/stats.hpp"

namespace lw::bench {

struct SampleStats {
  double median = 0, p10 = 0, p90 = 0;
};

// Median, p10 and p90 by lw::percentile; samples non-empty.
SampleStats summarize(const std::vector<double>& samples);

}  // namespace lw::bench

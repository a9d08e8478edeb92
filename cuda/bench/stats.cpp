// Sample statistics (see stats.hpp).
#include "cuda/bench/stats.hpp"

namespace lw::bench {

SampleStats summarize(const std::vector<double>& samples) {
  constexpr double kP10 = 0.1, kP90 = 0.9;
  SampleStats r;
  r.median = median(samples);
  r.p10 = percentile(samples, kP10);
  r.p90 = percentile(samples, kP90);
  return r;
}

}  // namespace lw::bench

// Sample statistics (see stats.hpp).
#include "cuda/bench/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace lw::bench {

double percentile(std::vector<double> s, double q) {
  if (s.empty()) throw std::invalid_argument("percentile of no samples");
  std::sort(s.begin(), s.end());
  const double pos = q * static_cast<double>(s.size() - 1);
  const auto lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, s.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return s[lo] + (s[hi] - s[lo]) * frac;
}

SampleStats summarize(const std::vector<double>& samples) {
  constexpr double kP10 = 0.1, kMedian = 0.5, kP90 = 0.9;
  SampleStats r;
  r.median = percentile(samples, kMedian);
  r.p10 = percentile(samples, kP10);
  r.p90 = percentile(samples, kP90);
  return r;
}

}  // namespace lw::bench

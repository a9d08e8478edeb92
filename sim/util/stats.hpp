// Order statistics of samples (host): the one percentile and median every part of lastwave uses
// (benchmark timings, calibration error figures, fit start values).
#pragma once
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace lw {

constexpr double kMedianQuantile = 0.5;

// Percentile q in [0, 1] by linear interpolation between order statistics (of a sorted copy).
// Throws std::invalid_argument on no samples.
inline double percentile(std::vector<double> samples, double q) {
  if (samples.empty()) throw std::invalid_argument("percentile of no samples");
  std::sort(samples.begin(), samples.end());
  const double pos = q * static_cast<double>(samples.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, samples.size() - 1);
  return samples[lo] + (samples[hi] - samples[lo]) * (pos - static_cast<double>(lo));
}

// The middle sample, or the mean of the two middle ones. Throws on no samples.
inline double median(std::vector<double> samples) {
  return percentile(std::move(samples), kMedianQuantile);
}

}  // namespace lw

// Coverage: features, the standardised nearest-neighbour search, the threshold, the interval.
#include "models/coverage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

namespace lw {

namespace {

// The feature the shapes are sorted by for the search: log2 (M N K), the widest-spread one.
constexpr size_t kSortFeature = 3;
constexpr const char* kFeatureNames[kCoverageFeatures] = {"m", "n", "k", "m*n*k"};
// A feature whose training values do not vary (one SM count, one K) is scaled by this instead of
// 0, in log2 units: any other value then lies 1 / kFlatScale sd per doubling away.
constexpr double kFlatScale = 0.25;

std::string shape_text(const Problem& p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// The query's own value of feature `f` as text (a dimension, or the shape for the volume).
std::string feature_value(const Problem& p, size_t f) {
  switch (f) {
    case 0:
      return std::to_string(p.m);
    case 1:
      return std::to_string(p.n);
    case 2:
      return std::to_string(p.k);
    default:
      return shape_text(p);
  }
}

// Mean and standard deviation (kFlatScale when 0) of `values`.
std::pair<double, double> spread(const std::vector<double>& values) {
  double sum = 0, sq = 0;
  for (double v : values) sum += v, sq += v * v;
  const double n = double(values.size()), mean = sum / n;
  const double var = std::max(0.0, sq / n - mean * mean);
  return {mean, var > 0 ? std::sqrt(var) : kFlatScale};
}

double distance(const CoverageFeatures& a, const CoverageFeatures& b) {
  double s = 0;
  for (size_t d = 0; d < kCoverageFeatures; ++d) s += (a[d] - b[d]) * (a[d] - b[d]);
  return std::sqrt(s);
}

}  // namespace

CoverageFeatures coverage_features(const Problem& p) {
  const double lm = std::log2(double(p.m)), ln = std::log2(double(p.n));
  const double lk = std::log2(double(p.k));
  return {lm, ln, lk, lm + ln + lk};
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of no values");
  std::sort(values.begin(), values.end());
  const double pos = q * double(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - double(lo)) * (values[hi] - values[lo]);
}

std::string schedule_family(const std::string& schedule) {
  for (const char* f : {"two-tile", "cutlass", "splitk-dsm", "splitk", "streamk", "dp"}) {
    if (schedule.rfind(f, 0) == 0) return f;
  }
  return "all";
}

Coverage::Coverage(std::vector<CoveragePoint> points) {
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t>> seen;
  for (const auto& pt : points) {
    if (seen.insert({pt.problem.m, pt.problem.n, pt.problem.k, pt.sms}).second) {
      points_.push_back(pt);
    }
  }
  index_points();
  if (shapes_.size() < 2) {
    throw std::invalid_argument("coverage needs at least two distinct training shapes");
  }
  std::vector<double> loo;  // each shape's distance to its nearest other shape
  for (size_t i = 0; i < standardised_.size(); ++i)
    loo.push_back(nearest(standardised_[i], i).first);
  threshold_ = quantile(loo, kThresholdQuantile);
}

void Coverage::index_points() {
  std::set<std::tuple<int64_t, int64_t, int64_t>> distinct;
  std::set<int64_t> levels;
  for (const auto& pt : points_) {
    distinct.insert({pt.problem.m, pt.problem.n, pt.problem.k});
    levels.insert(pt.sms);
  }
  std::vector<double> log_sms;
  shapes_.clear();
  for (const auto& [m, n, k] : distinct) shapes_.push_back({m, n, k});
  sms_levels_.assign(levels.begin(), levels.end());
  for (int64_t l : sms_levels_) log_sms.push_back(std::log2(double(l)));
  sms_scale_ = spread(log_sms).second;
  for (size_t d = 0; d < kCoverageFeatures && !shapes_.empty(); ++d) {
    std::vector<double> column;
    for (const auto& p : shapes_) column.push_back(coverage_features(p)[d]);
    std::tie(mean_[d], scale_[d]) = spread(column);
  }
  std::stable_sort(shapes_.begin(), shapes_.end(), [&](const Problem& a, const Problem& b) {
    return coverage_features(a)[kSortFeature] < coverage_features(b)[kSortFeature];
  });
  standardised_.clear();
  for (const auto& p : shapes_) standardised_.push_back(standardise(p));
}

CoverageFeatures Coverage::standardise(const Problem& p) const {
  CoverageFeatures f = coverage_features(p);
  for (size_t d = 0; d < kCoverageFeatures; ++d) f[d] = (f[d] - mean_[d]) / scale_[d];
  return f;
}

std::pair<double, size_t> Coverage::nearest(const CoverageFeatures& q, size_t skip) const {
  const auto start =
      std::lower_bound(standardised_.begin(), standardised_.end(), q[kSortFeature],
                       [](const CoverageFeatures& f, double v) { return f[kSortFeature] < v; });
  const size_t mid = static_cast<size_t>(start - standardised_.begin());
  double found = std::numeric_limits<double>::infinity();
  size_t best = 0;
  const auto consider = [&](size_t j) {
    if (j == skip) return;
    const double d = distance(q, standardised_[j]);
    if (d < found) found = d, best = j;
  };
  // Outwards from the query's volume both ways, stopping once the volume alone is farther.
  for (size_t j = mid; j < standardised_.size(); ++j) {
    if (standardised_[j][kSortFeature] - q[kSortFeature] >= found) break;
    consider(j);
  }
  for (size_t j = mid; j > 0; --j) {
    if (q[kSortFeature] - standardised_[j - 1][kSortFeature] >= found) break;
    consider(j - 1);
  }
  return {found, best};
}

std::pair<double, int64_t> Coverage::sms_term(int64_t sms) const {
  double closest = std::numeric_limits<double>::infinity();
  int64_t level = 0;
  for (int64_t l : sms_levels_) {
    const double d = std::abs(std::log2(double(sms) / double(l)));
    if (d < closest) closest = d, level = l;
  }
  const bool inside = sms >= sms_levels_.front() && sms <= sms_levels_.back();
  return {inside ? 0.0 : closest / sms_scale_, level};
}

Located Coverage::locate(const Problem& p, int64_t sms) const {
  const auto [shape_distance, best] = nearest(standardise(p), kNoSkip);
  const auto [sms_distance, level] = sms_term(sms);
  Located out;
  out.distance = std::hypot(shape_distance, sms_distance);
  out.nearest = shapes_[best];
  out.nearest_sms = level;
  out.extrapolated = out.distance > threshold_;
  if (out.extrapolated) out.reason = reason_text(p, sms, out);
  return out;
}

// "distance 5.3 sd > 0.7 from the nearest trained shape 4096x4096x128 and SM count 132; mostly
// k: 8 is 4.0 sd below it".
std::string Coverage::reason_text(const Problem& p, int64_t sms, const Located& where) const {
  const CoverageFeatures q = coverage_features(p), t = coverage_features(where.nearest);
  std::string feature = "sms", value = std::to_string(sms);
  double most = sms_term(sms).first;
  bool below = sms < where.nearest_sms;
  for (size_t d = 0; d < kCoverageFeatures; ++d) {
    const double sd = std::abs(q[d] - t[d]) / scale_[d];
    if (sd > most)
      most = sd, feature = kFeatureNames[d], value = feature_value(p, d), below = q[d] < t[d];
  }
  return "distance " + one_decimal(where.distance) + " sd > " + one_decimal(threshold_) +
         " from the nearest trained shape " + shape_text(where.nearest) + " and SM count " +
         std::to_string(where.nearest_sms) + "; mostly " + feature + ": " + value + " is " +
         one_decimal(most) + " sd " + (below ? "below" : "above") + " it";
}

void Coverage::set_bands(const std::map<std::string, std::vector<double>>& ratios_by_family) {
  bands_.clear();
  std::vector<double> all;
  for (const auto& [family, ratios] : ratios_by_family) {
    if (ratios.empty()) continue;
    bands_[family] = {quantile(ratios, kIntervalLow), quantile(ratios, kIntervalHigh),
                      static_cast<int64_t>(ratios.size())};
    all.insert(all.end(), ratios.begin(), ratios.end());
  }
  if (!all.empty()) {
    bands_["all"] = {quantile(all, kIntervalLow), quantile(all, kIntervalHigh),
                     static_cast<int64_t>(all.size())};
  }
}

bool Coverage::validated(const std::string& family) const {
  return family == "all" || bands_.empty() || bands_.count(family) > 0;
}

Interval Coverage::interval(const std::string& family, double makespan_us,
                            const Located& where) const {
  auto it = bands_.find(family);
  if (it == bands_.end()) it = bands_.find("all");
  if (it == bands_.end()) return {makespan_us, makespan_us};
  double lo = std::log(it->second.low), hi = std::log(it->second.high);
  if (where.extrapolated && threshold_ > 0) {
    const double centre = (lo + hi) / 2, half = (hi - lo) / 2 * (where.distance / threshold_);
    lo = centre - half, hi = centre + half;
  }
  return {makespan_us * std::exp(lo), makespan_us * std::exp(hi)};
}

}  // namespace lw

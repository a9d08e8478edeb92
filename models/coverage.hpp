// Where a fitted model is right: the distinct (shape, SM count) points it was trained on in a
// standardised feature space, the distance beyond which a query is flagged `extrapolated`, and
// the p10-p90 interval of measured / predicted from its validation rows (the file's "coverage").
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/decomp/types.hpp"

namespace lw {

// A shape's features: log2 M, log2 N, log2 K, log2 (M N K), the scales the physics and trees work
// in. The SM count is a separate term: 0 inside the trained SM counts' span (the physics carries a
// shape from one SM count to another; calibrate's cross-SM check measures how well), outside it
// the log2 distance to the nearest end over the trained SM counts' log2 standard deviation.
constexpr size_t kCoverageFeatures = 4;
using CoverageFeatures = std::array<double, kCoverageFeatures>;
CoverageFeatures coverage_features(const Problem& p);

// One (shape, SM count) a model was trained on.
struct CoveragePoint {
  Problem problem;
  int64_t sms = 0;
};

// The interval's quantiles of measured / predicted (a ratio) and the rows they came from.
struct RatioBand {
  double low = 1, high = 1;  // the ratio's kIntervalLow and kIntervalHigh quantiles
  int64_t rows = 0;
};

// Where a query lies: the nearest trained shape and SM count, the distance, and the flag.
struct Located {
  // Euclidean over the shape features and the SM term, each in units of its training standard
  // deviation.
  double distance = 0;
  Problem nearest;          // the nearest trained shape
  int64_t nearest_sms = 0;  // the nearest trained SM count
  bool extrapolated = false;
  std::string reason;  // empty unless extrapolated
};

// The interval a prediction of `makespan_us` carries (us).
struct Interval {
  double low_us = 0, high_us = 0;
};

// Quantiles of measured / predicted the interval spans (p10 - p90), and the share of leave-one-out
// nearest-neighbour distances among training shapes below the threshold (p99).
constexpr double kIntervalLow = 0.10;
constexpr double kIntervalHigh = 0.90;
constexpr double kThresholdQuantile = 0.99;

class Coverage {
 public:
  Coverage() = default;
  // Standardises by the distinct shapes' spread (the SM term: by the SM counts'); threshold: the
  // kThresholdQuantile quantile of each distinct shape's distance to its nearest other shape.
  // Throws std::invalid_argument on fewer than two distinct shapes.
  explicit Coverage(std::vector<CoveragePoint> points);

  // Every family's band, and "all" over every row, from validation measured / predicted ratios.
  void set_bands(const std::map<std::string, std::vector<double>>& ratios_by_family);

  Located locate(const Problem& p, int64_t sms) const;
  // Whether validation rows of `family` were recorded (true where no family has any: no bands).
  bool validated(const std::string& family) const;
  // The family's band (or "all") applied to `makespan_us`; an extrapolated row's band is widened
  // in log space about its centre by distance / threshold (stated in docs/CALIBRATION.md).
  Interval interval(const std::string& family, double makespan_us, const Located& where) const;

  const std::vector<CoveragePoint>& points() const { return points_; }
  double threshold() const { return threshold_; }
  const CoverageFeatures& scale() const { return scale_; }
  double sms_scale() const { return sms_scale_; }
  const std::map<std::string, RatioBand>& bands() const { return bands_; }

  nlohmann::json to_json() const;
  // Throws std::invalid_argument, one line starting with `where`, on a malformed section.
  static Coverage from_json(const nlohmann::json& j, const std::string& where);

 private:
  void index_points();  // distinct shapes, SM levels, scales, the sorted order for the search
  CoverageFeatures standardise(const Problem& p) const;
  // The distance from standardised `q` to the nearest distinct shape other than sorted index
  // `skip`, and that shape's sorted index.
  static constexpr size_t kNoSkip = static_cast<size_t>(-1);
  std::pair<double, size_t> nearest(const CoverageFeatures& q, size_t skip) const;
  // The SM term (0 inside the trained span, else the standardised log2 distance to its nearest
  // end) and the nearest trained SM count.
  std::pair<double, int64_t> sms_term(int64_t sms) const;
  std::string reason_text(const Problem& p, int64_t sms, const Located& where) const;

  std::vector<CoveragePoint> points_;
  CoverageFeatures mean_{}, scale_{};
  double threshold_ = 0;
  std::map<std::string, RatioBand> bands_;
  std::vector<Problem> shapes_;                 // distinct, sorted by the volume feature
  std::vector<CoverageFeatures> standardised_;  // of shapes_
  std::vector<int64_t> sms_levels_;             // distinct trained SM counts, ascending
  double sms_scale_ = 1;                        // their log2 standard deviation
};

// The interval's family of a schedule name ("splitk:4" -> "splitk", "splitk-dsm:4" -> "splitk-dsm",
// "cutlass-dp" -> "cutlass", "two-tile" -> "two-tile"; "all" for any other).
std::string schedule_family(const std::string& schedule);

// The `q` quantile (0..1) of `values` by linear interpolation between order statistics; throws
// std::invalid_argument when empty.
double quantile(std::vector<double> values, double q);

}  // namespace lw

// Error and decision-quality figures of a predictor against measured makespans.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "calib/cases.hpp"

namespace lw {

constexpr double kPercent = 100.0;  // percent per unit fraction

// A ratio as a percentage with one decimal ("91.0"), and a range of two ("85.1-93.2", or one
// figure when both print the same).
std::string percent_text(double ratio);
std::string percent_range(double lo, double hi);

struct ErrorStats {
  size_t n = 0;
  double median = 0, p90 = 0, p95 = 0, max = 0;  // of |predicted / measured - 1| in %
};

// Over the cases at `indices`.
ErrorStats error_stats(const std::vector<FitCase>& cases, const std::vector<double>& predicted,
                       const std::vector<size_t>& indices);

struct DecisionStats {
  size_t groups = 0;   // (m, n, k, sms) groups with >= 2 measured decompositions
  double exact = 0;    // share of groups where the pick is the measured fastest
  double geomean = 0;  // geomean of measured best time / measured time of the pick
  double worst = 0;    // the smallest such ratio
};

// Per (m, n, k, sms) group of the cases at `indices` whose `time` is not NaN: picks the case of
// smallest `score` (NaN: never picked; ties go to the first) and judges it by `time`, as the
// group's least time over the pick's. Groups of one case, or where no case can be picked, are
// skipped.
DecisionStats judged_picks(const std::vector<FitCase>& cases, const std::vector<double>& score,
                           const std::vector<double>& time, const std::vector<size_t>& indices);

// The smallest and largest geomean and worst shape over the `stats` that have groups (n of them;
// none: lo > hi), and how many of them reach `worst_target` on their worst shape.
struct Spread {
  double geo_lo = 1, geo_hi = 0, worst_lo = 1, worst_hi = 0;
  size_t n = 0, worst_at_least = 0;
};
Spread spread(const std::vector<DecisionStats>& stats, double worst_target);

// A shortlist timed on the hardware: per group, the `shortlist` cases of smallest `score` (NaN:
// never listed; ties to the first) among those timed by both `pick_time` and `judge_time`, the one
// of least `pick_time` kept and judged by `judge_time` (the group's least over the kept one's).
// shortlist_picks(cases, score, t, t, indices, 1) is judged_picks(cases, score, t, indices).
DecisionStats shortlist_picks(const std::vector<FitCase>& cases, const std::vector<double>& score,
                              const std::vector<double>& pick_time,
                              const std::vector<double>& judge_time,
                              const std::vector<size_t>& indices, size_t shortlist);

// Each timing pass as the picker, judged by another: times[pass][case] in us (NaN: the pass did
// not time the case; a case sits out of a pair unless both timed it). One DecisionStats per
// ordered pair of passes (a, b), a != b, in the order (0, 1), (0, 2), ..., (1, 0), ...: how far a
// picker that knew the hardware as one pass measured it falls short when judged by another.
std::vector<DecisionStats> pass_picks(const std::vector<FitCase>& cases,
                                      const std::vector<std::vector<double>>& times,
                                      const std::vector<size_t>& indices);

// Picks per group the case with the smallest prediction, judged by the measured medians. With
// `rule` non-empty, picks the case whose schedule is `rule` instead (groups without it are
// skipped).
DecisionStats decision_stats(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted,
                             const std::vector<size_t>& indices, const std::string& rule = "");

}  // namespace lw

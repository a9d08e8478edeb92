// Percentiles of |% error| and per-shape decision quality.
#include "calib/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/util/stats.hpp"

namespace lw {

std::string percent_text(double ratio) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", kPercent * ratio);
  return b;
}

std::string percent_range(double lo, double hi) {
  return percent_text(lo) == percent_text(hi) ? percent_text(lo)
                                              : percent_text(lo) + "-" + percent_text(hi);
}

ErrorStats error_stats(const std::vector<FitCase>& cases, const std::vector<double>& predicted,
                       const std::vector<size_t>& indices) {
  std::vector<double> err;
  for (size_t i : indices) {
    err.push_back(kPercent * std::fabs(predicted[i] / cases[i].m->median_us - 1.0));
  }
  std::sort(err.begin(), err.end());
  ErrorStats s;
  s.n = err.size();
  if (err.empty()) return s;
  s.median = percentile(err, 0.5);
  s.p90 = percentile(err, 0.9);
  s.p95 = percentile(err, 0.95);
  s.max = err.back();
  return s;
}

namespace {

// The group's case kept from its shortlist (kNone: none listed).
constexpr size_t kNone = static_cast<size_t>(-1);
size_t kept_case(const std::vector<size_t>& members, const std::vector<double>& score,
                 const std::vector<double>& pick_time, size_t shortlist) {
  std::vector<size_t> listed;
  for (size_t i : members) {
    if (!std::isnan(score[i])) listed.push_back(i);
  }
  const auto by_score = [&](size_t a, size_t b) { return score[a] < score[b]; };
  std::stable_sort(listed.begin(), listed.end(), by_score);  // ties: the first stays first
  if (listed.size() > shortlist) listed.resize(shortlist);
  size_t kept = kNone;
  for (size_t i : listed) {
    if (kept == kNone || pick_time[i] < pick_time[kept]) kept = i;
  }
  return kept;
}

}  // namespace

DecisionStats shortlist_picks(const std::vector<FitCase>& cases, const std::vector<double>& score,
                              const std::vector<double>& pick_time,
                              const std::vector<double>& judge_time,
                              const std::vector<size_t>& indices, size_t shortlist) {
  using Key = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  std::map<Key, std::vector<size_t>> groups;
  for (size_t i : indices) {
    if (std::isnan(pick_time[i]) || std::isnan(judge_time[i])) continue;
    const Measurement& m = *cases[i].m;
    groups[Key{m.problem.m, m.problem.n, m.problem.k, m.sms}].push_back(i);
  }
  DecisionStats d;
  double log_sum = 0;
  size_t exact = 0;
  d.worst = 1.0;
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    size_t best = members[0];
    for (size_t i : members) {
      if (judge_time[i] < judge_time[best]) best = i;
    }
    const size_t pick = kept_case(members, score, pick_time, shortlist);
    if (pick == kNone) continue;
    const double ratio = judge_time[best] / judge_time[pick];
    ++d.groups;
    log_sum += std::log(ratio);
    exact += pick == best ? 1 : 0;
    d.worst = std::min(d.worst, ratio);
  }
  if (d.groups > 0) {
    d.exact = static_cast<double>(exact) / static_cast<double>(d.groups);
    d.geomean = std::exp(log_sum / static_cast<double>(d.groups));
  }
  return d;
}

DecisionStats judged_picks(const std::vector<FitCase>& cases, const std::vector<double>& score,
                           const std::vector<double>& time, const std::vector<size_t>& indices) {
  return shortlist_picks(cases, score, time, time, indices, 1);
}

DecisionStats decision_stats(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted,
                             const std::vector<size_t>& indices, const std::string& rule) {
  std::vector<double> time(cases.size(), std::nan("")), score = predicted;
  for (size_t i : indices) {
    const Measurement& m = *cases[i].m;
    time[i] = m.median_us;
    if (rule.empty()) continue;
    // The rule's own config: the default tile, 1x1 (or the rows' tile when none is given).
    const bool default_config =
        (m.tile.m == 0 || same_tile(m.tile, kDefaultTile)) && m.cluster.m == 1 && m.cluster.n == 1;
    score[i] = m.schedule == rule && default_config ? 0.0 : std::nan("");
  }
  return judged_picks(cases, score, time, indices);
}

Spread spread(const std::vector<DecisionStats>& stats, double worst_target) {
  Spread s;
  for (const auto& d : stats) {
    if (d.groups == 0) continue;
    ++s.n;
    s.geo_lo = std::min(s.geo_lo, d.geomean);
    s.geo_hi = std::max(s.geo_hi, d.geomean);
    s.worst_lo = std::min(s.worst_lo, d.worst);
    s.worst_hi = std::max(s.worst_hi, d.worst);
    s.worst_at_least += d.worst >= worst_target ? 1 : 0;
  }
  return s;
}

std::vector<DecisionStats> pass_picks(const std::vector<FitCase>& cases,
                                      const std::vector<std::vector<double>>& times,
                                      const std::vector<size_t>& indices) {
  std::vector<DecisionStats> pairs;
  for (size_t a = 0; a < times.size(); ++a) {
    for (size_t b = 0; b < times.size(); ++b) {
      if (a == b) continue;
      std::vector<double> judge = times[b];  // a case only one of the two timed sits out
      for (size_t i : indices) {
        if (std::isnan(times[a][i])) judge[i] = std::nan("");
      }
      pairs.push_back(judged_picks(cases, times[a], judge, indices));
    }
  }
  return pairs;
}

}  // namespace lw

// Percentiles of |% error| and per-shape decision quality.
#include "models/calib/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/util/stats.hpp"

namespace lw {

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

DecisionStats decision_stats(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted,
                             const std::vector<size_t>& indices, const std::string& rule) {
  using Key = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  std::map<Key, std::vector<size_t>> groups;
  for (size_t i : indices) {
    const Measurement& m = *cases[i].m;
    groups[Key{m.problem.m, m.problem.n, m.problem.k, m.sms}].push_back(i);
  }
  DecisionStats d;
  double log_sum = 0;
  size_t exact = 0;
  d.worst = 1.0;
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    constexpr size_t kNone = static_cast<size_t>(-1);
    size_t best = members[0], pick = kNone;
    for (size_t i : members) {
      if (cases[i].m->median_us < cases[best].m->median_us) best = i;
      if (!rule.empty()) {
        // The rule's own config: the default tile, 1x1 (or the rows' tile when none is given).
        const Measurement& m = *cases[i].m;
        const bool default_config = (m.tile.m == 0 || same_tile(m.tile, kDefaultTile)) &&
                                    m.cluster.m == 1 && m.cluster.n == 1;
        if (m.schedule == rule && default_config) pick = i;
      } else if (pick == kNone || predicted[i] < predicted[pick]) {
        pick = i;
      }
    }
    if (pick == kNone) continue;
    const double ratio = cases[best].m->median_us / cases[pick].m->median_us;
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

}  // namespace lw

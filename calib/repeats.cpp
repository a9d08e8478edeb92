// Repeated timings: matching the passes to the cases, their mean, the noise-ceiling section.
#include "calib/repeats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "calib/metrics.hpp"

namespace lw {

namespace {

std::vector<double> geometric_means(const std::vector<std::vector<double>>& times) {
  std::vector<double> mean(times[0].size(), std::nan(""));
  for (size_t i = 0; i < mean.size(); ++i) {
    double log_sum = 0;
    int timed = 0;
    for (const auto& pass : times) {
      if (std::isnan(pass[i])) continue;
      log_sum += std::log(pass[i]);
      ++timed;
    }
    if (timed > 1) mean[i] = std::exp(log_sum / timed);
  }
  return mean;
}

}  // namespace

RepeatTimings read_repeats(const std::vector<std::string>& files, const std::vector<FitCase>& cases,
                           const std::vector<size_t>& eligible) {
  RepeatTimings r;
  r.files = files;
  std::map<ConfigKey, size_t> index;
  r.times.assign(1, std::vector<double>(cases.size(), std::nan("")));
  for (size_t i : eligible) {
    index.emplace(config_key(*cases[i].m), i);
    r.times[0][i] = cases[i].m->median_us;
  }
  for (const auto& file : files) {
    std::vector<double> pass(cases.size(), std::nan(""));
    size_t matched = 0;
    for (const Measurement& m : read_all_measurements({file})) {  // one timing per config
      const auto it = index.find(config_key(m));
      if (it == index.end()) continue;
      pass[it->second] = m.median_us;
      ++matched;
    }
    if (matched == 0) {
      throw std::invalid_argument(file +
                                  ": --repeats: no row times a validation or test "
                                  "configuration");
    }
    r.times.push_back(std::move(pass));
  }
  r.mean = geometric_means(r.times);
  return r;
}

namespace {

constexpr double kWorstTarget = 0.90;  // issue 8's worst-shape target

// One table row: the cases of `scope` that were timed more than once.
void scope_row(std::ostringstream& md, const std::string& set, const std::string& sms,
               const std::vector<FitCase>& cases, const std::vector<double>& predicted,
               const RepeatTimings& r, const std::vector<size_t>& scope) {
  const DecisionStats by_mean = judged_picks(cases, predicted, r.mean, scope);
  if (by_mean.groups == 0) return;
  std::vector<DecisionStats> by_one;
  size_t timings = 0;
  for (const auto& pass : r.times) {
    const bool timed =
        std::any_of(scope.begin(), scope.end(), [&](size_t i) { return !std::isnan(pass[i]); });
    timings += timed ? 1 : 0;
    if (timed) by_one.push_back(judged_picks(cases, predicted, pass, scope));
  }
  md << "| " << set << " | " << sms << " | " << by_mean.groups << " | " << timings << " | "
     << percent_text(by_mean.geomean) << " / " << percent_text(by_mean.worst) << " | ";
  // Ranges over passes mean something only where every pass timed every group of the scope.
  const bool every_group = std::all_of(by_one.begin(), by_one.end(), [&](const DecisionStats& d) {
    return d.groups == by_mean.groups;
  });
  if (!every_group) {
    md << "per SM count, below | per SM count, below | |\n";
    return;
  }
  const Spread one = spread(by_one, kWorstTarget),
               pairs = spread(pass_picks(cases, r.times, scope), kWorstTarget);
  md << percent_range(one.geo_lo, one.geo_hi) << " / " << percent_range(one.worst_lo, one.worst_hi)
     << " | " << percent_range(pairs.geo_lo, pairs.geo_hi) << " / "
     << percent_range(pairs.worst_lo, pairs.worst_hi) << " | " << pairs.worst_at_least << " of "
     << pairs.n << " |\n";
}

void set_rows(std::ostringstream& md, const std::string& set, const std::vector<FitCase>& cases,
              const std::vector<double>& predicted, const RepeatTimings& r,
              const std::vector<size_t>& indices) {
  std::vector<size_t> repeated;
  std::set<int64_t, std::greater<>> sms;
  for (size_t i : indices) {
    if (std::isnan(r.mean[i])) continue;
    repeated.push_back(i);
    sms.insert(cases[i].m->sms);
  }
  if (sms.size() > 1) scope_row(md, set, "every", cases, predicted, r, repeated);
  for (int64_t n : sms) {
    std::vector<size_t> at;
    for (size_t i : repeated) {
      if (cases[i].m->sms == n) at.push_back(i);
    }
    scope_row(md, set, std::to_string(n), cases, predicted, r, at);
  }
}

}  // namespace

std::string repeats_markdown(const std::vector<FitCase>& cases,
                             const std::vector<double>& predicted, const RepeatTimings& r,
                             const std::vector<size_t>& validation,
                             const std::vector<size_t>& test) {
  if (r.files.empty()) return "";
  std::ostringstream md;
  md << "## Measurement noise (repeated timings)\n\nThe configurations of these groups were timed "
        "more than once with the same protocol (their own file and the `--repeats` passes:";
  for (const auto& f : r.files) md << " `" << f << "`";
  md << "). The simulator's pick is judged by the geometric mean of a configuration's timings "
        "and by each timing alone. As the noise ceiling, each timing is then used as the picker "
        "(the hardware's own measurement) and judged by another: a picker judged by one pass of "
        "measurements cannot be expected to do better than another pass of them does. Figures "
        "are measured best / pick, geomean / worst shape, in %; ranges run over the timings or "
        "the ordered pairs of timings.\n\n"
        "| set | SMs | groups | timings | simulator, judged by the mean timing | simulator, "
        "judged by one timing | one timing's pick, judged by another | pairs with worst >= "
     << percent_text(kWorstTarget) << " % |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
  set_rows(md, "validation", cases, predicted, r, validation);
  set_rows(md, "test", cases, predicted, r, test);
  md << "\n";
  return md.str();
}

}  // namespace lw

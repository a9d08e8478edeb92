// shortlist_markdown(): shortlist_picks over the validation and test groups, per shortlist length.
#include "calib/shortlist.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "calib/metrics.hpp"

namespace lw {

namespace {

std::string cell(const DecisionStats& d) {
  return d.groups == 0 ? "-" : percent_text(d.geomean) + " / " + percent_text(d.worst);
}

// The cases of `set` on `sms` SMs.
std::vector<size_t> on_sms(const std::vector<FitCase>& cases, const std::vector<size_t>& set,
                           int64_t sms) {
  std::vector<size_t> out;
  for (size_t i : set) {
    if (cases[i].m->sms == sms) out.push_back(i);
  }
  return out;
}

// Kept by timing a, judged by timing b, over every ordered pair with groups: "geo range / worst
// range", or "-" when fewer than two timings cover `scope`.
std::string cross_cell(const std::vector<FitCase>& cases, const std::vector<double>& predicted,
                       const RepeatTimings& r, const std::vector<size_t>& scope, size_t k) {
  std::vector<DecisionStats> pairs;
  for (size_t a = 0; a < r.times.size(); ++a) {
    for (size_t b = 0; b < r.times.size(); ++b) {
      if (a != b)
        pairs.push_back(shortlist_picks(cases, predicted, r.times[a], r.times[b], scope, k));
    }
  }
  const Spread s = spread(pairs, 1.0);
  return s.n == 0
             ? "-"
             : percent_range(s.geo_lo, s.geo_hi) + " / " + percent_range(s.worst_lo, s.worst_hi);
}

}  // namespace

std::string shortlist_markdown(const std::vector<FitCase>& cases,
                               const std::vector<double>& predicted, const RepeatTimings& r,
                               const std::vector<size_t>& validation,
                               const std::vector<size_t>& test, int64_t full_sms) {
  std::vector<double> own(cases.size(), std::nan(""));  // each case's own (campaign) timing
  for (const auto* set : {&validation, &test}) {
    for (size_t i : *set) own[i] = cases[i].m->median_us;
  }
  const std::vector<size_t> val_full = on_sms(cases, validation, full_sms),
                            test_full = on_sms(cases, test, full_sms);
  if (judged_picks(cases, predicted, own, validation).groups == 0 &&
      judged_picks(cases, predicted, own, test).groups == 0) {
    return "";
  }
  const std::string n = std::to_string(full_sms);
  std::ostringstream md;
  md << "## Shortlist timed on the hardware\n\nPer (shape, SM count) group, the simulator's K "
        "fastest measured configurations are timed and the fastest of them kept (`lastwave "
        "predict --schedule best --top K`, then a timing run); K = 1 is the simulator's own pick, "
        "as in the tables above. Figures are measured best / kept, geomean / worst shape, in %. "
        "Where one timing keeps and judges, its noise favours the longer lists; the columns "
        "\"kept by one timing, judged by another\" use the repeated timings (ranges over their "
        "ordered pairs) and carry no such favour.\n\n"
     << "| K | validation, every SM count | validation, " << n << " SMs | validation, " << n
     << " SMs, kept by one timing, judged by another | test, every SM count | test, " << n
     << " SMs | test, " << n
     << " SMs, kept by one timing, judged by another |\n|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const size_t k : shortlist_lengths()) {
    md << "| " << k << " | " << cell(shortlist_picks(cases, predicted, own, own, validation, k))
       << " | " << cell(shortlist_picks(cases, predicted, own, own, val_full, k)) << " | "
       << cross_cell(cases, predicted, r, val_full, k) << " | "
       << cell(shortlist_picks(cases, predicted, own, own, test, k)) << " | "
       << cell(shortlist_picks(cases, predicted, own, own, test_full, k)) << " | "
       << cross_cell(cases, predicted, r, test_full, k) << " |\n";
  }
  md << "\n";
  return md.str();
}

}  // namespace lw

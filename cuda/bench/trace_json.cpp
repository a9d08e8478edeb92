// Kernel trace records -> shared timeline schema (see trace_json.hpp).
#include "cuda/bench/trace_json.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "sim/trace/trace_json.hpp"

namespace lw::bench {

namespace {
constexpr double kNsPerUs = 1000.0;
}  // namespace

std::vector<SegmentRecord> to_timeline(const std::vector<TracedCta>& ctas) {
  uint64_t t0 = std::numeric_limits<uint64_t>::max();
  for (const auto& c : ctas) {
    for (const auto& s : c.segments) t0 = std::min(t0, s.second.t_start);
  }
  // Clamp so each phase ends no earlier than it starts (the timer is coarse).
  const auto us = [t0](uint64_t t, double floor) {
    return std::max(floor, static_cast<double>(t - t0) / kNsPerUs);
  };
  std::vector<SegmentRecord> out;
  for (const auto& c : ctas) {
    for (const auto& [seg, rec] : c.segments) {
      SegmentRecord r;
      r.cta = c.cta;
      r.sm = c.smid;
      r.launch = c.launch;
      r.seg = seg;
      r.t_start = us(rec.t_start, 0.0);
      r.t_mac_end = us(rec.t_mac_end, r.t_start);
      r.t_wait_end = us(rec.t_wait_end, r.t_mac_end);
      r.t_fixup_end = us(rec.t_fixup_end, r.t_wait_end);
      r.t_end = us(rec.t_end, r.t_fixup_end);
      out.push_back(r);
    }
  }
  return out;
}

namespace {

// Median and max of `v` (sorted in place), "median/max".
std::string median_max_text(std::vector<double>& v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f/%.2f", v[v.size() / 2], v.back());
  return buf;
}

}  // namespace

std::string fixed_cost_text(const std::vector<TracedCta>& ctas) {
  std::vector<double> prologue, tail;
  uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0;
  for (const auto& c : ctas) {
    if (c.launch != 0 || c.segments.empty() || c.t_entry == 0) continue;
    const uint64_t start = c.segments.front().second.t_start, end = c.segments.back().second.t_end;
    prologue.push_back(static_cast<double>(start - c.t_entry) / kNsPerUs);
    tail.push_back(static_cast<double>(c.t_exit - end) / kNsPerUs);
    first = std::min(first, c.t_entry);
    last = std::max(last, c.t_exit);
  }
  if (prologue.empty()) return "no traced CTA with segments";
  char span[32];
  std::snprintf(span, sizeof span, "%.2f", static_cast<double>(last - first) / kNsPerUs);
  return "prologue us (median/max) " + median_max_text(prologue) + ", tail us " +
         median_max_text(tail) + ", first entry to last exit " + span + " us";
}

nlohmann::json trace_to_json(const Plan& plan, const std::vector<TracedCta>& ctas,
                             const TraceMeta& meta) {
  const lw::TraceMeta m{"hw", Problem{meta.m, meta.n, meta.k}, meta.sms, meta.schedule, "us"};
  return trace_document(to_timeline(ctas), plan, m);
}

}  // namespace lw::bench

// Kernel trace records -> the shared timeline schema (sim/trace/timeline.hpp), so the kernel's
// Chrome-trace JSON is written by the same code as the simulator's. Host-only.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cuda/kernel/trace_record.hpp"
#include "sim/decomp/walk.hpp"
#include "sim/trace/timeline.hpp"

namespace lw::bench {

struct TraceMeta {
  int64_t m = 0, n = 0, k = 0, sms = 0;
  std::string schedule;
};

// One traced CTA: its SM, and its segments paired with the host walk's Segment (for the role).
struct TracedCta {
  int64_t cta = 0;
  int32_t launch = 0;  // 0 = main kernel, 1 = separate reduction kernel
  int32_t smid = 0;
  uint64_t t_entry = 0, t_exit = 0;  // %globaltimer at kernel entry and exit
  std::vector<std::pair<Segment, cuda::SegmentTrace>> segments;
};

// %globaltimer nanoseconds -> SegmentRecords in microseconds from the earliest segment start.
std::vector<SegmentRecord> to_timeline(const std::vector<TracedCta>& ctas);

// The main launch's fixed costs, one line: per CTA, entry -> first segment start (prologue) and
// last segment end -> exit (the stores' drain and teardown), median and max over CTAs, and the
// span from the first entry to the last exit (us).
std::string fixed_cost_text(const std::vector<TracedCta>& ctas);

// The Chrome-trace document (source "hw", time in us).
nlohmann::json trace_to_json(const Plan& plan, const std::vector<TracedCta>& ctas,
                             const TraceMeta& meta);

}  // namespace lw::bench

// Chrome-trace JSON of a traced kernel run: one "X" event per phase (mac, store, wait, reduce,
// epilogue) per segment, pid 0 (hardware), tid = SM id, microseconds from kernel start. The
// simulator writes the same schema. Host-only.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuda/kernel/trace_record.hpp"
#include "sim/decomp/walk.hpp"

namespace lw::bench {

struct TraceMeta {
  int64_t m = 0, n = 0, k = 0, sms = 0;
  std::string schedule;
};

// One traced CTA: its SM, and its segments paired with the host walk's Segment (for the role).
struct TracedCta {
  int64_t cta = 0;
  int32_t smid = 0;
  std::vector<std::pair<Segment, cuda::SegmentTrace>> segments;
};

const char* role_name(Role r);
nlohmann::json trace_to_json(const Plan& plan, const std::vector<TracedCta>& ctas,
                             const TraceMeta& meta);
// Writes `j` to `path` through a temporary file and rename; throws on failure.
void write_json_file(const std::string& path, const nlohmann::json& j);

}  // namespace lw::bench

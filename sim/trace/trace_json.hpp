// The one timeline schema shared by the simulator and the kernels: Chrome-trace / Perfetto JSON,
// one complete ("X") event per phase (mac, store, wait, reduce, epilogue) of each segment, one
// track (tid) per SM, plus a "lastwave" metadata object.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/decomp/plan.hpp"
#include "sim/trace/timeline.hpp"

namespace lw {

struct TraceMeta {
  std::string source;  // "sim" or "hw"
  Problem problem;
  int64_t sms = 0;
  std::string schedule;
  std::string time_unit;  // "us" or "iter"
};

const char* role_name(Role role);

// Trace events of one timeline; `pid` separates processes when traces are merged.
nlohmann::json timeline_events(const std::vector<SegmentRecord>& timeline, const Plan& plan,
                               int pid);

// A complete trace document: {"traceEvents": [...], "lastwave": {...}}.
nlohmann::json trace_document(const std::vector<SegmentRecord>& timeline, const Plan& plan,
                              const TraceMeta& meta);

}  // namespace lw

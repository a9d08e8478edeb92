// Reading and validating a trace in the shared schema (trace_json.hpp), whether written by the
// simulator (`lastwave predict --trace`) or by the kernels (`lastwave-bench --trace`).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/trace_json.hpp"

namespace lw {

// One complete ("X") phase event.
struct TracePhase {
  std::string name;  // mac | store | wait | reduce | epilogue
  int64_t sm = 0;    // tid
  double ts = 0;
  double dur = 0;
  int64_t cta = -1;
  int64_t tile = -1;
  int64_t k_begin = 0;
  int64_t k_end = 0;
  std::string role;
};

struct TraceDoc {
  TraceMeta meta;
  std::vector<TracePhase> phases;
};

// The phase names of the schema, in drawing order.
const std::vector<std::string>& trace_phase_names();

// Parses `text` (from `origin`, used in messages); throws std::invalid_argument with one line
// naming the origin and the offending event on anything outside the schema.
TraceDoc parse_trace(const std::string& text, const std::string& origin);
TraceDoc read_trace_file(const std::string& path);

}  // namespace lw

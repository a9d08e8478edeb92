// Side-by-side timelines: one Chrome-trace file holding a measured (pid 0) and a simulated (pid 1)
// trace, one track per SM, with process/thread name metadata so Perfetto labels them.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sim/trace/trace_read.hpp"

namespace lw {

struct LoadedTrace {
  nlohmann::json raw;  // the document as read (its events keep all their args)
  TraceDoc doc;        // the validated view
};

// Parses and validates; `expected_source` ("hw" or "sim") must match the file's metadata. Times
// are shifted so that the first segment starts at 0 in both `raw` and `doc`.
LoadedTrace load_trace(const std::string& text, const std::string& origin,
                       const std::string& expected_source);

constexpr int kHwPid = 0;
constexpr int kSimPid = 1;

nlohmann::json merge_traces(const LoadedTrace& hw, const LoadedTrace& sim);

}  // namespace lw

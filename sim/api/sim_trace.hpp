// The simulated timeline of one (shape, schedule) as a Chrome-trace / Perfetto JSON document:
// what `lastwave predict --trace FILE` writes and the Python module's trace() returns; and a
// simulated and a measured trace side by side (`lastwave trace`'s --out document).
#pragma once
#include <string>

#include "sim/api/predict_run.hpp"

namespace lw {

// The document (ending in a newline) for a request of exactly one shape and one schedule (`best`:
// the plan it picks); throws std::invalid_argument otherwise.
std::string simulated_trace(const PreparedPredict& prepared);

// One document holding the measured trace `hw_text` (pid 0, from lastwave-bench --trace) and the
// simulated `sim_text` (pid 1), as `lastwave trace --out` writes it; the origins name the texts in
// messages. Throws std::invalid_argument (one line) on a text outside the trace schema.
std::string merged_trace(const std::string& sim_text, const std::string& sim_origin,
                         const std::string& hw_text, const std::string& hw_origin);

}  // namespace lw

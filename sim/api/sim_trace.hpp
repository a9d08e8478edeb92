// The simulated timeline of one (shape, schedule) as a Chrome-trace / Perfetto JSON document:
// what `lastwave predict --trace FILE` writes and the Python module's trace() returns.
#pragma once
#include <string>

#include "sim/api/predict_run.hpp"

namespace lw {

// The document (ending in a newline) for a request of exactly one shape and one schedule (`best`:
// the plan it picks); throws std::invalid_argument otherwise.
std::string simulated_trace(const PreparedPredict& prepared);

}  // namespace lw

// Parsing of comma-separated positive integer lists given on the lastwave-bench command line
// (--sms 132,96,64). Host-only, no CUDA.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lw::bench {

// "132,96,64" -> {132, 96, 64}. Throws std::invalid_argument naming `what` on an empty list, an
// empty, non-numeric or out-of-range item, or one below `least` (default: positive items only).
std::vector<int64_t> parse_int_list(const std::string& text, const char* what, int64_t least = 1);

}  // namespace lw::bench

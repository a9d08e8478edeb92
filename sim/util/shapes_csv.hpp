// Reading shape corpora: CSV with a header naming columns m, n and k (any order, extra columns
// ignored), one shape per line, blank lines and '#' comments skipped. Used by lastwave and
// lastwave-bench. Host-only.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/types.hpp"

namespace lw {

// Throws std::invalid_argument naming the file and line on bad input.
std::vector<Problem> read_shapes_csv(const std::string& path);
std::vector<Problem> parse_shapes_csv(const std::string& text, const std::string& name);

}  // namespace lw

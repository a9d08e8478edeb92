// Reading the --shapes CSV (header with m,n,k columns, one shape per line; '#' comments) and
// writing result CSVs atomically (temporary file, then rename). Host-only.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/types.hpp"

namespace lw::bench {

// Throws std::invalid_argument naming the file and line on bad input.
std::vector<Problem> read_shapes_csv(const std::string& path);
std::vector<Problem> parse_shapes_csv(const std::string& text, const std::string& name);

void write_file_atomic(const std::string& path, const std::string& contents);

}  // namespace lw::bench

// Reading gzip-compressed inputs (measurement CSVs, traces, model files stored as FILE.gz), so
// large measurement files can be kept compressed in the repository and read without unpacking.
#pragma once
#include <string>

namespace lw {

// True when `path` names a gzip file by its suffix (".gz").
bool has_gzip_suffix(const std::string& path);

// Reads and inflates a whole gzip file; throws std::runtime_error naming the path when the file
// cannot be opened, is not gzip data, or ends early (a truncated download or copy).
std::string read_gzip_file(const std::string& path);

}  // namespace lw

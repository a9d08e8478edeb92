// Atomic output files: write to a temporary next to the target, then rename, so an error never
// leaves a half-written file behind.
#pragma once
#include <string>

namespace lw {

// Writes `contents` to `path` atomically; throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& contents);

// Reads a whole file, inflating it when its name ends in ".gz"; throws std::runtime_error naming
// the path on failure.
std::string read_file(const std::string& path);

// Resolves a user-given relative path against the directory `bazel run` was started from.
std::string user_path(const std::string& path);

}  // namespace lw

// SHA-256 of a file (OpenSSL libcrypto), printed in calibration reports so a sealed test set can
// be recognised byte for byte.
#pragma once
#include <string>

namespace lw {

// Lower-case hex digest; throws std::invalid_argument when the file cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace lw

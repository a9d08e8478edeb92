// sha256_file with OpenSSL's EVP interface.
#include "calib/file_hash.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

#include "sim/util/atomic_file.hpp"

namespace lw {

std::string sha256_file(const std::string& path) {
  const std::string data = read_file(path);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1) {
    throw std::invalid_argument("cannot hash " + path);
  }
  std::string hex;
  char byte[3];
  for (unsigned int i = 0; i < len; ++i) {
    std::snprintf(byte, sizeof byte, "%02x", digest[i]);
    hex += byte;
  }
  return hex;
}

}  // namespace lw

// Comma-separated positive integer lists (see int_list.hpp).
#include "cuda/bench/int_list.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace lw::bench {

std::vector<int64_t> parse_int_list(const std::string& text, const char* what, int64_t least) {
  std::vector<int64_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 || v < least) {
      throw std::invalid_argument(std::string(what) + ": bad value '" + item + "'");
    }
    out.push_back(v);
  }
  if (out.empty()) throw std::invalid_argument(std::string(what) + ": empty list");
  return out;
}

}  // namespace lw::bench

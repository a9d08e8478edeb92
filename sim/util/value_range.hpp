// ValueRange: the declared range of a numeric setting (a cost-model parameter, a GPU preset
// field) and the one check every loader of such settings uses.
#pragma once
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace lw {

struct ValueRange {
  double min = 0;
  double max = 0;
  bool min_exclusive = false;  // (min, max] instead of [min, max]

  // Finite and inside the range (NaN and infinities never are).
  bool contains(double v) const {
    return std::isfinite(v) && (min_exclusive ? v > min : v >= min) && v <= max;
  }
  // "[0, 1e+09]" or "(0, 1]".
  std::string text() const {
    char b[64];
    std::snprintf(b, sizeof b, "%s%g, %g]", min_exclusive ? "(" : "[", min, max);
    return b;
  }
};

// Throws std::invalid_argument "WHERE: parameter 'NAME' = V is outside its range [MIN, MAX] UNIT"
// unless `range` contains `value`.
inline void check_in_range(double value, const ValueRange& range, const std::string& where,
                           const std::string& name, const std::string& unit) {
  if (range.contains(value)) return;
  char v[32];
  std::snprintf(v, sizeof v, "%g", value);
  throw std::invalid_argument(where + ": parameter '" + name + "' = " + v +
                              " is outside its range " + range.text() + " " + unit);
}

}  // namespace lw

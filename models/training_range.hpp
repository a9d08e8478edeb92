// The extent of the measurements a fitted model file was calibrated on ("training_range": the
// least and greatest M, N, K and SM count of its training rows), and what lies outside it.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/decomp/types.hpp"

namespace lw {

struct TrainingRange {
  Problem least, greatest;  // per dimension, over the training rows
  int64_t least_sms = 0, greatest_sms = 0;

  // Widens the range to hold a row (the first row sets it).
  void include(const Problem& p, int64_t sms);
  bool empty() const { return greatest_sms == 0; }
  bool holds(const Problem& p) const;
  bool holds_sms(int64_t sms) const { return sms >= least_sms && sms <= greatest_sms; }
  // "M 1-59136, N 128-59136, K 128-57344 on 16-132 SMs".
  std::string text() const;

  nlohmann::json to_json() const;  // {"m": [least, greatest], "n": ..., "k": ..., "sms": ...}
  // Throws std::invalid_argument, one line starting with `where`, unless every dimension is a
  // pair of integers 1 <= least <= greatest.
  static TrainingRange from_json(const nlohmann::json& j, const std::string& where);
};

}  // namespace lw

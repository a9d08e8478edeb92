// TrainingRange: widening, membership, text and the model file's JSON form.
#include "models/training_range.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace lw {

namespace {

constexpr const char* kDimensions[] = {"m", "n", "k", "sms"};

// The [least, greatest] pair of dimension `name`, checked.
std::pair<int64_t, int64_t> read_pair(const nlohmann::json& j, const char* name,
                                      const std::string& where) {
  const std::string what = where + ": \"training_range\" \"" + name + "\"";
  if (!j.contains(name) || !j[name].is_array() || j[name].size() != 2 ||
      !j[name][0].is_number_integer() || !j[name][1].is_number_integer()) {
    throw std::invalid_argument(what + " must be [least, greatest] integers");
  }
  const auto least = j[name][0].get<int64_t>();
  const auto greatest = j[name][1].get<int64_t>();
  if (least < 1 || greatest < least) {
    throw std::invalid_argument(what + " must satisfy 1 <= least <= greatest");
  }
  return {least, greatest};
}

std::string span(int64_t least, int64_t greatest) {
  return std::to_string(least) + "-" + std::to_string(greatest);
}

}  // namespace

void TrainingRange::include(const Problem& p, int64_t sms) {
  if (empty()) {
    least = greatest = p;
    least_sms = greatest_sms = sms;
    return;
  }
  least = {std::min(least.m, p.m), std::min(least.n, p.n), std::min(least.k, p.k)};
  greatest = {std::max(greatest.m, p.m), std::max(greatest.n, p.n), std::max(greatest.k, p.k)};
  least_sms = std::min(least_sms, sms);
  greatest_sms = std::max(greatest_sms, sms);
}

bool TrainingRange::holds(const Problem& p) const {
  return p.m >= least.m && p.m <= greatest.m && p.n >= least.n && p.n <= greatest.n &&
         p.k >= least.k && p.k <= greatest.k;
}

std::string TrainingRange::text() const {
  return "M " + span(least.m, greatest.m) + ", N " + span(least.n, greatest.n) + ", K " +
         span(least.k, greatest.k) + " on " + span(least_sms, greatest_sms) + " SMs";
}

nlohmann::json TrainingRange::to_json() const {
  return {{"m", {least.m, greatest.m}},
          {"n", {least.n, greatest.n}},
          {"k", {least.k, greatest.k}},
          {"sms", {least_sms, greatest_sms}}};
}

TrainingRange TrainingRange::from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) {
    throw std::invalid_argument(where + ": \"training_range\" must be an object of " +
                                "[least, greatest] pairs");
  }
  for (const auto& [key, value] : j.items()) {
    if (std::find(std::begin(kDimensions), std::end(kDimensions), key) == std::end(kDimensions)) {
      throw std::invalid_argument(where + ": \"training_range\" has an unknown entry \"" + key +
                                  "\"");
    }
  }
  TrainingRange r;
  std::tie(r.least.m, r.greatest.m) = read_pair(j, "m", where);
  std::tie(r.least.n, r.greatest.n) = read_pair(j, "n", where);
  std::tie(r.least.k, r.greatest.k) = read_pair(j, "k", where);
  std::tie(r.least_sms, r.greatest_sms) = read_pair(j, "sms", where);
  return r;
}

}  // namespace lw

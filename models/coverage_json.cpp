// Coverage's model-file form ("coverage": the rules in words, the threshold, the bands, the
// points).
#include <stdexcept>

#include "models/coverage.hpp"

namespace lw {

namespace {

constexpr const char* kFeaturesText =
    "log2 m, log2 n, log2 k, log2 m*n*k of the distinct shapes, each divided by its standard "
    "deviation over them; plus the SM term: 0 inside the trained SM counts' span, outside it "
    "the log2 distance to its nearest end divided by the trained SM counts' log2 standard "
    "deviation";
constexpr const char* kThresholdText =
    "p99 of the distinct shapes' leave-one-out nearest-neighbour distances; a row whose distance "
    "(hypot of the shape and SM terms) exceeds it is extrapolated";
constexpr const char* kIntervalText =
    "p10-p90 of measured / predicted over the validation rows of the schedule's family (all: "
    "every row); an extrapolated row's band is widened in log space by distance / threshold";
constexpr size_t kPointFields = 4;  // m, n, k, sms

double number(const nlohmann::json& j, const char* key, const std::string& what) {
  if (!j.contains(key) || !j[key].is_number() || !(j[key].get<double>() >= 0)) {
    throw std::invalid_argument(what + " needs a non-negative number \"" + key + "\"");
  }
  return j[key].get<double>();
}

CoveragePoint read_point(const nlohmann::json& p, const std::string& what) {
  if (!p.is_array() || p.size() != kPointFields) {
    throw std::invalid_argument(what + ": each point must be [m, n, k, sms]");
  }
  for (const auto& v : p) {
    if (!v.is_number_integer() || v.get<int64_t>() < 1) {
      throw std::invalid_argument(what + ": each point must be [m, n, k, sms], integers >= 1");
    }
  }
  return {{p[0].get<int64_t>(), p[1].get<int64_t>(), p[2].get<int64_t>()}, p[3].get<int64_t>()};
}

}  // namespace

nlohmann::json Coverage::to_json() const {
  nlohmann::json bands = nlohmann::json::object();
  for (const auto& [family, b] : bands_) {
    bands[family] = {{"p10", b.low}, {"p90", b.high}, {"rows", b.rows}};
  }
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : points_) points.push_back({p.problem.m, p.problem.n, p.problem.k, p.sms});
  return {
      {"features", kFeaturesText}, {"threshold", threshold_}, {"threshold_rule", kThresholdText},
      {"interval", kIntervalText}, {"bands", bands},          {"points", points}};
}

Coverage Coverage::from_json(const nlohmann::json& j, const std::string& where) {
  const std::string what = where + ": \"coverage\"";
  if (!j.is_object() || !j.contains("points") || !j["points"].is_array() || !j.contains("bands") ||
      !j["bands"].is_object()) {
    throw std::invalid_argument(what + " must be an object with \"points\" and \"bands\"");
  }
  Coverage c;
  for (const auto& p : j["points"]) c.points_.push_back(read_point(p, what));
  c.threshold_ = number(j, "threshold", what);
  for (const auto& [family, b] : j["bands"].items()) {
    const std::string band = what + " band \"" + family + "\"";
    RatioBand r{number(b, "p10", band), number(b, "p90", band), 0};
    if (b.contains("rows") && b["rows"].is_number_integer()) r.rows = b["rows"].get<int64_t>();
    if (!(r.low > 0 && r.low <= r.high))
      throw std::invalid_argument(band + ": need 0 < p10 <= p90");
    c.bands_[family] = r;
  }
  c.index_points();
  if (c.shapes_.size() < 2) throw std::invalid_argument(what + " needs at least two shapes");
  return c;
}

}  // namespace lw

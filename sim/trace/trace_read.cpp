// Trace JSON -> TraceDoc, with one-line schema errors.
#include "sim/trace/trace_read.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/util/atomic_file.hpp"

namespace lw {

const std::vector<std::string>& trace_phase_names() {
  static const std::vector<std::string> names = {"mac", "store", "wait", "reduce", "epilogue"};
  return names;
}

namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw std::invalid_argument(origin + ": " + what);
}

// Times (ts, dur) beyond this magnitude are rejected: no run lasts 10^15 time units, and sums and
// differences of accepted times stay finite (an infinite span would never end the SVG axis).
constexpr double kMaxTime = 1e15;
// Integer fields (tid, m, n, k, sms) beyond 2^53 are rejected: the conversion to int64_t stays
// defined and exact.
constexpr double kMaxInteger = 9007199254740992.0;

double number(const nlohmann::json& obj, const char* key, const std::string& origin,
              const std::string& where) {
  if (!obj.contains(key) || !obj[key].is_number()) {
    fail(origin, where + ": missing or non-numeric '" + key + "'");
  }
  const double v = obj[key].get<double>();
  if (!std::isfinite(v)) fail(origin, where + ": '" + key + "' is not finite");
  return v;
}

double time_value(const nlohmann::json& obj, const char* key, const std::string& origin,
                  const std::string& where) {
  const double v = number(obj, key, origin, where);
  if (std::fabs(v) > kMaxTime) fail(origin, where + ": '" + key + "' is out of range");
  return v;
}

int64_t whole(const nlohmann::json& obj, const char* key, const std::string& origin,
              const std::string& where) {
  const double v = number(obj, key, origin, where);
  if (std::fabs(v) > kMaxInteger) fail(origin, where + ": '" + key + "' is out of range");
  return static_cast<int64_t>(v);
}

int64_t integer_arg(const nlohmann::json& args, const char* key, int64_t fallback) {
  return args.contains(key) && args[key].is_number_integer() ? args[key].get<int64_t>() : fallback;
}

TraceMeta read_meta(const nlohmann::json& j, const std::string& origin) {
  if (!j.contains("lastwave") || !j["lastwave"].is_object()) {
    fail(origin, "not a lastwave trace (no \"lastwave\" metadata object)");
  }
  const auto& m = j["lastwave"];
  TraceMeta meta;
  for (const char* key : {"source", "schedule", "time_unit"}) {
    if (!m.contains(key) || !m[key].is_string()) {
      fail(origin, std::string("lastwave metadata: missing string '") + key + "'");
    }
  }
  meta.source = m["source"].get<std::string>();
  if (meta.source != "sim" && meta.source != "hw") {
    fail(origin,
         "lastwave metadata: source must be \"sim\" or \"hw\", got \"" + meta.source + "\"");
  }
  meta.schedule = m["schedule"].get<std::string>();
  meta.time_unit = m["time_unit"].get<std::string>();
  meta.problem.m = whole(m, "m", origin, "lastwave metadata");
  meta.problem.n = whole(m, "n", origin, "lastwave metadata");
  meta.problem.k = whole(m, "k", origin, "lastwave metadata");
  meta.sms = whole(m, "sms", origin, "lastwave metadata");
  return meta;
}

}  // namespace

TraceDoc parse_trace(const std::string& text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    fail(origin, "not valid JSON");
  }
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array()) {
    fail(origin, "not a Chrome trace (no \"traceEvents\" array)");
  }
  TraceDoc doc;
  doc.meta = read_meta(j, origin);
  const auto& names = trace_phase_names();
  size_t index = 0;
  for (const auto& e : j["traceEvents"]) {
    const std::string where = "event " + std::to_string(index++);
    if (!e.is_object()) fail(origin, where + ": not an object");
    if (e.contains("ph") && e["ph"] == "M") continue;  // process/thread names
    if (!e.contains("ph") || e["ph"] != "X") fail(origin, where + ": expected \"ph\": \"X\"");
    if (!e.contains("name") || !e["name"].is_string()) fail(origin, where + ": missing 'name'");
    TracePhase ph;
    ph.name = e["name"].get<std::string>();
    if (std::find(names.begin(), names.end(), ph.name) == names.end()) {
      fail(origin, where + ": unknown phase '" + ph.name +
                       "' (expected mac, store, wait, reduce or epilogue)");
    }
    ph.sm = whole(e, "tid", origin, where);
    ph.ts = time_value(e, "ts", origin, where);
    ph.dur = time_value(e, "dur", origin, where);
    if (ph.sm < 0 || ph.dur < 0) fail(origin, where + ": negative tid or dur");
    if (e.contains("args") && e["args"].is_object()) {
      const auto& a = e["args"];
      ph.cta = integer_arg(a, "cta", -1);
      ph.tile = integer_arg(a, "tile", -1);
      ph.k_begin = integer_arg(a, "k_begin", 0);
      ph.k_end = integer_arg(a, "k_end", 0);
      if (a.contains("role") && a["role"].is_string()) ph.role = a["role"].get<std::string>();
    }
    doc.phases.push_back(ph);
  }
  return doc;
}

TraceDoc read_trace_file(const std::string& path) { return parse_trace(read_file(path), path); }

}  // namespace lw

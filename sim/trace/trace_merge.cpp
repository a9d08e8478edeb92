// Merging a hardware and a simulated trace into one Chrome-trace document.
#include "sim/trace/trace_merge.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace lw {

LoadedTrace load_trace(const std::string& text, const std::string& origin,
                       const std::string& expected_source) {
  LoadedTrace t;
  t.doc = parse_trace(text, origin);
  if (t.doc.meta.source != expected_source) {
    throw std::invalid_argument(origin + ": expected a trace with source \"" + expected_source +
                                "\", got \"" + t.doc.meta.source + "\"");
  }
  t.raw = nlohmann::json::parse(text);
  // Both executors start their clocks differently (the kernel at its first segment, the simulator
  // at the launch), so each timeline is shifted to start at its first segment.
  double t0 = 0;
  bool first = true;
  for (const auto& p : t.doc.phases) {
    t0 = first ? p.ts : std::min(t0, p.ts);
    first = false;
  }
  for (auto& p : t.doc.phases) p.ts -= t0;
  for (auto& e : t.raw["traceEvents"]) {
    if (e.contains("ph") && e["ph"] == "X") e["ts"] = e["ts"].get<double>() - t0;
  }
  return t;
}

namespace {

nlohmann::json meta_json(const TraceMeta& m) {
  return {{"source", m.source},      {"m", m.problem.m}, {"n", m.problem.n},
          {"k", m.problem.k},        {"sms", m.sms},     {"schedule", m.schedule},
          {"time_unit", m.time_unit}};
}

std::string process_label(const TraceMeta& m) {
  return m.source + ": " + m.schedule + " " + std::to_string(m.problem.m) + "x" +
         std::to_string(m.problem.n) + "x" + std::to_string(m.problem.k) + " on " +
         std::to_string(m.sms) + " SMs (" + m.time_unit + ", from the first segment)";
}

void append(nlohmann::json& events, const LoadedTrace& t, int pid) {
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", pid},
                    {"args", {{"name", process_label(t.doc.meta)}}}});
  events.push_back(
      {{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  std::set<int64_t> sms;
  for (const auto& p : t.doc.phases) sms.insert(p.sm);
  for (const int64_t sm : sms) {
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"tid", sm},
                      {"args", {{"name", "SM " + std::to_string(sm)}}}});
  }
  for (const auto& e : t.raw["traceEvents"]) {
    if (e.contains("ph") && e["ph"] == "M") continue;
    nlohmann::json copy = e;
    copy["pid"] = pid;
    events.push_back(std::move(copy));
  }
}

}  // namespace

nlohmann::json merge_traces(const LoadedTrace& hw, const LoadedTrace& sim) {
  nlohmann::json events = nlohmann::json::array();
  append(events, hw, kHwPid);
  append(events, sim, kSimPid);
  nlohmann::json doc;
  doc["traceEvents"] = std::move(events);
  doc["displayTimeUnit"] = "ns";
  doc["lastwave"] = {
      {"merged", true}, {"hw", meta_json(hw.doc.meta)}, {"sim", meta_json(sim.doc.meta)}};
  return doc;
}

}  // namespace lw

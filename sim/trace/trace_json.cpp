// Timeline -> Chrome-trace JSON.
#include "sim/trace/trace_json.hpp"

namespace lw {

const char* role_name(Role role) {
  switch (role) {
    case Role::Whole:
      return "whole";
    case Role::StorePartial:
      return "store_partial";
    case Role::Accumulate:
      return "accumulate";
    case Role::Final:
      return "final";
  }
  return "?";
}

namespace {

void add_phase(nlohmann::json& events, const char* name, double begin, double end,
               const SegmentRecord& r, const Plan& plan, int pid) {
  if (end <= begin) return;
  events.push_back({
      {"name", name},
      {"ph", "X"},
      {"pid", pid},
      {"tid", r.sm},
      {"ts", begin},
      {"dur", end - begin},
      {"args",
       {{"cta", r.cta},
        {"launch", r.launch},
        {"work_id", r.seg.work_id},
        {"tile", r.seg.tile},
        {"tile_m", tile_coord_m(plan, r.seg.tile)},
        {"tile_n", tile_coord_n(plan, r.seg.tile)},
        {"k_begin", r.seg.k_begin},
        {"k_end", r.seg.k_end},
        {"role", role_name(r.seg.role)}}},
  });
}

}  // namespace

nlohmann::json timeline_events(const std::vector<SegmentRecord>& timeline, const Plan& plan,
                               int pid) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& r : timeline) {
    add_phase(events, "mac", r.t_start, r.t_mac_end, r, plan, pid);
    switch (r.seg.role) {
      case Role::Whole:
        add_phase(events, "epilogue", r.t_fixup_end, r.t_end, r, plan, pid);
        break;
      case Role::StorePartial:
        add_phase(events, "store", r.t_mac_end, r.t_fixup_end, r, plan, pid);
        break;
      case Role::Accumulate:
        add_phase(events, "wait", r.t_mac_end, r.t_wait_end, r, plan, pid);
        add_phase(events, "reduce", r.t_wait_end, r.t_fixup_end, r, plan, pid);
        break;
      case Role::Final:
        add_phase(events, "wait", r.t_mac_end, r.t_wait_end, r, plan, pid);
        add_phase(events, "reduce", r.t_wait_end, r.t_fixup_end, r, plan, pid);
        add_phase(events, "epilogue", r.t_fixup_end, r.t_end, r, plan, pid);
        break;
    }
  }
  return events;
}

nlohmann::json trace_document(const std::vector<SegmentRecord>& timeline, const Plan& plan,
                              const TraceMeta& meta) {
  nlohmann::json doc;
  doc["traceEvents"] = timeline_events(timeline, plan, meta.source == "hw" ? 0 : 1);
  doc["displayTimeUnit"] = "ns";
  doc["lastwave"] = {
      {"source", meta.source},      {"m", meta.problem.m}, {"n", meta.problem.n},
      {"k", meta.problem.k},        {"sms", meta.sms},     {"schedule", meta.schedule},
      {"time_unit", meta.time_unit}};
  return doc;
}

}  // namespace lw

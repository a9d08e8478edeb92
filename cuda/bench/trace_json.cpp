// Chrome-trace JSON writer for kernel timelines (see trace_json.hpp).
#include "cuda/bench/trace_json.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace lw::bench {

namespace {
constexpr double kNsPerUs = 1000.0;
constexpr int kHardwarePid = 0;
}  // namespace

const char* role_name(Role r) {
  switch (r) {
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

nlohmann::json trace_to_json(const Plan& plan, const std::vector<TracedCta>& ctas,
                             const TraceMeta& meta) {
  uint64_t t0 = std::numeric_limits<uint64_t>::max();
  for (const auto& c : ctas)
    for (const auto& s : c.segments) t0 = std::min(t0, s.second.t_start);
  auto us = [t0](uint64_t t) { return static_cast<double>(t - t0) / kNsPerUs; };
  nlohmann::json events = nlohmann::json::array();
  for (const auto& c : ctas) {
    for (const auto& [seg, rec] : c.segments) {
      nlohmann::json args = {{"cta", c.cta},
                             {"work_id", seg.work_id},
                             {"tile", seg.tile},
                             {"tile_m", tile_coord_m(plan, seg.tile)},
                             {"tile_n", tile_coord_n(plan, seg.tile)},
                             {"k_begin", seg.k_begin},
                             {"k_end", seg.k_end},
                             {"role", role_name(seg.role)}};
      auto phase = [&](const char* name, uint64_t b, uint64_t e) {
        if (e < b) e = b;
        events.push_back({{"name", name},
                          {"ph", "X"},
                          {"pid", kHardwarePid},
                          {"tid", c.smid},
                          {"ts", us(b)},
                          {"dur", us(e) - us(b)},
                          {"args", args}});
      };
      if (seg.k_end > seg.k_begin) phase("mac", rec.t_start, rec.t_mac_end);
      switch (seg.role) {
        case Role::Whole:
          phase("epilogue", rec.t_fixup_end, rec.t_end);
          break;
        case Role::StorePartial:
          phase("store", rec.t_mac_end, rec.t_fixup_end);
          break;
        case Role::Accumulate:
          phase("wait", rec.t_mac_end, rec.t_wait_end);
          phase("reduce", rec.t_wait_end, rec.t_fixup_end);
          break;
        case Role::Final:
          phase("wait", rec.t_mac_end, rec.t_wait_end);
          phase("reduce", rec.t_wait_end, rec.t_fixup_end);
          phase("epilogue", rec.t_fixup_end, rec.t_end);
          break;
      }
    }
  }
  return {{"traceEvents", events},
          {"lastwave",
           {{"source", "hw"},
            {"m", meta.m},
            {"n", meta.n},
            {"k", meta.k},
            {"sms", meta.sms},
            {"schedule", meta.schedule},
            {"time_unit", "us"}}}};
}

void write_json_file(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f << j.dump() << "\n";
    if (!f) throw std::runtime_error("write failed: " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

}  // namespace lw::bench

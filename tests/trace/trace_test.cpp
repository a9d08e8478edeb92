// Trace merge and Gantt SVG on a tiny simulated / measured pair; schema errors are one line.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/trace/trace_merge.hpp"
#include "sim/trace/trace_svg.hpp"

namespace lw {

namespace {

constexpr int64_t kSms = 4;

// A 2x2-tile Stream-K run on 4 SMs under `model`, as a trace document from `source`.
std::string tiny_trace(const std::string& source, const std::string& model_name) {
  const Problem p{256, 256, 1024};
  const Plan plan =
      plan_schedule("streamk", p, TileShape{}, GpuShape{kSms, 1}, Reduction::Deterministic).plan;
  const GpuSpec gpu = gpu_with_sms(kSms, nullptr);
  const auto model = make_model(model_name, {}, gpu);
  SimOptions opt;
  opt.sms = kSms;
  opt.record_timeline = true;
  const SimResult r = simulate(plan, *model, opt);
  return trace_document(r.timeline, plan, TraceMeta{source, p, kSms, "streamk", "iter"}).dump();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("merge puts hw in pid 0 and sim in pid 1 with names, one track per SM") {
  const LoadedTrace hw = load_trace(tiny_trace("hw", "unit"), "hw.json", "hw");
  const LoadedTrace sim = load_trace(tiny_trace("sim", "unit"), "sim.json", "sim");
  const nlohmann::json merged = merge_traces(hw, sim);
  size_t hw_events = 0, sim_events = 0, process_names = 0, thread_names = 0;
  for (const auto& e : merged["traceEvents"]) {
    if (e["ph"] == "M") {
      process_names += e["name"] == "process_name" ? 1 : 0;
      thread_names += e["name"] == "thread_name" ? 1 : 0;
      continue;
    }
    (e["pid"] == kHwPid ? hw_events : sim_events) += 1;
    CHECK(e["tid"].get<int64_t>() < kSms);
  }
  CHECK(process_names == 2);
  CHECK(thread_names == 2 * kSms);
  CHECK(hw_events == hw.doc.phases.size());
  CHECK(sim_events == sim.doc.phases.size());
  CHECK(merged["lastwave"]["merged"] == true);

  const std::string svg = gantt_svg({{"hw", &hw.doc}, {"sim", &sim.doc}}, "tiny");
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  for (const char* phase : {"mac", "store", "wait", "reduce", "epilogue"}) {
    CHECK(svg.find(std::string(">") + phase + "<") != std::string::npos);  // legend
  }
  CHECK(count(svg, "SM 0<") == 2);  // one row label per panel
  CHECK(svg.find("time (iter)") != std::string::npos);
}

TEST_CASE("bad traces give one-line errors") {
  CHECK_THROWS_WITH_AS(load_trace("{", "x.json", "hw"), "x.json: not valid JSON",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(load_trace("{\"a\":1}", "x.json", "hw"),
                       "x.json: not a Chrome trace (no \"traceEvents\" array)",
                       std::invalid_argument);
  CHECK_THROWS_AS(load_trace(tiny_trace("sim", "unit"), "s.json", "hw"), std::invalid_argument);
  std::string bad = tiny_trace("hw", "unit");
  bad.replace(bad.find("\"mac\""), 5, "\"mix\"");
  CHECK_THROWS_AS(load_trace(bad, "b.json", "hw"), std::invalid_argument);
}

}  // namespace lw

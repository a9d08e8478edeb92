// Fuzz target: the trace reader and what `lastwave trace` does with a trace (sim/trace/): schema
// validation, time shift, sim/hw merge and the Gantt SVG.
#include "sim/trace/trace_merge.hpp"
#include "sim/trace/trace_read.hpp"
#include "sim/trace/trace_svg.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    const lw::TraceDoc doc = lw::parse_trace(text, "fuzz.json");
    const lw::LoadedTrace loaded = lw::load_trace(text, "fuzz.json", doc.meta.source);
    lw::merge_traces(loaded, loaded).dump();
    lw::gantt_svg({{"fuzz", &loaded.doc}}, "fuzz");
  });
  return 0;
}

// Gantt chart of traces as hand-written SVG: one panel per trace, one row per SM, phases in
// distinct colours, a legend and a time axis; readable in any browser without a trace viewer.
#pragma once
#include <string>
#include <vector>

#include "sim/trace/trace_read.hpp"

namespace lw {

struct GanttPanel {
  std::string title;
  const TraceDoc* trace = nullptr;
};

// Panels share one time axis when their time units agree, else each gets its own.
std::string gantt_svg(const std::vector<GanttPanel>& panels, const std::string& title);

}  // namespace lw

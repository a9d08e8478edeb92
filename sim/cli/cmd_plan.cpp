// `lastwave plan`: the plan itself, CTA by CTA in execution order.
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/trace/trace_json.hpp"

namespace lw::cli {

int cmd_plan(int argc, char** argv) {
  po::options_description desc("lastwave plan");
  desc.add_options()("help,h", "show this help")("schedule", po::value<std::string>(),
                                                 "one schedule name (see lastwave predict --help)")(
      "format", po::value<std::string>()->default_value("table"), "table|csv")(
      "out", po::value<std::string>(), "write to this file");
  add_plan_options(desc);
  add_gpu_options(desc);
  add_shape_options(desc, false);
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm,
                     "lastwave plan (--gpu NAME | --sms N) --m M --n N --k K --schedule NAME "
                     "[--format table|csv]")) {
    return 0;
  }
  const std::string format = format_from(vm, {"table", "csv"});
  if (!vm.count("schedule")) throw std::invalid_argument("give --schedule NAME");
  const std::string schedule = vm["schedule"].as<std::string>();
  if (schedule == "best") throw std::invalid_argument("'best' is not a plan; use lastwave predict");
  const GpuSpec gpu = gpu_from(vm);
  const Problem problem = shapes_from(vm).at(0);
  const Planned planned = plan_schedule(schedule, problem, tile_from(vm),
                                        GpuShape{gpu.sms, gpu.ctas_per_sm}, reduction_from(vm));
  const Plan& p = planned.plan;
  std::ostringstream o;
  if (format == "csv") {
    o << "launch,cta,seq,work_id,tile,tile_m,tile_n,k_begin,k_end,role,slot,load_slots,wait_value,"
         "signal\n";
  } else {
    o << schedule << " -> " << planned.choice_label() << ": " << p.tiles << " tiles (" << p.tiles_m
      << "x" << p.tiles_n << "), " << p.k_tiles << " k-tiles each, grid " << p.grid
      << (p.persistent ? " persistent" : "") << ", split tiles " << p.split_tiles << ", units "
      << p.split_units << ", groups " << p.groups << ", workspace slots " << p.workspace_slots
      << "\n";
  }
  const auto row = [&](int launch, int64_t cta, int64_t seq, const Segment& s) {
    if (format == "csv") {
      o << launch << ',' << cta << ',' << seq << ',' << s.work_id << ',' << s.tile << ','
        << tile_coord_m(p, s.tile) << ',' << tile_coord_n(p, s.tile) << ',' << s.k_begin << ','
        << s.k_end << ',' << role_name(s.role) << ',' << s.slot << ',' << s.load_slots << ','
        << s.wait_value << ',' << s.signal << "\n";
    } else {
      o << "  tile " << s.tile << " (" << tile_coord_m(p, s.tile) << "," << tile_coord_n(p, s.tile)
        << ") k " << s.k_begin << ".." << s.k_end << " " << role_name(s.role);
      if (s.role != Role::Whole) o << " slot " << s.slot;
      if (s.load_slots > 0) o << " loads " << s.load_slots;
      if (s.wait_value > 0) o << " waits>=" << s.wait_value;
      if (s.signal > 0) o << " signals+" << s.signal;
      o << "\n";
    }
  };
  for (int64_t cta = 0; cta < p.grid; ++cta) {
    if (format == "table") o << "CTA " << cta << ":\n";
    CtaWalk w;
    walk_begin(p, cta, w);
    Segment s;
    int64_t seq = 0;
    while (walk_next(p, w, s)) row(0, cta, seq++, s);
  }
  for (int64_t r = 0; r < reduction_grid(p); ++r) {
    if (format == "table") o << "reduction CTA " << r << ":\n";
    row(1, r, 0, reduction_segment(p, r));
  }
  emit(vm, o.str());
  return 0;
}

}  // namespace lw::cli

// `lastwave plan`: the plan itself, CTA by CTA in execution order.
#include <sstream>
#include <string>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "sim/api/plan_steps.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/trace/trace_json.hpp"

namespace lw::cli {

namespace {

// One segment of the table: tile, coordinates, k-range, role and its synchronisation.
void write_step(std::ostream& o, const Segment& s, int64_t tile_m, int64_t tile_n) {
  o << "  tile " << s.tile << " (" << tile_m << "," << tile_n << ") k " << s.k_begin << ".."
    << s.k_end << " " << role_name(s.role);
  if (s.role != Role::Whole) o << " slot " << s.slot;
  if (s.load_slots > 0) o << " loads " << s.load_slots;
  if (s.wait_value > 0) o << " waits>=" << s.wait_value;
  if (s.signal > 0) o << " signals+" << s.signal;
  o << "\n";
}

// The wgmma kernels' form for a plan on a tile they have (sim/decomp/kernel_configs.hpp):
// whole-tile (no split walk, no fix-up) or general, with the consumers'; a splitk-dsm plan's own
// form (its slots in the owner's shared memory, no workspace), or none where a CTA has no room
// for the partials.
std::string kernel_form_text(const Plan& p) {
  const std::string consumers = plan_runs_pingpong(p) ? "pingpong" : "cooperative";
  if (!p.cluster_reduce) {
    return std::string(plan_walks_whole_tiles(p) ? "whole-tile" : "general") + ", consumers " +
           consumers;
  }
  const std::string s = std::to_string(p.splits);
  if (!kernel_runs_cluster_reduce(p.tile, p.cluster, p.splits)) {
    const int64_t peers = p.splits - 1;
    return "none (the kernels run splitk-dsm:" + s + " only where a CTA holds " +
           std::to_string(peers) + (peers == 1 ? " partial" : " partials") + " beside its ring)";
  }
  return "splitk-dsm (clusters of " + s + " CTAs; the slots are the owner's shared memory, no " +
         "workspace), consumers " + consumers;
}

}  // namespace

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
  const Planned planned =
      plan_schedule(schedule, problem, tile_from(vm), gpu_shape(gpu), reduction_from(vm));
  const Plan& p = planned.plan;
  const std::vector<PlanStep> steps = plan_steps(p);
  if (format == "csv") {
    emit(vm, plan_csv(steps));
    return 0;
  }
  std::ostringstream o;
  o << schedule << " -> " << planned.choice_label() << ": " << p.tiles << " tiles (" << p.tiles_m
    << "x" << p.tiles_n << "), " << p.k_tiles << " k-tiles each, grid " << p.grid
    << (p.persistent ? " persistent" : "") << ", split tiles " << p.split_tiles << ", units "
    << p.split_units << ", groups " << p.groups << ", workspace slots " << p.workspace_slots;
  if (kernel_tile_index(p.tile) >= 0) o << ", kernel form " << kernel_form_text(p);
  o << "\n";
  size_t next = 0;  // steps come launch by launch, CTA by CTA
  const auto ctas = [&](int launch, int64_t count, const char* title) {
    for (int64_t cta = 0; cta < count; ++cta) {
      o << title << cta << ":\n";
      for (; next < steps.size() && steps[next].launch == launch && steps[next].cta == cta;
           ++next) {
        write_step(o, steps[next].segment, steps[next].tile_m, steps[next].tile_n);
      }
    }
  };
  ctas(0, p.grid, "CTA ");
  ctas(1, reduction_grid(p), "reduction CTA ");
  emit(vm, o.str());
  return 0;
}

}  // namespace lw::cli

// The values a CostModel reads and answers with (models/cost_model.hpp): the state the simulator
// passes (CostContext), what it must track for a plan (CostNeeds), the kinds of action and stretch.
#pragma once
#include <cstddef>
#include <cstdint>

#include "models/panel_lag.hpp"
#include "sim/decomp/walk.hpp"

namespace lw {

struct CostContext {
  int64_t sms = 0;       // SMs of the (partition of the) GPU
  int64_t busy_sms = 0;  // SMs executing (not idle, not only waiting) when the action starts
  // Distinct tile rows (A panels) and tile columns (B panels) among the segments in flight on
  // the GPU, this one included: the operand working set that L2 has to hold. 0 = unknown (the
  // simulator tracks them only when CostNeeds::working_set).
  int64_t active_tile_rows = 0;
  int64_t active_tile_cols = 0;
  // How far apart in K the tiles sharing a panel walk (one value per run, owned by the simulator;
  // set when CostNeeds::panel_lag, else null).
  const PanelLag* panel_lag = nullptr;
};

// What the simulator must track (and which stretches it applies) for a run of one plan: read once
// per run. Everything false: a fixed-cost model whose MAC loops take iters x iter_time at their
// start.
struct CostNeeds {
  // Processor sharing of the MAC loop: the simulator re-rates every loop in flight whenever the
  // busy-SM count (or, with working_set, the distinct tile rows or columns in flight) changes;
  // each loop progresses at 1 / iter_time(now) iterations per time unit, so a loop that started in
  // a full wave speeds up when the wave's tail leaves. iter_time must then not depend on anything
  // else that changes during a simulation.
  bool shared_rate = false;
  bool working_set = false;  // fill CostContext::active_tile_rows/cols
  // Fill CostContext::panel_lag. A model that asks for it must not read the working set for a plan
  // whose lag is known (the simulator does not track it there).
  bool panel_lag = false;
  bool sm_spread = false;        // ask stretch(Stretch::SmSpread) once per SM
  bool segment_stretch = false;  // ask stretch(Stretch::Segment) per segment
  bool clock = false;            // ask stretch(Stretch::Clock) per MAC loop start
  // The share of a whole tile's epilogue that runs beside the CTA's next MAC loop, in [0, 1]: the
  // kernels' ping-pong consumers (plan_runs_pingpong, sim/decomp/kernel_configs.hpp) take the
  // CTA's segments in turn, so one's epilogue runs while the other multiplies. The next loop
  // starts after the rest of the epilogue, once its own consumer has finished its last epilogue;
  // the CTA's epilogues run one at a time (one SM's path to memory), and the CTA exits when the
  // last has ended. 0: a CTA's segments run one after another.
  double epilogue_overlap = 0;
};

// The actions at a segment's end (or inside a fixup) that move a tile.
enum class Transfer : int32_t {
  Epilogue,          // writing the finished tile to C
  PartialStore,      // storing one fp32 partial tile to the workspace
  PartialLoad,       // loading one fp32 partial tile and adding it to the accumulators
  PartialAccumulate  // adding an accumulator tile into a workspace slot in place
};
constexpr size_t kTransfers = 4;  // the kinds above, numbered from 0
// The transfer's name in messages ("epilogue", "partial_store", ...).
constexpr const char* transfer_name(Transfer t) {
  switch (t) {
    case Transfer::Epilogue:
      return "epilogue";
    case Transfer::PartialStore:
      return "partial_store";
    case Transfer::PartialLoad:
      return "partial_load";
    case Transfer::PartialAccumulate:
      return "partial_accumulate";
  }
  return "transfer";
}

// The costs that do not depend on a segment: one answer per plan.
struct FixedCosts {
  double flag_latency = 0;     // between a flag being raised and a spinning waiter seeing it
  double cta_prologue = 0;     // a CTA's start-up before its first MAC iteration
  double launch_overhead = 0;  // host overhead of one kernel launch (charged before each)
  // The staging copy's launch before the GEMM's first (plan_stages_operands; 0 without one).
  double staging = 0;
  // One L2 round trip of a Final owner's batched slot loads, charged final_load_rounds times
  // beside the per-slot PartialLoad (sim/decomp/kernel_configs.hpp; 0: the loads' cost only).
  double load_round = 0;
};

// The stretches of a MAC loop beyond iters x iter_time, asked only when the CostNeeds flag says.
enum class Stretch : int32_t {
  // The spread of the SMs' speeds: a loop on SM `sm` (a cluster slot for a cluster plan) of a run
  // on context.sms SMs while a share u of them is busy takes 1 + spread x u times as long (the
  // answer is the spread, >= 0). Asked once per SM and kept for the model's next runs on as many
  // SMs: it must depend on sm and context.sms only, and not change over the model's life (id()).
  SmSpread,
  // A stretch of one segment's loop (>= 1), on top of the spread: a tile whose loads are slower
  // than the plan's average. Reads `segment`.
  Segment,
  // The clock under a power limit (>= 1), on top of the stretches above: a loop that starts `t`
  // after the run began, in `context`, whose iterations take `iter` there (the simulator's cached
  // iter_time).
  Clock
};

// Where and when a MAC loop starts: what a stretch reads (each kind names its fields).
struct LoopStart {
  int64_t sm = 0;
  const Segment* segment = nullptr;
  CostContext context = CostContext{};
  double t = 0;
  double iter = 0;
};

// What `best` may assume to skip a candidate without simulating it (sim/predict/best.hpp).
struct LoadBound {
  // No cost can fall below its value at busy_sms = 1 and a working set of one tile row and column
  // (every load term is nondecreasing): a candidate whose least possible total work already
  // exceeds the best makespan found is skipped (exact).
  bool costs_grow = false;
  // A lower bound on iter_time(p, c) over every context c with the asked busy SMs (any working
  // set, panel gaps), before the stretches (which only lengthen a loop). A model that answers > 0
  // promises that it is nondecreasing in busy_sms and busy_sms / least_iter_time is too (more busy
  // SMs never lower the chip's iteration throughput). 0: no bound.
  double least_iter_time = 0;
};

}  // namespace lw

// Host-side planners: each turns (problem, tile, gpu, options) into a Plan, plus the heuristic
// choice it made. Invalid inputs throw std::invalid_argument with a one-line message.
#pragma once
#include <cstdint>
#include <string>

#include "sim/decomp/plan.hpp"

namespace lw {

enum class Reduction { Deterministic, Atomic };

// What a heuristic picked, in CUTLASS's vocabulary.
enum class Choice { DataParallel, SplitK, StreamK };

struct Planned {
  Plan plan;
  Choice choice = Choice::DataParallel;
  int64_t splits = 1;  // SplitK choice: splits per tile
  // "DataParallel", "SplitK(s=4)", "StreamK"
  std::string choice_label() const;
};

// The reduction a plan performs: Atomic only when split tiles add their partials atomically
// (FixupStorage::InPlaceAtomic); slots, the turnstile and plans without split tiles are
// deterministic. Rows report this, not the requested reduction, which some planners ignore
// (cutlass-seed, dp, splitk-sep).
Reduction plan_reduction(const Plan& plan);
const char* reduction_name(Reduction reduction);  // "deterministic" | "atomic"

// The plan facts every result row reports, simulated (lastwave) or measured (lastwave-bench).
struct PlanSummary {
  std::string choice;     // what the heuristic picked (Planned::choice_label)
  std::string reduction;  // what the plan does: reduction_name(plan_reduction(plan))
  int64_t splits = 1;     // FixedSplit: units per tile
  int64_t grid = 0;       // CTAs launched
  int64_t tiles = 0;      // output tiles
  int64_t k_tiles = 0;    // MAC iterations per tile
  int64_t sk_tiles = 0;   // tiles in the split region
  int64_t sk_units = 0;   // work units covering them
};
PlanSummary plan_summary(const Planned& planned);

// Validates shapes (dims >= 1, no overflow of m*n*k) and fills the plan's geometry.
Plan plan_geometry(const Problem& problem, const TileShape& tile, const GpuShape& gpu);

// One CTA per tile; `persistent` launches min(tiles, resident CTAs) CTAs striding over tiles.
Planned plan_data_parallel(const Problem&, const TileShape&, const GpuShape&, bool persistent);

// `splits` CTAs per tile (clamped to Kt), final split reduces in-kernel; or all splits store
// and a second launch reduces (`separate_reduction`).
Planned plan_split_k(const Problem&, const TileShape&, const GpuShape&, int64_t splits,
                     Reduction reduction, bool separate_reduction);

// plan_split_k (deterministic) whose tiles' `splits` (<= kMaxClusterCtas) CTAs form one cluster
// and reduce through the owner's shared memory (Plan::cluster_reduce).
Planned plan_split_k_cluster(const Problem&, const TileShape&, const GpuShape&, int64_t splits);

// Paper / seed Stream-K: `units` persistent CTAs (>= 1, or kOneUnitPerSm) over all tiles, even
// ranges, forward walk, the k=0 owner waits for its peers and runs the epilogue.
constexpr int64_t kOneUnitPerSm = 0;
Planned plan_stream_k(const Problem&, const TileShape&, const GpuShape&, int64_t units,
                      Reduction reduction);

// CUTLASS SM90 StreamKScheduler (1x1 cluster, swizzle 1). `forced` = DataParallel/SplitK/StreamK
// mode, or Heuristic when `heuristic` is true. `splits` > 1 requests split-K as CUTLASS does.
enum class CutlassMode { Heuristic, DataParallel, SplitK, StreamK };
Planned plan_cutlass(const Problem&, const TileShape&, const GpuShape&, CutlassMode mode,
                     int64_t splits, Reduction reduction);

// The seed's simplified port (cutlass_heuristic + hybrid in schedule_sim.py).
Planned plan_cutlass_seed(const Problem&, const TileShape&, const GpuShape&);

// Paper section 5.2 "two-tile Stream-K + data-parallel".
Planned plan_two_tile(const Problem&, const TileShape&, const GpuShape&, Reduction reduction);

}  // namespace lw

// Shape validation and the plan geometry shared by every planner; the plan facts rows report.
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/decomp/planners/planners.hpp"

namespace lw {

namespace {

void require_positive(int64_t v, const char* what) {
  if (v < 1)
    throw std::invalid_argument(std::string(what) + " must be >= 1, got " + std::to_string(v));
}

// Tile dimensions beyond this are rejected: far above any GPU tile, and it keeps products of
// tile dimensions (tile elements, bytes per k-step) well inside int64_t.
constexpr int64_t kMaxTileDim = int64_t{1} << 20;

void require_tile_dim(int64_t v, const char* what) {
  require_positive(v, what);
  if (v > kMaxTileDim) {
    throw std::invalid_argument(std::string(what) + " must be <= " + std::to_string(kMaxTileDim) +
                                ", got " + std::to_string(v));
  }
}

// ceil(extent / tile) for positive values, without the overflow of ceil_div's a + b - 1.
int64_t tiles_along(int64_t extent, int64_t tile) { return 1 + (extent - 1) / tile; }

}  // namespace

std::string Planned::choice_label() const {
  switch (choice) {
    case Choice::DataParallel:
      return "DataParallel";
    case Choice::SplitK:
      return "SplitK(s=" + std::to_string(splits) + ")";
    case Choice::StreamK:
      return "StreamK";
  }
  return "?";
}

Reduction plan_reduction(const Plan& plan) {
  const bool atomic = plan.split_tiles > 0 && plan.storage == FixupStorage::InPlaceAtomic;
  return atomic ? Reduction::Atomic : Reduction::Deterministic;
}

const char* reduction_name(Reduction reduction) {
  return reduction == Reduction::Atomic ? "atomic" : "deterministic";
}

PlanSummary plan_summary(const Planned& planned) {
  const Plan& p = planned.plan;
  return PlanSummary{planned.choice_label(),
                     reduction_name(plan_reduction(p)),
                     p.splits,
                     p.grid,
                     p.tiles,
                     p.k_tiles,
                     p.split_tiles,
                     p.split_units};
}

Plan plan_geometry(const Problem& problem, const TileShape& tile, const GpuShape& gpu) {
  require_positive(problem.m, "m");
  require_positive(problem.n, "n");
  require_positive(problem.k, "k");
  require_tile_dim(tile.m, "tile m");
  require_tile_dim(tile.n, "tile n");
  require_tile_dim(tile.k, "tile k");
  require_positive(gpu.sms, "SM count");
  require_positive(gpu.ctas_per_sm, "CTAs per SM");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (problem.m > kMax / problem.n || problem.m * problem.n > kMax / problem.k) {
    throw std::invalid_argument("problem " + std::to_string(problem.m) + "x" +
                                std::to_string(problem.n) + "x" + std::to_string(problem.k) +
                                " overflows: m*n*k exceeds 2^63");
  }
  constexpr int64_t kMaxIndex = std::numeric_limits<int32_t>::max();
  Plan p;
  p.problem = problem;
  p.tile = tile;
  p.tiles_m = tiles_along(problem.m, tile.m);
  p.tiles_n = tiles_along(problem.n, tile.n);
  p.k_tiles = tiles_along(problem.k, tile.k);
  if (p.tiles_m > kMaxIndex / p.tiles_n || p.tiles_m * p.tiles_n > kMaxIndex / p.k_tiles) {
    throw std::invalid_argument("problem has more than 2^31 (tile, k) iterations");
  }
  p.tiles = p.tiles_m * p.tiles_n;
  p.raster = p.tiles_n > p.tiles_m ? Raster::AlongM : Raster::AlongN;
  return p;
}

}  // namespace lw

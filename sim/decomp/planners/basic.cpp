// Planners for data-parallel, Split-K, the paper's Stream-K and its two-tile hybrid.
#include <stdexcept>
#include <string>

#include "sim/decomp/planners/planners.hpp"

namespace lw {

namespace {

int64_t resident_ctas(const GpuShape& gpu) { return gpu.sms * gpu.ctas_per_sm; }

// Configures the split region of `p` as paper Stream-K over its first `split_tiles` tiles.
void set_even_stream(Plan& p, int64_t split_tiles, int64_t units, Reduction reduction) {
  p.split_mode = SplitMode::EvenStream;
  p.split_tiles = split_tiles;
  p.split_units = units;
  p.walk = WalkOrder::Forward;
  p.owner = FixupOwner::FirstK;
  if (reduction == Reduction::Deterministic) {
    p.storage = FixupStorage::Slots;
    p.workspace_slots = units;
  } else {
    p.storage = FixupStorage::InPlaceAtomic;
    p.workspace_slots = split_tiles;
  }
}

}  // namespace

Planned plan_data_parallel(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                           bool persistent) {
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  p.work_units = p.tiles;
  p.persistent = persistent;
  p.grid = persistent ? min64(p.tiles, resident_ctas(gpu)) : p.tiles;
  return r;
}

Planned plan_split_k(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                     int64_t splits, Reduction reduction, bool separate_reduction) {
  if (splits < 1)
    throw std::invalid_argument("split count must be >= 1, got " + std::to_string(splits));
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  p.splits = min64(splits, p.k_tiles);
  r.choice = p.splits > 1 ? Choice::SplitK : Choice::DataParallel;
  r.splits = p.splits;
  p.split_mode = SplitMode::FixedSplit;
  p.split_tiles = p.tiles;
  p.split_units = p.tiles * p.splits;
  p.work_units = p.split_units;
  p.grid = p.work_units;
  p.walk = WalkOrder::Forward;
  p.owner = FixupOwner::LastK;
  p.separate_reduction = separate_reduction && p.splits > 1;
  if (p.separate_reduction) {
    p.storage = FixupStorage::Slots;
    p.workspace_slots = p.tiles * p.splits;
  } else if (reduction == Reduction::Deterministic) {
    p.storage = FixupStorage::Slots;
    p.workspace_slots = p.tiles * (p.splits - 1);
  } else {
    p.storage = FixupStorage::InPlaceAtomic;
    p.workspace_slots = p.splits > 1 ? p.tiles : 0;
  }
  return r;
}

Planned plan_split_k_cluster(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                             int64_t splits) {
  if (splits > kMaxClusterCtas) {
    throw std::invalid_argument("splitk-dsm: a tile's splits are one cluster, at most " +
                                std::to_string(kMaxClusterCtas) + " CTAs; got " +
                                std::to_string(splits));
  }
  Planned r = plan_split_k(problem, tile, gpu, splits, Reduction::Deterministic, false);
  r.plan.cluster_reduce = r.plan.splits > 1;
  return r;
}

Planned plan_stream_k(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                      int64_t units, Reduction reduction) {
  if (units < 1 && units != kOneUnitPerSm) {
    throw std::invalid_argument("Stream-K unit count must be >= 1 (or " +
                                std::to_string(kOneUnitPerSm) + ": one per SM), got " +
                                std::to_string(units));
  }
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  const int64_t g = units == kOneUnitPerSm ? gpu.sms : units;
  set_even_stream(p, p.tiles, g, reduction);
  p.work_units = g;
  p.grid = g;
  p.persistent = true;
  r.choice = Choice::StreamK;
  return r;
}

Planned plan_two_tile(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                      Reduction reduction) {
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  const int64_t g = gpu.sms;
  if (p.tiles % g == 0) {  // no quantization loss: plain data-parallel waves
    return plan_data_parallel(problem, tile, gpu, false);
  }
  // Stream-K covers the partial wave plus one full wave (each CTA gets one to two tiles of
  // iterations) and runs first; the remaining full waves are data-parallel.
  const int64_t sk_tiles = p.tiles < 2 * g ? p.tiles : g + p.tiles % g;
  set_even_stream(p, sk_tiles, g, reduction);
  p.work_units = g + (p.tiles - sk_tiles);
  p.grid = g;
  p.persistent = true;
  r.choice = Choice::StreamK;
  return r;
}

}  // namespace lw

// CUTLASS SM90 StreamKScheduler decisions (tile_scheduler_params.h, 1x1 cluster, swizzle 1), rule
// for rule as in shared/reference/cutlass-streamk.md, and the seed's simplified port of them.
#include "sim/decomp/planners/planners.hpp"

namespace lw {

namespace {

// min_iters_per_sk_unit_: no stream-K unit (or split piece) gets fewer k-tiles than this.
constexpr int64_t kCutlassMinItersPerSkUnit = 8;
// max_sk_groups_: stream-K units are split into at most this many groups (L2 locality).
constexpr int64_t kCutlassMaxSkGroups = 8;

// get_num_sk_tiles: the tail wave plus the last full wave become stream-K, unless the tail is
// at least half full (Heuristic only), there is no tail, or Kt is too short to split.
int64_t cutlass_sk_tiles(int64_t tiles, int64_t ctas_per_wave, int64_t k_tiles, CutlassMode mode) {
  if (mode == CutlassMode::DataParallel || mode == CutlassMode::SplitK) return 0;
  const int64_t full_waves = tiles / ctas_per_wave;
  const int64_t total_waves = ceil_div(tiles, ctas_per_wave);
  const int64_t dp_waves = full_waves > 1 ? full_waves - 1 : 0;
  const int64_t sk_tiles = tiles - dp_waves * ctas_per_wave;
  if (full_waves == total_waves || k_tiles <= kCutlassMinItersPerSkUnit) return 0;
  if (mode == CutlassMode::Heuristic) {
    const int64_t tail = tiles - full_waves * ctas_per_wave;
    if (2 * tail >= ctas_per_wave) return 0;
  }
  return sk_tiles;
}

// get_num_sk_units: one wave of units, fewer if that would leave < 8 k-tiles per unit.
int64_t cutlass_sk_units(int64_t ctas_per_wave, int64_t sk_tiles, int64_t k_tiles) {
  return min64(ctas_per_wave, (k_tiles * sk_tiles) / kCutlassMinItersPerSkUnit);
}

// calculate_groups: the largest g <= min(raster extent, 8) dividing units and tiles with >= 8
// k-tiles per unit; else the largest g dividing units with >= 8 k-tiles per unit; else 1.
int64_t cutlass_groups(const Plan& p, int64_t sk_tiles, int64_t sk_units) {
  const int64_t extent = p.raster == Raster::AlongM ? p.tiles_m : p.tiles_n;
  int64_t groups = min64(extent, kCutlassMaxSkGroups);
  const auto too_small = [&](int64_t g) {
    return ((sk_tiles / g) * p.k_tiles) / (sk_units / g) < kCutlassMinItersPerSkUnit;
  };
  const auto ideal = [&](int64_t g) {
    return sk_units % g == 0 && sk_tiles % g == 0 && !too_small(g);
  };
  const auto valid = [&](int64_t g) { return sk_units % g == 0 && !too_small(g); };
  int64_t fallback = 0;
  while (groups > 1 && !ideal(groups)) {
    if (fallback == 0 && valid(groups)) fallback = groups;
    --groups;
  }
  if (groups == 1 && fallback > 0) groups = fallback;
  return groups;
}

FixupStorage in_place(Reduction reduction) {
  return reduction == Reduction::Deterministic ? FixupStorage::InPlaceTurnstile
                                               : FixupStorage::InPlaceAtomic;
}

// Persistent data-parallel over a grid of ctas_per_wave CTAs (CUTLASS never shrinks its grid).
void set_persistent_dp(Plan& p, int64_t ctas_per_wave) {
  p.split_mode = SplitMode::None;
  p.work_units = p.tiles;
  p.grid = ctas_per_wave;
  p.persistent = true;
}

// Basic split-K over all tiles, split-major ids, final (last-k) split reduces in place.
void set_cutlass_split_k(Plan& p, int64_t splits, int64_t ctas_per_wave, Reduction reduction) {
  p.split_mode = SplitMode::FixedSplit;
  p.splits = splits;
  p.split_tiles = p.tiles;
  p.split_units = p.tiles * splits;
  p.work_units = p.split_units;
  p.grid = ctas_per_wave;
  p.persistent = true;
  p.walk = WalkOrder::Reverse;
  p.owner = FixupOwner::LastK;
  p.storage = in_place(reduction);
  p.workspace_slots = p.tiles;
}

}  // namespace

Planned plan_cutlass(const Problem& problem, const TileShape& tile, const GpuShape& gpu,
                     CutlassMode mode, int64_t splits, Reduction reduction) {
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  const int64_t ctas_per_wave = gpu.sms;  // 1x1 cluster: grid = sm_count
  p.min_piece = kCutlassMinItersPerSkUnit;
  if (mode == CutlassMode::SplitK || (mode == CutlassMode::Heuristic && splits > 1)) {
    const int64_t s = min64(min64(splits, gpu.sms), p.k_tiles);  // adjust_split_count
    if (s <= 1) {
      set_persistent_dp(p, ctas_per_wave);
      return r;
    }
    set_cutlass_split_k(p, s, ctas_per_wave, reduction);
    r.choice = Choice::SplitK;
    r.splits = s;
    return r;
  }
  const int64_t sk_tiles = cutlass_sk_tiles(p.tiles, ctas_per_wave, p.k_tiles, mode);
  const int64_t sk_units = cutlass_sk_units(ctas_per_wave, sk_tiles, p.k_tiles);
  if (mode == CutlassMode::DataParallel || sk_tiles == 0 || sk_units == 0) {
    set_persistent_dp(p, ctas_per_wave);
    return r;
  }
  if (mode == CutlassMode::Heuristic && sk_tiles < sk_units && sk_units % sk_tiles == 0) {
    set_cutlass_split_k(p, sk_units / sk_tiles, ctas_per_wave, reduction);
    r.choice = Choice::SplitK;
    r.splits = p.splits;
    return r;
  }
  p.split_mode = SplitMode::CutlassStream;
  p.split_tiles = sk_tiles;
  p.split_units = sk_units;
  p.groups = cutlass_groups(p, sk_tiles, sk_units);
  p.big_groups = sk_tiles % p.groups;
  p.walk = WalkOrder::Reverse;
  p.owner = FixupOwner::LastK;
  p.storage = in_place(reduction);
  p.workspace_slots = sk_tiles;
  p.work_units = sk_units + (p.tiles - sk_tiles);
  p.grid = ctas_per_wave;
  p.persistent = true;
  r.choice = Choice::StreamK;
  return r;
}

Planned plan_cutlass_seed(const Problem& problem, const TileShape& tile, const GpuShape& gpu) {
  Planned r;
  Plan& p = r.plan;
  p = plan_geometry(problem, tile, gpu);
  const int64_t sms = gpu.sms;
  const int64_t full_waves = p.tiles / sms;
  const int64_t total_waves = ceil_div(p.tiles, sms);
  const int64_t tail = p.tiles - full_waves * sms;
  if (full_waves == total_waves || p.k_tiles <= kCutlassMinItersPerSkUnit || 2 * tail >= sms) {
    return plan_data_parallel(problem, tile, gpu, false);
  }
  const int64_t dp_waves = full_waves > 1 ? full_waves - 1 : 0;
  const int64_t sk_tiles = p.tiles - dp_waves * sms;
  const int64_t sk_units = min64(sms, (p.k_tiles * sk_tiles) / kCutlassMinItersPerSkUnit);
  if (sk_tiles < sk_units && sk_units % sk_tiles == 0) {
    r.choice = Choice::SplitK;
    r.splits = sk_units / sk_tiles;
  } else {
    r.choice = Choice::StreamK;
  }
  // The seed runs both choices through its paper Stream-K over sk_units units, then DP waves.
  p.split_mode = SplitMode::EvenStream;
  p.split_tiles = sk_tiles;
  p.split_units = sk_units;
  p.walk = WalkOrder::Forward;
  p.owner = FixupOwner::FirstK;
  p.storage = FixupStorage::Slots;
  p.workspace_slots = sk_units;
  p.work_units = sk_units + (p.tiles - sk_tiles);
  p.grid = sms;
  p.persistent = true;
  return r;
}

}  // namespace lw

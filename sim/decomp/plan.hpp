// Plan: one plain struct that describes every decomposition (DP, Split-K, Stream-K, hybrids).
// Planners (sim/decomp/planners) fill it on the host; walk.hpp turns it into per-CTA segments
// identically in the simulator and in the CUDA kernels.
#pragma once
#include <cstdint>

#include "sim/decomp/types.hpp"

namespace lw {

// How the split region [0, split_tiles) of the tile space is cut into work units.
enum class SplitMode : int32_t {
  None = 0,       // no split region: every work id is a whole data-parallel tile
  FixedSplit,     // `splits` units per tile, split-major ids (CUTLASS split-K mapping)
  EvenStream,     // paper Stream-K: units own equal contiguous ranges (first total%units get +1)
  CutlassStream,  // CUTLASS SM90: groups, big groups, big units, +-min_piece boundary snapping
};

// Order in which a Stream-K unit visits the tiles its k-range touches.
enum class WalkOrder : int32_t { Forward = 0, Reverse };

// Which contributor of a split tile waits for its peers, reduces and runs the epilogue.
enum class FixupOwner : int32_t { FirstK = 0, LastK };

// Where partial accumulators go and how they are combined.
enum class FixupStorage : int32_t {
  Slots = 0,         // each non-owner stores to its own slot; owner loads all slots in k order
  InPlaceTurnstile,  // one slot per tile; peers add in k order (CUTLASS Deterministic)
  InPlaceAtomic,  // one slot per tile; first peer stores, others atomically add (Nondeterministic)
};

// Tile-id -> (tile_m, tile_n) rasterization (CUTLASS naming: AlongN = n fastest).
enum class Raster : int32_t { AlongN = 0, AlongM };

// Widest tile swizzle a plan takes (CUTLASS offers up to 8; wider bands only serve experiments).
inline constexpr int32_t kMaxSwizzle = 64;

struct Plan {
  // Geometry. With a cluster larger than 1x1, every "tile" below (tiles_m, tiles, split_tiles,
  // grid, units, slots) is a CLUSTER tile of cluster.m x cluster.n CTA tiles of shape `tile`; the
  // cluster's CTAs walk the same segments, each on its own CTA tile (cta_tile_m / cta_tile_n) with
  // its own workspace slot (cta_slot).
  Problem problem;
  TileShape tile;  // the CTA tile
  ClusterShape cluster;
  int64_t tiles_m = 0;
  int64_t tiles_n = 0;
  int64_t tiles = 0;    // tiles_m * tiles_n
  int64_t k_tiles = 0;  // MAC-loop iterations per tile (Kt)
  Raster raster = Raster::AlongN;
  // Tile swizzle (CUTLASS's max_swizzle_size): tile ids run through bands of `swizzle` tile rows
  // (AlongN) or columns (AlongM), each band column by column (row by row), so a wave of W tiles
  // covers about swizzle x W / swizzle tiles instead of one long strip. 1: plain raster.
  int32_t swizzle = 1;  // 1 ... kMaxSwizzle

  // Launch. CTA c processes work ids c, c + grid, c + 2*grid, ... below work_units.
  int64_t grid = 0;
  int64_t work_units = 0;  // split units + data-parallel tiles
  bool persistent =
      false;  // grid < work_units on purpose; CTAs must all be co-resident if they wait

  // Split region: tiles [0, split_tiles) are cut into split_units units; tiles
  // [split_tiles, tiles) are whole data-parallel tiles with work ids split_units + (tile -
  // split_tiles).
  SplitMode split_mode = SplitMode::None;
  int64_t split_tiles = 0;
  int64_t split_units = 0;
  int64_t splits = 1;      // FixedSplit: units per tile
  int64_t groups = 1;      // CutlassStream: unit groups (tiles interleave mod groups)
  int64_t big_groups = 0;  // CutlassStream: groups [0, big_groups) own one extra tile
  int64_t min_piece = 8;   // CutlassStream: min k-tiles of a split piece (min_iters_per_sk_unit_)
  WalkOrder walk = WalkOrder::Forward;
  FixupOwner owner = FixupOwner::LastK;
  FixupStorage storage = FixupStorage::Slots;

  // Separate reduction: after the main launch, a second launch of split_tiles CTAs each loads
  // all `splits` slots of one tile and runs its epilogue (Split-K with a reduction pass).
  bool separate_reduction = false;

  // Split-K in distributed shared memory (FixedSplit, Slots, every tile split, not persistent):
  // the `splits` units of a tile are one launch cluster (a grid of split_tiles x splits CTAs in
  // clusters of 1 x splits, so CTA x + y * split_tiles still walks unit x + y * split_tiles), and
  // each non-owner writes its slot into the owner's shared memory instead of the workspace; the
  // owner adds them in k order as from workspace slots (cuda/kernel/cluster_reduce.cuh).
  bool cluster_reduce = false;

  // Workspace: partial-tile slots (cluster size x tile.m x tile.n fp32 each) and int32 flags (one
  // per CTA slot).
  int64_t workspace_slots = 0;
};

// Field-by-field plan equality (host only): decompositions often coincide (two-tile is Stream-K
// below two waves of tiles, cutlass often picks dp), and an identical plan simulates identically.
inline bool same_plan(const Plan& a, const Plan& b) {
  static_assert(sizeof(Plan) == 200, "Plan changed: compare the new field here");
  auto dims = [](const auto& x, const auto& y) { return x.m == y.m && x.n == y.n; };
  return dims(a.problem, b.problem) && a.problem.k == b.problem.k && dims(a.tile, b.tile) &&
         a.tile.k == b.tile.k && dims(a.cluster, b.cluster) && a.tiles_m == b.tiles_m &&
         a.tiles_n == b.tiles_n && a.tiles == b.tiles && a.k_tiles == b.k_tiles &&
         a.raster == b.raster && a.swizzle == b.swizzle && a.grid == b.grid &&
         a.work_units == b.work_units && a.persistent == b.persistent &&
         a.split_mode == b.split_mode && a.split_tiles == b.split_tiles &&
         a.split_units == b.split_units && a.splits == b.splits && a.groups == b.groups &&
         a.big_groups == b.big_groups && a.min_piece == b.min_piece && a.walk == b.walk &&
         a.owner == b.owner && a.storage == b.storage &&
         a.separate_reduction == b.separate_reduction && a.cluster_reduce == b.cluster_reduce &&
         a.workspace_slots == b.workspace_slots;
}

// Tile index -> tile coordinates (in tiles). Under AlongN with swizzle S, tile ids come in bands
// of S tile rows (the last band may hold fewer), each walked column by column, row fastest;
// AlongM is the same with rows and columns exchanged. S = 1 is the plain raster.
struct TileCoord {
  int64_t m = 0;
  int64_t n = 0;
};
// Tile ids and extents stay below 2^31 (make_geometry refuses more (tile, k) iterations), so the
// divisions run in 32 bits: the kernels do this once per segment on their critical path.
LW_HD TileCoord tile_coord(const Plan& p, int64_t tile) {
  const bool along_n = p.raster == Raster::AlongN;
  const auto across = static_cast<uint32_t>(along_n ? p.tiles_m : p.tiles_n);  // bands cut this
  const auto along = static_cast<uint32_t>(along_n ? p.tiles_n : p.tiles_m);   // a band walks this
  const auto t = static_cast<uint32_t>(tile);
  uint32_t a = t / along, b = t % along;  // plain raster
  if (p.swizzle > 1) {
    const auto width_max = static_cast<uint32_t>(p.swizzle);
    const uint32_t band = t / (width_max * along), in_band = t % (width_max * along);
    const uint32_t first = band * width_max;
    const uint32_t width = across - first < width_max ? across - first : width_max;
    a = first + in_band % width;
    b = in_band / width;
  }
  return along_n ? TileCoord{a, b} : TileCoord{b, a};
}
LW_HD int64_t tile_coord_m(const Plan& p, int64_t tile) { return tile_coord(p, tile).m; }
LW_HD int64_t tile_coord_n(const Plan& p, int64_t tile) { return tile_coord(p, tile).n; }

LW_HD int64_t cluster_size(const Plan& p) { return p.cluster.m * p.cluster.n; }
LW_HD bool clustered(const Plan& p) { return cluster_size(p) > 1; }  // CTAs launched in clusters

// CTA tile coordinates (in CTA tiles) of cluster rank `rank` (m fastest) in plan tile `tile`.
LW_HD TileCoord cta_tile(const Plan& p, int64_t tile, int64_t rank) {
  const TileCoord c = tile_coord(p, tile);
  return {c.m * p.cluster.m + rank % p.cluster.m, c.n * p.cluster.n + rank / p.cluster.m};
}
LW_HD int64_t cta_tile_m(const Plan& p, int64_t tile, int64_t rank) {
  return cta_tile(p, tile, rank).m;
}
LW_HD int64_t cta_tile_n(const Plan& p, int64_t tile, int64_t rank) {
  return cta_tile(p, tile, rank).n;
}

// cluster_reduce: the CTAs of one launch cluster (a tile's splits) reduce it together; 0 otherwise.
LW_HD int64_t reduce_cluster_size(const Plan& p) { return p.cluster_reduce ? p.splits : 0; }

// Workspace slot (and flag) of cluster rank `rank` for the plan's slot `slot`.
LW_HD int64_t cta_slot(const Plan& p, int64_t slot, int64_t rank) {
  return slot * cluster_size(p) + rank;
}

// CTAs of the reduction launch (zero unless separate_reduction).
// (In plan tiles; the launch has cluster_size CTAs for each.)
LW_HD int64_t reduction_grid(const Plan& p) { return p.separate_reduction ? p.split_tiles : 0; }

}  // namespace lw

// The tile x cluster configurations the CUDA kernels are instantiated for: ONE list, read by the
// kernels (one template instantiation per tile), lastwave-bench (--tile/--cluster) and the
// simulator's `best` search. Adding a tile here adds it everywhere.
#pragma once
#include <cstdint>

#include "sim/decomp/types.hpp"

namespace lw {

// CTAs of one thread-block cluster along M and N (1x1 = no cluster).
struct ClusterShape {
  int64_t m = 1;
  int64_t n = 1;
};

// Tile shapes (elements; k is the MAC-loop step). 64-row tiles serve skinny M; 128xN widths let
// the tile count fit the SM count (wgmma N steps of 8 up to 256); 128x256 and 256x128 halve the
// L2 traffic per FLOP of 128x128.
inline constexpr TileShape kKernelTiles[] = {
    {64, 128, 64},  {64, 256, 64},  {128, 96, 64},  {128, 112, 64}, {128, 120, 64},
    {128, 128, 64}, {128, 144, 64}, {128, 160, 64}, {128, 176, 64}, {128, 192, 64},
    {128, 208, 64}, {128, 224, 64}, {128, 256, 64}, {256, 128, 64},
};
inline constexpr int kKernelTileCount = sizeof(kKernelTiles) / sizeof(kKernelTiles[0]);

// Cluster shapes the kernels launch with.
inline constexpr ClusterShape kKernelClusters[] = {{1, 1}};
inline constexpr int kKernelClusterCount = sizeof(kKernelClusters) / sizeof(kKernelClusters[0]);

// The tile every tool defaults to (and the one the step-1 mma kernel has).
inline constexpr TileShape kDefaultTile = {128, 128, 64};

constexpr bool same_tile(const TileShape& a, const TileShape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}

// Index of `t` in kKernelTiles, or -1 when the kernels do not have it.
constexpr int kernel_tile_index(const TileShape& t) {
  for (int i = 0; i < kKernelTileCount; ++i) {
    if (same_tile(kKernelTiles[i], t)) return i;
  }
  return -1;
}

constexpr bool kernel_has_cluster(const ClusterShape& c) {
  for (int i = 0; i < kKernelClusterCount; ++i) {
    if (kKernelClusters[i].m == c.m && kKernelClusters[i].n == c.n) return true;
  }
  return false;
}

}  // namespace lw

// The body of one part of the wgmma kernel table (cuda/kernels/wgmma_entry.hpp): each
// wgmma_part_<P>.cu defines LW_WGMMA_PART and includes this, instantiating the kernels of entries
// P, P + kWgmmaParts, ... and nothing else.
#pragma once
#include <utility>

#include "cuda/kernel/kernel.cuh"
#include "cuda/kernel/kernel_wgmma.cuh"
#include "cuda/kernels/wgmma_entry.hpp"

namespace lw::cuda {

template <size_t kIndex>
WgmmaEntry wgmma_entry() {
  constexpr TileShape kTile = kKernelTiles[kIndex / kKernelClusterCount];
  constexpr ClusterShape kCluster = kKernelClusters[kIndex % kKernelClusterCount];
  if constexpr (kernel_has_config(kTile, kCluster)) {
    using Cfg = WgmmaConfig<kTile.m, kTile.n, kCluster.m, kCluster.n, false, false, false, kTile.k>;
    WgmmaEntry e{gemm_kernel_wgmma<Cfg>, reduction_kernel<WgmmaReducers<Cfg>>,
                 Cfg::kThreads,          WgmmaReducers<Cfg>::kThreads,
                 Cfg::kSmemBytes,        Cfg::kSliceRowsA,
                 Cfg::kSliceRowsB,       Cfg::kTailCols};
    using Whole =
        WgmmaConfig<kTile.m, kTile.n, kCluster.m, kCluster.n, false, true, false, kTile.k>;
    static_assert(Whole::kThreads == Cfg::kThreads && Whole::kSmemBytes == Cfg::kSmemBytes &&
                      Whole::kTailCols == Cfg::kTailCols,
                  "the whole-tile form launches and stores like the cooperative one");
    e.whole_main = gemm_kernel_wgmma<Whole>;
    if constexpr (kernel_has_cluster_reduce(kTile, kCluster)) {
      using Dsm =
          WgmmaConfig<kTile.m, kTile.n, kCluster.m, kCluster.n, false, false, true, kTile.k>;
      static_assert(Dsm::kThreads == Cfg::kThreads && Dsm::kSmemBytes <= Cfg::kSmemBytes,
                    "the splitk-dsm form launches like the cooperative one, its ring no deeper");
      e.cluster_reduce_main = gemm_kernel_wgmma<Dsm>;
      e.cluster_reduce_smem_bytes = Dsm::kSmemBytes;
    }
    if constexpr (wgmma_can_pingpong(kTile)) {
      using Pp = WgmmaConfig<kTile.m, kTile.n, kCluster.m, kCluster.n, true, true, false, kTile.k>;
      static_assert(Pp::kThreads == Cfg::kThreads && Pp::kSmemBytes == Cfg::kSmemBytes &&
                        Pp::kSliceRowsA == Cfg::kSliceRowsA && Pp::kSliceRowsB == Cfg::kSliceRowsB,
                    "both forms launch alike and load the same operand boxes");
      e.pingpong_main = gemm_kernel_wgmma<Pp>;
      e.pingpong_tail_cols = Pp::kTailCols;
    }
    return e;
  } else {
    return {};
  }
}

template <size_t kPart, size_t... kSlot>
const WgmmaEntry& wgmma_part_entry(size_t slot, std::index_sequence<kSlot...>) {
  static const WgmmaEntry entries[] = {wgmma_entry<kPart + kSlot * kWgmmaParts>()...};
  return entries[slot];
}

}  // namespace lw::cuda

#define LW_WGMMA_PART_DEFINE(P)                                                        \
  namespace lw::cuda {                                                                 \
  const WgmmaEntry& wgmma_part_##P(size_t slot) {                                      \
    return wgmma_part_entry<P>(slot, std::make_index_sequence<wgmma_part_slots(P)>()); \
  }                                                                                    \
  }

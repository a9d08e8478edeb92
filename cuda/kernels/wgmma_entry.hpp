// One wgmma kernel instantiation (tile x cluster of sim/decomp/kernel_configs.hpp) as the launcher
// sees it: its main kernel, its separate reduction and launch geometry. The instantiations are
// spread over kWgmmaParts translation units (cuda/kernels/wgmma_part_*.cu) so that nvcc compiles
// them in parallel; entry `index` (tile index x kKernelClusterCount + cluster index) lives in part
// index % kWgmmaParts at slot index / kWgmmaParts.
#pragma once
#include <cstddef>
#include <cstdint>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/plan.hpp"

namespace lw::cuda {

struct GemmParams;  // cuda/kernel/params.hpp
struct TmaMaps;     // cuda/kernel/mainloop_wgmma.cuh

using KernelFn = void (*)(const Plan, const GemmParams);
using WgmmaKernelFn = void (*)(const Plan, const GemmParams, const TmaMaps);

struct WgmmaEntry {
  WgmmaKernelFn main = nullptr;  // nullptr: the kernels lack this tile x cluster
  KernelFn reduce = nullptr;
  int threads = 0;
  int reduce_threads = 0;  // the accumulator owners' layout: the threads of a reduction CTA
  int smem_bytes = 0;
  uint32_t slice_rows_a = 0;  // TMA box rows of A and B (this CTA's slice in a cluster)
  uint32_t slice_rows_b = 0;
  // The epilogue's narrower store box (0: a consumer's columns are whole boxes).
  uint32_t tail_cols = 0;
  // The same kernel compiled for plans without a split region (plan_walks_whole_tiles): no fix-up,
  // no split walk, and on non-swapped tiles no register epilogue (launched where C is 16-byte
  // aligned bf16).
  WgmmaKernelFn whole_main = nullptr;
  // The ping-pong form (nullptr where one warpgroup cannot hold the tile: wgmma_can_pingpong),
  // launched where plan_runs_pingpong and C stores through the TMA; same threads, shared memory
  // and operand boxes, but a consumer stores the whole tile width, so its tail box is its own
  // (64x96: 32 columns against the cooperative halves' 48). It runs whole tiles only: no
  // separate reduction follows it.
  WgmmaKernelFn pingpong_main = nullptr;
  uint32_t pingpong_tail_cols = 0;
  // The splitk-dsm form (kernel_has_cluster_reduce; nullptr elsewhere), launched for
  // Plan::cluster_reduce plans only: the cooperative form whose fix-up writes partials into
  // the owner's shared memory; same threads, operand boxes and tail box; a ring of at most
  // kWgmmaDsmMaxStages, `cluster_reduce_smem_bytes` of its own, and its partials past them.
  WgmmaKernelFn cluster_reduce_main = nullptr;
  int cluster_reduce_smem_bytes = 0;
};

constexpr size_t kWgmmaParts = 4;
constexpr size_t kWgmmaEntries = size_t{kKernelTileCount} * kKernelClusterCount;
// Entries of part `part`: indices part, part + kWgmmaParts, ...
constexpr size_t wgmma_part_slots(size_t part) {
  return (kWgmmaEntries - part + kWgmmaParts - 1) / kWgmmaParts;
}

// Entry `slot` of part 0..3 (defined in cuda/kernels/wgmma_part_<part>.cu).
const WgmmaEntry& wgmma_part_0(size_t slot);
const WgmmaEntry& wgmma_part_1(size_t slot);
const WgmmaEntry& wgmma_part_2(size_t slot);
const WgmmaEntry& wgmma_part_3(size_t slot);

// Entry `index` of the whole table (an empty entry where the kernels lack the config).
inline const WgmmaEntry& wgmma_entry_at(size_t index) {
  static_assert(kWgmmaParts == 4, "one function per part below");
  const size_t slot = index / kWgmmaParts;
  switch (index % kWgmmaParts) {
    case 0:
      return wgmma_part_0(slot);
    case 1:
      return wgmma_part_1(slot);
    case 2:
      return wgmma_part_2(slot);
    default:
      return wgmma_part_3(slot);
  }
}

}  // namespace lw::cuda

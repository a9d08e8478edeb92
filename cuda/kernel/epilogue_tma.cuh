// TMA-store epilogue (sm_90a, wgmma layouts): each consumer warp converts its 16-row strip of the
// tile's fp32 accumulator into bf16 boxes in shared memory and stores each box with one bulk
// tensor store; the stores drain while the consumers run the next tile's mainloop.
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"

namespace lw::cuda {

constexpr int kSwizzleRowBytes = 128;   // one 128B-swizzle row: a full box row
constexpr int kSwizzleChunkBytes = 16;  // the unit the swizzle permutes; one fragment's 8 columns
constexpr int kSwizzleRows = 8;         // the permutation's period (one 1024-byte atom)
static_assert(kEpilogueBoxCols * kElemBytes == kSwizzleRowBytes, "a full box row is swizzled");
// One warp's kBuffers store boxes, used in turn: box `next % kBuffers` is the one to fill next.
template <int kBuffers>
struct StoreBoxes {
  static constexpr int kCount = kBuffers;
  uint32_t base = 0;  // shared address of the warp's first box
  int next = 0;
  __device__ uint32_t box() const {
    return base + static_cast<uint32_t>((next % kBuffers) * kEpilogueBoxBytes);
  }
};

// The boxes of the calling consumer warp in the epilogue's shared memory at `staging`.
template <class Cfg, class L>
__device__ __forceinline__ StoreBoxes<Cfg::kEpilogueBuffers> warp_store_boxes(uint32_t staging) {
  static_assert(
      Cfg::kConsumerWarps * Cfg::kEpilogueBuffers * kEpilogueBoxBytes == Cfg::kEpilogueBytes,
      "every consumer warp owns kEpilogueBuffers boxes");
  const int warp = L::consumer_warp();
  return {staging + static_cast<uint32_t>(warp * Cfg::kEpilogueBuffers * kEpilogueBoxBytes)};
}

__device__ __forceinline__ uint32_t pack_bf16x2(float x, float y) {
  const __nv_bfloat162 h = __floats2bfloat162_rn(x, y);
  return *reinterpret_cast<const uint32_t*>(&h);
}

// Byte offset of 16-byte chunk `chunk` of row `row` in a box: 128-byte rows with the TMA's 128B
// swizzle (full boxes; no bank conflicts on the fragment writes) or dense rows of kPitch bytes.
template <int kPitch, bool kSwizzled>
__device__ __forceinline__ uint32_t box_offset(int row, int chunk) {
  if constexpr (kSwizzled) {
    return static_cast<uint32_t>(row * kSwizzleRowBytes +
                                 (chunk ^ (row % kSwizzleRows)) * kSwizzleChunkBytes);
  } else {
    return static_cast<uint32_t>(row * kPitch + chunk * kSwizzleChunkBytes);
  }
}

// Writes the warp's fragments [first, first + kCols / 8) of `acc` (16 rows x kCols columns) into
// the box at `box` as bf16.
template <class L, int kCols, bool kSwizzled>
__device__ __forceinline__ void fill_box(uint32_t box, const typename L::Acc& acc, int first) {
  constexpr int kPitch = kCols * kElemBytes;
  const int lane = L::tid() % kWarpSize;
  const int row = lane / kLanesPerRow;
  const auto in_chunk = static_cast<uint32_t>((lane % kLanesPerRow) * kColsPerLane * kElemBytes);
#pragma unroll
  for (int j = 0; j < kCols / kFragCols; ++j) {
    const float* v = frag(acc, first + j);
    ptx::st_shared_b32(box + box_offset<kPitch, kSwizzled>(row, j) + in_chunk,
                       pack_bf16x2(v[0], v[1]));
    ptx::st_shared_b32(box + box_offset<kPitch, kSwizzled>(row + kFragRows, j) + in_chunk,
                       pack_bf16x2(v[2], v[3]));
  }
}

// The lane that issues a warp's bulk stores (and so owns its bulk groups): the last, never the
// first thread of the layout, which signals and waits on the fixup flags (fixup.cuh) and so would
// order its flag release behind its own stores still in flight.
constexpr int kStoreLane = kWarpSize - 1;

// One box of the warp: waits until the TMA has read what the box held before, fills it with
// fragments [first, ...) and has lane kStoreLane store it at element (row, col) of `map`.
template <class L, int kCols, bool kSwizzled, class Boxes>
__device__ __forceinline__ void store_box(Boxes& boxes, const CUtensorMap* map,
                                          const typename L::Acc& acc, int first, int32_t row,
                                          int32_t col) {
  const bool leader = L::tid() % kWarpSize == kStoreLane;
  if (leader) ptx::bulk_wait_read<Boxes::kCount - 1>();
  __syncwarp();
  const uint32_t box = boxes.box();
  fill_box<L, kCols, kSwizzled>(box, acc, first);
  ptx::fence_proxy_async_smem();  // the fragment writes, visible to the TMA
  __syncwarp();
  if (leader) {
    ptx::tma_store_2d(map, box, col, row);
    ptx::bulk_commit();
  }
  ++boxes.next;
}

// Stores the consumer's block of CTA tile (tile_m, tile_n) of an m x n bf16 C: per warp and m64
// block, kEpilogueBoxes boxes through `map` and a kTailCols-wide one through `tail_map`. Boxes that
// start beyond M or N are skipped; the TMA clips the others at the edges.
template <class Cfg, class L, class Boxes>
__device__ __forceinline__ void epilogue_tma(const CUtensorMap* map, const CUtensorMap* tail_map,
                                             int64_t tile_m, int64_t tile_n,
                                             const typename L::Acc& acc, Boxes& boxes, int32_t m,
                                             int32_t n) {
  const int lane = L::tid() % kWarpSize;
  const int64_t row0 = tile_m * L::kTileM + L::origin_row(0) - lane / kLanesPerRow;
  const int64_t col0 = tile_n * L::kTileN + L::origin_col(0) - (lane % kLanesPerRow) * kColsPerLane;
  constexpr int kFragsPerBox = kEpilogueBoxCols / kFragCols;
#pragma unroll
  for (int b = 0; b < L::kMBlocks; ++b) {
    const int64_t row = row0 + b * Cfg::kWgmmaM;
    if (row >= m) break;
    const int first = b * L::kFragsPerBlock;
#pragma unroll
    for (int x = 0; x < Cfg::kEpilogueBoxes; ++x) {
      const int64_t col = col0 + x * kEpilogueBoxCols;
      if (col >= n) break;
      store_box<L, kEpilogueBoxCols, true>(boxes, map, acc, first + x * kFragsPerBox,
                                           static_cast<int32_t>(row), static_cast<int32_t>(col));
    }
    if constexpr (Cfg::kTailCols > 0) {
      const int64_t col = col0 + Cfg::kEpilogueBoxes * kEpilogueBoxCols;
      if (col < n) {
        store_box<L, Cfg::kTailCols, false>(boxes, tail_map, acc,
                                            first + Cfg::kEpilogueBoxes * kFragsPerBox,
                                            static_cast<int32_t>(row), static_cast<int32_t>(col));
      }
    }
  }
}

// Before the CTA exits: the TMA has read every box this thread stored from (shared memory must
// outlive those reads; the writes to C complete before the grid does, as CUTLASS relies on too),
// so a CTA's last tile does not hold its exit for the DRAM write latency.
__device__ __forceinline__ void epilogue_tma_drain() { ptx::bulk_wait_read<0>(); }

}  // namespace lw::cuda

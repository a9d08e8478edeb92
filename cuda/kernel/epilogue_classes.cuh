// TMA-store epilogue of row-class launches (ladder step 18, row_classes.hpp): the operands' rows
// arrive permuted within each group of 64 (tile row 8c + i is group row c + 8i), so each consumer
// thread holds whole 16-byte chunks of C rows; a consumer warpgroup writes each 64 x 64 group of
// its block into shared memory in C's own order and stores it with one bulk tensor store.
#pragma once
#include <cuda.h>

#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/epilogue_tma.cuh"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "cuda/kernel/row_classes.hpp"

namespace lw::cuda {

constexpr int kGroupThreads = static_cast<int>(kWgmmaWarpgroupThreads);
constexpr int kGroupWarps = kGroupThreads / kWarpSize;
// Named barriers of the consumer warpgroups' group boxes, after the owner sets' and the consumers'.
constexpr uint32_t kGroupBoxBarrierId = 1 + kWgmmaConsumers + 1;
constexpr int kGroupBoxBytes = kClassGroupRows * kSwizzleRowBytes;  // 64 rows x 64 bf16: 8 KiB
static_assert(kEpilogueBoxCols == kClassGroupRows, "a store box's columns are one class group");

__device__ __forceinline__ void st_shared_v4(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}

// The calling warpgroup's group boxes: its warps' store boxes taken together (consecutive warps'
// boxes are contiguous), kEpilogueBuffers of kGroupBoxBytes, used in turn.
template <class Cfg, class L>
struct GroupBoxes {
  static_assert(kGroupWarps * kEpilogueBoxBytes == kGroupBoxBytes, "a group box is 4 warp boxes");
  uint32_t base = 0;
  int next = 0;
  __device__ explicit GroupBoxes(uint32_t staging)
      : base(staging + static_cast<uint32_t>(L::consumer_warp() / kGroupWarps * kGroupWarps *
                                             Cfg::kEpilogueBuffers * kEpilogueBoxBytes)) {}
  __device__ uint32_t box() const {
    return base + static_cast<uint32_t>((next % Cfg::kEpilogueBuffers) * kGroupBoxBytes);
  }
};

// Fills group box `box` with m64 block `block`, column group `group` of the warpgroup's
// fragments: fragment j's element (h, e) (tile row 16w + 8h + lane / 4, column 8j + 2(lane % 4) +
// e of the group) is C's row 2w + h + 8(lane / 4), column j + 8(2(lane % 4) + e) of the group, so
// the thread's 8 fragments give it chunk 2(lane % 4) + e of two rows.
template <class Cfg, class L>
__device__ __forceinline__ void fill_group_box(uint32_t box, const typename L::Acc& acc, int block,
                                               int group) {
  const int t = L::tid() % kGroupThreads;
  const int warp = t / kWarpSize, lane = t % kWarpSize;
  const int first = block * L::kFragsPerBlock + group * (kClassGroupRows / kFragCols);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int row = 2 * warp + h + kRowClasses * (lane / kLanesPerRow);
#pragma unroll
    for (int e = 0; e < kColsPerLane; ++e) {
      const int chunk = kColsPerLane * (lane % kLanesPerRow) + e;
      uint32_t w[4];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        w[j] = pack_bf16x2(frag(acc, first + 2 * j)[2 * h + e],
                           frag(acc, first + 2 * j + 1)[2 * h + e]);
      st_shared_v4(box + box_offset<kSwizzleRowBytes, true>(row, chunk),
                   make_uint4(w[0], w[1], w[2], w[3]));
    }
  }
}

// Stores the consumer's block of CTA tile (tile_m, tile_n) of an m x n bf16 C through `map` (boxes
// of 64 x 64, 128B swizzle): per m64 block and 64-column group, the warpgroup fills a group box
// and its last thread stores it. Groups that start beyond M or N are skipped (the whole warpgroup
// alike); the TMA clips the others at the edges.
template <class Cfg, class L>
__device__ __forceinline__ void epilogue_classes(const CUtensorMap* map, int64_t tile_m,
                                                 int64_t tile_n, const typename L::Acc& acc,
                                                 GroupBoxes<Cfg, L>& boxes, int32_t m, int32_t n) {
  static_assert(Cfg::kReadsRowClasses, "a row-class tile");
  const int lane = L::tid() % kWarpSize;
  const int64_t row0 = tile_m * L::kTileM + L::origin_row(0) - lane / kLanesPerRow -
                       (L::tid() % kGroupThreads) / kWarpSize * L::kWarpRows;
  const int64_t col0 = tile_n * L::kTileN + L::origin_col(0) - (lane % kLanesPerRow) * kColsPerLane;
  const bool leader = L::tid() % kGroupThreads == kGroupThreads - 1;
  const uint32_t barrier =
      kGroupBoxBarrierId + static_cast<uint32_t>(L::consumer_warp() / kGroupWarps);
#pragma unroll
  for (int b = 0; b < L::kMBlocks; ++b) {
    const int64_t row = row0 + b * Cfg::kWgmmaM;
    if (row >= m) break;
#pragma unroll
    for (int x = 0; x < Cfg::kWgCols / kClassGroupRows; ++x) {
      const int64_t col = col0 + x * kClassGroupRows;
      if (col >= n) break;
      if (leader) ptx::bulk_wait_read<Cfg::kEpilogueBuffers - 1>();
      ptx::named_barrier_sync(barrier, kGroupThreads);  // the box is free
      const uint32_t box = boxes.box();
      fill_group_box<Cfg, L>(box, acc, b, x);
      ptx::fence_proxy_async_smem();  // the writes, visible to the TMA
      ptx::named_barrier_sync(barrier, kGroupThreads);
      if (leader) {
        ptx::tma_store_2d(map, box, static_cast<int32_t>(col), static_cast<int32_t>(row));
        ptx::bulk_commit();
      }
      ++boxes.next;
    }
  }
}

}  // namespace lw::cuda

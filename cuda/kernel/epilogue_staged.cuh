// Staged epilogue (sm_90a, non-swapped wgmma layouts) for a C the TMA cannot store (bf16 rows of
// N % 8 != 0 or a base not 16-byte aligned, or fp32 C): each consumer warp writes its 16-row strip
// of one m64 block, a box-sized chunk of columns at a time, into its epilogue store box, then
// copies the box to C in the widest stores C's alignment allows, masked — a loop, not the register
// epilogue's unrolled per-fragment address arithmetic, which spills beside wide accumulators.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "cuda/kernel/epilogue_tma.cuh"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/params.hpp"
#include "cuda/kernel/ptx.cuh"

namespace lw::cuda {

// Writes the warp's fragments [first, first + kFrags) of `acc` into `box` as OutT, dense rows of
// kCols elements (16 rows: the fragments' two row pairs).
template <class L, typename OutT, int kCols, int kFrags>
__device__ __forceinline__ void stage_chunk(uint32_t box, const typename L::Acc& acc, int first) {
  constexpr auto kOutBytes = static_cast<uint32_t>(sizeof(OutT));
  const int lane = L::tid() % kWarpSize;
  const int row = lane / kLanesPerRow;
  const int col = (lane % kLanesPerRow) * kColsPerLane;
  const auto at = [&](int r, int j) {
    return box + static_cast<uint32_t>(r * kCols + j * kFragCols + col) * kOutBytes;
  };
#pragma unroll
  for (int j = 0; j < kFrags; ++j) {
    const float* v = frag(acc, first + j);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const float x = v[2 * half], y = v[2 * half + 1];
      const uint32_t addr = at(row + half * kFragRows, j);
      if constexpr (std::is_same_v<OutT, float>) {
        ptx::st_shared_b32(addr, __float_as_uint(x));
        ptx::st_shared_b32(addr + kOutBytes, __float_as_uint(y));
      } else {
        ptx::st_shared_b32(addr, pack_bf16x2(x, y));
      }
    }
  }
}

// Shared-memory load of kBytes (2 to 16) at `addr`, as the type a global store of kBytes takes.
template <int kBytes>
__device__ __forceinline__ auto ld_shared_bytes(uint32_t addr) {
  if constexpr (kBytes == 2) return ptx::ld_shared_b16(addr);
  if constexpr (kBytes == 4) return ptx::ld_shared_b32(addr);
  if constexpr (kBytes == 8) return ptx::ld_shared_v2_b32(addr);
  if constexpr (kBytes == 16) return ptx::ld_shared_v4_b32(addr);
}

// Copies the warp's staged 16 x kCols box of OutT to C at (row0, col0), masked to m x n, in
// stores of kBytes (C's rows and base are kBytes-aligned; col0 is a multiple of kBytes of OutT).
template <typename OutT, int kCols, int kBytes>
__device__ __forceinline__ void copy_chunk_by(const GemmParams& p, uint32_t box, int64_t row0,
                                              int64_t col0, int lane) {
  constexpr int kElems = kBytes / static_cast<int>(sizeof(OutT));
  static_assert(kElems >= 1 && kCols % kElems == 0, "a store covers whole elements of a row");
  constexpr int kPerRow = kCols / kElems;
  auto* c = static_cast<char*>(p.c);
#pragma unroll 1
  for (int i = lane; i < kEpilogueBoxRows * kPerRow; i += kWarpSize) {
    const int64_t row = row0 + i / kPerRow, col = col0 + (i % kPerRow) * kElems;
    if (row >= p.m || col >= p.n) continue;  // n % kElems == 0: a store is all in or all out
    using Word = decltype(ld_shared_bytes<kBytes>(0));
    const int64_t at = (row * p.n + col) * static_cast<int64_t>(sizeof(OutT));
    *reinterpret_cast<Word*>(c + at) =
        ld_shared_bytes<kBytes>(box + static_cast<uint32_t>(i * kBytes));
  }
}

// Copies the warp's staged 16 x kCols box to C at (row0, col0) in C's widest aligned stores.
template <typename OutT, int kCols>
__device__ __forceinline__ void copy_chunk(const GemmParams& p, uint32_t box, int64_t row0,
                                           int64_t col0, int lane) {
  constexpr int kOut = static_cast<int>(sizeof(OutT));
  constexpr int kWide = 16, kMid = 8, kNarrow = 4;  // bytes per store
  if (p.c_store_bytes >= kWide && kCols * kOut % kWide == 0) {
    copy_chunk_by<OutT, kCols, kWide>(p, box, row0, col0, lane);
  } else if (p.c_store_bytes >= kMid && kCols * kOut % kMid == 0) {
    copy_chunk_by<OutT, kCols, kMid>(p, box, row0, col0, lane);
  } else if (kOut >= kNarrow || p.c_store_bytes >= kNarrow) {
    copy_chunk_by<OutT, kCols, kNarrow>(p, box, row0, col0, lane);
  } else if constexpr (kOut < kNarrow) {  // bf16 rows of odd N
    copy_chunk_by<OutT, kCols, kOut>(p, box, row0, col0, lane);
  }
}

template <class Cfg, class L, typename OutT, class Boxes>
__device__ __forceinline__ void epilogue_staged_as(const GemmParams& p, int64_t tile_m,
                                                   int64_t tile_n, const typename L::Acc& acc,
                                                   const Boxes& boxes) {
  static_assert(!L::kSwapped, "swapped tiles transpose from registers (epilogue.cuh)");
  constexpr int kChunkCols =  // columns of OutT a box holds in 16 rows
      static_cast<int>(kEpilogueBoxBytes / (kEpilogueBoxRows * sizeof(OutT)));
  constexpr int kChunkFrags = kChunkCols / kFragCols;
  constexpr int kRestFrags = L::kFragsPerBlock % kChunkFrags;
  const int lane = L::tid() % kWarpSize;
  const uint32_t box = boxes.box();
  const int64_t row0 = tile_m * L::kTileM + L::origin_row(0) - lane / kLanesPerRow;
  const int64_t col0 = tile_n * L::kTileN + L::origin_col(0) - (lane % kLanesPerRow) * kColsPerLane;
#pragma unroll
  for (int b = 0; b < L::kMBlocks; ++b) {
    const int64_t row = row0 + b * Cfg::kWgmmaM;
#pragma unroll
    for (int x = 0; x < L::kFragsPerBlock / kChunkFrags; ++x) {
      __syncwarp();  // the box's last copy has been read
      stage_chunk<L, OutT, kChunkCols, kChunkFrags>(box, acc,
                                                    b * L::kFragsPerBlock + x * kChunkFrags);
      __syncwarp();
      copy_chunk<OutT, kChunkCols>(p, box, row, col0 + x * kChunkCols, lane);
    }
    if constexpr (kRestFrags > 0) {
      constexpr int kFirst = L::kFragsPerBlock - kRestFrags;
      __syncwarp();
      stage_chunk<L, OutT, kRestFrags * kFragCols, kRestFrags>(box, acc,
                                                               b * L::kFragsPerBlock + kFirst);
      __syncwarp();
      copy_chunk<OutT, kRestFrags * kFragCols>(p, box, row, col0 + kFirst * kFragCols, lane);
    }
  }
  __syncwarp();  // the box may be refilled
}

// The staged epilogue of the consumer's block of CTA tile (tile_m, tile_n), bf16 or fp32 C.
template <class Cfg, class L, class Boxes>
__device__ __forceinline__ void epilogue_staged(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                                const typename L::Acc& acc, const Boxes& boxes) {
  if (p.out_f32) {
    epilogue_staged_as<Cfg, L, float>(p, tile_m, tile_n, acc, boxes);
  } else {
    epilogue_staged_as<Cfg, L, __nv_bfloat16>(p, tile_m, tile_n, acc, boxes);
  }
}

}  // namespace lw::cuda

// Per-thread fp32 accumulator of one output tile and the thread layouts that own it: mma.sync
// (128x128, 256 threads, 2x4 warps of 64x32) and wgmma (any kernel tile, 256 consumer threads in
// one owner set or, ping-pong, two of 128).
#pragma once
#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/ptx_hopper.cuh"

namespace lw::cuda {

// Every layout holds kFrags fragments of 4 floats per thread; fragment f covers output elements
// (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1) with (r, c) = L::origin_row / origin_col(f).
constexpr int kFragRows = 8;       // row distance of the fragment's second pair
constexpr int kFragFloats = 4;     // floats per fragment
constexpr int kFragThreads = 256;  // threads that own a tile's accumulator (mma.sync)
constexpr int kWarpSize = 32;
constexpr unsigned kFullWarpMask = 0xffffffffu;  // every lane of a warp (shuffle and vote masks)
constexpr int kLanesPerRow = 4;                  // lanes sharing one fragment row (2 columns each)
constexpr int kColsPerLane = 2;
constexpr int kFragCols = kLanesPerRow * kColsPerLane;  // columns of one fragment (8)

template <int kFloats>
struct Accum {
  static constexpr int kSize = kFloats;
  float v[kFloats];
};

template <class A>
__device__ __forceinline__ float* frag(A& a, int f) {
  return a.v + f * kFragFloats;
}
template <class A>
__device__ __forceinline__ const float* frag(const A& a, int f) {
  return a.v + f * kFragFloats;
}

// mma.sync m16n8k16 layout: warp w owns rows (w / 4) * 64 + [0, 64), columns (w % 4) * 32 + [0,
// 32); fragment f = mi * 4 + ni is its m16n8 block (mi, ni).
struct MmaLayout {
  static constexpr int kTileM = KernelConfig::kTileM, kTileN = KernelConfig::kTileN;
  static constexpr int kFrags = kTileM * kTileN / kFragThreads / kFragFloats;  // 16
  using Acc = Accum<kFrags * kFragFloats>;
  static constexpr int kWarpRows = 64, kWarpCols = 32, kWarpsN = 4, kBlockM = 16, kBlockN = 8;
  static constexpr int kBlocksN = kWarpCols / kBlockN;
  static constexpr bool kSwapped = false;        // origin_row / origin_col are the tile's own
  static constexpr bool kClusterReduce = false;  // no shared-memory split-K form
  static constexpr int kThreads = kFragThreads;
  __device__ __forceinline__ static int tid() { return static_cast<int>(threadIdx.x); }
  __device__ __forceinline__ static int consumer_tid() { return tid(); }
  __device__ __forceinline__ static void sync() { __syncthreads(); }
  __device__ __forceinline__ static int origin_row(int f) {
    const int warp = tid() / kWarpSize, lane = tid() % kWarpSize;
    return (warp / kWarpsN) * kWarpRows + (f / kBlocksN) * kBlockM + lane / kLanesPerRow;
  }
  __device__ __forceinline__ static int origin_col(int f) {
    const int warp = tid() / kWarpSize, lane = tid() % kWarpSize;
    return (warp % kWarpsN) * kWarpCols + (f % kBlocksN) * kBlockN +
           (lane % kLanesPerRow) * kColsPerLane;
  }
};

// wgmma m64nN layout of WgmmaConfig Cfg: consumer warpgroup g owns the block (g / kConsumersN,
// g % kConsumersN) of kWgRows x kWgCols; in it, warp w (0..3) of m64 block b owns rows
// b * 64 + w * 16 + [0, 16); fragment f = b * (kWgCols / 8) + j is its 8-column block j. A tile's
// owners are the kThreads threads from kFirstThread (ping-pong: each warpgroup on its own, owner
// set `owners()`); they synchronise on a named barrier of their own (the producer warpgroup never
// joins one). Rows and columns are those of the wgmma's frame: for a swapped tile (kSwapped) frame
// row r, column c is the tile's element (c, r).
template <class Cfg, int kFirstThread>
struct WgmmaLayout {
  static constexpr int kTileM = Cfg::kTileM, kTileN = Cfg::kTileN;
  static constexpr bool kSwapped = Cfg::kSwapped;
  static constexpr bool kClusterReduce = Cfg::kClusterReduce;  // the splitk-dsm form
  static constexpr int kKernelSmemBytes = Cfg::kSmemBytes;     // its partials' area starts past it
  static constexpr int kFrags = Cfg::kAccFloats / kFragFloats;
  static constexpr int kThreads = Cfg::kOwnerThreads;
  using Acc = Accum<Cfg::kAccFloats>;
  static constexpr int kWarpRows = 16, kBlockN = 8, kWarpsPerGroup = 4;
  static constexpr int kFragsPerBlock = Cfg::kWgCols / kBlockN;
  static constexpr int kMBlocks = Cfg::kMBlocks;
  static constexpr uint32_t kFirstBarrierId = 1;  // 0 is __syncthreads
  static_assert(kFrags * kThreads * kFragFloats == kTileM * kTileN, "a slot is one tile");
  // Index of the calling thread among all consumer threads, and its owner set.
  __device__ __forceinline__ static int consumer_tid() {
    return static_cast<int>(threadIdx.x) - kFirstThread;
  }
  __device__ __forceinline__ static int owners() { return consumer_tid() / kThreads; }
  __device__ __forceinline__ static int tid() { return consumer_tid() % kThreads; }
  // The calling warp among all consumer warps (each owns its epilogue store boxes).
  __device__ __forceinline__ static int consumer_warp() { return consumer_tid() / kWarpSize; }
  __device__ __forceinline__ static void sync() {
    ptx::named_barrier_sync(kFirstBarrierId + static_cast<uint32_t>(owners()), kThreads);
  }
  // Every consumer thread, across owner sets.
  __device__ __forceinline__ static void sync_consumers() {
    ptx::named_barrier_sync(kFirstBarrierId + Cfg::kConsumers, Cfg::kConsumerThreads);
  }
  __device__ __forceinline__ static int group() { return tid() / (kWarpsPerGroup * kWarpSize); }
  __device__ __forceinline__ static int origin_row(int f) {
    const int warp = (tid() / kWarpSize) % kWarpsPerGroup;
    return (group() / Cfg::kConsumersN) * Cfg::kWgRows + (f / kFragsPerBlock) * Cfg::kWgmmaM +
           warp * kWarpRows + (tid() % kWarpSize) / kLanesPerRow;
  }
  __device__ __forceinline__ static int origin_col(int f) {
    return (group() % Cfg::kConsumersN) * Cfg::kWgCols + (f % kFragsPerBlock) * kBlockN +
           (tid() % kLanesPerRow) * kColsPerLane;
  }
};

}  // namespace lw::cuda

// Per-thread fp32 accumulator of one 128x128 tile and the two thread layouts that own it: mma.sync
// (256 threads, 2x4 warps of 64x32) and wgmma (256 consumer threads, 8 warps of 16x128 rows).
#pragma once
#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/ptx_hopper.cuh"

namespace lw::cuda {

// Both layouts hold 16 fragments of 4 floats per thread; fragment f covers output elements
// (r, c), (r, c + 1), (r + 8, c), (r + 8, c + 1) with (r, c) = L::origin_row / origin_col(f).
constexpr int kFragRows = 8;       // row distance of the fragment's second pair
constexpr int kFragFloats = 4;     // floats per fragment
constexpr int kFrags = 16;         // fragments per thread
constexpr int kFragThreads = 256;  // threads that own a tile's accumulator
constexpr int kAccFloats = kFrags * kFragFloats;
constexpr int kWarpSize = 32;
constexpr int kLanesPerRow = 4;  // lanes sharing one fragment row (2 columns each)
constexpr int kColsPerLane = 2;
static_assert(kFragThreads * kAccFloats == KernelConfig::kSlotFloats, "a slot is one tile");

struct Accum {
  float v[kAccFloats];
};

__device__ __forceinline__ float* frag(Accum& a, int f) { return a.v + f * kFragFloats; }
__device__ __forceinline__ const float* frag(const Accum& a, int f) {
  return a.v + f * kFragFloats;
}

// mma.sync m16n8k16 layout: warp w owns rows (w / 4) * 64 + [0, 64), columns (w % 4) * 32 + [0,
// 32); fragment f = mi * 4 + ni is its m16n8 block (mi, ni).
struct MmaLayout {
  static constexpr int kWarpRows = 64, kWarpCols = 32, kWarpsN = 4, kBlockM = 16, kBlockN = 8;
  static constexpr int kBlocksN = kWarpCols / kBlockN;
  __device__ __forceinline__ static int tid() { return static_cast<int>(threadIdx.x); }
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

// wgmma m64n128 layout: consumer warp w (0..7) owns rows w * 16 + [0, 16) and all 128 columns;
// fragment f is its 8-column block f. Thread ids start at kFirstThread; the owners synchronise on
// a named barrier (the producer warpgroup never joins it).
template <int kFirstThread>
struct WgmmaLayout {
  static constexpr int kWarpRows = 16, kBlockN = 8;
  static constexpr uint32_t kBarrierId = 1;  // 0 is __syncthreads
  __device__ __forceinline__ static int tid() {
    return static_cast<int>(threadIdx.x) - kFirstThread;
  }
  __device__ __forceinline__ static void sync() {
    ptx::named_barrier_sync(kBarrierId, kFragThreads);
  }
  __device__ __forceinline__ static int origin_row(int /*f*/) {
    return (tid() / kWarpSize) * kWarpRows + (tid() % kWarpSize) / kLanesPerRow;
  }
  __device__ __forceinline__ static int origin_col(int f) {
    return f * kBlockN + (tid() % kLanesPerRow) * kColsPerLane;
  }
};

}  // namespace lw::cuda

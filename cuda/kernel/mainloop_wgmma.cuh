// Ladder step 2 mainloop (sm_90a): a ring of TMA-filled stages (128B swizzle, mbarrier full/empty
// pairs). One producer thread walks the plan and loads every segment's k-tiles ahead of the
// consumers; each consumer warpgroup multiplies its 64 rows with wgmma m64n128k16.
#pragma once
#include <cuda.h>

#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

using WsCfg = WgmmaConfig;

// Tensor maps of A (dims K x M) and B (dims K x N), box kTileK x 128 rows, 128B swizzle.
struct TmaMaps {
  CUtensorMap a;
  CUtensorMap b;
};

constexpr int kWgmmaK = 16;                                            // k per wgmma instruction
constexpr int kWgmmaSteps = KernelConfig::kTileK / kWgmmaK;            // 4 per k-tile
constexpr uint32_t kWgmmaKBytes = kWgmmaK * KernelConfig::kElemBytes;  // 32 B along a swizzled row
constexpr uint32_t kSmemRowBytes = KernelConfig::kTileK * KernelConfig::kElemBytes;  // 128 B
constexpr int kConsumerRows = KernelConfig::kTileM / WsCfg::kConsumers;              // 64
static_assert(KernelConfig::kTileM == KernelConfig::kTileN, "A and B stages have one box shape");
static_assert(kSmemRowBytes == 128, "one k-tile row is one 128-byte swizzle row");

// Shared-memory addresses of the stage ring and its barriers.
struct Ring {
  uint32_t stages = 0;  // stage s: A at stages + s * kStageBytes, B kOperandBytes later
  uint32_t full = 0;    // full[s]: producer's expect_tx arrive + TMA bytes
  uint32_t empty = 0;   // empty[s]: one arrive per consumer warp
  static constexpr uint32_t kBarBytes = 8;
  __device__ uint32_t a(int s) const {
    return stages + static_cast<uint32_t>(s) * WsCfg::kStageBytes;
  }
  __device__ uint32_t b(int s) const { return a(s) + WsCfg::kOperandBytes; }
  __device__ uint32_t full_bar(int s) const { return full + static_cast<uint32_t>(s) * kBarBytes; }
  __device__ uint32_t empty_bar(int s) const {
    return empty + static_cast<uint32_t>(s) * kBarBytes;
  }
};

// Position in the ring; producer and consumers advance identically (same walk, same k-tiles).
struct RingPos {
  int stage = 0;
  uint32_t phase = 0;
  __device__ void advance() {
    if (++stage == WsCfg::kStages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

// Carves the ring out of dynamic shared memory (aligned up to kAlign); thread 0 initialises the
// barriers; the whole CTA syncs.
__device__ __forceinline__ Ring make_ring(char* smem) {
  const uint32_t raw = ptx::smem_addr(smem);
  Ring r;
  r.stages = (raw + WsCfg::kAlign - 1) / WsCfg::kAlign * WsCfg::kAlign;
  r.full = r.stages + WsCfg::kStages * WsCfg::kStageBytes;
  r.empty = r.full + WsCfg::kStages * Ring::kBarBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < WsCfg::kStages; ++s) {
      ptx::mbar_init(r.full_bar(s), 1);
      ptx::mbar_init(r.empty_bar(s), WsCfg::kConsumerWarps);
    }
    ptx::fence_mbar_init();
  }
  __syncthreads();
  return r;
}

// Producer (one thread): every k-tile of every segment of this CTA's walk, in walk order.
__device__ __forceinline__ void produce(const Plan& plan, const TmaMaps& maps, const Ring& ring) {
  ptx::prefetch_tensor_map(&maps.a);
  ptx::prefetch_tensor_map(&maps.b);
  CtaWalk w;
  walk_begin(plan, blockIdx.x, w);
  Segment s;
  RingPos pos;
  while (walk_next(plan, w, s)) {
    const auto row_a = static_cast<int32_t>(tile_coord_m(plan, s.tile) * KernelConfig::kTileM);
    const auto row_b = static_cast<int32_t>(tile_coord_n(plan, s.tile) * KernelConfig::kTileN);
    for (int64_t kt = s.k_begin; kt < s.k_end; ++kt) {
      const auto k0 = static_cast<int32_t>(kt * KernelConfig::kTileK);
      ptx::mbar_wait(ring.empty_bar(pos.stage), pos.phase ^ 1);
      ptx::mbar_arrive_expect_tx(ring.full_bar(pos.stage), WsCfg::kStageBytes);
      ptx::tma_load_2d(ring.a(pos.stage), &maps.a, ring.full_bar(pos.stage), k0, row_a);
      ptx::tma_load_2d(ring.b(pos.stage), &maps.b, ring.full_bar(pos.stage), k0, row_b);
      pos.advance();
    }
  }
}

__device__ __forceinline__ void acc_fence(Accum& acc) {
#pragma unroll
  for (int i = 0; i < kAccFloats; ++i) ptx::reg_fence(acc.v[i]);
}

// Consumer warpgroup `wg` (0 or 1): acc = its 64 rows of the tile over `iters` k-tiles from the
// ring. Keeps one wgmma group in flight and frees a stage once the group reading it is done.
__device__ __forceinline__ void consume(const Ring& ring, RingPos& pos, int64_t iters, int wg,
                                        Accum& acc) {
#pragma unroll
  for (int i = 0; i < kAccFloats; ++i) acc.v[i] = 0.0f;
  if (iters <= 0) return;
  const bool warp_leader = threadIdx.x % kWarpSize == 0;
  const uint32_t a_rows = static_cast<uint32_t>(wg * kConsumerRows) * kSmemRowBytes;
  int prev = -1;
  for (int64_t it = 0; it < iters; ++it) {
    ptx::mbar_wait(ring.full_bar(pos.stage), pos.phase);
    acc_fence(acc);
    ptx::wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < kWgmmaSteps; ++ks) {
      const uint32_t k_off = static_cast<uint32_t>(ks) * kWgmmaKBytes;
      ptx::wgmma_m64n128k16_bf16(acc.v, ptx::smem_desc_sw128(ring.a(pos.stage) + a_rows + k_off),
                                 ptx::smem_desc_sw128(ring.b(pos.stage) + k_off));
    }
    ptx::wgmma_commit();
    ptx::wgmma_wait<1>();
    acc_fence(acc);
    if (prev >= 0 && warp_leader) ptx::mbar_arrive(ring.empty_bar(prev));
    prev = pos.stage;
    pos.advance();
  }
  ptx::wgmma_wait<0>();
  acc_fence(acc);
  if (warp_leader) ptx::mbar_arrive(ring.empty_bar(prev));
}

}  // namespace lw::cuda

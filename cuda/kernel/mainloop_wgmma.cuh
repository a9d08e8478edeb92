// Ladder step 2+ mainloop (sm_90a), any kernel tile: a ring of TMA-filled stages (128B swizzle,
// mbarrier full/empty pairs). One producer thread walks the plan and loads every segment's k-tiles
// ahead of the consumers; each consumer warpgroup multiplies its block with wgmma m64nNk16.
#pragma once
#include <cuda.h>

#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "cuda/kernel/ptx_wgmma.cuh"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

// Tensor maps of A (dims K x M, box kTileK x tile M) and B (dims K x N, box kTileK x tile N).
struct TmaMaps {
  CUtensorMap a;
  CUtensorMap b;
};

constexpr int kWgmmaK = 16;                              // k per wgmma instruction
constexpr int kWgmmaSteps = kTileK / kWgmmaK;            // 4 per k-tile
constexpr uint32_t kWgmmaKBytes = kWgmmaK * kElemBytes;  // 32 B along a swizzled row
constexpr uint32_t kSmemRowBytes = kTileK * kElemBytes;  // 128 B
static_assert(kSmemRowBytes == 128, "one k-tile row is one 128-byte swizzle row");

// Shared-memory addresses of the stage ring and its barriers.
template <class Cfg>
struct Ring {
  uint32_t stages = 0;  // stage s: A at stages + s * kStageBytes, B kBytesA later
  uint32_t full = 0;    // full[s]: producer's expect_tx arrive + TMA bytes
  uint32_t empty = 0;   // empty[s]: one arrive per consumer warp
  static constexpr uint32_t kBarBytes = 8;
  __device__ uint32_t a(int s) const {
    return stages + static_cast<uint32_t>(s) * Cfg::kStageBytes;
  }
  __device__ uint32_t b(int s) const { return a(s) + Cfg::kBytesA; }
  __device__ uint32_t full_bar(int s) const { return full + static_cast<uint32_t>(s) * kBarBytes; }
  __device__ uint32_t empty_bar(int s) const {
    return empty + static_cast<uint32_t>(s) * kBarBytes;
  }
};

// Position in the ring; producer and consumers advance identically (same walk, same k-tiles).
template <class Cfg>
struct RingPos {
  int stage = 0;
  uint32_t phase = 0;
  __device__ void advance() {
    if (++stage == Cfg::kStages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

// Carves the ring out of dynamic shared memory (aligned up to kAlign); thread 0 initialises the
// barriers; the whole CTA syncs.
template <class Cfg>
__device__ __forceinline__ Ring<Cfg> make_ring(char* smem) {
  const uint32_t raw = ptx::smem_addr(smem);
  Ring<Cfg> r;
  r.stages = (raw + Cfg::kAlign - 1) / Cfg::kAlign * Cfg::kAlign;
  r.full = r.stages + Cfg::kStages * Cfg::kStageBytes;
  r.empty = r.full + Cfg::kStages * Ring<Cfg>::kBarBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbar_init(r.full_bar(s), 1);
      ptx::mbar_init(r.empty_bar(s), Cfg::kConsumerWarps);
    }
    ptx::fence_mbar_init();
  }
  __syncthreads();
  return r;
}

// Producer (one thread): every k-tile of every segment of this CTA's walk, in walk order.
template <class Cfg>
__device__ __forceinline__ void produce(const Plan& plan, const TmaMaps& maps,
                                        const Ring<Cfg>& ring) {
  ptx::prefetch_tensor_map(&maps.a);
  ptx::prefetch_tensor_map(&maps.b);
  CtaWalk w;
  walk_begin(plan, blockIdx.x, w);
  Segment s;
  RingPos<Cfg> pos;
  while (walk_next(plan, w, s)) {
    const auto row_a = static_cast<int32_t>(tile_coord_m(plan, s.tile) * Cfg::kTileM);
    const auto row_b = static_cast<int32_t>(tile_coord_n(plan, s.tile) * Cfg::kTileN);
    for (int64_t kt = s.k_begin; kt < s.k_end; ++kt) {
      const auto k0 = static_cast<int32_t>(kt * kTileK);
      ptx::mbar_wait(ring.empty_bar(pos.stage), pos.phase ^ 1);
      ptx::mbar_arrive_expect_tx(ring.full_bar(pos.stage), Cfg::kStageBytes);
      ptx::tma_load_2d(ring.a(pos.stage), &maps.a, ring.full_bar(pos.stage), k0, row_a);
      ptx::tma_load_2d(ring.b(pos.stage), &maps.b, ring.full_bar(pos.stage), k0, row_b);
      pos.advance();
    }
  }
}

template <class A>
__device__ __forceinline__ void acc_fence(A& acc) {
#pragma unroll
  for (int i = 0; i < A::kSize; ++i) ptx::reg_fence(acc.v[i]);
}

// One k-tile of consumer `wg`'s block from ring stage `stage`: kWgmmaSteps x kMBlocks wgmmas.
template <class Cfg, class A>
__device__ __forceinline__ void mma_stage(const Ring<Cfg>& ring, int stage, int wg, A& acc) {
  using Mma = ptx::Wgmma<Cfg::kWgCols>;
  const uint32_t a_rows =
      static_cast<uint32_t>((wg / Cfg::kConsumersN) * Cfg::kWgRows) * kSmemRowBytes;
  const uint32_t b_rows =
      static_cast<uint32_t>((wg % Cfg::kConsumersN) * Cfg::kWgCols) * kSmemRowBytes;
#pragma unroll
  for (int ks = 0; ks < kWgmmaSteps; ++ks) {
    const uint32_t k_off = static_cast<uint32_t>(ks) * kWgmmaKBytes;
    const uint64_t desc_b = ptx::smem_desc_sw128(ring.b(stage) + b_rows + k_off);
#pragma unroll
    for (int mb = 0; mb < Cfg::kMBlocks; ++mb) {
      const uint32_t a_off = a_rows + static_cast<uint32_t>(mb * Cfg::kWgmmaM) * kSmemRowBytes;
      auto& d = *reinterpret_cast<float(*)[Mma::kRegs]>(acc.v + mb * Mma::kRegs);
      Mma::mma(d, ptx::smem_desc_sw128(ring.a(stage) + a_off + k_off), desc_b);
    }
  }
}

// Consumer warpgroup `wg` (0 or 1): acc = its block of the tile over `iters` k-tiles from the
// ring. Keeps one wgmma group in flight and frees a stage once the group reading it is done.
template <class Cfg, class A>
__device__ __forceinline__ void consume(const Ring<Cfg>& ring, RingPos<Cfg>& pos, int64_t iters,
                                        int wg, A& acc) {
#pragma unroll
  for (int i = 0; i < A::kSize; ++i) acc.v[i] = 0.0f;
  if (iters <= 0) return;
  const bool warp_leader = threadIdx.x % kWarpSize == 0;
  int prev = -1;
  for (int64_t it = 0; it < iters; ++it) {
    ptx::mbar_wait(ring.full_bar(pos.stage), pos.phase);
    acc_fence(acc);
    ptx::wgmma_fence();
    mma_stage(ring, pos.stage, wg, acc);
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

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

// Tensor maps of A (dims K x M, box kTileK x kSliceRowsA) and B (dims K x N, box kTileK x
// kSliceRowsB): whole operand tiles without a cluster, this CTA's multicast slice with one. C
// (dims N x M, bf16) for the TMA-store epilogue: box kEpilogueBoxCols x kEpilogueBoxRows with
// 128B swizzle, and c_tail with the consumer's remaining kTailCols columns, unswizzled; both are
// unused (zero) when the epilogue cannot store through the TMA (GemmParams::c_vectors false).
struct TmaMaps {
  CUtensorMap a;
  CUtensorMap b;
  CUtensorMap c;
  CUtensorMap c_tail;
  // Deep tiles (kChunks > 1): A and B as 3-D maps of k-chunks (encode_operand_chunks_map), a
  // stage's chunks one box; zero (unused) on the other tiles.
  CUtensorMap a_chunks;
  CUtensorMap b_chunks;
};

constexpr int kWgmmaK = 16;                              // k per wgmma instruction
constexpr int kWgmmaSteps = kTileK / kWgmmaK;            // 4 per k-chunk
constexpr uint32_t kWgmmaKBytes = kWgmmaK * kElemBytes;  // 32 B along a swizzled row
constexpr uint32_t kSmemRowBytes = kTileK * kElemBytes;  // 128 B
static_assert(kSmemRowBytes == 128, "one k-chunk row is one 128-byte swizzle row");
static_assert(kTileK == kWgmmaChunkK, "the kernels' k-chunk is the configs'");

// Shared-memory addresses of the stage ring and its barriers.
template <class Cfg>
struct Ring {
  uint32_t stages = 0;   // stage s: A at stages + s * kStageBytes, B kBytesA later
  uint32_t full = 0;     // full[s]: producer's expect_tx arrive + TMA bytes
  uint32_t empty = 0;    // empty[s]: one arrive per consumer warp (of every CTA of the cluster)
  uint32_t staging = 0;  // the consumer warps' epilogue store boxes (1024-byte aligned)
  uint32_t turn = 0;     // turn[g]: ping-pong consumer g may start its next MAC loop
  static constexpr uint32_t kBarBytes = 8;
  __device__ uint32_t a(int s) const {
    return stages + static_cast<uint32_t>(s) * Cfg::kStageBytes;
  }
  __device__ uint32_t b(int s) const { return a(s) + Cfg::kBytesA; }
  __device__ uint32_t full_bar(int s) const { return full + static_cast<uint32_t>(s) * kBarBytes; }
  __device__ uint32_t empty_bar(int s) const {
    return empty + static_cast<uint32_t>(s) * kBarBytes;
  }
  __device__ uint32_t turn_bar(int g) const { return turn + static_cast<uint32_t>(g) * kBarBytes; }
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
  // Past `iters` k-tiles another consumer multiplies (ping-pong).
  __device__ void skip(int64_t iters) {
    const int64_t at = stage + iters;
    stage = static_cast<int>(at % Cfg::kStages);
    phase ^= static_cast<uint32_t>((at / Cfg::kStages) & 1);
  }
};

// Carves the ring, then the epilogue's store boxes, then the barriers out of dynamic shared memory
// (aligned up to kAlign); thread 0 initialises the barriers; the whole CTA syncs. In a cluster
// (peers signal each other's barriers) every thread only arrives at the cluster barrier here: each
// thread that uses the barriers waits on it first (join_cluster), so its latency overlaps the
// prologue.
template <class Cfg>
__device__ __forceinline__ Ring<Cfg> make_ring(char* smem) {
  const uint32_t raw = ptx::smem_addr(smem);
  Ring<Cfg> r;
  r.stages = (raw + Cfg::kAlign - 1) / Cfg::kAlign * Cfg::kAlign;
  r.staging = r.stages + Cfg::kStages * Cfg::kStageBytes;
  r.full = r.staging + Cfg::kEpilogueBytes;
  r.empty = r.full + Cfg::kStages * Ring<Cfg>::kBarBytes;
  r.turn = r.empty + Cfg::kStages * Ring<Cfg>::kBarBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbar_init(r.full_bar(s), 1);
      ptx::mbar_init(r.empty_bar(s), Cfg::kEmptyArrivals);
    }
    if constexpr (Cfg::kPingpong) {
      for (int g = 0; g < Cfg::kConsumers; ++g) ptx::mbar_init(r.turn_bar(g), 1);
    }
    ptx::fence_mbar_init();
  }
  if constexpr (Cfg::kClusterSize > 1) {
    ptx::cluster_arrive_relaxed();
  } else {
    __syncthreads();
  }
  return r;
}

// Before a thread's first use of the ring's barriers: in a cluster, every peer has initialised
// its barriers (make_ring's arrive); without one, make_ring's __syncthreads did it.
template <class Cfg>
__device__ __forceinline__ void join_cluster() {
  if constexpr (Cfg::kClusterSize > 1) ptx::cluster_wait();
}

// Cluster rank of this CTA (the kernels launch 1-D clusters along x) and the plan CTA it walks as.
template <class Cfg>
__device__ __forceinline__ int64_t cluster_rank() {
  return static_cast<int64_t>(blockIdx.x % Cfg::kClusterSize);
}
// The splitk-dsm form's grid is split_tiles x splits (clusters of 1 x splits: one tile's splits),
// so its CTA (x, y) walks unit x + y * split_tiles, as plan CTA x + y * split_tiles would.
template <class Cfg>
__device__ __forceinline__ int64_t plan_cta() {
  if constexpr (Cfg::kClusterReduce) {
    return static_cast<int64_t>(blockIdx.x) + static_cast<int64_t>(blockIdx.y) * gridDim.x;
  } else {
    return static_cast<int64_t>(blockIdx.x / Cfg::kClusterSize);
  }
}

// Multicast masks: A goes to the CTAs of this one's cluster row (same rank % kClusterM), B to
// those of its cluster column (same rank / kClusterM).
template <class Cfg>
__device__ __forceinline__ uint16_t mask_a(int64_t rank) {
  uint16_t m = 0;
  for (int j = 0; j < Cfg::kClusterN; ++j) m |= 1u << (rank % Cfg::kClusterM + j * Cfg::kClusterM);
  return m;
}
template <class Cfg>
__device__ __forceinline__ uint16_t mask_b(int64_t rank) {
  uint16_t m = 0;
  for (int i = 0; i < Cfg::kClusterM; ++i)
    m |= 1u << ((rank / Cfg::kClusterM) * Cfg::kClusterM + i);
  return m;
}

// Loads slice `slice` (kRows rows from `row`) of one operand into `dst`: multicast to `mask` when
// the operand is shared in the cluster.
template <int kRows, bool kShared>
__device__ __forceinline__ void load_slice(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                           int32_t k0, int32_t row, int64_t slice, uint16_t mask) {
  const auto offset = static_cast<int32_t>(slice * kRows);
  const uint32_t dst_slice = dst + static_cast<uint32_t>(offset) * kSmemRowBytes;
  if constexpr (kShared) {
    ptx::tma_load_2d_multicast(dst_slice, map, bar, k0, row + offset, mask);
  } else {
    ptx::tma_load_2d(dst_slice, map, bar, k0, row + offset);
  }
}

// A deep stage (kChunks k-chunks) of both operands, no cluster: one 3-D box of chunks each. The
// last k-tile of a row of K % kTileK != 0, whose last chunk the 3-D map would read past the row,
// goes as one 2-D box per chunk instead (a chunk wholly past K reads as zero either way).
template <class Cfg>
__device__ __forceinline__ void load_chunks(const Ring<Cfg>& ring, int stage, const TmaMaps& maps,
                                            uint32_t full, int32_t k0, int32_t k, int32_t row_a,
                                            int32_t row_b) {
  if (k % kTileK == 0 || k0 + Cfg::kTileK <= k) {
    ptx::tma_load_3d(ring.a(stage), &maps.a_chunks, full, 0, row_a, k0 / kTileK);
    ptx::tma_load_3d(ring.b(stage), &maps.b_chunks, full, 0, row_b, k0 / kTileK);
    return;
  }
#pragma unroll
  for (int c = 0; c < Cfg::kChunks; ++c) {
    const auto plane_a = static_cast<uint32_t>(c * Cfg::kTileM) * kSmemRowBytes;
    const auto plane_b = static_cast<uint32_t>(c * Cfg::kTileN) * kSmemRowBytes;
    ptx::tma_load_2d(ring.a(stage) + plane_a, &maps.a, full, k0 + c * kTileK, row_a);
    ptx::tma_load_2d(ring.b(stage) + plane_b, &maps.b, full, k0 + c * kTileK, row_b);
  }
}

// The producer's last act in a cluster: waits until every stage it filled was released by the
// consumers of every CTA of the cluster (as if filling kStages more). Then no peer will multicast
// into this CTA or arrive on its barriers again, so it may exit without a cluster barrier.
template <class Cfg>
__device__ __forceinline__ void drain_ring(const Ring<Cfg>& ring, RingPos<Cfg> pos) {
  for (int i = 0; i < Cfg::kStages; ++i) {
    ptx::mbar_wait(ring.empty_bar(pos.stage), pos.phase ^ 1);
    pos.advance();
  }
}

// Producer (one thread): every k-tile of every segment of this CTA's walk, in walk order.
template <class Cfg>
__device__ __forceinline__ void produce(const Plan& plan, const TmaMaps& maps,
                                        const Ring<Cfg>& ring, int32_t k) {
  ptx::prefetch_tensor_map(&maps.a);
  ptx::prefetch_tensor_map(&maps.b);
  if constexpr (Cfg::kChunks > 1) {
    ptx::prefetch_tensor_map(&maps.a_chunks);
    ptx::prefetch_tensor_map(&maps.b_chunks);
  }
  const int64_t rank = cluster_rank<Cfg>();
  const int64_t slice_a = rank / Cfg::kClusterM, slice_b = rank % Cfg::kClusterM;
  const uint16_t ma = mask_a<Cfg>(rank), mb = mask_b<Cfg>(rank);
  CtaWalk w;
  walk_begin(plan, plan_cta<Cfg>(), w);
  Segment s;
  RingPos<Cfg> pos;
  join_cluster<Cfg>();
  while (walk_next_as<Cfg::kWholeTiles>(plan, w, s)) {
    const TileCoord cta = cta_tile(plan, s.tile, rank);
    const auto row_a = static_cast<int32_t>(cta.m * Cfg::kTileM);
    const auto row_b = static_cast<int32_t>(cta.n * Cfg::kTileN);
    for (int64_t kt = s.k_begin; kt < s.k_end; ++kt) {
      const auto k0 = static_cast<int32_t>(kt * Cfg::kTileK);
      const uint32_t full = ring.full_bar(pos.stage);
      ptx::mbar_wait(ring.empty_bar(pos.stage), pos.phase ^ 1);
      ptx::mbar_arrive_expect_tx(full, Cfg::kStageBytes);  // own slices + the peers' multicasts
      if constexpr (Cfg::kChunks == 1) {
        load_slice<Cfg::kSliceRowsA, (Cfg::kClusterN > 1)>(ring.a(pos.stage), &maps.a, full, k0,
                                                           row_a, slice_a, ma);
        load_slice<Cfg::kSliceRowsB, (Cfg::kClusterM > 1)>(ring.b(pos.stage), &maps.b, full, k0,
                                                           row_b, slice_b, mb);
      } else {
        load_chunks<Cfg>(ring, pos.stage, maps, full, k0, k, row_a, row_b);
      }
      pos.advance();
    }
  }
  if constexpr (Cfg::kClusterSize > 1) drain_ring(ring, pos);
}

// Frees ring stage `stage` in every CTA of the cluster (their producers multicast into ours).
template <class Cfg>
__device__ __forceinline__ void release_stage(const Ring<Cfg>& ring, int stage) {
  if constexpr (Cfg::kClusterSize == 1) {
    ptx::mbar_arrive(ring.empty_bar(stage));
  } else {
#pragma unroll
    for (uint32_t r = 0; r < Cfg::kClusterSize; ++r)
      ptx::mbar_arrive_cluster(ring.empty_bar(stage), r);
  }
}

template <class A>
__device__ __forceinline__ void acc_fence(A& acc) {
#pragma unroll
  for (int i = 0; i < A::kSize; ++i) ptx::reg_fence(acc.v[i]);
}

// One k-tile of consumer block `wg` from ring stage `stage`: kWgmmaSteps x kMBlocks wgmmas of N
// = kMmaCols (the whole frame width when the consumers alternate k-tiles; ping-pong consumers own
// block 0, the whole frame). A swapped tile's B rows are the instructions' A operand and its A rows
// their B operand.
template <class Cfg, class A>
__device__ __forceinline__ void mma_stage(const Ring<Cfg>& ring, int stage, int wg, A& acc) {
  using Mma = ptx::Wgmma<Cfg::kMmaCols>;
  static_assert(A::kSize == Cfg::kMBlocks * Mma::kRegs, "one accumulator block per m64 block");
  const uint32_t op_a = Cfg::kSwapped ? ring.b(stage) : ring.a(stage);
  const uint32_t op_b = Cfg::kSwapped ? ring.a(stage) : ring.b(stage);
  const int col_block = Cfg::kAlternateK ? 0 : wg % Cfg::kConsumersN;
  const uint32_t a_rows =
      static_cast<uint32_t>((wg / Cfg::kConsumersN) * Cfg::kWgRows) * kSmemRowBytes;
  const uint32_t b_rows = static_cast<uint32_t>(col_block * Cfg::kWgCols) * kSmemRowBytes;
  // One low descriptor word per operand a stage; every wgmma's is that plus a constant. A deep
  // stage keeps its chunks one after another, each the operand's rows of one k-chunk.
  const uint32_t lo_a = ptx::smem_desc_sw128_lo(op_a + a_rows);
  const uint32_t lo_b = ptx::smem_desc_sw128_lo(op_b + b_rows);
  constexpr auto kPlaneUnitsA = ptx::smem_desc_units(
      static_cast<uint32_t>(Cfg::kSwapped ? Cfg::kTileN : Cfg::kTileM) * kSmemRowBytes);
  constexpr auto kPlaneUnitsB = ptx::smem_desc_units(
      static_cast<uint32_t>(Cfg::kSwapped ? Cfg::kTileM : Cfg::kTileN) * kSmemRowBytes);
#pragma unroll
  for (int step = 0; step < Cfg::kChunks * kWgmmaSteps; ++step) {
    constexpr auto kStepUnits = ptx::smem_desc_units(kWgmmaKBytes);
    const auto chunk = static_cast<uint32_t>(step / kWgmmaSteps);
    const uint32_t k_units = static_cast<uint32_t>(step % kWgmmaSteps) * kStepUnits;
    const uint32_t k_units_a = k_units + chunk * kPlaneUnitsA;
    const uint32_t k_units_b = k_units + chunk * kPlaneUnitsB;
    const uint64_t desc_b = ptx::smem_desc_sw128_at(lo_b + k_units_b);
#pragma unroll
    for (int mb = 0; mb < Cfg::kMBlocks; ++mb) {
      const uint32_t a_units =
          ptx::smem_desc_units(static_cast<uint32_t>(mb * Cfg::kWgmmaM) * kSmemRowBytes);
      auto& d = *reinterpret_cast<float(*)[Mma::kRegs]>(acc.v + mb * Mma::kRegs);
      Mma::mma(d, ptx::smem_desc_sw128_at(lo_a + a_units + k_units_a), desc_b);
    }
  }
}

// The MAC loop over ring k-tiles it = 0..iters of which this consumer multiplies those with
// it % kEvery == first (every one, or alternate ones): keeps one wgmma group in flight and frees a
// stage once the group reading it is done. Every consumer advances `pos` over all of them. With
// alternate ones the ring is a whole number of rounds (wgmma_stages): a parity wait on a stage
// whose previous fill was the partner's could pass before that fill landed.
template <class Cfg, int kEvery, class A>
__device__ __forceinline__ void mac_loop(const Ring<Cfg>& ring, RingPos<Cfg>& pos, int64_t iters,
                                         int wg, int first, A& acc) {
#pragma unroll
  for (int i = 0; i < A::kSize; ++i) acc.v[i] = 0.0f;
  if (iters <= 0) return;
  static_assert(kEvery > 0 && (kEvery & (kEvery - 1)) == 0, "a power-of-two consumer count");
  const bool warp_leader = threadIdx.x % kWarpSize == 0;
  const auto mine = static_cast<uint32_t>(first);
  const auto count = static_cast<uint32_t>(iters);  // a segment's k-tiles: K / 64 < 2^32
  int prev = -1;
  for (uint32_t it = 0; it < count; ++it) {  // 32-bit: the loop's own instructions are on the bound
    if ((it & (kEvery - 1)) == mine) {
      ptx::mbar_wait(ring.full_bar(pos.stage), pos.phase);
      acc_fence(acc);
      ptx::wgmma_fence();
      mma_stage(ring, pos.stage, wg, acc);
      ptx::wgmma_commit();
      ptx::wgmma_wait<1>();
      acc_fence(acc);
      if (prev >= 0 && warp_leader) release_stage(ring, prev);
      prev = pos.stage;
    }
    pos.advance();
  }
  ptx::wgmma_wait<0>();
  acc_fence(acc);
  if (prev >= 0 && warp_leader) release_stage(ring, prev);
}

// After alternating consumers' MAC loops: each consumer holds a whole-width partial sum `full`
// (its k-tiles); consumer g keeps fragment half g of it and adds the partner's half g, which the
// partner writes to the epilogue's store boxes (free once this thread's earlier TMA stores have
// read them), `kRound` floats per thread at a time. Commutative, so both halves are bit-exact and
// deterministic. L: the consumers' layout (thread ids and their named barrier).
template <class Cfg, class L, class F, class A>
__device__ __forceinline__ void add_partner_half(const Ring<Cfg>& ring, int wg, const F& full,
                                                 A& acc) {
  static_assert(F::kSize == 2 * A::kSize, "a consumer keeps half the whole-width sum");
  constexpr int kGroupThreads = Cfg::kWarpgroupThreads;
  constexpr int kRound =  // floats per thread and round
      Cfg::kEpilogueBytes / (Cfg::kConsumerThreads * static_cast<int>(sizeof(float)));
  static_assert(kRound > 0 && kRound % kFragFloats == 0, "whole fragments per round");
  const uint32_t t = static_cast<uint32_t>(L::tid() % kGroupThreads);
  const bool first_half = wg == 0;  // selects, not indexes: `full` must stay in registers
  constexpr auto kFloatBytes = static_cast<uint32_t>(sizeof(float));
  const auto slot = [&](int group, int i) {
    return ring.staging +
           (static_cast<uint32_t>(group * kRound + i) * kGroupThreads + t) * kFloatBytes;
  };
  ptx::bulk_wait_read<0>();
#pragma unroll
  for (int r0 = 0; r0 < A::kSize; r0 += kRound) {
    L::sync();  // the boxes are free: earlier stores read them, the last round's reads are done
#pragma unroll
    for (int i = 0; i < kRound && r0 + i < A::kSize; ++i)
      ptx::st_shared_b32(slot(wg, i),
                         __float_as_uint(first_half ? full.v[A::kSize + r0 + i] : full.v[r0 + i]));
    L::sync();
#pragma unroll
    for (int i = 0; i < kRound && r0 + i < A::kSize; ++i)
      acc.v[r0 + i] = (first_half ? full.v[r0 + i] : full.v[A::kSize + r0 + i]) +
                      __uint_as_float(ptx::ld_shared_b32(slot(1 - wg, i)));
  }
  L::sync();  // the epilogue may refill the boxes
}

// Ping-pong consumers multiply their segments in walk order: consumer g's MAC loop of segment n > 0
// starts after the other's of segment n - 1 ended. Besides sharing the tensor cores in turn, this
// keeps every full-barrier wait within one phase: a consumer skips the other's k-tiles in the ring
// without waiting on them (RingPos::skip), and when it waits for its own k-tile at ring position
// P, every position before P has been filled and P's stage cannot be refilled before P is released.
struct Turns {
  uint32_t waited = 0;  // turns this consumer waited for: the parity of its next wait
};
template <class Cfg>
__device__ __forceinline__ void await_turn(const Ring<Cfg>& ring, int consumer, Turns& turns) {
  ptx::mbar_wait(ring.turn_bar(consumer), turns.waited & 1);
  ++turns.waited;
}
// After the MAC loop (its last full-barrier wait passed): the other consumer's turn.
template <class Cfg, class L>
__device__ __forceinline__ void pass_turn(const Ring<Cfg>& ring, int consumer) {
  if (L::tid() == 0) ptx::mbar_arrive(ring.turn_bar(1 - consumer));
}

// Consumer warpgroup `wg` (0 or 1): acc = its block of the tile over `iters` k-tiles from the
// ring; with alternating consumers, over its k-tiles at the whole width, then the exchange;
// ping-pong, the whole tile.
template <class Cfg, class L, class A>
__device__ __forceinline__ void consume(const Ring<Cfg>& ring, RingPos<Cfg>& pos, int64_t iters,
                                        int wg, A& acc) {
  if constexpr (Cfg::kAlternateK) {
    if (iters <= 0) {  // both consumers return here: no exchange
#pragma unroll
      for (int i = 0; i < A::kSize; ++i) acc.v[i] = 0.0f;
      return;
    }
    Accum<Cfg::kMmaFloats> full;
    mac_loop<Cfg, Cfg::kConsumers>(ring, pos, iters, wg, wg, full);
    add_partner_half<Cfg, L>(ring, wg, full, acc);
  } else {
    mac_loop<Cfg, 1>(ring, pos, iters, Cfg::kPingpong ? 0 : wg, 0, acc);
  }
}

}  // namespace lw::cuda

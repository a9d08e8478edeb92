// Split-K through distributed shared memory (Plan::cluster_reduce): a tile's splits are one
// cluster; each peer writes its fp32 partial into its slot in the owner's shared memory and
// arrives on the owner's mbarrier; the owner waits on it and adds the slots in k order.
#pragma once
#include <cstdint>

#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

// The reduction area (kClusterReduceBarrierBytes, then the peers' slots) starts
// past everything the kernel carves itself (its config's kSmemBytes, the launcher's base size).
constexpr uint32_t kReduceBarrierOffset = 0;
constexpr auto kReduceSlotsOffset = static_cast<uint32_t>(kClusterReduceBarrierBytes);
constexpr uint32_t kFloat4Bytes = 16;

template <class L>
__device__ __forceinline__ uint32_t reduce_area() {
  extern __shared__ __align__(128) char smem[];
  return ptx::smem_addr(smem) + static_cast<uint32_t>(L::kKernelSmemBytes);
}

// Before the kernel's own barrier initialisation is fenced (make_ring): the owner's barrier
// expects one arrival per thread of layout L of every peer. Thread 0 of every CTA initialises it
// (whichever rank owns a tile), so no CTA has to know its role before it walks.
template <class L>
__device__ __forceinline__ void init_cluster_reduce(const Plan& plan) {
  if (threadIdx.x == 0) {
    const auto peers = static_cast<uint32_t>(plan.splits - 1);
    ptx::mbar_init(reduce_area<L>() + kReduceBarrierOffset, peers * L::kThreads);
  }
}

// Shared offset of peer slot `j` in the reduction area (fragment-major, thread-minor float4s).
template <class L>
__device__ __forceinline__ uint32_t reduce_frag(int64_t j, int f) {
  constexpr auto kSlotBytes =
      static_cast<uint32_t>(cluster_reduce_partial_bytes(TileShape{L::kTileM, L::kTileN, 0}));
  return reduce_area<L>() + kReduceSlotsOffset + static_cast<uint32_t>(j) * kSlotBytes +
         static_cast<uint32_t>(f * L::kThreads + L::tid()) * kFloat4Bytes;
}

// A peer's StorePartial: its partial into its slot of the owner (cluster_reduce_owner: ranks are
// blockIdx.y, the split), then its arrival. The first write waits
// until every CTA of the cluster has started and initialised its barrier (the arrive after
// make_ring).
template <class L>
__device__ __forceinline__ void store_to_owner(const Plan& plan, const Segment& s,
                                               const typename L::Acc& acc) {
  const auto owner = static_cast<uint32_t>(cluster_reduce_owner(plan));
  const int64_t j = cluster_reduce_peer(plan, s);
  ptx::cluster_wait();
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const float* v = frag(acc, f);
    ptx::st_cluster_v4(ptx::map_shared(reduce_frag<L>(j, f), owner), v[0], v[1], v[2], v[3]);
  }
  ptx::mbar_arrive_release_cluster(ptx::map_shared(reduce_area<L>() + kReduceBarrierOffset, owner));
}

// The owner's Final: every thread waits for all peers' arrivals, then adds their slots in k order
// (the same sums in the same order as FixupStorage::Slots: bit-identical to it).
template <class L>
__device__ __forceinline__ void reduce_from_peers(const Plan& plan, typename L::Acc& acc) {
  ptx::mbar_wait<true>(reduce_area<L>() + kReduceBarrierOffset, 0);
  for (int64_t j = 0; j < plan.splits - 1; ++j) {
#pragma unroll
    for (int f = 0; f < L::kFrags; ++f) {
      add_frag(acc, f, ptx::ld_shared_v4_f32(reduce_frag<L>(j, f)));  // fixup.cuh's
    }
  }
}

}  // namespace lw::cuda

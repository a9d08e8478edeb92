// Inline-PTX wrappers for the sm_90a kernel: mbarriers, TMA 2-D tile loads and stores (bulk
// groups, proxy fence), wgmma fences and smem descriptors (the MMA itself: ptx_wgmma.cuh),
// setmaxnreg, named barriers. Device-only.
#pragma once
#include <cstdint>

namespace lw::cuda::ptx {

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}

// Makes mbarrier initialisation visible to the async proxy (TMA) and the other threads.
__device__ __forceinline__ void fence_mbar_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// Arrives once and adds `bytes` to the transaction count the current phase waits for.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// Spins until the phase with parity `parity` of the barrier has completed; kAcquireCluster: the
// wait acquires at cluster scope what the arrivals released (peers' writes into this CTA).
template <bool kAcquireCluster = false>
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    if constexpr (kAcquireCluster) {
      asm volatile(
          "{\n"
          ".reg .pred p;\n"
          "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
          "selp.u32 %0, 1, 0, p;\n"
          "}\n"
          : "=r"(done)
          : "r"(bar), "r"(parity)
          : "memory");
    } else {
      asm volatile(
          "{\n"
          ".reg .pred p;\n"
          "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
          "selp.u32 %0, 1, 0, p;\n"
          "}\n"
          : "=r"(done)
          : "r"(bar), "r"(parity)
          : "memory");
    }
  } while (done == 0);
}

__device__ __forceinline__ void prefetch_tensor_map(const void* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}

// TMA: box at element coordinates (c0 = innermost, c1) of `map` -> shared `dst`, completing
// its bytes on mbarrier `bar`. Out-of-bounds elements are zero-filled.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* map, uint32_t bar, int32_t c0,
                                            int32_t c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, "
      "{%3, %4}], [%2];\n" ::"r"(dst),
      "l"(map), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}

// TMA: 3-D box at element coordinates (c0 innermost, c1, c2) of `map` -> shared `dst` (the box's
// c2 planes one after another), completing its bytes on mbarrier `bar`. Out-of-bounds elements
// are zero-filled.
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const void* map, uint32_t bar, int32_t c0,
                                            int32_t c1, int32_t c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, "
      "{%3, %4, %5}], [%2];\n" ::"r"(dst),
      "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

// TMA multicast: the box lands at the same shared offset `dst` in every CTA of `cta_mask` and
// completes its bytes on each one's mbarrier at offset `bar`.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const void* map, uint32_t bar,
                                                      int32_t c0, int32_t c1, uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::"
      "cluster [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(dst),
      "l"(map), "r"(bar), "r"(c0), "r"(c1), "h"(cta_mask)
      : "memory");
}

// TMA store: shared `src` (laid out as `map`'s box) -> the box at element coordinates (c0 =
// innermost, c1) of `map`; elements outside the tensor are not written. Joins this thread's
// current bulk group (bulk_commit closes it).
__device__ __forceinline__ void tma_store_2d(const void* map, uint32_t src, int32_t c0,
                                             int32_t c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map),
      "r"(src), "r"(c0), "r"(c1)
      : "memory");
}

__device__ __forceinline__ void bulk_commit() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// Waits until at most kPending of this thread's bulk groups still read shared memory.
template <int kPending>
__device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
}

// Makes this thread's ordinary shared-memory writes visible to the async proxy (TMA).
__device__ __forceinline__ void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Rank of this CTA in its cluster.
__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// One arrival on the mbarrier at shared offset `bar` of cluster CTA `rank` (release, cluster
// scope).
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

// Address in cluster CTA `rank`'s shared memory of this CTA's shared offset `addr`.
__device__ __forceinline__ uint32_t map_shared(uint32_t addr, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(out) : "r"(addr), "r"(rank));
  return out;
}

// 16 bytes into a cluster CTA's shared memory (`addr` from map_shared).
__device__ __forceinline__ void st_cluster_v4(uint32_t addr, float x, float y, float z, float w) {
  asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "f"(x), "f"(y),
               "f"(z), "f"(w)
               : "memory");
}

// One arrival on a cluster CTA's mbarrier (`bar` from map_shared), releasing at cluster scope the
// calling thread's earlier writes into that CTA's shared memory.
__device__ __forceinline__ void mbar_arrive_release_cluster(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(bar)
               : "memory");
}

// Every thread of every CTA of the cluster (not warp-aligned: callers may have diverged).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

// The two halves of a cluster barrier, apart: every thread arrives (relaxed: what it must publish
// was fenced before, e.g. by fence_mbar_init), and a thread that will touch the cluster's shared
// state waits (acquire) right before it does; a thread that exits without waiting is fine.
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;\n" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
}

// Shared-memory matrix descriptor: K-major operand, 128-byte swizzle, 8-row groups 1024 B apart.
// Its low word (start address and leading offset) follows the operand's address, its high word
// (stride and layout) is fixed: the descriptor of address + d (d a multiple of 16) is the low word
// plus d >> 4 while address + d stays in the 18-bit shared window, so a MAC loop computes one low
// word a stage and adds constants (the ~20 address instructions a k-tile step took are the
// consumers' issue bound on narrow tiles: docs/kernel-notes.md, "One CTA's k-tile rate").
namespace smem_desc {
constexpr uint32_t kAddrMask = 0x3FFFF;  // 18-bit shared address
constexpr uint32_t kEncodeShift = 4;     // addresses and offsets are encoded in 16-byte units
constexpr uint32_t kLeadingOffset = 1;   // unused for swizzled K-major layouts
constexpr uint32_t kStrideBytes = 1024;  // 8 rows x 128 B: one swizzle atom
constexpr uint32_t kSwizzle128B = 1;     // layout type field value for 128B swizzle
constexpr int kLeadingShift = 16, kLayoutShiftHi = 62 - 32;
constexpr uint32_t kHi128B = (kStrideBytes >> kEncodeShift) | (kSwizzle128B << kLayoutShiftHi);
}  // namespace smem_desc

__device__ __forceinline__ uint32_t smem_desc_sw128_lo(uint32_t addr) {
  using namespace smem_desc;
  return ((addr & kAddrMask) >> kEncodeShift) | (kLeadingOffset << kLeadingShift);
}
// The descriptor whose low word is `lo` (smem_desc_sw128_lo, plus offsets >> 4).
__device__ __forceinline__ uint64_t smem_desc_sw128_at(uint32_t lo) {
  uint64_t d;
  asm("mov.b64 %0, {%1, %2};" : "=l"(d) : "r"(lo), "r"(smem_desc::kHi128B));
  return d;
}
// A byte offset within a descriptor's operand, in the descriptor's 16-byte units.
__host__ __device__ constexpr uint32_t smem_desc_units(uint32_t bytes) {
  return bytes >> smem_desc::kEncodeShift;
}

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

// Waits until at most kPending committed wgmma groups of this warp are still in flight.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// Keeps the compiler from moving accesses of an accumulator register across a wgmma fence/wait.
__device__ __forceinline__ void reg_fence(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// Sets this warpgroup's per-thread register budget (setmaxnreg; a multiple of 8 in [24, 256]).
template <int kRegs>
__device__ __forceinline__ void regs_dealloc() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void regs_alloc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

// Barrier `id` (1..15) among `threads` threads (a multiple of the warp size).
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace lw::cuda::ptx

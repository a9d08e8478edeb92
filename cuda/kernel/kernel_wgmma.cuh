// Ladder step 2+ kernel (sm_90a), one instantiation per kernel tile: the same walk -> mainloop ->
// fixup -> epilogue, warp-specialised. Warpgroup 0's first thread walks the plan and streams
// k-tiles through the TMA ring; warpgroups 1-2 walk it too, consume the ring with wgmma, then run
// fixup and epilogue on their 256 threads (ping-pong: each on its own 128, every other whole tile
// of the walk, so that one's epilogue overlaps the other's MMAs), storing bf16 tiles
// through the TMA without waiting for the stores (a swapped tile's transpose from registers).
// setmaxnreg moves registers from producer to consumers.
#pragma once
#include "cuda/kernel/epilogue_staged.cuh"
#include "cuda/kernel/epilogue_tma.cuh"
#include "cuda/kernel/kernel.cuh"
#include "cuda/kernel/mainloop_wgmma.cuh"

namespace lw::cuda {

// Consumer threads 128..383 own the accumulator; the separate reduction's 256 threads use the same
// layout from thread 0.
template <class Cfg>
using WgmmaOwners = WgmmaLayout<Cfg, Cfg::kWarpgroupThreads>;
template <class Cfg>
using WgmmaReducers = WgmmaLayout<Cfg, 0>;

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_kernel_wgmma(const Plan plan, const GemmParams p, const __grid_constant__ TmaMaps maps) {
  const uint64_t t_entry = trace_entry(p);
  extern __shared__ __align__(128) char smem[];
  using L = WgmmaOwners<Cfg>;
  if constexpr (Cfg::kClusterReduce) init_cluster_reduce<L>(plan);  // fenced with the ring's
  const Ring<Cfg> ring = make_ring<Cfg>(smem);
  if constexpr (Cfg::kClusterReduce) ptx::cluster_arrive_relaxed();  // store_to_owner waits
  // Broadcast from lane 0, so the compiler knows it warp-uniform: the consumers' descriptor and
  // stage addresses derived from it can then live in uniform registers (no per-wgmma R2UR moves).
  const int wg =
      __shfl_sync(kFullWarpMask, static_cast<int>(threadIdx.x) / Cfg::kWarpgroupThreads, 0);
  if (wg == 0) {  // the producer warpgroup never joins the consumers' named barrier
    ptx::regs_dealloc<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) produce<Cfg>(plan, maps, ring, p.k);
  } else {
    ptx::regs_alloc<Cfg::kConsumerRegs>();
    CtaWalk w;
    walk_begin(plan, plan_cta<Cfg>(), w);
    Segment s;
    RingPos<Cfg> pos;
    auto boxes = warp_store_boxes<Cfg, L>(ring.staging);
    int32_t n = 0;
    const int consumer = wg - 1;
    Turns turns;
    join_cluster<Cfg>();
    while (walk_next_as<Cfg::kWholeTiles>(plan, w, s)) {
      if (Cfg::kPingpong && n % Cfg::kConsumers != consumer) {  // the other consumer's segment
        pos.skip(segment_iters(s));
        ++n;
        continue;
      }
      run_segment<L, Cfg::kWholeTiles>(
          plan, p, s, cluster_rank<Cfg>(), trace_slot(p, n),
          [&](int64_t, int64_t, const Segment& seg, typename L::Acc& acc) {
            if constexpr (Cfg::kPingpong) {
              if (n > 0) await_turn(ring, consumer, turns);
            }
            consume<Cfg, L>(ring, pos, segment_iters(seg), consumer, acc);
            if constexpr (Cfg::kPingpong) pass_turn<Cfg, L>(ring, consumer);
          },
          [&](int64_t tm, int64_t tn, const typename L::Acc& acc) {
            if constexpr (Cfg::kSwapped) {
              epilogue<L>(p, tm, tn, acc);  // the transpose, from registers
            } else if (Cfg::kWholeTiles || p.c_vectors) {
              epilogue_tma<Cfg, L>(&maps.c, &maps.c_tail, tm, tn, acc, boxes, p.m, p.n);
            } else {
              epilogue_staged<Cfg, L>(p, tm, tn, acc, boxes);  // C the TMA cannot store
            }
          });
      ++n;
    }
    epilogue_tma_drain();
    if constexpr (Cfg::kPingpong) {
      if (traced(p)) L::sync_consumers();  // the CTA's exit: after both consumers' last segment
    }
    trace_cta<L>(p, n, t_entry);
  }
  // In a cluster the producer thread leaves last: drain_ring waited until no peer will signal
  // this CTA's barriers or multicast into it again.
}

}  // namespace lw::cuda

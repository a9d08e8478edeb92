// The composing kernels: each CTA walks its segments of the Plan (sim/decomp/walk.hpp) and runs
// mainloop -> fixup -> epilogue for each; a second kernel runs the separate split-K reduction.
// Ladder step 1 (mma.sync) in kernel_mma.cuh; step 2 (wgmma, warp-specialised) in
// kernel_wgmma.cuh.
#pragma once
#include "cuda/kernel/epilogue.cuh"
#include "cuda/kernel/fixup.cuh"
#include "cuda/kernel/mainloop.cuh"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

__device__ __forceinline__ bool traced(const GemmParams& p) { return p.trace.ctas != nullptr; }

// One segment on the accumulator owners of layout L, as cluster rank `rank` (its own CTA tile and
// workspace slots): mac(tile_m, tile_n, s, acc) fills acc; epi(tile_m, tile_n, acc) writes a
// finished tile to C. kWholeTiles: every segment is a whole tile (no fix-up compiled).
template <class L, bool kWholeTiles = false, class Mac, class Epi>
__device__ __forceinline__ void run_segment(const Plan& plan, const GemmParams& p, const Segment& s,
                                            int64_t rank, SegmentTrace* rec, Mac&& mac, Epi&& epi) {
  const bool tr = traced(p);
  const uint64_t t_start = tr ? ptx::globaltimer() : 0;
  const TileCoord cta = cta_tile(plan, s.tile, rank);
  const int64_t tm = cta.m, tn = cta.n;
  typename L::Acc acc;
  mac(tm, tn, s, acc);
  const uint64_t t_mac_end = tr ? ptx::globaltimer() : 0;
  uint64_t waited = 0;
  if constexpr (!kWholeTiles) waited = fixup<L>(plan, p, s, rank, acc);
  const uint64_t t_fixup_end = tr ? ptx::globaltimer() : 0;
  if (kWholeTiles || s.role == Role::Whole || s.role == Role::Final) epi(tm, tn, acc);
  if (tr && L::tid() == 0 && rec != nullptr) {
    rec->work_id = s.work_id;
    rec->tile = s.tile;
    rec->k_begin = s.k_begin;
    rec->k_end = s.k_end;
    rec->t_start = t_start;
    rec->t_mac_end = t_mac_end;
    rec->t_wait_end = t_mac_end + waited;
    rec->t_fixup_end = t_fixup_end;
    rec->t_end = ptx::globaltimer();
  }
}

__device__ __forceinline__ SegmentTrace* trace_slot(const GemmParams& p, int64_t i) {
  if (!traced(p) || i >= p.trace.max_segments) return nullptr;
  return p.trace.segments + static_cast<int64_t>(blockIdx.x) * p.trace.max_segments + i;
}

// %globaltimer at kernel entry in traced launches (0 otherwise).
__device__ __forceinline__ uint64_t trace_entry(const GemmParams& p) {
  return traced(p) ? ptx::globaltimer() : 0;
}

template <class L>
__device__ __forceinline__ void trace_cta(const GemmParams& p, int32_t segments, uint64_t t_entry) {
  if (traced(p) && L::consumer_tid() == 0) {
    CtaTrace& c = p.trace.ctas[blockIdx.x];
    c.smid = ptx::smid();
    c.segments = segments;
    c.t_entry = t_entry;
    c.t_exit = ptx::globaltimer();
  }
}

// Separate split-K reduction: reduction_grid(plan) x cluster size CTAs of L::kThreads threads,
// one CTA tile of one reduction_segment each; L is the layout of the main kernel that wrote the
// slots.
template <class L>
__global__ void __launch_bounds__(L::kThreads, 1)
    reduction_kernel(const Plan plan, const GemmParams p) {
  const uint64_t t_entry = trace_entry(p);
  const int64_t size = cluster_size(plan);
  const Segment s = reduction_segment(plan, blockIdx.x / size);
  run_segment<L>(
      plan, p, s, blockIdx.x % size, trace_slot(p, 0),
      [](int64_t, int64_t, const Segment&, typename L::Acc& acc) {
#pragma unroll
        for (int i = 0; i < L::Acc::kSize; ++i) acc.v[i] = 0.0f;
      },
      [&](int64_t tm, int64_t tn, const typename L::Acc& acc) { epilogue<L>(p, tm, tn, acc); });
  trace_cta<L>(p, 1, t_entry);
}

}  // namespace lw::cuda

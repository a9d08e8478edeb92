// The composing kernels: each CTA walks its segments of the Plan (sim/decomp/walk.hpp) and runs
// mainloop -> fixup -> epilogue for each; a second kernel runs the separate split-K reduction.
#pragma once
#include "cuda/kernel/epilogue.cuh"
#include "cuda/kernel/fixup.cuh"
#include "cuda/kernel/mainloop.cuh"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

template <bool kTraced, typename OutT>
__device__ __forceinline__ void run_segment(const Plan& plan, const GemmParams& p, const Segment& s,
                                            char* smem, SegmentTrace* rec) {
  const uint64_t t_start = kTraced ? ptx::globaltimer() : 0;
  const int64_t tm = tile_coord_m(plan, s.tile);
  const int64_t tn = tile_coord_n(plan, s.tile);
  Accum acc;
  mainloop(p, tm, tn, s.k_begin, s.k_end, smem, acc);
  const uint64_t t_mac_end = kTraced ? ptx::globaltimer() : 0;
  const uint64_t waited = fixup<kTraced>(plan, p, s, acc);
  const uint64_t t_fixup_end = kTraced ? ptx::globaltimer() : 0;
  if (s.role == Role::Whole || s.role == Role::Final) epilogue<OutT>(p, tm, tn, acc);
  if (kTraced && threadIdx.x == 0 && rec != nullptr) {
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

template <bool kTraced>
__device__ __forceinline__ SegmentTrace* trace_slot(const GemmParams& p, int64_t i) {
  if (!kTraced || i >= p.trace.max_segments) return nullptr;
  return p.trace.segments + static_cast<int64_t>(blockIdx.x) * p.trace.max_segments + i;
}

template <bool kTraced>
__device__ __forceinline__ void trace_cta(const GemmParams& p, int32_t segments) {
  if (kTraced && threadIdx.x == 0) {
    p.trace.ctas[blockIdx.x].smid = ptx::smid();
    p.trace.ctas[blockIdx.x].segments = segments;
  }
}

// Main launch: plan.grid CTAs. The Plan is a POD kernel parameter.
template <bool kTraced, typename OutT>
__global__ void __launch_bounds__(KernelConfig::kThreads, 1)
    gemm_kernel(const Plan plan, const GemmParams p) {
  extern __shared__ __align__(128) char smem[];
  CtaWalk w;
  walk_begin(plan, blockIdx.x, w);
  Segment s;
  int32_t n = 0;
  while (walk_next(plan, w, s)) {
    run_segment<kTraced, OutT>(plan, p, s, smem, trace_slot<kTraced>(p, n));
    ++n;
  }
  trace_cta<kTraced>(p, n);
}

// Separate split-K reduction: reduction_grid(plan) CTAs, one reduction_segment each.
template <bool kTraced, typename OutT>
__global__ void __launch_bounds__(KernelConfig::kThreads, 1)
    reduction_kernel(const Plan plan, const GemmParams p) {
  const Segment s = reduction_segment(plan, blockIdx.x);
  run_segment<kTraced, OutT>(plan, p, s, nullptr, trace_slot<kTraced>(p, 0));
  trace_cta<kTraced>(p, 1);
}

}  // namespace lw::cuda

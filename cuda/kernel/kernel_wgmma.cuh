// Ladder step 2 kernel (sm_90a): the same walk -> mainloop -> fixup -> epilogue, warp-specialised.
// Warpgroup 0's first thread walks the plan and streams k-tiles through the TMA ring; warpgroups
// 1-2 walk it too, consume the ring with wgmma, then run fixup and epilogue on their 256 threads.
#pragma once
#include "cuda/kernel/kernel.cuh"
#include "cuda/kernel/mainloop_wgmma.cuh"

namespace lw::cuda {

using WgmmaOwners = WgmmaLayout<WgmmaConfig::kWarpgroupThreads>;  // consumer threads 128..383
using WgmmaReducers = WgmmaLayout<0>;  // separate-reduction CTAs: 256 threads, same layout

template <bool kTraced, typename OutT>
__global__ void __launch_bounds__(WgmmaConfig::kThreads, 1)
    gemm_kernel_wgmma(const Plan plan, const GemmParams p, const __grid_constant__ TmaMaps maps) {
  extern __shared__ __align__(128) char smem[];
  const Ring ring = make_ring(smem);
  const int wg = static_cast<int>(threadIdx.x) / WgmmaConfig::kWarpgroupThreads;
  if (wg == 0) {
    if (threadIdx.x == 0) produce(plan, maps, ring);
    return;  // the producer warpgroup never joins the consumers' named barrier
  }
  CtaWalk w;
  walk_begin(plan, blockIdx.x, w);
  Segment s;
  RingPos pos;
  int32_t n = 0;
  while (walk_next(plan, w, s)) {
    run_segment<kTraced, OutT, WgmmaOwners>(plan, p, s, trace_slot<kTraced>(p, n),
                                            [&](int64_t, int64_t, const Segment& seg, Accum& acc) {
                                              consume(ring, pos, segment_iters(seg), wg - 1, acc);
                                            });
    ++n;
  }
  trace_cta<kTraced, WgmmaOwners>(p, n);
}

}  // namespace lw::cuda

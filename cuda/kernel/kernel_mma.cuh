// Ladder step 1's composing kernel (mma.sync, 128x128; the `--mainloop mma` baseline): one
// definition, so only cuda/gemm.cu includes this (the wgmma instantiations live in
// cuda/kernels/wgmma_part_*.cu).
#pragma once
#include "cuda/kernel/kernel.cuh"

namespace lw::cuda {

// Main launch (step 1): plan.grid CTAs of KernelConfig::kThreads. The Plan is a POD parameter.
__global__ void __launch_bounds__(KernelConfig::kThreads, 1)
    gemm_kernel(const Plan plan, const GemmParams p) {
  const uint64_t t_entry = trace_entry(p);
  extern __shared__ __align__(128) char smem[];
  CtaWalk w;
  walk_begin(plan, blockIdx.x, w);
  Segment s;
  int32_t n = 0;
  while (walk_next(plan, w, s)) {
    run_segment<MmaLayout>(
        plan, p, s, 0, trace_slot(p, n),
        [&](int64_t tm, int64_t tn, const Segment& seg, MmaLayout::Acc& acc) {
          mainloop(p, tm, tn, seg.k_begin, seg.k_end, smem, acc);
        },
        [&](int64_t tm, int64_t tn, const MmaLayout::Acc& acc) {
          epilogue<MmaLayout>(p, tm, tn, acc);
        });
    ++n;
  }
  trace_cta<MmaLayout>(p, n, t_entry);
}

}  // namespace lw::cuda

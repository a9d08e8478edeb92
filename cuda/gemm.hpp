// Host API of the CUDA GEMM: C = A * B^T-layout (A MxK, B NxK row-major, bf16), fp32 accumulate,
// executing any lw::Plan. Checks co-residency, owns workspace/flags/trace buffers, launches.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/kernel/trace_record.hpp"
#include "cuda/launch_plan.hpp"

namespace lw::cuda {

enum class OutType { BF16, F32 };

struct Operands {
  const __nv_bfloat16* a = nullptr;  // M x K row-major
  const __nv_bfloat16* b = nullptr;  // N x K row-major
  void* c = nullptr;                 // M x N row-major, bf16 or fp32 per OutType
};

// Throws std::runtime_error("what: <cuda error>") unless e == cudaSuccess.
void check_cuda(cudaError_t e, const char* what);

// Host copy of a traced launch: main launch rows, then the separate-reduction launch rows.
struct TraceResult {
  int64_t max_segments = 0;
  std::vector<CtaTrace> ctas;                    // [grid]
  std::vector<SegmentTrace> segments;            // [grid * max_segments]
  std::vector<CtaTrace> reduction_ctas;          // [reduction_grid]
  std::vector<SegmentTrace> reduction_segments;  // [reduction_grid]
};

class GemmLauncher {
 public:
  // For the current device/context, a partition of `partition_sms` SMs. Throws on a plan that
  // cannot run (see plan_launch) or a CUDA failure.
  GemmLauncher(const Plan& plan, int64_t partition_sms, OutType out, bool traced);
  ~GemmLauncher();
  GemmLauncher(const GemmLauncher&) = delete;
  GemmLauncher& operator=(const GemmLauncher&) = delete;

  // Zeroes the flags (cudaMemsetAsync) and enqueues the launch(es) on `stream`; no sync.
  void launch(const Operands& ops, cudaStream_t stream);
  // Synchronizes `stream` and copies the trace of the last launch (traced launchers only).
  TraceResult read_trace(cudaStream_t stream) const;

  const LaunchShape& shape() const { return shape_; }
  const Plan& plan() const { return plan_; }
  int64_t ctas_per_sm() const { return ctas_per_sm_; }

 private:
  Plan plan_;
  OutType out_;
  bool traced_;
  LaunchShape shape_;
  int64_t ctas_per_sm_ = 0;
  float* workspace_ = nullptr;
  int32_t* flags_ = nullptr;
  CtaTrace* trace_ctas_ = nullptr;
  SegmentTrace* trace_segments_ = nullptr;
};

// Occupancy (CTAs per SM) of the main kernel instantiation, in the current context.
int64_t kernel_ctas_per_sm(OutType out, bool traced);

}  // namespace lw::cuda

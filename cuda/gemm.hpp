// Host API of the CUDA GEMM: C = A * B^T-layout (A MxK, B NxK row-major, bf16), fp32 accumulate,
// executing any lw::Plan. Checks co-residency, owns workspace/flags/trace buffers, launches.
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/kernel/trace_record.hpp"
#include "cuda/launch_plan.hpp"
#include "cuda/tensor_map.hpp"

namespace lw::cuda {

enum class OutType { BF16, F32 };

// Ladder step of the MAC loop: 1 = mma.sync + cp.async (256 threads, 128x128 only), 2 = wgmma +
// TMA, warp-specialised (384 threads, sm_90a, every tile of kernel_configs.hpp). Operands TMA
// cannot read (K % 8 != 0 or a base not 16-byte aligned: TMA needs 16-byte row strides), decided
// per launch: a Wgmma launch stages them into padded rows first (plan_stages_operands,
// stage_rows.hpp) within the same launch() call; Mma reads them element by element.
enum class Mainloop { Mma, Wgmma };

// "mma" | "wgmma" -> Mainloop; throws std::invalid_argument otherwise.
Mainloop parse_mainloop(const std::string& name);
const char* mainloop_name(Mainloop m);

struct Operands {
  const __nv_bfloat16* a = nullptr;  // M x K row-major
  const __nv_bfloat16* b = nullptr;  // N x K row-major
  void* c = nullptr;                 // M x N row-major, bf16 or fp32 per OutType
};

// Throws std::runtime_error("what: <cuda error>") unless e == cudaSuccess.
void check_cuda(cudaError_t e, const char* what);

// Throws std::invalid_argument (one line, device_refusal in launch_plan.hpp) unless the current
// device can run the kernels (compute capability 9.0); GemmLauncher and kernel_residency call it.
void require_kernel_device();

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
  GemmLauncher(const Plan& plan, int64_t partition_sms, OutType out, bool traced,
               Mainloop mainloop = Mainloop::Wgmma);
  ~GemmLauncher();
  GemmLauncher(const GemmLauncher&) = delete;
  GemmLauncher& operator=(const GemmLauncher&) = delete;

  // Enqueues the launch(es) on `stream`; no sync. Flags are zeroed when the launcher is built and
  // re-armed by the kernel itself, so launches of one launcher must not overlap.
  void launch(const Operands& ops, cudaStream_t stream);
  // L2 promotion of the operand loads for later launches (tensor_map.hpp; default
  // default_l2_promotion(K)). Throws std::invalid_argument for one the TMA does not offer.
  void set_l2_promotion(int bytes);
  int l2_promotion() const { return l2_promotion_bytes_; }
  // Synchronizes `stream` and copies the trace of the last launch (traced launchers only).
  TraceResult read_trace(cudaStream_t stream) const;

  const LaunchShape& shape() const { return shape_; }
  const Plan& plan() const { return plan_; }
  int64_t ctas_per_sm() const { return ctas_per_sm_; }
  Mainloop mainloop() const { return mainloop_; }
  // Whether the last launch read staged copies of A and B (wgmma rows TMA cannot read: K % 8 != 0
  // or bases not 16-byte aligned; stage_rows.hpp).
  bool last_staged() const { return last_staged_; }
  // Whether wgmma launches run the ping-pong form (plan_runs_pingpong: the plan's tile, whole-tile
  // segments, its CTAs' most segments, its k-tiles, C's rows); a launch whose C base is not
  // 16-byte aligned or whose C is fp32 runs the cooperative form (the ping-pong form stores
  // through the TMA only).
  bool pingpong() const { return pingpong_; }

 private:
  // The staged operands' buffers (rows of staged_row_pitch(K) elements), once.
  void allocate_staging();

  Plan plan_;
  OutType out_;
  bool traced_;
  Mainloop mainloop_;
  bool last_staged_ = false;
  LaunchShape shape_;
  bool whole_ = false;  // plan_walks_whole_tiles
  bool pingpong_ = false;
  int64_t ctas_per_sm_ = 0;
  float* workspace_ = nullptr;
  int32_t* flags_ = nullptr;
  __nv_bfloat16* staged_a_ = nullptr;  // padded-row copies of A and B (allocate_staging)
  __nv_bfloat16* staged_b_ = nullptr;
  CtaTrace* trace_ctas_ = nullptr;
  SegmentTrace* trace_segments_ = nullptr;
  int l2_promotion_bytes_;           // of the operand maps
  const void* map_a_ptr_ = nullptr;  // operands the cached tensor maps describe
  const void* map_b_ptr_ = nullptr;
  const void* map_c_ptr_ = nullptr;  // C of the cached output maps (TMA-store epilogue)
  CUtensorMap map_a_{};
  CUtensorMap map_b_{};
  CUtensorMap map_a_chunks_{};  // deep tiles' k-chunk maps (zero on the other tiles)
  CUtensorMap map_b_chunks_{};
  CUtensorMap map_c_{};
  CUtensorMap map_c_tail_{};
};

// How many CTAs (and clusters) of one kernel instantiation can be resident.
struct Residency {
  int64_t ctas_per_sm = 0;          // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int64_t max_active_clusters = 0;  // cudaOccupancyMaxActiveClusters (0 without a cluster)
  int64_t smem_bytes = 0;           // the kernel's dynamic shared memory per CTA
  GpuShape gpu(int64_t sms) const { return GpuShape{sms, ctas_per_sm, max_active_clusters}; }
};

// Residency of the kernel instantiation for tile x cluster on a partition of `partition_sms` SMs
// in the current context (a Wgmma config: the smaller of its two consumer forms'). Throws
// std::invalid_argument for a config the kernels lack
// (sim/decomp/kernel_configs.hpp) or a non-128x128 or clustered Mma request.
Residency kernel_residency(const TileShape& tile, const ClusterShape& cluster, Mainloop mainloop,
                           int64_t partition_sms);

}  // namespace lw::cuda

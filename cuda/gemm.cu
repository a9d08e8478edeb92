// Host launcher of the GEMM kernels (gemm.hpp): occupancy query, co-residency check through
// plan_launch, workspace/flag/trace allocation, flag reset and the one or two launches.
#include <algorithm>
#include <type_traits>

#include "cuda/gemm.hpp"
#include "cuda/kernel/kernel.cuh"
#include "cuda/kernel/kernel_wgmma.cuh"
#include "cuda/tensor_map.hpp"

namespace lw::cuda {

static_assert(std::is_trivially_copyable_v<Plan>, "Plan is passed by value to the kernel");
constexpr size_t kKernelParamLimitBytes = 4096;  // classic __global__ parameter limit
static_assert(sizeof(Plan) + sizeof(GemmParams) + sizeof(TmaMaps) <= kKernelParamLimitBytes,
              "kernel parameters exceed the 4 KB limit");

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

Mainloop parse_mainloop(const std::string& name) {
  if (name == "mma") return Mainloop::Mma;
  if (name == "wgmma") return Mainloop::Wgmma;
  throw std::invalid_argument("unknown mainloop '" + name + "' (mma | wgmma)");
}

const char* mainloop_name(Mainloop m) { return m == Mainloop::Mma ? "mma" : "wgmma"; }

namespace {

using KernelFn = void (*)(const Plan, const GemmParams);
using WgmmaKernelFn = void (*)(const Plan, const GemmParams, const TmaMaps);

KernelFn main_kernel(OutType out, bool traced) {
  if (out == OutType::BF16) {
    return traced ? gemm_kernel<true, __nv_bfloat16> : gemm_kernel<false, __nv_bfloat16>;
  }
  return traced ? gemm_kernel<true, float> : gemm_kernel<false, float>;
}

WgmmaKernelFn wgmma_kernel(OutType out, bool traced) {
  if (out == OutType::BF16) {
    return traced ? gemm_kernel_wgmma<true, __nv_bfloat16>
                  : gemm_kernel_wgmma<false, __nv_bfloat16>;
  }
  return traced ? gemm_kernel_wgmma<true, float> : gemm_kernel_wgmma<false, float>;
}

// The separate reduction reads slots in the layout of the main kernel that wrote them.
template <class L>
KernelFn red_kernel(OutType out, bool traced) {
  if (out == OutType::BF16) {
    return traced ? reduction_kernel<true, __nv_bfloat16, L>
                  : reduction_kernel<false, __nv_bfloat16, L>;
  }
  return traced ? reduction_kernel<true, float, L> : reduction_kernel<false, float, L>;
}

// Dynamic shared memory above 48 KB needs an opt-in per function (and per context).
void allow_smem(const void* f, int bytes) {
  check_cuda(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
             "cudaFuncSetAttribute(max dynamic smem)");
}

int64_t occupancy(const void* f, int threads, int smem) {
  allow_smem(f, smem);
  int n = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, threads, smem),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return n;
}

}  // namespace

int64_t kernel_ctas_per_sm(OutType out, bool traced, Mainloop mainloop) {
  const int64_t mma = occupancy(reinterpret_cast<const void*>(main_kernel(out, traced)),
                                KernelConfig::kThreads, KernelConfig::kSmemBytes);
  if (mainloop == Mainloop::Mma) return mma;
  const int64_t wgmma = occupancy(reinterpret_cast<const void*>(wgmma_kernel(out, traced)),
                                  WgmmaConfig::kThreads, WgmmaConfig::kSmemBytes);
  return std::min(mma, wgmma);
}

GemmLauncher::GemmLauncher(const Plan& plan, int64_t partition_sms, OutType out, bool traced,
                           Mainloop mainloop)
    : plan_(plan), out_(out), traced_(traced), mainloop_(mainloop), last_(mainloop) {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  int max_grid = 0;
  check_cuda(cudaDeviceGetAttribute(&max_grid, cudaDevAttrMaxGridDimX, dev), "max grid dim");
  ctas_per_sm_ = kernel_ctas_per_sm(out, traced, mainloop);
  DeviceFacts facts;
  facts.partition_sms = partition_sms;
  facts.ctas_per_sm = ctas_per_sm_;
  facts.max_grid_x = max_grid;
  shape_ = plan_launch(plan_, facts);
  if (shape_.workspace_bytes > 0) {
    check_cuda(cudaMalloc(&workspace_, static_cast<size_t>(shape_.workspace_bytes)), "workspace");
    check_cuda(cudaMalloc(&flags_, static_cast<size_t>(shape_.flag_bytes)), "flags");
  }
  if (traced_) {
    const int64_t ctas = shape_.grid + shape_.reduction_grid;
    const int64_t segs = shape_.grid * shape_.max_segments + shape_.reduction_grid;
    check_cuda(cudaMalloc(&trace_ctas_, static_cast<size_t>(ctas) * sizeof(CtaTrace)), "trace");
    check_cuda(cudaMalloc(&trace_segments_, static_cast<size_t>(segs) * sizeof(SegmentTrace)),
               "trace");
  }
}

GemmLauncher::~GemmLauncher() {
  cudaFree(workspace_);
  cudaFree(flags_);
  cudaFree(trace_ctas_);
  cudaFree(trace_segments_);
}

void GemmLauncher::launch(const Operands& ops, cudaStream_t stream) {
  GemmParams p;
  p.a = ops.a;
  p.b = ops.b;
  p.c = ops.c;
  p.workspace = workspace_;
  p.flags = flags_;
  p.m = static_cast<int32_t>(plan_.problem.m);
  p.n = static_cast<int32_t>(plan_.problem.n);
  p.k = static_cast<int32_t>(plan_.problem.k);
  constexpr uintptr_t kVecAlign = 16;  // cp.async 16-byte chunks
  p.vector_loads = plan_.problem.k % 8 == 0 &&
                   reinterpret_cast<uintptr_t>(ops.a) % kVecAlign == 0 &&
                   reinterpret_cast<uintptr_t>(ops.b) % kVecAlign == 0;
  if (traced_) {
    p.trace.ctas = trace_ctas_;
    p.trace.segments = trace_segments_;
    p.trace.max_segments = shape_.max_segments;
  }
  if (shape_.flag_bytes > 0) {
    check_cuda(cudaMemsetAsync(flags_, 0, static_cast<size_t>(shape_.flag_bytes), stream),
               "flag reset");
  }
  last_ = mainloop_ == Mainloop::Wgmma && p.vector_loads ? Mainloop::Wgmma : Mainloop::Mma;
  if (last_ == Mainloop::Wgmma) {
    if (ops.a != map_a_ptr_ || ops.b != map_b_ptr_) {
      constexpr auto kBoxRows = static_cast<uint32_t>(KernelConfig::kTileM);
      constexpr auto kBoxK = static_cast<uint32_t>(KernelConfig::kTileK);
      map_a_ = encode_operand_map(ops.a, plan_.problem.m, plan_.problem.k, kBoxRows, kBoxK);
      map_b_ = encode_operand_map(ops.b, plan_.problem.n, plan_.problem.k, kBoxRows, kBoxK);
      map_a_ptr_ = ops.a;
      map_b_ptr_ = ops.b;
    }
    TmaMaps maps;
    maps.a = map_a_;
    maps.b = map_b_;
    const WgmmaKernelFn f = wgmma_kernel(out_, traced_);
    f<<<static_cast<unsigned>(shape_.grid), WgmmaConfig::kThreads, WgmmaConfig::kSmemBytes,
        stream>>>(plan_, p, maps);
    check_cuda(cudaGetLastError(), "gemm_kernel_wgmma launch");
  } else {
    const KernelFn f = main_kernel(out_, traced_);
    f<<<static_cast<unsigned>(shape_.grid), KernelConfig::kThreads, KernelConfig::kSmemBytes,
        stream>>>(plan_, p);
    check_cuda(cudaGetLastError(), "gemm_kernel launch");
  }
  if (shape_.reduction_grid > 0) {
    if (traced_) {
      p.trace.ctas = trace_ctas_ + shape_.grid;
      p.trace.segments = trace_segments_ + shape_.grid * shape_.max_segments;
      p.trace.max_segments = 1;
    }
    const KernelFn r = last_ == Mainloop::Wgmma ? red_kernel<WgmmaReducers>(out_, traced_)
                                                : red_kernel<MmaLayout>(out_, traced_);
    r<<<static_cast<unsigned>(shape_.reduction_grid), kFragThreads, 0, stream>>>(plan_, p);
    check_cuda(cudaGetLastError(), "reduction_kernel launch");
  }
}

TraceResult GemmLauncher::read_trace(cudaStream_t stream) const {
  if (!traced_) throw std::logic_error("read_trace on an untraced GemmLauncher");
  check_cuda(cudaStreamSynchronize(stream), "trace sync");
  TraceResult t;
  t.max_segments = shape_.max_segments;
  const auto grid = static_cast<size_t>(shape_.grid);
  const auto red = static_cast<size_t>(shape_.reduction_grid);
  const size_t main_segs = grid * static_cast<size_t>(shape_.max_segments);
  t.ctas.resize(grid);
  t.segments.resize(main_segs);
  t.reduction_ctas.resize(red);
  t.reduction_segments.resize(red);
  auto copy = [](void* dst, const void* src, size_t bytes) {
    if (bytes > 0) check_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "trace copy");
  };
  copy(t.ctas.data(), trace_ctas_, grid * sizeof(CtaTrace));
  copy(t.segments.data(), trace_segments_, main_segs * sizeof(SegmentTrace));
  copy(t.reduction_ctas.data(), trace_ctas_ + grid, red * sizeof(CtaTrace));
  copy(t.reduction_segments.data(), trace_segments_ + main_segs, red * sizeof(SegmentTrace));
  return t;
}

}  // namespace lw::cuda

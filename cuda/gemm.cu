// Host launcher of the GEMM kernels (gemm.hpp): occupancy query, co-residency check through
// plan_launch, workspace/flag/trace allocation (flags zeroed once) and the one or two launches.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cuda/gemm.hpp"
#include "cuda/kernel/kernel_mma.cuh"
#include "cuda/kernel/kernel_wgmma.cuh"
#include "cuda/kernels/wgmma_entry.hpp"
#include "cuda/stage_rows.hpp"
#include "cuda/tensor_map.hpp"
#include "sim/decomp/planners/config_list.hpp"

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

// The wgmma instantiation of `tile` x `cluster`; throws when the kernels lack it.
const WgmmaEntry& wgmma_entry_for(const TileShape& tile, const ClusterShape& cluster) {
  const int t = kernel_tile_index(tile);
  int c = 0;
  while (c < kKernelClusterCount &&
         (kKernelClusters[c].m != cluster.m || kKernelClusters[c].n != cluster.n)) {
    ++c;
  }
  if (t < 0 || c == kKernelClusterCount || !kernel_has_config(tile, cluster)) {
    throw std::invalid_argument("no wgmma kernel for tile " + tile_text(tile) + " with cluster " +
                                cluster_text(cluster));
  }
  return wgmma_entry_at(static_cast<size_t>(t) * kKernelClusterCount + static_cast<size_t>(c));
}

// A launch configuration of `e` with clusters of `size` CTAs along x.
struct ClusterLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};
  ClusterLaunch(const ClusterLaunch&) = delete;  // config points at attr
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
  ClusterLaunch(const WgmmaEntry& e, int64_t grid, int64_t size, cudaStream_t stream)
      : ClusterLaunch(e, dim3(static_cast<unsigned>(grid)), dim3(static_cast<unsigned>(size)),
                      stream, e.smem_bytes) {}
  // Any grid and cluster dimensions; `smem_bytes`: the launch's dynamic shared memory (a
  // cluster_reduce plan's: its form's own and the partials past it).
  ClusterLaunch(const WgmmaEntry& e, dim3 grid, dim3 cluster, cudaStream_t stream,
                int64_t smem_bytes) {
    config.gridDim = grid;
    config.blockDim = dim3(static_cast<unsigned>(e.threads));
    config.dynamicSmemBytes = static_cast<size_t>(smem_bytes);
    config.stream = stream;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster.x;
    attr.val.clusterDim.y = cluster.y;
    attr.val.clusterDim.z = cluster.z;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
};

// A splitk-dsm launch: split_tiles x splits CTAs in clusters of one tile's splits (plan_cta).
ClusterLaunch split_cluster_launch(const WgmmaEntry& e, const Plan& plan, cudaStream_t stream) {
  const auto splits = static_cast<unsigned>(reduce_cluster_size(plan));
  return ClusterLaunch(e, dim3(static_cast<unsigned>(plan.split_tiles), splits), dim3(1, splits, 1),
                       stream, e.cluster_reduce_smem_bytes + cluster_reduce_bytes(plan));
}

bool is_mma_tile(const TileShape& t) {
  return t.m == KernelConfig::kTileM && t.n == KernelConfig::kTileN && t.k == KernelConfig::kTileK;
}

// Dynamic shared memory above 48 KB needs an opt-in per function (and per context). Only ever
// raised: a splitk-dsm launcher's larger opt-in must survive another launcher of the same
// kernel (host-side cache, one device per process).
void allow_smem(const void* f, int bytes) {
  static std::unordered_map<const void*, int> allowed;
  int& now = allowed[f];
  if (bytes <= now) return;
  check_cuda(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
             "cudaFuncSetAttribute(max dynamic smem)");
  now = bytes;
}

int64_t occupancy(const void* f, int threads, int smem) {
  allow_smem(f, smem);
  int n = 0;
  check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, threads, smem),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return n;
}

// The DeviceFacts of a cluster_reduce plan (launch_plan.hpp): the kernel's shared memory and the
// device's limit, and how many clusters of its splits its splitk-dsm form fits with the partials.
void reduce_cluster_facts(const Plan& plan, const WgmmaEntry& e, DeviceFacts& facts) {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  int max_smem = 0;
  check_cuda(cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
             "max shared memory per block");
  facts.kernel_smem_bytes = e.cluster_reduce_smem_bytes;
  facts.max_smem_bytes = max_smem;
  const int64_t extra = cluster_reduce_bytes(plan);
  facts.max_active_clusters = 0;
  if (e.cluster_reduce_smem_bytes + extra > max_smem) return;  // plan_launch says so
  const auto* f = reinterpret_cast<const void*>(e.cluster_reduce_main);
  allow_smem(f, static_cast<int>(e.cluster_reduce_smem_bytes + extra));
  ClusterLaunch launch = split_cluster_launch(e, plan, nullptr);
  int clusters = 0;
  check_cuda(cudaOccupancyMaxActiveClusters(&clusters, f, &launch.config),
             "cudaOccupancyMaxActiveClusters");
  facts.max_active_clusters = clusters;
}

int64_t mma_ctas_per_sm() {
  return occupancy(reinterpret_cast<const void*>(gemm_kernel), KernelConfig::kThreads,
                   KernelConfig::kSmemBytes);
}

}  // namespace

void require_kernel_device() {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  int major = 0, minor = 0;
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev),
             "compute capability");
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev),
             "compute capability");
  if (device_refusal(major, minor, "").empty()) return;
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  throw std::invalid_argument(device_refusal(major, minor, prop.name));
}

Residency kernel_residency(const TileShape& tile, const ClusterShape& cluster, Mainloop mainloop,
                           int64_t partition_sms) {
  require_kernel_device();
  const int64_t size = cluster.m * cluster.n;
  Residency r;
  if (mainloop == Mainloop::Mma) {
    if (!is_mma_tile(tile) || size != 1) {
      throw std::invalid_argument(
          "the mma kernel has only the 128x128x64 tile without clusters, "
          "not " +
          tile_text(tile) + " " + cluster_text(cluster));
    }
    r.ctas_per_sm = mma_ctas_per_sm();
    r.smem_bytes = KernelConfig::kSmemBytes;
    return r;
  }
  const WgmmaEntry& e = wgmma_entry_for(tile, cluster);
  // Any form may launch (plan_walks_whole_tiles and plan_runs_pingpong decide per plan): the
  // residency all allow, and each function opted in to its shared memory.
  std::vector<const void*> forms{reinterpret_cast<const void*>(e.main),
                                 reinterpret_cast<const void*>(e.whole_main)};
  if (e.pingpong_main != nullptr) forms.push_back(reinterpret_cast<const void*>(e.pingpong_main));
  r.smem_bytes = e.smem_bytes;
  r.ctas_per_sm = std::numeric_limits<int64_t>::max();
  for (const void* f : forms)
    r.ctas_per_sm = std::min(r.ctas_per_sm, occupancy(f, e.threads, e.smem_bytes));
  if (size > 1) {
    ClusterLaunch launch(e, size, size, nullptr);
    // The query sees the whole device; a green-context partition holds at most its SMs' worth.
    r.max_active_clusters = partition_sms * r.ctas_per_sm / size;
    for (const void* f : forms) {
      int clusters = 0;
      check_cuda(cudaOccupancyMaxActiveClusters(&clusters, f, &launch.config),
                 "cudaOccupancyMaxActiveClusters");
      r.max_active_clusters = std::min<int64_t>(r.max_active_clusters, clusters);
    }
  }
  return r;
}

GemmLauncher::GemmLauncher(const Plan& plan, int64_t partition_sms, OutType out, bool traced,
                           Mainloop mainloop)
    : plan_(plan),
      out_(out),
      traced_(traced),
      mainloop_(mainloop),
      l2_promotion_bytes_(default_l2_promotion(plan.problem.k)) {
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  int max_grid = 0;
  check_cuda(cudaDeviceGetAttribute(&max_grid, cudaDevAttrMaxGridDimX, dev), "max grid dim");
  const Residency res = kernel_residency(plan.tile, plan.cluster, mainloop, partition_sms);
  ctas_per_sm_ = res.ctas_per_sm;
  DeviceFacts facts;
  facts.partition_sms = partition_sms;
  facts.ctas_per_sm = ctas_per_sm_;
  facts.max_active_clusters = res.max_active_clusters;
  facts.max_grid_x = max_grid;
  if (reduce_cluster_size(plan_) > 0) {
    if (mainloop != Mainloop::Wgmma) {
      throw std::invalid_argument("splitk-dsm runs on the wgmma kernels only");
    }
    if (traced) {  // the trace records index CTAs by blockIdx.x alone
      throw std::invalid_argument("splitk-dsm launches cannot be traced");
    }
    const WgmmaEntry& e = wgmma_entry_for(plan_.tile, plan_.cluster);
    if (e.cluster_reduce_main == nullptr) {
      throw std::invalid_argument("splitk-dsm has no kernel for tile " + tile_text(plan_.tile) +
                                  ": no room for a peer's partial beside its ring");
    }
    reduce_cluster_facts(plan_, e, facts);
  }
  shape_ = plan_launch(plan_, facts);
  whole_ = plan_walks_whole_tiles(plan_);
  pingpong_ = plan_runs_pingpong(plan_);
  if (mainloop == Mainloop::Wgmma && plan_stages_operands(plan_)) allocate_staging();
  if (shape_.workspace_bytes > 0) {
    check_cuda(cudaMalloc(&workspace_, static_cast<size_t>(shape_.workspace_bytes)), "workspace");
    check_cuda(cudaMalloc(&flags_, static_cast<size_t>(shape_.flag_bytes)), "flags");
    // Zeroed once: every launch's tile owners re-arm the flags they consumed (fixup.cuh).
    check_cuda(cudaMemset(flags_, 0, static_cast<size_t>(shape_.flag_bytes)), "flag init");
  }
  if (traced_) {
    const int64_t ctas = shape_.grid + shape_.reduction_grid;
    const int64_t segs = shape_.grid * shape_.max_segments + shape_.reduction_grid;
    check_cuda(cudaMalloc(&trace_ctas_, static_cast<size_t>(ctas) * sizeof(CtaTrace)), "trace");
    check_cuda(cudaMalloc(&trace_segments_, static_cast<size_t>(segs) * sizeof(SegmentTrace)),
               "trace");
  }
}

void GemmLauncher::allocate_staging() {
  if (staged_a_ != nullptr) return;
  const auto pitch = static_cast<size_t>(staged_row_pitch(plan_.problem.k));
  const auto bytes = [&](int64_t rows) { return static_cast<size_t>(rows) * pitch * kBf16Bytes; };
  check_cuda(cudaMalloc(&staged_a_, bytes(plan_.problem.m)), "staged A");
  check_cuda(cudaMalloc(&staged_b_, bytes(plan_.problem.n)), "staged B");
}

GemmLauncher::~GemmLauncher() {
  cudaFree(staged_a_);
  cudaFree(staged_b_);
  cudaFree(workspace_);
  cudaFree(flags_);
  cudaFree(trace_ctas_);
  cudaFree(trace_segments_);
}

void GemmLauncher::set_l2_promotion(int bytes) {
  require_l2_promotion(bytes);
  l2_promotion_bytes_ = bytes;
  map_a_ptr_ = map_b_ptr_ = nullptr;  // the cached operand maps are re-encoded
}

void GemmLauncher::launch(const Operands& ops, cudaStream_t stream) {
  GemmParams p;
  p.a = ops.a;
  p.b = ops.b;
  p.c = ops.c;
  p.workspace = workspace_;
  p.flags = flags_;
  p.out_f32 = out_ == OutType::F32;

  p.m = static_cast<int32_t>(plan_.problem.m);
  p.n = static_cast<int32_t>(plan_.problem.n);
  p.k = static_cast<int32_t>(plan_.problem.k);
  constexpr uintptr_t kVecAlign = 16;               // cp.async 16-byte chunks
  p.vector_loads = !plan_stages_operands(plan_) &&  // rows of K % 8 == 0 elements
                   reinterpret_cast<uintptr_t>(ops.a) % kVecAlign == 0 &&
                   reinterpret_cast<uintptr_t>(ops.b) % kVecAlign == 0;
  p.c_store_bytes = widest_row_store(reinterpret_cast<uintptr_t>(ops.c), plan_.problem.n,
                                     p.out_f32 ? int64_t{sizeof(float)} : kBf16Bytes);
  p.c_vectors = !p.out_f32 && static_cast<uintptr_t>(p.c_store_bytes) == kVecAlign;  // TMA stores
  if (traced_) {
    p.trace.ctas = trace_ctas_;
    p.trace.segments = trace_segments_;
    p.trace.max_segments = shape_.max_segments;
  }
  // The whole-tile forms of non-swapped tiles store only through the TMA: C not 16-byte aligned
  // (or fp32) takes the general form (plan_walks_whole_tiles already asked for N % 8 == 0).
  const bool tma_store_ok = wgmma_swapped(plan_.tile) || p.c_vectors;
  const bool whole = whole_ && tma_store_ok;
  const bool pingpong = pingpong_ && tma_store_ok;
  // Rows TMA cannot read (K % 8 != 0 or bases not 16-byte aligned) are read from a staged copy.
  const bool staged = mainloop_ == Mainloop::Wgmma && !p.vector_loads;
  last_staged_ = staged;
  const WgmmaEntry* wg =
      mainloop_ == Mainloop::Wgmma ? &wgmma_entry_for(plan_.tile, plan_.cluster) : nullptr;
  if (wg != nullptr) {
    const __nv_bfloat16* a = ops.a;
    const __nv_bfloat16* b = ops.b;
    int64_t pitch = plan_.problem.k;
    if (staged) {
      allocate_staging();
      pitch = staged_row_pitch(plan_.problem.k);
      stage_rows({ops.a, staged_a_, plan_.problem.m}, {ops.b, staged_b_, plan_.problem.n},
                 plan_.problem.k, pitch, stream);
      a = staged_a_;
      b = staged_b_;
    }
    if (a != map_a_ptr_ || b != map_b_ptr_) {
      constexpr auto kBoxK = static_cast<uint32_t>(kTileK);
      map_a_ = encode_operand_map(a, plan_.problem.m, plan_.problem.k, pitch, wg->slice_rows_a,
                                  kBoxK, l2_promotion_bytes_);
      map_b_ = encode_operand_map(b, plan_.problem.n, plan_.problem.k, pitch, wg->slice_rows_b,
                                  kBoxK, l2_promotion_bytes_);
      const auto chunks = static_cast<uint32_t>(plan_.tile.k / kTileK);
      map_a_chunks_ = map_b_chunks_ = CUtensorMap{};
      if (chunks > 1) {
        map_a_chunks_ =
            encode_operand_chunks_map(a, plan_.problem.m, plan_.problem.k, pitch, wg->slice_rows_a,
                                      kBoxK, chunks, l2_promotion_bytes_);
        map_b_chunks_ =
            encode_operand_chunks_map(b, plan_.problem.n, plan_.problem.k, pitch, wg->slice_rows_b,
                                      kBoxK, chunks, l2_promotion_bytes_);
      }
      map_a_ptr_ = a;
      map_b_ptr_ = b;
    }
    if (p.c_vectors && ops.c != map_c_ptr_) {
      constexpr auto kBoxRows = static_cast<uint32_t>(kEpilogueBoxRows);
      constexpr auto kBoxCols = static_cast<uint32_t>(kEpilogueBoxCols);
      map_c_ = encode_output_map(ops.c, plan_.problem.m, plan_.problem.n, kBoxRows, kBoxCols);
      // The tail box of the form this launcher runs (a ping-pong consumer stores the whole width).
      const uint32_t tail = pingpong ? wg->pingpong_tail_cols : wg->tail_cols;
      map_c_tail_ = tail > 0
                        ? encode_output_map(ops.c, plan_.problem.m, plan_.problem.n, kBoxRows, tail)
                        : CUtensorMap{};
      map_c_ptr_ = ops.c;
    }
    TmaMaps maps;
    maps.a = map_a_;
    maps.b = map_b_;
    maps.a_chunks = map_a_chunks_;
    maps.b_chunks = map_b_chunks_;
    maps.c = p.c_vectors ? map_c_ : CUtensorMap{};
    maps.c_tail = p.c_vectors ? map_c_tail_ : CUtensorMap{};
    const int64_t size = cluster_size(plan_);
    const WgmmaKernelFn main = pingpong ? wg->pingpong_main : whole ? wg->whole_main : wg->main;
    if (shape_.reduce_cluster > 0) {  // the splits of a tile as one cluster, no multicast
      ClusterLaunch launch = split_cluster_launch(*wg, plan_, stream);
      check_cuda(cudaLaunchKernelEx(&launch.config, wg->cluster_reduce_main, plan_, p, maps),
                 "gemm_kernel_wgmma split-K cluster launch");
    } else if (size == 1) {
      main<<<static_cast<unsigned>(shape_.grid), wg->threads, wg->smem_bytes, stream>>>(plan_, p,
                                                                                        maps);
    } else {
      ClusterLaunch launch(*wg, shape_.grid, size, stream);
      check_cuda(cudaLaunchKernelEx(&launch.config, main, plan_, p, maps),
                 "gemm_kernel_wgmma cluster launch");
    }
    check_cuda(cudaGetLastError(), "gemm_kernel_wgmma launch");
  } else {
    gemm_kernel<<<static_cast<unsigned>(shape_.grid), KernelConfig::kThreads,
                  KernelConfig::kSmemBytes, stream>>>(plan_, p);
    check_cuda(cudaGetLastError(), "gemm_kernel launch");
  }
  if (shape_.reduction_grid > 0) {
    if (traced_) {
      p.trace.ctas = trace_ctas_ + shape_.grid;
      p.trace.segments = trace_segments_ + shape_.grid * shape_.max_segments;
      p.trace.max_segments = 1;
    }
    KernelFn r = reduction_kernel<MmaLayout>;
    int threads = MmaLayout::kThreads;
    if (wg != nullptr) {  // the layout that wrote the slots (the ping-pong form writes none)
      r = wg->reduce;
      threads = wg->reduce_threads;
    }
    r<<<static_cast<unsigned>(shape_.reduction_grid), threads, 0, stream>>>(plan_, p);
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

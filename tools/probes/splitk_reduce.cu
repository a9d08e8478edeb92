// What a split-K reduction costs after the MAC loops, through L2 (our kernels' protocol: each peer
// stores its fp32 partial to a workspace slot and releases a flag; the owner acquires the flags and
// loads the slots) against distributed shared memory (the splits of a tile as one cluster: each
// peer writes its partial into the owner's shared memory and arrives on the owner's mbarrier;
// cuda/README.md's sketch). Every CTA spins a fixed time (its "MAC loop"), then reduces; the
// probe prints, per tile x splits, the medians over launches of the slowest owner's time from the
// end of its MAC loop to its sum (wait + reduction) and of the event-timed launch. 256 threads (the
// consumers), one CTA per SM, grid = tiles x splits within one wave and the cluster residency.
// Build: nvcc -std=c++17 -O2 -arch=sm_90a -o sr tools/probes/splitk_reduce.cu && ./sr
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {
constexpr int kThreads = 256;                  // two consumer warpgroups
constexpr int kSmemLimitBytes = 227 * 1024;    // dynamic shared memory an sm_90 CTA may use
constexpr int kOneCtaPerSmBytes = 120 * 1024;  // more than half an SM's: one CTA per SM
constexpr int kBarrierBytes = 16;              // the mbarrier, 16-byte aligned slots after it
constexpr int kReps = 100;                     // launches per case
constexpr int kMacSpinNs = 3000;               // each CTA's stand-in MAC loop
constexpr int kFloat4 = 4;                     // floats per 16-byte access
constexpr double kNsPerUs = 1e3;

struct Stamp {
  unsigned long long after_mac_ns;  // max over owners: sum done - own MAC loop's end
};

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void spin_mac() {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < kMacSpinNs) {
  }
}

// A thread's fragment of its CTA's partial: kFloats values that depend on the split.
template <int kFloats>
__device__ __forceinline__ void fill(float (&v)[kFloats], int split) {
#pragma unroll
  for (int i = 0; i < kFloats; ++i) v[i] = static_cast<float>(split + 1) * (i + 1);
}

__device__ __forceinline__ void record(Stamp* s, float sum, unsigned long long mac_end,
                                       float* sink) {
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&s->after_mac_ns, now_ns() - mac_end);
  if (sum == -1.0f) *sink = sum;  // keeps the sum live
}

// Through L2: peer p stores its partial to slot (tile, p - 1) and releases flag (tile, p - 1) =
// epoch; the owner (split 0) acquires every flag, then adds the slots in split order.
template <int kFloats>
__global__ void __launch_bounds__(kThreads, 1)
    reduce_l2(int splits, float* slots, int* flags, int epoch, Stamp* s, float* sink) {
  const int tile = blockIdx.x / splits, split = blockIdx.x % splits;
  float v[kFloats];
  fill(v, split);
  spin_mac();
  const unsigned long long mac_end = now_ns();
  const int peers = splits - 1;
  if (split > 0) {
    float4* slot =
        reinterpret_cast<float4*>(slots + (size_t(tile) * peers + split - 1) * kFloats * kThreads);
#pragma unroll
    for (int i = 0; i < kFloats / kFloat4; ++i)
      __stcg(slot + i * kThreads + threadIdx.x,
             make_float4(v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]));
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      int* f = flags + tile * peers + split - 1;
      asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(f), "r"(epoch) : "memory");
    }
    return;
  }
  if (threadIdx.x < peers) {
    const int* f = flags + tile * peers + threadIdx.x;
    int seen = 0;
    do {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(seen) : "l"(f) : "memory");
    } while (seen != epoch);
  }
  __syncthreads();
  for (int p = 0; p < peers; ++p) {
    const float4* slot =
        reinterpret_cast<const float4*>(slots + (size_t(tile) * peers + p) * kFloats * kThreads);
#pragma unroll
    for (int i = 0; i < kFloats / kFloat4; ++i) {
      const float4 x = __ldcg(slot + i * kThreads + threadIdx.x);
      v[4 * i] += x.x, v[4 * i + 1] += x.y, v[4 * i + 2] += x.z, v[4 * i + 3] += x.w;
    }
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kFloats; ++i) sum += v[i];
  record(s, sum, mac_end, sink);
}

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ uint32_t map_to(uint32_t addr, uint32_t rank) {
  uint32_t out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(addr), "r"(rank));
  return out;
}

// Through distributed shared memory: the splits of a tile are one cluster; peer p writes its
// partial into the owner's (rank 0) slot p - 1 and each thread arrives (release, cluster scope) on
// the owner's mbarrier; the owner waits on it, then adds the slots in split order.
template <int kFloats>
__global__ void __launch_bounds__(kThreads, 1) reduce_dsmem(int splits, Stamp* s, float* sink) {
  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t bar = smem_u32(smem);
  const uint32_t slots = bar + kBarrierBytes;
  const uint32_t split = cluster_rank();
  const int peers = splits - 1;
  if (split == 0 && threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(peers * kThreads));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
  float v[kFloats];
  fill(v, static_cast<int>(split));
  spin_mac();
  const unsigned long long mac_end = now_ns();
  asm volatile("barrier.cluster.wait;" ::: "memory");  // the owner's barrier is initialised
  constexpr uint32_t kSlotBytes = kFloats * kThreads * sizeof(float);
  if (split > 0) {
    const uint32_t slot = map_to(slots + (split - 1) * kSlotBytes, 0);
#pragma unroll
    for (int i = 0; i < kFloats / kFloat4; ++i) {
      const uint32_t at = slot + (i * kThreads + threadIdx.x) * 16u;
      asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(at), "f"(v[4 * i]),
                   "f"(v[4 * i + 1]), "f"(v[4 * i + 2]), "f"(v[4 * i + 3])
                   : "memory");
    }
    asm volatile(
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(map_to(bar, 0))
        : "memory");
    return;
  }
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n"
        " selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(bar)
        : "memory");
  }
  for (int p = 0; p < peers; ++p) {
#pragma unroll
    for (int i = 0; i < kFloats / kFloat4; ++i) {
      const float4 x = *reinterpret_cast<const float4*>(smem + kBarrierBytes + p * kSlotBytes +
                                                        (i * kThreads + threadIdx.x) * 16u);
      v[4 * i] += x.x, v[4 * i + 1] += x.y, v[4 * i + 2] += x.z, v[4 * i + 3] += x.w;
    }
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kFloats; ++i) sum += v[i];
  record(s, sum, mac_end, sink);
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "splitk_reduce: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Buffers {
  float* slots = nullptr;
  int* flags = nullptr;
  Stamp* stamps = nullptr;
  float* sink = nullptr;
};

// A launch of `grid` CTAs in clusters of `splits` along x (not copyable: config points at attr).
struct ClusterLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};
  ClusterLaunch(int grid, int smem, int splits) {
    config.gridDim = dim3(grid);
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = smem;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim = {static_cast<unsigned>(splits), 1, 1};
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

// Tiles of `splits` CTAs that run at once: one wave of one CTA per SM, and as many clusters of
// `splits` as the device holds (0 when it holds none).
int tiles_at_once(const void* dsmem_fn, int splits, int smem, int sms) {
  const ClusterLaunch launch(splits * (sms / splits), smem, splits);
  int clusters = 0;
  if (!check(cudaOccupancyMaxActiveClusters(&clusters, dsmem_fn, &launch.config),
             "cudaOccupancyMaxActiveClusters"))
    return 0;
  return std::min(clusters, sms / splits);
}

// kReps launches of one variant; prints its two medians.
template <class Launch>
bool run(const char* name, int tile_m, int tile_n, int splits, int tiles, const Buffers& b,
         Launch launch) {
  std::vector<cudaEvent_t> ev(2 * kReps);
  for (auto& e : ev)
    if (!check(cudaEventCreate(&e), "cudaEventCreate")) return false;
  if (!check(cudaMemset(b.stamps, 0, kReps * sizeof(Stamp)), "stamps init")) return false;
  for (int r = 0; r < kReps; ++r) {
    if (!check(cudaEventRecord(ev[2 * r]), "cudaEventRecord") || !launch(r) ||
        !check(cudaEventRecord(ev[2 * r + 1]), "cudaEventRecord"))
      return false;
  }
  if (!check(cudaDeviceSynchronize(), name)) return false;
  std::vector<Stamp> st(kReps);
  if (!check(cudaMemcpy(st.data(), b.stamps, kReps * sizeof(Stamp), cudaMemcpyDeviceToHost),
             "stamps copy"))
    return false;
  std::vector<double> after, timed;
  for (int r = 0; r < kReps; ++r) {
    after.push_back(static_cast<double>(st[r].after_mac_ns) / kNsPerUs);
    float ms = 0;
    if (!check(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]), "cudaEventElapsedTime"))
      return false;
    timed.push_back(ms * kNsPerUs);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  std::printf("%s,%dx%d,%d,%d,%.3f,%.3f\n", name, tile_m, tile_n, splits, tiles * splits,
              median(after), median(timed));
  return true;
}

template <int kFloats>
bool run_case(int tile_m, int tile_n, int splits, int sms, const Buffers& b) {
  constexpr int kSlotBytes = kFloats * kThreads * sizeof(float);
  const int dsmem_smem = std::max(kOneCtaPerSmBytes, kBarrierBytes + (splits - 1) * kSlotBytes);
  if (dsmem_smem > kSmemLimitBytes) return true;  // the owner cannot hold the peers' partials
  auto* l2_fn = reduce_l2<kFloats>;
  auto* ds_fn = reduce_dsmem<kFloats>;
  if (!check(cudaFuncSetAttribute(l2_fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dsmem_smem),
             "smem attribute") ||
      !check(cudaFuncSetAttribute(ds_fn, cudaFuncAttributeMaxDynamicSharedMemorySize, dsmem_smem),
             "smem attribute"))
    return false;
  const int tiles = tiles_at_once(reinterpret_cast<const void*>(ds_fn), splits, dsmem_smem, sms);
  if (tiles == 0) return true;
  const int grid = tiles * splits;
  auto l2 = [&](int r) {
    reduce_l2<kFloats>
        <<<grid, kThreads, dsmem_smem>>>(splits, b.slots, b.flags, r + 1, b.stamps + r, b.sink);
    return check(cudaGetLastError(), "reduce_l2");
  };
  const ClusterLaunch cluster(grid, dsmem_smem, splits);
  auto ds = [&](int r) {
    return check(cudaLaunchKernelEx(&cluster.config, ds_fn, splits, b.stamps + r, b.sink),
                 "reduce_dsmem");
  };
  if (!check(cudaMemset(b.flags, 0, sizeof(int) * grid), "flags")) return false;
  return run("l2", tile_m, tile_n, splits, tiles, b, l2) &&
         run("dsmem", tile_m, tile_n, splits, tiles, b, ds);
}

template <int kTileM, int kTileN>
bool run_tile(int sms, const Buffers& b) {
  constexpr int kFloats = kTileM * kTileN / kThreads;
  static_assert(kFloats % kFloat4 == 0, "whole float4s a thread");
  for (int splits : {2, 4, 8})
    if (!run_case<kFloats>(kTileM, kTileN, splits, sms, b)) return false;
  return true;
}
}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  const int sms = prop.multiProcessorCount;
  constexpr size_t kMaxSlotFloats = size_t{128} * 128;
  Buffers b;
  if (!check(cudaMalloc(&b.slots, kMaxSlotFloats * sms * sizeof(float)), "cudaMalloc") ||
      !check(cudaMalloc(&b.flags, sms * sizeof(int)), "cudaMalloc") ||
      !check(cudaMalloc(&b.stamps, kReps * sizeof(Stamp)), "cudaMalloc") ||
      !check(cudaMalloc(&b.sink, sizeof(float)), "cudaMalloc"))
    return 1;
  std::printf("device,%s,sms,%d,mac_spin_us,%.1f\n", prop.name, sms, kMacSpinNs / kNsPerUs);
  std::printf("variant,tile,splits,ctas,after_mac_us,timed_us\n");
  const bool ok = run_tile<16, 64>(sms, b) && run_tile<64, 64>(sms, b) &&
                  run_tile<64, 128>(sms, b) && run_tile<128, 128>(sms, b);
  cudaFree(b.slots);
  cudaFree(b.flags);
  cudaFree(b.stamps);
  cudaFree(b.sink);
  return ok ? 0 : 1;
}

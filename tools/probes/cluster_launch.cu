// What a launch costs on its own (issue 29's fixed cost). Kernels shaped like lastwave's (384
// threads, one CTA per SM) that do nothing but stamp %globaltimer run after a marker kernel that
// stamps its own last exit; per variant it prints the medians of: the gap from the marker's last
// exit to the probe's first CTA entry, the probe's span (first entry to last exit), and the
// event-timed sample around the probe. Two tables:
// - clusters (a 2-CTA pair of our kernels took ~1.6 us more per launch than 1x1 at K = 64): no
//   cluster; runtime cluster attribute of 2; compile-time __cluster_dims__(2); with and without a
//   cluster barrier at entry and exit; 200 KiB of dynamic shared memory each;
// - dynamic shared memory: no cluster, 4 KiB ... 227 KiB after a marker without shared memory
//   (the SM's L1 / shared split may have to change), 200 KiB after a marker of 200 KiB (it need
//   not), and after the benchmark's L2 flush (a cudaMemsetAsync of twice the L2; no exit stamp,
//   so no gap) — whether a smaller ring would start a short kernel sooner.
// Build: nvcc -std=c++17 -arch=sm_90a -o cl cluster_launch.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {
constexpr int kThreads = 384;           // producer + two consumer warpgroups
constexpr int kSmemBytes = 200 * 1024;  // more than half an SM's: one CTA per SM
constexpr int kKiB = 1024;
constexpr int kMaxSmemBytes = 232448;  // dynamic shared memory an sm_90 CTA may use
constexpr int kFlushL2Factor = 2;      // the flush writes twice the L2 (as lastwave-bench's)
constexpr int kReps = 200;             // samples per variant
constexpr int kMarkerCtas = 264;       // two per SM of a 132-SM part: the marker fills the GPU
constexpr int kMarkerSpinNs = 20000;  // how long each marker CTA runs (a busy GPU before the probe)
constexpr double kNsPerUs = 1e3;
constexpr uint64_t kNoStamp = ~0ull;

struct Stamps {
  unsigned long long marker_exit;  // max over the marker's CTAs
  unsigned long long first_entry;  // min over the probe's CTAs
  unsigned long long last_exit;    // max over the probe's CTAs
};

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}

__device__ __forceinline__ void cluster_barrier_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n" ::: "memory");
}

__global__ void marker(Stamps* s) {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < kMarkerSpinNs) {
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&s->marker_exit, now_ns());
}

// Entry barrier: none (a CTA barrier), release/acquire, or relaxed. The stamps' atomics come
// after both barriers, so no barrier follows a global write.
enum Entry { kNoEntry, kEntryRelease, kEntryRelaxed };

template <Entry kEntry, bool kExit>
__device__ __forceinline__ void probe_body(Stamps* s) {
  extern __shared__ int smem[];
  const unsigned long long t = now_ns();
  smem[threadIdx.x] = static_cast<int>(threadIdx.x);
  if constexpr (kEntry == kEntryRelease) {
    cluster_barrier();
  } else if constexpr (kEntry == kEntryRelaxed) {
    cluster_barrier_relaxed();
  } else {
    __syncthreads();
  }
  if constexpr (kExit) cluster_barrier();
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(&s->first_entry, t);
    atomicMax(&s->last_exit, now_ns());
  }
}

template <Entry kEntry, bool kExit>
__global__ void __launch_bounds__(kThreads, 1) probe_runtime(Stamps* s) {
  probe_body<kEntry, kExit>(s);
}

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(kThreads, 1) probe_static(Stamps* s) {
  probe_body<kEntryRelease, true>(s);
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "cluster_launch: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

enum Before { kMarker, kFlush };  // what runs before each probe launch

struct Variant {
  const char* name;
  void (*fn)(Stamps*);
  unsigned cluster;       // runtime cluster attribute (0: none)
  int smem = kSmemBytes;  // the probe's dynamic shared memory
  int marker_smem = 0;    // the marker's
  Before before = kMarker;
};

// The L2 flush lastwave-bench runs before every sample.
struct Flush {
  void* buf = nullptr;
  size_t bytes = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// kReps samples of [marker][event][probe][event]; prints the three medians.
bool run(const Variant& v, unsigned grid, Stamps* d_stamps, const Flush& flush) {
  if (!check(cudaFuncSetAttribute(v.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmemBytes),
             "cudaFuncSetAttribute") ||
      !check(
          cudaFuncSetAttribute(marker, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmemBytes),
          "cudaFuncSetAttribute(marker)"))
    return false;
  std::vector<Stamps> init(kReps, Stamps{0, kNoStamp, 0});
  if (!check(cudaMemcpy(d_stamps, init.data(), kReps * sizeof(Stamps), cudaMemcpyHostToDevice),
             "stamps init"))
    return false;
  std::vector<cudaEvent_t> ev(2 * kReps);
  for (auto& e : ev)
    if (!check(cudaEventCreate(&e), "cudaEventCreate")) return false;
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = static_cast<size_t>(v.smem);
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim = {v.cluster, 1, 1};
  config.attrs = &attr;
  config.numAttrs = v.cluster > 0 ? 1 : 0;
  for (int r = 0; r < kReps; ++r) {
    if (v.before == kFlush) {
      if (!check(cudaMemsetAsync(flush.buf, r & 0xFF, flush.bytes), "flush")) return false;
    } else {
      marker<<<kMarkerCtas, kThreads, static_cast<size_t>(v.marker_smem)>>>(d_stamps + r);
    }
    if (!check(cudaGetLastError(), "marker launch") ||
        !check(cudaEventRecord(ev[2 * r]), "cudaEventRecord") ||
        !check(cudaLaunchKernelEx(&config, v.fn, d_stamps + r), v.name) ||
        !check(cudaEventRecord(ev[2 * r + 1]), "cudaEventRecord"))
      return false;
  }
  if (!check(cudaDeviceSynchronize(), "sync")) return false;
  std::vector<Stamps> st(kReps);
  if (!check(cudaMemcpy(st.data(), d_stamps, kReps * sizeof(Stamps), cudaMemcpyDeviceToHost),
             "stamps copy"))
    return false;
  std::vector<double> gap, span, timed;
  for (int r = 0; r < kReps; ++r) {
    gap.push_back(static_cast<double>(st[r].first_entry - st[r].marker_exit) / kNsPerUs);
    span.push_back(static_cast<double>(st[r].last_exit - st[r].first_entry) / kNsPerUs);
    float ms = 0;
    if (!check(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]), "cudaEventElapsedTime"))
      return false;
    timed.push_back(ms * kNsPerUs);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  const double gap_us = v.before == kFlush ? NAN : median(gap);  // no marker stamp to start from
  std::printf("%s,%u,%d,%d,%.3f,%.3f,%.3f\n", v.name, grid, v.smem / kKiB, v.marker_smem / kKiB,
              gap_us, median(span), median(timed));
  return true;
}
}  // namespace

int main() {
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return 1;
  Stamps* d = nullptr;
  if (!check(cudaMalloc(&d, kReps * sizeof(Stamps)), "cudaMalloc")) return 1;
  Flush flush;
  flush.bytes = static_cast<size_t>(prop.l2CacheSize) * kFlushL2Factor;
  if (!check(cudaMalloc(&flush.buf, flush.bytes), "cudaMalloc(flush)")) return 1;
  const Variant clusters[] = {
      {"no-cluster", probe_runtime<kNoEntry, false>, 0},
      {"runtime-2-no-barrier", probe_runtime<kNoEntry, false>, 2},
      {"runtime-2-entry", probe_runtime<kEntryRelease, false>, 2},
      {"runtime-2-entry-relaxed", probe_runtime<kEntryRelaxed, false>, 2},
      {"runtime-2-exit", probe_runtime<kNoEntry, true>, 2},
      {"runtime-2-entry-exit", probe_runtime<kEntryRelease, true>, 2},
      {"static-2-entry-exit", probe_static, 0},
  };
  const auto plain = probe_runtime<kNoEntry, false>;
  const Variant smem[] = {
      {"smem", plain, 0, 4 * kKiB},
      {"smem", plain, 0, 32 * kKiB},
      {"smem", plain, 0, 64 * kKiB},
      {"smem", plain, 0, 100 * kKiB},
      {"smem", plain, 0, 150 * kKiB},
      {"smem", plain, 0, kSmemBytes},
      {"smem", plain, 0, kMaxSmemBytes},
      {"smem-after-smem", plain, 0, kSmemBytes, kSmemBytes},
      {"smem-after-flush", plain, 0, 4 * kKiB, 0, kFlush},
      {"smem-after-flush", plain, 0, 100 * kKiB, 0, kFlush},
      {"smem-after-flush", plain, 0, kSmemBytes, 0, kFlush},
  };
  std::printf("device,%s,sms,%d\nvariant,grid,smem_kib,marker_smem_kib,gap_us,span_us,timed_us\n",
              prop.name, prop.multiProcessorCount);
  const unsigned sms = static_cast<unsigned>(prop.multiProcessorCount);
  for (unsigned grid : {96u, sms / 2 * 2, 2 * (sms / 2 * 2)}) {
    for (int round = 0; round < 2; ++round) {
      for (const auto& v : clusters)
        if (!run(v, grid, d, flush)) return 1;
    }
  }
  for (unsigned grid : {32u, sms}) {
    for (int round = 0; round < 2; ++round) {
      for (const auto& v : smem)
        if (!run(v, grid, d, flush)) return 1;
    }
  }
  cudaFree(flush.buf);
  cudaFree(d);
  return 0;
}

// What sets one CTA's k-tile rate when the MAC loop is not the bound (docs/kernel-notes.md, "One
// CTA's k-tile rate on a deep-K skinny shape": ~205-240 ns a k-tile on 2x576x7168 whatever the
// tile's bytes, ring depth or MMA width). The wgmma kernels' load path alone: one producer thread
// fills a ring of `stages` stages per k-tile with an A box (rows of a small M, past M zero-filled,
// as the kernels' skinny tiles read) and/or a B box (128B-swizzled k-tiles of 64 bf16, what
// cuda/kernel/mainloop_wgmma.cuh loads), one consumer warp waits on each stage and frees it (no
// MMA). CTA c reads B rows block c % blocks over k-tile range c / blocks of `splits` (dp: 1).
// Per CTA the global timer gives the first stage's latency and the steady ns per k-tile; L2
// flushed before every launch (lastwave-bench's protocol) unless a row says warm. A row of 2
// chunks loads 128-deep stages: each box one 3-D TMA of two 64-wide k-chunks (dims k-in-chunk,
// row, chunk; the chunk stride 128 B), landing as two 128B-swizzled k-tiles one after another, as
// a kernel with 128-deep k-tiles would; its ns per k-tile are per 64 of K, to compare.
// Build (repository root): nvcc -std=c++17 -O3 -arch=sm_90a -I. -o trr
//   tools/probes/tma_ring_rate.cu cuda/tensor_map.cpp -lcuda
// Run: ./trr > tma-ring-rate.csv
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "cuda/tensor_map.hpp"

namespace {

namespace ptx = lw::cuda::ptx;

constexpr int kTileK = 64;         // bf16 per k-tile row: one 128-byte swizzle row
constexpr int kRowBytes = 128;     // bytes of one k-tile row
constexpr int kStageAlign = 1024;  // bytes: a 128B-swizzled box starts on a swizzle period
constexpr int kBarBytes = 8;       // one mbarrier
constexpr int kMaxStages = 32;     // ring depth the barrier area is sized for
constexpr int kThreads = 64;       // warp 0: producer (lane 0), warp 1: consumer
constexpr int kWarpSize = 32;
constexpr int kReps = 9;                // timed launches per row (median)
constexpr int kL2FlushFactor = 2;       // flush buffer: this many times the L2 size
constexpr int kSmemLimit = 227 * 1024;  // bytes of dynamic shared memory a CTA may take

struct Args {
  CUtensorMap a, b;
  int a_box_rows, b_box_rows;  // 0: no such box
  int stages, splits, chunks;  // chunks: 64-wide k-chunks per stage (1: 2-D boxes, 2: 3-D)
  int64_t k_tiles, b_blocks;
  unsigned long long* times;  // per CTA: start, first stage landed, last stage landed
};

// One box of `map` for stage step kt (k-tiles of chunks x 64) at row `row`.
__device__ __forceinline__ void load_box(const Args& p, uint32_t dst, const CUtensorMap* map,
                                         uint32_t bar, int64_t kt, int32_t row) {
  if (p.chunks == 1) {
    ptx::tma_load_2d(dst, map, bar, static_cast<int32_t>(kt * kTileK), row);
  } else {
    ptx::tma_load_3d(dst, map, bar, 0, row, static_cast<int32_t>(kt * p.chunks));
  }
}

// Stage and phase advanced one step at a time, as the kernels' RingPos does (a 64-bit division by
// the runtime ring depth every stage costs more than the stage: the first build of this probe did
// that and measured 230-275 ns a stage).
struct Pos {
  int stage = 0;
  uint32_t phase = 0;
  __device__ void advance(int stages) {
    if (++stage == stages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

__device__ void produce(const Args& p, uint32_t ring, uint32_t stage_bytes, uint32_t full,
                        uint32_t empty, int64_t kt0, int64_t kt1, int32_t b_row) {
  const uint32_t a_bytes = static_cast<uint32_t>(p.a_box_rows * p.chunks) * kRowBytes;
  Pos pos;
  for (int64_t kt = kt0; kt < kt1; ++kt, pos.advance(p.stages)) {
    const auto s = static_cast<uint32_t>(pos.stage);
    const uint32_t bar = full + s * kBarBytes, stage = ring + s * stage_bytes;
    ptx::mbar_wait(empty + s * kBarBytes, pos.phase ^ 1);
    ptx::mbar_arrive_expect_tx(bar, stage_bytes);
    if (p.a_box_rows > 0) load_box(p, stage, &p.a, bar, kt, 0);
    if (p.b_box_rows > 0) load_box(p, stage + a_bytes, &p.b, bar, kt, b_row);
  }
}

__device__ void consume(const Args& p, uint32_t full, uint32_t empty, int64_t n) {
  unsigned long long first = 0, last = 0;
  Pos pos;
  for (int64_t it = 0; it < n; ++it, pos.advance(p.stages)) {
    const auto s = static_cast<uint32_t>(pos.stage);
    ptx::mbar_wait(full + s * kBarBytes, pos.phase);
    if (it == 0)
      first = ptx::globaltimer();  // at the ring's ends only: no timer read inside the loop
    if (it == n - 1) last = ptx::globaltimer();
    __syncwarp();
    if (threadIdx.x % kWarpSize == 0) ptx::mbar_arrive(empty + s * kBarBytes);
  }
  if (threadIdx.x % kWarpSize == 0) {
    p.times[3 * blockIdx.x + 1] = first;
    p.times[3 * blockIdx.x + 2] = last;
  }
}

__global__ void __launch_bounds__(kThreads) ring_rate(const __grid_constant__ Args p) {
  extern __shared__ unsigned char smem[];
  const uint32_t base = ptx::smem_addr(smem);
  const uint32_t ring = (base + kStageAlign - 1) / kStageAlign * kStageAlign;
  const uint32_t stage_bytes =
      static_cast<uint32_t>((p.a_box_rows + p.b_box_rows) * p.chunks) * kRowBytes;
  const uint32_t full = ring + p.stages * stage_bytes, empty = full + kMaxStages * kBarBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      ptx::mbar_init(full + s * kBarBytes, 1);
      ptx::mbar_init(empty + s * kBarBytes, 1);
    }
    ptx::fence_mbar_init();
    ptx::prefetch_tensor_map(&p.a);
    ptx::prefetch_tensor_map(&p.b);
  }
  __syncthreads();
  const int64_t block = blockIdx.x % p.b_blocks, part = blockIdx.x / p.b_blocks;
  const int64_t per = (p.k_tiles + p.splits - 1) / p.splits;
  const int64_t kt0 = min(part * per, p.k_tiles), kt1 = min(kt0 + per, p.k_tiles);
  if (threadIdx.x == 0) {
    p.times[3 * blockIdx.x] = ptx::globaltimer();
    produce(p, ring, stage_bytes, full, empty, kt0, kt1,
            static_cast<int32_t>(block * p.b_box_rows));
  } else if (threadIdx.x >= kWarpSize) {
    consume(p, full, empty, kt1 - kt0);
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// One row of the sweep: the kernels' config it mimics and the ring.
struct Case {
  const char* mimics;
  int64_t m, n, k;
  int a_box_rows, b_box_rows, stages, splits;
  bool warm;
  int chunks = 1;
};

// `rows` x `k` bf16 (k % 128 == 0) as dims (64 of k, row, k / 64): box 64 x box_rows x 2,
// 128-byte swizzle, L2 promotion 256 B, out-of-bounds rows zero-filled.
CUtensorMap encode_chunked_map(const void* base, int64_t rows, int64_t k, uint32_t box_rows) {
  constexpr uint32_t kRank = 3, kChunksPerBox = 2;
  const cuuint64_t dims[kRank] = {static_cast<cuuint64_t>(kTileK), static_cast<cuuint64_t>(rows),
                                  static_cast<cuuint64_t>(k / kTileK)};
  const cuuint64_t strides[kRank - 1] = {static_cast<cuuint64_t>(k) * 2, kRowBytes};
  const cuuint32_t box[kRank] = {kTileK, box_rows, kChunksPerBox};
  const cuuint32_t elem_strides[kRank] = {1, 1, 1};
  CUtensorMap map{};
  const CUresult r = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, kRank, const_cast<void*>(base), dims, strides, box,
      elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw std::runtime_error("3-D map: CUresult " + std::to_string(r));
  return map;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void run(const Case& c, void* flush_buf, size_t flush_bytes, const cudaDeviceProp& prop) {
  const size_t a_bytes = static_cast<size_t>(c.m * c.k) * 2,
               b_bytes = static_cast<size_t>(c.n * c.k) * 2;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, a_bytes), "malloc A");
  check(cudaMalloc(&b, b_bytes), "malloc B");
  check(cudaMemset(a, 0x3c, a_bytes), "fill A");
  check(cudaMemset(b, 0x3c, b_bytes), "fill B");
  Args p{};
  const int l2 = lw::cuda::default_l2_promotion(c.k);
  const auto a_box = static_cast<uint32_t>(std::max(c.a_box_rows, 1));
  const auto b_box = static_cast<uint32_t>(std::max(c.b_box_rows, 1));
  if (c.chunks == 1) {
    p.a = lw::cuda::encode_operand_map(a, c.m, c.k, c.k, a_box, kTileK, l2);
    p.b = lw::cuda::encode_operand_map(b, c.n, c.k, c.k, b_box, kTileK, l2);
  } else {
    p.a = encode_chunked_map(a, c.m, c.k, a_box);
    p.b = encode_chunked_map(b, c.n, c.k, b_box);
  }
  p.a_box_rows = c.a_box_rows;
  p.b_box_rows = c.b_box_rows;
  p.stages = c.stages;
  p.splits = c.splits;
  p.chunks = c.chunks;
  p.k_tiles = (c.k + kTileK * c.chunks - 1) / (kTileK * c.chunks);
  p.b_blocks = (c.n + c.b_box_rows - 1) / c.b_box_rows;
  const int grid = static_cast<int>(p.b_blocks * c.splits);
  check(cudaMalloc(&p.times, sizeof(unsigned long long) * 3 * grid), "malloc times");
  const int smem = kStageAlign + c.stages * (c.a_box_rows + c.b_box_rows) * c.chunks * kRowBytes +
                   2 * kMaxStages * kBarBytes;
  if (smem > kSmemLimit || c.stages > kMaxStages) throw std::runtime_error("ring too large");
  check(cudaFuncSetAttribute(ring_rate, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "smem");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<double> event_us, latency_ns, ns_per_ktile;
  std::vector<unsigned long long> t(3 * grid);
  const int64_t per = (p.k_tiles + c.splits - 1) / c.splits;
  for (int rep = 0; rep <= kReps; ++rep) {  // rep 0 warms up
    if (!c.warm) check(cudaMemsetAsync(flush_buf, rep, flush_bytes), "flush");
    check(cudaEventRecord(start), "record");
    ring_rate<<<grid, kThreads, smem>>>(p);
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    check(cudaMemcpy(t.data(), p.times, sizeof(unsigned long long) * t.size(),
                     cudaMemcpyDeviceToHost),
          "copy times");
    if (rep == 0) continue;
    event_us.push_back(ms * 1000.0);
    std::vector<double> lat, rate;
    for (int i = 0; i < grid; ++i) {
      lat.push_back(static_cast<double>(t[3 * i + 1] - t[3 * i]));
      rate.push_back(static_cast<double>(t[3 * i + 2] - t[3 * i + 1]) /
                     std::max<int64_t>(per - 1, 1));
    }
    latency_ns.push_back(median(lat));
    ns_per_ktile.push_back(median(rate));
  }
  const double rate = median(ns_per_ktile) / c.chunks;  // per 64 of K
  const double stage_bytes =
      static_cast<double>(std::min<int64_t>(c.a_box_rows, c.m) + c.b_box_rows) * kRowBytes;
  std::printf("%s,%s,%lld,%lld,%lld,%d,%d,%d,%d,%d,%d,%s,%lld,%.2f,%.0f,%.1f,%.1f\n", prop.name,
              c.mimics, static_cast<long long>(c.m), static_cast<long long>(c.n),
              static_cast<long long>(c.k), c.a_box_rows, c.b_box_rows, c.chunks, c.stages, c.splits,
              grid, c.warm ? "warm" : "flushed", static_cast<long long>(per), median(event_us),
              median(latency_ns), rate, stage_bytes / rate);
  std::fflush(stdout);
  check(cudaEventDestroy(start), "event");
  check(cudaEventDestroy(stop), "event");
  check(cudaFree(p.times), "free");
  check(cudaFree(a), "free");
  check(cudaFree(b), "free");
}

}  // namespace

int main() {
  try {
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "properties");
    const size_t flush_bytes = static_cast<size_t>(prop.l2CacheSize) * kL2FlushFactor;
    void* flush_buf = nullptr;
    check(cudaMalloc(&flush_buf, flush_bytes), "malloc flush");
    // The floor's shape (2x576x7168) as 16x64 and 64x16 dp read it, then one change at a time.
    const Case cases[] = {
        {"16x64 dp", 2, 576, 7168, 16, 64, 4, 1, false},
        {"16x64 dp", 2, 576, 7168, 16, 64, 8, 1, false},
        {"16x64 dp", 2, 576, 7168, 16, 64, 16, 1, false},
        {"16x64 dp", 2, 576, 7168, 16, 64, 16, 1, true},
        {"64x16 dp", 2, 576, 7168, 64, 16, 16, 1, false},
        {"64x16 dp M=64", 64, 576, 7168, 64, 16, 16, 1, false},
        {"B box only", 2, 576, 7168, 0, 64, 16, 1, false},
        {"B box only", 2, 576, 7168, 0, 64, 4, 1, false},
        {"B box only, one CTA", 2, 64, 7168, 0, 64, 16, 1, false},
        {"B box only, one CTA warm", 2, 64, 7168, 0, 64, 16, 1, true},
        {"B box of 256 rows", 2, 768, 7168, 0, 256, 6, 1, false},
        {"16x64 splitk:8", 2, 576, 7168, 16, 64, 16, 8, false},
        {"16x64 splitk:8 B only", 2, 576, 7168, 0, 64, 16, 8, false},
        {"16x64 dp, 132 CTAs", 2, 8448, 7168, 16, 64, 16, 1, false},
        {"16x64 dp, 128-deep stages", 2, 576, 7168, 16, 64, 8, 1, false, 2},
        {"64x16 dp, 128-deep stages", 2, 576, 7168, 64, 16, 8, 1, false, 2},
        {"B box only, 128-deep stages", 2, 576, 7168, 0, 64, 8, 1, false, 2},
    };
    std::printf(
        "device,mimics,m,n,k,a_box_rows,b_box_rows,chunks,stages,splits,ctas,l2,stages_per_cta,"
        "event_us,first_stage_ns,ns_per_ktile,gb_per_s_per_cta\n");
    for (const Case& c : cases) {
      try {
        run(c, flush_buf, flush_bytes, prop);
      } catch (const std::runtime_error& e) {  // a map or ring the hardware refuses: next row
        std::printf("%s,%s,error: %s\n", prop.name, c.mimics, e.what());
      }
    }
    check(cudaFree(flush_buf), "free");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tma_ring_rate: %s\n", e.what());
    return 1;
  }
  return 0;
}

// How fast one producer warpgroup fills the wgmma kernels' stage ring (128B-swizzled k-tiles of 64
// bf16) from rows TMA cannot read (K % 8 != 0, issue 30), per SM and chip-wide, against TMA on the
// same rows padded to 8 (what the staged path reads). Methods: tma (padded rows), cp4 (4-byte
// cp.async, K even), ldg (16-byte loads of the aligned chunks around each row piece, shifted in
// registers; any K), cp16 (16-byte cp.async of those chunks into raw row buffers kRawDepth tiles
// ahead, then shifted shared to shared: few registers, any K), classes16 / classes8 (TMA on the
// original rows through one map per row residue class mod 8, whose rows are 8K elements apart, a
// 16-byte multiple for any K; each group of 8 x 16 or 8 x 8 rows holds its 8 classes' boxes one
// after another, rows permuted). A class's rows start (cK mod 8) elements past a 16-byte boundary,
// and a TMA box cannot start there (the load traps: illegal instruction, H200 2026-12-06), so the
// classes methods run only at K % 8 == 0, where they measure what boxes of 16 or 8 rows cost
// against one box of 256. Consumers only wait, fence and release (no MMA): the rate is the load
// path's bound. Every method's stages are first checked element by element (CTA 0, every k-tile).
// Build (repository root): nvcc -std=c++17 -O3 -arch=sm_90a -I. -o ml
//   tools/probes/misaligned_loads.cu cuda/tensor_map.cpp -lcuda
// Run: ./ml [K ...] > misaligned-loads.csv   (default K: 4096 4104 4100 4099 4097)
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "cuda/tensor_map.hpp"

namespace {

namespace ptx = lw::cuda::ptx;

constexpr int kTileK = 64;       // bf16 per k-tile row: one 128-byte swizzle row
constexpr int kRowBytes = 128;   // bytes of one k-tile row
constexpr int kChunkBytes = 16;  // a swizzle chunk
constexpr int kChunksPerRow = kRowBytes / kChunkBytes;
constexpr int64_t kChunkElements = kChunkBytes / 2;  // bf16 of a chunk
constexpr int kSwizzleRows = 8;                      // rows of one 128B-swizzle atom
constexpr int kRowsPerStage = 256;                   // a 128x128 tile's A and B rows
constexpr int kStages = 4;  // cp16: kCp16Stages, its raw buffers run ahead instead
constexpr int kStageBytes = kRowsPerStage * kRowBytes;  // 32 KiB
constexpr int kRawRowBytes = kRowBytes + kChunkBytes;   // the 9 aligned chunks around a row piece
constexpr int kRawBytes = kRowsPerStage * kRawRowBytes;
constexpr int kRawDepth = 4;  // cp16: tiles of raw rows in flight or being shifted
constexpr int kCp16Stages = 2;
constexpr int kSmemAlign = 1024;  // a 128B-swizzled stage starts on a 1 KiB boundary
constexpr int kBarBytes = 8;
constexpr int kSmemBytes = kSmemAlign + kStages * kStageBytes + 2 * kStages * kBarBytes;
constexpr int kCp16SmemBytes =
    kSmemAlign + kCp16Stages * kStageBytes + kRawDepth * kRawBytes + 2 * kStages * kBarBytes;
constexpr int kShiftBarrier = 1;       // named barrier of the cp16 producers (0: __syncthreads)
constexpr int kProducerThreads = 128;  // one warpgroup
constexpr int kConsumerThreads = 128;
constexpr int kConsumerWarps = kConsumerThreads / 32;
constexpr int kLdgBatch = 4;  // chunks a thread loads before it stores them
static_assert(kRowsPerStage * kChunksPerRow % (kLdgBatch * kProducerThreads) == 0, "whole batches");
constexpr int kMatrixRows = 4096;  // 16 row blocks: about 8 CTAs read each (L2 reuse)
constexpr int kPasses = 4;         // each CTA walks its rows' k-tiles this often
constexpr int kWarmup = 2;
constexpr int kReps = 10;

enum class Method { kTma, kCp4, kLdg, kCp16, kClasses16, kClasses8 };
const char* method_name(Method m) {
  return m == Method::kTma         ? "tma"
         : m == Method::kCp4       ? "cp4"
         : m == Method::kLdg       ? "ldg"
         : m == Method::kCp16      ? "cp16"
         : m == Method::kClasses16 ? "classes16"
                                   : "classes8";
}
// classes: rows of one residue class mod kRowClasses are a 16-byte multiple apart for any K.
constexpr int kRowClasses = 8;
// classes16 / classes8: each operand tile (a stage holds a 128x128 tile's A and B) in groups of
// 8 x class_box_rows rows, each group as 8 boxes of class_box_rows rows, one per residue class:
// 16 boxes of 16 rows a stage, or 32 of 8 (an m64 block's rows or a 64-column store box's).
__host__ __device__ constexpr bool is_classes(Method m) {
  return m == Method::kClasses16 || m == Method::kClasses8;
}
__host__ __device__ constexpr int class_box_rows(Method m) {
  return m == Method::kClasses16 ? 16 : 8;
}
__host__ __device__ constexpr int ring_stages(Method m) {
  return m == Method::kCp16 ? kCp16Stages : kStages;
}
constexpr int smem_bytes(Method m) { return m == Method::kCp16 ? kCp16SmemBytes : kSmemBytes; }

struct Args {
  const uint16_t* a;  // rows x k, rows `pitch` elements apart
  int64_t rows;
  int64_t k;
  int64_t pitch;
  int passes;
  uint16_t* dump;   // non-null: CTA 0 writes every stage it consumes here, unswizzled
  uint32_t* sink;   // keeps the consumers' reads
  CUtensorMap map;  // tma: the padded rows, box kTileK x kRowsPerStage, 128B swizzle
  // classes: class c's rows (c, c + 8, ...) from the 16-byte boundary at or below row c's start,
  // box kTileK x class_box_rows, read from K offset class_shift[c] (its row start past the
  // boundary).
  CUtensorMap class_map[kRowClasses];
  int32_t class_shift[kRowClasses];
};

// Stage row of global row `row` (relative to the stage's first) under `m`: classes stacks the
// residue classes' boxes.
__host__ __device__ constexpr int stage_row(Method m, int row) {
  if (!is_classes(m)) return row;
  const int box = class_box_rows(m), group = kRowClasses * box;
  return row / group * group + row % group % kRowClasses * box + row % group / kRowClasses;
}

// Byte offset of chunk `chunk` of row `row` in a 128B-swizzled stage.
__device__ __forceinline__ uint32_t swizzled(int row, int chunk) {
  return static_cast<uint32_t>(row * kRowBytes + ((chunk ^ (row % kSwizzleRows)) * kChunkBytes));
}

// 4-byte cp.async, zero-filled where src_bytes is 0.
__device__ __forceinline__ void cp_async_4(uint32_t dst, const void* src, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
               : "memory");
}

// The barrier receives one arrival once every earlier cp.async of this thread has landed.
__device__ __forceinline__ void cp_async_arrive_noinc(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

__device__ void fill_cp4(const Args& p, uint32_t stage, int64_t row0, int64_t k0) {
  constexpr int kWordsPerRow = kRowBytes / 4;
  for (int w = static_cast<int>(threadIdx.x); w < kRowsPerStage * kWordsPerRow;
       w += kProducerThreads) {
    const int r = w / kWordsPerRow, word = w % kWordsPerRow;
    const int64_t k = k0 + 2 * word;
    const bool valid = row0 + r < p.rows && k < p.k;
    const uint16_t* src = valid ? p.a + (row0 + r) * p.pitch + k : p.a;
    cp_async_4(stage + swizzled(r, word / 4) + (word % 4) * 4, src, valid ? 4 : 0);
  }
}

// The 16 bytes of a row piece that starts `shift` bytes into aligned chunk `x` and runs on into
// the next one, `y`.
__device__ __forceinline__ uint4 shifted(uint4 x, uint4 y, uint32_t shift) {
  const uint32_t w[8] = {x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w};
  const uint32_t q = shift / 4, bits = (shift % 4) * 8;
  uint32_t o[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = q == 0 ? w[i] : q == 1 ? w[i + 1] : q == 2 ? w[i + 2] : w[i + 3];
    const uint32_t hi = q == 0 ? w[i + 1] : q == 1 ? w[i + 2] : q == 2 ? w[i + 3] : w[i + 4];
    o[i] = __funnelshift_r(lo, hi, bits);
  }
  return make_uint4(o[0], o[1], o[2], o[3]);
}

// Zeroes the bf16 of `v` at or past element `valid` (0..8) of its chunk.
__device__ __forceinline__ uint4 keep_first(uint4 v, int64_t valid) {
  uint32_t o[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    if (2 * i >= valid)
      o[i] = 0;
    else if (2 * i + 1 >= valid)
      o[i] &= 0xffffu;
  }
  return make_uint4(o[0], o[1], o[2], o[3]);
}

// Byte address of element (row, k).
__device__ __forceinline__ uintptr_t element_address(const Args& p, int64_t row, int64_t k) {
  return reinterpret_cast<uintptr_t>(p.a + row * p.pitch + k);
}

// Elements of the 8-element chunk at (row, k) inside the matrix: 8, fewer at its K edge, <= 0
// past it or past the last row.
__device__ __forceinline__ int64_t chunk_elements(const Args& p, int64_t row, int64_t k) {
  return row >= p.rows ? 0 : p.k - k < 8 ? p.k - k : 8;
}

__device__ __forceinline__ void st_shared_v4(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}

__device__ void fill_ldg(const Args& p, uint32_t stage, int64_t row0, int64_t k0) {
  const auto* end = reinterpret_cast<const unsigned char*>(p.a + p.rows * p.pitch);
  for (int c0 = static_cast<int>(threadIdx.x); c0 < kRowsPerStage * kChunksPerRow;
       c0 += kLdgBatch * kProducerThreads) {
    uint4 x[kLdgBatch], y[kLdgBatch];
    uint32_t shift[kLdgBatch];
    int64_t valid[kLdgBatch];
#pragma unroll
    for (int b = 0; b < kLdgBatch; ++b) {  // every load of the batch in flight at once
      const int c = c0 + b * kProducerThreads, r = c / kChunksPerRow;
      const int64_t k = k0 + (c % kChunksPerRow) * 8;
      valid[b] = chunk_elements(p, row0 + r, k);
      const uintptr_t at = element_address(p, row0 + r, k);
      const auto* lo =
          reinterpret_cast<const uint4*>(at & ~static_cast<uintptr_t>(kChunkBytes - 1));
      shift[b] = static_cast<uint32_t>(at % kChunkBytes);
      const bool second =
          valid[b] > 0 && shift[b] != 0 && reinterpret_cast<const unsigned char*>(lo + 1) < end;
      x[b] = valid[b] > 0 ? __ldg(lo) : make_uint4(0, 0, 0, 0);
      y[b] = second ? __ldg(lo + 1) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int b = 0; b < kLdgBatch; ++b) {
      const int c = c0 + b * kProducerThreads;
      st_shared_v4(stage + swizzled(c / kChunksPerRow, c % kChunksPerRow),
                   keep_first(shifted(x[b], y[b], shift[b]), valid[b] > 0 ? valid[b] : 0));
    }
  }
}

// cp16, step 1: the 9 aligned 16-byte chunks around each row's piece [k0, k0 + 64) into `raw`
// (rows kRawRowBytes apart), zero where a chunk holds no element of the piece.
__device__ void fill_raw(const Args& p, uint32_t raw, int64_t row0, int64_t k0) {
  constexpr int kRawChunks = kRawRowBytes / kChunkBytes;
  const int64_t piece = p.k - k0 < kTileK ? p.k - k0 : kTileK;  // elements of the piece
  for (int q = static_cast<int>(threadIdx.x); q < kRowsPerStage * kRawChunks;
       q += kProducerThreads) {
    const int r = q / kRawChunks, j = q % kRawChunks;
    const uintptr_t at = element_address(p, row0 + r, k0);
    const uintptr_t src = (at & ~static_cast<uintptr_t>(kChunkBytes - 1)) + j * kChunkBytes;
    const bool valid = row0 + r < p.rows && src < at + 2 * piece;
    ptx::cp_async_16(raw + r * kRawRowBytes + j * kChunkBytes,
                     valid ? reinterpret_cast<const void*>(src) : p.a, valid ? kChunkBytes : 0);
  }
}

// cp16, step 2: each row's piece out of `raw`, shifted by its misalignment, into the stage.
__device__ void shift_raw(const Args& p, uint32_t raw, uint32_t stage, int64_t row0, int64_t k0) {
  for (int c = static_cast<int>(threadIdx.x); c < kRowsPerStage * kChunksPerRow;
       c += kProducerThreads) {
    const int r = c / kChunksPerRow, ch = c % kChunksPerRow;
    const int64_t valid = chunk_elements(p, row0 + r, k0 + ch * 8);
    const uint32_t shift = static_cast<uint32_t>(element_address(p, row0 + r, k0) % kChunkBytes);
    const uint4 x = ptx::ld_shared_v4_b32(raw + r * kRawRowBytes + ch * kChunkBytes);
    const uint4 y = ptx::ld_shared_v4_b32(raw + r * kRawRowBytes + (ch + 1) * kChunkBytes);
    st_shared_v4(stage + swizzled(r, ch), keep_first(shifted(x, y, shift), valid > 0 ? valid : 0));
  }
}

// cp16's producer: raw tiles kRawDepth - 1 ahead of the one it shifts into the ring.
__device__ void produce_cp16(const Args& p, uint32_t stages, uint32_t raw, uint32_t full,
                             uint32_t empty, int64_t row0, int64_t k_tiles) {
  const int64_t n = p.passes * k_tiles;
  const auto issue = [&](int64_t it) {
    if (it < n) fill_raw(p, raw + (it % kRawDepth) * kRawBytes, row0, (it % k_tiles) * kTileK);
    ptx::cp_async_commit();  // an empty group past the end keeps the count
  };
  for (int64_t it = 0; it < kRawDepth - 1; ++it) issue(it);
  for (int64_t it = 0; it < n; ++it) {
    issue(it + kRawDepth - 1);  // into the raw buffer shifted one step ago
    ptx::cp_async_wait<kRawDepth - 1>();
    ptx::named_barrier_sync(kShiftBarrier, kProducerThreads);  // every producer's chunks of `it`
    const int s = static_cast<int>(it % kCp16Stages);
    ptx::mbar_wait(empty + s * kBarBytes, static_cast<uint32_t>((it / kCp16Stages) & 1) ^ 1);
    shift_raw(p, raw + (it % kRawDepth) * kRawBytes, stages + s * kStageBytes, row0,
              (it % k_tiles) * kTileK);
    ptx::fence_proxy_async_smem();
    ptx::mbar_arrive(full + s * kBarBytes);
    ptx::named_barrier_sync(kShiftBarrier, kProducerThreads);  // the raw buffer is free again
  }
}

template <Method kMethod>
__device__ void produce(const Args& p, uint32_t stages, uint32_t full, uint32_t empty, int64_t row0,
                        int64_t k_tiles) {
  static_assert(ring_stages(kMethod) == kStages, "cp16 has its own producer");
  for (int64_t it = 0; it < p.passes * k_tiles; ++it) {
    const int s = static_cast<int>(it % kStages);
    const uint32_t parity = static_cast<uint32_t>((it / kStages) & 1);
    const uint32_t stage = stages + s * kStageBytes, bar = full + s * kBarBytes;
    const int64_t k0 = (it % k_tiles) * kTileK;
    ptx::mbar_wait(empty + s * kBarBytes, parity ^ 1);
    if constexpr (kMethod == Method::kTma) {
      if (threadIdx.x == 0) {
        ptx::mbar_arrive_expect_tx(bar, kStageBytes);
        ptx::tma_load_2d(stage, &p.map, bar, static_cast<int32_t>(k0), static_cast<int32_t>(row0));
      }
    } else if constexpr (is_classes(kMethod)) {
      constexpr int kBox = class_box_rows(kMethod), kGroup = kRowClasses * kBox;
      if (threadIdx.x == 0) {
        ptx::mbar_arrive_expect_tx(bar, kStageBytes);
        for (int g = 0; g < kRowsPerStage / kGroup; ++g)
          for (int c = 0; c < kRowClasses; ++c)
            ptx::tma_load_2d(stage + (g * kGroup + c * kBox) * kRowBytes, &p.class_map[c], bar,
                             static_cast<int32_t>(k0) + p.class_shift[c],
                             static_cast<int32_t>((row0 + g * kGroup) / kRowClasses));
      }
    } else if constexpr (kMethod == Method::kCp4) {
      fill_cp4(p, stage, row0, k0);
      cp_async_arrive_noinc(bar);
    } else {
      fill_ldg(p, stage, row0, k0);
      ptx::fence_proxy_async_smem();  // the wgmma reads the stage through the async proxy
      ptx::mbar_arrive(bar);
    }
  }
}

template <int kRing>
__device__ void consume(const Args& p, uint32_t stages, uint32_t full, uint32_t empty,
                        int64_t k_tiles) {
  const int t = static_cast<int>(threadIdx.x) - kProducerThreads;
  uint32_t acc = 0;
  for (int64_t it = 0; it < p.passes * k_tiles; ++it) {
    const int s = static_cast<int>(it % kRing);
    const uint32_t stage = stages + s * kStageBytes;
    ptx::mbar_wait(full + s * kBarBytes, static_cast<uint32_t>((it / kRing) & 1));
    ptx::fence_proxy_async_smem();  // where a wgmma would read the cp.async's generic writes
    acc ^= ptx::ld_shared_b32(stage + t * kChunkBytes);
    if (p.dump != nullptr && blockIdx.x == 0 && it < k_tiles) {
      for (int e = t; e < kRowsPerStage * kTileK; e += kConsumerThreads) {
        const int r = e / kTileK, col = e % kTileK;
        p.dump[it * kRowsPerStage * kTileK + e] =
            ptx::ld_shared_b16(stage + swizzled(r, col / 8) + (col % 8) * 2);
      }
    }
    __syncwarp();
    if (t % 32 == 0) ptx::mbar_arrive(empty + s * kBarBytes);
  }
  if (acc == 0x9e3779b9u) *p.sink = acc;  // practically never: keeps the reads
}

template <Method kMethod>
__global__ void __launch_bounds__(kProducerThreads + kConsumerThreads)
    fill_ring(const __grid_constant__ Args p) {
  extern __shared__ unsigned char smem[];
  const uint32_t base = ptx::smem_addr(smem);
  const uint32_t stages = (base + kSmemAlign - 1) / kSmemAlign * kSmemAlign;
  constexpr int kRing = ring_stages(kMethod);
  const uint32_t raw = stages + kRing * kStageBytes;  // cp16 only
  const uint32_t full = raw + (kMethod == Method::kCp16 ? kRawDepth * kRawBytes : 0);
  const uint32_t empty = full + kStages * kBarBytes;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kRing; ++s) {
      ptx::mbar_init(full + s * kBarBytes,
                     kMethod == Method::kTma || is_classes(kMethod) ? 1 : kProducerThreads);
      ptx::mbar_init(empty + s * kBarBytes, kConsumerWarps);
    }
    ptx::fence_mbar_init();
  }
  __syncthreads();
  const int64_t blocks = (p.rows + kRowsPerStage - 1) / kRowsPerStage;
  const int64_t row0 = (blockIdx.x % blocks) * kRowsPerStage;
  const int64_t k_tiles = (p.k + kTileK - 1) / kTileK;
  if (threadIdx.x >= kProducerThreads) {
    consume<kRing>(p, stages, full, empty, k_tiles);
  } else if constexpr (kMethod == Method::kCp16) {
    produce_cp16(p, stages, raw, full, empty, row0, k_tiles);
  } else {
    produce<kMethod>(p, stages, full, empty, row0, k_tiles);
  }
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void launch(Method m, const Args& p, int grid) {
  const dim3 block(kProducerThreads + kConsumerThreads);
  if (m == Method::kTma) fill_ring<Method::kTma><<<grid, block, smem_bytes(m)>>>(p);
  if (m == Method::kCp4) fill_ring<Method::kCp4><<<grid, block, smem_bytes(m)>>>(p);
  if (m == Method::kLdg) fill_ring<Method::kLdg><<<grid, block, smem_bytes(m)>>>(p);
  if (m == Method::kCp16) fill_ring<Method::kCp16><<<grid, block, smem_bytes(m)>>>(p);
  if (m == Method::kClasses16) fill_ring<Method::kClasses16><<<grid, block, smem_bytes(m)>>>(p);
  if (m == Method::kClasses8) fill_ring<Method::kClasses8><<<grid, block, smem_bytes(m)>>>(p);
  check(cudaGetLastError(), "launch");
}

// Element (r, e) of CTA 0's k-tile `kt` as the stage must hold it (zero past k and past the rows).
uint16_t expected(const std::vector<uint16_t>& a, int64_t k, int64_t kt, int r, int e) {
  const int64_t col = kt * kTileK + e;
  return r < kMatrixRows && col < k ? a[r * k + col] : 0;
}

// Mismatching elements of every k-tile CTA 0 consumed, one pass, one CTA.
int64_t verify(Method m, Args p, const std::vector<uint16_t>& host) {
  const int64_t k_tiles = (p.k + kTileK - 1) / kTileK;
  const size_t n = static_cast<size_t>(k_tiles) * kRowsPerStage * kTileK;
  check(cudaMalloc(&p.dump, n * sizeof(uint16_t)), "cudaMalloc dump");
  check(cudaMemset(p.dump, 0xff, n * sizeof(uint16_t)), "poison dump");
  p.passes = 1;
  launch(m, p, 1);
  check(cudaDeviceSynchronize(), "verify run");
  std::vector<uint16_t> got(n);
  check(cudaMemcpy(got.data(), p.dump, n * sizeof(uint16_t), cudaMemcpyDeviceToHost), "dump");
  check(cudaFree(p.dump), "cudaFree dump");
  int64_t bad = 0;
  for (int64_t kt = 0; kt < k_tiles; ++kt)
    for (int r = 0; r < kRowsPerStage; ++r)
      for (int e = 0; e < kTileK; ++e)
        bad += got[(kt * kRowsPerStage + stage_row(m, r)) * kTileK + e] !=
               expected(host, p.k, kt, r, e);
  return bad;
}

float median_us(Method m, const Args& p, int grid) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> us;
  for (int rep = 0; rep < kWarmup + kReps; ++rep) {
    check(cudaEventRecord(start), "record");
    launch(m, p, grid);
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    if (rep >= kWarmup) us.push_back(ms * 1000.0f);
  }
  check(cudaEventDestroy(start), "event");
  check(cudaEventDestroy(stop), "event");
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// classes' maps: class c holds rows c, c + 8, ... of `rows` (kMatrixRows x k, 16-byte aligned),
// 8k elements apart; its map starts at the 16-byte boundary at or below row c and spans each row's
// shift + k elements, so the shift's elements (the row before's tail) are never read.
void encode_classes(Method m, const uint16_t* rows, int64_t k, Args& p) {
  for (int c = 0; c < kRowClasses; ++c) {
    const int64_t start = c * k, shift = start % kChunkElements;
    const int64_t class_rows = (kMatrixRows - c + kRowClasses - 1) / kRowClasses;
    p.class_shift[c] = static_cast<int32_t>(shift);
    p.class_map[c] = lw::cuda::encode_operand_map(rows + start - shift, class_rows, k + shift,
                                                  kRowClasses * k, class_box_rows(m), kTileK,
                                                  lw::cuda::kMisalignedRowL2PromotionBytes);
  }
}

void run_k(int64_t k, const cudaDeviceProp& prop, uint32_t* sink) {
  const int64_t pitch8 = (k + 7) / 8 * 8;
  std::vector<uint16_t> host(static_cast<size_t>(kMatrixRows * k));
  std::mt19937 rng(static_cast<uint32_t>(k));
  for (auto& v : host) v = static_cast<uint16_t>(rng());
  uint16_t *rows = nullptr, *padded = nullptr;
  check(cudaMalloc(&rows, host.size() * sizeof(uint16_t)), "cudaMalloc rows");
  check(cudaMalloc(&padded, kMatrixRows * pitch8 * sizeof(uint16_t)), "cudaMalloc padded");
  check(cudaMemcpy(rows, host.data(), host.size() * 2, cudaMemcpyHostToDevice), "copy rows");
  check(cudaMemset(padded, 0, kMatrixRows * pitch8 * 2), "zero padded");
  check(cudaMemcpy2D(padded, pitch8 * 2, rows, k * 2, k * 2, kMatrixRows, cudaMemcpyDeviceToDevice),
        "copy padded");
  const int64_t k_tiles = (k + kTileK - 1) / kTileK;
  for (Method m : {Method::kTma, Method::kClasses16, Method::kClasses8, Method::kCp4, Method::kLdg,
                   Method::kCp16}) {
    if (m == Method::kCp4 && k % 2 != 0) continue;           // 4-byte copies need even rows
    if (is_classes(m) && k % kChunkElements != 0) continue;  // boxes start off 16 bytes: a trap
    Args p{m == Method::kTma ? padded : rows,
           kMatrixRows,
           k,
           m == Method::kTma ? pitch8 : k,
           kPasses,
           nullptr,
           sink,
           {}};
    if (m == Method::kTma)
      p.map = lw::cuda::encode_operand_map(padded, kMatrixRows, k, pitch8, kRowsPerStage, kTileK,
                                           lw::cuda::kMisalignedRowL2PromotionBytes);
    if (is_classes(m)) encode_classes(m, rows, k, p);
    const int64_t bad = verify(m, p, host);
    const float us = median_us(m, p, prop.multiProcessorCount);
    const double bytes =
        static_cast<double>(prop.multiProcessorCount) * kPasses * k_tiles * kStageBytes;
    std::printf("%s,%s,%lld,%d,%d,%d,%d,%.1f,%.3f,%.1f,%lld\n", prop.name, method_name(m),
                static_cast<long long>(k), kRowsPerStage, ring_stages(m), prop.multiProcessorCount,
                kPasses, us, bytes / us * 1e-6, bytes / us * 1e-3 / prop.multiProcessorCount,
                static_cast<long long>(bad));
  }
  check(cudaFree(rows), "cudaFree");
  check(cudaFree(padded), "cudaFree");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<int64_t> ks;
    for (int i = 1; i < argc; ++i) {
      const long long k = std::strtoll(argv[i], nullptr, 10);
      if (k < 1 || k > (1 << 20))
        throw std::invalid_argument(std::string("bad K '") + argv[i] + "'");
      ks.push_back(k);
    }
    if (ks.empty()) ks = {4096, 4104, 4100, 4099, 4097};
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    const auto allow = [](auto kernel, Method m) {
      check(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes(m)),
          "cudaFuncSetAttribute");
    };
    allow(fill_ring<Method::kTma>, Method::kTma);
    allow(fill_ring<Method::kCp4>, Method::kCp4);
    allow(fill_ring<Method::kLdg>, Method::kLdg);
    allow(fill_ring<Method::kCp16>, Method::kCp16);
    allow(fill_ring<Method::kClasses16>, Method::kClasses16);
    allow(fill_ring<Method::kClasses8>, Method::kClasses8);
    uint32_t* sink = nullptr;
    check(cudaMalloc(&sink, sizeof(uint32_t)), "cudaMalloc sink");
    std::printf(
        "device,method,k,rows_per_stage,stages,ctas,passes,us,tb_per_s,gb_per_s_per_sm,"
        "bad_elements\n");
    for (int64_t k : ks) run_k(k, prop, sink);
    check(cudaFree(sink), "cudaFree sink");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "misaligned_loads: %s\n", e.what());
    return 1;
  }
  return 0;
}

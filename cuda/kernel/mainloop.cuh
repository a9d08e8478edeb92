// Mainloop: MAC over k-tiles [k_begin, k_end) of one 128x128 output tile into a per-thread fp32
// accumulator; 4-stage cp.async pipeline, XOR-swizzled shared memory, ldmatrix + mma.sync bf16.
#pragma once
#include <cstdint>

#include "cuda/kernel/config.hpp"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/params.hpp"
#include "cuda/kernel/ptx.cuh"

namespace lw::cuda {

using Cfg = KernelConfig;

constexpr int kWarpTileM = Cfg::kTileM / Cfg::kWarpsM;    // 64 rows per warp
constexpr int kWarpTileN = Cfg::kTileN / Cfg::kWarpsN;    // 32 columns per warp
constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 16;          // mma.sync.m16n8k16
constexpr int kFragsM = kWarpTileM / kMmaM;               // 4
constexpr int kFragsN = kWarpTileN / kMmaN;               // 4
constexpr int kChunkElems = 8;                            // 16-byte chunk = 8 bf16
constexpr int kChunksPerRow = Cfg::kTileK / kChunkElems;  // 8 chunks per 64-element smem row
constexpr int kRowBytes = Cfg::kTileK * Cfg::kElemBytes;  // 128 bytes per smem row
constexpr int kSwizzleMask = kChunksPerRow - 1;
constexpr int kOperandBytesA = Cfg::kTileM * kRowBytes;
static_assert(kFragsM * kFragsN == MmaLayout::kFrags && Cfg::kThreads == kFragThreads,
              "the mma.sync accumulator is MmaLayout: fragment mi * kFragsN + ni");

// Byte offset of 16-byte chunk `chunk` of tile row `row`: chunks XOR-swizzled by row so that the
// 8 rows an ldmatrix reads at one logical chunk fall into 8 different bank groups.
__device__ __forceinline__ uint32_t swz(int row, int chunk) {
  return static_cast<uint32_t>(row * kRowBytes + ((chunk ^ (row & kSwizzleMask)) << 4));
}

// Loads rows [row0, row0 + rows) x k-tile `kt` of a row-major (rows_total x K) operand into smem.
template <int kRows>
__device__ __forceinline__ void load_operand(const __nv_bfloat16* g, int64_t row0,
                                             int64_t rows_total, int64_t K, int64_t kt,
                                             uint32_t smem_base, bool vec) {
  constexpr int kChunks = kRows * kChunksPerRow;
  static_assert(kChunks % Cfg::kThreads == 0, "operand tile must split evenly over threads");
  const int64_t k0 = kt * Cfg::kTileK;
#pragma unroll
  for (int i = 0; i < kChunks / Cfg::kThreads; ++i) {
    const int idx = static_cast<int>(threadIdx.x) + i * Cfg::kThreads;
    const int row = idx / kChunksPerRow;
    const int chunk = idx % kChunksPerRow;
    const int64_t gr = row0 + row;
    const int64_t gk = k0 + chunk * kChunkElems;
    const uint32_t dst = smem_base + swz(row, chunk);
    if (vec) {
      const bool ok = gr < rows_total && gk < K;
      const __nv_bfloat16* src = ok ? g + gr * K + gk : g;
      ptx::cp_async_16(dst, src, ok ? 16 : 0);
    } else {
      // Ragged K or unaligned rows: element-wise predicated loads, one 16-byte shared store.
      uint16_t e[kChunkElems];
      const uint16_t* src = reinterpret_cast<const uint16_t*>(g);
#pragma unroll
      for (int j = 0; j < kChunkElems; ++j) {
        e[j] = (gr < rows_total && gk + j < K) ? src[gr * K + gk + j] : uint16_t{0};
      }
      const uint4 v = make_uint4(e[0] | (uint32_t{e[1]} << 16), e[2] | (uint32_t{e[3]} << 16),
                                 e[4] | (uint32_t{e[5]} << 16), e[6] | (uint32_t{e[7]} << 16));
      asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(v.x), "r"(v.y),
                   "r"(v.z), "r"(v.w)
                   : "memory");
    }
  }
}

__device__ __forceinline__ void load_stage(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                           int64_t kt, uint32_t stage_base) {
  load_operand<Cfg::kTileM>(p.a, tile_m * Cfg::kTileM, p.m, p.k, kt, stage_base, p.vector_loads);
  load_operand<Cfg::kTileN>(p.b, tile_n * Cfg::kTileN, p.n, p.k, kt, stage_base + kOperandBytesA,
                            p.vector_loads);
}

// One k-tile of MACs from a resident stage.
__device__ __forceinline__ void mac_stage(uint32_t stage_base, MmaLayout::Acc& acc) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int wm = (warp / Cfg::kWarpsN) * kWarpTileM;
  const int wn = (warp % Cfg::kWarpsN) * kWarpTileN;
  const uint32_t a_base = stage_base;
  const uint32_t b_base = stage_base + kOperandBytesA;
#pragma unroll
  for (int ks = 0; ks < Cfg::kTileK / kMmaK; ++ks) {
    uint32_t a[kFragsM][4];
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
      const int row = wm + mi * kMmaM + (lane % 16);
      ptx::ldmatrix_x4(a[mi], a_base + swz(row, ks * 2 + lane / 16));
    }
    uint32_t b[kFragsN][2];
#pragma unroll
    for (int nj = 0; nj < kFragsN / 2; ++nj) {
      const int row = wn + nj * 2 * kMmaN + (lane % 8) + (lane / 16) * 8;
      uint32_t r[4];
      ptx::ldmatrix_x4(r, b_base + swz(row, ks * 2 + (lane / 8) % 2));
      b[2 * nj][0] = r[0];
      b[2 * nj][1] = r[1];
      b[2 * nj + 1][0] = r[2];
      b[2 * nj + 1][1] = r[3];
    }
#pragma unroll
    for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni)
        ptx::mma_bf16_16816(frag(acc, mi * kFragsN + ni), a[mi], b[ni][0], b[ni][1]);
    }
  }
}

// acc = sum over k-tiles [k_begin, k_end) of A_tile * B_tile^T. Leaves smem free for reuse.
__device__ __forceinline__ void mainloop(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                         int64_t k_begin, int64_t k_end, char* smem,
                                         MmaLayout::Acc& acc) {
#pragma unroll
  for (int i = 0; i < MmaLayout::Acc::kSize; ++i) acc.v[i] = 0.0f;
  const int64_t iters = k_end - k_begin;
  if (iters <= 0) return;
  const uint32_t base = ptx::smem_addr(smem);
#pragma unroll
  for (int s = 0; s < Cfg::kStages - 1; ++s) {
    if (s < iters) load_stage(p, tile_m, tile_n, k_begin + s, base + s * Cfg::kStageBytes);
    ptx::cp_async_commit();
  }
  for (int64_t it = 0; it < iters; ++it) {
    ptx::cp_async_wait<Cfg::kStages - 2>();
    __syncthreads();
    const int64_t next = it + Cfg::kStages - 1;
    if (next < iters) {
      load_stage(p, tile_m, tile_n, k_begin + next,
                 base + static_cast<uint32_t>(next % Cfg::kStages) * Cfg::kStageBytes);
    }
    ptx::cp_async_commit();
    mac_stage(base + static_cast<uint32_t>(it % Cfg::kStages) * Cfg::kStageBytes, acc);
  }
  ptx::cp_async_wait<0>();
  __syncthreads();
}

}  // namespace lw::cuda

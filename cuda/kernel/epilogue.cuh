// Epilogue: writes the fp32 accumulator of one output tile to C (bf16 or fp32,
// GemmParams::out_f32), masking rows and columns beyond M and N. L is the accumulator's thread
// layout (frag_layout.cuh).
#pragma once
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/params.hpp"

namespace lw::cuda {

template <typename OutT>
__device__ __forceinline__ void store_pair(OutT* c, int64_t row, int64_t col, int64_t n, float x,
                                           float y, bool pair_ok) {
  OutT* d = c + row * n + col;
  if constexpr (std::is_same_v<OutT, float>) {
    if (pair_ok) {
      *reinterpret_cast<float2*>(d) = make_float2(x, y);
      return;
    }
    d[0] = x;
    if (col + 1 < n) d[1] = y;
  } else {
    if (pair_ok) {
      *reinterpret_cast<__nv_bfloat162*>(d) = __floats2bfloat162_rn(x, y);
      return;
    }
    d[0] = __float2bfloat16_rn(x);
    if (col + 1 < n) d[1] = __float2bfloat16_rn(y);
  }
}

template <class L, typename OutT>
__device__ __forceinline__ void epilogue_as(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                            const typename L::Acc& acc) {
  OutT* c = static_cast<OutT*>(p.c);
  const int64_t tile_row = tile_m * L::kTileM;
  const int64_t tile_col = tile_n * L::kTileN;
  const bool even_n = p.n % 2 == 0;  // paired stores stay aligned
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const int64_t col = tile_col + L::origin_col(f);
    if (col >= p.n) continue;
    const float* v = frag(acc, f);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int64_t row = tile_row + L::origin_row(f) + half * kFragRows;
      if (row >= p.m) continue;
      store_pair<OutT>(c, row, col, p.n, v[2 * half], v[2 * half + 1], even_n && col + 1 < p.n);
    }
  }
}

// Writes one staged 16-row chunk of `vecs_per_row` 16-byte vectors per row from `buf` to C at
// (row0, col0), masking rows beyond M and columns beyond N.
__device__ __forceinline__ void store_staged(const GemmParams& p, const char* buf, int64_t row0,
                                             int64_t col0, int vecs_per_row, int lane) {
  constexpr int kVecElems = 8;  // bf16 per 16-byte vector
  auto* c = static_cast<__nv_bfloat16*>(p.c);
  for (int v = lane; v < kStagingRows * vecs_per_row; v += kWarpSize) {
    const int r = v / vecs_per_row, q = v % vecs_per_row;
    const int64_t row = row0 + r, col = col0 + q * kVecElems;
    if (row >= p.m || col >= p.n) continue;
    const uint4 data = *reinterpret_cast<const uint4*>(buf + r * kStagingPitch + q * 16);
    __nv_bfloat16* d = c + row * p.n + col;
    if (col + kVecElems <= p.n) {
      *reinterpret_cast<uint4*>(d) = data;
    } else {
      const auto* e = reinterpret_cast<const __nv_bfloat16*>(&data);
      for (int i = 0; i < p.n - col; ++i) d[i] = e[i];
    }
  }
}

// bf16 epilogue through shared memory (wgmma layouts): each warp converts 8 fragments (16 rows x
// 64 columns of its block) into its staging buffer, then stores whole 16-byte vectors, so a warp
// writes full 128-byte rows instead of 16-byte pieces of 8 rows.
template <class L>
__device__ __forceinline__ void epilogue_staged(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                                const typename L::Acc& acc, char* staging) {
  constexpr int kFragsPerChunk = kStagingCols / 8;
  const int lane = L::tid() % kWarpSize;
  char* buf = staging + (L::tid() / kWarpSize) * kStagingWarpBytes;
  const int row_in = lane / kLanesPerRow, col_in = (lane % kLanesPerRow) * kColsPerLane;
  const int64_t col_base = tile_n * L::kTileN + L::origin_col(0) - col_in;
#pragma unroll
  for (int b = 0; b < L::kMBlocks; ++b) {
    const int64_t row0 = tile_m * L::kTileM + L::origin_row(b * L::kFragsPerBlock) - row_in;
#pragma unroll
    for (int chunk = 0; chunk * kFragsPerChunk < L::kFragsPerBlock; ++chunk) {
      const int first = chunk * kFragsPerChunk;
      const int frags =
          L::kFragsPerBlock - first < kFragsPerChunk ? L::kFragsPerBlock - first : kFragsPerChunk;
      __syncwarp();  // the previous chunk's reads are done
#pragma unroll
      for (int j = 0; j < kFragsPerChunk; ++j) {
        if (j >= frags) break;
        const float* v = frag(acc, b * L::kFragsPerBlock + first + j);
        char* at = buf + row_in * kStagingPitch + (j * 8 + col_in) * 2;
        *reinterpret_cast<__nv_bfloat162*>(at) = __floats2bfloat162_rn(v[0], v[1]);
        *reinterpret_cast<__nv_bfloat162*>(at + kFragRows * kStagingPitch) =
            __floats2bfloat162_rn(v[2], v[3]);
      }
      __syncwarp();
      store_staged(p, buf, row0, col_base + first * 8, frags, lane);
    }
  }
}

// `staging`: the warps' shared-memory buffers where the layout supports it (else nullptr).
template <class L>
__device__ __forceinline__ void epilogue(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                         const typename L::Acc& acc, char* staging) {
  if constexpr (L::kStaged) {
    if (staging != nullptr && p.c_vectors) {
      epilogue_staged<L>(p, tile_m, tile_n, acc, staging);
      return;
    }
  }
  if (p.out_f32) {
    epilogue_as<L, float>(p, tile_m, tile_n, acc);
  } else {
    epilogue_as<L, __nv_bfloat16>(p, tile_m, tile_n, acc);
  }
}

}  // namespace lw::cuda

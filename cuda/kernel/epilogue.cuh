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

template <typename OutT>
__device__ __forceinline__ OutT to_out(float x) {
  if constexpr (std::is_same_v<OutT, float>) {
    return x;
  } else {
    return __float2bfloat16_rn(x);
  }
}

// A swapped layout's fragments (L::kSwapped: frame row = the tile's column and the reverse): each
// element goes to its own place, C row = frame column, C column = frame row.
template <class L, typename OutT>
__device__ __forceinline__ void epilogue_swapped_as(const GemmParams& p, int64_t tile_m,
                                                    int64_t tile_n, const typename L::Acc& acc) {
  OutT* c = static_cast<OutT*>(p.c);
  const int64_t tile_row = tile_m * L::kTileM;
  const int64_t tile_col = tile_n * L::kTileN;
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const float* v = frag(acc, f);
#pragma unroll
    for (int e = 0; e < kFragFloats; ++e) {
      const int64_t row = tile_row + L::origin_col(f) + e % 2;
      const int64_t col = tile_col + L::origin_row(f) + (e / 2) * kFragRows;
      if (row < p.m && col < p.n) c[row * p.n + col] = to_out<OutT>(v[e]);
    }
  }
}

template <class L, typename OutT>
__device__ __forceinline__ void epilogue_as(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                            const typename L::Acc& acc) {
  if constexpr (L::kSwapped) {
    epilogue_swapped_as<L, OutT>(p, tile_m, tile_n, acc);
    return;
  }
  OutT* c = static_cast<OutT*>(p.c);
  const int64_t tile_row = tile_m * L::kTileM;
  const int64_t tile_col = tile_n * L::kTileN;
  // Pairs where every row of C is aligned to them (N and C's base: c_store_bytes), else elements.
  const bool pairs_aligned = p.c_store_bytes >= 2 * static_cast<int32_t>(sizeof(OutT));
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const int64_t col = tile_col + L::origin_col(f);
    if (col >= p.n) continue;
    const float* v = frag(acc, f);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int64_t row = tile_row + L::origin_row(f) + half * kFragRows;
      if (row >= p.m) continue;
      store_pair<OutT>(c, row, col, p.n, v[2 * half], v[2 * half + 1],
                       pairs_aligned && col + 1 < p.n);
    }
  }
}

// Register epilogue: every thread stores its fragments' pairs (the wgmma kernel's bf16 output with
// 16-byte rows goes through the TMA instead: epilogue_tma.cuh).
template <class L>
__device__ __forceinline__ void epilogue(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                         const typename L::Acc& acc) {
  if (p.out_f32) {
    epilogue_as<L, float>(p, tile_m, tile_n, acc);
  } else {
    epilogue_as<L, __nv_bfloat16>(p, tile_m, tile_n, acc);
  }
}

}  // namespace lw::cuda

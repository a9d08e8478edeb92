// Epilogue: writes the fp32 accumulator of one output tile to C (bf16 or fp32), masking rows and
// columns beyond M and N.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "cuda/kernel/mainloop.cuh"

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
__device__ __forceinline__ void epilogue(const GemmParams& p, int64_t tile_m, int64_t tile_n,
                                         const Accum& acc) {
  OutT* c = static_cast<OutT*>(p.c);
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int64_t row0 = tile_m * Cfg::kTileM + (warp / Cfg::kWarpsN) * kWarpTileM + lane / 4;
  const int64_t col0 = tile_n * Cfg::kTileN + (warp % Cfg::kWarpsN) * kWarpTileN + (lane % 4) * 2;
  const bool even_n = p.n % 2 == 0;  // paired stores stay aligned
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int64_t row = row0 + mi * kMmaM + half * 8;
      if (row >= p.m) continue;
#pragma unroll
      for (int ni = 0; ni < kFragsN; ++ni) {
        const int64_t col = col0 + ni * kMmaN;
        if (col >= p.n) continue;
        const float* f = acc.v[mi][ni];
        store_pair<OutT>(c, row, col, p.n, f[2 * half], f[2 * half + 1], even_n && col + 1 < p.n);
      }
    }
}

}  // namespace lw::cuda

// Compile-time shape of the CUDA GEMM kernel (tile, warps, pipeline depth, shared memory), shared
// by the device code and the host launch logic. Plans must be built for exactly this tile.
#pragma once
#include <cstdint>

namespace lw::cuda {

struct KernelConfig {
  static constexpr int kTileM = 128;  // CTA output tile rows (elements)
  static constexpr int kTileN = 128;  // CTA output tile columns (elements)
  static constexpr int kTileK = 64;   // k-tile: elements of K per MAC-loop iteration
  static constexpr int kWarpsM = 2;   // warp grid over the CTA tile
  static constexpr int kWarpsN = 4;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256 threads per CTA
  static constexpr int kStages = 4;                        // cp.async pipeline depth
  static constexpr int kElemBytes = 2;                     // bf16 operands
  static constexpr int kStageBytes = (kTileM + kTileN) * kTileK * kElemBytes;  // A + B per stage
  static constexpr int kSmemBytes = kStages * kStageBytes;                     // dynamic smem
  static constexpr int kSlotFloats = kTileM * kTileN;  // fp32 partial tile in the workspace
};

}  // namespace lw::cuda

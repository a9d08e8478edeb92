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

// Ladder step 2 (sm_90a): same tile, warp-specialised. Warpgroup 0 produces (one thread walks the
// plan and issues TMA loads into a ring of stages); warpgroups 1 and 2 consume (wgmma, 64 rows of
// the tile each), then run fixup and epilogue.
struct WgmmaConfig {
  static constexpr int kWarpgroupThreads = 128;
  static constexpr int kConsumers = 2;                                     // consumer warpgroups
  static constexpr int kConsumerThreads = kConsumers * kWarpgroupThreads;  // 256
  static constexpr int kThreads = kWarpgroupThreads + kConsumerThreads;    // 384
  static constexpr int kConsumerWarps = kConsumerThreads / 32;             // empty-barrier arrivals
  static constexpr int kStages = 6;                                        // TMA ring depth
  static constexpr int kOperandBytes = KernelConfig::kTileM * KernelConfig::kTileK *
                                       KernelConfig::kElemBytes;  // 16 KiB (A; B is the same)
  static constexpr int kStageBytes = 2 * kOperandBytes;
  static constexpr int kAlign = 1024;  // 128B-swizzle atoms must start 1024-byte aligned
  static constexpr int kBarrierBytes = 2 * kStages * 8;  // full + empty mbarriers (8 bytes each)
  static constexpr int kSmemBytes = kAlign + kStages * kStageBytes + kBarrierBytes;
};

}  // namespace lw::cuda

// Compile-time shapes of the CUDA GEMM kernels (tile, warps, pipeline depth, shared memory), shared
// by the device code and the host launch logic. Plans must be built for exactly the kernel's tile;
// the wgmma kernel has one instantiation per tile of sim/decomp/kernel_configs.hpp.
#pragma once
#include <cstdint>

#include "sim/decomp/kernel_configs.hpp"

namespace lw::cuda {

constexpr int kElemBytes = static_cast<int>(kBf16Bytes);  // bf16 operands
// TMA-store epilogue (epilogue_tma.cuh): each consumer warp fills boxes of kEpilogueBoxRows x
// kEpilogueBoxCols bf16 (sim/decomp/kernel_configs.hpp), WgmmaConfig::kEpilogueBuffers in turn.
constexpr int kEpilogueBoxRows = static_cast<int>(lw::kEpilogueBoxRows);
constexpr int kEpilogueBoxCols = static_cast<int>(lw::kEpilogueBoxCols);
constexpr int kEpilogueBoxBytes = static_cast<int>(lw::kEpilogueBoxBytes);
constexpr int kTileK = 64;  // k-tile: elements of K per MAC-loop iteration (128 B rows)

// Ladder step 1 (mma.sync + cp.async), 128x128 only: `--mainloop mma` (reads K % 8 != 0
// element-wise).
struct KernelConfig {
  static constexpr int kTileM = 128;  // CTA output tile rows (elements)
  static constexpr int kTileN = 128;  // CTA output tile columns (elements)
  static constexpr int kTileK = cuda::kTileK;
  static constexpr int kWarpsM = 2;  // warp grid over the CTA tile
  static constexpr int kWarpsN = 4;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256 threads per CTA
  static constexpr int kStages = 4;                        // cp.async pipeline depth
  static constexpr int kElemBytes = cuda::kElemBytes;
  static constexpr int kStageBytes = (kTileM + kTileN) * kTileK * kElemBytes;  // A + B per stage
  static constexpr int kSmemBytes = kStages * kStageBytes;                     // dynamic smem
  static constexpr int kSlotFloats = kTileM * kTileN;  // fp32 partial tile in the workspace
};

// Ladder step 2+ (sm_90a), tile kTileM x kTileN, cluster kCm x kCn: warp-specialised. Warpgroup 0
// produces (one thread walks the plan and issues TMA loads into a ring of stages; in a cluster it
// loads a slice of the shared operand and multicasts it); warpgroups 1 and 2 consume (wgmma), each
// owning a kWgRows x kWgCols block of the tile (ping-pong: the whole tile of every other
// segment), then run fixup and epilogue. kWhole: the whole-tile form (below).
template <int kM, int kN, int kCm = 1, int kCn = 1, bool kPp = false, bool kWhole = kPp,
          bool kDsm = false, int kK = cuda::kTileK>
struct WgmmaConfig {
  static constexpr int kTileM = kM;
  static constexpr int kTileN = kN;
  static constexpr int kClusterM = kCm;  // CTAs along M: they share B
  static constexpr int kClusterN = kCn;  // CTAs along N: they share A
  static constexpr int kClusterSize = kCm * kCn;
  static constexpr int kSliceRowsA = kM / kCn;  // rows of A this CTA loads (and multicasts)
  static constexpr int kSliceRowsB = kN / kCm;
  static constexpr int kTileK = kK;  // a stage's K: kChunks chunks of cuda::kTileK (one box each)
  static constexpr int kChunks = kK / cuda::kTileK;
  static constexpr int kWarpgroupThreads = static_cast<int>(kWgmmaWarpgroupThreads);
  static constexpr int kConsumers = kWgmmaConsumers;  // consumer warpgroups
  // Tiles whose rows are not whole wgmmas run swapped: the accumulator holds the tile's transpose
  // (kFrameM = kN rows of B x kFrameN = kM rows of A), the epilogue writes it back transposed.
  static constexpr bool kSwapped = wgmma_swapped(TileShape{kM, kN, kK});
  static constexpr int kFrameM = kSwapped ? kN : kM;
  static constexpr int kFrameN = kSwapped ? kM : kN;
  // Ping-pong consumers each own the whole frame (every other segment); otherwise 64-row frames
  // split the columns between the consumers, taller frames split the rows.
  static constexpr bool kPingpong = kPp;
  // The whole-tile forms (the ping-pong form is one) run only plans without a split region whose
  // C a non-swapped tile stores through the TMA (plan_walks_whole_tiles; the launcher checks C's
  // base): they walk whole tiles (walk_next_whole) and compile neither fix-up nor, on non-swapped
  // tiles, the register epilogue — a shorter cold path through their code (docs/PERFORMANCE.md,
  // "The cold start is our code's first fetch").
  static constexpr bool kWholeTiles = kWhole;
  // The split-K form whose splits are one cluster and reduce in the owner's shared memory
  // (Plan::cluster_reduce, cluster_reduce.cuh): it runs splitk-dsm plans and nothing else,
  // so the other forms compile none of its code.
  static constexpr bool kClusterReduce = kDsm;
  static_assert(!kDsm || (!kPp && !kWhole && kCm * kCn == 1), "a general 1x1 form");
  static constexpr int kBlockOwners = kPingpong ? 1 : kConsumers;  // warpgroups sharing a tile
  static constexpr int kConsumersN = kPingpong ? 1 : wgmma_consumers_along_n(kFrameM);
  static constexpr int kConsumersM = kBlockOwners / kConsumersN;
  static constexpr int kWgRows = kFrameM / kConsumersM;  // rows of one consumer's block
  static constexpr int kWgCols = kFrameN / kConsumersN;  // = the wgmma instruction's N
  static constexpr int kWgmmaM = kWgmmaRows;             // rows of one wgmma instruction
  static constexpr int kMBlocks = kWgRows / kWgmmaM;
  static constexpr int kAccFloats = kMBlocks * kWgCols / 2;  // fp32 per consumer thread
  static constexpr int kConsumerThreads = kConsumers * kWarpgroupThreads;  // 256
  static constexpr int kThreads = kWarpgroupThreads + kConsumerThreads;    // 384
  static constexpr int kConsumerWarps = kConsumerThreads / 32;
  // Threads that own one tile's accumulator (the fix-up's and epilogue's barrier).
  static constexpr int kOwnerThreads = kBlockOwners * kWarpgroupThreads;
  // Narrow 64-row tiles: the consumers take alternate k-tiles, each multiplying the whole width
  // (the wgmma's N is kMmaCols), then exchange halves so that each owns its kWgCols columns.
  static constexpr bool kAlternateK = wgmma_consumers_alternate_k(TileShape{kM, kN, kTileK});
  static constexpr int kMmaCols = kAlternateK ? kFrameN : kWgCols;
  static constexpr int kMmaFloats = kMBlocks * kMmaCols / 2;  // fp32 per thread in the MAC loop
  // A stage is free again once every consumer warp that read it (one warpgroup's when they
  // alternate or ping-pong, both otherwise) of every CTA of the cluster released it.
  static constexpr int kStageReaderWarps =
      kAlternateK || kPingpong ? kConsumerWarps / kConsumers : kConsumerWarps;
  static constexpr int kEmptyArrivals = kStageReaderWarps * kClusterSize;
  static constexpr int kBytesA = kM * kTileK * kElemBytes;
  static constexpr int kBytesB = kN * kTileK * kElemBytes;
  static constexpr int kStageBytes = kBytesA + kBytesB;
  // The shared-memory layout and stage count: one rule, sim/decomp/kernel_configs.hpp.
  static constexpr int kAlign = static_cast<int>(kWgmmaSmemAlign);
  static constexpr int kBarrierRoom = static_cast<int>(kWgmmaBarrierBytes);
  static constexpr int kEpilogueBuffers =
      static_cast<int>(wgmma_epilogue_buffers(TileShape{kM, kN, kTileK}, kDsm));
  static constexpr int kEpilogueBytes = static_cast<int>(wgmma_epilogue_bytes(kEpilogueBuffers));
  // A consumer's columns in whole store boxes, and the narrower box of the rest (0: none).
  static constexpr int kEpilogueBoxes = kWgCols / kEpilogueBoxCols;
  static constexpr int kTailCols = kWgCols % kEpilogueBoxCols;
  // The splitk-dsm form keeps a shallower ring: its peers' partials go past it.
  static constexpr int kStages = static_cast<int>(wgmma_stages(TileShape{kM, kN, kTileK}, kDsm));
  static constexpr int kSmemBytes =
      static_cast<int>(wgmma_smem_bytes(TileShape{kM, kN, kTileK}, kDsm));
  static_assert(kSmemBytes == kAlign + kStages * kStageBytes + kBarrierRoom + kEpilogueBytes,
                "the layout make_ring carves");
  static constexpr int kSlotFloats = kM * kN;  // fp32 partial tile in the workspace
  // Register split (setmaxnreg): the producer warpgroup gives registers to the consumers.
  static constexpr int kProducerRegs = 40;
  static constexpr int kConsumerRegs = 232;

  static_assert(kChunks * cuda::kTileK == kK && (kChunks == 1 || kClusterSize == 1),
                "whole chunks; deep stages without a multicast slice");
  static_assert(kFrameM % (kConsumersM * kWgmmaM) == 0, "consumer rows are whole wgmma blocks");
  static_assert(!kPingpong || kWholeTiles, "the ping-pong form runs whole tiles only");
  static_assert(!kPingpong || wgmma_can_pingpong(TileShape{kM, kN, kK}),
                "ping-pong only where one warpgroup holds the whole tile");
  static_assert(kWgCols % 8 == 0 && kMmaCols <= 256, "wgmma N is a multiple of 8 up to 256");
  static_assert(!kAlternateK || (kMBlocks == 1 && kConsumersN == kConsumers),
                "alternating consumers each own one m64 block's half");
  static_assert(kBytesB % kAlign == 0 && kBytesA % kAlign == 0, "stages stay swizzle-aligned");
  static_assert(kernel_has_config(TileShape{kM, kN, kTileK}, ClusterShape{kCm, kCn}),
                "a tile x cluster of sim/decomp/kernel_configs.hpp");
  static_assert(kStages >= 2, "the ring needs two stages");
  static_assert(!kAlternateK || kStages % kConsumers == 0,
                "alternating consumers wait on stages whose previous fill was their own");
  static_assert(kConsumerWarps == kWgmmaConsumerWarps, "the epilogue stages every consumer warp");
  static_assert(kWgmmaM / (kWarpgroupThreads / 32) == kEpilogueBoxRows,
                "a warp's rows of an m64 block are one store box");
  static_assert(kEpilogueBoxBytes % kAlign == 0, "store boxes stay swizzle-aligned");
  static_assert(kTailCols % 8 == 0, "a tail box is whole 16-byte rows");
  static_assert(kStageBytes == wgmma_stage_bytes(TileShape{kM, kN, kTileK}), "A + B of a k-tile");
  static_assert(kProducerRegs * kWarpgroupThreads + kConsumerRegs * kConsumerThreads <= 65536,
                "register file of one SM");
};

}  // namespace lw::cuda

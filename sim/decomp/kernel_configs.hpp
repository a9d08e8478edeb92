// The tile x cluster configurations the CUDA kernels are instantiated for: ONE list, read by the
// kernels (one template instantiation per tile), lastwave-bench (--tile/--cluster) and the
// simulator's `best` search. Adding a tile here adds it everywhere.
#pragma once
#include <cstdint>

#include "sim/decomp/plan.hpp"
#include "sim/decomp/types.hpp"

namespace lw {

// Tile shapes (elements; k is the MAC-loop step, kWgmmaChunkK or kDeepTileK). 16- and 32-row tiles
// serve M <= 32 (decode) and run swapped (wgmma_swapped), and so do 48x64 and 80x64; 64-row tiles
// serve skinny M, the narrow 64x16, 64x32, 64x48, 64x64, 64x80, 64x96 and 128x64 spread small
// outputs over the SMs without splitting K (64x80, 64x96 and 64x192 step the tile count between the
// powers of two). cuBLAS's deep-K tiles, named in its column-major frame (tst_48x64 4x2, tst_64x80
// 2x4), are our 64x48 2x4 and 80x64 4x2; their transposes 48x64 and 64x80 win other shapes
// (docs/PERFORMANCE.md, "Lines of four" and "cuBLAS's deep-K tiles in our frame"); 128xN widths let
// the tile count fit the SM count (wgmma N steps of 8 up to 256); 128x256 and 256x128 halve the L2
// traffic per FLOP of 128x128, and 192x192 cuts it by a third (cuBLAS runs it where its tile count
// fits one wave, e.g. 4808x960: 130 tiles). 136x128 and 144x128 run swapped (128x136 / 128x144
// frames, each consumer an n136 / n144 wgmma): one or two of their rows cover M = 129..144 or
// 257..288 where 128-row tiles need one more (cuBLAS's tst_128x136 / tst_64x136 on 260x6728x2896
// and 263x2848x7720).
inline constexpr TileShape kKernelTiles[] = {
    {16, 64, 64},   {16, 128, 64},  {32, 64, 64},   {32, 128, 64},  {48, 64, 64},   {64, 16, 64},
    {64, 32, 64},   {64, 48, 64},   {64, 64, 64},   {64, 80, 64},   {80, 64, 64},   {64, 96, 64},
    {128, 64, 64},  {64, 128, 64},  {64, 192, 64},  {64, 256, 64},  {128, 96, 64},  {128, 112, 64},
    {128, 120, 64}, {128, 128, 64}, {128, 144, 64}, {128, 160, 64}, {128, 176, 64}, {128, 192, 64},
    {128, 208, 64}, {128, 224, 64}, {128, 256, 64}, {192, 192, 64}, {256, 128, 64}, {136, 128, 64},
    {144, 128, 64}, {16, 64, 128},  {16, 128, 128}, {32, 64, 128},  {32, 128, 128}, {48, 64, 128},
    {64, 16, 128},  {64, 32, 128},  {64, 48, 128},  {64, 64, 128},  {80, 64, 128},
};
// The narrow tiles also come kDeepTileK deep: a stage holds two kWgmmaChunkK-element chunks of
// each operand, loaded as one 3-D TMA box per operand. One CTA's load path costs about 110 ns a
// box whatever its bytes up to 8 KiB (docs/kernel-notes.md, "One CTA's k-tile rate"), so on a
// deep-K narrow tile, where that path sets a CTA's rate, two chunks a box halve its cost per K.
// Without a cluster only (kernel_has_config): a multicast slice's chunk planes would not land
// where the stage keeps them.
inline constexpr int64_t kWgmmaChunkK = 64;  // elements of K in one 128-byte swizzle row
inline constexpr int64_t kDeepTileK = 128;
inline constexpr int kKernelTileCount = sizeof(kKernelTiles) / sizeof(kKernelTiles[0]);

// Cluster shapes the kernels launch with: 2x1 shares B (the two CTAs' tiles are stacked along M),
// 1x2 shares A; each CTA loads half the shared operand and multicasts it to both. 2x2 shares both:
// each CTA loads half of its A and half of its B, each half multicast to the CTA beside it. 4x2
// and 2x4 likewise: a CTA loads a quarter of the operand its column (row) of four shares and half
// of the one its pair shares.
inline constexpr ClusterShape kKernelClusters[] = {{1, 1}, {2, 1}, {1, 2}, {2, 2},
                                                   {4, 2}, {2, 4}, {4, 1}, {1, 4}};
inline constexpr int kKernelClusterCount = sizeof(kKernelClusters) / sizeof(kKernelClusters[0]);

// The tile every tool defaults to (and the one the step-1 mma kernel has).
inline constexpr TileShape kDefaultTile = {128, 128, 64};

constexpr bool same_tile(const TileShape& a, const TileShape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}

constexpr bool same_cluster(const ClusterShape& a, const ClusterShape& b) {
  return a.m == b.m && a.n == b.n;
}

// Index of `t` in kKernelTiles, or -1 when the kernels do not have it.
constexpr int kernel_tile_index(const TileShape& t) {
  for (int i = 0; i < kKernelTileCount; ++i) {
    if (same_tile(kKernelTiles[i], t)) return i;
  }
  return -1;
}

constexpr bool kernel_has_cluster(const ClusterShape& c) {
  for (int i = 0; i < kKernelClusterCount; ++i) {
    if (same_cluster(kKernelClusters[i], c)) return true;
  }
  return false;
}

// The wgmma kernel's consumer warpgroups and how they split a tile: tiles of 128 or 256 rows split
// the rows, 64- and 192-row tiles (an odd number of wgmma rows) the columns, each consumer owning
// its block for the fix-up and the epilogue. Frames of 64 rows and at most kAlternateKMaxCols
// columns split the MAC loop differently: the two consumers take alternate k-tiles, each
// multiplying the whole frame width, and add their halves together afterwards, since one wgmma of
// n16..n64 does a k-tile in far fewer issue slots and shared-memory reads than two of n8..n32
// (docs/PERFORMANCE.md, losses). Swapped tiles keep the column split (their frames' 64 rows are
// B's; alternating measured 1-2 % slower there). Read by cuda/kernel/config.hpp and by the cost
// model's shared-memory traffic (models/roofline/traffic.hpp).
inline constexpr int kWgmmaConsumers = 2;
inline constexpr int kWgmmaRows = 64;  // rows of one wgmma instruction
// A tile whose rows are not whole wgmmas (16, 32, 48, 80) runs swapped: the instruction computes
// the tile's transpose (C^T = B A^T, B's rows on the wgmma's M, A's on its N) and the epilogue
// writes it back.
constexpr bool wgmma_swapped(const TileShape& t) { return t.m % kWgmmaRows != 0; }
// The tile as the wgmma sees it: rows of the accumulator x its columns.
constexpr TileShape wgmma_frame(const TileShape& t) {
  return wgmma_swapped(t) ? TileShape{t.n, t.m, t.k} : t;
}
constexpr int wgmma_consumers_along_n(int tile_m) {
  return tile_m % (kWgmmaConsumers * kWgmmaRows) != 0 ? kWgmmaConsumers : 1;
}
inline constexpr int64_t kAlternateKMaxCols = 64;  // wider tiles: n48..n128 halves run as fast
constexpr bool wgmma_consumers_alternate_k(const TileShape& tile) {
  return tile.m == kWgmmaRows && tile.n <= kAlternateKMaxCols;
}
// Ping-pong consumers: where one warpgroup's registers hold a whole tile (at most
// kPingpongMaxTileFloats fp32 per thread of its 128), the kernels also have a ping-pong form: each
// consumer takes every other segment of the CTA's walk at the whole tile width and their MAC loops
// take turns, so one's epilogue runs while the other multiplies the next tile (CUTLASS's ping-pong
// kernel). It runs where every segment is a whole tile and some CTA walks more than one
// (persistent data-parallel grids): there it measured 1.02-1.15x faster per config on the H200,
// while split-K / Stream-K pieces measured up to 2.4x slower (docs/PERFORMANCE.md, "Ping-pong
// consumers"). A CTA of one segment leaves a consumer idle: on 128-row tiles that lost, but on the
// 64-row tiles n96..n192 one warpgroup at the whole width multiplies faster than two halves, and
// from kPingpongAloneMinKtiles k-tiles on their one-tile CTAs measured 1.02-1.25x faster (64x256:
// no gain). Swapped and alternating tiles keep their split. Read by cuda/kernel/config.hpp and the
// launcher.
inline constexpr int64_t kWgmmaWarpgroupThreads = 128;
inline constexpr int64_t kPingpongMaxTileFloats = 128;  // accumulator fp32 per consumer thread
inline constexpr int64_t kPingpongAloneMinCols = 96;    // 64-row tiles of n96...
inline constexpr int64_t kPingpongAloneMaxCols = 192;   // ... to n192
inline constexpr int64_t kPingpongAloneMinKtiles = 5;   // k-tiles per tile, at least
constexpr bool wgmma_can_pingpong(const TileShape& tile) {
  return !wgmma_swapped(tile) && !wgmma_consumers_alternate_k(tile) &&
         tile.m * tile.n <= kPingpongMaxTileFloats * kWgmmaWarpgroupThreads;
}
// Whether a launch of `tile` runs ping-pong: its segments are whole tiles (no split region) of
// `k_tiles` k-tiles each, and its CTAs walk at most `max_segments`.
constexpr bool wgmma_runs_pingpong(const TileShape& tile, bool whole_tiles, int64_t max_segments,
                                   int64_t k_tiles) {
  const bool alone_pays = tile.m == kWgmmaRows && tile.n >= kPingpongAloneMinCols &&
                          tile.n <= kPingpongAloneMaxCols && k_tiles >= kPingpongAloneMinKtiles;
  return wgmma_can_pingpong(tile) && whole_tiles && (max_segments > 1 || alone_pays);
}
// Whether the kernels run plan `p` in a whole-tile form: no split region (every work id a whole
// tile), and on a non-swapped tile C rows the TMA can store (bf16 N % kTmaStoreAlignElems == 0).
// Those forms compile neither the split walk nor the fix-up nor, on non-swapped tiles, the
// register epilogue: a shorter cold path through the code (docs/PERFORMANCE.md). The launcher
// also takes the general form for a C base that is not 16-byte aligned or an fp32 C.
inline constexpr int64_t kTmaStoreAlignElems = 8;  // bf16 elements per 16 bytes
constexpr bool plan_walks_whole_tiles(const Plan& p) {
  return p.split_mode == SplitMode::None && p.split_units == 0 &&
         (wgmma_swapped(p.tile) || p.problem.n % kTmaStoreAlignElems == 0);
}
// The same for plan `p`, as the launcher and the simulator ask it: CTA 0 (which walks work ids 0,
// grid, 2 grid, ...) walks the most. The ping-pong form is a whole-tile form.
constexpr bool plan_runs_pingpong(const Plan& p) {
  const bool whole_tiles = plan_walks_whole_tiles(p);
  return wgmma_runs_pingpong(p.tile, whole_tiles, whole_tiles && p.work_units > p.grid ? 2 : 1,
                             p.k_tiles);
}

// Operands whose rows are not 16-byte strided (bf16 rows of K % 8 != 0 elements) cannot be read by
// TMA: every config first copies A and B into buffers of kTmaRowAlignElems-padded rows (one
// staging launch, cuda/stage_rows.cu) and reads those. Asked by the launcher and the cost models.
inline constexpr int64_t kTmaRowAlignElems = 8;  // bf16 elements per 16 bytes
constexpr bool stages_operands(const Problem& problem) {
  return problem.k % kTmaRowAlignElems != 0;
}
constexpr bool plan_stages_operands(const Plan& p) { return stages_operands(p.problem); }
// The padded row length (elements) of a staged operand of depth k.
constexpr int64_t staged_row_pitch(int64_t k) {
  return (k + kTmaRowAlignElems - 1) / kTmaRowAlignElems * kTmaRowAlignElems;
}

// The wgmma kernel's shared memory: a ring of operand stages (A + B of one k-tile each), the
// epilogue's store boxes and the ring's full and empty mbarriers. The epilogue
// (cuda/kernel/epilogue_tma.cuh) converts each consumer warp's 16-row strip of the tile into boxes
// of kEpilogueBoxRows x kEpilogueBoxCols bf16 and stores each with one TMA bulk store that drains
// while the consumers go on to the next tile. The ring comes first: as many stages as fit beside
// one box per warp, at most kWgmmaMaxStages; a second box per warp (filled while the TMA still
// reads the first) where the room left over holds it. Read by cuda/kernel/config.hpp and by the
// cost model's load-latency pipe.
inline constexpr int64_t kWgmmaSmemLimit = 232448;  // bytes of dynamic smem an sm_90 CTA may use
inline constexpr int64_t kWgmmaSmemAlign = 1024;    // 128B-swizzle atoms start 1024-byte aligned
// Stages a ring holds at most: 16 lets the narrow tiles keep a short walk's k-tiles all in flight
// (64x16 / 64x32 +5-8 %, skinny M up to +30 %; docs/kernel-notes.md, "Rings of up to 16 stages");
// the splitk-dsm form keeps 8, so that its peers' partials fit beside the ring.
inline constexpr int64_t kWgmmaMaxStages = 16;
inline constexpr int64_t kWgmmaDsmMaxStages = 8;
inline constexpr int64_t kWgmmaTurnBarriers = 2;  // ping-pong consumers' turns (one each)
inline constexpr int64_t kWgmmaBarrierBytes =     // 8-byte mbarriers: full + empty per stage
    (2 * kWgmmaMaxStages + kWgmmaTurnBarriers) * 8;
inline constexpr int64_t kEpilogueBoxRows = 16;    // one warp's rows of a wgmma m64 block
inline constexpr int64_t kEpilogueBoxCols = 64;    // 128 bytes of bf16: one 128B-swizzle row
inline constexpr int64_t kEpilogueMaxBuffers = 2;  // boxes per warp in flight, at most
inline constexpr int64_t kEpilogueBoxBytes = kEpilogueBoxRows * kEpilogueBoxCols * kBf16Bytes;
inline constexpr int64_t kWgmmaConsumerWarps = kWgmmaConsumers * 4;  // 4 warps per warpgroup
constexpr int64_t wgmma_epilogue_bytes(int64_t buffers) {
  return kWgmmaConsumerWarps * buffers * kEpilogueBoxBytes;
}
constexpr int64_t wgmma_stage_bytes(const TileShape& t) { return (t.m + t.n) * t.k * kBf16Bytes; }
// Shared memory left to the ring beside `buffers` boxes per consumer warp.
constexpr int64_t wgmma_ring_room(int64_t buffers) {
  return kWgmmaSmemLimit - kWgmmaSmemAlign - kWgmmaBarrierBytes - wgmma_epilogue_bytes(buffers);
}
// The ring's stages: as many as fit beside one box per warp, at most the form's cap
// (`cluster_reduce`: the splitk-dsm form). Where the consumers take alternate k-tiles, a whole
// number of rounds of them: a consumer's full-barrier wait on a stage is a parity test, which
// also passes while the stage's previous fill has not landed; with a ring of a multiple of
// kWgmmaConsumers stages that fill was, within a segment, the consumer's own, which it waited
// for, while with an odd ring it was the partner's, whose TMA may land after later fills
// (docs/kernel-notes.md, "An odd ring under alternating consumers").
constexpr int64_t wgmma_stages(const TileShape& t, bool cluster_reduce = false) {
  const int64_t cap = cluster_reduce ? kWgmmaDsmMaxStages : kWgmmaMaxStages;
  const int64_t fit = wgmma_ring_room(1) / wgmma_stage_bytes(t);
  const int64_t stages = fit < cap ? fit : cap;
  return wgmma_consumers_alternate_k(t) ? stages / kWgmmaConsumers * kWgmmaConsumers : stages;
}
constexpr int64_t wgmma_epilogue_buffers(const TileShape& t, bool cluster_reduce = false) {
  return wgmma_stages(t, cluster_reduce) * wgmma_stage_bytes(t) <=
                 wgmma_ring_room(kEpilogueMaxBuffers)
             ? kEpilogueMaxBuffers
             : 1;
}
// A CTA's dynamic shared memory: alignment slack, the ring, the barriers, the store boxes.
constexpr int64_t wgmma_smem_bytes(const TileShape& t, bool cluster_reduce = false) {
  return kWgmmaSmemAlign + wgmma_stages(t, cluster_reduce) * wgmma_stage_bytes(t) +
         kWgmmaBarrierBytes + wgmma_epilogue_bytes(wgmma_epilogue_buffers(t, cluster_reduce));
}

// A Final owner's reduction (cuda/kernel/fixup.cuh) loads several peers' fp32 partial slots per L2
// round trip, then adds them in k order: the batch beside the accumulator stays within
// kReduceRegisterFloats floats a thread (the wgmma kernels compile to 168 registers), so 16x64..
// 32x64 take 8 slots a round, 32x128 and 64x64 five, 64x96 three, 64x128 and 128x64 two, wider
// tiles one (each load beside its add). 128 floats gave 64x128 three slots and measured 1.3 %
// slower on splitk:2 than two (H100, docs/PERFORMANCE.md). `acc_floats`: accumulator floats a
// thread; at most `peer_group` slots. The simulator charges a Final's slot loads one by one
// (PartialLoad) and, under a model with a per-round latency (FixedCosts::load_round), one L2 round
// trip per batch (final_load_rounds).
// Peers a Final owner waits for at once before adding their slots (cuda/kernel/fixup.cuh).
inline constexpr int64_t kFinalPeerGroup = 8;
inline constexpr int64_t kReduceRegisterFloats = 96;
constexpr int64_t final_reduce_batch(int64_t acc_floats, int64_t peer_group) {
  const int64_t fit = kReduceRegisterFloats / acc_floats - 1;  // slots beside the accumulator
  return fit < 1 ? 1 : fit < peer_group ? fit : peer_group;
}
// Threads that own a split tile's accumulator: both consumer warpgroups (no fix-up runs ping-pong).
inline constexpr int64_t kWgmmaAccumulatorThreads = kWgmmaConsumerWarps * 32;  // 32 a warp
// L2 round trips of a Final owner loading `slots` peers' slots of `tile`: each group of
// kFinalPeerGroup it awaits at once is loaded in batches of final_reduce_batch (fixup.cuh).
constexpr int64_t final_load_rounds(const TileShape& tile, int64_t slots) {
  const int64_t batch =
      final_reduce_batch(tile.m * tile.n / kWgmmaAccumulatorThreads, kFinalPeerGroup);
  const int64_t full_groups = slots / kFinalPeerGroup, rest = slots % kFinalPeerGroup;
  const auto rounds = [batch](int64_t n) { return (n + batch - 1) / batch; };
  return full_groups * rounds(kFinalPeerGroup) + rounds(rest);
}

// Rows of a multicast slice must start on a 128B-swizzle atom (8 rows of 128 B).
inline constexpr int64_t kSwizzleAtomRows = 8;

// Clusters of more than two CTAs serve outputs where operand traffic per FLOP is what limits. A
// 2x2 takes tiles of at least kQuadClusterMinRows x kQuadClusterMinRows (it rarely won even
// there, docs/PERFORMANCE.md); the eight-CTA clusters (4x2, 2x4: what cuBLAS runs on few-tile,
// deep-K shapes, one operand shared by four CTAs and the other by two) take every tile of at
// least kOctClusterMinRows rows and columns (48x64 4x2, 64x48 2x4, 80x64 4x2 among them). The
// narrow tiles (a side of at most kNarrowTileMaxRows: the 16- and 32-row swapped tiles, 64x16,
// 64x32) take the lines of four (4x1, 1x4: cuBLAS's 8x64 4x1 and 64x8 1x4 on tiny problems) and the
// eight-CTA clusters, not 2x2; no other tile takes a line of four.
inline constexpr int kPairClusterSize = 2;           // CTAs of a 2x1 / 1x2 cluster
inline constexpr int kOctClusterSize = 8;            // CTAs of a 4x2 / 2x4 cluster
inline constexpr int64_t kQuadClusterMinRows = 128;  // least tile M and N of a 2x2 cluster
inline constexpr int64_t kOctClusterMinRows = 48;    // least tile M and N of a 4x2 / 2x4 cluster
inline constexpr int64_t kNarrowTileMaxRows = 32;    // a narrow tile's shorter side, at most
constexpr bool cluster_serves_tile(const TileShape& t, const ClusterShape& c) {
  const int64_t size = c.m * c.n;
  if (size <= kPairClusterSize) return true;
  const bool line = c.m == 1 || c.n == 1;  // 4x1, 1x4
  if (t.m <= kNarrowTileMaxRows || t.n <= kNarrowTileMaxRows) {
    return line || size == kOctClusterSize;
  }
  if (line) return false;
  const int64_t least = size == kOctClusterSize ? kOctClusterMinRows : kQuadClusterMinRows;
  return t.m >= least && t.n >= least;
}

// Whether the kernels have tile x cluster: the tile and the cluster exist, the cluster serves the
// tile, and each shared operand splits into slices of whole swizzle atoms (a cluster m wide splits
// the tile's N rows of B in m, one n wide its M rows of A in n).
constexpr bool kernel_has_config(const TileShape& t, const ClusterShape& c) {
  if (kernel_tile_index(t) < 0 || !kernel_has_cluster(c) || !cluster_serves_tile(t, c)) {
    return false;
  }
  if (t.k != kWgmmaChunkK && c.m * c.n != 1) return false;  // deep tiles: 1x1 only
  const int64_t b_slice = t.n / c.m, a_slice = t.m / c.n;
  return b_slice * c.m == t.n && b_slice % kSwizzleAtomRows == 0 && a_slice * c.n == t.m &&
         a_slice % kSwizzleAtomRows == 0;
}

// splitk-dsm (Plan::cluster_reduce): the owner's dynamic shared memory holds an mbarrier
// (kClusterReduceBarrierBytes, 16-byte aligned slots after it) and its peers' fp32 partials past
// the kernel's own. Configs whose CTA fits at least one partial (two splits) have the form:
// 16x64 .. 64x96 without a multicast cluster (the splits are the cluster); wider tiles' rings fill
// the shared memory.
inline constexpr int64_t kClusterReduceBarrierBytes = 16;
LW_HD constexpr int64_t cluster_reduce_partial_bytes(const TileShape& t) { return t.m * t.n * 4; }
constexpr bool kernel_has_cluster_reduce(const TileShape& t, const ClusterShape& c) {
  return kernel_has_config(t, c) && c.m == 1 && c.n == 1 &&
         wgmma_smem_bytes(t, true) + kClusterReduceBarrierBytes + cluster_reduce_partial_bytes(t) <=
             kWgmmaSmemLimit;
}
// Whether splitk-dsm:splits runs on tile x cluster: the form exists and the owner's shared memory
// holds splits - 1 partials beside the kernel's own (cuda/launch_plan refuses the others).
constexpr bool kernel_runs_cluster_reduce(const TileShape& t, const ClusterShape& c,
                                          int64_t splits) {
  return kernel_has_cluster_reduce(t, c) && splits >= 2 && splits <= kMaxClusterCtas &&
         wgmma_smem_bytes(t, true) + kClusterReduceBarrierBytes +
                 (splits - 1) * cluster_reduce_partial_bytes(t) <=
             kWgmmaSmemLimit;
}

}  // namespace lw

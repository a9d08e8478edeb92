// The wgmma kernel table split over translation units (cuda/kernels/wgmma_entry.hpp): every
// tile x cluster index finds its own instantiation, whose launch geometry matches the config's
// shared-memory rule and multicast slices (sim/decomp/kernel_configs.hpp), and the tiles one
// warpgroup can hold have their ping-pong form; host-only, no GPU.
#include <doctest/doctest.h>

#include "cuda/kernels/wgmma_entry.hpp"

namespace {

using lw::ClusterShape;
using lw::TileShape;

constexpr int kWgmmaThreads = 384;    // producer warpgroup + two consumer warpgroups
constexpr int kBothConsumers = 256;   // a cooperative tile's accumulator owners
constexpr int kEpilogueBoxCols = 64;  // bf16 columns of one full store box (128 bytes)

// The tiles whose whole accumulator fits one warpgroup's 128 threads x 128 fp32 (whole wgmma rows,
// not the alternating 64x16..64x64): the ones with a ping-pong form.
bool has_pingpong_form(const TileShape& t) {
  constexpr TileShape kPingpongTiles[] = {
      {64, 80, 64},  {64, 96, 64},  {128, 64, 64},  {64, 128, 64},  {64, 192, 64},
      {64, 256, 64}, {128, 96, 64}, {128, 112, 64}, {128, 120, 64}, {128, 128, 64}};
  for (const TileShape& p : kPingpongTiles)
    if (lw::same_tile(p, t)) return true;
  return false;
}

bool has_cluster_reduce_form(const TileShape& t) {
  constexpr TileShape kDsmTiles[] = {{16, 64, 64},
                                     {16, 128, 64},
                                     {32, 64, 64},
                                     {32, 128, 64},
                                     {48, 64, 64},
                                     {64, 16, 64},
                                     {64, 32, 64},
                                     {64, 48, 64},
                                     {64, 64, 64},
                                     {64, 80, 64},
                                     {80, 64, 64},
                                     {64, 96, 64},
                                     // 128 deep: the rest fill their shared memory with stages
                                     {16, 64, 128},
                                     {16, 128, 128},
                                     {48, 64, 128},
                                     {64, 16, 128},
                                     {64, 48, 128}};
  for (const TileShape& d : kDsmTiles)
    if (lw::same_tile(d, t)) return true;
  return false;
}

int64_t expected_smem(const TileShape& t, bool cluster_reduce = false) {
  return lw::kWgmmaSmemAlign + lw::wgmma_stages(t, cluster_reduce) * lw::wgmma_stage_bytes(t) +
         lw::kWgmmaBarrierBytes +
         lw::wgmma_epilogue_bytes(lw::wgmma_epilogue_buffers(t, cluster_reduce));
}

}  // namespace

TEST_CASE("every tile x cluster index finds its own wgmma instantiation") {
  int present = 0;
  for (size_t i = 0; i < lw::cuda::kWgmmaEntries; ++i) {
    const TileShape t = lw::kKernelTiles[i / lw::kKernelClusterCount];
    const ClusterShape c = lw::kKernelClusters[i % lw::kKernelClusterCount];
    const lw::cuda::WgmmaEntry& e = lw::cuda::wgmma_entry_at(i);
    INFO("entry " << i << ": tile " << t.m << "x" << t.n << " cluster " << c.m << "x" << c.n);
    REQUIRE((e.main != nullptr) == lw::kernel_has_config(t, c));
    if (e.main == nullptr) continue;
    ++present;
    CHECK(static_cast<bool>(e.reduce));
    CHECK(static_cast<bool>(e.whole_main));  // every config has its whole-tile form ...
    CHECK((e.whole_main != e.main));         // ... compiled apart from the general one
    CHECK(e.threads == kWgmmaThreads);
    CHECK(e.smem_bytes == expected_smem(t));
    CHECK(e.slice_rows_a == t.m / c.n);
    CHECK(e.slice_rows_b == t.n / c.m);
    CHECK(e.reduce_threads == kBothConsumers);
    // The splitk-dsm form: the 1x1 configs whose CTA has room for one more fp32 tile (16x64 with
    // 113 KiB of ring and boxes ... 64x96 with 193 KiB), apart from the others.
    const bool dsm = c.m * c.n == 1 && has_cluster_reduce_form(t);
    REQUIRE((e.cluster_reduce_main != nullptr) == dsm);
    if (dsm) {
      CHECK((e.cluster_reduce_main != e.main));
      CHECK(e.cluster_reduce_smem_bytes == expected_smem(t, true));
      CHECK(e.cluster_reduce_smem_bytes <= e.smem_bytes);
    }
    REQUIRE((e.pingpong_main != nullptr) == has_pingpong_form(t));
    if (e.pingpong_main == nullptr) continue;
    CHECK((e.pingpong_main != e.main));
    CHECK((e.pingpong_main != e.whole_main));
    // A ping-pong consumer stores the whole tile width in 64-column boxes and one narrower tail
    // (64x96: 64 + 32, where the cooperative halves store 48 each; 64x192: none, against 64 + 32).
    CHECK(e.pingpong_tail_cols == static_cast<uint32_t>(t.n % kEpilogueBoxCols));
    if (t.m == 64 && t.n == 96) CHECK(e.tail_cols == 48u);
  }
  // Every tile 1x1, pairs where the slices are whole swizzle atoms, 2x2 on the 128-and-up tiles,
  // 4x2 / 2x4 on the 64-and-up ones (below).
  CHECK(present > lw::kKernelTileCount);
}

TEST_CASE(
    "eight-CTA clusters: tiles of 48 rows and columns and up, slices of whole swizzle atoms") {
  const auto has = [](int64_t m, int64_t n, int64_t cm, int64_t cn) {
    return lw::kernel_has_config(TileShape{m, n, 64}, ClusterShape{cm, cn});
  };
  CHECK(has(64, 96, 4, 2));     // B's 96 rows in quarters of 24, A's 64 in halves of 32
  CHECK(has(64, 96, 2, 4));     // B in halves of 48, A in quarters of 16
  CHECK(!has(128, 112, 4, 2));  // B in quarters of 28: not whole 8-row atoms
  CHECK(has(128, 112, 2, 4));   // B in halves of 56, A in quarters of 32
  CHECK(!has(128, 120, 2, 4));  // B in halves of 60
  CHECK(has(256, 128, 4, 2));
  CHECK(has(64, 80, 2, 4));     // B in halves of 40, A in quarters of 16
  CHECK(has(48, 64, 4, 2));     // B in quarters of 16, A in halves of 24
  CHECK(!has(48, 64, 2, 4));    // A in quarters of 12
  CHECK(has(64, 48, 2, 4));     // B in halves of 24, A in quarters of 16
  CHECK(!has(64, 48, 4, 2));    // B in quarters of 12
  CHECK(has(80, 64, 4, 2));     // B in quarters of 16, A in halves of 40
  CHECK(!has(80, 64, 2, 4));    // A in quarters of 20
  CHECK(has(144, 128, 4, 2));   // B in quarters of 32, A in halves of 72
  CHECK(!has(144, 128, 2, 4));  // A in quarters of 36
  CHECK(!has(136, 128, 4, 2));  // A in halves of 68
  CHECK(!has(136, 128, 1, 2));
  CHECK(has(136, 128, 2, 1));  // B in halves of 64, A whole
  int oct = 0;
  for (const TileShape& t : lw::kKernelTiles) {
    if (t.m <= 32 || t.n <= 32) continue;  // the narrow tiles: next case
    oct +=
        lw::kernel_has_config(t, ClusterShape{4, 2}) + lw::kernel_has_config(t, ClusterShape{2, 4});
  }
  // 22 tiles of >= 64x64: 4x2 on 15 of them, 2x4 on 19 (64x80: B quarters of 20; 136x128 and
  // 144x128: A quarters of 34 and 36); 48x64, 64x48 and 80x64 one each (above).
  CHECK(oct == 37);
}

TEST_CASE("narrow tiles: lines of four and eight-CTA clusters, never 2x2") {
  const auto has = [](int64_t m, int64_t n, int64_t cm, int64_t cn) {
    return lw::kernel_has_config(TileShape{m, n, 64}, ClusterShape{cm, cn});
  };
  CHECK(has(16, 64, 4, 1));   // B in quarters of 16, A whole
  CHECK(!has(16, 64, 1, 4));  // A in quarters of 4 rows
  CHECK(has(16, 64, 4, 2));   // B in quarters of 16, A in halves of 8
  CHECK(!has(16, 64, 2, 4));  // A in quarters of 4
  CHECK(has(32, 128, 4, 1));
  CHECK(has(32, 128, 1, 4));    // A in quarters of 8
  CHECK(has(32, 64, 2, 4));     // B in halves of 32, A in quarters of 8
  CHECK(!has(64, 16, 4, 1));    // B in quarters of 4
  CHECK(has(64, 16, 1, 4));     // A in quarters of 16, B whole
  CHECK(has(64, 32, 4, 2));     // B in quarters of 8, A in halves of 32
  CHECK(!has(32, 64, 2, 2));    // 2x2 only on 128x128 and up
  CHECK(!has(128, 128, 4, 1));  // lines of four only on the narrow tiles
  CHECK(!has(64, 64, 1, 4));
  CHECK(!has(48, 64, 4, 1));
  int lines = 0, oct = 0;
  for (const TileShape& t : lw::kKernelTiles) {
    lines +=
        lw::kernel_has_config(t, ClusterShape{4, 1}) + lw::kernel_has_config(t, ClusterShape{1, 4});
    if (t.m > 32 && t.n > 32) continue;
    oct +=
        lw::kernel_has_config(t, ClusterShape{4, 2}) + lw::kernel_has_config(t, ClusterShape{2, 4});
  }
  // 16x64, 16x128: 4x1 and 4x2; 32x64, 32x128, 64x32: all four; 64x16: 1x4 and 2x4.
  CHECK(lines == 9);
  CHECK(oct == 9);
}

TEST_CASE("deep tiles: the ten narrow tiles 128 deep, without a cluster only") {
  constexpr TileShape kNarrow[] = {{16, 64, 128}, {16, 128, 128}, {32, 64, 128}, {32, 128, 128},
                                   {48, 64, 128}, {64, 16, 128},  {64, 32, 128}, {64, 48, 128},
                                   {64, 64, 128}, {80, 64, 128}};
  int deep = 0;
  for (const TileShape& t : lw::kKernelTiles) deep += t.k == lw::kDeepTileK;
  CHECK(deep == 10);
  for (const TileShape& t : kNarrow) {
    INFO("tile " << t.m << "x" << t.n << "x" << t.k);
    CHECK(lw::kernel_has_config(t, ClusterShape{1, 1}));
    for (const ClusterShape& c : lw::kKernelClusters)
      if (c.m * c.n > 1) CHECK(!lw::kernel_has_config(t, c));
    // A stage is both chunks of both operands: twice the 64-deep tile's bytes.
    CHECK(lw::wgmma_stage_bytes(t) == 2 * lw::wgmma_stage_bytes(TileShape{t.m, t.n, 64}));
  }
  CHECK(!lw::kernel_has_config(TileShape{128, 128, 128}, ClusterShape{1, 1}));  // not a kernel tile
}

TEST_CASE("the parts hold every entry once") {
  size_t slots = 0;
  for (size_t p = 0; p < lw::cuda::kWgmmaParts; ++p) slots += lw::cuda::wgmma_part_slots(p);
  CHECK(slots == lw::cuda::kWgmmaEntries);
}

TEST_CASE("a Final owner's reduction batch: the slots beside its accumulator within 96 floats") {
  constexpr int64_t kPeerGroup = lw::kFinalPeerGroup;  // peers a Final owner awaits at once
  struct Case {
    TileShape tile;
    int64_t batch;
  };
  // Accumulator floats a thread = m x n / 256 owners; batch = 96 / floats - 1, in [1, 8].
  constexpr Case kCases[] = {
      {{16, 64, 64}, 8},   // 4 floats: 23 would fit, one group of 8 peers at most
      {{32, 128, 64}, 5},  // 16 floats: 5 beside them
      {{64, 64, 64}, 5},   {{64, 96, 64}, 3},    // 24 floats: 3
      {{64, 128, 64}, 2},  {{128, 64, 64}, 2},   // 32 floats: 2
      {{128, 96, 64}, 1},  {{128, 128, 64}, 1},  // 48 and 64 floats: one slot at a time
      {{128, 256, 64}, 1}, {{256, 128, 64}, 1}};
  for (const Case& c : kCases) {
    INFO("tile " << c.tile.m << "x" << c.tile.n);
    CHECK(lw::final_reduce_batch(c.tile.m * c.tile.n / kBothConsumers, kPeerGroup) == c.batch);
  }
  CHECK(lw::final_reduce_batch(4, 2) == 2);  // never more than the group awaited
}

// Host-only tests of the CUDA launch logic (no GPU): grid sizing, workspace and flag sizes,
// trace sizing from the host walk, tile mismatch and co-residency refusal.
#include "cuda/launch_plan.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "cuda/kernel/config.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"

using namespace lw;
using lw::cuda::DeviceFacts;
using lw::cuda::KernelConfig;
using lw::cuda::plan_launch;

namespace {
const TileShape kTile{KernelConfig::kTileM, KernelConfig::kTileN, KernelConfig::kTileK};
constexpr int64_t kSms = 132;
constexpr int64_t kSlotBytes = int64_t{KernelConfig::kTileM} * KernelConfig::kTileN * 4;

DeviceFacts facts(int64_t sms, int64_t per_sm) {
  DeviceFacts f;
  f.partition_sms = sms;
  f.ctas_per_sm = per_sm;
  return f;
}
Plan plan(const std::string& name, Problem p, int64_t sms = kSms,
          Reduction r = Reduction::Deterministic) {
  return plan_schedule(name, p, kTile, GpuShape{sms, 1}, r).plan;
}
}  // namespace

TEST_CASE("data-parallel: one CTA per tile, no workspace, one segment per CTA") {
  const auto s = plan_launch(plan("dp", {1000, 1000, 1000}), facts(kSms, 1));
  CHECK(s.grid == 64);  // 8 x 8 tiles
  CHECK(s.reduction_grid == 0);
  CHECK(s.workspace_bytes == 0);
  CHECK(s.flag_bytes == 0);
  CHECK(s.max_segments == 1);
}

TEST_CASE("split-K sizes: in-kernel slots, atomic in place, separate reduction") {
  const Problem p{256, 256, 4096};  // 4 tiles, 64 k-tiles
  auto det = plan_launch(plan("splitk:4", p), facts(kSms, 1));
  CHECK(det.grid == 16);
  CHECK(det.workspace_bytes == 4 * 3 * kSlotBytes);
  CHECK(det.flag_bytes == 4 * 3 * 4);
  auto atom = plan_launch(plan("splitk:4", p, kSms, Reduction::Atomic), facts(kSms, 1));
  CHECK(atom.workspace_bytes == 4 * kSlotBytes);
  auto sep = plan_launch(plan("splitk-sep:4", p), facts(kSms, 1));
  CHECK(sep.reduction_grid == 4);
  CHECK(sep.workspace_bytes == 4 * 4 * kSlotBytes);
}

TEST_CASE("persistent plans must be co-resident on the partition") {
  const Problem p{4096, 4096, 4096};
  const Plan sk = plan("streamk", p, kSms);
  CHECK(plan_launch(sk, facts(kSms, 1)).grid == kSms);
  CHECK_THROWS_AS(plan_launch(sk, facts(64, 1)), std::invalid_argument);    // 132 CTAs on 64 SMs
  CHECK(plan_launch(sk, facts(66, 2)).grid == kSms);                        // 2 per SM fit
  CHECK_THROWS_AS(plan_launch(sk, facts(kSms, 0)), std::invalid_argument);  // kernel can't fit
  // Non-persistent grids wait only on lower CTA ids and may exceed residency.
  CHECK(plan_launch(plan("splitk:4", p), facts(8, 1)).grid == 4096);
}

TEST_CASE("a plan for a tile the kernels lack is refused; kernel tiles size their slots") {
  const Plan other = plan_schedule("dp", {512, 512, 512}, TileShape{128, 100, 64}, GpuShape{},
                                   Reduction::Deterministic)
                         .plan;
  CHECK_THROWS_AS(plan_launch(other, facts(kSms, 1)), std::invalid_argument);
  // 512 x 512 x 4096 with 128x256 tiles: 4 x 2 = 8 tiles; split-K 4 stores 3 slots per tile, each
  // 128 * 256 fp32 = 131072 bytes.
  const Plan wide = plan_schedule("splitk:4", {512, 512, 4096}, TileShape{128, 256, 64},
                                  GpuShape{kSms, 1}, Reduction::Deterministic)
                        .plan;
  const auto s = plan_launch(wide, facts(kSms, 1));
  CHECK(s.grid == 32);
  CHECK(s.workspace_bytes == 8 * 3 * 131072);
}

TEST_CASE("trace rows come from the host walk: Stream-K CTAs span several segments") {
  const Problem p{1536, 1536, 4096};  // 144 tiles x 64 k-tiles over 132 units
  const Plan sk = plan("streamk", p);
  const auto walk = cuda::host_walk(sk);
  CHECK(walk.size() == static_cast<size_t>(sk.grid));
  int64_t iters = 0;
  for (const auto& cta : walk)
    for (const auto& s : cta) iters += s.k_end - s.k_begin;
  CHECK(iters == sk.tiles * sk.k_tiles);
  // ~69.8 k-tiles per unit: a unit can touch the tail of one tile, a whole one and the head of a
  // third.
  CHECK(cuda::max_segments_per_cta(sk) == 3);
  CHECK(plan_launch(sk, facts(kSms, 1)).max_segments == 3);
}

TEST_CASE("grids beyond the device's x-dimension limit are refused") {
  DeviceFacts f = facts(kSms, 1);
  f.max_grid_x = 10;
  CHECK_THROWS_AS(plan_launch(plan("dp", {2048, 2048, 64}), f), std::invalid_argument);
}

TEST_CASE("the launcher's ping-pong rule from the plan alone matches the one from its walk") {
  // plan_runs_pingpong (sim/decomp/kernel_configs.hpp) is what the simulator asks; the launcher
  // decided from the walk's longest CTA. Every kernel tile x schedule x problem agrees.
  const Problem problems[] = {{4096, 4096, 4096}, {1000, 3000, 512}, {128, 128, 64}, {64, 8192, 8}};
  const char* schedules[] = {"dp", "dp-persistent", "splitk:2", "streamk", "cutlass", "two-tile"};
  int pingpong = 0;
  for (const TileShape& tile : kKernelTiles) {
    for (const char* name : schedules) {
      for (const Problem& p : problems) {
        const Plan pl =
            plan_schedule(name, p, tile, GpuShape{kSms, 1}, Reduction::Deterministic).plan;
        const bool walked = wgmma_runs_pingpong(tile, pl.split_mode == SplitMode::None,
                                                cuda::max_segments_per_cta(pl), pl.k_tiles);
        CHECK_MESSAGE(plan_runs_pingpong(pl) == walked, name, " ", tile_text(tile));
        pingpong += walked;
      }
    }
  }
  CHECK(pingpong > 0);
  // The cases by hand: 1024 tiles of 128x128 over 132 persistent CTAs run ping-pong; one 128-row
  // tile per CTA (dp), a split region (Stream-K) or a tile no warpgroup holds (128x256) do not.
  const Problem big{4096, 4096, 4096};
  CHECK(plan_runs_pingpong(
      plan_schedule("dp-persistent", big, {128, 128, 64}, {kSms, 1}, Reduction::Deterministic)
          .plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("dp", big, {128, 128, 64}, {kSms, 1}, Reduction::Deterministic).plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("streamk", big, {128, 128, 64}, {kSms, 1}, Reduction::Deterministic).plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("dp-persistent", big, {128, 256, 64}, {kSms, 1}, Reduction::Deterministic)
          .plan));
  // 64-row tiles of n96..n192 run ping-pong one tile per CTA too, from 5 k-tiles on.
  CHECK(plan_runs_pingpong(
      plan_schedule("dp", big, {64, 128, 64}, {kSms, 1}, Reduction::Deterministic).plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("dp", {4096, 4096, 256}, {64, 128, 64}, {kSms, 1}, Reduction::Deterministic)
          .plan));
  CHECK(plan_runs_pingpong(
      plan_schedule("dp", {4096, 4096, 257}, {64, 192, 64}, {kSms, 1}, Reduction::Deterministic)
          .plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("dp", big, {64, 256, 64}, {kSms, 1}, Reduction::Deterministic).plan));
  CHECK_FALSE(plan_runs_pingpong(
      plan_schedule("splitk:2", big, {64, 128, 64}, {kSms, 1}, Reduction::Deterministic).plan));
  // The ping-pong form stores through the TMA only: C rows of N % 8 != 0 elements take the other.
  CHECK_FALSE(plan_runs_pingpong(plan_schedule("dp-persistent", {4096, 4092, 4096}, {128, 128, 64},
                                               {kSms, 1}, Reduction::Deterministic)
                                     .plan));
}

TEST_CASE("the whole-tile kernel forms run plans without a split region whose C they can store") {
  const auto walks_whole = [](const char* name, const Problem& p, const TileShape& t) {
    return plan_walks_whole_tiles(
        plan_schedule(name, p, t, GpuShape{kSms, 1}, Reduction::Deterministic).plan);
  };
  const Problem aligned{1000, 3000, 512}, ragged_n{1000, 3001, 512};
  CHECK(walks_whole("dp", aligned, {128, 128, 64}));
  CHECK(walks_whole("dp-persistent", aligned, {64, 96, 64}));
  CHECK(walks_whole("dp", aligned, {16, 64, 64}));
  CHECK_FALSE(walks_whole("splitk:2", aligned, {128, 128, 64}));
  CHECK_FALSE(walks_whole("streamk", aligned, {128, 128, 64}));
  CHECK_FALSE(walks_whole("splitk:2", aligned, {16, 64, 64}));
  // A non-swapped tile stores C through the TMA there: rows of N % 8 != 0 need the general form;
  // a swapped tile writes its transpose from registers either way.
  CHECK_FALSE(walks_whole("dp", ragged_n, {128, 128, 64}));
  CHECK(walks_whole("dp", ragged_n, {16, 64, 64}));
}

TEST_CASE("the kernels run on compute capability 9.0 only") {
  CHECK(cuda::device_refusal(9, 0, "NVIDIA H200").empty());
  CHECK(cuda::device_refusal(10, 0, "NVIDIA B200") ==
        "the kernels are built for sm_90a (Hopper, compute capability 9.0) and cannot run on "
        "NVIDIA B200 (compute capability 10.0)");
  CHECK_FALSE(cuda::device_refusal(8, 0, "NVIDIA A100").empty());
  CHECK_FALSE(cuda::device_refusal(9, 1, "a future 9.x").empty());
}

TEST_CASE("the staged epilogue stores the widest word every row of C is aligned to") {
  using cuda::widest_row_store;
  constexpr uintptr_t kAligned = 0x7f0000000000;  // a cudaMalloc base: 256-byte aligned
  constexpr int64_t kBf16 = 2, kF32 = 4;
  // bf16 rows: N % 8 == 0 gives 16-byte rows, N % 4 == 2 only 4-byte ones, odd N 2-byte ones.
  CHECK(widest_row_store(kAligned, 4096, kBf16) == 16);
  CHECK(widest_row_store(kAligned, 836, kBf16) == 8);
  CHECK(widest_row_store(kAligned, 834, kBf16) == 4);
  CHECK(widest_row_store(kAligned, 7161, kBf16) == 2);
  // The base counts as much as the row pitch: a C that starts 4 bytes into an allocation.
  CHECK(widest_row_store(kAligned + 4, 4096, kBf16) == 4);
  CHECK(widest_row_store(kAligned + 2, 4096, kBf16) == 2);
  CHECK(widest_row_store(kAligned + 8, 836, kBf16) == 8);
  // fp32 rows: never narrower than one element.
  CHECK(widest_row_store(kAligned, 300, kF32) == 16);
  CHECK(widest_row_store(kAligned, 170, kF32) == 8);
  CHECK(widest_row_store(kAligned, 129, kF32) == 4);
  CHECK(widest_row_store(kAligned, 1, kF32) == 4);
}

TEST_CASE(
    "splitk-dsm: partials in the owner's shared memory, no workspace; refused where they do not "
    "fit") {
  const Problem p{256, 256, 4096};
  DeviceFacts f = facts(kSms, 1);
  f.kernel_smem_bytes = 100000;
  f.max_smem_bytes = 232448;  // sm_90's opt-in limit
  f.max_active_clusters = 16;
  const Plan two = plan("splitk-dsm:2", p);
  const auto s = plan_launch(two, f);
  CHECK(s.grid == 8);
  CHECK(s.workspace_bytes == 0);
  CHECK(s.flag_bytes == 0);
  CHECK(s.reduce_cluster == 2);
  CHECK(s.reduce_smem_bytes == 16 + kSlotBytes);
  CHECK(lw::cuda::cluster_reduce_bytes(two) == 16 + kSlotBytes);
  CHECK(lw::cuda::cluster_reduce_bytes(plan("splitk:2", p)) == 0);
  // Three 64 KiB partials do not fit beside 100,000 bytes.
  CHECK_THROWS_WITH_AS(plan_launch(plan("splitk-dsm:4", p), f), doctest::Contains("shared memory"),
                       std::invalid_argument);
  f.max_active_clusters = 0;
  CHECK_THROWS_AS(plan_launch(two, f), std::invalid_argument);
  f.max_active_clusters = 16;
  Plan persistent = two;
  persistent.persistent = true;
  CHECK_THROWS_AS(plan_launch(persistent, f), std::invalid_argument);
}

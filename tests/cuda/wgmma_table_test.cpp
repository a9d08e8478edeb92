// The wgmma kernel table split over translation units (cuda/kernels/wgmma_entry.hpp): every
// tile x cluster index finds its own instantiation, whose launch geometry matches the config's
// shared-memory rule and multicast slices (sim/decomp/kernel_configs.hpp); host-only, no GPU.
#include <doctest/doctest.h>

#include "cuda/kernels/wgmma_entry.hpp"

namespace {

using lw::ClusterShape;
using lw::TileShape;

constexpr int kWgmmaThreads = 384;  // producer warpgroup + two consumer warpgroups

int64_t expected_smem(const TileShape& t) {
  return lw::kWgmmaSmemAlign + lw::wgmma_stages(t) * lw::wgmma_stage_bytes(t) +
         lw::kWgmmaBarrierBytes + lw::wgmma_epilogue_bytes(lw::wgmma_epilogue_buffers(t));
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
    CHECK(e.threads == kWgmmaThreads);
    CHECK(e.smem_bytes == expected_smem(t));
    CHECK(e.slice_rows_a == t.m / c.n);
    CHECK(e.slice_rows_b == t.n / c.m);
  }
  // 24 tiles x 1x1/2x1/1x2 where the slices are whole swizzle atoms, 2x2 on the 128-and-up tiles.
  CHECK(present > lw::kKernelTileCount);
}

TEST_CASE("the parts hold every entry once") {
  size_t slots = 0;
  for (size_t p = 0; p < lw::cuda::kWgmmaParts; ++p) slots += lw::cuda::wgmma_part_slots(p);
  CHECK(slots == lw::cuda::kWgmmaEntries);
}

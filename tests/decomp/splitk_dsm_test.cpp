// splitk-dsm:S: a tile's S splits are consecutive CTAs (one launch cluster), the last split owns
// the tile and loads its peers' slots in k order; what the planner refuses.
#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/walk.hpp"

namespace {

const lw::TileShape kTile{128, 128, 64};

lw::Plan plan(const std::string& name, const lw::Problem& p) {
  return lw::plan_schedule(name, p, kTile, lw::GpuShape{132, 1}, lw::Reduction::Atomic).plan;
}

lw::Segment only_segment(const lw::Plan& p, int64_t cta) {
  lw::CtaWalk w;
  lw::walk_begin(p, cta, w);
  lw::Segment s;
  REQUIRE(lw::walk_next(p, w, s));
  lw::Segment next;
  CHECK_FALSE(lw::walk_next(p, w, next));
  return s;
}

}  // namespace

TEST_CASE("splitk-dsm: CTA c is split c % S of tile c / S; the last split reduces in k order") {
  const lw::Problem p{256, 256, 4096};  // 4 tiles of 64 k-tiles, 16 per split
  const lw::Plan dsm = plan("splitk-dsm:4", p);
  CHECK(dsm.storage == lw::FixupStorage::ClusterShared);  // deterministic whatever was asked
  CHECK(lw::reduce_cluster_size(dsm) == 4);
  CHECK(dsm.grid == 16);
  CHECK_FALSE(dsm.persistent);
  for (int64_t cta = 0; cta < dsm.grid; ++cta) {
    CAPTURE(cta);
    const lw::Segment s = only_segment(dsm, cta);
    const int64_t tile = cta / 4, split = cta % 4;
    CHECK(s.tile == tile);
    CHECK(s.k_begin == split * 16);
    CHECK(s.k_end == split * 16 + 16);
    if (split == 3) {
      CHECK(s.role == lw::Role::Final);
      CHECK(s.slot == tile * 3);
      CHECK(s.load_slots == 3);
    } else {
      CHECK(s.role == lw::Role::StorePartial);
      CHECK(s.slot == tile * 3 + split);
    }
  }
  // splitk:4 walks the same (tile, k-range, slot) segments, split-major.
  const lw::Plan l2 = plan("splitk:4", p);
  CHECK(l2.storage == lw::FixupStorage::InPlaceAtomic);
  const lw::Plan slots =
      lw::plan_schedule("splitk:4", p, kTile, lw::GpuShape{132, 1}, lw::Reduction::Deterministic)
          .plan;
  const lw::Segment a = only_segment(slots, 4 * 2 + 1);  // split 2 of tile 1
  const lw::Segment b = only_segment(dsm, 1 * 4 + 2);
  CHECK(a.tile == b.tile);
  CHECK(a.k_begin == b.k_begin);
  CHECK(a.slot == b.slot);
}

TEST_CASE("splitk-dsm refuses more splits than a cluster holds, and multicast clusters") {
  const lw::Problem p{256, 256, 8192};
  CHECK(plan("splitk-dsm:8", p).grid == 32);
  CHECK_THROWS_AS(plan("splitk-dsm:9", p), std::invalid_argument);
  CHECK_THROWS_AS(lw::plan_schedule("splitk-dsm:2", p, kTile, lw::GpuShape{132, 1},
                                    lw::Reduction::Deterministic, lw::ClusterShape{2, 1}),
                  std::invalid_argument);
  // One k-tile: nothing to split, a data-parallel plan.
  const lw::Plan one = plan("splitk-dsm:4", lw::Problem{256, 256, 64});
  CHECK(one.storage != lw::FixupStorage::ClusterShared);
  CHECK(lw::reduce_cluster_size(one) == 0);
}

// splitk-dsm:S: splitk:S (deterministic slots, split-major units) whose tiles' splits are one
// launch cluster and meet in the owner's shared memory; what the planner refuses.
#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/walk.hpp"

namespace {

const lw::TileShape kTile{128, 128, 64};

lw::Plan plan(const std::string& name, const lw::Problem& p,
              lw::Reduction r = lw::Reduction::Atomic) {
  return lw::plan_schedule(name, p, kTile, lw::GpuShape{132, 1}, r).plan;
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

TEST_CASE("splitk-dsm: plan CTA c is split c / tiles of tile c % tiles; the last split reduces") {
  const lw::Problem p{256, 256, 4096};  // 4 tiles of 64 k-tiles, 16 per split
  const lw::Plan dsm = plan("splitk-dsm:4", p);
  CHECK(dsm.cluster_reduce);
  CHECK(dsm.storage == lw::FixupStorage::Slots);  // deterministic whatever was asked
  CHECK(lw::reduce_cluster_size(dsm) == 4);
  CHECK(dsm.grid == 16);
  CHECK_FALSE(dsm.persistent);
  for (int64_t cta = 0; cta < dsm.grid; ++cta) {
    CAPTURE(cta);
    const lw::Segment s = only_segment(dsm, cta);
    const int64_t tile = cta % 4, split = cta / 4;
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
  // The same plan as deterministic splitk:4 but for the cluster flag: the same segments.
  lw::Plan slots = plan("splitk:4", p, lw::Reduction::Deterministic);
  CHECK_FALSE(slots.cluster_reduce);
  CHECK_FALSE(lw::same_plan(slots, dsm));
  slots.cluster_reduce = true;
  CHECK(lw::same_plan(slots, dsm));
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
  CHECK_FALSE(one.cluster_reduce);
  CHECK(lw::reduce_cluster_size(one) == 0);
}

// splitk-dsm's dispatch (SimOptions::reduce_cluster_slots): a tile's splits are one launch cluster,
// so they start together, in as many groups of slots as such clusters fit at once, and a group
// takes the next tile only once all of its CTAs have left.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace {

// A k-tile costs 1, an owner's load of a partial `load`; every other transfer, flag, launch and
// prologue is free.
class IterModel final : public lw::CostModel {
 public:
  explicit IterModel(double load = 0) : load_(load) {}
  double iter_time(const lw::Plan&, const lw::CostContext&) const override { return 1.0; }
  double transfer(lw::Transfer kind, const lw::Plan&, const lw::Segment&,
                  const lw::CostContext&) const override {
    return kind == lw::Transfer::PartialLoad ? load_ : 0.0;
  }
  lw::FixedCosts fixed_costs(const lw::Plan&) const override { return {}; }
  std::string time_unit() const override { return "iter"; }

 private:
  double load_;
};

constexpr int64_t kItersPerSplit = 4;
const lw::TileShape kTile{64, 64, 64};

// `tiles` tiles in a row, each split `splits` ways of kItersPerSplit k-tiles, by `schedule`.
lw::Plan row_plan(const std::string& schedule, int64_t tiles, int64_t splits, int64_t sms) {
  const lw::Problem p{kTile.m, kTile.n * tiles, kTile.k * kItersPerSplit * splits};
  return lw::plan_schedule(schedule + ":" + std::to_string(splits), p, kTile, lw::GpuShape{sms, 1},
                           lw::Reduction::Deterministic)
      .plan;
}

lw::SimResult run(const lw::Plan& plan, int64_t sms, int64_t cluster_slots, double load = 0) {
  lw::SimOptions opt;
  opt.sms = sms;
  opt.reduce_cluster_slots = cluster_slots;
  opt.record_timeline = true;
  return lw::simulate(plan, IterModel(load), opt);
}

}  // namespace

TEST_CASE("a tile's splits start together, as many tiles at once as clusters fit") {
  // 4 tiles x 2 splits on 8 SMs: all 8 CTAs fit at once as plain split-K (one wave of 4 k-tiles)
  // and as 4 clusters of 2; with room for only 2 such clusters, the tiles take two waves.
  const lw::Plan dsm = row_plan("splitk-dsm", 4, 2, 8);
  REQUIRE(dsm.cluster_reduce);
  REQUIRE(dsm.grid == 8);
  CHECK(run(row_plan("splitk", 4, 2, 8), 8, 0).makespan == 4.0);
  CHECK(run(dsm, 8, 0).makespan == 4.0);
  const lw::SimResult two = run(dsm, 8, 2);
  CHECK(two.makespan == 8.0);
  // CTA (tile, split) is tile + split * 4: each tile's two CTAs start at one time, tiles 0 and 1
  // at 0, tiles 2 and 3 at 4, on the SMs the first pair left.
  std::map<int64_t, double> start;
  for (const lw::SegmentRecord& r : two.timeline) start[r.cta] = r.t_start;
  REQUIRE(start.size() == 8);
  for (int64_t tile = 0; tile < 4; ++tile) {
    INFO("tile ", tile);
    CHECK(start[tile] == (tile < 2 ? 0.0 : 4.0));
    CHECK(start[tile + 4] == start[tile]);
  }
}

TEST_CASE("the next tile's splits take the slots its peers left while an owner still reduces") {
  // 3 tiles x 2 splits on 4 SMs, room for 2 clusters, an owner's load costs 2: tiles 0 and 1 run
  // 4 k-tiles; their peers leave at 4, their owners at 6. Tile 2 starts at 4 in the two slots the
  // peers left (not at 6, once a whole cluster's slots are free) and ends at 4 + 4 + 2.
  CHECK(run(row_plan("splitk-dsm", 3, 2, 4), 4, 2, 2.0).makespan == 10.0);
}

TEST_CASE("a cluster waits for as many free slots as it has CTAs") {
  // 3 tiles x 3 splits on 6 SMs, room for 2 clusters: plain split-K runs CTAs 0..5 (splits 0 and
  // 1 of every tile) first and the owners (split 2) after, 8 k-tiles in all; the clusters run
  // tiles 0 and 1 first and tile 2 after, also 8. With one cluster at a time, three waves: 12.
  CHECK(run(row_plan("splitk", 3, 3, 6), 6, 0).makespan == 8.0);
  CHECK(run(row_plan("splitk-dsm", 3, 3, 6), 6, 2).makespan == 8.0);
  CHECK(run(row_plan("splitk-dsm", 3, 3, 6), 6, 1).makespan == 12.0);
}

TEST_CASE("a cluster larger than the GPU's slots is a deadlock that says why") {
  const lw::SimResult r = run(row_plan("splitk-dsm", 2, 4, 2), 2, 0);
  CHECK(r.deadlock);
  CHECK(r.deadlock_report.find("4 splits are one cluster") != std::string::npos);
  CHECK(r.deadlock_report.find("2 exist") != std::string::npos);
}

TEST_CASE("a splitk-dsm grid that is not whole clusters is refused, one line") {
  lw::Plan plan = row_plan("splitk-dsm", 4, 2, 8);
  plan.grid = 7;  // not whole clusters of 2
  CHECK_THROWS_WITH_AS(run(plan, 8, 0), doctest::Contains("not whole clusters of its 2 splits"),
                       std::invalid_argument);
}

// Every tile count, split count, SM count and cluster room: the run finishes with every CTA's one
// segment recorded once, its tile's splits started together, and no more clusters' CTAs resident
// at once than fit; or, where no cluster fits, it is a deadlock.
TEST_CASE("splitk-dsm dispatch over tiles x splits x SMs x cluster room") {
  for (int64_t splits = 2; splits <= lw::kMaxClusterCtas; ++splits) {
    for (const int64_t tiles : {1, 3, 7, 16}) {
      for (const int64_t sms : {1, 2, 5, 8, 13, 24}) {
        for (const int64_t room : {0, 1, 3}) {
          CAPTURE(splits);
          CAPTURE(tiles);
          CAPTURE(sms);
          CAPTURE(room);
          const lw::Plan plan = row_plan("splitk-dsm", tiles, splits, sms);
          REQUIRE(plan.grid == tiles * splits);
          const int64_t fit = std::min(room > 0 ? room : sms / splits, sms / splits);
          const lw::SimResult r = run(plan, sms, room);
          if (fit < 1) {
            CHECK(r.deadlock);
            continue;
          }
          REQUIRE_FALSE(r.deadlock);
          std::map<int64_t, double> start;
          for (const lw::SegmentRecord& s : r.timeline) {
            CHECK(start.count(s.cta) == 0);
            start[s.cta] = s.t_start;
          }
          CHECK(static_cast<int64_t>(start.size()) == plan.grid);
          for (int64_t tile = 0; tile < tiles; ++tile) {
            for (int64_t split = 1; split < splits; ++split) {
              CHECK(start[tile + split * tiles] == start[tile]);
            }
          }
          // Waves of at most `fit` tiles, each kItersPerSplit k-tiles long (partials free).
          const int64_t waves = (tiles + std::min(fit, tiles) - 1) / std::min(fit, tiles);
          CHECK(r.makespan == doctest::Approx(static_cast<double>(waves * kItersPerSplit)));
        }
      }
    }
  }
}

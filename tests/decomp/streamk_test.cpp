// Paper Stream-K ("streamk[:G]"): even unit ranges (first total%G units one longer), forward walk,
// k=0 owner is Final and loads exactly the slots of the following units that cover its tile.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/walk.hpp"
#include "tests/decomp/plan_checker.hpp"

namespace {

lw::Planned plan(const std::string& name, int64_t m, int64_t n, int64_t k, int64_t sms = 132,
                 lw::Reduction red = lw::Reduction::Deterministic) {
  return lw::plan_schedule(name, lw::Problem{m, n, k}, lw::TileShape{128, 128, 64},
                           lw::GpuShape{sms, 1}, red);
}

// Unit ranges as the seed's stream_k_units builds them: q = total / units, the first
// total % units units get one more iteration, laid end to end.
std::vector<std::pair<int64_t, int64_t>> seed_bounds(int64_t total, int64_t units) {
  std::vector<std::pair<int64_t, int64_t>> b;
  int64_t it = 0;
  for (int64_t u = 0; u < units; ++u) {
    const int64_t len = total / units + (u < total % units ? 1 : 0);
    b.emplace_back(it, it + len);
    it += len;
  }
  return b;
}

}  // namespace

TEST_CASE("1536x1536x4096 on 132 SMs: 9216 iterations = 108 units of 70 + 24 units of 69") {
  const auto r = plan("streamk", 1536, 1536, 4096);
  const auto& p = r.plan;
  CHECK(r.choice == lw::Choice::StreamK);
  CHECK(p.split_mode == lw::SplitMode::EvenStream);
  CHECK(p.walk == lw::WalkOrder::Forward);
  CHECK(p.owner == lw::FixupOwner::FirstK);
  CHECK(p.storage == lw::FixupStorage::Slots);
  CHECK(p.grid == 132);
  CHECK(p.persistent);
  CHECK(p.split_units == 132);
  CHECK(p.split_tiles == 144);
  for (int64_t u = 0; u < 132; ++u) {
    const auto ur = lw::unit_range(p, u);
    CHECK(ur.end - ur.begin == (u < 108 ? 70 : 69));
  }
  CHECK(lw::unit_range(p, 107).begin == 7490);
  CHECK(lw::unit_range(p, 108).begin == 7560);
  CHECK(lw::unit_range(p, 131).end == 9216);

  // Unit 0: tile 0 whole, then owns k [0,6) of tile 1 and loads unit 1's slot.
  const auto c0 = lw_test::walk_cta(p, 0);
  REQUIRE(c0.size() == 2);
  CHECK(c0[0].tile == 0);
  CHECK(c0[0].role == lw::Role::Whole);
  CHECK(c0[1].tile == 1);
  CHECK(c0[1].k_begin == 0);
  CHECK(c0[1].k_end == 6);
  CHECK(c0[1].role == lw::Role::Final);
  CHECK(c0[1].slot == 1);
  CHECK(c0[1].load_slots == 1);
  CHECK(c0[1].wait_value == 1);
  // Unit 1: the rest of tile 1 to its own slot first, then owns k [0,12) of tile 2.
  const auto c1 = lw_test::walk_cta(p, 1);
  REQUIRE(c1.size() == 2);
  CHECK(c1[0].tile == 1);
  CHECK(c1[0].k_begin == 6);
  CHECK(c1[0].k_end == 64);
  CHECK(c1[0].role == lw::Role::StorePartial);
  CHECK(c1[0].slot == 1);
  CHECK(c1[0].signal == 1);
  CHECK(c1[1].tile == 2);
  CHECK(c1[1].k_end == 12);
  CHECK(c1[1].role == lw::Role::Final);
  CHECK(c1[1].slot == 2);
}

TEST_CASE("one tile, Kt = 64, streamk:7: unit 0 gets 10 iterations, units 1..6 get 9") {
  SUBCASE("deterministic: owner loads slots 1..6") {
    const auto p = plan("streamk:7", 128, 128, 4096).plan;
    CHECK(p.workspace_slots == 7);
    const auto c0 = lw_test::walk_cta(p, 0);
    REQUIRE(c0.size() == 1);
    CHECK(c0[0].k_begin == 0);
    CHECK(c0[0].k_end == 10);
    CHECK(c0[0].role == lw::Role::Final);
    CHECK(c0[0].slot == 1);
    CHECK(c0[0].load_slots == 6);
    for (int64_t u = 1; u < 7; ++u) {
      const auto cu = lw_test::walk_cta(p, u);
      REQUIRE(cu.size() == 1);
      CHECK(cu[0].k_begin == 10 + 9 * (u - 1));
      CHECK(cu[0].k_end == 19 + 9 * (u - 1));
      CHECK(cu[0].role == lw::Role::StorePartial);
      CHECK(cu[0].slot == u);
    }
  }
  SUBCASE("atomic: unit 1 initialises the tile's slot, 2..6 add, owner waits for 54 k-tiles") {
    const auto p = plan("streamk:7", 128, 128, 4096, 132, lw::Reduction::Atomic).plan;
    CHECK(p.storage == lw::FixupStorage::InPlaceAtomic);
    CHECK(p.workspace_slots == 1);
    const auto c0 = lw_test::walk_cta(p, 0);
    REQUIRE(c0.size() == 1);
    CHECK(c0[0].role == lw::Role::Final);
    CHECK(c0[0].slot == 0);
    CHECK(c0[0].load_slots == 1);
    CHECK(c0[0].wait_value == 54);
    for (int64_t u = 1; u < 7; ++u) {
      const auto cu = lw_test::walk_cta(p, u);
      REQUIRE(cu.size() == 1);
      CHECK(cu[0].role == (u == 1 ? lw::Role::StorePartial : lw::Role::Accumulate));
      CHECK(cu[0].signal == 9);
      CHECK(cu[0].wait_value == (u == 1 ? 0 : 1));
    }
  }
}

TEST_CASE("sweep: ranges match the seed, forward walk, k=0 owner loads exactly its peers' slots") {
  const int64_t mn[] = {1, 129, 300, 1000, 1536};
  const int64_t ks[] = {1, 65, 500, 4096};
  int64_t split_tiles_seen = 0;
  for (const char* name : {"streamk", "streamk:7"}) {
    for (int64_t sms : {8, 108, 132}) {
      for (int64_t m : mn) {
        for (int64_t n : mn) {
          for (int64_t k : ks) {
            const auto p = plan(name, m, n, k, sms).plan;
            CAPTURE(name);
            CAPTURE(sms);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            const int64_t kt = p.k_tiles, g = p.split_units;
            REQUIRE(g == (std::string(name) == "streamk" ? sms : 7));
            REQUIRE(p.grid == g);
            const auto b = seed_bounds(p.tiles * kt, g);
            std::vector<std::vector<lw::Segment>> segs(g);
            for (int64_t u = 0; u < g; ++u) {
              const auto ur = lw::unit_range(p, u);
              REQUIRE(ur.begin == b[u].first);
              REQUIRE(ur.end == b[u].second);
              segs[u] = lw_test::walk_cta(p, u);
              // Forward: segments tile the unit's range in increasing order.
              int64_t at = b[u].first;
              for (const auto& s : segs[u]) {
                REQUIRE(s.tile * kt + s.k_begin == at);
                at = s.tile * kt + s.k_end;
              }
              REQUIRE(at == b[u].second);
            }
            for (int64_t t = 0; t < p.tiles; ++t) {
              const int64_t lo = t * kt, hi = lo + kt;
              int64_t owner = 0;
              while (!(b[owner].first <= lo && lo < b[owner].second)) ++owner;
              if (b[owner].second >= hi) continue;  // whole tile inside one unit
              ++split_tiles_seen;
              int64_t peers = 0;
              for (int64_t u = owner + 1; u < g && b[u].first < hi; ++u) {
                if (b[u].first == b[u].second) continue;
                ++peers;
                // The peer's first segment is its piece of tile t, stored to slot u.
                REQUIRE(segs[u].front().tile == t);
                REQUIRE(segs[u].front().role == lw::Role::StorePartial);
                REQUIRE(segs[u].front().slot == u);
              }
              const auto& fin = segs[owner].back();  // the owner's last segment
              REQUIRE(fin.tile == t);
              REQUIRE(fin.k_begin == 0);
              REQUIRE(fin.role == lw::Role::Final);
              REQUIRE(fin.slot == owner + 1);
              REQUIRE(fin.load_slots == peers);
            }
          }
        }
      }
    }
  }
  CHECK(split_tiles_seen > 1000);
}

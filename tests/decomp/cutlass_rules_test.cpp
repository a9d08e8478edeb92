// CUTLASS SM90 rules (reference §1.3-1.7, §2.1-2.4) checked over sweeps: last-k owner, reverse
// walk, SK before DP, raster order, min split piece, heuristic mode choice, Kt<=8, split-count
// clamp.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
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

const int64_t kMN[] = {1, 100, 128, 129, 300, 1000, 1536, 3840, 4097};
const int64_t kK[] = {1, 63, 64, 65, 500, 1024, 4096, 16384};
const int64_t kSms[] = {8, 108, 132, 148};

}  // namespace

TEST_CASE("cutlass stream-K: last-k owner, reverse walk, SK unit before DP tiles, min piece 8") {
  int64_t sk_plans = 0, big_group_plans = 0, multi_group_plans = 0;
  for (const char* name : {"cutlass", "cutlass-streamk"}) {
    for (int64_t m : kMN) {
      for (int64_t n : kMN) {
        for (int64_t k : kK) {
          for (int64_t sms : kSms) {
            const auto r = plan(name, m, n, k, sms);
            const auto& p = r.plan;
            if (p.split_mode != lw::SplitMode::CutlassStream) continue;
            ++sk_plans;
            big_group_plans += p.big_groups > 0 ? 1 : 0;
            multi_group_plans += p.groups > 1 ? 1 : 0;
            CAPTURE(name);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(sms);
            REQUIRE(p.owner == lw::FixupOwner::LastK);
            REQUIRE(p.split_units <= p.grid);  // at most one SK unit per CTA
            for (int64_t c = 0; c < p.grid; ++c) {
              const auto segs = lw_test::walk_cta(p, c);
              bool seen_dp = false;
              int64_t dp_seen = 0;
              for (size_t i = 0; i < segs.size(); ++i) {
                const auto& s = segs[i];
                if (s.role == lw::Role::Final) REQUIRE(s.k_end == p.k_tiles);
                if (s.role == lw::Role::StorePartial) REQUIRE(s.k_begin == 0);
                const bool dp = s.work_id >= p.split_units;
                if (dp) {
                  // j-th DP id of CTA c is c + j*G past its SK unit (§2.1), and it runs tile
                  // sk_tiles + id - sk_units.
                  const int64_t id = (c < p.split_units ? c + p.grid : c) + dp_seen * p.grid;
                  REQUIRE(s.work_id == id);
                  REQUIRE(s.tile == p.split_tiles + id - p.split_units);
                  ++dp_seen;
                  seen_dp = true;
                } else {
                  REQUIRE_FALSE(seen_dp);  // the SK unit comes first
                  REQUIRE(s.work_id == c);
                  if (i > 0) REQUIRE(s.tile < segs[i - 1].tile);  // tiles descend within a unit
                  if (s.role != lw::Role::Whole && p.k_tiles >= 16) {
                    REQUIRE(lw::segment_iters(s) >= 8);
                  }
                  if (p.k_tiles < 16) REQUIRE(s.role == lw::Role::Whole);
                }
              }
            }
          }
        }
      }
    }
  }
  CHECK(sk_plans > 200);
  CHECK(multi_group_plans > 50);  // interleaved groups are exercised
  CHECK(big_group_plans > 0);     // and groups owning one extra tile
}

TEST_CASE("raster: AlongM iff tiles_n > tiles_m; AlongN is n-fastest, AlongM m-fastest") {
  for (int64_t m : kMN) {
    for (int64_t n : kMN) {
      const auto p = plan("cutlass", m, n, 4096).plan;
      const int64_t tm = (m + 127) / 128, tn = (n + 127) / 128;
      CAPTURE(m);
      CAPTURE(n);
      REQUIRE(p.tiles_m == tm);
      REQUIRE(p.tiles_n == tn);
      CHECK((p.raster == lw::Raster::AlongM) == (tn > tm));
      std::vector<int> seen(tm * tn, 0);
      for (int64_t t = 0; t < p.tiles; ++t) {
        const int64_t cm = lw::tile_coord_m(p, t), cn = lw::tile_coord_n(p, t);
        if (tn > tm) {
          REQUIRE(cm == t % tm);
          REQUIRE(cn == t / tm);
        } else {
          REQUIRE(cm == t / tn);
          REQUIRE(cn == t % tn);
        }
        ++seen[cm * tn + cn];
      }
      for (int v : seen) REQUIRE(v == 1);
    }
  }
  // Hand example: 3x8 tiles -> AlongM; tile 4 is (m 1, n 1).
  const auto p = plan("cutlass", 300, 1000, 4096).plan;
  CHECK(p.raster == lw::Raster::AlongM);
  CHECK(lw::tile_coord_m(p, 4) == 1);
  CHECK(lw::tile_coord_n(p, 4) == 1);
}

TEST_CASE("swizzle: every tile once under every band width; bands walked across, by hand") {
  for (int64_t m : kMN) {
    for (int64_t n : kMN) {
      auto p = plan("dp", m, n, 4096).plan;
      for (int32_t s = 1; s <= 9; ++s) {
        p.swizzle = s;
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(s);
        std::vector<int> seen(p.tiles, 0);
        for (int64_t t = 0; t < p.tiles; ++t) {
          ++seen[lw::tile_coord_m(p, t) * p.tiles_n + lw::tile_coord_n(p, t)];
        }
        for (int v : seen) REQUIRE(v == 1);
      }
    }
  }
  // 5 x 3 tiles (AlongN: n fastest when plain). Swizzle 2: bands of rows {0,1}, {2,3}, {4}, each
  // walked column by column: (0,0) (1,0) (0,1) (1,1) (0,2) (1,2) (2,0) (3,0) ... (4,0) (4,1) (4,2).
  auto p = plan("dp", 5 * 128, 3 * 128, 4096).plan;
  REQUIRE(p.raster == lw::Raster::AlongN);
  p.swizzle = 2;
  const int64_t want_m[] = {0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 4, 4, 4};
  const int64_t want_n[] = {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 1, 2};
  for (int64_t t = 0; t < 15; ++t) {
    CAPTURE(t);
    CHECK(lw::tile_coord_m(p, t) == want_m[t]);
    CHECK(lw::tile_coord_n(p, t) == want_n[t]);
  }
  // 2 x 5 tiles (AlongM: m fastest when plain). Swizzle 4: column bands {0..3}, {4}, each walked
  // row by row: (0,0) (0,1) (0,2) (0,3) (1,0) (1,1) (1,2) (1,3) (0,4) (1,4).
  p = plan("dp", 2 * 128, 5 * 128, 4096).plan;
  REQUIRE(p.raster == lw::Raster::AlongM);
  p.swizzle = 4;
  const int64_t want_m2[] = {0, 0, 0, 0, 1, 1, 1, 1, 0, 1};
  const int64_t want_n2[] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 4};
  for (int64_t t = 0; t < 10; ++t) {
    CAPTURE(t);
    CHECK(lw::tile_coord_m(p, t) == want_m2[t]);
    CHECK(lw::tile_coord_n(p, t) == want_n2[t]);
  }
}

TEST_CASE("heuristic: Stream-K/Split-K only when T % 132 in [1, 65] and Kt > 8") {
  for (int64_t t = 1; t <= 700; ++t) {
    CAPTURE(t);
    // T x 1 tiles, Kt = 64.
    const auto r = plan("cutlass", 128 * t, 128, 4096);
    const int64_t tail = t % 132;
    if (tail == 0 || tail >= 66) {
      CHECK(r.choice == lw::Choice::DataParallel);
      CHECK(r.plan.split_mode == lw::SplitMode::None);
      continue;
    }
    // Hand rule (§1.4/1.5): sk_tiles = T below one wave, else one wave + tail; units =
    // min(132, 64 * sk_tiles / 8); Split-K when units are a multiple of (and more than) sk_tiles.
    const int64_t sk_tiles = t < 132 ? t : 132 + tail;
    const int64_t units = std::min<int64_t>(132, 8 * sk_tiles);
    if (sk_tiles < units && units % sk_tiles == 0) {
      CHECK(r.choice == lw::Choice::SplitK);
      CHECK(r.splits == units / sk_tiles);
      CHECK(r.plan.splits == units / sk_tiles);
      CHECK(r.plan.split_mode == lw::SplitMode::FixedSplit);
    } else {
      CHECK(r.choice == lw::Choice::StreamK);
      CHECK(r.plan.split_tiles == sk_tiles);
      CHECK(r.plan.split_units == units);
    }
    // Kt <= 8 never splits.
    CHECK(plan("cutlass", 128 * t, 128, 512).choice == lw::Choice::DataParallel);
    CHECK(plan("cutlass", 128 * t, 128, 1).choice == lw::Choice::DataParallel);
  }
  // Spot values of the rule above: T <= 16 -> SplitK(s=8); 22/33/44 divide 132.
  CHECK(plan("cutlass", 128 * 16, 128, 4096).choice_label() == "SplitK(s=8)");
  CHECK(plan("cutlass", 128 * 33, 128, 4096).choice_label() == "SplitK(s=4)");
  CHECK(plan("cutlass", 128 * 17, 128, 4096).choice_label() == "StreamK");
  CHECK(plan("cutlass", 128 * 150, 128, 4096).plan.split_tiles == 150);  // tail 18
  CHECK(plan("cutlass", 128 * 300, 128, 4096).plan.split_tiles == 168);  // 300 - 132
}

TEST_CASE("cutlass-splitk:S clamps to min(S, sms, Kt); earlier splits are the big ones") {
  struct Case {
    const char* name;
    int64_t k, sms, splits;
  };
  const Case cases[] = {
      {"cutlass-splitk:3", 4096, 132, 3},       // unclamped
      {"cutlass-splitk:200", 16384, 132, 132},  // clamped by sms
      {"cutlass-splitk:50", 640, 132, 10},      // clamped by Kt = 10
      {"cutlass-splitk:7", 4096, 4, 4},         // clamped by sms = 4
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    for (auto red : {lw::Reduction::Deterministic, lw::Reduction::Atomic}) {
      const auto r = plan(c.name, 256, 256, c.k, c.sms, red);
      CHECK(r.choice == lw::Choice::SplitK);
      CHECK(r.splits == c.splits);
      CHECK(r.plan.splits == c.splits);
      CHECK(r.plan.split_units == 4 * c.splits);
      CHECK(r.plan.grid == c.sms);
      CHECK(r.plan.storage == (red == lw::Reduction::Deterministic
                                   ? lw::FixupStorage::InPlaceTurnstile
                                   : lw::FixupStorage::InPlaceAtomic));
      CHECK(lw_test::check_plan(r.plan, c.sms) == "");
    }
  }
  // Kt = 1: nothing to split -> data-parallel.
  const auto one = plan("cutlass-splitk:5", 256, 256, 64);
  CHECK(one.choice == lw::Choice::DataParallel);
  CHECK(one.plan.split_mode == lw::SplitMode::None);

  // 2x2 tiles, Kt = 64, S = 3: split-major ids, pieces 22, 21, 21. Work id 5 = split 1 of tile 1.
  const auto p = plan("cutlass-splitk:3", 256, 256, 4096).plan;
  const auto s1 = lw_test::walk_cta(p, 1), s5 = lw_test::walk_cta(p, 5),
             s9 = lw_test::walk_cta(p, 9);
  REQUIRE(s1.size() == 1);
  REQUIRE(s5.size() == 1);
  REQUIRE(s9.size() == 1);
  CHECK(s1[0].tile == 1);
  CHECK(s1[0].k_begin == 0);
  CHECK(s1[0].k_end == 22);
  CHECK(s1[0].role == lw::Role::StorePartial);
  CHECK(s5[0].tile == 1);
  CHECK(s5[0].k_begin == 22);
  CHECK(s5[0].k_end == 43);
  CHECK(s5[0].role == lw::Role::Accumulate);
  CHECK(s5[0].wait_value == 22);  // turnstile: lock == K_idx
  CHECK(s9[0].tile == 1);
  CHECK(s9[0].k_begin == 43);
  CHECK(s9[0].k_end == 64);
  CHECK(s9[0].role == lw::Role::Final);
  CHECK(s9[0].wait_value == 43);
}

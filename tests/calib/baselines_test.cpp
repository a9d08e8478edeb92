// The fitted baselines are fed what the calibrated model knows: tile MACs, row alignment
// (K % 64 != 0 in bf16; split 32-byte sectors at K % 16 != 0) and cluster size. Expected features
// are worked out by hand below.
#include "calib/baselines.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "calib/cases.hpp"
#include "gpu/gpu_spec.hpp"

namespace lw {

namespace {

// One data-parallel measurement on 132 SMs whose plan is a single (cluster) tile: grid 1.
Measurement one_tile(const Problem& p, const TileShape& t, const ClusterShape& c) {
  Measurement m;
  m.problem = p;
  m.sms = 132;
  m.schedule = "dp";
  m.reduction = "deterministic";
  m.grid = 1;
  m.tile = t;
  m.cluster = c;
  m.median_us = 10;
  m.file = "hand";
  return m;
}

// Feature order: a1 {1, [peers>1], W, peers-1, W*[misaligned], W*[clustered], S*[clustered],
// W*split, W*cluster_oob}; roofline + waves {1, T*t_iter, T*scale, T*scale*[misaligned],
// T*scale*[clustered], waves*[clustered], T*scale*split, T*scale*cluster_oob}.
constexpr size_t kA1Work = 2, kA1Misaligned = 4, kA1Clustered = 5, kA1ClusterSegments = 6,
                 kA1SplitSectors = 7, kA1ClusterOob = 8;
constexpr size_t kRwWork = 2, kRwMisaligned = 3, kRwClustered = 4, kRwClusterWaves = 5,
                 kRwSplitSectors = 6, kRwClusterOob = 7;

}  // namespace

TEST_CASE("baseline features carry tile MACs, row alignment and cluster size") {
  const std::vector<Measurement> ms = {
      // K = 4104 = 64 * 64 + 8: rows of 8208 bytes, 8208 % 128 = 16, misaligned; 65 k-tiles;
      // 8208 % 32 = 16: every other row starts inside a sector (1/2 extra sector per row).
      one_tile({128, 128, 4104}, {128, 128, 64}, {1, 1}),
      // K = 4096: rows of 8192 bytes, aligned; 64 k-tiles.
      one_tile({128, 128, 4096}, {128, 128, 64}, {1, 1}),
      // Tile 128x256x64 is twice the reference k-tile's MACs: 64 k-tiles count 128.
      one_tile({128, 256, 4096}, {128, 256, 64}, {1, 1}),
      // A 2x1 cluster of 128x128 CTA tiles: one cluster tile, each CTA 64 k-tiles.
      one_tile({256, 128, 4096}, {128, 128, 64}, {2, 1}),
      // The same cluster with N = 96: its shared B panel has 128 - 96 = 32 rows past N, a share
      // 32 / (128 + 128) = 0.125 of a CTA's operand rows.
      one_tile({256, 96, 4096}, {128, 128, 64}, {2, 1}),
  };
  const std::vector<FitCase> cases = build_cases(ms, TileShape{}, 1);
  const GpuSpec gpu = gpu_preset("h200");
  const double work[] = {65, 64, 128, 64, 64};
  const bool misaligned[] = {true, false, false, false, false};
  const bool clustered[] = {false, false, false, true, true};
  const double split_sectors[] = {0.5, 0, 0, 0, 0};
  const double cluster_oob[] = {0, 0, 0, 0, 0.125};
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    const std::vector<double> a1 = a1_features(cases[i]);
    REQUIRE(a1.size() == a1_terms().size());
    CHECK(a1[0] == 1.0);
    CHECK(a1[1] == 0.0);  // one contributor per tile
    CHECK(a1[3] == 0.0);
    CHECK(a1[kA1Work] == doctest::Approx(work[i]));
    CHECK(a1[kA1Misaligned] == doctest::Approx(misaligned[i] ? work[i] : 0.0));
    CHECK(a1[kA1Clustered] == doctest::Approx(clustered[i] ? work[i] : 0.0));
    // One segment (the whole tile) on the busiest slot; one wave of one unit.
    CHECK(a1[kA1ClusterSegments] == (clustered[i] ? 1.0 : 0.0));
    CHECK(a1[kA1SplitSectors] == doctest::Approx(work[i] * split_sectors[i]));
    CHECK(a1[kA1ClusterOob] == doctest::Approx(work[i] * cluster_oob[i]));
    const std::vector<double> rw = roofline_wave_features(cases[i], gpu);
    REQUIRE(rw.size() == roofline_wave_terms().size());
    CHECK(rw[kRwWork] == doctest::Approx(work[i]));
    CHECK(rw[kRwMisaligned] == doctest::Approx(misaligned[i] ? work[i] : 0.0));
    CHECK(rw[kRwClustered] == doctest::Approx(clustered[i] ? work[i] : 0.0));
    CHECK(rw[kRwClusterWaves] == (clustered[i] ? 1.0 : 0.0));
    CHECK(rw[kRwSplitSectors] == doctest::Approx(work[i] * split_sectors[i]));
    CHECK(rw[kRwClusterOob] == doctest::Approx(work[i] * cluster_oob[i]));
  }
}

TEST_CASE("a cluster takes as many SMs as it has CTAs: 3 cluster tiles on 2 SMs run in 3 waves") {
  // 768x128x4096 in 2x1 clusters of 128x128 CTA tiles: 3 cluster tiles (256x128) of 64 k-tiles
  // each; 2 SMs hold one cluster at a time, so one slot runs all 3 tiles: 3 segments, W = 192.
  Measurement m = one_tile({768, 128, 4096}, {128, 128, 64}, {2, 1});
  m.sms = 2;
  m.grid = 3;
  const std::vector<Measurement> ms = {m};  // the cases point into it: it outlives them
  const std::vector<FitCase> cases = build_cases(ms, TileShape{}, 1);
  REQUIRE(cases.size() == 1);
  const std::vector<double> a1 = a1_features(cases[0]);
  CHECK(a1[kA1Work] == doctest::Approx(192.0));
  CHECK(a1[kA1ClusterSegments] == 3.0);
  const std::vector<double> rw = roofline_wave_features(cases[0], gpu_preset("h200"));
  CHECK(rw[kRwWork] == doctest::Approx(192.0));
  CHECK(rw[kRwClusterWaves] == 3.0);
}

}  // namespace lw

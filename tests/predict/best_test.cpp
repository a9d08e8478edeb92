// `best`: the config search picks hand-derived winners, honours the tile filter, rejects tiles the
// kernels lack, and its early cut-off never changes the answer of an exhaustive search; shapes the
// simulator cannot take are refused (simulation_refusal).
#include "sim/predict/best.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/predict/predict.hpp"
#include "sim/util/atomic_file.hpp"

namespace {

const lw::GpuShape kH200{132, 1};

std::unique_ptr<lw::CostModel> unit() { return lw::make_model("unit", {}, lw::GpuSpec{}); }

std::vector<lw::TileShape> tiles(const std::string& list) { return lw::parse_kernel_tiles(list); }

const std::vector<lw::ClusterShape> k1x1 = {lw::ClusterShape{1, 1}};
const std::vector<lw::ClusterShape> kAllClusters(std::begin(lw::kKernelClusters),
                                                 std::end(lw::kKernelClusters));

}  // namespace

// 1408 x 1440 x 4096 on 132 SMs, unit model (MAC iteration = tile volume / 128x128x64, epilogue
// 2, 64 k-iterations per tile). A lower bound for any decomposition of a tile is (total MAC work
// + one epilogue per tile) / 132 SMs:
//   128x120: 11 x 12 = 132 tiles, 64 x 0.9375 = 60 per tile -> (132*60 + 132*2)/132 = 62, and dp
//            reaches it: one wave of 132 tiles, 60 + 2 = 62.
//   128x128: 11 x ceil(1440/128)=12 = 132 tiles x 64      -> 64 + 2 = 66
//   128x112: 11 x 13 = 143 tiles x 56                      -> (8008 + 286)/132 = 62.83
//   128x96:  11 x 15 = 165 tiles x 48                      -> (7920 + 330)/132 = 62.5
//   64x128:  22 x 12 = 264 tiles x 32                      -> (8448 + 528)/132 = 68
//   64x256:  22 x 6  = 132 tiles x 64                      -> 66
// so among these tiles only 128x120 can reach 62, with dp (the first decomposition) -> 62. A
// cluster only groups CTA tiles (the unit model costs a CTA tile the same in or out of one), so the
// bound holds for every cluster, and 1x1 comes first in the kernels' cluster order.
TEST_CASE("best picks the tile whose tile count fills exactly one wave") {
  const auto model = unit();
  const auto b = lw::choose_best(
      lw::Problem{1408, 1440, 4096}, kH200, lw::Reduction::Deterministic, *model,
      tiles("64x128x64,64x256x64,128x96x64,128x112x64,128x120x64,128x128x64"), kAllClusters);
  REQUIRE(b.found);
  CHECK(lw::tile_text(b.tile) == "128x120x64");
  CHECK(b.schedule == "dp");
  CHECK(b.makespan == doctest::Approx(62.0));
  CHECK(lw::cluster_text(b.cluster) == "1x1");
}

// With the search restricted to 128x128x64: 132 tiles in one wave, 64 + 2 = 66, the bound above.
TEST_CASE("the tile filter restricts the search") {
  const auto model = unit();
  const auto b = lw::choose_best(lw::Problem{1408, 1440, 4096}, kH200, lw::Reduction::Deterministic,
                                 *model, tiles("128x128x64"), k1x1);
  CHECK(lw::tile_text(b.tile) == "128x128x64");
  CHECK(b.makespan == doctest::Approx(66.0));
  CHECK(b.simulated <= static_cast<int64_t>(lw::best_decompositions().size()));
}

TEST_CASE("best tries the decompositions the brief names") {
  const std::vector<std::string> expected = {
      "dp",      "splitk:2", "splitk:3", "splitk:4",     "splitk:6",     "splitk:8",
      "streamk", "cutlass",  "two-tile", "splitk-dsm:2", "splitk-dsm:4", "splitk-dsm:8"};
  CHECK(lw::best_decompositions() == expected);
}

// splitk-dsm is a candidate only where the kernels have its form and the owner's shared memory
// holds the S - 1 partials. What ran and what the launcher refused for lack of shared memory on an
// H200 (configs/measurements/h200-r4/9514e10/dsm-small.csv.gz): 16x64 ran 8 splits, 64x64 ran 4
// and 5 but not 6, 16x128 ran 7 but not 8, 32x128 ran 3 but not 4, 64x96 ran 2 but not 3.
TEST_CASE("best offers splitk-dsm only on the configs the kernels run it on") {
  const lw::ClusterShape flat{1, 1}, pair{2, 1};
  const auto runs = [&](int64_t splits, int64_t m, int64_t n) {
    return lw::kernel_runs_decomposition("splitk-dsm:" + std::to_string(splits),
                                         lw::TileShape{m, n, 64}, flat);
  };
  CHECK(runs(8, 16, 64));
  CHECK(runs(4, 64, 64));
  CHECK_FALSE(runs(8, 64, 64));
  CHECK_FALSE(runs(8, 16, 128));
  CHECK(runs(2, 32, 128));
  CHECK_FALSE(runs(4, 32, 128));
  CHECK(runs(2, 64, 96));
  CHECK_FALSE(runs(4, 64, 96));
  CHECK_FALSE(runs(2, 128, 128));  // no form: the ring fills the shared memory
  CHECK_FALSE(lw::kernel_runs_decomposition("splitk-dsm:2", lw::TileShape{64, 64, 64}, pair));
  CHECK(lw::kernel_runs_decomposition("splitk:8", lw::TileShape{128, 128, 64}, pair));
  // A skinny shape whose 64x64 split-K grid fits the resident clusters: the pick under the unit
  // model never is a dsm plan on a tile without its form.
  lw::Simulator sim;
  const auto unit = lw::make_model("unit", {}, lw::GpuSpec{});
  const auto ranked = lw::rank_best(lw::Problem{64, 512, 8192}, kH200, lw::Reduction::Deterministic,
                                    *unit, tiles("all"), k1x1, 40, sim);
  for (const lw::BestChoice& b : ranked) {
    INFO(b.schedule, " ", lw::tile_text(b.tile));
    if (b.schedule.rfind("splitk-dsm", 0) == 0) {
      CHECK(lw::kernel_has_cluster_reduce(b.tile, b.cluster));
    }
  }
}

TEST_CASE("tile lists: kernel tiles only, one-line errors") {
  CHECK(tiles("all").size() == static_cast<size_t>(lw::kKernelTileCount));
  CHECK(tiles("128x256x64,64x128x64").size() == 2);
  try {
    tiles("100x100x64");
    FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    CHECK(msg.find("tile 100x100x64 is not one the kernels have (16x64x64,") == 0);
    CHECK(msg.find('\n') == std::string::npos);
  }
  CHECK_THROWS_WITH_AS(tiles("128x"), "bad tile '128x'", std::invalid_argument);
  CHECK_THROWS_AS(tiles("128x128x64,"), std::invalid_argument);
  CHECK_THROWS_AS(tiles("axbxc"), std::invalid_argument);
  CHECK_THROWS_AS(tiles("128x128x64x1"), std::invalid_argument);
}

// 8 k-iterations of a 128x256x64 tile cost 2 each (twice the 128x128x64 volume); 128x128x64 is 1.
TEST_CASE("the unit model's MAC iteration scales with the tile volume") {
  const auto model = unit();
  lw::Segment s;
  s.k_begin = 0;
  s.k_end = 8;
  const lw::Plan big = lw::plan_geometry(lw::Problem{1024, 1024, 512}, {128, 256, 64}, kH200);
  const lw::Plan seed = lw::plan_geometry(lw::Problem{1024, 1024, 512}, {128, 128, 64}, kH200);
  CHECK(lw::mac_time(*model, big, s, lw::CostContext{}) == doctest::Approx(16.0));
  CHECK(lw::mac_time(*model, seed, s, lw::CostContext{}) == doctest::Approx(8.0));
}

TEST_CASE("a model without parameters for a tile or cluster says so in one line") {
  const auto cal = lw::make_model("calibrated", {}, lw::GpuSpec{});
  CHECK(cal->config_error({128, 256, 64}, {1, 1}).empty());
  const std::string k32 = cal->config_error({128, 128, 32}, {1, 1});
  CHECK(k32.find("k step 32") != std::string::npos);
  // Multicast clusters are costed (per-CTA traffic); a cluster the kernels lack is refused.
  CHECK(cal->config_error({128, 128, 64}, {2, 1}).empty());
  CHECK(cal->config_error({128, 128, 64}, {1, 2}).empty());
  CHECK(cal->config_error({128, 128, 64}, {2, 2}).empty());
  CHECK(!cal->config_error({128, 128, 64}, {8, 1}).empty());
  CHECK(unit()->config_error({128, 128, 64}, {2, 1}).empty());
  CHECK(cal->config_error({64, 96, 64}, {4, 2}).empty());
  CHECK(cal->config_error({128, 256, 64}, {2, 4}).empty());
  const auto clusters = lw::model_clusters(*cal);
  REQUIRE(clusters.size() == 8);
  CHECK(lw::cluster_text(clusters[1]) == "2x1");
  CHECK(lw::cluster_text(clusters[3]) == "2x2");
  CHECK(lw::cluster_text(clusters[4]) == "4x2");
  CHECK(lw::cluster_text(clusters[5]) == "2x4");
  CHECK(lw::cluster_text(clusters[6]) == "4x1");
  CHECK(lw::cluster_text(clusters[7]) == "1x4");
}

TEST_CASE("a model file that lists its measured clusters refuses the others, and best skips them") {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/fitted-clusters.json";
  lw::write_file_atomically(path,
                            R"({"model": "calibrated", "params": {}, "clusters": ["1x1", "2x1"]})");
  const auto cal = lw::make_model_from_file(path, {}, lw::gpu_preset("h200"));
  CHECK(cal->config_error({128, 128, 64}, {2, 1}).empty());
  CHECK(cal->config_error({128, 128, 64}, {1, 2}) ==
        "the calibrated model was fitted on clusters 1x1, 2x1 only: no measurement of cluster 1x2 "
        "(calibrate on measurements that include it)");
  const auto clusters = lw::model_clusters(*cal);
  REQUIRE(clusters.size() == 2);
  CHECK(lw::cluster_text(clusters[0]) == "1x1");
  CHECK(lw::cluster_text(clusters[1]) == "2x1");
  // Listed beside measured ones, an unmeasured cluster is skipped, and uncostable_configs() says
  // so; asked for alone, it is a one-line error, not a silent prediction.
  const std::vector<lw::ClusterShape> mixed = {lw::ClusterShape{1, 2}, lw::ClusterShape{1, 1}};
  const auto b = lw::choose_best(lw::Problem{4096, 4096, 4096}, kH200, lw::Reduction::Deterministic,
                                 *cal, tiles("128x128x64"), mixed);
  REQUIRE(b.found);
  CHECK(lw::cluster_text(b.cluster) == "1x1");
  const auto skipped = lw::uncostable_configs(*cal, tiles("128x128x64"), mixed);
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0] ==
        "tile 128x128x64 cluster 1x2: the calibrated model was fitted on clusters 1x1, 2x1 only: "
        "no measurement of cluster 1x2 (calibrate on measurements that include it)");
  CHECK_THROWS_AS(
      lw::choose_best(lw::Problem{4096, 4096, 4096}, kH200, lw::Reduction::Deterministic, *cal,
                      tiles("128x128x64"), {lw::ClusterShape{1, 2}}),
      std::invalid_argument);
}

TEST_CASE("a calibrated model searches the tiles it was fitted on: its file's list, else the 14") {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/";
  // A file from before calibrate recorded "tiles" (r3-r17): the 14 tiles the kernels had then,
  // 64x128x64 first; the narrow tiles are refused in one line and left out of best's search.
  lw::write_file_atomically(dir + "legacy.json", R"({"model": "calibrated", "params": {}})");
  const auto legacy = lw::make_model_from_file(dir + "legacy.json", {}, lw::gpu_preset("h200"));
  const auto legacy_tiles = lw::model_tiles(*legacy);
  REQUIRE(legacy_tiles.size() == 14);
  CHECK(lw::tile_text(legacy_tiles.front()) == "64x128x64");
  CHECK(lw::tile_text(legacy_tiles.back()) == "256x128x64");
  CHECK(legacy->config_error({64, 32, 64}, {1, 1}).find("no measurement of tile 64x32x64") !=
        std::string::npos);
  CHECK(legacy->config_error({128, 64, 64}, {1, 1}).find("no measurement of tile 128x64x64") !=
        std::string::npos);
  // A file that lists its tiles: exactly those.
  lw::write_file_atomically(dir + "listed.json",
                            R"({"model": "calibrated", "params": {}, "tiles": ["64x32x64",
                                "128x128x64"]})");
  const auto listed = lw::make_model_from_file(dir + "listed.json", {}, lw::gpu_preset("h200"));
  const auto listed_tiles = lw::model_tiles(*listed);
  REQUIRE(listed_tiles.size() == 2);
  CHECK(lw::tile_text(listed_tiles[0]) == "64x32x64");
  CHECK(listed->config_error({64, 128, 64}, {1, 1}) ==
        "the calibrated model was fitted on tiles 64x32x64, 128x128x64 only: no measurement of "
        "tile 64x128x64 (calibrate on measurements that include it)");
  // The unit model takes every kernel tile, the narrow ones included.
  const auto all = lw::model_tiles(*unit());
  CHECK(all.size() == static_cast<size_t>(lw::kKernelTileCount));
  CHECK(lw::tile_text(all.front()) == "16x64x64");
}

// 16 x 64 x 64 on 132 SMs under the unit model: one k-tile, a MAC iteration costs the tile's volume
// relative to 128x128x64, the epilogue 2. 64x128: one tile, 0.5 + 2 = 2.5; 64x64: one tile,
// 0.25 + 2 = 2.25; 64x32: two tiles side by side, 0.125 + 2 = 2.125; the swapped 16x64: one tile,
// 0.0625 + 2 = 2.0625, the least (64x16's four tiles side by side tie with it; the list's first
// wins). A legacy calibrated file never gets that far: its search has none of these.
TEST_CASE("best under the unit model may pick a narrow tile, under a legacy calibrated file not") {
  const auto b = lw::choose_best(lw::Problem{16, 64, 64}, kH200, lw::Reduction::Deterministic,
                                 *unit(), lw::model_tiles(*unit()), kAllClusters);
  REQUIRE(b.found);
  CHECK(lw::tile_text(b.tile) == "16x64x64");
  CHECK(b.makespan == doctest::Approx(2.0625));
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/legacy-best.json";
  lw::write_file_atomically(path, R"({"model": "calibrated", "params": {}})");
  const auto cal = lw::make_model_from_file(path, {}, lw::gpu_preset("h200"));
  const auto c = lw::choose_best(lw::Problem{16, 64, 64}, kH200, lw::Reduction::Deterministic, *cal,
                                 lw::model_tiles(*cal), lw::model_clusters(*cal));
  REQUIRE(c.found);
  // None of the tiles after the legacy list: 16x64 ... 128x64, the list's first 8.
  CHECK(lw::kernel_tile_index(c.tile) >= 8);
}

// On one SM no 2-CTA cluster is resident (the kernels refuse such a launch): best searches the 1x1
// configs only, and a search of 2x1 alone says so in one line. 256 x 256 x 256 on 1 SM under the
// unit model, tile 128x128x64: 4 tiles of 4 iterations + epilogue 2 run one after another, so dp
// takes 4 x (4 + 2) = 24; splitting adds fixups, Stream-K with one unit is dp.
TEST_CASE("best skips clusters that do not fit on the GPU") {
  const auto model = unit();
  const lw::GpuShape one_sm{1, 1};
  const lw::BestChoice b =
      lw::choose_best(lw::Problem{256, 256, 256}, one_sm, lw::Reduction::Deterministic, *model,
                      tiles("128x128x64"), kAllClusters);
  CHECK(lw::cluster_text(b.cluster) == "1x1");
  CHECK(b.makespan == doctest::Approx(24.0));
  CHECK(lw::resident_clusters(one_sm, lw::ClusterShape{2, 1}) == 0);
  CHECK(lw::resident_clusters(kH200, lw::ClusterShape{2, 1}) == 66);
  CHECK_THROWS_WITH_AS(
      lw::choose_best(lw::Problem{256, 256, 256}, one_sm, lw::Reduction::Deterministic, *model,
                      tiles("128x128x64"), {lw::ClusterShape{2, 1}}),
      "best: none of these configs runs here (the kernels lack them, the cost model cannot cost "
      "them, or their clusters need more than 1 SMs)",
      std::invalid_argument);
}

// 2x1 clusters of 128x128 on 132 SMs: 66 cluster slots. 4096 x 4096 x 4096 under the unit model
// is 16 x 32 = 512 cluster tiles of 64 iterations + epilogue 2: dp runs ceil(512/66) = 8 waves of
// 66 -> 8 x 66 = 528, the same as 1x1 (1024 tiles, 8 waves of 132).
TEST_CASE("a cluster plan is simulated on cluster slots") {
  const auto model = unit();
  const lw::Problem p{4096, 4096, 4096};
  const auto b = lw::choose_best(p, kH200, lw::Reduction::Deterministic, *model,
                                 tiles("128x128x64"), {lw::ClusterShape{2, 1}});
  const auto opt = lw::sim_options_for(kH200, lw::ClusterShape{2, 1});
  CHECK(opt.sms == 66);
  CHECK(opt.cluster_size == 2);
  lw::Simulator sim;
  const auto plan = lw::plan_schedule("dp", p, {128, 128, 64}, kH200, lw::Reduction::Deterministic,
                                      lw::ClusterShape{2, 1})
                        .plan;
  CHECK(sim.run(plan, *model, opt).makespan == doctest::Approx(528.0));
  CHECK(b.makespan <= 528.0);
  CHECK(lw::cluster_text(b.cluster) == "2x1");
}

// Every (kernel tile, decomposition) in 1x1 clusters that the model can cost simulated to the end,
// a plan that two decompositions of one tile produce listed once under the earlier name, in
// (makespan, tile, decomposition) order: the ranking rank_best must reproduce.
struct Listed {
  double makespan;
  size_t index;  // tile x decompositions + decomposition: the canonical order
  std::string schedule, tile;
  lw::Plan plan;
};

static std::vector<Listed> exhaustive_ranking(const lw::Problem& p, const lw::CostModel& model,
                                              lw::Simulator& sim) {
  const auto all = tiles("all");
  const auto& names = lw::best_decompositions();
  std::vector<Listed> listed;
  for (size_t t = 0; t < all.size(); ++t) {
    if (!model.config_error(all[t], lw::ClusterShape{1, 1}).empty()) continue;  // e.g. 128 deep
    for (size_t d = 0; d < names.size(); ++d) {
      if (!lw::kernel_runs_decomposition(names[d], all[t], lw::ClusterShape{1, 1})) continue;
      const auto plan =
          lw::plan_schedule(names[d], p, all[t], kH200, lw::Reduction::Deterministic).plan;
      const auto& r = sim.run(plan, model, lw::sim_options_for(kH200, plan));
      const bool again = std::any_of(listed.begin(), listed.end(), [&](const Listed& l) {
        return l.index / names.size() == t && lw::same_plan(l.plan, plan);
      });
      if (!r.deadlock && !again) {
        listed.push_back(
            Listed{r.makespan, t * names.size() + d, names[d], lw::tile_text(all[t]), plan});
      }
    }
  }
  std::sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
    return a.makespan != b.makespan ? a.makespan < b.makespan : a.index < b.index;
  });
  return listed;
}

// choose_best's makespan is the least over every candidate; rank_best's first `kRanked` entries
// are the exhaustive ranking's, name for name.
static void exhaustive_check(const lw::CostModel& model) {
  constexpr size_t kRanked = 6;
  const auto all = tiles("all");
  lw::Simulator sim;
  for (const lw::Problem p :
       {lw::Problem{128, 4096, 4096}, lw::Problem{1536, 1536, 4096}, lw::Problem{3000, 700, 9000},
        lw::Problem{64, 64, 65536}, lw::Problem{4096, 4096, 8192}}) {
    INFO(p.m, "x", p.n, "x", p.k);
    const std::vector<Listed> expected = exhaustive_ranking(p, model, sim);
    const auto b = lw::choose_best(p, kH200, lw::Reduction::Deterministic, model, all, k1x1, sim);
    CHECK(b.makespan == expected.front().makespan);
    const auto ranked =
        lw::rank_best(p, kH200, lw::Reduction::Deterministic, model, all, k1x1, kRanked, sim);
    REQUIRE(ranked.size() == kRanked);
    for (size_t i = 0; i < kRanked; ++i) {
      INFO("rank ", i + 1);
      CHECK(ranked[i].makespan == expected[i].makespan);
      CHECK(ranked[i].schedule == expected[i].schedule);
      CHECK(lw::tile_text(ranked[i].tile) == expected[i].tile);
    }
    CHECK(ranked.front().schedule == b.schedule);
  }
}

// The cut-off, the try-first order, the de-duplication of identical plans and the split-K lower
// bound are exact: same makespan as simulating every candidate, under each kind of model.
TEST_CASE("choose_best equals an exhaustive search") {
  const lw::GpuSpec gpu = lw::gpu_preset("h200");
  for (const char* name : {"roofline", "calibrated", "unit"}) {
    INFO(name);
    const auto model = lw::make_model(name, {}, gpu);
    exhaustive_check(*model);
  }
}

// With residual trees the factor differs per plan (split plans x e^-1, so that a split-K plan
// physically slower than the best found can still win; short k loops x e^-0.1, long ones
// x e^0.15): the cut-off and the split-K lower bound compare scaled times, so the search stays
// exact.
TEST_CASE("choose_best equals an exhaustive search under residual trees") {
  const auto model = lw::make_model("calibrated", {}, lw::gpu_preset("h200"));
  const auto at = [](const char* name) {
    const auto& names = lw::residual_feature_names();
    for (size_t i = 0; i < names.size(); ++i) {
      if (std::string(names[i]) == name) return static_cast<int32_t>(i);
    }
    return int32_t{-1};
  };
  const lw::ResidualTree split{
      {at("split_mode"), -1, -1}, {1, -1, -1}, {2, -1, -1}, {0.5f, 0, 0}, {0, 0.0, -1.0}};
  const lw::ResidualTree loop{
      {at("k_tiles"), -1, -1}, {1, -1, -1}, {2, -1, -1}, {100.0f, 0, 0}, {0, -0.1, 0.15}};
  model->set_residual_trees(
      std::make_shared<const lw::ResidualTrees>(0.0, std::vector{split, loop}));
  exhaustive_check(*model);
}

// 1408 x 1440 x 4096 on 128x128x64 (unit model, the hand-derived 66 above): dp fills one wave
// exactly, and `two-tile` plans it data-parallel too (the same plan: listed once, as dp), where
// `cutlass` plans a persistent data-parallel grid (another plan, listed); a request for more plans
// than the nine decompositions make gives each distinct plan once, in time order.
TEST_CASE("rank_best lists each distinct plan once, fastest first") {
  const auto model = unit();
  const lw::Problem p{1408, 1440, 4096};
  lw::Simulator sim;
  const auto ranked = lw::rank_best(p, kH200, lw::Reduction::Deterministic, *model,
                                    tiles("128x128x64"), k1x1, 100, sim);
  REQUIRE(!ranked.empty());
  CHECK(ranked.size() < lw::best_decompositions().size());
  CHECK(ranked[0].schedule == "dp");
  CHECK(ranked[0].makespan == doctest::Approx(66.0));
  bool cutlass_listed = false;
  for (size_t i = 0; i < ranked.size(); ++i) {
    CHECK(ranked[i].schedule != "two-tile");
    cutlass_listed = cutlass_listed || ranked[i].schedule == "cutlass";
    if (i > 0) CHECK(ranked[i - 1].makespan <= ranked[i].makespan);
  }
  CHECK(cutlass_listed);
  CHECK_THROWS_AS(lw::rank_best(p, kH200, lw::Reduction::Deterministic, *model, tiles("128x128x64"),
                                k1x1, 0, sim),
                  std::invalid_argument);
}

// The bounds that prune (least simulated time x the plan's makespan factor, candidates in order of
// it) and the factors asked a config at a time, under the landed fitted model (r17: 600 residual
// trees, 2 clusters): rank_best lists what simulating every candidate to its end lists, entry for
// entry and to the bit, at the top 1 and 5 and on 132 and 64 SMs, shapes skinny to large.
TEST_CASE("rank_best equals the exhaustive ranking under the fitted r17 model") {
  const lw::GpuSpec h200 = lw::gpu_preset("h200");
  const auto model = lw::make_model_from_file("configs/models/h200-bf16-wgmma-r17.json", {}, h200);
  const auto model_tiles = lw::model_tiles(*model);
  const auto model_clusters = lw::model_clusters(*model);
  REQUIRE(model_clusters.size() == 2);
  lw::Simulator sim;
  for (const int64_t sms : {132, 64}) {
    const lw::GpuShape gpu{sms, 1};
    for (const lw::Problem p :
         {lw::Problem{16, 8192, 4096}, lw::Problem{128, 4096, 4096}, lw::Problem{1536, 1536, 4096},
          lw::Problem{3000, 704, 9000}, lw::Problem{4096, 4096, 4104}, lw::Problem{8192, 8192, 64},
          lw::Problem{300, 5000, 1032}, lw::Problem{2048, 256, 16384}}) {
      for (const size_t top : {size_t{1}, size_t{5}}) {
        INFO(p.m, "x", p.n, "x", p.k, " on ", sms, " SMs, top ", top);
        const auto pruned = lw::rank_best(p, gpu, lw::Reduction::Deterministic, *model, model_tiles,
                                          model_clusters, top, sim);
        const auto all = lw::rank_best_exhaustive(p, gpu, lw::Reduction::Deterministic, *model,
                                                  model_tiles, model_clusters, top, sim);
        REQUIRE(pruned.size() == all.size());
        CHECK(pruned.front().simulated < all.front().simulated);  // the bounds pruned some
        for (size_t i = 0; i < all.size(); ++i) {
          INFO("rank ", i + 1);
          CHECK(pruned[i].makespan == all[i].makespan);
          CHECK(pruned[i].schedule == all[i].schedule);
          CHECK(lw::tile_text(pruned[i].tile) == lw::tile_text(all[i].tile));
          CHECK(lw::cluster_text(pruned[i].cluster) == lw::cluster_text(all[i].cluster));
        }
      }
    }
  }
}

TEST_CASE("a shape the simulator cannot take on some tiles: best searches the others") {
  // 300000^2 outputs: 18750 x 4688 = 87,900,000 tiles of 16x64 (beyond 2^26 = 67,108,864),
  // 2344 x 2344 = 5,494,336 of 128x128.
  const lw::Problem huge{300000, 300000, 64};
  const std::string narrow = lw::simulation_refusal(huge, {16, 64, 64}, kH200);
  CHECK(narrow ==
        "the plan has 87900000 tiles of 16x64x64; the simulator takes at most 67108864 (2^26)");
  CHECK(lw::simulation_refusal(huge, {128, 128, 64}, kH200).empty());
  // Past the planners' limits the reason is theirs.
  CHECK(lw::simulation_refusal({1000000000000, 16, 16}, {128, 128, 64}, kH200) ==
        "problem has more than 2^31 (tile, k) iterations");
  // best over 16x64 only has nothing left to search: one refused row naming the tile.
  const auto model = unit();
  lw::PredictSetup setup;
  setup.gpu = kH200;
  setup.model = model.get();
  setup.best_tiles = tiles("16x64x64");
  setup.best_clusters = k1x1;
  lw::Simulator sim;
  const lw::PredictRow row = lw::predict(huge, "best", setup, sim);
  CHECK(row.refused == "tile 16x64x64: " + narrow);
  CHECK(row.makespan == 0);
  const auto ranked = lw::predict_ranked(huge, 3, setup, sim);
  REQUIRE(ranked.size() == 1);
  CHECK(ranked[0].refused == row.refused);
  CHECK(ranked[0].rank == 0);
}

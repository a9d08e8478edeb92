// Residual trees (models/residual): a plan's features by hand, tree walks by hand, malformed trees
// refused in one line, the JSON form round-trips, and the simulator and `best` apply the factor.
#include "models/residual/residual_trees.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/predict/best.hpp"

namespace {

const lw::GpuShape kH200{132, 1};

size_t index_of(const std::string& name) {
  const auto& names = lw::residual_feature_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  FAIL("no feature " << name);
  return 0;
}

int32_t feat(const std::string& name) { return static_cast<int32_t>(index_of(name)); }

// Root: k < 512 -> leaf 0.1; else sms < 100 -> leaf -0.2, else leaf 0.3.
lw::ResidualTree k_then_sms() {
  return {{feat("k"), -1, feat("sms"), -1, -1},
          {1, -1, 3, -1, -1},
          {2, -1, 4, -1, -1},
          {512.0f, 0, 100.0f, 0, 0},
          {0, 0.1, 0, -0.2, 0.3}};
}

// One leaf: every plan's makespan times e^value.
lw::ResidualTree constant(double value) { return {{-1}, {-1}, {-1}, {0}, {value}}; }

lw::ResidualFeatures with(double k, double sms) {
  lw::ResidualFeatures x{};
  x[index_of("k")] = static_cast<float>(k);
  x[index_of("sms")] = static_cast<float>(sms);
  return x;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// 1000 x 1000 x 1000 dp on 128x128x64: 8 x 8 = 64 tiles of 16 k-tiles, 64 CTAs; 1000 = 8 x 125
// is 8-element aligned; 64 / 132 = 0.4848 waves.
TEST_CASE("a dp plan's features, by hand") {
  const lw::Plan p = lw::plan_schedule("dp", lw::Problem{1000, 1000, 1000}, lw::TileShape{}, kH200,
                                       lw::Reduction::Deterministic)
                         .plan;
  const lw::ResidualFeatures x = lw::residual_features(p, 132, 250.0);
  CHECK(x[index_of("m")] == 1000.0f);
  CHECK(x[index_of("tile_n")] == 128.0f);
  CHECK(x[index_of("cluster_ctas")] == 1.0f);
  CHECK(x[index_of("k_align")] == 8.0f);
  CHECK(x[index_of("n_align")] == 8.0f);
  CHECK(x[index_of("cta_tiles")] == 64.0f);
  CHECK(x[index_of("k_tiles")] == 16.0f);
  CHECK(x[index_of("grid_ctas")] == 64.0f);
  CHECK(x[index_of("waves")] == doctest::Approx(64.0 / 132));
  CHECK(x[index_of("wave_fraction")] == doctest::Approx(64.0 / 132));
  CHECK(x[index_of("split_mode")] == 0.0f);
  CHECK(x[index_of("dp_tiles")] == 64.0f);
  CHECK(x[index_of("separate_reduction")] == 0.0f);
  // An ideal makespan of 250 us: ln 250, and 2 x 10^9 FLOP / 250 us = 8 TFLOP/s.
  CHECK(x[index_of("log_ideal")] == doctest::Approx(std::log(250.0)));
  CHECK(x[index_of("ideal_flop_rate")] == doctest::Approx(8.0));
  const lw::ResidualFeatures none = lw::residual_features(p, 132, 0.0);  // no ideal: both 0
  CHECK(none[index_of("log_ideal")] == 0.0f);
  CHECK(none[index_of("ideal_flop_rate")] == 0.0f);
}

// splitk:4 of 4096 x 4096 x 4096 on 256x128 tiles in 2x1 clusters: 16 x 32 = 512 CTA tiles, 64
// k-tiles, K aligned to 128 elements; every tile split four ways.
TEST_CASE("a clustered split-K plan's features count CTAs") {
  const lw::Plan p =
      lw::plan_schedule("splitk:4", lw::Problem{4096, 4096, 4096}, lw::TileShape{128, 256, 64},
                        kH200, lw::Reduction::Deterministic, lw::ClusterShape{2, 1})
          .plan;
  const lw::ResidualFeatures x = lw::residual_features(p, 132, 1.0);
  CHECK(x[index_of("cluster_ctas")] == 2.0f);
  CHECK(x[index_of("cta_tiles")] == 512.0f);
  CHECK(x[index_of("k_align")] == 128.0f);
  CHECK(x[index_of("splits")] == 4.0f);
  CHECK(x[index_of("split_tiles")] == 512.0f);
  CHECK(x[index_of("split_units")] == 2048.0f);
  CHECK(x[index_of("dp_tiles")] == 0.0f);
  CHECK(x[index_of("waves")] == doctest::Approx(512.0 / 132));
}

TEST_CASE("a tree sends x < threshold left, else right, and adds the base") {
  const lw::ResidualTrees t(0.05, {k_then_sms()});
  CHECK(t.log_factor(with(511, 132)) == doctest::Approx(0.15));
  CHECK(t.log_factor(with(512, 132)) == doctest::Approx(0.35));  // equal goes right
  CHECK(t.log_factor(with(4096, 99)) == doctest::Approx(-0.15));
  const lw::ResidualTrees two(0.0, {k_then_sms(), constant(1.0)});
  CHECK(two.log_factor(with(100, 16)) == doctest::Approx(1.1));
  CHECK(two.size() == 2);
  CHECK(two.nodes() == 6);
}

// A chain of `depth` tests on k: node 2j asks k < j + 1 (left: leaf of value 10 * tree + j), the
// last node is the leaf 10 * tree + depth. k = 2.5 stops at the third test (j = 2) if there is one.
lw::ResidualTree chain(int tree, int depth) {
  lw::ResidualTree t;
  for (int j = 0; j < depth; ++j) {
    t.feature.insert(t.feature.end(), {feat("k"), -1});
    t.left.insert(t.left.end(), {2 * j + 1, -1});
    t.right.insert(t.right.end(), {2 * j + 2, -1});
    t.threshold.insert(t.threshold.end(), {static_cast<float>(j + 1), 0.0f});
    t.value.insert(t.value.end(), {0.0, 10.0 * tree + j});
  }
  t.feature.push_back(-1);
  t.left.push_back(-1);
  t.right.push_back(-1);
  t.threshold.push_back(0.0f);
  t.value.push_back(10.0 * tree + depth);
  return t;
}

TEST_CASE("many trees of different depths: every tree's leaf counts once") {
  // 0 to 21 trees (the walk takes several at once): depths 0..6, so walks end at different steps.
  for (int count = 0; count <= 21; ++count) {
    std::vector<lw::ResidualTree> trees;
    double expected = 0.5;  // the base
    for (int t = 0; t < count; ++t) {
      const int depth = t % 7;
      trees.push_back(chain(t, depth));
      expected += 10.0 * t + std::min(depth, 2);  // k = 2.5 goes left at the test k < 3
    }
    const lw::ResidualTrees all(0.5, trees);
    CHECK_MESSAGE(all.log_factor(with(2.5, 132)) == expected, count << " trees");
  }
}

TEST_CASE("the leaves are added in tree order, as one walk at a time adds them") {
  // Values whose sum depends on the order of the additions (more trees than are walked at once).
  const lw::ResidualTrees t(
      0.0, {constant(1e16), chain(0, 0), constant(1.0), constant(1.0), constant(-1e16),
            constant(0.25), constant(0.25), constant(0.25), constant(0.25), constant(0.25)});
  double in_order = 0.0;
  for (const double v : {1e16, 0.0, 1.0, 1.0, -1e16, 0.25, 0.25, 0.25, 0.25, 0.25}) in_order += v;
  // 1e16 + 1 rounds back to 1e16 (twice), so the ones vanish: 1.25; the ones added first: 3.25.
  CHECK(in_order == 1.25);
  CHECK(t.log_factor(with(1, 1)) == in_order);
}

TEST_CASE("malformed trees are refused in one line") {
  lw::ResidualTree back = k_then_sms();
  back.left[2] = 1;  // a child before its parent could loop
  lw::ResidualTree bad_feature = k_then_sms();
  bad_feature.feature[0] = static_cast<int32_t>(lw::kResidualFeatures);
  lw::ResidualTree short_arrays = k_then_sms();
  short_arrays.value.pop_back();
  lw::ResidualTree nan_leaf = constant(NAN);
  for (const auto& tree : {back, bad_feature, short_arrays, nan_leaf}) {
    const std::string msg = error_of([&] { lw::ResidualTrees(0.0, {tree}); });
    CHECK(msg.rfind("residual tree 0: ", 0) == 0);
    CHECK(msg.find('\n') == std::string::npos);
  }
}

// A file's tree may reach one node from two parents: laid out as a tree, it is copied per path,
// so a file of shared nodes could stand for an enormous tree. Past the layout's 65,535 nodes a
// tree is refused (at once, not after expanding it), and a shared node is walked as its copy.
TEST_CASE("trees are laid out per path, up to 65,535 nodes") {
  const int32_t k = static_cast<int32_t>(index_of("k"));
  // Inner node i sends both ways to node i + 1: 2^depth paths to the one leaf.
  const auto doubling = [&](int depth) {
    lw::ResidualTree t;
    for (int i = 0; i < depth; ++i) {
      t.feature.push_back(k);
      t.left.push_back(i + 1);
      t.right.push_back(i + 1);
      t.threshold.push_back(static_cast<float>(i));
      t.value.push_back(0.0);
    }
    t.feature.push_back(-1);
    t.left.push_back(-1);
    t.right.push_back(-1);
    t.threshold.push_back(0.0f);
    t.value.push_back(0.5);
    return t;
  };
  const lw::ResidualTrees small(0.0, {doubling(10)});  // 2^11 - 1 nodes laid out
  CHECK(small.log_factor(with(3, 1)) == 0.5);
  const std::string msg = error_of([&] { lw::ResidualTrees(0.0, {constant(0), doubling(40)}); });
  CHECK(msg == "residual tree 1: more than 65535 nodes laid out as a tree");
}

TEST_CASE("the JSON form round-trips and names its features") {
  const lw::ResidualTrees t(0.05, {k_then_sms(), constant(-0.5)});
  const nlohmann::json j = t.to_json();
  const lw::ResidualTrees back = lw::ResidualTrees::from_json(j, "f.json");
  for (double k : {100.0, 512.0, 9000.0}) {
    CHECK(back.log_factor(with(k, 64)) == t.log_factor(with(k, 64)));
  }
  nlohmann::json other = j;
  other["features"][0] = "M";
  CHECK(error_of([&] { lw::ResidualTrees::from_json(other, "f.json"); }) ==
        "f.json: \"residual_trees\" was fitted on other features");
  nlohmann::json text = j;
  text["trees"][0]["value"][1] = "x";
  CHECK(error_of([&] {
          lw::ResidualTrees::from_json(text, "f.json");
        }).find("holds a non-number") != std::string::npos);
  CHECK(error_of([&] {
          lw::ResidualTrees::from_json(nlohmann::json::array(), "f.json");
        }).rfind("f.json: ", 0) == 0);
  // A number its array's type cannot hold (an index past int32, a fraction, a threshold past
  // float) is refused, not converted (the fuzzer's 7.8e72 as a node index).
  for (const auto& [key, bad] : {std::pair<const char*, double>{"left", 7.77778e72},
                                 {"feature", 1.5},
                                 {"right", -3e9},
                                 {"threshold", 1e300}}) {
    nlohmann::json wide = j;
    wide["trees"][0][key][0] = bad;
    CAPTURE(key);
    CHECK(error_of([&] {
            lw::ResidualTrees::from_json(wide, "f.json");
          }).find(std::string("f.json: a tree's \"") + key + "\" holds ") == 0);
  }
}

// Files fitted before the ideal makespan features (r14 and older) name the first 20 and load as
// such; a tree of theirs reading a later feature is refused.
TEST_CASE("trees over the plan features alone still load") {
  const lw::ResidualTrees t(0.05, {k_then_sms()}, lw::kPlanResidualFeatures);
  CHECK_FALSE(t.uses_ideal());
  const nlohmann::json j = t.to_json();
  CHECK(j["features"].size() == lw::kPlanResidualFeatures);
  const lw::ResidualTrees back = lw::ResidualTrees::from_json(j, "old.json");
  CHECK_FALSE(back.uses_ideal());
  CHECK(back.log_factor(with(100, 64)) == t.log_factor(with(100, 64)));
  CHECK(lw::ResidualTrees(0.0, {k_then_sms()}).uses_ideal());
  const lw::ResidualTree reads_ideal{
      {feat("log_ideal"), -1, -1}, {1, -1, -1}, {2, -1, -1}, {1.0f, 0, 0}, {0, 0, 0}};
  CHECK(error_of([&] {
          lw::ResidualTrees(0.0, {reads_ideal}, lw::kPlanResidualFeatures);
        }).rfind("residual tree 0: node 0 has a bad feature", 0) == 0);
  CHECK(error_of([&] { lw::ResidualTrees(0.0, {}, 7); }).find("7 features") != std::string::npos);
}

// Unit model, 1408 x 1440 x 4096 dp on 128x128x64: 132 CTAs of 66 time units on 132 SMs, ideal
// 132 x 66 / 132 = 66. A tree doubling plans whose ideal exceeds 60 (ln 60 = 4.09 < ln 66) doubles
// it: the simulator hands the trees the ideal (without it both features are 0: no change).
TEST_CASE("the simulator gives the trees the plan's ideal makespan") {
  auto model = lw::make_model("unit", {}, lw::GpuSpec{});
  const lw::Plan p = lw::plan_schedule("dp", lw::Problem{1408, 1440, 4096}, lw::TileShape{}, kH200,
                                       lw::Reduction::Deterministic)
                         .plan;
  CHECK(lw::ideal_makespan(*model, p, 132) == doctest::Approx(66.0));
  const lw::ResidualTree big_ideal{{feat("log_ideal"), -1, -1},
                                   {1, -1, -1},
                                   {2, -1, -1},
                                   {static_cast<float>(std::log(60.0)), 0, 0},
                                   {0, 0.0, std::log(2.0)}};
  model->set_residual_trees(std::make_shared<const lw::ResidualTrees>(0.0, std::vector{big_ideal}));
  lw::Simulator sim;
  const lw::SimResult& r = sim.run(p, *model, lw::SimOptions{});
  CHECK(r.makespan == doctest::Approx(132.0));
  CHECK(r.efficiency == doctest::Approx(1.0));  // the ideal carries the factor too
}

// Unit model, 1408 x 1440 x 4096 dp on 128x128x64: 132 tiles in one wave, 64 + 2 = 66
// (tests/predict/best_test.cpp). Trees of one leaf ln 2 double it; the cut-off applies to the
// doubled time.
TEST_CASE("the simulator multiplies the makespan by the factor") {
  auto model = lw::make_model("unit", {}, lw::GpuSpec{});
  const lw::Plan p = lw::plan_schedule("dp", lw::Problem{1408, 1440, 4096}, lw::TileShape{}, kH200,
                                       lw::Reduction::Deterministic)
                         .plan;
  lw::Simulator sim;
  lw::SimOptions opt;
  CHECK(sim.run(p, *model, opt).makespan == doctest::Approx(66.0));
  model->set_residual_trees(
      std::make_shared<const lw::ResidualTrees>(0.0, std::vector{constant(std::log(2.0))}));
  CHECK(sim.run(p, *model, opt).makespan == doctest::Approx(132.0));
  opt.cutoff = 100.0;  // 66 of simulated time would pass it, 2 x 66 does
  const lw::SimResult& r = sim.run(p, *model, opt);
  CHECK(r.cut_off);
  CHECK(r.makespan > 100.0);
}

// Without trees 128x120 dp wins at 62 against 128x128's 66 (best_test.cpp); trees that double
// every tile narrower than 121 columns make 128x128 (66) the pick.
TEST_CASE("best compares corrected makespans") {
  auto model = lw::make_model("unit", {}, lw::GpuSpec{});
  const auto tiles = lw::parse_kernel_tiles("128x120x64,128x128x64");
  const std::vector<lw::ClusterShape> one = {lw::ClusterShape{1, 1}};
  const lw::Problem shape{1408, 1440, 4096};
  const auto plain =
      lw::choose_best(shape, kH200, lw::Reduction::Deterministic, *model, tiles, one);
  CHECK(lw::tile_text(plain.tile) == "128x120x64");
  CHECK(plain.makespan == doctest::Approx(62.0));
  const lw::ResidualTree narrow{
      {feat("tile_n"), -1, -1}, {1, -1, -1}, {2, -1, -1}, {121.0f, 0, 0}, {0, std::log(2.0), 0}};
  model->set_residual_trees(std::make_shared<const lw::ResidualTrees>(0.0, std::vector{narrow}));
  const auto fixed =
      lw::choose_best(shape, kH200, lw::Reduction::Deterministic, *model, tiles, one);
  CHECK(lw::tile_text(fixed.tile) == "128x128x64");
  CHECK(fixed.makespan == doctest::Approx(66.0));
}

// A tree of `depth` levels, each node reading features[level % size] against a threshold from
// `seed`, its leaves distinct values whose sum depends on the order of the additions.
static lw::ResidualTree full_tree(int depth, const std::vector<int32_t>& features, int seed) {
  lw::ResidualTree t;
  const int inner = (1 << depth) - 1, nodes = (1 << (depth + 1)) - 1;
  for (int i = 0; i < nodes; ++i) {
    int level = 0;
    while ((2 << level) - 1 <= i) ++level;
    const bool leaf = i >= inner;
    t.feature.push_back(leaf ? -1 : features[static_cast<size_t>(level) % features.size()]);
    t.left.push_back(leaf ? -1 : 2 * i + 1);
    t.right.push_back(leaf ? -1 : 2 * i + 2);
    t.threshold.push_back(leaf ? 0.0f : static_cast<float>((seed * 7 + i * 3) % 5));
    t.value.push_back(leaf ? (i % 2 == 0 ? 1e16 : 1.0) * ((seed + i) % 3 - 1) + 0.25 * i : 0.0);
  }
  return t;
}

// The walks `best` and predict take (a config's shared part once, its plans tree by tree in step,
// answers kept per thread) give log_factor's sum to the bit, for plans that differ in the
// decomposition features only and for plans of other configs, more of them than the lanes.
TEST_CASE("the shared and batched walks give log_factor's answers to the bit") {
  const std::vector<int32_t> mixed = {feat("split_mode"), feat("k"), feat("grid_ctas"),
                                      feat("splits"), feat("m")};
  const std::vector<int32_t> shared = {feat("m"), feat("k"), feat("tile_n")};
  std::vector<lw::ResidualTree> trees;
  for (int t = 0; t < 30; ++t) trees.push_back(full_tree(1 + t % 5, t % 3 ? mixed : shared, t));
  const lw::ResidualTrees all(0.125, trees);
  auto plan_x = [](float m, float k, float split_mode, float splits, float grid) {
    lw::ResidualFeatures x{};
    x[index_of("m")] = m;
    x[index_of("k")] = k;
    x[index_of("tile_n")] = 3;
    x[index_of("split_mode")] = split_mode;
    x[index_of("splits")] = splits;
    x[index_of("grid_ctas")] = grid;
    return x;
  };
  std::vector<lw::ResidualFeatures> xs;
  for (int d = 0; d < 20; ++d) {  // one config's plans: more than 16
    xs.push_back(plan_x(2, 3, static_cast<float>(d % 3), static_cast<float>(d % 5),
                        static_cast<float>(d % 4)));
  }
  xs.push_back(plan_x(4, 1, 1, 2, 0));    // another config's
  xs.push_back(xs[3]);                    // twice
  xs.push_back(plan_x(2, 3, 1, NAN, 2));  // a NaN goes right at every threshold
  for (int d = 0; d < 150; ++d) {         // a config of more plans than a forking walk's lanes
    xs.push_back(plan_x(5, 6, static_cast<float>(d % 7), static_cast<float>(d % 11),
                        static_cast<float>(d % 13)));
  }
  std::vector<double> batched(xs.size());
  all.remember_log_factors(xs.data(), xs.size(), batched.data());
  for (size_t i = 0; i < xs.size(); ++i) {
    INFO("plan ", i);
    CHECK(batched[i] == all.log_factor(xs[i]));
  }
  lw::Plan p = lw::plan_schedule("splitk:3", lw::Problem{1000, 1000, 1000}, lw::TileShape{}, kH200,
                                 lw::Reduction::Deterministic)
                   .plan;
  // factor() of plans answered and not answered before, in a fresh order.
  for (const char* s : {"dp", "splitk:3", "streamk", "dp"}) {
    p = lw::plan_schedule(s, lw::Problem{1000, 1000, 1000}, lw::TileShape{}, kH200,
                          lw::Reduction::Deterministic)
            .plan;
    CHECK(all.factor(p, 132, 5.0) == std::exp(all.log_factor(lw::residual_features(p, 132, 5.0))));
  }
}

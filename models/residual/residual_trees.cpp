// Residual trees: the plan's features, the flat-array trees' checks, evaluation and JSON form.
#include "models/residual/residual_trees.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace lw {

namespace {

// The largest power of two up to kMaxAlignElems that divides `x` (a row pitch's alignment, in
// elements; 128 bf16 elements = 256 bytes).
constexpr int64_t kMaxAlignElems = 128;
float alignment(int64_t x) {
  int64_t a = kMaxAlignElems;
  while (a > 1 && x % a != 0) a /= 2;
  return static_cast<float>(a);
}

float f(int64_t x) { return static_cast<float>(x); }

constexpr double kFlopsPerMac = 2.0;
constexpr double kMega = 1e6;  // FLOP per us -> TFLOP/s

void check_tree(const ResidualTree& t, size_t index, size_t features) {
  const std::string where = "residual tree " + std::to_string(index) + ": ";
  const size_t n = t.feature.size();
  if (n == 0 || t.left.size() != n || t.right.size() != n || t.threshold.size() != n ||
      t.value.size() != n) {
    throw std::invalid_argument(where + "needs equally long, non-empty node arrays");
  }
  for (size_t i = 0; i < n; ++i) {
    if (t.feature[i] < 0) {
      if (t.feature[i] != -1 || !std::isfinite(t.value[i])) {
        throw std::invalid_argument(where + "leaf " + std::to_string(i) + " is malformed");
      }
      continue;
    }
    const auto child_ok = [&](int32_t c) { return c > static_cast<int32_t>(i) && c < int32_t(n); };
    if (static_cast<size_t>(t.feature[i]) >= features || !child_ok(t.left[i]) ||
        !child_ok(t.right[i]) || !std::isfinite(t.threshold[i])) {
      throw std::invalid_argument(where + "node " + std::to_string(i) +
                                  " has a bad feature, child or threshold");
    }
  }
}

// A tree's array `key` as T: every element a number T holds (an integer in T's range for an
// integer T, a finite value in its range for a floating T); anything else is refused in one line
// (a conversion out of range would be undefined behaviour).
template <typename T>
std::vector<T> array_of(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_array()) {
    throw std::invalid_argument(where + ": a tree lacks the array \"" + key + "\"");
  }
  std::vector<T> out;
  out.reserve(j[key].size());
  for (const auto& v : j[key]) {
    if (!v.is_number()) {
      throw std::invalid_argument(where + ": a tree's \"" + key + "\" holds a non-number");
    }
    const double x = v.get<double>();
    const bool fits =
        std::is_integral_v<T>
            ? x == std::floor(x) && x >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
                  x <= static_cast<double>(std::numeric_limits<T>::max())
            : std::isfinite(x) && std::abs(x) <= static_cast<double>(std::numeric_limits<T>::max());
    if (!fits) {
      throw std::invalid_argument(where + ": a tree's \"" + key + "\" holds " + v.dump() +
                                  ", out of its range");
    }
    out.push_back(static_cast<T>(x));
  }
  return out;
}

}  // namespace

const std::array<const char*, kResidualFeatures>& residual_feature_names() {
  static const std::array<const char*, kResidualFeatures> names = {
      "m",           "n",
      "k",           "tile_m",
      "tile_n",      "cluster_ctas",
      "k_align",     "n_align",
      "sms",         "cta_tiles",
      "k_tiles",     "grid_ctas",
      "waves",       "wave_fraction",
      "split_mode",  "splits",
      "split_tiles", "split_units",
      "dp_tiles",    "separate_reduction",
      "log_ideal",   "ideal_flop_rate"};
  return names;
}

// The ideal makespan features: ln(ideal) and the plan's FLOPs per ideal time unit (TFLOP/s for a
// time in us); both 0 for an ideal that is not a positive finite time.
float log_ideal(double ideal) {
  return ideal > 0 && std::isfinite(ideal) ? static_cast<float>(std::log(ideal)) : 0.0f;
}
float ideal_flop_rate(const Problem& pr, double ideal) {
  const double flops = kFlopsPerMac * static_cast<double>(pr.m) * static_cast<double>(pr.n) *
                       static_cast<double>(pr.k);
  return ideal > 0 && std::isfinite(ideal) ? static_cast<float>(flops / ideal / kMega) : 0.0f;
}

ResidualFeatures residual_features(const Plan& p, int64_t sms, double ideal) {
  const int64_t ctas = cluster_size(p);
  const double waves = static_cast<double>(p.tiles * ctas) / static_cast<double>(sms);
  return {f(p.problem.m),
          f(p.problem.n),
          f(p.problem.k),
          f(p.tile.m),
          f(p.tile.n),
          f(ctas),
          alignment(p.problem.k),
          alignment(p.problem.n),
          f(sms),
          f(p.tiles * ctas),
          f(p.k_tiles),
          f(p.grid * ctas),
          static_cast<float>(waves),
          static_cast<float>(waves - std::floor(waves)),
          f(static_cast<int64_t>(p.split_mode)),
          f(p.splits),
          f(p.split_tiles * ctas),
          f(p.split_units * ctas),
          f((p.tiles - p.split_tiles) * ctas),
          p.separate_reduction ? 1.0f : 0.0f,
          log_ideal(ideal),
          ideal_flop_rate(p.problem, ideal)};
}

ResidualTrees::ResidualTrees(double base, std::vector<ResidualTree> trees, size_t features)
    : base_(base), features_(features), trees_(std::move(trees)) {
  if (!std::isfinite(base_)) throw std::invalid_argument("residual trees: base is not finite");
  if (features_ != kPlanResidualFeatures && features_ != kResidualFeatures) {
    throw std::invalid_argument("residual trees: " + std::to_string(features_) +
                                " features (expected " + std::to_string(kPlanResidualFeatures) +
                                " or " + std::to_string(kResidualFeatures) + ")");
  }
  for (size_t i = 0; i < trees_.size(); ++i) check_tree(trees_[i], i, features_);
  flatten();
}

// Lays every tree out depth first from its root (left subtree right after its node), each node
// one Node; refuses a tree of more nodes than a 16-bit offset reaches.
void ResidualTrees::flatten() {
  nodes_.clear();
  values_.clear();
  roots_.clear();
  all_trees_.clear();
  struct Pending {
    int32_t node;    // in the file's tree
    int64_t parent;  // nodes_ index of the parent whose right offset points here (-1: none)
  };
  std::vector<Pending> stack;
  for (size_t t = 0; t < trees_.size(); ++t) {
    const ResidualTree& tree = trees_[t];
    all_trees_.push_back(static_cast<uint32_t>(roots_.size()));
    const size_t root = nodes_.size();
    roots_.push_back(static_cast<uint32_t>(root));
    stack.assign(1, Pending{0, -1});
    while (!stack.empty()) {
      const Pending at = stack.back();
      stack.pop_back();
      const size_t here = nodes_.size();
      if (here - root >= kMaxTreeNodes) {
        throw std::invalid_argument("residual tree " + std::to_string(t) + ": more than " +
                                    std::to_string(kMaxTreeNodes) + " nodes laid out as a tree");
      }
      if (at.parent >= 0)
        nodes_[static_cast<size_t>(at.parent)].right =
            static_cast<uint16_t>(here - static_cast<size_t>(at.parent));
      const auto i = static_cast<size_t>(at.node);
      const int32_t feature = tree.feature[i];
      if (feature < 0) {
        nodes_.push_back(Node{0.0f, 0, kLeaf, 0});
        values_.push_back(tree.value[i]);
        continue;
      }
      const bool decomposition = ((kDecompositionFeatures >> feature) & 1u) != 0;
      nodes_.push_back(Node{tree.threshold[i], static_cast<uint8_t>(feature),
                            decomposition ? kDecomposition : kTurns, 0});
      values_.push_back(0.0);
      stack.push_back(Pending{tree.right[i], static_cast<int64_t>(here)});
      stack.push_back(Pending{tree.left[i], -1});
    }
  }
}

ResidualTrees ResidualTrees::from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("base") || !j["base"].is_number() || !j.contains("trees") ||
      !j["trees"].is_array() || !j.contains("features") || !j["features"].is_array()) {
    throw std::invalid_argument(where +
                                ": \"residual_trees\" needs \"base\", \"features\" and "
                                "\"trees\"");
  }
  const auto& names = residual_feature_names();
  const auto named = [&](size_t n) {
    return nlohmann::json(std::vector<std::string>(names.begin(), names.begin() + n));
  };
  const size_t features = j["features"] == named(kResidualFeatures)       ? kResidualFeatures
                          : j["features"] == named(kPlanResidualFeatures) ? kPlanResidualFeatures
                                                                          : 0;
  if (features == 0) {
    throw std::invalid_argument(where + ": \"residual_trees\" was fitted on other features");
  }
  std::vector<ResidualTree> trees;
  for (const auto& t : j["trees"]) {
    trees.push_back({array_of<int32_t>(t, "feature", where), array_of<int32_t>(t, "left", where),
                     array_of<int32_t>(t, "right", where), array_of<float>(t, "threshold", where),
                     array_of<double>(t, "value", where)});
  }
  try {
    return ResidualTrees(j["base"].get<double>(), std::move(trees), features);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
}

nlohmann::json ResidualTrees::to_json() const {
  const auto& names = residual_feature_names();
  nlohmann::json trees = nlohmann::json::array();
  for (const auto& t : trees_) {
    trees.push_back({{"feature", t.feature},
                     {"left", t.left},
                     {"right", t.right},
                     {"threshold", t.threshold},
                     {"value", t.value}});
  }
  return {{"base", base_},
          {"features", std::vector<std::string>(names.begin(), names.begin() + features_)},
          {"trees", trees}};
}

double ResidualTrees::log_factor(const ResidualFeatures& x) const {
  thread_local std::vector<double> leaf;  // per tree, in the file's order
  leaf.resize(trees_.size());
  walk_leaves(x, leaf.data());
  double sum = base_;
  for (const double v : leaf) sum += v;  // in tree order: the sum of one walk at a time, to the bit
  return sum;
}

// kWalkLanes lanes each walk a tree; a lane whose tree stops takes the next tree, until none is
// left; the lanes then finish one by one. A turn is an add of 1 or the right offset (no branch);
// only a walk's end is one.
template <bool kPartial>
void ResidualTrees::walk(const ResidualFeatures& x, const uint32_t* tree_ids, size_t count,
                         const uint32_t* from, uint32_t* to) const {
  const Node* nodes = nodes_.data();
  const auto turns = [](const Node& n) {
    if constexpr (kPartial) {
      return n.kind == kTurns;
    } else {
      return n.kind != kLeaf;
    }
  };
  constexpr size_t kFinished = SIZE_MAX;
  std::array<uint32_t, kWalkLanes> at{};
  std::array<size_t, kWalkLanes> tree{};
  tree.fill(kFinished);
  size_t next = 0, lanes = 0;
  for (; lanes < kWalkLanes && next < count; ++lanes, ++next) {
    tree[lanes] = tree_ids[next];
    at[lanes] = from[tree_ids[next]];
  }
  while (lanes == kWalkLanes) {
    for (size_t lane = 0; lane < kWalkLanes; ++lane) {
      const Node& n = nodes[at[lane]];
      if (turns(n)) {
        at[lane] += select_offset(n, x);
        continue;
      }
      to[tree[lane]] = at[lane];
      if (next == count) {
        tree[lane] = kFinished;
        --lanes;
        continue;
      }
      tree[lane] = tree_ids[next];
      at[lane] = from[tree_ids[next++]];
    }
  }
  for (size_t lane = 0; lane < kWalkLanes; ++lane) {
    if (tree[lane] == kFinished) continue;
    uint32_t i = at[lane];
    while (turns(nodes[i])) i += select_offset(nodes[i], x);
    to[tree[lane]] = i;
  }
}

// Writes every tree's leaf value for `x` to leaf[tree].
void ResidualTrees::walk_leaves(const ResidualFeatures& x, double* leaf) const {
  thread_local std::vector<uint32_t> at;
  at.resize(roots_.size());
  walk<false>(x, all_trees_.data(), all_trees_.size(), roots_.data(), at.data());
  for (size_t t = 0; t < at.size(); ++t) leaf[t] = values_[at[t]];
}

ResidualFeatures ResidualTrees::shared_features(const ResidualFeatures& x) {
  ResidualFeatures key = x;
  for (size_t f = 0; f < key.size(); ++f) {
    if ((kDecompositionFeatures >> f) & 1u) key[f] = 0.0f;
  }
  return key;
}

// The walks of the decompositions of one config (tile, cluster) of one shape on one SM count go
// the same way until a tree reads a decomposition feature: best and predict cost several such
// plans in a row, so that part of the walk is kept per thread and shared.
const ResidualTrees::PartialWalk& ResidualTrees::partial_walk(const ResidualFeatures& x) const {
  const ResidualFeatures key = shared_features(x);
  constexpr size_t kKept = 4;
  thread_local std::array<PartialWalk, kKept> kept;
  thread_local size_t next = 0;
  for (const PartialWalk& w : kept) {
    if (w.trees == id_ && std::memcmp(w.x.data(), key.data(), sizeof(float) * key.size()) == 0) {
      return w;
    }
  }
  PartialWalk& w = kept[next];
  next = (next + 1) % kKept;
  w.trees = id_;
  w.x = key;
  w.stop.resize(roots_.size());
  walk<true>(key, all_trees_.data(), all_trees_.size(), roots_.data(), w.stop.data());
  w.open.clear();
  for (uint32_t t = 0; t < w.stop.size(); ++t) {
    if (nodes_[w.stop[t]].kind != kLeaf) w.open.push_back(t);
  }
  return w;
}

double ResidualTrees::log_factor_from(const PartialWalk& w, const ResidualFeatures& x) const {
  thread_local std::vector<uint32_t> at;
  at = w.stop;
  walk<false>(x, w.open.data(), w.open.size(), w.stop.data(), at.data());
  double sum = base_;
  for (const uint32_t i : at) sum += values_[i];  // in tree order, as log_factor adds them
  return sum;
}

double ResidualTrees::factor(const Plan& p, int64_t sms, double ideal) const {
  return std::exp(cached_log_factor(residual_features(p, sms, ideal)));
}

uint64_t ResidualTrees::next_id() {
  static std::atomic<uint64_t> ids{0};
  return ++ids;
}

namespace {

// The per-thread answers of cached_log_factor and log_factors: keyed by the features' bits and the
// trees' id, so an answer is only ever reused for the same trees and the same input.
struct Answer {
  uint64_t trees = 0;  // id of the trees (0: none)
  ResidualFeatures x{};
  double log_factor = 0;
};
constexpr size_t kAnswers = 16;  // more than a config's decompositions (best_decompositions())
struct Answers {
  std::array<Answer, kAnswers> kept;
  size_t next = 0;
  const Answer* find(uint64_t trees, const ResidualFeatures& x) const {
    for (const Answer& a : kept) {
      if (a.trees == trees && std::memcmp(a.x.data(), x.data(), sizeof(float) * x.size()) == 0) {
        return &a;
      }
    }
    return nullptr;
  }
  void add(uint64_t trees, const ResidualFeatures& x, double log_factor) {
    kept[next] = Answer{trees, x, log_factor};
    next = (next + 1) % kAnswers;
  }
};
thread_local Answers answers;

}  // namespace

// log_factor, remembered per thread for the last few feature vectors: a sweep often simulates one
// plan again (two-tile is Stream-K below two waves, cutlass often picks dp), and the walk over
// every tree is the dearest part of a small plan's run.
double ResidualTrees::cached_log_factor(const ResidualFeatures& x) const {
  if (const Answer* a = answers.find(id_, x)) return a->log_factor;
  const double answer = log_factor_from(partial_walk(x), x);
  answers.add(id_, x, answer);
  return answer;
}

void ResidualTrees::remember_log_factors(const ResidualFeatures* xs, size_t n,
                                         double* log_factors) const {
  thread_local std::vector<double> sums;
  sums.resize(n);
  walk_together(xs, n, sums.data());
  for (size_t i = 0; i < n; ++i) {
    if (answers.find(id_, xs[i]) == nullptr) answers.add(id_, xs[i], sums[i]);
  }
  if (log_factors != nullptr) std::copy(sums.begin(), sums.end(), log_factors);
}

// Tree by tree, every vector: a tree's nodes are loaded once for them all. The vectors are grouped
// by their features outside the decomposition ones (a group: one shape, tile, cluster and SM
// count); a group walks each tree as one while its nodes read those shared features, and forks
// where a node reads a decomposition feature that sends some of its vectors left and others
// right, so a tree costs a group its distinct paths, not one walk per vector. Each vector's sum
// runs in tree order, as log_factor adds.
void ResidualTrees::walk_together(const ResidualFeatures* xs, size_t n, double* sums) const {
  thread_local std::vector<ResidualFeatures> keys, grouped;  // keys: per group, decomposition 0
  thread_local std::vector<uint32_t> group_of, lanes, group_end;
  keys.clear();
  group_of.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const ResidualFeatures key = shared_features(xs[i]);
    size_t g = 0;
    while (g < keys.size() && std::memcmp(keys[g].data(), key.data(), sizeof(key)) != 0) ++g;
    if (g == keys.size()) keys.push_back(key);
    group_of[i] = static_cast<uint32_t>(g);
  }
  group_end.assign(keys.size(), 0);  // counting sort of the vectors by group
  for (size_t i = 0; i < n; ++i) ++group_end[group_of[i]];
  for (size_t g = 1; g < keys.size(); ++g) group_end[g] += group_end[g - 1];
  lanes.resize(n);
  for (size_t i = n; i-- > 0;) lanes[--group_end[group_of[i]]] = static_cast<uint32_t>(i);
  for (size_t g = 0; g < keys.size(); ++g)
    group_end[g] = g + 1 < keys.size() ? group_end[g + 1] : n;
  grouped.resize(n);
  for (size_t l = 0; l < n; ++l) grouped[l] = xs[lanes[l]];
  thread_local SplitTables tables;  // per chunk of kForkLanes lanes of a group
  thread_local std::vector<LaneSplits> splits;
  tables.values.clear();
  tables.below.clear();
  splits.clear();
  for (size_t g = 0, first = 0; g < keys.size(); first = group_end[g++]) {
    for (size_t chunk = first; chunk < group_end[g]; chunk += kForkLanes) {
      splits.emplace_back();
      tables.add(&grouped[chunk], std::min(kForkLanes, group_end[g] - chunk), splits.back());
    }
  }
  thread_local std::vector<double> sum;  // per lane (grouped order)
  sum.assign(n, base_);
  thread_local std::vector<uint32_t> at;  // per group: where its shared walk stops
  const Node* nodes = nodes_.data();
  for (const uint32_t root : roots_) {
    // The groups' shared walks in step (independent loads overlap; a turn is no branch).
    at.assign(keys.size(), root);
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t g = 0; g < keys.size(); ++g) {
        const Node& nd = nodes[at[g]];
        const uint32_t step = nd.kind == kTurns ? next_offset(nd, keys[g]) : 0u;
        moved |= step != 0;
        at[g] += step;
      }
    }
    size_t first = 0, split = 0;
    for (size_t g = 0; g < keys.size(); first = group_end[g++]) {
      if (nodes[at[g]].kind == kLeaf) {
        for (size_t l = first; l < group_end[g]; ++l) sum[l] += values_[at[g]];
        split += (group_end[g] - first + kForkLanes - 1) / kForkLanes;
        continue;
      }
      for (size_t chunk = first; chunk < group_end[g]; chunk += kForkLanes) {
        const size_t count = std::min(kForkLanes, group_end[g] - chunk);
        walk_forking(at[g], keys[g], splits[split++], tables, count, &sum[chunk]);
      }
    }
  }
  for (size_t l = 0; l < n; ++l) sums[lanes[l]] = sum[l];
}

// Appends the split tables of vectors x[0..count) (count <= kForkLanes), their places to `out`.
void ResidualTrees::SplitTables::add(const ResidualFeatures* x, size_t count, LaneSplits& out) {
  std::array<std::pair<float, uint32_t>, kForkLanes> by_value;
  for (size_t f = 0; f < kResidualFeatures; ++f) {
    if (((kDecompositionFeatures >> f) & 1u) == 0) continue;
    size_t valued = 0;
    for (size_t l = 0; l < count; ++l) {
      if (!std::isnan(x[l][f])) by_value[valued++] = {x[l][f], static_cast<uint32_t>(l)};
    }
    std::sort(by_value.begin(), by_value.begin() + static_cast<std::ptrdiff_t>(valued));
    out.first[f] = static_cast<uint32_t>(values.size());
    out.below_first[f] = static_cast<uint32_t>(below.size());
    below.push_back(0);
    uint64_t lanes = 0;
    for (size_t i = 0; i < valued; ++i) {
      lanes |= uint64_t{1} << by_value[i].second;
      if (i + 1 < valued && by_value[i + 1].first == by_value[i].first) continue;
      values.push_back(by_value[i].first);
      below.push_back(lanes);
    }
    out.count[f] = static_cast<uint32_t>(values.size()) - out.first[f];
  }
}

// One tree from `node` for the vectors of `splits` (count <= kForkLanes) that share `key`'s
// features outside the decomposition ones: each vector's leaf value added to its sum.
void ResidualTrees::walk_forking(uint32_t node, const ResidualFeatures& key,
                                 const LaneSplits& splits, const SplitTables& tables, size_t count,
                                 double* sum) const {
  struct Fork {
    uint32_t node;
    uint64_t lanes;
  };
  std::array<Fork, kForkLanes> stack;  // a fork splits a non-empty set: at most count - 1 queued
  size_t queued = 0;
  uint64_t lanes = count == kForkLanes ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  for (;;) {
    const Node& nd = nodes_[node];
    if (nd.kind == kLeaf) {
      for (uint64_t m = lanes; m != 0; m &= m - 1) sum[__builtin_ctzll(m)] += values_[node];
      if (queued == 0) return;
      node = stack[--queued].node;
      lanes = stack[queued].lanes;
      continue;
    }
    if (nd.kind == kTurns) {
      node += next_offset(nd, key);
      continue;
    }
    const size_t f = nd.feature;
    const float* value = &tables.values[splits.first[f]];
    uint32_t j = 0;
    while (j < splits.count[f] && value[j] < nd.threshold) ++j;
    const uint64_t left = lanes & tables.below[splits.below_first[f] + j];
    const uint64_t right = lanes & ~left;
    if (left != 0 && right != 0) {
      stack[queued++] = Fork{node + nd.right, right};
      lanes = left;
    }
    node += left != 0 ? 1u : nd.right;
  }
}

size_t ResidualTrees::nodes() const {
  size_t n = 0;
  for (const auto& t : trees_) n += t.feature.size();
  return n;
}

}  // namespace lw

// Residual trees: a learned correction of the simulated makespan. Boosted regression trees over
// what a plan is (shape, tile, cluster, decomposition, waves) predict ln(measured / simulated);
// `lastwave calibrate` fits them on the training rows (calib/residual_fit.hpp) and a model
// file carries them as "residual_trees". Evaluated here, without the library that trained them.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/decomp/plan.hpp"

namespace lw {

// The features, in this order (residual_feature_names()); counts are CTAs and CTA tiles. The last
// two are the physics' ideal makespan (ideal_makespan in models/cost_model.hpp, the cost model's
// time unit: us for fitted models) and the FLOP rate it implies; files fitted before them (r14
// and older) name only the first kPlanResidualFeatures and their trees never read the others.
constexpr size_t kResidualFeatures = 22;
constexpr size_t kPlanResidualFeatures = 20;
using ResidualFeatures = std::array<float, kResidualFeatures>;
const std::array<const char*, kResidualFeatures>& residual_feature_names();
// What plan `p` on `sms` SMs (of the whole partition, cluster CTAs counted singly) is, with
// `ideal` the plan's ideal makespan under the physics the trees correct.
ResidualFeatures residual_features(const Plan& p, int64_t sms, double ideal);

// One regression tree in flat arrays (node 0 is the root). An inner node sends x to `left` when
// x[feature] < threshold (in float, as the trainer compares), else to `right`; a leaf (feature
// -1) holds `value`. Children come after their parent, so every walk ends.
struct ResidualTree {
  std::vector<int32_t> feature, left, right;
  std::vector<float> threshold;
  std::vector<double> value;
};

class ResidualTrees {
 public:
  ResidualTrees() = default;
  // Trees over the first `features` features (kPlanResidualFeatures or kResidualFeatures); throws
  // on a malformed tree or one that reads a feature past them.
  ResidualTrees(double base, std::vector<ResidualTree> trees, size_t features = kResidualFeatures);
  // From a model file's "residual_trees"; throws std::invalid_argument (one line, `where` first).
  static ResidualTrees from_json(const nlohmann::json& j, const std::string& where);
  nlohmann::json to_json() const;

  // ln(measured / simulated) the trees predict for features `x`: base + every tree's leaf.
  double log_factor(const ResidualFeatures& x) const;
  // The factor the simulated makespan of plan `p` on `sms` SMs is multiplied by (`ideal`: as for
  // residual_features; read only when uses_ideal()).
  double factor(const Plan& p, int64_t sms, double ideal) const;
  // log_factor of xs[0..n) (bit for bit), written to log_factors (unless null) and remembered in
  // this thread's answers, so that factor() of those plans finds them: the vectors are walked tree
  // by tree, each tree's nodes loaded once for them all, and vectors that differ in the
  // decomposition features only (one shape, tile, cluster and SM count) share the walk until a
  // node reads one. At most 16 answers are kept.
  void remember_log_factors(const ResidualFeatures* xs, size_t n,
                            double* log_factors = nullptr) const;
  // Whether the trees were fitted on the ideal-makespan features (else any `ideal` will do).
  bool uses_ideal() const { return features_ > kPlanResidualFeatures; }
  size_t size() const { return trees_.size(); }
  size_t nodes() const;

 private:
  // Every tree's nodes in one array, walked by log_factor: the per-tree arrays above are the
  // file's layout, this one the walk's. Each tree is laid out depth first (a node's left child is
  // the next node), eight bytes a node, so that a walk's path shares cache lines: 600 trees of 253
  // nodes take 1.2 MB, not the 6 MB of nodes with two child indices and a value beside them.
  enum Kind : uint8_t {
    kTurns = 0,      // an inner node on a feature the decompositions of a config share
    kDecomposition,  // an inner node on a decomposition feature (a shared walk stops here)
    kLeaf,           // a leaf (its value in values_; feature 0, so a read of x stays in bounds)
  };
  struct Node {
    float threshold;  // inner: go to the next node when x[feature] < threshold, else + right
    uint8_t feature;
    uint8_t kind;
    uint16_t right;  // inner: the offset of the right child
  };
  static_assert(sizeof(Node) == 8, "a node is eight bytes");
  // From inner node n to the child x goes to: the next node, or the right one.
  // Where the walk has independent lanes to overlap (walk): no branch, whose misses would cost
  // more than the select's wait.
  static uint32_t select_offset(const Node& n, const ResidualFeatures& x) {
    const uint32_t left = 0u - static_cast<uint32_t>(x[n.feature] < n.threshold);  // all ones
    return (left & 1u) | (~left & n.right);
  }
  // Where one walk follows its nodes through memory (walk_together, walk_forking): a branch, so
  // that the predicted child's load starts before the compare resolves.
  static uint32_t next_offset(const Node& n, const ResidualFeatures& x) {
    return x[n.feature] < n.threshold ? 1u : n.right;
  }
  // A tree laid out so is at most this many nodes (right offsets are 16 bits).
  static constexpr size_t kMaxTreeNodes = 65535;
  // Trees walked at once: independent walks overlap their node loads, where one walk at a time
  // waits on each node and on each (unpredictable) turn.
  static constexpr size_t kWalkLanes = 8;
  // The features that tell the decompositions of one shape, tile, cluster and SM count apart
  // (grid_ctas and the split fields): a walk over the others alone is shared by those plans.
  static constexpr uint32_t kDecompositionFeatures =
      (1u << 11) | (1u << 14) | (1u << 15) | (1u << 16) | (1u << 17) | (1u << 18) | (1u << 19);
  // `x` with its decomposition features 0: what the plans of one config have in common.
  static ResidualFeatures shared_features(const ResidualFeatures& x);
  // Where every tree's walk stands after the turns on the other features (for features `x`):
  // stop[tree] is a leaf, or the first node that reads a decomposition feature; `open` lists the
  // trees of the second kind, in tree order.
  struct PartialWalk {
    uint64_t trees = 0;    // id_ of the trees (0: none)
    ResidualFeatures x{};  // the features it was walked for, decomposition features 0
    std::vector<uint32_t> stop, open;
  };
  // Walks trees tree_ids[0..count) from from[tree] on, turning at every inner node (kPartial:
  // at every node that reads no decomposition feature), and writes where each stops to to[tree].
  template <bool kPartial>
  void walk(const ResidualFeatures& x, const uint32_t* tree_ids, size_t count, const uint32_t* from,
            uint32_t* to) const;
  void walk_leaves(const ResidualFeatures& x, double* leaf) const;
  // The partial walk for `x`, from a per-thread cache of the last few.
  const PartialWalk& partial_walk(const ResidualFeatures& x) const;
  // log_factor of xs[0..n) to sums[0..n), to the bit (remember_log_factors without the answers).
  void walk_together(const ResidualFeatures* xs, size_t n, double* sums) const;
  // Vectors a forking walk carries at once (bits of a mask).
  static constexpr size_t kForkLanes = 64;
  // How the vectors of one forking walk split at any threshold of a decomposition feature f: their
  // distinct values of f ascending, values[first[f] + j] (j < count[f]), and below[below_first[f]
  // + j] the lanes whose value is one of the j least (a NaN is in none: x < threshold is false for
  // it). A node then costs a short scan of the few values, not a compare per lane.
  struct LaneSplits {
    std::array<uint32_t, kResidualFeatures> first{}, count{}, below_first{};
  };
  struct SplitTables {
    std::vector<float> values;
    std::vector<uint64_t> below;
    void add(const ResidualFeatures* x, size_t count, LaneSplits& out);
  };
  void walk_forking(uint32_t node, const ResidualFeatures& key, const LaneSplits& splits,
                    const SplitTables& tables, size_t count, double* sum) const;
  // log_factor(x) finished from the partial walk: the same leaves, added in the same order.
  double log_factor_from(const PartialWalk& w, const ResidualFeatures& x) const;
  void flatten();
  double cached_log_factor(const ResidualFeatures& x) const;
  static uint64_t next_id();

  // Tells these trees' answers in a thread's cache (cached_log_factor) from other trees'; a copy
  // shares it (the same trees give the same answers).
  uint64_t id_ = next_id();
  double base_ = 0;
  size_t features_ = kResidualFeatures;
  std::vector<ResidualTree> trees_;
  std::vector<Node> nodes_;
  std::vector<double> values_;  // per node of nodes_: a leaf's value (0 for an inner node)
  std::vector<uint32_t> roots_;
  std::vector<uint32_t> all_trees_;  // 0, 1, ..., size() - 1
};

}  // namespace lw

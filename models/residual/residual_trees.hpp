// Residual trees: a learned correction of the simulated makespan. Boosted regression trees over
// what a plan is (shape, tile, cluster, decomposition, waves) predict ln(measured / simulated);
// `lastwave calibrate` fits them on the training rows (models/calib/residual_fit.hpp) and a model
// file carries them as "residual_trees". Evaluated here, without the library that trained them.
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/decomp/plan.hpp"

namespace lw {

// What the physics predicts about a plan before it runs (physics_features in
// models/cost_model.hpp, from the cost model the trees correct): its ideal makespan (the model's
// time unit: us for fitted models) and how much a full tile's MAC loop slows with the whole chip's
// SMs busy against one SM alone (the load the shared L2 and DRAM pipes see; a property of the
// config on the chip, the same on every partition). 0: unknown.
struct PhysicsFeatures {
  double ideal = 0;
  double chip_load_slowdown = 0;
};

// The features, in this order (residual_feature_names()); counts are CTAs and CTA tiles. The last
// three come from PhysicsFeatures: ln ideal, the FLOP rate the ideal implies, and the load
// slowdown at the chip's load. Files fitted before them name only a prefix (r14 and older the first
// kPlanResidualFeatures, r15 the first kIdealResidualFeatures) and their trees never read the rest.
constexpr size_t kResidualFeatures = 23;
constexpr size_t kIdealResidualFeatures = 22;
constexpr size_t kPlanResidualFeatures = 20;
using ResidualFeatures = std::array<float, kResidualFeatures>;
const std::array<const char*, kResidualFeatures>& residual_feature_names();
// What plan `p` on `sms` SMs (of the whole partition, cluster CTAs counted singly) is, with
// `physics` what the physics the trees correct predicts about it.
ResidualFeatures residual_features(const Plan& p, int64_t sms, const PhysicsFeatures& physics);

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
  // Trees over the first `features` features (kPlanResidualFeatures, kIdealResidualFeatures or
  // kResidualFeatures); throws on a malformed tree or one that reads a feature past them.
  ResidualTrees(double base, std::vector<ResidualTree> trees, size_t features = kResidualFeatures);
  // From a model file's "residual_trees"; throws std::invalid_argument (one line, `where` first).
  static ResidualTrees from_json(const nlohmann::json& j, const std::string& where);
  nlohmann::json to_json() const;

  // ln(measured / simulated) the trees predict for features `x`: base + every tree's leaf.
  double log_factor(const ResidualFeatures& x) const;
  // The factor the simulated makespan of plan `p` on `sms` SMs is multiplied by (`physics`: as
  // for residual_features; read only when reads_physics()).
  double factor(const Plan& p, int64_t sms, const PhysicsFeatures& physics) const;
  // Whether the trees were fitted on physics features (else PhysicsFeatures{} will do).
  bool reads_physics() const { return features_ > kPlanResidualFeatures; }
  size_t features() const { return features_; }
  size_t size() const { return trees_.size(); }
  size_t nodes() const;

 private:
  // Every tree's nodes in one array (a node's fields side by side), walked by log_factor: the
  // per-tree arrays above are the file's layout, this one the walk's.
  struct Node {
    int32_t feature;       // -1: a leaf
    float threshold;       // go left when x[feature] < threshold
    uint32_t left, right;  // indices into nodes_
    double value;          // a leaf's
  };
  void flatten();

  double base_ = 0;
  size_t features_ = kResidualFeatures;
  std::vector<ResidualTree> trees_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> roots_;
};

}  // namespace lw

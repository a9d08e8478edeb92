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

// The features, in this order (residual_feature_names()); counts are CTAs and CTA tiles.
constexpr size_t kResidualFeatures = 20;
using ResidualFeatures = std::array<float, kResidualFeatures>;
const std::array<const char*, kResidualFeatures>& residual_feature_names();
// What plan `p` on `sms` SMs (of the whole partition, cluster CTAs counted singly) is.
ResidualFeatures residual_features(const Plan& p, int64_t sms);

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
  ResidualTrees(double base, std::vector<ResidualTree> trees);  // throws on a malformed tree
  // From a model file's "residual_trees"; throws std::invalid_argument (one line, `where` first).
  static ResidualTrees from_json(const nlohmann::json& j, const std::string& where);
  nlohmann::json to_json() const;

  // ln(measured / simulated) the trees predict for features `x`: base + every tree's leaf.
  double log_factor(const ResidualFeatures& x) const;
  // The factor the simulated makespan of plan `p` on `sms` SMs is multiplied by.
  double factor(const Plan& p, int64_t sms) const;
  size_t size() const { return trees_.size(); }
  size_t nodes() const;

 private:
  double base_ = 0;
  std::vector<ResidualTree> trees_;
};

}  // namespace lw

// XGBoost training of the residual trees and the conversion of its JSON model to ResidualTrees.
#include "calib/residual_fit.hpp"

#include <xgboost/c_api.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>
#include <string>

namespace lw {

namespace {

void check_xgb(int rc, const char* what) {
  if (rc != 0) {
    std::string msg = XGBGetLastError();
    for (char& c : msg) c = c == '\n' ? ' ' : c;
    throw std::invalid_argument(std::string("residual trees: XGBoost ") + what + ": " + msg);
  }
}

struct DMatrixFree {
  void operator()(void* h) const { XGDMatrixFree(h); }
};
struct BoosterFree {
  void operator()(void* h) const { XGBoosterFree(h); }
};
using DMatrix = std::unique_ptr<void, DMatrixFree>;
using Booster = std::unique_ptr<void, BoosterFree>;

void check_input(const std::vector<ResidualFeatures>& x, const std::vector<double>& y) {
  if (x.empty() || x.size() != y.size()) {
    throw std::invalid_argument("residual trees: need as many targets as rows, and some rows");
  }
  for (size_t i = 0; i < x.size(); ++i) {
    bool finite = std::isfinite(y[i]);
    for (float v : x[i]) finite = finite && std::isfinite(v);
    if (!finite) {
      throw std::invalid_argument("residual trees: row " + std::to_string(i) +
                                  " has a non-finite feature or target");
    }
  }
}

DMatrix training_matrix(const std::vector<ResidualFeatures>& x, const std::vector<double>& y) {
  std::vector<float> flat;
  flat.reserve(x.size() * kResidualFeatures);
  for (const auto& row : x) flat.insert(flat.end(), row.begin(), row.end());
  DMatrixHandle h = nullptr;
  check_xgb(XGDMatrixCreateFromMat(flat.data(), x.size(), kResidualFeatures, NAN, &h), "matrix");
  DMatrix m(h);
  const std::vector<float> labels(y.begin(), y.end());
  check_xgb(XGDMatrixSetFloatInfo(h, "label", labels.data(), labels.size()), "labels");
  return m;
}

Booster configured_booster(DMatrixHandle train, const ResidualFitOptions& o, double base) {
  BoosterHandle h = nullptr;
  check_xgb(XGBoosterCreate(&train, 1, &h), "booster");
  Booster b(h);
  const std::pair<const char*, std::string> params[] = {
      {"objective", "reg:squarederror"},
      {"tree_method", "hist"},
      {"grow_policy", "lossguide"},
      {"max_depth", "0"},
      {"max_leaves", std::to_string(o.max_leaves)},
      {"eta", std::to_string(o.learning_rate)},
      {"min_child_weight", std::to_string(o.min_rows)},
      {"base_score", std::to_string(base)},
      {"nthread", "1"},
      {"seed", "0"},
      {"verbosity", "0"}};
  for (const auto& [name, value] : params) {
    check_xgb(XGBoosterSetParam(h, name, value.c_str()), "parameter");
  }
  return b;
}

// XGBoost's JSON model -> flat trees (a leaf's value is its split_conditions entry).
ResidualTrees convert(const nlohmann::json& j) {
  const auto& learner = j.at("learner");
  const double base =
      std::stod(learner.at("learner_model_param").at("base_score").get<std::string>());
  std::vector<ResidualTree> trees;
  for (const auto& t : learner.at("gradient_booster").at("model").at("trees")) {
    ResidualTree out;
    out.left = t.at("left_children").get<std::vector<int32_t>>();
    out.right = t.at("right_children").get<std::vector<int32_t>>();
    const auto split = t.at("split_indices").get<std::vector<int32_t>>();
    const auto cond = t.at("split_conditions").get<std::vector<double>>();
    for (size_t i = 0; i < out.left.size(); ++i) {
      const bool is_leaf = out.left[i] < 0;
      out.feature.push_back(is_leaf ? -1 : split.at(i));
      out.threshold.push_back(is_leaf ? 0.0f : static_cast<float>(cond.at(i)));
      out.value.push_back(is_leaf ? cond.at(i) : 0.0);
      if (is_leaf) out.left[i] = out.right[i] = -1;
    }
    trees.push_back(std::move(out));
  }
  return ResidualTrees(base, std::move(trees));
}

}  // namespace

void check_residual_options(const ResidualFitOptions& o, bool zero_rounds_ok) {
  if (o.rounds < (zero_rounds_ok ? 0 : 1)) {
    throw std::invalid_argument(std::string("--residual-rounds must be >= ") +
                                (zero_rounds_ok ? "0" : "1"));
  }
  if (o.max_leaves < 2) throw std::invalid_argument("--residual-leaves must be >= 2");
  if (!(o.learning_rate > 0 && o.learning_rate <= 1)) {
    throw std::invalid_argument("--residual-learning-rate must be in (0, 1]");
  }
  if (!(o.min_rows >= 0 && std::isfinite(o.min_rows))) {
    throw std::invalid_argument("--residual-min-rows must be a finite number >= 0");
  }
}

ResidualFit fit_residual_trees(const std::vector<ResidualFeatures>& x, const std::vector<double>& y,
                               const ResidualFitOptions& options) {
  check_input(x, y);
  check_residual_options(options);
  const DMatrix train = training_matrix(x, y);
  const double base = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
  const Booster booster = configured_booster(train.get(), options, base);
  for (int i = 0; i < options.rounds; ++i) {
    check_xgb(XGBoosterUpdateOneIter(booster.get(), i, train.get()), "training");
  }
  bst_ulong len = 0;
  const char* buf = nullptr;
  check_xgb(XGBoosterSaveModelToBuffer(booster.get(), R"({"format": "json"})", &len, &buf),
            "saving the model");
  ResidualFit fit{convert(nlohmann::json::parse(std::string(buf, len))), {}};
  const float* pred = nullptr;
  check_xgb(XGBoosterPredict(booster.get(), train.get(), 0, 0, 0, &len, &pred), "prediction");
  fit.trainer_predictions.assign(pred, pred + len);
  return fit;
}

}  // namespace lw

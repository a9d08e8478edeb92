// CostModel: what one segment's MAC loop, one transfer (epilogue, partial store/load/add) and one
// launch, CTA or flag costs, given the state the simulator passes (models/cost_state.hpp). A
// model's own terms stay inside it; the engine reads only what state to track (needs()).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cost_state.hpp"
#include "models/residual/residual_trees.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/plan.hpp"
#include "sim/decomp/walk.hpp"

namespace lw {

class CostModel {
 public:
  virtual ~CostModel() = default;
  // What the simulator must track for a run of plan `p`, and which stretches it applies.
  virtual CostNeeds needs(const Plan& /*p*/) const { return CostNeeds{}; }
  // Time of one MAC iteration (k-tile) of plan `p` in context `c`: a segment's MAC loop takes
  // segment_iters x this at its start (mac_time), or, under CostNeeds::shared_rate, progresses at
  // 1 / this as the context changes (c.busy_sms is then at least 1).
  virtual double iter_time(const Plan& p, const CostContext& c) const = 0;
  // A MAC loop's stretch of kind `kind` (see Stretch) as it starts at `at`.
  virtual double stretch(Stretch kind, const Plan& /*p*/, const LoopStart& /*at*/) const {
    return kind == Stretch::SmSpread ? 0.0 : 1.0;
  }
  // One transfer of segment `s` (see Transfer) starting in context `c`.
  virtual double transfer(Transfer kind, const Plan& p, const Segment& s,
                          const CostContext& c) const = 0;
  // The flag latency, CTA prologue and launch overhead of plan `p`.
  virtual FixedCosts fixed_costs(const Plan& /*p*/) const { return FixedCosts{}; }
  // What `best` may assume of plan `p`'s costs at `busy_sms` busy SMs. Default: nothing.
  virtual LoadBound load_bound(const Plan& /*p*/, int64_t /*busy_sms*/) const {
    return LoadBound{};
  }
  // Empty when the model can cost plans of this tile and cluster; otherwise one line naming the
  // parameter it lacks. By default 1x1 only: a cluster's multicast operand sharing changes the
  // traffic a physical model was fitted on (the `unit` model, with no traffic, takes any).
  virtual std::string config_error(const TileShape& tile, const ClusterShape& cluster) const {
    (void)tile;
    if (cluster.m == 1 && cluster.n == 1) return "";
    return "the cost model has no parameters for cluster " + std::to_string(cluster.m) + "x" +
           std::to_string(cluster.n) + " (multicast operand sharing is not modelled)";
  }
  // "iter" for abstract MAC-iteration units, "us" for physical time.
  virtual std::string time_unit() const = 0;

  // The learned correction of the simulated makespan (a model file's "residual_trees"): the
  // simulator multiplies the makespan of plan `p` on `sms` SMs by makespan_factor(p, sms) (1
  // without trees); event times and traces stay the simulation's own. The model answers
  // differently after: it takes a new id().
  void set_residual_trees(std::shared_ptr<const ResidualTrees> trees) {
    residual_ = std::move(trees);
    id_ = next_id();
  }
  const ResidualTrees* residual_trees() const { return residual_.get(); }
  double makespan_factor(const Plan& p, int64_t sms) const;
  // makespan_factor of plans[i] on sms[i] SMs for i < n, written to factors[0..n): the same
  // values, to the bit, computed together (the trees walked once for them all; the plans of one
  // shape, tile and cluster share most of each walk).
  void makespan_factors(const Plan* plans, const int64_t* sms, size_t n, double* factors) const;

  // Tells this model from every other one built in the process (a copy shares it: the same
  // answers), so that a cache across runs (the simulator's sm_spread answers and kept runs)
  // serves one model only.
  uint64_t id() const { return id_; }

 private:
  static uint64_t next_id() {
    static std::atomic<uint64_t> ids{0};
    return ++ids;
  }
  uint64_t id_ = next_id();
  std::shared_ptr<const ResidualTrees> residual_;
};

// The MAC loop of segment `s` (segment_iters(s) k-tiles) at the iteration time in context `c`,
// before any stretch.
inline double mac_time(const CostModel& model, const Plan& p, const Segment& s,
                       const CostContext& c) {
  const int64_t iters = segment_iters(s);
  return iters == 0 ? 0.0 : static_cast<double>(iters) * model.iter_time(p, c);
}

// The share of a whole tile's epilogue a CTA's next MAC loop waits for (CostNeeds::
// epilogue_overlap: 1 - the share that runs beside it).
inline double exposed_epilogue_share(const CostModel& model, const Plan& p) {
  return 1.0 - model.needs(p).epilogue_overlap;
}

// Every tile's full MAC loop and the share of its epilogue that does not run beside another loop
// under `model`, spread evenly over the plan's CTA slots with all `sms` SMs busy: the least time
// the tiles' work can take (SimResult::ideal before the makespan factor). `sms` counts SMs (a
// cluster's CTAs singly), as makespan_factor's does.
inline double ideal_makespan(const CostModel& model, const Plan& p, int64_t sms) {
  Segment whole;
  whole.k_begin = 0;
  whole.k_end = p.k_tiles;
  const CostContext all{sms, sms};
  const auto slots = static_cast<double>(sms / cluster_size(p));
  const double epilogue =
      exposed_epilogue_share(model, p) * model.transfer(Transfer::Epilogue, p, whole, all);
  return static_cast<double>(p.tiles) * (mac_time(model, p, whole, all) + epilogue) / slots;
}

inline double CostModel::makespan_factor(const Plan& p, int64_t sms) const {
  if (!residual_) return 1.0;
  return residual_->factor(p, sms, residual_->uses_ideal() ? ideal_makespan(*this, p, sms) : 0.0);
}

inline void CostModel::makespan_factors(const Plan* plans, const int64_t* sms, size_t n,
                                        double* factors) const {
  if (!residual_) {
    std::fill(factors, factors + n, 1.0);
    return;
  }
  thread_local std::vector<ResidualFeatures> xs;
  xs.clear();
  for (size_t i = 0; i < n; ++i) {
    xs.push_back(residual_features(
        plans[i], sms[i], residual_->uses_ideal() ? ideal_makespan(*this, plans[i], sms[i]) : 0.0));
  }
  residual_->remember_log_factors(xs.data(), xs.size(), factors);
  for (size_t i = 0; i < n; ++i) factors[i] = std::exp(factors[i]);  // as ResidualTrees::factor
}

}  // namespace lw

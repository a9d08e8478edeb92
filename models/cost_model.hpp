// CostModel: what each action of a simulated CTA costs. The simulator asks per segment/action and
// passes how many SMs are busy at that moment, so bandwidth-sharing models can plug in.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/panel_lag.hpp"
#include "models/residual/residual_trees.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/plan.hpp"
#include "sim/decomp/walk.hpp"

namespace lw {

struct CostContext {
  int64_t sms = 0;       // SMs of the (partition of the) GPU
  int64_t busy_sms = 0;  // SMs executing (not idle, not only waiting) when the action starts
  // Distinct tile rows (A panels) and tile columns (B panels) among the segments in flight on
  // the GPU, this one included: the operand working set that L2 has to hold. 0 = unknown.
  int64_t active_tile_rows = 0;
  int64_t active_tile_cols = 0;
  // How far apart in K the tiles sharing a panel walk (one value per run, owned by the simulator;
  // set when uses_panel_lag(), else null).
  const PanelLag* panel_lag = nullptr;
};

class CostModel {
 public:
  virtual ~CostModel() = default;
  // MAC loop of a segment (segment_iters(s) k-tiles of one output tile).
  virtual double mac(const Plan& p, const Segment& s, const CostContext& c) const = 0;
  // Writing the finished tile to C.
  virtual double epilogue(const Plan& p, const Segment& s, const CostContext& c) const = 0;
  // Storing one fp32 partial tile to the workspace.
  virtual double partial_store(const Plan& p, const Segment& s, const CostContext& c) const = 0;
  // Loading one fp32 partial tile from the workspace and adding it to the accumulators.
  virtual double partial_load(const Plan& p, const Segment& s, const CostContext& c) const = 0;
  // Adding an accumulator tile into a workspace slot in place (read-modify-write or atomics).
  virtual double partial_accumulate(const Plan& p, const Segment& s,
                                    const CostContext& c) const = 0;
  // Delay between a flag being raised and a spinning waiter seeing it.
  virtual double flag_latency(const Plan&) const { return 0; }
  // A CTA's start-up before its first MAC iteration (pipeline fill, setup).
  virtual double cta_prologue(const Plan&) const { return 0; }
  // Host launch overhead of one kernel launch (charged before each launch).
  virtual double launch_overhead(const Plan&) const { return 0; }
  // True if the model reads CostContext::active_tile_rows/cols (the simulator tracks them only
  // then).
  virtual bool uses_working_set() const { return false; }
  // True if the model reads CostContext::panel_lag (the simulator computes it only then). Such a
  // model must not read the working set for a plan whose lag is known (the simulator does not
  // track it there).
  virtual bool uses_panel_lag() const { return false; }
  // Processor sharing of the MAC loop. A model whose MAC iteration time depends on the busy-SM
  // count (or the working set) returns true here; its mac() must then equal segment_iters x
  // iter_time(context). The simulator re-rates every MAC loop in flight whenever the busy-SM count
  // (or, for a model that uses_working_set(), the distinct tile rows or columns in flight)
  // changes: each loop progresses at 1 / iter_time(now) iterations per time unit, so a loop that
  // started in a full wave speeds up when the wave's tail leaves.
  virtual bool shares_mac_rate() const { return false; }
  // Time of one MAC iteration of plan `p` in context `c` (only when shares_mac_rate()): c.busy_sms
  // is at least 1, and the working set is filled in when uses_working_set(). Must not depend on
  // anything else that changes during a simulation.
  virtual double iter_time(const Plan& /*p*/, const CostContext& /*c*/) const { return 0; }
  // The spread of the SMs' speeds: a MAC loop that starts on SM `sm` (a cluster slot for a cluster
  // plan) of a run on `sms` SMs (slots x cluster size) while a share u of them is busy takes
  // 1 + sm_spread(sm, sms) x u times as long as iter_time / mac say (sm_spread >= 0). The simulator
  // asks once per SM when slows_sms() and keeps the answers for the model's next runs on as many
  // SMs: sm_spread must not change over the model's life (see id()).
  virtual bool slows_sms() const { return false; }
  virtual double sm_spread(int64_t /*sm*/, int64_t /*sms*/) const { return 0.0; }
  // A stretch of one segment's MAC loop: it takes segment_stretch(p, s) (>= 1) times as long as
  // iter_time / mac say, on top of sm_spread (a tile whose loads are slower than the plan's
  // average). The simulator asks per segment only when stretches_segments(p).
  virtual bool stretches_segments(const Plan& /*p*/) const { return false; }
  virtual double segment_stretch(const Plan& /*p*/, const Segment& /*s*/) const { return 1.0; }
  // The clock under a power limit: a MAC loop that starts `t` after the run began takes
  // clock_stretch(p, c, t, iter) (>= 1) times as long, on top of the stretches above (c: the
  // context at its start, `iter`: its MAC iteration time there, the simulator's cached answer).
  // The simulator asks per loop only when throttles_clock().
  virtual bool throttles_clock() const { return false; }
  virtual double clock_stretch(const Plan& /*p*/, const CostContext& /*c*/, double /*t*/,
                               double /*iter*/) const {
    return 1.0;
  }
  // "iter" for abstract MAC-iteration units, "us" for physical time.
  virtual std::string time_unit() const = 0;
  // Empty when the model can cost plans of this tile and cluster; otherwise one line naming the
  // parameter it lacks. By default 1x1 only: a cluster's multicast operand sharing changes the
  // traffic a physical model was fitted on (the `unit` model, with no traffic, takes any).
  virtual std::string config_error(const TileShape& tile, const ClusterShape& cluster) const {
    (void)tile;
    if (cluster.m == 1 && cluster.n == 1) return "";
    return "the cost model has no parameters for cluster " + std::to_string(cluster.m) + "x" +
           std::to_string(cluster.n) + " (multicast operand sharing is not modelled)";
  }
  // True when no cost can fall below its value at busy_sms = 1 and a working set of one tile row
  // and column (every load term is nondecreasing): `best` then skips a candidate whose least
  // possible total work already exceeds the best makespan found (exact, see sim/predict/best.hpp).
  virtual bool costs_grow_with_load() const { return false; }
  // A lower bound on iter_time(p, c) over every context c with `busy_sms` SMs busy (any working
  // set, panel gaps), before the simulator's stretches (which only lengthen a loop): `best` skips
  // a candidate whose least possible makespan exceeds the best found. A model that answers > 0
  // promises that it is nondecreasing in busy_sms and busy_sms / least_iter_time is too (more
  // busy SMs never lower the chip's iteration throughput). 0: no bound.
  virtual double least_iter_time(const Plan& p, int64_t busy_sms) const {
    (void)p;
    (void)busy_sms;
    return 0.0;
  }
  // False when the parameter `name` (of the model's parameter list) cannot change any cost of a
  // plan of `problem` (a term that applies to other problems only): predict's check of parameters
  // a calibration left undetermined does not simulate such rows again. Default: true.
  virtual bool param_reaches(const std::string& name, const Problem& problem) const {
    (void)name;
    (void)problem;
    return true;
  }
  // The tile the parameters were fitted for (a model file's "tile"); models that scale their
  // costs to other tiles scale from it. Default: kDefaultTile.
  virtual void set_fitted_tile(const TileShape&) {}
  // The clusters the parameters were fitted on (a model file's "clusters"); a model may refuse
  // others in config_error, so that `best` never picks a config no measurement covered. Default:
  // ignored.
  virtual void set_fitted_clusters(const std::vector<ClusterShape>&) {}
  // The tiles the parameters were fitted on (a model file's "tiles"), likewise. Default: ignored.
  virtual void set_fitted_tiles(const std::vector<TileShape>&) {}

  // The learned correction of the simulated makespan (a model file's "residual_trees"): the
  // simulator multiplies the makespan of plan `p` on `sms` SMs by makespan_factor(p, sms) (1
  // without trees); event times and traces stay the simulation's own.
  void set_residual_trees(std::shared_ptr<const ResidualTrees> trees) {
    residual_ = std::move(trees);
  }
  const ResidualTrees* residual_trees() const { return residual_.get(); }
  double makespan_factor(const Plan& p, int64_t sms) const;
  // makespan_factor of plans[0..n) on `sms` SMs, written to factors[0..n): the same values, to
  // the bit, computed together (the plans of one shape, tile and cluster share most of the trees'
  // walk).
  void makespan_factors(const Plan* plans, size_t n, int64_t sms, double* factors) const;

  // Tells this model from every other one built in the process (a copy shares it: the same
  // answers), so that a cache across runs (the simulator's sm_spread answers) serves one model
  // only.
  uint64_t id() const { return id_; }

 private:
  static uint64_t next_id() {
    static std::atomic<uint64_t> ids{0};
    return ++ids;
  }
  uint64_t id_ = next_id();
  std::shared_ptr<const ResidualTrees> residual_;
};

// Every tile's full MAC loop and epilogue under `model`, spread evenly over the plan's CTA slots
// with all `sms` SMs busy: the least time the tiles' work can take (SimResult::ideal before the
// makespan factor). `sms` counts SMs (a cluster's CTAs singly), as makespan_factor's does.
inline double ideal_makespan(const CostModel& model, const Plan& p, int64_t sms) {
  Segment whole;
  whole.k_begin = 0;
  whole.k_end = p.k_tiles;
  const CostContext all{sms, sms};
  const auto slots = static_cast<double>(sms / cluster_size(p));
  return static_cast<double>(p.tiles) * (model.mac(p, whole, all) + model.epilogue(p, whole, all)) /
         slots;
}

inline double CostModel::makespan_factor(const Plan& p, int64_t sms) const {
  if (!residual_) return 1.0;
  return residual_->factor(p, sms, residual_->uses_ideal() ? ideal_makespan(*this, p, sms) : 0.0);
}

inline void CostModel::makespan_factors(const Plan* plans, size_t n, int64_t sms,
                                        double* factors) const {
  if (!residual_) {
    std::fill(factors, factors + n, 1.0);
    return;
  }
  thread_local std::vector<ResidualFeatures> xs;
  xs.clear();
  for (size_t i = 0; i < n; ++i) {
    xs.push_back(residual_features(
        plans[i], sms, residual_->uses_ideal() ? ideal_makespan(*this, plans[i], sms) : 0.0));
  }
  residual_->remember_log_factors(xs.data(), xs.size(), factors);
  for (size_t i = 0; i < n; ++i) factors[i] = std::exp(factors[i]);  // as ResidualTrees::factor
}

}  // namespace lw

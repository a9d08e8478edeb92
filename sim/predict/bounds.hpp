// Lower bounds on a plan's simulated time (before the makespan factor), which `best` compares with
// the fastest makespan found so far to skip candidates that cannot win (sim/predict/best.cpp).
#pragma once
#include <limits>

#include "models/cost_model.hpp"
#include "sim/decomp/plan.hpp"
#include "sim/gpu/simulator.hpp"

namespace lw {

// The simulator sums other terms than the bounds below: a bound is lowered by this share before it
// is compared, so that rounding never makes it pass a makespan it bounds.
inline constexpr double kRoundingMargin = 1.0 - 1e-9;

// The least simulated time plan `p` can take under a model whose costs grow with load
// (CostModel::load_bound; 0 under others): cheap, from CTA 0's segments and whole-plan totals.
double least_time(const Plan& p, const CostModel& model, const SimOptions& opt);

// What the whole chip needs at least per MAC iteration, per tile's epilogue and per fixup action
// of plan `p` under a shared MAC rate and costs that grow with load (CostNeeds::shared_rate,
// LoadBound::costs_grow; all 0 under other models), in simulated time: least_iter_time with every
// SM busy, and the epilogue and the least of partial store, add and load at one busy SM, each over
// the CTA slots; and the plan's count of fixup actions where it is known in closed form (split-K
// into slots: two per peer partial, its store and its load; 0 for other plans). While x CTAs loop
// and y run an action on b >= x + y busy SMs, x / least_iter_time(b) x least_iter_time(all) /
// slots + y / slots <= 1 (least_iter_time's promise: b / least_iter_time(b) never falls as SMs are
// added), so the work still to start needs at least the sum of its floors (SimOptions::floors).
WorkFloors chip_floors(const Plan& p, const CostModel& model, const SimOptions& opt);

// A tighter bound for a plan whose tiles are split (0 for others, or under a model whose costs do
// not grow): every CTA's segments in turn at their least costs, partial loads and adds included,
// each fixup waiting for the peers' stores it reads (as bounded by the previous pass), and every
// slot's share of all that work. Walks every CTA a few times: dearer than least_time, cheaper
// than a simulation. Stops early with a bound above `enough` once it finds one.
double fixup_chain_time(const Plan& p, const CostModel& model, const SimOptions& opt,
                        double enough = std::numeric_limits<double>::infinity());

}  // namespace lw

// Lower bounds on a plan's simulated time for best's pruning (see bounds.hpp).
#include "sim/predict/bounds.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace lw {

namespace {

// A lower bound on a split-K plan's makespan under a model whose costs grow with load: every tile's
// split segments at one busy SM, one partial store or add per non-owner split and the epilogue,
// spread evenly over all CTA slots, after the launch, in simulated time (before the makespan
// factor). 0 for other plans (not needed: split-K candidates hold
// most of a large shape's events).
double split_k_lower_bound(const Plan& p, const CostModel& model, const SimOptions& opt) {
  if (!model.load_bound(p, 1).costs_grow || p.split_mode != SplitMode::FixedSplit ||
      p.separate_reduction) {
    return 0;
  }
  const CostContext least{opt.sms * opt.cluster_size, 1, 1, 1};  // split-K: no panel gaps
  double per_tile = 0;
  Segment seg;  // tile 0: all its rows are inside the problem if any tile's are
  for (int64_t s = 0; s < p.splits; ++s) {
    const UnitRange r = unit_range(p, s * p.split_tiles);
    seg.k_begin = r.begin;
    seg.k_end = r.end;
    per_tile += mac_time(model, p, seg, least);
  }
  const double fixup = std::min(model.transfer(Transfer::PartialStore, p, seg, least),
                                model.transfer(Transfer::PartialAccumulate, p, seg, least));
  per_tile +=
      static_cast<double>(p.splits - 1) * fixup + model.transfer(Transfer::Epilogue, p, seg, least);
  const FixedCosts fixed = model.fixed_costs(p);
  return fixed.staging + fixed.launch_overhead +
         static_cast<double>(p.tiles) * per_tile / static_cast<double>(opt.sms * opt.ctas_per_sm);
}

// The least iteration time of the first MAC loop of every first-wave CTA of a plan whose tiles are
// not split (data-parallel): the first wave is placed before any CTA starts and no CTA waits, so
// until the first CTA with work exits the busy SMs are at least the first wave's CTAs with work,
// and every first loop ends after at
// least k_tiles iterations at that count (the loop that ends first ran under it all along). Other
// plans: `alone` (a CTA that waits leaves the others fewer busy SMs).
double first_loop_iter(const Plan& p, const CostModel& model, const SimOptions& opt, double alone) {
  if (p.split_mode != SplitMode::None || p.separate_reduction) return alone;
  // CTAs with work (a persistent grid may exceed the tiles: the others exit at once), placed
  // round-robin on the SMs.
  const int64_t working = std::min({p.grid, p.work_units, opt.sms * opt.ctas_per_sm});
  const int64_t busy = std::min(working, opt.sms) * opt.cluster_size;  // SMs, as the model counts
  return std::max(alone, model.load_bound(p, busy).least_iter_time);
}

}  // namespace

WorkFloors chip_floors(const Plan& p, const CostModel& model, const SimOptions& opt) {
  if (!model.needs(p).shared_rate || !model.load_bound(p, 1).costs_grow) return {};
  const int64_t all_sms = opt.sms * opt.cluster_size;
  const double slots = static_cast<double>(opt.sms * opt.ctas_per_sm);
  const CostContext least{all_sms, 1, 1, 1};
  const Segment seg;
  WorkFloors f;
  f.iter = model.load_bound(p, all_sms).least_iter_time / slots;
  // Only the share of an epilogue that no loop runs beside takes the chip's time alone.
  f.epilogue =
      exposed_epilogue_share(model, p) * model.transfer(Transfer::Epilogue, p, seg, least) / slots;
  f.fixup = std::min({model.transfer(Transfer::PartialStore, p, seg, least),
                      model.transfer(Transfer::PartialAccumulate, p, seg, least),
                      model.transfer(Transfer::PartialLoad, p, seg, least)}) /
            slots;
  if (p.split_mode == SplitMode::FixedSplit && p.storage == FixupStorage::Slots &&
      !p.separate_reduction && p.splits > 1) {
    f.fixups = 2.0 * static_cast<double>(p.split_tiles) * static_cast<double>(p.splits - 1);
  }
  return f;
}

// The least simulated time (before the makespan factor) plan `p` can take under a model whose
// costs grow with load (CostModel::load_bound; 0 under others), the most of four bounds, each
// after the launch:
// - the CTA slots share the work: every MAC iteration at least_iter_time at one busy SM, every
//   action (epilogue, partial store or add) at one busy SM, every CTA's prologue;
// - CTA 0 runs its own segments one after another (after its prologue), as cheap as that, but its
//   first loop at first_loop_iter;
// - a data-parallel slot that runs the most CTAs (ceil(grid / slots)): the first of them ends no
//   earlier than CTA 0's first tile, each later one takes a CTA's work at one busy SM;
// - under a shared MAC rate (CostNeeds::shared_rate: a loop runs at the iteration time of the
//   SMs busy at each instant), the chip's iteration throughput is at most that of all SMs busy
//   (least_iter_time's promise), so every iteration takes least_iter_time at all SMs / slots;
// and at least split_k_lower_bound. Flag waits and partial loads count as free.
double least_time(const Plan& p, const CostModel& model, const SimOptions& opt) {
  const LoadBound alone = model.load_bound(p, 1);
  if (!alone.costs_grow) return 0;
  const int64_t all_sms = opt.sms * opt.cluster_size;
  const double iter = alone.least_iter_time;
  const double first_iter = first_loop_iter(p, model, opt, iter);
  const CostContext least{all_sms, 1, 1, 1};
  Segment seg;
  const double epilogue = model.transfer(Transfer::Epilogue, p, seg, least);
  // A ping-pong CTA's next loop waits for this share of an epilogue; its last epilogue it waits
  // for whole (CostNeeds::epilogue_overlap).
  const double exposed = exposed_epilogue_share(model, p) * epilogue;
  const double store = model.transfer(Transfer::PartialStore, p, seg, least);
  const double accumulate = model.transfer(Transfer::PartialAccumulate, p, seg, least);
  const FixedCosts fixed = model.fixed_costs(p);
  const double prologue = fixed.cta_prologue;
  const double iters = static_cast<double>(p.tiles) * static_cast<double>(p.k_tiles);
  const double work = iters * iter + static_cast<double>(p.tiles) * exposed +
                      static_cast<double>(p.grid) * prologue;
  double chain = prologue;  // CTA 0
  CtaWalk w;
  walk_begin(p, 0, w);
  bool first = true;
  for (; walk_next(p, w, seg); first = false) {
    const double action = seg.role == Role::Whole          ? exposed
                          : seg.role == Role::Final        ? epilogue
                          : seg.role == Role::StorePartial ? store
                                                           : accumulate;
    chain += static_cast<double>(segment_iters(seg)) * (first ? first_iter : iter) + action;
  }
  if (!first && exposed < epilogue) chain += epilogue - exposed;  // the last epilogue, whole
  const int64_t slot_count = opt.sms * opt.ctas_per_sm;
  const double slots = static_cast<double>(slot_count);
  double waves = 0;
  if (p.split_mode == SplitMode::None && !p.separate_reduction && p.grid > 0) {
    const double k = static_cast<double>(p.k_tiles);
    waves =
        prologue + k * first_iter + epilogue +
        static_cast<double>(ceil_div(p.grid, slot_count) - 1) * (prologue + k * iter + epilogue);
  }
  const WorkFloors floors = chip_floors(p, model, opt);
  const double throughput = iters * floors.iter + static_cast<double>(p.tiles) * floors.epilogue +
                            floors.fixups * floors.fixup;
  return std::max(
      fixed.staging + fixed.launch_overhead + std::max({work / slots, chain, waves, throughput}),
      split_k_lower_bound(p, model, opt));
}

namespace {

// The flags raised so far in a pass: per workspace slot a list of (no earlier than `time`,
// `amount`).
class RaisedFlags {
 public:
  void reset(int64_t slots) {
    head_.assign(static_cast<size_t>(slots), -1);
    raised_.clear();
    unresolved_ = false;
  }
  // Whether a reaches() since the reset found too few raises to bound its wait.
  bool unresolved() const { return unresolved_; }
  void raise(int64_t slot, double time, int64_t amount) {
    raised_.push_back(Raised{time, amount, head_[static_cast<size_t>(slot)]});
    head_[static_cast<size_t>(slot)] = static_cast<int32_t>(raised_.size() - 1);
  }
  // The earliest time flag `slot` can reach `value` by the raises so far (0 when they do not
  // reach it: no bound).
  double reaches(int64_t slot, int64_t value) {
    if (value <= 0) return 0.0;
    int32_t i = head_[static_cast<size_t>(slot)];
    if (i >= 0 && raised_[i].next < 0 && raised_[i].amount >= value) return raised_[i].time;
    thread_local std::vector<std::pair<double, int64_t>> times;
    times.clear();
    for (; i >= 0; i = raised_[i].next) times.emplace_back(raised_[i].time, raised_[i].amount);
    std::sort(times.begin(), times.end());
    int64_t sum = 0;
    for (const auto& [time, amount] : times) {
      sum += amount;
      if (sum >= value) return time;
    }
    unresolved_ = true;
    return 0.0;
  }

 private:
  struct Raised {
    double time;
    int64_t amount;
    int32_t next;  // the slot's previous raise, -1: none
  };
  std::vector<int32_t> head_;
  std::vector<Raised> raised_;
  bool unresolved_ = false;
};

// A segment's least costs (one busy SM, nothing in flight).
struct LeastCosts {
  double iter, epilogue, store, load, accumulate, prologue;
};

// The end of segment `seg`'s action after its MAC loop ends at `t`, waiting for the flags it reads
// as the raises so far bound them; its busy time (the waits not counted) is added to `work`.
double action_end(const Plan& p, const Segment& seg, const LeastCosts& c, RaisedFlags& in, double t,
                  double& work) {
  switch (seg.role) {
    case Role::Whole:
      work += c.epilogue;
      return t + c.epilogue;
    case Role::StorePartial:
      work += c.store;
      return t + c.store;
    case Role::Accumulate:
      work += c.accumulate;
      return std::max(t, in.reaches(seg.slot, seg.wait_value)) + c.accumulate;
    case Role::Final:
      break;
  }
  // Each awaited partial loaded in k order as its flag comes up (one in place), then C.
  const bool slots = p.storage == FixupStorage::Slots;
  const int64_t loads = slots ? seg.load_slots : 1;
  for (int64_t j = 0; j < loads; ++j) {
    t = std::max(t, in.reaches(seg.slot + (slots ? j : 0), seg.wait_value)) + c.load;
  }
  work += static_cast<double>(loads) * c.load + c.epilogue;
  return t + c.epilogue;
}

// The CTAs a pass walks: first, first + stride, ... (count of them), each standing for `copies`
// CTAs of the grid in the busy-time total (CTAs that run the same segments at the same times).
struct CtaRun {
  int64_t first, stride, count;
  double copies;
};

// The CTAs whose chains stand for every CTA of `p`, and the workspace slots their flags use: all
// of them, or for a split-K plan of one unit per CTA, the units of tile 0 (every split tile runs
// the same k ranges at the same least costs, and its flags are its own: slots below `splits`) and
// one data-parallel tile's CTA.
struct ChainCtas {
  std::array<CtaRun, 2> runs;
  size_t count;
  int64_t slots;
};
ChainCtas chain_ctas(const Plan& p) {
  if (p.split_mode != SplitMode::FixedSplit || p.grid != p.work_units || p.split_tiles < 1) {
    return {{CtaRun{0, 1, p.grid, 1.0}}, 1, p.workspace_slots};
  }
  ChainCtas c{{CtaRun{0, p.split_tiles, p.splits, static_cast<double>(p.split_tiles)}},
              1,
              std::min(p.workspace_slots, p.splits)};
  if (p.tiles > p.split_tiles) {
    c.runs[c.count++] = CtaRun{p.split_units, 1, 1, static_cast<double>(p.tiles - p.split_tiles)};
  }
  return c;
}

// One pass over `ctas` (each from time 0: waves not counted), in their order or the
// reverse, each fixup waiting for the flags the CTAs before it in that order raised (a flag they
// do not raise far enough sets `unresolved` and bounds nothing): the latest CTA end and the total
// busy time (waits not counted). Stops once the latest end passes `enough`.
struct Pass {
  double latest = 0, work = 0;
};
Pass chain_pass(const Plan& p, const LeastCosts& c, const ChainCtas& ctas, bool reverse,
                double enough, RaisedFlags& flags) {
  Pass r;
  flags.reset(ctas.slots);
  Segment seg;
  for (size_t k = 0; k < ctas.count; ++k) {
    const CtaRun& run = ctas.runs[reverse ? ctas.count - 1 - k : k];
    for (int64_t i = 0; i < run.count; ++i) {
      double t = c.prologue;
      double work = c.prologue;
      CtaWalk w;
      walk_begin(p, run.first + run.stride * (reverse ? run.count - 1 - i : i), w);
      while (walk_next(p, w, seg)) {
        const double mac = static_cast<double>(segment_iters(seg)) * c.iter;
        work += mac;
        t = action_end(p, seg, c, flags, t + mac, work);
        if (seg.signal > 0) flags.raise(seg.slot, t, seg.signal);
      }
      r.work += work * run.copies;
      r.latest = std::max(r.latest, t);
      if (r.latest > enough) return r;
    }
  }
  return r;
}

}  // namespace

double fixup_chain_time(const Plan& p, const CostModel& model, const SimOptions& opt,
                        double enough) {
  const LoadBound alone = model.load_bound(p, 1);
  if (!alone.costs_grow || p.split_mode == SplitMode::None || p.separate_reduction) return 0;
  const CostContext least{opt.sms * opt.cluster_size, 1, 1, 1};
  Segment seg;
  const LeastCosts c{alone.least_iter_time,
                     model.transfer(Transfer::Epilogue, p, seg, least),
                     model.transfer(Transfer::PartialStore, p, seg, least),
                     model.transfer(Transfer::PartialLoad, p, seg, least),
                     model.transfer(Transfer::PartialAccumulate, p, seg, least),
                     model.fixed_costs(p).cta_prologue};
  // Every CTA starts after the staging copy (if any) and the launch, as in the simulator.
  const FixedCosts fixed = model.fixed_costs(p);
  const double launch = fixed.staging + fixed.launch_overhead;
  thread_local RaisedFlags flags;
  // Forward, then backward if a wait went unbounded (its signals come from later CTAs).
  const ChainCtas ctas = chain_ctas(p);
  Pass pass = chain_pass(p, c, ctas, false, enough - launch, flags);
  if (flags.unresolved() && pass.latest <= enough - launch) {
    pass.latest =
        std::max(pass.latest, chain_pass(p, c, ctas, true, enough - launch, flags).latest);
  }
  const double slots = static_cast<double>(opt.sms * opt.ctas_per_sm);
  return launch + std::max(pass.latest, pass.work / slots);
}

}  // namespace lw

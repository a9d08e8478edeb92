// Event-driven execution of a Plan: dispatch, the per-CTA segment state machine, flags and waits.
#include "sim/gpu/simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace lw {

namespace {

// Event priorities among equal times: completions and wake-ups before new launches.
constexpr int32_t kPriorityWork = 0;
constexpr int32_t kPriorityLaunch = 1;

// A cost model's time for one action (`what`: the CostModel method), refused unless it is finite
// and non-negative: a wrong time must stop the simulation, not print a wrong makespan.
// A model's answer (a time, or sm_spread's stretch per busy share): finite and >= 0.
// The refusal is out of line (and cold) so that the check itself inlines into every action.
[[noreturn, gnu::cold, gnu::noinline]] void refuse_time(double value, const char* what) {
  throw std::runtime_error(std::string("the cost model gave ") + what + " a time of " +
                           std::to_string(value) + " (must be finite and >= 0)");
}

inline double checked(double value, const char* what) {
  if (std::isfinite(value) && value >= 0) return value;
  refuse_time(value, what);
}

}  // namespace

// A stretch below 1 (or not finite) would make a loop faster than its iteration time.
void Simulator::refuse_stretch(double s, const char* what) {
  throw std::runtime_error(std::string("the cost model gave ") + what + " " + std::to_string(s) +
                           " (must be finite and >= 1)");
}

// The model's time for one transfer of segment `s` in context `ctx`, checked.
inline double Simulator::transfer_time(Transfer kind, const Segment& s,
                                       const CostContext& ctx) const {
  return checked(model_->transfer(kind, *plan_, s, ctx), transfer_name(kind));
}

CostContext Simulator::context() const {
  return CostContext{opt_.sms * opt_.cluster_size, busy_sms_ * opt_.cluster_size, distinct_rows_,
                     distinct_cols_, &panel_lag_};
}

void Simulator::set_active(int64_t sm, int delta) {
  const int64_t before = active_per_sm_[sm];
  active_per_sm_[sm] += delta;
  if (before == 0 && active_per_sm_[sm] > 0) ++busy_sms_;
  if (before > 0 && active_per_sm_[sm] == 0) --busy_sms_;
}

const SimResult& Simulator::run(const Plan& plan, const CostModel& model,
                                const SimOptions& options) {
  if (const SimResult* kept = kept_run(plan, model, options)) {
    result_ = *kept;
    return result_;
  }
  const SimResult& r = simulate_run(plan, model, options);
  keep_run(plan, model, options);
  return r;
}

// The same inputs give the same result: the model's answers depend on them alone (CostModel::id
// tells models apart).
const SimResult* Simulator::kept_run(const Plan& plan, const CostModel& model,
                                     const SimOptions& options) {
  if (options.record_timeline) return nullptr;
  for (const KeptRun& k : kept_runs_) {
    if (k.valid && k.model == model.id() && same_options(k.options, options) &&
        same_plan(k.plan, plan)) {
      return &k.result;
    }
  }
  return nullptr;
}

void Simulator::keep_run(const Plan& plan, const CostModel& model, const SimOptions& options) {
  if (options.record_timeline) return;
  KeptRun& k = kept_runs_[next_kept_run_];
  next_kept_run_ = (next_kept_run_ + 1) % kRunsKept;
  k.valid = true;
  k.plan = plan;
  k.model = model.id();
  k.options = options;
  k.result = result_;
}

const SimResult& Simulator::simulate_run(const Plan& plan, const CostModel& model,
                                         const SimOptions& options) {
  // A learned makespan correction scales the result, so the cut-off applies to the scaled time.
  const double factor = options.makespan_factor > 0
                            ? options.makespan_factor
                            : model.makespan_factor(plan, simulated_sms(options));
  if (!(std::isfinite(factor) && factor > 0)) {
    throw std::runtime_error("the cost model's makespan factor is " + std::to_string(factor) +
                             ", not a positive finite number");
  }
  SimOptions scaled = options;
  scaled.cutoff = options.cutoff / factor;
  reset(plan, model, scaled);
  result_.makespan_factor = factor;
  try {
    launch(0, 0.0);
    run_events();
  } catch (const std::domain_error& e) {
    throw std::runtime_error(std::string("simulated time overflowed: ") + e.what());
  }
  finish_result();
  return result_;
}

// Resets the state for a run but keeps the buffers' capacity (sweeps run millions of them).
void Simulator::reset(const Plan& plan, const CostModel& model, const SimOptions& options) {
  plan_ = &plan;
  model_ = &model;
  opt_ = options;
  result_.timeline.clear();
  result_.deadlock = false;
  result_.deadlock_report.clear();
  result_.events = 0;
  result_.cut_off = false;
  queue_.clear();
  queue_.reserve(static_cast<size_t>(opt_.sms * opt_.ctas_per_sm) + 4);
  flags_.assign(static_cast<size_t>(plan.workspace_slots), 0);
  waiters_head_.assign(static_cast<size_t>(plan.workspace_slots), -1);
  active_per_sm_.assign(static_cast<size_t>(opt_.sms), 0);
  free_slots_.assign(static_cast<size_t>(opt_.sms), opt_.ctas_per_sm);
  sm_busy_.assign(static_cast<size_t>(opt_.sms), 0.0);
  sm_wait_.assign(static_cast<size_t>(opt_.sms), 0.0);
  busy_sms_ = 0;
  const CostNeeds needs = model.needs(plan);
  fixed_ = model.fixed_costs(plan);
  panel_lag_ = needs.panel_lag ? panel_lags_.of(plan) : PanelLag{};
  // A plan priced by its panel reuse gaps does not read the working set (CostNeeds).
  track_working_set_ = needs.working_set && !panel_lag_.known;
  rows_in_flight_.assign(static_cast<size_t>(plan.tiles_m), 0);
  cols_in_flight_.assign(static_cast<size_t>(plan.tiles_n), 0);
  distinct_rows_ = 0;
  distinct_cols_ = 0;
  slows_sms_ = needs.sm_spread;
  stretches_ = needs.segment_stretch;
  throttles_ = needs.clock;
  epilogue_overlap_ = needs.epilogue_overlap;
  if (!(epilogue_overlap_ >= 0 && epilogue_overlap_ <= 1)) {
    throw std::runtime_error("the cost model gave an epilogue overlap of " +
                             std::to_string(epilogue_overlap_) + " (must be in [0, 1])");
  }
  if (slows_sms_) ask_sm_spread(model);
  now_ = 0;
  iters_unstarted_ = static_cast<double>(plan.tiles) * static_cast<double>(plan.k_tiles);
  epilogues_unstarted_ = static_cast<double>(plan.tiles);
  fixups_unstarted_ = options.floors.fixups;
  stop_at_ = opt_.cutoff;
  floors_on_ = opt_.floors.iter > 0 && std::isfinite(opt_.cutoff);
  update_stop();
  rated_ = needs.shared_rate;
  progress_ = progress_at_ = 0;
  mac_ends_.clear();
  mac_starts_.clear();
  mac_starts_head_ = 0;
  mac_end_busy_ = kStale;
  if (rated_) iter_time_by_busy_.assign(static_cast<size_t>(opt_.sms) + 1, -1.0);
  ++run_id_;  // every cached working-set answer is of an earlier run now
  clock_answer_ = ClockAnswer{};
  iter_now_ = IterNow{};
}

// The model's Stretch::SmSpread of every SM, asked once per model and SM count (it is fixed for a
// model's life, and a sweep runs many plans under one model on one GPU).
void Simulator::ask_sm_spread(const CostModel& model) {
  const int64_t sms = opt_.sms * opt_.cluster_size;
  for (const SmSpreadAnswers& a : sm_spreads_) {
    if (a.model == model.id() && a.slots == opt_.sms && a.sms == sms) {
      sm_spread_ = a.spread.data();
      return;
    }
  }
  SmSpreadAnswers& a = sm_spreads_[sm_spread_next_];
  a.model = 0;  // a refusal below leaves no answers kept
  a.spread.resize(static_cast<size_t>(opt_.sms));
  for (int64_t s = 0; s < opt_.sms; ++s) {
    const LoopStart at{s, nullptr, CostContext{sms}};
    a.spread[static_cast<size_t>(s)] =
        checked(model.stretch(Stretch::SmSpread, *plan_, at), "sm_spread");
  }
  a.model = model.id();
  a.slots = opt_.sms;
  a.sms = sms;
  sm_spread_ = a.spread.data();
  sm_spread_next_ = (sm_spread_next_ + 1) % kSmSpreadsKept;
}

void Simulator::run_events() {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  while (!queue_.empty() || !mac_ends_.empty() || mac_starts_head_ < mac_starts_.size()) {
    const double t_queue = queue_.empty() ? kNever : queue_.top_time();
    const double t_start =
        mac_starts_head_ < mac_starts_.size() ? mac_starts_[mac_starts_head_].time : kNever;
    // Rated mode: a MAC loop that ends before (or with) the next event completes first.
    if (!mac_ends_.empty()) {
      const double t_mac = next_mac_end();
      if (t_mac <= std::min(t_queue, t_start)) {
        if (!complete_mac_loop(t_mac)) break;  // past the cutoff
        continue;
      }
    }
    if (t_start != kNever && t_start <= t_queue) {  // a start and a queued event commute
      if (t_start > stop_at_) {
        now_ = t_start;
        result_.cut_off = true;
        break;
      }
      pop_mac_starts();
      continue;
    }
    const Event e = queue_.pop();
    if (rated_) advance_progress(e.time);
    now_ = e.time;
    if (e.time > stop_at_) {
      result_.cut_off = true;
      break;
    }
    ++result_.events;
    const int64_t cta = e.subject;
    switch (e.kind) {
      case kLaunch:
        launch(static_cast<int32_t>(cta), e.time);
        break;
      case kMacDone:
        ctas_[cta].t_mac_end = e.time;
        try_fixup(cta, e.time);
        break;
      case kWake:
        set_active(ctas_[cta].sm, +1);
        sm_wait_[ctas_[cta].sm] += e.time - ctas_[cta].t_wait_begin;
        ctas_[cta].waited += e.time - ctas_[cta].t_wait_begin;
        try_fixup(cta, e.time);
        break;
      case kLoadDone:
        ctas_[cta].loads_done += ctas_[cta].pending_loads;
        try_fixup(cta, e.time);
        break;
      case kSegmentDone:
        finish_segment(cta, e.time);
        break;
      case kMacStart:
        start_rated_mac(cta, static_cast<double>(segment_iters(ctas_[cta].seg)));
        break;
      case kDrained:
        exit_cta(cta, e.time);
        break;
    }
  }
}

// Makespan, deadlock report, ideal, efficiency and per-SM statistics of the finished run.
void Simulator::finish_result() {
  const Plan& plan = *plan_;
  const CostModel& model = *model_;
  result_.makespan = now_ * result_.makespan_factor;  // the simulated time, corrected
  if (!result_.cut_off &&
      (done_in_launch_ < launch_grid_ || (current_launch_ == 0 && plan.separate_reduction))) {
    report_deadlock();
  }
  // Ideal: every tile's full MAC loop plus its epilogue, spread evenly over all SMs, under the
  // same correction as the makespan (so efficiency compares like with like and stays <= 1).
  result_.ideal = checked(ideal_makespan(model, plan, simulated_sms(opt_)), "ideal makespan") *
                  result_.makespan_factor;
  result_.efficiency = result_.makespan > 0 ? result_.ideal / result_.makespan : 0.0;
  if (opt_.sm_stats) {
    result_.sm_stats.resize(static_cast<size_t>(opt_.sms));
    const double slots = static_cast<double>(opt_.ctas_per_sm);
    for (int64_t s = 0; s < opt_.sms; ++s) {
      SmStats& st = result_.sm_stats[s];
      st.busy = sm_busy_[s] / slots;
      st.wait = sm_wait_[s] / slots;
      st.idle = std::max(0.0, now_ - st.busy - st.wait);
    }
  } else {
    result_.sm_stats.clear();
  }
  check_times();
}

// A makespan or ideal that is negative, NaN or infinite is never returned (it would be printed).
void Simulator::check_times() const {
  for (const auto& [what, v] : {std::pair<const char*, double>{"makespan", result_.makespan},
                                {"ideal makespan", result_.ideal}}) {
    if (std::isfinite(v) && v >= 0) continue;
    throw std::runtime_error(std::string("simulated ") + what + " is " + std::to_string(v) +
                             ", not a finite non-negative time (check the cost model's "
                             "parameters)");
  }
}

void Simulator::launch(int32_t which, double t) {
  current_launch_ = which;
  launch_grid_ = which == 0 ? plan_->grid : reduction_grid(*plan_);
  next_to_dispatch_ = 0;
  done_in_launch_ = 0;
  // State is kept per CTA slot (at most sms * ctas_per_sm CTAs are resident), not per CTA, so a
  // grid of many waves costs no memory traffic for CTAs that are not running.
  const int64_t resident = resident_slots(which);
  if (ctas_.size() < static_cast<size_t>(resident)) ctas_.resize(static_cast<size_t>(resident));
  // A slot's consumers start idle; an exiting CTA leaves them so for the next (start_next_segment).
  if (epilogue_overlap_ > 0) consumers_.assign(static_cast<size_t>(resident), Consumers{});
  used_slots_ = 0;  // dispatch() resets each slot's state when it first uses it
  const double staging = which == 0 ? checked(fixed_.staging, "staging") : 0.0;
  const double start = t + staging + checked(fixed_.launch_overhead, "launch_overhead");
  // Hardware fills SMs round-robin: CTA i lands on SM i % sms while slots remain. All of the
  // first wave is placed before any CTA starts, so every one of them sees the same busy-SM count.
  const int64_t first_wave = resident;
  for (int64_t i = 0; i < first_wave; ++i)
    place(dispatched_cta(next_to_dispatch_++), i, i % opt_.sms);
  // (A CTA with no work exits at once and hands its slot to the next CTA.)
  for (int64_t i = 0; i < first_wave; ++i)
    start_next_segment(i, start + checked(fixed_.cta_prologue, "cta_prologue"));
}

int64_t Simulator::resident_slots(int32_t which) {
  const int64_t slots = opt_.sms * opt_.ctas_per_sm;
  gang_ = which == 0 ? std::max<int64_t>(1, reduce_cluster_size(*plan_)) : 1;
  if (gang_ == 1) return std::min(launch_grid_, slots);
  const int64_t fit = opt_.reduce_cluster_slots > 0 ? opt_.reduce_cluster_slots : slots / gang_;
  if (launch_grid_ % gang_ != 0 || gang_ > kMaxClusterCtas) {
    throw std::invalid_argument("a splitk-dsm plan's grid of " + std::to_string(launch_grid_) +
                                " CTAs is not whole clusters of its " + std::to_string(gang_) +
                                " splits (at most " + std::to_string(kMaxClusterCtas) + ")");
  }
  // None when no cluster fits: nothing starts, and the run ends as a deadlock that says why.
  const int64_t clusters =
      std::max<int64_t>(0, std::min({launch_grid_ / gang_, fit, slots / gang_}));
  gang_pool_ = clusters * gang_;
  free_gang_slots_.clear();
  free_gang_slots_.reserve(static_cast<size_t>(gang_pool_));
  return gang_pool_;
}

void Simulator::refill_gang(int64_t slot, double t) {
  free_gang_slots_.push_back(slot);
  while (static_cast<int64_t>(free_gang_slots_.size()) >= gang_ &&
         next_to_dispatch_ < launch_grid_) {
    // Take the cluster's slots first: a CTA that exits at once (no work) frees its slot again.
    std::array<int64_t, kMaxClusterCtas> picked{};
    for (int64_t k = 0; k < gang_; ++k) {
      picked[static_cast<size_t>(k)] = free_gang_slots_.back();
      free_gang_slots_.pop_back();
    }
    for (int64_t k = 0; k < gang_; ++k) {
      const int64_t s = picked[static_cast<size_t>(k)];
      dispatch(dispatched_cta(next_to_dispatch_++), s, ctas_[s].sm, t);
    }
  }
}

void Simulator::dispatch(int64_t cta, int64_t slot, int64_t sm, double t) {
  place(cta, slot, sm);
  start_next_segment(slot, t + checked(fixed_.cta_prologue, "cta_prologue"));
}

void Simulator::place(int64_t cta, int64_t slot, int64_t sm) {
  Cta& c = ctas_[slot];
  c = Cta{};
  if (slot >= used_slots_) used_slots_ = slot + 1;
  c.id = cta;
  c.sm = sm;
  --free_slots_[sm];
  set_active(sm, +1);
  if (current_launch_ == 0) {
    walk_begin(*plan_, cta, c.walk);
  } else {
    c.walk.next_work = 0;  // reduction CTAs run exactly one segment
  }
}

void Simulator::start_next_segment(int64_t cta, double t) {
  Cta& c = ctas_[cta];
  bool has_next;
  if (current_launch_ == 0) {
    has_next = walk_next(*plan_, c.walk, c.seg);
  } else {
    has_next = c.walk.next_work == 0;
    c.walk.next_work = 1;
    if (has_next) c.seg = reduction_segment(*plan_, c.id);
  }
  if (!has_next) {
    if (epilogue_overlap_ > 0) [[unlikely]] {  // a ping-pong CTA exits once its last epilogue ends
      Consumers& k = consumers_[static_cast<size_t>(cta)];
      const double drained = std::max(k.free_at[0], k.free_at[1]);
      k = Consumers{};  // idle for the slot's next CTA
      if (drained > t) {
        sm_busy_[c.sm] += drained - t;
        c.phase = kAction;
        queue_.push(drained, kPriorityWork, kDrained, cta);
        return;
      }
    }
    exit_cta(cta, t);
    return;
  }
  c.t_start = t;
  c.loads_done = 0;
  c.waited = 0;
  if (floors_on_) {
    iters_unstarted_ -= static_cast<double>(segment_iters(c.seg));
    epilogues_unstarted_ -= c.seg.role == Role::Whole || c.seg.role == Role::Final;
    // Counted down only from a known count (a plan without one keeps 0).
    if (fixups_unstarted_ > 0)
      fixups_unstarted_ -= static_cast<double>(fixup_actions(*plan_, c.seg));
    update_stop();
  }
  if (track_working_set_ && !c.seg.reduction_only) {
    c.row = tile_coord_m(*plan_, c.seg.tile);
    c.col = tile_coord_n(*plan_, c.seg.tile);
    track_tile(c.row, c.col, +1);
  }
  if (rated_) {  // the loop starts at t (after a prologue: later than now) and is re-rated
    c.phase = kMac;
    schedule_rated_mac(cta, t);
    return;
  }
  const CostContext ctx = context();
  const double loop = checked(mac_time(*model_, *plan_, c.seg, ctx), "mac");
  const double mac =
      loop * sm_slowdown(c.sm) * stretch(c) * (throttles_ ? fixed_clock(c, t, loop) : 1.0);
  sm_busy_[c.sm] += mac;
  c.t_mac_end = t + mac;
  switch (c.seg.role) {
    case Role::Whole: {
      const double epi = transfer_time(Transfer::Epilogue, c.seg, ctx);
      c.t_fixup_end = t + mac;
      c.phase = kAction;
      if (epilogue_overlap_ > 0) [[unlikely]] {
        end_pingpong_loop(cta, t + mac, epi);
        break;
      }
      sm_busy_[c.sm] += epi;
      queue_.push(t + mac + epi, kPriorityWork, kSegmentDone, cta);
      break;
    }
    case Role::StorePartial: {
      const double store = transfer_time(Transfer::PartialStore, c.seg, ctx);
      sm_busy_[c.sm] += store;
      c.t_fixup_end = t + mac + store;
      c.phase = kAction;
      queue_.push(t + mac + store, kPriorityWork, kSegmentDone, cta);
      break;
    }
    case Role::Accumulate:
    case Role::Final:
      if (all_flags_ready(c)) {
        // Flags only grow: ready now means ready after the MAC loop, so the whole segment
        // (MAC, loads or accumulate, epilogue) completes without another event.
        const bool final = c.seg.role == Role::Final;
        const double fixup = final ? static_cast<double>(c.seg.load_slots) *
                                             transfer_time(Transfer::PartialLoad, c.seg, ctx) +
                                         load_rounds_time(c.seg.load_slots)
                                   : transfer_time(Transfer::PartialAccumulate, c.seg, ctx);
        const double epi = final ? transfer_time(Transfer::Epilogue, c.seg, ctx) : 0.0;
        sm_busy_[c.sm] += fixup + epi;
        c.t_fixup_end = t + mac + fixup;
        c.loads_done = final ? c.seg.load_slots : 1;
        c.phase = kAction;
        queue_.push(t + mac + fixup + epi, kPriorityWork, kSegmentDone, cta);
      } else {
        c.phase = kMac;
        queue_.push(t + mac, kPriorityWork, kMacDone, cta);
      }
      break;
  }
}

// A ping-pong CTA's whole-tile MAC loop ended at t, its epilogue takes `epilogue`: the segment is
// done for the CTA (kSegmentDone) when its next loop may start; the SM is busy until then.
void Simulator::end_pingpong_loop(int64_t cta, double t, double epilogue) {
  const double next = pingpong_next_start(cta, t, epilogue);
  sm_busy_[ctas_[cta].sm] += next - t;
  queue_.push(next, kPriorityWork, kSegmentDone, cta);
}

inline void Simulator::exit_cta(int64_t cta, double t) {
  Cta& c = ctas_[cta];
  c.phase = kDone;
  set_active(c.sm, -1);
  ++free_slots_[c.sm];
  ++done_in_launch_;
  if (gang_ > 1) [[unlikely]] {
    refill_gang(cta, t);
  } else if (next_to_dispatch_ < launch_grid_) {
    dispatch(next_to_dispatch_++, cta, c.sm, t);
  } else if (done_in_launch_ == launch_grid_ && current_launch_ == 0 && plan_->separate_reduction) {
    queue_.push(t, kPriorityLaunch, kLaunch, 1);
  }
}

bool Simulator::all_flags_ready(const Cta& c) const {
  const int64_t count =
      c.seg.role == Role::Final && plan_->storage == FixupStorage::Slots ? c.seg.load_slots : 1;
  for (int64_t j = 0; j < count; ++j) {
    if (flags_[c.seg.slot + j] < c.seg.wait_value) return false;
  }
  return true;
}

int64_t Simulator::awaited_flag(const Cta& c) const {
  if (c.seg.role == Role::Final && plan_->storage == FixupStorage::Slots) {
    return c.seg.slot + c.loads_done;
  }
  return c.seg.slot;
}

bool Simulator::flag_ready(const Cta& c) const {
  return flags_[awaited_flag(c)] >= c.seg.wait_value;
}

// After the MAC loop (or a load, or a wake-up): wait for the next flag or do the next action.
void Simulator::try_fixup(int64_t cta, double t) {
  Cta& c = ctas_[cta];
  const bool slots_final = c.seg.role == Role::Final && plan_->storage == FixupStorage::Slots;
  const int64_t loads_needed = c.seg.role == Role::Final ? c.seg.load_slots : 1;
  if (c.loads_done >= loads_needed || (!slots_final && c.loads_done > 0)) {
    // Everything awaited is loaded: the epilogue (Final) or the segment is complete.
    if (c.seg.role == Role::Final) {
      c.t_fixup_end = t;
      const double epi = transfer_time(Transfer::Epilogue, c.seg, context());
      sm_busy_[c.sm] += epi;
      c.phase = kAction;
      queue_.push(t + epi, kPriorityWork, kSegmentDone, cta);
    } else {
      finish_segment(cta, t);
    }
    return;
  }
  if (!flag_ready(c)) {
    const int64_t f = awaited_flag(c);
    c.phase = kWaiting;
    c.waiting_flag = f;
    c.t_wait_begin = t;
    c.next_waiter = waiters_head_[f];
    waiters_head_[f] = cta;
    set_active(c.sm, -1);
    return;
  }
  const CostContext ctx = context();
  const double cost = c.seg.role == Role::Accumulate
                          ? transfer_time(Transfer::PartialAccumulate, c.seg, ctx)
                          : transfer_time(Transfer::PartialLoad, c.seg, ctx);
  c.phase = kAction;
  if (c.seg.role == Role::Accumulate) {
    sm_busy_[c.sm] += cost;
    c.loads_done = 1;
    queue_.push(t + cost, kPriorityWork, kSegmentDone, cta);
    return;
  }
  // Load every slot whose flag is already raised in one go (they stay raised).
  int64_t ready = 1;
  if (slots_final) {
    while (c.loads_done + ready < loads_needed &&
           flags_[c.seg.slot + c.loads_done + ready] >= c.seg.wait_value) {
      ++ready;
    }
  }
  c.pending_loads = ready;
  const double loads = cost * static_cast<double>(ready) + load_rounds_time(ready);
  sm_busy_[c.sm] += loads;
  queue_.push(t + loads, kPriorityWork, kLoadDone, cta);
}

void Simulator::finish_segment(int64_t cta, double t) {
  Cta& c = ctas_[cta];
  track_tile(c.row, c.col, -1);
  c.row = c.col = -1;
  if (c.seg.signal > 0) signal(c.seg.slot, c.seg.signal, t);
  if (opt_.record_timeline) {
    SegmentRecord r;
    r.cta = c.id;
    r.sm = c.sm;
    r.launch = current_launch_;
    r.seg = c.seg;
    r.t_start = c.t_start;
    r.t_mac_end = c.t_mac_end;
    r.t_wait_end = c.t_mac_end + c.waited;
    r.t_fixup_end = c.seg.role == Role::Accumulate ? t : c.t_fixup_end;
    // A ping-pong segment's epilogue may end after the CTA's next loop has started.
    r.t_end = epilogue_overlap_ > 0 && c.seg.role == Role::Whole
                  ? consumers_[static_cast<size_t>(cta)].t_epilogue_end
                  : t;
    result_.timeline.push_back(r);
  }
  c.phase = kIdle;
  start_next_segment(cta, t);
}

void Simulator::signal(int64_t flag, int64_t amount, double t) {
  flags_[flag] += amount;
  // Wake every waiter whose condition now holds; keep the others listed in their order.
  int64_t* link = &waiters_head_[flag];
  const double wake_at = t + checked(fixed_.flag_latency, "flag_latency");
  while (*link >= 0) {
    Cta& w = ctas_[*link];
    if (flag_ready(w)) {
      const int64_t woken = *link;
      *link = w.next_waiter;
      w.next_waiter = -1;
      w.waiting_flag = -1;
      queue_.push(wake_at, kPriorityWork, kWake, woken);
    } else {
      link = &w.next_waiter;
    }
  }
}

// Processor-shared MAC loops. Progress is advanced to the time of every event before the event
// changes the busy-SM count (or the working set), so between events the rate is constant and
// exact.
// The model's iteration time at the busy-SM count now (at least 1), checked and cached.
double Simulator::ask_iter_time() {
  // For a cluster plan the model sees physical SMs (as context() gives it), at least one.
  CostContext ctx = context();
  ctx.busy_sms = std::max<int64_t>(1, busy_sms_) * opt_.cluster_size;
  const double time = checked(model_->iter_time(*plan_, ctx), "iter_time");
  // Progress is time / iter_time: an iteration that takes no time would never end the loop.
  if (time == 0)
    throw std::runtime_error("the cost model gave iter_time a time of 0 (must be > 0)");
  if (track_working_set_) {
    ws_answers_[ws_slot()] =
        WorkingSetAnswer{run_id_, busy_sms_, distinct_rows_, distinct_cols_, time};
  } else {
    iter_time_by_busy_[static_cast<size_t>(busy_sms_)] = time;
  }
  return time;
}

void Simulator::move_progress(double t) {
  if (!mac_ends_.empty() && t > progress_at_) progress_ += (t - progress_at_) / iter_time_now();
  progress_at_ = t;
  mac_end_busy_ = kStale;
}

// Completes the first MAC loop, which ends at t_mac before any other event; false (and
// result_.cut_off) when that is past the cutoff.
inline bool Simulator::complete_mac_loop(double t_mac) {
  if (t_mac > stop_at_) {  // as for queued events
    now_ = t_mac;
    result_.cut_off = true;
    return false;
  }
  advance_progress(t_mac);
  double progress_at_end = 0;
  const auto cta = static_cast<int64_t>(mac_ends_.pop(&progress_at_end).order);
  mac_end_busy_ = kStale;
  now_ = t_mac;
  ++result_.events;
  mac_finished(cta, t_mac);
  return true;
}

// A loop starting at t: now, or listed to start when the clock reaches t (see mac_starts_).
inline void Simulator::schedule_rated_mac(int64_t cta, double t) {
  const auto iters = static_cast<double>(segment_iters(ctas_[cta].seg));
  if (t <= now_) {
    start_rated_mac(cta, iters);
  } else if (std::isfinite(t) &&  // the queue refuses a time that overflowed
             (mac_starts_head_ == mac_starts_.size() || t >= mac_starts_.back().time)) {
    mac_starts_.push_back(MacStart{t, iters, cta});
  } else {
    queue_.push(t, kPriorityWork, kMacStart, cta);
  }
}

// The listed loop starts at the first listed time, each handled as the queued event it replaces.
// They go in one batch: a loop of at least one iteration ends after now, so no loop end falls
// between two of them (a loop of none ends at once: the batch stops after it).
void Simulator::pop_mac_starts() {
  const double t = mac_starts_[mac_starts_head_].time;
  advance_progress(t);
  now_ = t;
  // Starting a loop changes neither the busy SMs nor the working set: one clock stretch for all.
  const double clock = throttles_ ? rated_clock_stretch() : 1.0;
  bool more = true;
  while (more) {
    const MacStart start = mac_starts_[mac_starts_head_++];
    ++result_.events;
    list_mac_end(start.cta, start.iters, clock);
    more = start.iters > 0 && mac_starts_head_ < mac_starts_.size() &&
           mac_starts_[mac_starts_head_].time == t;
  }
  if (mac_starts_head_ == mac_starts_.size()) {
    mac_starts_.clear();
    mac_starts_head_ = 0;
  }
}

void Simulator::start_rated_mac(int64_t cta, double iters) {
  advance_progress(now_);
  list_mac_end(cta, iters, throttles_ ? rated_clock_stretch() : 1.0);
}

// Lists the end of a loop of `iters` iterations that starts now in CTA slot `cta`, its clock
// stretched by `clock`. A slower SM needs more progress of the shared clock for the same
// iterations.
void Simulator::list_mac_end(int64_t cta, double iters, double clock) {
  const Cta& c = ctas_[cta];
  const double end = progress_ + iters * sm_slowdown(c.sm) * stretch(c) * clock;
  if (mac_ends_.empty() || end < mac_ends_.top_time()) mac_end_busy_ = kStale;
  mac_ends_.push(end, static_cast<uint64_t>(cta));
}

// The model's clock stretch for a rated loop starting now, at the cached iteration time there.
double Simulator::ask_clock_stretch() {
  const double stretch = clock_stretch(now_, iter_time_now());
  clock_answer_ = ClockAnswer{now_, busy_sms_, distinct_rows_, distinct_cols_, stretch};
  return stretch;
}

// The fixed path's clock stretch of a loop of `loop` time units starting at t.
double Simulator::fixed_clock(const Cta& c, double t, double loop) const {
  const auto iters = static_cast<double>(segment_iters(c.seg));
  return clock_stretch(t, iters > 0 ? loop / iters : 0.0);
}

// A rated MAC loop ended at t: the action that follows it, as in start_next_segment's fixed path.
inline void Simulator::mac_finished(int64_t cta, double t) {
  Cta& c = ctas_[cta];
  c.t_mac_end = t;
  c.t_fixup_end = t;
  sm_busy_[c.sm] += t - c.t_start;
  const CostContext ctx = context();
  if (c.seg.role == Role::Whole || c.seg.role == Role::StorePartial) {
    const double cost = c.seg.role == Role::Whole
                            ? transfer_time(Transfer::Epilogue, c.seg, ctx)
                            : transfer_time(Transfer::PartialStore, c.seg, ctx);
    if (c.seg.role == Role::StorePartial) c.t_fixup_end = t + cost;
    c.phase = kAction;
    if (epilogue_overlap_ > 0 && c.seg.role == Role::Whole) [[unlikely]] {
      end_pingpong_loop(cta, t, cost);
      return;
    }
    sm_busy_[c.sm] += cost;
    queue_.push(t + cost, kPriorityWork, kSegmentDone, cta);
    return;
  }
  try_fixup(cta, t);
}

SimResult simulate(const Plan& plan, const CostModel& model, const SimOptions& options) {
  Simulator sim;
  return sim.run(plan, model, options);
}

}  // namespace lw

// The GPU layer of the simulator: SMs with CTA slots, in-order hardware dispatch of a grid, CTAs
// walking their plan (sim/decomp walk), flags with waiters, partial-tile workspace traffic, and a
// separate reduction launch. Costs come from a CostModel; a schedule that cannot finish is reported
// as a deadlock with its wait cycle.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/cost_model.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/walk.hpp"
#include "sim/engine/event_queue.hpp"
#include "sim/engine/time_buckets.hpp"
#include "sim/trace/timeline.hpp"

namespace lw {

// The least time the whole chip needs, in simulated time, per unit of a plan's work: a MAC
// iteration, a tile's epilogue, a fixup action (a partial store, add or load), and the plan's count
// of fixup actions (only where it is known exactly: 0 else).
struct WorkFloors {
  double iter = 0, epilogue = 0, fixup = 0;
  double fixups = 0;
};

// A segment's fixup actions, as WorkFloors::fixups counts them: a partial store or add, or each
// partial a Final segment loads.
inline int64_t fixup_actions(const Plan& p, const Segment& s) {
  switch (s.role) {
    case Role::Whole:
      return 0;
    case Role::StorePartial:
    case Role::Accumulate:
      return 1;
    case Role::Final:
      break;
  }
  return p.storage == FixupStorage::Slots ? s.load_slots : 1;
}

struct SimOptions {
  int64_t sms = 132;
  int64_t ctas_per_sm = 1;
  bool record_timeline = false;
  // Stop once simulated time passes this (the run cannot beat a makespan already found):
  // SimResult::cut_off is set and makespan is the time reached. Infinity: run to the end.
  double cutoff = std::numeric_limits<double>::infinity();
  // What the chip needs at least for the plan's work (0: nothing known; sim/predict/bounds.hpp,
  // chip_floors). The run then stops as soon as the time now plus what the work not started yet
  // needs passes `cutoff`, well before the clock itself does.
  WorkFloors floors;
  // For a cluster plan (plan.hpp), `sms` counts cluster slots and each simulated CTA is a cluster
  // of `cluster_size` CTAs on as many SMs: the model sees sms and busy SMs times cluster_size.
  int64_t cluster_size = 1;
  // For a plan whose tiles' splits are one launch cluster each (Plan::cluster_reduce): such
  // clusters resident at once (resident_clusters of 1 x splits; 0 = sms * ctas_per_sm / splits).
  // The hardware starts a cluster's CTAs together on free SMs of one GPC: the simulator keeps that
  // many clusters' slots (the SMs the GPCs can pack) and starts a tile's splits together once as
  // many of them are free (GPC boundaries among them are not modelled).
  int64_t reduce_cluster_slots = 0;
  // > 0: CostModel::makespan_factor of the plan, asked already (`best` asks a config's plans
  // together); 0: the run asks the model.
  double makespan_factor = 0;
  bool sm_stats = true;  // fill SimResult::sm_stats (a search that needs only makespans skips it)
};

// Whether runs with options a and b are the same run (every field equal).
inline bool same_options(const SimOptions& a, const SimOptions& b) {
  static_assert(sizeof(SimOptions) == 96, "SimOptions changed: compare the new field here");
  return a.sms == b.sms && a.ctas_per_sm == b.ctas_per_sm &&
         a.record_timeline == b.record_timeline && a.cutoff == b.cutoff &&
         a.floors.iter == b.floors.iter && a.floors.epilogue == b.floors.epilogue &&
         a.floors.fixup == b.floors.fixup && a.floors.fixups == b.floors.fixups &&
         a.cluster_size == b.cluster_size && a.reduce_cluster_slots == b.reduce_cluster_slots &&
         a.makespan_factor == b.makespan_factor && a.sm_stats == b.sm_stats;
}

// The SMs of the GPU (or partition) a run of `o` is on: cluster slots times the cluster's CTAs.
inline int64_t simulated_sms(const SimOptions& o) { return o.sms * o.cluster_size; }

struct SmStats {
  double busy = 0;  // executing MAC, fixup or epilogue
  double wait = 0;  // resident CTAs spinning on flags
  double idle = 0;  // no resident CTA
};

struct SimResult {
  double makespan = 0;
  double ideal = 0;       // total work of the tiles (MAC + epilogue) / SMs, times makespan_factor
  double efficiency = 0;  // ideal / makespan
  // CostModel::makespan_factor of the run: makespan is the simulated time times it.
  double makespan_factor = 1;
  std::vector<SmStats> sm_stats;
  std::vector<SegmentRecord> timeline;  // filled when SimOptions::record_timeline
  bool deadlock = false;
  std::string deadlock_report;  // one line: the wait cycle
  int64_t events = 0;
  bool cut_off = false;  // stopped at SimOptions::cutoff; makespan > cutoff, the rest is partial
};

// Reusable simulator: keeps its buffers between runs so sweeps allocate nothing per event.
class Simulator {
 public:
  // Throws std::runtime_error (one line) when the cost model gives an action a negative or
  // non-finite time, or simulated time (the makespan, the ideal) would overflow;
  // std::invalid_argument when a cluster_reduce plan's grid is not whole clusters. A cluster that
  // fits no group of slots is a deadlock (SimResult::deadlock_report says so).
  const SimResult& run(const Plan& plan, const CostModel& model, const SimOptions& options);

 private:
  enum Phase : int32_t { kIdle, kMac, kAction, kWaiting, kDone };
  // Event subjects and waiter links are CTA slot indices (see launch()).
  enum EventKind : int32_t {
    kMacDone,
    kLoadDone,
    kSegmentDone,
    kWake,
    kLaunch,
    kMacStart,
    kDrained  // a ping-pong CTA's last epilogue ended: it exits
  };

  struct Cta {
    int64_t id = -1;  // CTA index in the launch's grid
    CtaWalk walk;
    Segment seg;
    int64_t sm = -1;
    int64_t row = -1, col = -1;  // tile coordinates of the segment in flight (-1: none)
    int64_t loads_done = 0;
    int64_t pending_loads = 0;  // loads completing at the next kLoadDone
    int64_t next_waiter = -1;   // intrusive list of CTAs waiting on one flag
    int64_t waiting_flag = -1;
    double t_start = 0, t_mac_end = 0, t_wait_begin = 0, waited = 0, t_fixup_end = 0;
    Phase phase = kIdle;
  };
  // A ping-pong CTA's consumers (epilogue_overlap_ > 0), per CTA slot beside Cta (which every
  // run resets per CTA: kept small): when each consumer's last epilogue ends, the consumer that
  // runs the next segment, and the end of the segment's own epilogue.
  struct Consumers {
    std::array<double, 2> free_at{0.0, 0.0};
    int32_t turn = 0;
    double t_epilogue_end = 0;
  };

  // The results of the last few runs without a timeline, by plan, model and options: predict and
  // compare often run one plan again (two-tile is Stream-K below two waves, cutlass often dp).
  struct KeptRun {
    bool valid = false;
    Plan plan;
    uint64_t model = 0;
    SimOptions options;
    SimResult result;
  };
  static constexpr size_t kRunsKept = 4;
  const SimResult* kept_run(const Plan& plan, const CostModel& model, const SimOptions& options);
  void keep_run(const Plan& plan, const CostModel& model, const SimOptions& options);
  std::array<KeptRun, kRunsKept> kept_runs_;
  size_t next_kept_run_ = 0;
  const SimResult& simulate_run(const Plan& plan, const CostModel& model,
                                const SimOptions& options);
  void reset(const Plan& plan, const CostModel& model, const SimOptions& options);
  void ask_sm_spread(const CostModel& model);
  void run_events();
  void finish_result();
  void check_times() const;
  void launch(int32_t which, double t);
  void dispatch(int64_t cta, int64_t slot, int64_t sm, double t);
  void place(int64_t cta, int64_t slot, int64_t sm);  // occupy a slot; no segment started yet
  void start_next_segment(int64_t cta, double t);
  // The CTA is done: free its slot for the next (inline: once per CTA).
  [[gnu::always_inline]] inline void exit_cta(int64_t cta, double t);
  // The launch's CTA dispatched `seq`-th: grid order, or a cluster_reduce plan's tiles one after
  // another, each tile's splits (CTAs tile + split * tiles, plan.hpp) together.
  int64_t dispatched_cta(int64_t seq) const {
    return gang_ == 1 ? seq : seq / gang_ + (seq % gang_) * (launch_grid_ / gang_);
  }
  // Slots resident at once in launch `which` (sets gang_): for a cluster_reduce plan, the slots of
  // the clusters that fit at once (0 when none does).
  int64_t resident_slots(int32_t which);
  // A cluster_reduce CTA in slot `slot` left at t: once a cluster's worth of slots is free, the
  // next tile's splits start there together.
  [[gnu::noinline]] void refill_gang(int64_t slot, double t);
  [[gnu::noinline]] void end_pingpong_loop(int64_t cta, double t, double epilogue);
  // Ping-pong: a whole tile's MAC loop in CTA slot `cta` ended at t and its epilogue takes
  // `epilogue`: when the CTA's next MAC loop may start (CostNeeds::epilogue_overlap). The CTA's
  // epilogues take turns as its loops do (they share the SM's path to memory): this one starts
  // when the MAC loop and the last epilogue have ended. The next loop (the other consumer's)
  // starts after the exposed share of this epilogue, once that consumer's own last epilogue has
  // ended.
  double pingpong_next_start(int64_t cta, double t, double epilogue) {
    Consumers& c = consumers_[static_cast<size_t>(cta)];
    const int32_t k = c.turn;
    const double last_epilogue_end = std::max(c.free_at[0], c.free_at[1]);
    c.t_epilogue_end = std::max(t, last_epilogue_end) + epilogue;
    c.free_at[static_cast<size_t>(k)] = c.t_epilogue_end;
    c.turn = 1 - k;
    return std::max(t + (1.0 - epilogue_overlap_) * epilogue,
                    c.free_at[static_cast<size_t>(c.turn)]);
  }
  void try_fixup(int64_t cta, double t);
  void finish_segment(int64_t cta, double t);
  void signal(int64_t flag, int64_t amount, double t);
  bool flag_ready(const Cta& c) const;
  bool all_flags_ready(const Cta& c) const;
  int64_t awaited_flag(const Cta& c) const;
  void set_active(int64_t sm, int delta);
  CostContext context() const;
  // Inline into its callers in simulator.cpp (a call per action cost more than it did).
  [[gnu::always_inline]] inline double transfer_time(Transfer kind, const Segment& s,
                                                     const CostContext& ctx) const;
  // The L2 round trips of a Final owner's loads of `slots` slots (the model's load_round per
  // batch the kernels load at once: final_load_rounds); 0 where the model has no such term.
  double load_rounds_time(int64_t slots) const {
    // Slots in the owner's own shared memory (cluster_reduce) make no L2 round trip.
    if (fixed_.load_round <= 0 || plan_->cluster_reduce) return 0.0;
    return fixed_.load_round * static_cast<double>(final_load_rounds(plan_->tile, slots));
  }
  // Tracks which tile rows and columns have a segment in flight (the operand working set). A rated
  // model reads it: the loops in flight change rate now (progress is advanced to every event's
  // time before the event changes anything). Inline: it runs at every segment start and end.
  void track_tile(int64_t row, int64_t col, int32_t delta) {
    if (row < 0 || !track_working_set_) return;
    int32_t& in_row = rows_in_flight_[static_cast<size_t>(row)];
    int32_t& in_col = cols_in_flight_[static_cast<size_t>(col)];
    const int32_t row_change = (in_row + delta != 0) - (in_row != 0);  // +1 enters, -1 leaves
    const int32_t col_change = (in_col + delta != 0) - (in_col != 0);
    in_row += delta;
    in_col += delta;
    distinct_rows_ += row_change;
    distinct_cols_ += col_change;
    if ((row_change | col_change) != 0 && rated_) {
      mac_end_busy_ = kStale;
      ++working_set_version_;
    }
  }
  void report_deadlock();
  // stop_at_ for the work not started now (inline: runs at every segment start).
  void update_stop() {
    if (floors_on_) {
      const WorkFloors& f = opt_.floors;
      stop_at_ = opt_.cutoff - (iters_unstarted_ * f.iter + epilogues_unstarted_ * f.epilogue +
                                fixups_unstarted_ * f.fixup) *
                                   kFloorMargin;
    }
  }
  // The floor's share counted: the simulator's sums of times round differently from the product.
  static constexpr double kFloorMargin = 1.0 - 1e-9;
  // Processor-shared MAC loops (CostNeeds::shared_rate): see simulator.cpp.
  // The iteration time now: the last one looked up while the busy-SM count and the working set are
  // the same (most asks: the clock moved, nothing else), else looked up or asked.
  double iter_time_now() {
    const IterNow& last = iter_now_;
    if (last.busy == busy_sms_ && last.working_set == working_set_version_) return last.time;
    return look_up_iter_time();
  }
  double look_up_iter_time() {
    const double time = cached_iter_time();
    iter_now_ = IterNow{busy_sms_, working_set_version_, time};
    return time;
  }
  double cached_iter_time() {  // cached per busy-SM count (and working set, when tracked)
    if (track_working_set_) {
      const WorkingSetAnswer& a = ws_answers_[ws_slot()];
      const bool same = a.run == run_id_ && a.busy == busy_sms_ && a.rows == distinct_rows_ &&
                        a.cols == distinct_cols_;
      return same ? a.time : ask_iter_time();
    }
    const double cached = iter_time_by_busy_[static_cast<size_t>(busy_sms_)];
    return cached > 0 ? cached : ask_iter_time();
  }
  double ask_iter_time();
  // Integrates the progress clock up to t; most calls find it there already (inline).
  void advance_progress(double t) {
    if (t != progress_at_) move_progress(t);
  }
  void move_progress(double t);
  // Asked before every event: recomputed only when the clock, the first loop, the busy-SM count or
  // the working set changed since (the same inputs give the same end).
  double next_mac_end() { return mac_end_busy_ == busy_sms_ ? mac_end_ : compute_mac_end(); }
  // When the first MAC loop ends at the current rate (inline: asked at most events).
  double compute_mac_end() {
    const double left = std::max(0.0, mac_ends_.top_time() - progress_);
    mac_end_ = progress_at_ + left * iter_time_now();
    mac_end_busy_ = busy_sms_;
    return mac_end_;
  }
  void start_rated_mac(int64_t cta, double iters);
  void list_mac_end(int64_t cta, double iters, double clock);
  // The model's Stretch::Segment of the CTA's segment (1 unless the plan's segments stretch).
  double stretch(const Cta& c) const {
    if (!stretches_) return 1.0;
    return checked_stretch(model_->stretch(Stretch::Segment, *plan_, LoopStart{0, &c.seg}));
  }
  // The model's Stretch::Clock of a loop starting at t whose iterations take `iter` there (1
  // unless the model throttles the clock).
  double clock_stretch(double t, double iter) const {
    if (!throttles_) return 1.0;
    const LoopStart at{0, nullptr, context(), t, iter};
    return checked_stretch(model_->stretch(Stretch::Clock, *plan_, at), "clock_stretch");
  }
  double fixed_clock(const Cta& c, double t, double loop) const;
  // clock_stretch of a rated loop starting now. The loops of one start batch share the time, the
  // busy-SM count and the working set (so the iteration time too): the model is asked once for
  // them.
  double rated_clock_stretch() {
    const ClockAnswer& a = clock_answer_;
    if (a.time == now_ && a.busy == busy_sms_ && a.rows == distinct_rows_ &&
        a.cols == distinct_cols_)
      return a.stretch;
    return ask_clock_stretch();
  }
  double ask_clock_stretch();
  // A stretch, refused (out of line) unless finite and >= 1; the check inlines into the loop start.
  static double checked_stretch(double s, const char* what = "segment_stretch") {
    if (std::isfinite(s) && s >= 1.0) return s;
    refuse_stretch(s, what);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void refuse_stretch(double s, const char* what);
  double sm_slowdown(int64_t sm) const {  // Stretch::SmSpread at the busy share now
    if (!slows_sms_) return 1.0;
    return 1.0 + sm_spread_[static_cast<size_t>(sm)] * static_cast<double>(busy_sms_) /
                     static_cast<double>(opt_.sms);
  }
  // Inline into start_next_segment, its one caller (a call per rated segment).
  [[gnu::always_inline]] inline void schedule_rated_mac(int64_t cta, double t);
  // Inline into run_events, its one caller (a call per rated segment).
  [[gnu::always_inline]] inline bool complete_mac_loop(double t_mac);
  void pop_mac_starts();
  // Inline into complete_mac_loop, its one caller: a call per rated segment cost more than it did.
  [[gnu::always_inline]] inline void mac_finished(int64_t cta, double t);

  const Plan* plan_ = nullptr;
  const CostModel* model_ = nullptr;
  SimOptions opt_;
  EventQueue queue_;
  std::vector<Cta> ctas_;
  std::vector<Consumers> consumers_;  // by CTA slot, sized only when epilogue_overlap_ > 0
  std::vector<int64_t> flags_;
  std::vector<int64_t> waiters_head_;
  std::vector<int64_t> active_per_sm_;
  std::vector<int64_t> free_slots_;
  std::vector<double> sm_busy_, sm_wait_;
  int64_t busy_sms_ = 0;
  std::vector<int32_t> rows_in_flight_, cols_in_flight_;  // segments in flight per tile row/col
  int64_t distinct_rows_ = 0, distinct_cols_ = 0;
  uint64_t working_set_version_ = 0;  // counts the changes of distinct_rows_ or distinct_cols_
  // iter_time_now()'s last answer and the state it holds for (busy -1: none this run).
  struct IterNow {
    int64_t busy = -1;
    uint64_t working_set = 0;
    double time = 0;
  };
  IterNow iter_now_;
  bool track_working_set_ = false;
  PanelLag panel_lag_;  // of the plan, when the model needs it
  FixedCosts fixed_;    // of the plan
  bool slows_sms_ = false;
  bool stretches_ = false;             // CostNeeds::segment_stretch
  bool throttles_ = false;             // CostNeeds::clock
  double epilogue_overlap_ = 0;        // CostNeeds::epilogue_overlap
  const double* sm_spread_ = nullptr;  // Stretch::SmSpread per SM, when slows_sms_
  // The model's answers per SM for a model (CostModel::id, 0: none) and SM count (slots, SMs):
  // the last few kept (best alternates the SM counts of 1x1 and 2x1 clusters).
  struct SmSpreadAnswers {
    uint64_t model = 0;
    int64_t slots = 0, sms = 0;
    std::vector<double> spread;
  };
  static constexpr size_t kSmSpreadsKept = 4;
  std::array<SmSpreadAnswers, kSmSpreadsKept> sm_spreads_;
  size_t sm_spread_next_ = 0;  // the entry replaced next
  PanelLagCache panel_lags_;   // of the last few plans (a plan is often simulated again)
  int32_t current_launch_ = 0;
  int64_t launch_grid_ = 0;
  int64_t next_to_dispatch_ = 0;
  int64_t used_slots_ = 0;  // slots [0, used_slots_) hold CTAs of the current launch
  int64_t done_in_launch_ = 0;
  int64_t gang_ = 1;       // CTAs dispatched together (a cluster_reduce tile's splits)
  int64_t gang_pool_ = 0;  // slots such clusters may hold at once
  std::vector<int64_t> free_gang_slots_;  // of those, the free ones (capacity gang_pool_)
  double now_ = 0;
  // The cut-off on the clock: opt_.cutoff, less the least time the work not started yet needs
  // (iterations, epilogues, fixups) at SimOptions::floors (recomputed as segments start; it only
  // grows).
  double stop_at_ = 0;
  double iters_unstarted_ = 0;      // MAC iterations of launch 0 no segment has started yet
  double epilogues_unstarted_ = 0;  // tiles whose writing segment (Whole, Final) has not started
  double fixups_unstarted_ = 0;     // fixup actions (WorkFloors::fixups) of no started segment
  bool floors_on_ = false;          // SimOptions::floors.iter > 0 and a finite cutoff
  // Rated mode: every MAC loop in flight progresses at 1 / iter_time(busy SMs) iterations per time
  // unit; `progress_` integrates that rate, a loop of n iterations started at progress P ends when
  // progress_ reaches P + n. Loops all move at the same rate, so their order is fixed: a min-queue
  // keyed by (progress at end, CTA slot), bucketed because a wave's loops end at one progress.
  bool rated_ = false;
  double progress_ = 0, progress_at_ = 0;
  std::vector<double> iter_time_by_busy_;  // by busy_sms_ (0 asks for 1); < 0 = not yet asked
  // With a tracked working set: the model's answers by (busy SMs, rows, columns), direct-mapped
  // (waves repeat the same states); an entry of an earlier run (`run`) is stale.
  struct WorkingSetAnswer {
    uint64_t run = 0;
    int64_t busy = -1, rows = -1, cols = -1;
    double time = 0;
  };
  static constexpr size_t kWorkingSetSlots = 256;  // a power of two
  size_t ws_slot() const {
    const auto h = static_cast<uint64_t>(busy_sms_) * 0x9E3779B97F4A7C15ULL ^
                   static_cast<uint64_t>(distinct_rows_) * 0xC2B2AE3D27D4EB4FULL ^
                   static_cast<uint64_t>(distinct_cols_) * 0x165667B19E3779F9ULL;
    return static_cast<size_t>(h >> 56) & (kWorkingSetSlots - 1);
  }
  std::vector<WorkingSetAnswer> ws_answers_ = std::vector<WorkingSetAnswer>(kWorkingSetSlots);
  uint64_t run_id_ = 0;
  // rated_clock_stretch()'s last answer and the context it is for (reset per run: time -1).
  struct ClockAnswer {
    double time = -1;
    int64_t busy = -1, rows = -1, cols = -1;
    double stretch = 1;
  };
  ClockAnswer clock_answer_;
  struct MacEnd {
    uint64_t order;  // the CTA slot: equal ends complete in slot order
  };
  TimeBuckets<MacEnd> mac_ends_;
  // Loops that start later than now (after a CTA's prologue), in start order: the prologue is one
  // constant per plan, so they arrive in time order and a FIFO replaces queue events. A start
  // earlier than the last one listed (a model whose prologue varies) goes to the queue instead.
  struct MacStart {
    double time, iters;
    int64_t cta;  // slot
  };
  std::vector<MacStart> mac_starts_;
  size_t mac_starts_head_ = 0;
  // next_mac_end()'s last answer and the busy-SM count it holds for (kStale: the clock or the
  // first loop moved since).
  static constexpr int64_t kStale = -1;
  double mac_end_ = 0;
  int64_t mac_end_busy_ = kStale;
  SimResult result_;
};

// Convenience for one-off runs.
SimResult simulate(const Plan& plan, const CostModel& model, const SimOptions& options);

}  // namespace lw

// Deadlock diagnosis: when no event is left but CTAs are unfinished, find and print the wait cycle
// (CTA waits on a flag raised by another CTA, a CTA not yet resident waits for a slot).
#include <sstream>
#include <string>

#include "sim/gpu/simulator.hpp"

namespace lw {

void Simulator::report_deadlock() {
  result_.deadlock = true;
  if (gang_ > 1 && gang_pool_ == 0) {
    result_.deadlock_report = "deadlock at t=0: a tile's " + std::to_string(gang_) +
                              " splits are one cluster (splitk-dsm) and need " +
                              std::to_string(gang_) + " CTA slots at once; " +
                              std::to_string(opt_.sms * opt_.ctas_per_sm) + " exist";
    return;
  }
  // Unfinished CTAs: resident ones (by slot) and the ones never dispatched.
  struct Pending {
    int64_t id;
    int64_t slot;                 // -1: not resident
    std::vector<int64_t> raises;  // flags it will still raise
  };
  std::vector<Pending> pending;
  for (int64_t slot = 0; slot < used_slots_; ++slot) {
    const Cta& c = ctas_[slot];
    if (c.id < 0 || c.phase == kDone) continue;
    Pending p{c.id, slot, {}};
    if (c.seg.signal > 0) p.raises.push_back(c.seg.slot);
    CtaWalk w = c.walk;
    Segment s;
    while (current_launch_ == 0 && walk_next(*plan_, w, s)) {
      if (s.signal > 0) p.raises.push_back(s.slot);
    }
    pending.push_back(std::move(p));
  }
  for (int64_t seq = next_to_dispatch_; seq < launch_grid_; ++seq) {
    const int64_t id = dispatched_cta(seq);
    Pending p{id, -1, {}};
    CtaWalk w;
    walk_begin(*plan_, id, w);
    Segment s;
    while (walk_next(*plan_, w, s)) {
      if (s.signal > 0) p.raises.push_back(s.slot);
    }
    pending.push_back(std::move(p));
  }
  const auto producer_of = [&](int64_t flag, size_t except) -> int64_t {
    for (size_t i = 0; i < pending.size(); ++i) {
      if (i == except) continue;
      for (int64_t f : pending[i].raises) {
        if (f == flag) return static_cast<int64_t>(i);
      }
    }
    return -1;
  };
  std::ostringstream out;
  out << "deadlock at t=" << now_ << ": ";
  int64_t start = -1;
  for (size_t i = 0; i < pending.size() && start < 0; ++i) {
    if (pending[i].slot >= 0 && ctas_[pending[i].slot].phase == kWaiting)
      start = static_cast<int64_t>(i);
  }
  if (start < 0) {
    out << pending.size() << " CTAs unfinished with nothing waiting";
    result_.deadlock_report = out.str();
    return;
  }
  // Follow the chain from the first waiting CTA until a CTA repeats.
  std::vector<int> seen(pending.size(), 0);
  int64_t cur = start;
  for (size_t step = 0; step <= pending.size(); ++step) {
    const Pending& p = pending[cur];
    if (seen[cur]) {
      out << "CTA " << p.id << " (cycle)";
      break;
    }
    seen[cur] = 1;
    if (p.slot < 0) {
      out << "CTA " << p.id << " (not resident: all " << opt_.sms * opt_.ctas_per_sm
          << " CTA slots held by waiting CTAs) waits for a slot held by -> ";
      cur = start;
      continue;
    }
    const Cta& c = ctas_[p.slot];
    if (c.phase != kWaiting) {
      out << "CTA " << p.id << " (running)";
      break;
    }
    const int64_t next = producer_of(c.waiting_flag, static_cast<size_t>(cur));
    out << "CTA " << p.id << " (SM " << c.sm << ", tile " << c.seg.tile << " k " << c.seg.k_begin
        << ".." << c.seg.k_end << ") waits on flag " << c.waiting_flag;
    if (next < 0) {
      out << " that no remaining segment raises";
      break;
    }
    out << " raised by -> ";
    cur = next;
  }
  result_.deadlock_report = out.str();
}

}  // namespace lw

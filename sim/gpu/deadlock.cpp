// Deadlock diagnosis: when no event is left but CTAs are unfinished, find and print the wait cycle
// (CTA waits on a flag raised by another CTA, a CTA not yet resident waits for a slot).
#include <sstream>

#include "sim/gpu/simulator.hpp"

namespace lw {

void Simulator::report_deadlock() {
  result_.deadlock = true;
  const int64_t n = launch_grid_;
  // Remaining flag producers of each unfinished CTA (its current segment and the rest of its walk).
  std::vector<std::vector<int64_t>> raises(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const Cta& c = ctas_[i];
    if (c.phase == kDone) continue;
    CtaWalk w = c.walk;
    if (c.sm < 0) walk_begin(*plan_, i, w);
    if (c.sm >= 0 && c.seg.signal > 0) raises[i].push_back(c.seg.slot);
    Segment s;
    while (walk_next(*plan_, w, s)) {
      if (s.signal > 0) raises[i].push_back(s.slot);
    }
  }
  const auto producer_of = [&](int64_t flag, int64_t except) -> int64_t {
    for (int64_t p = 0; p < n; ++p) {
      if (p == except) continue;
      for (int64_t f : raises[p]) {
        if (f == flag) return p;
      }
    }
    return -1;
  };
  std::ostringstream out;
  out << "deadlock at t=" << now_ << ": ";
  // Follow the chain from the first waiting CTA until a CTA repeats.
  int64_t start = -1;
  for (int64_t i = 0; i < n && start < 0; ++i) {
    if (ctas_[i].phase == kWaiting) start = i;
  }
  if (start < 0) {
    out << (n - done_in_launch_) << " CTAs unfinished with nothing waiting";
    result_.deadlock_report = out.str();
    return;
  }
  std::vector<int> seen(static_cast<size_t>(n), 0);
  int64_t cur = start;
  for (int64_t step = 0; step <= n; ++step) {
    if (seen[cur]) {
      out << "CTA " << cur << " (cycle)";
      break;
    }
    seen[cur] = 1;
    const Cta& c = ctas_[cur];
    if (c.phase == kWaiting) {
      const int64_t p = producer_of(c.waiting_flag, cur);
      out << "CTA " << cur << " (SM " << c.sm << ", tile " << c.seg.tile << " k " << c.seg.k_begin
          << ".." << c.seg.k_end << ") waits on flag " << c.waiting_flag;
      if (p < 0) {
        out << " that no remaining segment raises";
        break;
      }
      out << " raised by -> ";
      cur = p;
    } else if (c.sm < 0) {
      out << "CTA " << cur << " (not resident: all " << opt_.sms * opt_.ctas_per_sm
          << " CTA slots held by waiting CTAs) waits for a slot held by -> ";
      cur = start;
    } else {
      out << "CTA " << cur << " (running)";
      break;
    }
  }
  result_.deadlock_report = out.str();
}

}  // namespace lw

// Plan rows (plan_steps.hpp).
#include "sim/api/plan_steps.hpp"

#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/trace/trace_json.hpp"

namespace lw {

std::vector<PlanStep> plan_steps(const Plan& p) {
  std::vector<PlanStep> steps;
  const auto add = [&](int launch, int64_t cta, int64_t seq, const Segment& s) {
    if (static_cast<int64_t>(steps.size()) == kMaxPlanSteps) {
      throw std::invalid_argument("the plan has more than " + std::to_string(kMaxPlanSteps) +
                                  " segments (2^20), more than plan lists; lastwave predict "
                                  "gives its time");
    }
    steps.push_back({launch, cta, seq, tile_coord_m(p, s.tile), tile_coord_n(p, s.tile), s});
  };
  for (int64_t cta = 0; cta < p.grid; ++cta) {
    CtaWalk w;
    walk_begin(p, cta, w);
    Segment s;
    int64_t seq = 0;
    while (walk_next(p, w, s)) add(0, cta, seq++, s);
  }
  for (int64_t r = 0; r < reduction_grid(p); ++r) add(1, r, 0, reduction_segment(p, r));
  return steps;
}

std::string plan_csv(const std::vector<PlanStep>& steps) {
  std::ostringstream o;
  o << "launch,cta,seq,work_id,tile,tile_m,tile_n,k_begin,k_end,role,slot,load_slots,wait_value,"
       "signal\n";
  for (const PlanStep& t : steps) {
    const Segment& s = t.segment;
    o << t.launch << ',' << t.cta << ',' << t.seq << ',' << s.work_id << ',' << s.tile << ','
      << t.tile_m << ',' << t.tile_n << ',' << s.k_begin << ',' << s.k_end << ','
      << role_name(s.role) << ',' << s.slot << ',' << s.load_slots << ',' << s.wait_value << ','
      << s.signal << "\n";
  }
  return o.str();
}

}  // namespace lw

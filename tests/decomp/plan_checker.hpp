// Shared by the decomp tests: walks every CTA of a Plan and checks the structural invariants
// (coverage, roles, slots, flags, acyclic waits). Returns the first violation found, "" if none.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/decomp/walk.hpp"

namespace lw_test {

// All segments of CTA `cta` of the main launch, in execution order (capped to catch endless walks).
std::vector<lw::Segment> walk_cta(const lw::Plan& p, int64_t cta);

// Every segment of the plan: main-launch CTAs in order, then the separate-reduction launch.
struct PlanSegments {
  std::vector<std::vector<lw::Segment>> ctas;  // [cta] -> segments in program order
  std::vector<lw::Segment> reduction;          // [r] for r < reduction_grid(p)
};
PlanSegments walk_plan(const lw::Plan& p);

// `resident_ctas`: CTAs the GPU can hold at once (sms * ctas_per_sm) for the co-residency check.
std::string check_plan(const lw::Plan& p, int64_t resident_ctas);

}  // namespace lw_test

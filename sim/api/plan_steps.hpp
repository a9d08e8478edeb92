// A plan CTA by CTA, segment by segment, as rows (what `lastwave plan` prints and the Python
// module's plan() returns): the main launch's CTAs in order, then the reduction launch's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/decomp/plan.hpp"
#include "sim/decomp/walk.hpp"

namespace lw {

struct PlanStep {
  int launch = 0;                  // 0: the GEMM launch; 1: the separate reduction launch
  int64_t cta = 0;                 // CTA index within its launch
  int64_t seq = 0;                 // position in that CTA's walk
  int64_t tile_m = 0, tile_n = 0;  // the output tile's coordinates
  Segment segment;
};

// The most segments plan_steps lists: a million lines is past reading, and a plan of 7.8e7 tiles
// took a minute and 17 GB to list before (lastwave predict gives such a plan's time).
inline constexpr int64_t kMaxPlanSteps = int64_t{1} << 20;

// Every segment of `plan`, walked as the simulator and the kernels walk it (walk_next). Throws
// std::invalid_argument (one line) past kMaxPlanSteps segments.
std::vector<PlanStep> plan_steps(const Plan& plan);

// `lastwave plan --format csv`: a header and one line per step.
std::string plan_csv(const std::vector<PlanStep>& steps);

}  // namespace lw

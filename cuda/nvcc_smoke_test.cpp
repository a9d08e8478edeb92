// Links the nvcc-built //cuda:nvcc_smoke into a host test; calls host code only (CI has no GPU).
// The nvcc-compiled walk must agree with the host compiler's walk of the same plan.
#include "cuda/nvcc_smoke.hpp"

#include <doctest/doctest.h>

#include "sim/decomp/planners/planners.hpp"
#include "sim/decomp/walk.hpp"

TEST_CASE("nvcc-built object links and its host function runs") {
  CHECK(lw_nvcc_smoke_sm_count_needed() == 1);
}

TEST_CASE("nvcc and the host compiler walk sim/decomp plans identically") {
  const lw::Planned planned =
      lw::plan_cutlass(lw::Problem{3072, 2304, 4096}, lw::TileShape{}, lw::GpuShape{132, 1},
                       lw::CutlassMode::Heuristic, 1, lw::Reduction::Deterministic);
  int64_t total = 0;
  for (int64_t cta = 0; cta < planned.plan.grid; ++cta) {
    lw::CtaWalk w;
    lw::walk_begin(planned.plan, cta, w);
    lw::Segment s;
    int64_t n = 0;
    while (lw::walk_next(planned.plan, w, s)) ++n;
    CHECK(lw_nvcc_smoke_count_segments(planned.plan, cta) == n);
    total += n;
  }
  CHECK(total > planned.plan.tiles);  // split tiles add segments beyond one per tile
}

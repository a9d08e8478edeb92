// Fit cases: a measurement joined with the plan the simulator executes for it, and the parallel
// sweep that simulates many cases under one cost model.
#pragma once
#include <vector>

#include "calib/measurements.hpp"
#include "models/cost_model.hpp"

namespace lw {

struct FitCase {
  const Measurement* m = nullptr;
  Plan plan;
  int64_t ctas_per_sm = 1;
};

// Plans every measurement with its own tile, or `tile` when the row names none. Throws "FILE:LINE:
// ..." when the measured grid differs from the plan's (the kernel and the simulator would not be
// running the same plan).
std::vector<FitCase> build_cases(const std::vector<Measurement>& ms, const TileShape& tile,
                                 int64_t ctas_per_sm);

// Simulated makespan of each case (time unit of the model); deadlocks give +infinity. A run the
// simulator refuses (a cost model giving a non-finite or negative time) throws its message.
std::vector<double> simulate_cases(const CostModel& model, const std::vector<FitCase>& cases);

}  // namespace lw

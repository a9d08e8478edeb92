// Synthetic measurement files for calibration tests: makespans simulated under a known model,
// written in lastwave-bench's CSV schema, so a fit must recover the known parameters.
#pragma once
#include <string>
#include <vector>

#include "models/registry.hpp"
#include "sim/decomp/types.hpp"

namespace lw::testing {

struct SyntheticSpec {
  std::vector<Problem> shapes;
  std::vector<std::string> schedules;
  std::vector<int64_t> sms;
  TileShape tile;
  std::vector<TileShape> tiles;  // when non-empty: every tile (CSV column "tile"), not `tile`
  std::string model = "calibrated";
  ParamValues params;
};

// A log-spaced grid of shapes between lo and hi (per dimension `steps` values).
std::vector<Problem> shape_grid(int64_t lo, int64_t hi, int steps);

// CSV text with the bench's header; makespans from simulating `spec` on the h200 preset.
std::string synthetic_csv(const SyntheticSpec& spec);

// A small calibration input: 27 shapes (512-4096) x dp, splitk:2, streamk at 132 and 64 SMs under
// the default calibrated parameters, written to DIR/good.csv; returns the path.
std::string small_synthetic_csv(const std::string& dir);

// A unique empty directory under TEST_TMPDIR (or /tmp).
std::string temp_dir(const std::string& name);

}  // namespace lw::testing

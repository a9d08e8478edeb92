// Fuzz target: --tile MxNxK parsing (parse_tile, sim/api/predict_run.hpp, as cli/common.hpp
// names it) and the geometry check every accepted tile then goes through.
#include "sim/api/predict_run.hpp"
#include "tests/fuzz/fuzz_util.hpp"

namespace {
constexpr lw::Problem kProblem{4096, 4096, 4096};
constexpr lw::GpuShape kGpu{132, 1};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    const lw::TileShape t = lw::parse_tile(text);
    if (t.m < 1 || t.n < 1 || t.k < 1) lw::fuzz::bug("accepted a non-positive tile");
    lw::plan_geometry(kProblem, t, kGpu);
  });
  return 0;
}

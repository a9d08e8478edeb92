// Fuzz target: the measurements CSV reader (calib/measurements.hpp), through a file as
// `lastwave calibrate` reads it.
#include <cmath>

#include "calib/measurements.hpp"
#include "tests/fuzz/fuzz_util.hpp"

namespace {
constexpr double kHoldout = 0.2;
constexpr uint64_t kSeed = 1;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static lw::fuzz::ScratchFile file;
  const std::string& path = file.write(lw::fuzz::as_text(data, size));
  lw::fuzz::expect_documented([&] {
    int64_t skipped = 0;
    for (const auto& m : lw::read_all_measurements({path}, &skipped)) {
      if (!(m.median_us > 0) || !std::isfinite(m.p10_us) || !std::isfinite(m.p90_us)) {
        lw::fuzz::bug("accepted a bad time");
      }
      lw::held_out(m.problem, kHoldout, kSeed);
    }
  });
  return 0;
}

// Fuzz target: the shapes CSV reader (sim/util/shapes_csv.hpp).
#include "sim/util/shapes_csv.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    for (const auto& p : lw::parse_shapes_csv(text, "fuzz.csv")) {
      if (p.m < 1 || p.n < 1 || p.k < 1) lw::fuzz::bug("accepted a non-positive dimension");
    }
  });
  return 0;
}

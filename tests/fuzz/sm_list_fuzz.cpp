// Fuzz target: lastwave-bench's --sms list parsing (cuda/bench/int_list.hpp).
#include "cuda/bench/int_list.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    for (const int64_t v : lw::bench::parse_int_list(text, "--sms")) {
      if (v < 1) lw::fuzz::bug("accepted a non-positive SM count");
    }
  });
  return 0;
}

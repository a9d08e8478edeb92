// Fuzz target: the lastwave-bench --configs reader (cuda/bench/config_csv.hpp).
#include "cuda/bench/config_csv.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    const auto configs = lw::bench::parse_configs_csv(text, "fuzz.csv");
    if (configs.empty()) lw::fuzz::bug("accepted a file without configurations");
    for (const auto& c : configs) {
      if (lw::kernel_tile_index(c.tile) < 0 || !lw::kernel_has_cluster(c.cluster)) {
        lw::fuzz::bug("accepted a tile or cluster the kernels do not have");
      }
    }
  });
  return 0;
}

// Fuzz target: the GPU preset JSON loader (parse_gpu_preset, gpu/gpu_spec.hpp) and the
// partition derived from a preset (gpu_with_sms).
#include "gpu/gpu_spec.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = lw::fuzz::as_text(data, size);
  lw::fuzz::expect_documented([&] {
    const lw::GpuSpec spec = lw::parse_gpu_preset(text, "fuzz input");
    lw::gpu_with_sms(1, &spec);
  });
  return 0;
}

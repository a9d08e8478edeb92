// Fuzz target: the fitted-model file loader (make_model_from_file, models/registry.hpp), through a
// file as `--model FILE.json` reads it.
#include "models/registry.hpp"
#include "tests/fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static lw::fuzz::ScratchFile file;
  static const lw::GpuSpec gpu = lw::gpu_preset("h200");
  const std::string& path = file.write(lw::fuzz::as_text(data, size));
  lw::fuzz::expect_documented([&] {
    if (!lw::make_model_from_file(path, {}, gpu)) lw::fuzz::bug("null model without an error");
  });
  return 0;
}
